#!/usr/bin/env bash
# Configuration: `machine template NAME` in an empty folder without --out, again over the written file (after an
#                edit), with --force; with --file PATH (new, existing, existing with --force, a symbolic link, with
#                --out too, in a missing folder); a NAME that is a machine (frontier) without --like, and with
#                --like cielo; a scenario written for the SeaStar run on the (Gemini) template.
# Expected:      without --out the file is ompisim-out/NAME.json (the folder `run` writes under without --out, not
#                the current folder and not results/), and stderr names the absolute path written; an existing file
#                is refused (exit 2, kept as edited) unless --force; --file writes exactly there; a link, --file with
#                --out and a missing folder are refused (exit 2) naming --file; `machine template frontier` starts
#                from frontier's file (its description says so, its NIC is cxi), with --like cielo from Cielo's; the
#                SeaStar scenario runs with a note that its stack now means the Gemini machine's components.
# How validated: exit status, stderr text, the files in the folder and their checksums.
set -u
BIN=$(realpath "$1"); t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
mkdir "$t/cwd"; cd "$t/cwd"
ok() { echo "ok   $1"; }
ko() { echo "FAIL $1"; fail=1; }
"$BIN" machine template mine > "$t/out" 2> "$t/err"; rc=$?
[[ $rc == 0 && -s ompisim-out/mine.json && "$(ls -A)" == "ompisim-out" && "$(ls -A ompisim-out)" == "mine.json" \
   && "$(cat "$t/err")" == "ompisim: wrote $t/cwd/ompisim-out/mine.json (use it with run --machine-file $t/cwd/ompisim-out/mine.json)" ]] \
  && ok "no --out: ompisim-out/mine.json, path printed" || ko "no --out: rc=$rc $(cat "$t/err"), files: $(ls -AR | tr '\n' ' ')"
python3 -c "import json; assert json.load(open('ompisim-out/mine.json'))['machine'] == 'mine'" \
  && ok "the template names the machine" || ko "the template's machine name"
orig=$(sha256sum < ompisim-out/mine.json)
echo " " >> ompisim-out/mine.json; edited=$(sha256sum < ompisim-out/mine.json)
"$BIN" machine template mine > "$t/out" 2> "$t/err"; rc=$?
[[ $rc == 2 && $(sha256sum < ompisim-out/mine.json) == "$edited" ]] && grep -q "exists (it may hold your edits).*--force" "$t/err" \
  && ok "an existing file is refused, kept: $(cat "$t/err")" || ko "existing: rc=$rc $(cat "$t/err")"
"$BIN" machine template mine --force > "$t/out" 2> "$t/err"; rc=$?
[[ $rc == 0 && $(sha256sum < ompisim-out/mine.json) == "$orig" ]] && grep -q "^ompisim: wrote $t/cwd/ompisim-out/mine.json" "$t/err" \
  && ok "--force replaces it" || ko "--force: rc=$rc $(cat "$t/err")"
mkdir "$t/elsewhere"
"$BIN" machine template box --file "$t/elsewhere/box-machine.json" > "$t/out" 2> "$t/err"; rc=$?
[[ $rc == 0 && -s "$t/elsewhere/box-machine.json" && "$(ls -A "$t/elsewhere")" == "box-machine.json" ]] \
  && grep -q "^ompisim: wrote $t/elsewhere/box-machine.json " "$t/err" \
  && ok "--file writes there: $(cat "$t/err")" || ko "--file: rc=$rc $(cat "$t/err")"
refused() {  # name pattern args...
  local name=$1 pat=$2; shift 2
  "$BIN" machine template "$@" > "$t/out" 2> "$t/err"; local rc=$?
  [[ $rc == 2 && $(wc -l < "$t/err") == 1 ]] && grep -q -- "$pat" "$t/err" && ok "$name: $(cat "$t/err")" \
    || ko "$name: rc=$rc $(cat "$t/err")"
}
refused "--file over an existing file" "^ompisim: error: --file '$t/elsewhere/box-machine.json': .* exists" \
  box --file "$t/elsewhere/box-machine.json"
"$BIN" machine template box --file "$t/elsewhere/box-machine.json" --force > /dev/null 2>&1 \
  && ok "--file --force replaces it" || ko "--file --force"
