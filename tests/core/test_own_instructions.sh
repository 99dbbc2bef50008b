#!/usr/bin/env bash
# pmctool's own user-mode instructions stay bounded (issue 39 item 3b): bench/own_instructions.sh counts, with
# callgrind, every instruction pmctool's own process executes for a command (the dynamic loader, libc, libpfm4
# included; the measured command not). The count is exact for one binary and one libc; the limits leave room for
# libc's CPU-dependent string functions (ifuncs) and nothing more: work that a run does not need, added before or
# around it, fails here. Measured 2026-11-29: 473,858 (stat -e task-clock -- true; 903,647 before issue 39, 691,180
# before its second pass) and 1,085,586 (stat -- true, the default set; 1,473,442 before). The limits are about 1.3 x
# those. User and kernel mode together, exact, on the arm64 rig: bench/own_cost_rig.sh (rig group t14_own_cost).
source "$PMC_SOURCE_DIR/tests/lib.sh"
command -v valgrind >/dev/null || skip "valgrind is not installed (setup.sh installs it)"
sanitized_build && skip "a sanitizer build: valgrind cannot run it, and its count is not pmctool's"
B=$(dirname "$PMCTOOL")

check() {
	local limit=$1
	shift
	local out
	out=$(sh "$PMC_SOURCE_DIR/bench/own_instructions.sh" --build "$B" --limit "$limit" -- "$@" 2>&1) ||
		fail "pmctool $*: $out"
	ok "$out"
}
check 620000 stat -e task-clock -- true
check 1400000 stat -- true
