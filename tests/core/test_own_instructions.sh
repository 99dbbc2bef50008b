#!/usr/bin/env bash
# pmctool's own user-mode instructions stay bounded (issue 39 item 3b): bench/own_instructions.sh counts, with
# callgrind, every instruction pmctool's own process executes for a command (the dynamic loader, libc, libpfm4
# included; the measured command not). The count is exact for one binary and one libc; the limits leave room for
# libc's CPU-dependent string functions (ifuncs) and nothing more: work that a run does not need, added before or
# around it, fails here. Measured 2026-11-29: 691,180 (stat -e task-clock -- true; 903,647 before issue 39) and
# 1,473,442 (stat -- true, the default set).
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
check 800000 stat -e task-clock -- true
check 1600000 stat -- true