ln -s box-machine.json "$t/elsewhere/link.json"
refused "--file naming a symbolic link" "^ompisim: error: --file '$t/elsewhere/link.json': is a symbolic link" \
  box --file "$t/elsewhere/link.json" --force
refused "--file with --out" "^ompisim: error: --file 'x.json': give --file PATH or --out DIR, not both" \
  box --file x.json --out d
refused "--file in a missing folder" "^ompisim: error: --file 'nodir/x.json': folder 'nodir' does not exist" \
  box --file nodir/x.json
# a NAME that is a machine: its own file without --like, the one --like names with it
"$BIN" machine template frontier --file "$t/elsewhere/frontier.json" > /dev/null 2> "$t/err" \
  && "$BIN" machine template frontier --like cielo --file "$t/elsewhere/frontier-cielo.json" > /dev/null 2>> "$t/err" \
  && python3 - "$t/elsewhere" <<'P' && ok "a NAME that is a machine starts from its own file; --like still chooses" || ko "NAME a machine: $(cat "$t/err")"
import json, sys
own, cielo = (json.load(open(f"{sys.argv[1]}/{n}.json")) for n in ("frontier", "frontier-cielo"))
kinds = lambda m: sorted(n["nic"]["kind"] for n in m["networks"].values())
assert own["description"].startswith("frontier: a machine file started from frontier ("), own["description"]
assert kinds(own) == ["cxi"], kinds(own)
assert cielo["description"].startswith("frontier: a machine file started from cielo ("), cielo["description"]
assert kinds(cielo) == ["gemini"], kinds(cielo)
P
# a scenario written for another NIC run on the template (Cielo's Gemini): a note says that its stack now means this
# machine's components; a scenario of the same NIC kind gets none
"$BIN" run scenarios/seastar/fig2_netpipe_native.json --machine-file ompisim-out/mine.json --out "$t/ms" > /dev/null 2> "$t/err"; rc=$?
"$BIN" run scenarios/gemini/fig5_latency_2p_inter_native.json --machine-file ompisim-out/mine.json --out "$t/ms" > /dev/null 2> "$t/err2"; rc2=$?
[[ $rc == 0 && $rc2 == 0 ]] && grep -q "^ompisim: note: the scenario was written for machine red-storm (seastar NIC); --machine-file runs it on mine (gemini NIC), where stack 'native' is that machine's components" "$t/err" \
  && ! grep -q "note:" "$t/err2" && ok "another NIC's scenario on the file: noted" || ko "machine swap note: rc=$rc/$rc2 $(cat "$t/err" "$t/err2")"
[[ "$(ls -A)" == "ompisim-out" && "$(ls -A ompisim-out)" == "mine.json" ]] && ok "nothing else written here" \
  || ko "stray files: $(ls -AR | tr '\n' ' ')"
# a ranged estimate's note says to edit its range with it; a value edited beyond its range is refused naming the range
# and what to do (exit 2)
python3 - <<'PY' || fail=1
import json
m = json.load(open("ompisim-out/mine.json")); e = m["networks"]["gemini"]["nic"]["bte_post_latency"]
assert "range" in e and e["note"].endswith(", and the range around it (or remove range and range_source)"), e["note"]
e["value"] = "5 us"; json.dump(m, open("edited.json", "w"))
PY
cat > lat.json <<'J'
{"id": "lat", "machine": "cielo", "stack": "openmpi", "ranks": 2, "ranks_per_node": 1,
 "benchmark": {"name": "osu_latency", "sizes": [8], "iterations": 2, "skip": 0}}
J
"$BIN" run lat.json --machine-file edited.json --out "$t/o-edited" > /dev/null 2> "$t/err"; rc=$?
[[ $rc == 2 ]] && grep -q "edited.json: key 'networks.gemini.nic.bte_post_latency.range': the range \[0.5 us, 3 us\] does not contain the value 5 us (.*remove \"range\" and \"range_source\")" "$t/err" \
  && ok "a value edited beyond its range: the range named, what to do said" || ko "value beyond range: rc=$rc $(cat "$t/err")"
rm -f edited.json lat.json
exit $fail
