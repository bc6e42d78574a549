#!/usr/bin/env bash
# Writes help2man's include file for the man page: one subsection per subcommand (and per nested one, as
# `machine template`) holding that subcommand's own --help, so `man ompisim` documents every option, not only the
# list of subcommands. Read from the built tool, so it never drifts from --help.
# Usage: subcommands.sh OMPISIM OUT.h2m
set -euo pipefail
tool=$1; out=$2
subs() { "$@" --help | sed -n '/^Subcommands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p'; }
roff() {  # verbatim text: backslashes as \e, a leading . or ' made literal
  sed -e 's/\\/\\e/g' -e "s/^\([.']\)/\\\\\&\1/" -e '/^Exit status: /d' -e '/^Environment: /d'
}
{
  echo "[SUBCOMMANDS IN DETAIL]"
  for s in $(subs "$tool"); do
    nested=$(subs "$tool" "$s")
    for n in "" $nested; do
      echo ".SS \"ompisim $s${n:+ $n}\""
      echo ".nf"
      "$tool" "$s" $n --help | sed "s|^Usage: [^ ]*ompisim|Usage: ompisim|" | roff
      echo ".fi"
    done
  done
} > "$out.tmp"
mv "$out.tmp" "$out"
