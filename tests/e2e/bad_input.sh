#!/usr/bin/env bash
# Configuration: malformed scenarios. Expected: exit status 2, a one-line error naming file, key and reason, and no
# result file written. How validated: lib_check.sh's check (exit code, grep on stderr, line count, no output directory).
set -u
BIN=$1; t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
. "$(dirname "$0")/lib_check.sh"
SRC_SCN=$(cd "$(dirname "$0")/../.." && pwd)/scenarios/gemini/fig3_latency_2p_intra_openmpi.json
B='"machine": "cielo", "stack": "openmpi", "benchmark": {"name": "osu_latency", "sizes": [1]}'
check unknown_key "{$B, \"ranks\": 2, \"ranks_per_node\": 1, \"rankz\": 3}" "rankz.*did you mean 'ranks'"
check odd_pair_ranks "{$B, \"ranks\": 3, \"ranks_per_node\": 1}" "key 'ranks': osu_latency runs on exactly 2 ranks, got 3"
check wrong_type "{$B, \"ranks\": \"two\", \"ranks_per_node\": 1}" "key 'ranks': expected an integer"
check negative_size '{"machine": "cielo", "stack": "openmpi", "benchmark": {"name": "osu_latency", "sizes": [-4]}, "ranks": 2}' "sizes\[0\]"
# a size in floating point (512.0, 1e3, 1e20, 0.5), in quotes without its unit ("512"), or given twice (512 and "512 B"; 1024 and "1 KiB")
S='"machine": "cielo", "stack": "openmpi", "ranks": 2, "benchmark": {"name": "osu_latency", "sizes": '
check size_float "{$S[8, 512.0]}}" "key 'benchmark.sizes\[1\]': 512.0 is written in floating point (a decimal point or an exponent): a size in bytes is an integer, written 512 (or as a string with its unit, \"512 B\")"
check size_exponent "{$S[8, 1e3]}}" "key 'benchmark.sizes\[1\]': 1000.0 is written in floating point (a decimal point or an exponent): a size in bytes is an integer, written 1000"
check size_huge "{$S[8, 100000000000000000000]}}" "key 'benchmark.sizes\[1\]': 1e+20 is far beyond any size in bytes here"
check size_fraction "{$S[8, 0.5]}}" "key 'benchmark.sizes\[1\]': 0.5 is not a whole number of bytes"
check size_no_unit "{$S[8, \"512\"]}}" "key 'benchmark.sizes\[1\]': '512' has no unit: a size is written with one of: B, GiB, KiB, MiB ('512 B'), or as a number of bytes without quotes"
check size_twice "{$S[8, 512, \"512 B\"]}}" "key 'benchmark.sizes\[2\]': 512 B is sizes\[1\] again (512): give each size once"
check size_twice_units "{$S[\"1 KiB\", 8, 1024]}}" "key 'benchmark.sizes\[2\]': 1024 B is sizes\[0\] again (\"1 KiB\"): give each size once"
# a folder given for a scenario file: how many files it holds and the first of them
mkdir -p "$t/folder"; echo '{}' > "$t/folder/b.json"; echo '{}' > "$t/folder/a.json"
expect_input_error scenario_folder "folder: a folder, not a file: give one of its 2 .json files (e.g. $t/folder/a.json; " run "$t/folder"
check too_many_ranks '{"machine": "cielo", "stack": "openmpi", "benchmark": {"name": "osu_multi_lat", "sizes": [1]}, "ranks": 200000, "ranks_per_node": 16}' "do not fit on cielo"
# the same with a bound on the run's size, and described: the ranks that do not fit are named, not an estimate of a
# run that cannot start
check too_many_ranks_bounded '{"machine": "cielo", "stack": "openmpi", "benchmark": {"name": "osu_multi_lat", "sizes": [1]}, "ranks": 200000, "ranks_per_node": 16}' "do not fit on cielo" --max-events 100
expect_input_error too_many_ranks_described "too_many_ranks.json: key 'ranks': 200000 ranks do not fit on cielo" describe "$t/too_many_ranks.json"
# a stack without a BTL that reaches a pair of its ranks (no network BTL, ranks on two nodes): an input error naming the
# key, not an internal error (exit 3)
check unreachable_btl '{"machine": "cielo", "stack": {"pml": "ob1", "btl": ["self", "vader"]}, "benchmark": {"name": "osu_latency", "sizes": [1]}, "ranks": 2, "ranks_per_node": 1}' "unreachable_btl.json: key 'stack': bml/r2: rank 0 cannot reach rank 1 with any BTL of the stack"
check bad_unit '{"machine": "cielo", "stack": "openmpi", "benchmark": {"name": "osu_latency", "sizes": [1]}, "ranks": 2, "mca": {"btl_ugni_eager_limit": "8 Kb/s"}}' "btl_ugni_eager_limit"
check unknown_machine '{"machine": "cielox", "stack": "openmpi", "benchmark": {"name": "osu_latency"}, "ranks": 2}' "did you mean 'cielo'"
check wrong_stack '{"machine": "loggp", "stack": "openmpi", "benchmark": {"name": "osu_latency"}, "ranks": 2}' "stack 'openmpi' runs on gemini or ib-sdr-pcie or gige machines, but machine 'loggp' has a loggp NIC (stacks there: loggp)"
# a name in other letter case, and a component where a stack goes: the name meant, the presets that have it
check stack_case '{"machine": "cielo", "stack": "OpenMPI", "benchmark": {"name": "osu_latency"}, "ranks": 2}' "key 'stack': unknown stack 'OpenMPI' (did you mean 'openmpi'?)"
check machine_case '{"machine": "Cielo", "stack": "openmpi", "benchmark": {"name": "osu_latency"}, "ranks": 2}' "key 'machine': unknown machine 'Cielo' (did you mean 'cielo'?)"
check engine_case '{"machine": "cielo", "stack": "openmpi", "benchmark": {"name": "osu_latency"}, "ranks": 2, "engine": "SimGrid"}' "key 'engine': expected one of .* (did you mean 'simgrid'?)"
check stack_component '{"machine": "cielo", "stack": "ugni", "benchmark": {"name": "osu_latency"}, "ranks": 2}' "key 'stack': 'ugni' is a component (btl/ugni), not a stack: give a preset that has it or such an object of components (openmpi (gemini machines) {\"btl\":\[\"self\",\"vader\",\"ugni\"\],\"pml\":\"ob1\"}; ompisim describe btl/ugni)"
check unknown_component '{"machine": "cielo", "stack": {"pml": "ob1", "btl": ["self", "ugnii"]}, "benchmark": {"name": "osu_latency", "sizes": [1]}, "ranks": 2}' "key 'stack.btl\[1\]'.*unknown btl component 'ugnii'.*did you mean 'ugni'"
check unknown_benchmark '{"machine": "cielo", "stack": "openmpi", "benchmark": {"name": "osu_latencyy"}, "ranks": 2}' "key 'benchmark.name': unknown benchmark 'osu_latencyy' (did you mean 'osu_latency'?)"
check benchmark_unknown_key '{"machine": "cielo", "stack": "openmpi", "benchmark": {"name": "osu_bw", "windw": 8}, "ranks": 2}' "key 'benchmark.windw': unknown key (did you mean 'window'?)"
check smb_window '{"machine": "red-storm", "stack": "native", "benchmark": {"name": "smb_overhead", "window": 8}, "ranks": 2}' "key 'benchmark.window': unknown key"
check misspelled_required '{"machine": "cielo", "stack": "openmpi", "benchmrak": {"name": "osu_latency"}, "ranks": 2}' "key 'benchmark': required key is missing (is 'benchmrak' a misspelling of it?)"
check truncated '{"machine": "cielo", ' "not valid JSON"
# "paper" names a reference file: a misspelt one is refused with the names there (plots lost their paper's points)
check unknown_scenario_paper "{$B, \"ranks\": 2, \"ranks_per_node\": 1, \"paper\": \"gemini-xe-kx\"}" "key 'paper': unknown paper 'gemini-xe-kx' (did you mean 'gemini-xe-xk'?)"
check plot_field "{$B, \"ranks\": 2, \"ranks_per_node\": 1, \"plot\": \"../../x\"}" "key 'plot': expected the name of a result field"
# a NUL character (JSON "\u0000") in a value or a key is refused by the reader: the error line stays whole (a C string
# would end at it and drop the reason)
check nul_value "{$B, \"ranks\": 2, \"ranks_per_node\": 1, \"figure\": \"../a\\u0000b\"}" "key 'figure': holds a NUL character (\\\\u0000): no key or value takes one$"
check nul_key "{$B, \"ranks\": 2, \"ranks_per_node\": 1, \"a\\u0000b\": 1}" "key 'a\\\\u0000b': holds a NUL character"
# an empty node list is refused as an empty cpu_list is, not read as "no list"
check empty_nodes "{$B, \"ranks\": 2, \"ranks_per_node\": 1, \"nodes\": []}" "key 'nodes': an empty node list places no rank"
# a count is whole: "1.5" as a string was rounded silently, 1.5 as a number was asked for "with its unit"
check fractional_count "{$B, \"ranks\": 2, \"ranks_per_node\": 1, \"mca\": {\"pml_ob1_send_pipeline_depth\": \"1.5\"}}" "key 'mca.pml_ob1_send_pipeline_depth': '1.5' is not a whole number (a count)"
check count_number "{$B, \"ranks\": 2, \"ranks_per_node\": 1, \"mca\": {\"pml_ob1_send_pipeline_depth\": 1.5}}" "key 'mca.pml_ob1_send_pipeline_depth': expected a count (a whole number, e.g. 4), got 1.5"
# a number beyond a double's range, or one whose value in base units overflows, is named as such
check huge_unit_number "{$B, \"ranks\": 2, \"ranks_per_node\": 1, \"engine_window\": \"1e999 us\"}" "key 'engine_window': '1e999 us': the number is beyond the range of a double"
# a whole number above 2^63 - 1 is named as given, not wrapped to a negative value ("value -1 is out of range")
check u64_ranks "{$B, \"ranks\": 18446744073709551615}" "key 'ranks': value 18446744073709551615 is beyond the largest whole number read (9223372036854775807)$"
check u64_node "{$B, \"ranks\": 2, \"nodes\": [0, 10000000000000000000]}" "key 'nodes\[1\]': value 10000000000000000000 is beyond the largest whole number read"
check u64_size_param "{$B, \"ranks\": 2, \"ranks_per_node\": 1, \"mca\": {\"btl_ugni_smsg_limit\": 18446744073709551615}}" "key 'mca.btl_ugni_smsg_limit': value 18446744073709551615 is beyond the largest whole number read"
# an unknown --paper lists the papers there are, with a did-you-mean when one is close or holds it (one paper only)
expect_input_error unknown_paper "--paper 'gemini': no reference data for this paper (did you mean 'gemini-xe-xk'?) (papers: gemini-xe-xk, heterogeneous, qsnet-elan4, seastar-portals, slingshot-ex)" validate --paper gemini
expect_input_error part_of_paper_name "--paper 'Elan4': no reference data for this paper (did you mean 'qsnet-elan4'?)" validate --paper Elan4
expect_input_error misspelled_validate_paper "did you mean 'slingshot-ex'" validate --paper slingshotex
expect_input_error no_such_paper "--paper 'myrinet': no reference data for this paper (papers: " validate --paper myrinet
expect_input_error empty_paper "--paper: empty value" validate --paper ""
# --samples is bounded: 1e8 samples ended in std::bad_alloc (exit 3) after a minute, before any run
expect_input_error too_many_samples "--samples '100000000': must be 0 to 1000 (each sample reruns every scenario of the paper)" validate --paper gemini-xe-xk --samples 100000000
expect_input_error negative_samples "--samples '-1': must be 0 to 1000" validate --paper gemini-xe-xk --samples -1
expect_input_error empty_free "--free: empty value" calibrate --paper qsnet-elan4 --free ""
expect_input_error misspelled_paper "did you mean 'seastar-portals'" calibrate --paper seastar-portal
# calibrate fits the machine the paper's calibration points run on: another is refused before any run, naming it
expect_input_error calibrate_other_machine "--machine 'cielo': the calibration points of seastar-portals run on machine 'red-storm'.*give --machine red-storm" calibrate --paper seastar-portals --machine cielo
# validate --machine-file of a machine no scenario of the paper runs on would be used by none: refused before any run
"$BIN" machine template my-cielo --out "$t/m" 2> /dev/null
expect_input_error unused_machine_file "its machine 'my-cielo' is the machine of no scenario of gemini-xe-xk (they run on cielo)" validate --paper gemini-xe-xk --machine-file "$t/m/my-cielo.json"
# an empty --engine is refused, not taken as "the scenario's own engine"
expect_input_error empty_run_engine "--engine: empty value" run "$SRC_SCN" --engine "" --out "$t/out-empty_run_engine"
expect_input_error empty_compare_engine "--engine: empty value" compare --against "$t" --engine ""
# sensitivity --mca names are checked against the scenario's stack before the first run (refused at once, not after it)
expect_input_error sensitivity_mca_machine "--mca 'btl_ugni_smsg_limit': parameter of btl/ugni.*this machine is qsnet" \
  sensitivity "$(dirname "$SRC_SCN")/../qsnet/fig10_latency_openmpi.json" --mca btl_ugni_smsg_limit
# a step below what the results' floating-point rounding allows (S off by 2e-3 at 1e-12)
expect_input_error sensitivity_small_step "--step '1e-07': must be in \\[1e-06, 1): S divides the difference of two simulated results by the step, and the results carry floating-point rounding" \
  sensitivity "$SRC_SCN" --step 1e-7
expect_input_error sensitivity_mca_unknown "--mca 'mca.btl_ugni_smsg_limt': unknown MCA parameter (did you mean 'btl_ugni_smsg_limit'?)" \
  sensitivity "$SRC_SCN" --mca btl_ugni_smsg_limt
# a run refused after its default output folder was made (an unknown --set key, found by the run) leaves no
# ompisim-out/ behind in the current directory: the folder and the parents it created go
mkdir "$t/cwd"; (cd "$t/cwd" && "$BIN" run "$SRC_SCN" --set bogus=1 > /dev/null 2> "$t/cwd.err"); rc=$?
if [[ $rc != 2 ]] || [[ -n $(ls -A "$t/cwd") ]]; then echo "FAIL default_out_left: rc=$rc left: $(ls -A "$t/cwd")"; fail=1
else echo "ok   default_out_left: $(cat "$t/cwd.err")"; fi
exit $fail
