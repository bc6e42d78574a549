#!/usr/bin/env bash
# Configuration: CMake configure of this source tree with -DOMPISIM_MPI=OFF (Ninja, into a temporary folder).
# Expected: the configure succeeds, says the tool is built without MPI, and the tool's link line names no MPI library
# (the compile of tools/ompisim/mpi_launch.cpp without OMPISIM_HAVE_MPI is the mpi_launch_nompi test).
# How validated: exit status, the status line, grep on build.ninja.
set -u
CMAKE=$1 SRC=$2; t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
"$CMAKE" -S "$SRC" -B "$t" -G Ninja -DCMAKE_BUILD_TYPE=Release -DOMPISIM_MPI=OFF > "$t/log" 2>&1 || { cat "$t/log"; echo "FAIL configure"; exit 1; }
grep -q "ompisim: built without MPI (OMPISIM_MPI=OFF" "$t/log" || { echo "FAIL no status line"; exit 1; }
link=$(grep -A3 "^build bin/ompisim:" "$t/build.ninja" | grep "LINK_LIBRARIES")
[[ -n "$link" ]] || { echo "FAIL no link line for bin/ompisim"; exit 1; }
if grep -qi "libmpi\|openmpi" <<< "$link" || grep -q "OMPISIM_HAVE_MPI" "$t/build.ninja"; then echo "FAIL MPI in the build without MPI"; exit 1; fi
echo "ok   configured without MPI; bin/ompisim links no MPI library"
