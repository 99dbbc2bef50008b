#!/bin/sh
# pmctool's own user-mode instructions for one command (issue 39 item 3b): valgrind's callgrind counts every
# instruction pmctool's process executes (the dynamic loader, libc and libpfm4 included; the measured command and
# every other child are not followed), exactly and the same on every run of the same binary. Prints one JSON line;
# with --limit N, exits 1 when the count is above N (a guard for CI, where valgrind is installed).
# Usage: bench/own_instructions.sh [--build DIR] [--limit N] [-- PMCTOOL-ARGS...]
#        default arguments: stat -e task-clock -- true
# Kernel-mode instructions are not seen by valgrind: the arm64 rig (tests/rig), where the clock counts instructions,
# is where those are exact.
set -eu
build=build
limit=
while [ $# -gt 0 ]; do
	case $1 in
	--build) build=$2; shift 2 ;;
	--limit) limit=$2; shift 2 ;;
	--) shift; break ;;
	*) echo "own_instructions: unknown argument '$1' (--build DIR, --limit N, -- ARGS)" >&2; exit 2 ;;
	esac
done
[ $# -gt 0 ] || set -- stat -e task-clock -- true
command -v valgrind >/dev/null 2>&1 || { echo "own_instructions: valgrind is needed (apt-get install valgrind)" >&2; exit 2; }
[ -x "$build/pmctool" ] || { echo "own_instructions: no $build/pmctool: build first (ninja -C $build)" >&2; exit 2; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# MALLOC_PERTURB_ (meson test sets it) makes glibc fill every allocation: about 220,000 instructions more here.
env -u MALLOC_PERTURB_ valgrind --tool=callgrind --trace-children=no --callgrind-out-file="$out" "$build/pmctool" "$@" >/dev/null 2>&1 || true
n=$(sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$out" | head -n 1)
[ -n "$n" ] || { echo "own_instructions: callgrind wrote no summary" >&2; exit 2; }
printf '{"command": "pmctool %s", "user_instructions": %s%s}\n' "$*" "$n" "${limit:+, \"limit\": $limit}"
[ -z "$limit" ] || [ "$n" -le "$limit" ] || { echo "own_instructions: $n instructions, above the limit $limit" >&2; exit 1; }
