#!/usr/bin/env bash
# Configuration: setup.sh (copied into an empty folder, so that nothing of the repository could be built or run) with
#                no argument and with an unknown one ("bogus"), with apt-get, dpkg, cmake and install on PATH replaced
#                by stand-ins that record being called.
# Expected:      exit 2 and the usage on stderr, with none of the stand-ins called (the argument is checked before
#                anything is installed or built) and nothing written into the folder.
# How validated: exit status, stderr text, the stand-ins' record.
set -u
SRC=$(realpath "$1"); t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
mkdir "$t/bin" "$t/repo"
cp "$SRC/setup.sh" "$t/repo/setup.sh"
for tool in apt-get dpkg cmake install ninja; do
  printf '#!/bin/sh\necho "%s $*" >> "%s/called"\n' "$tool" "$t" > "$t/bin/$tool"
  chmod +x "$t/bin/$tool"
done
for args in "" "bogus"; do
  name="./setup.sh${args:+ $args}"
  rm -f "$t/called"
  # shellcheck disable=SC2086  # no argument at all when $args is empty
  (cd "$t/repo" && PATH="$t/bin:$PATH" bash ./setup.sh $args > "$t/out" 2> "$t/err"); rc=$?
  if [[ $rc == 2 && ! -e "$t/called" && "$(cat "$t/err")" == "usage: ./setup.sh reproduce|test"* && ! -s "$t/out" \
        && "$(ls -A "$t/repo")" == "setup.sh" ]]; then
    echo "ok   $name: exit 2, the usage, nothing installed or built"
  else
    echo "FAIL $name: exit $rc, stderr: $(head -c 300 "$t/err"), called: $(tr '\n' ';' < "$t/called" 2> /dev/null | head -c 300)"
    fail=1
  fi
done
exit $fail
