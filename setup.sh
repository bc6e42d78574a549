#!/usr/bin/env bash
# Installs what is missing (Debian 12, root), builds, and with "reproduce" runs every scenario into results/.
#   ./setup.sh reproduce   -> install, build, reproduce every figure (results/*.json, *.csv, *.svg, validation.md)
#   ./setup.sh test        -> install, build, run the whole test suite (ctest)
#   ./setup.sh             -> this usage, exit 2 (as any other argument), before installing or building anything
set -euo pipefail
case "${1:-}" in
  reproduce | test) ;;
  *) echo "usage: $0 reproduce|test" >&2; exit 2 ;;
esac
cd "$(dirname "$0")"
pkgs=(build-essential cmake ninja-build pkg-config python3 libsimgrid-dev libboost-graph-dev libeigen3-dev
      nlohmann-json3-dev catch2 libcli11-dev libfmt-dev gnuplot-nox libjemalloc-dev openmpi-bin libopenmpi-dev pajeng
      python3-jsonschema help2man bash-completion)
missing=()
for p in "${pkgs[@]}"; do dpkg -s "$p" > /dev/null 2>&1 || missing+=("$p"); done
if (( ${#missing[@]} )); then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" > /dev/null
fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build build -j2
# bash completion for the tool's subcommands and options (read from its --help), read by bash-completion in every new
# interactive shell, for `ompisim` and `build/bin/ompisim`
install -D -m 644 tools/completion/ompisim.bash /etc/bash_completion.d/ompisim 2> /dev/null \
  || echo "setup.sh: bash completion not installed (not root): 'source tools/completion/ompisim.bash' in your shell" >&2
case "$1" in
  reproduce)  # scenarios at once: one per core, at most 8 (the largest take about 650 MiB each)
    jobs=$(nproc); ((jobs > 8)) && jobs=8
    ./build/bin/ompisim reproduce -j "$jobs" ;;
  test) cd build && ctest -j2 --output-on-failure ;;
esac
