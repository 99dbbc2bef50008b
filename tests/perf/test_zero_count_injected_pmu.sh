#!/usr/bin/env bash
# Issue 11 item 14: a hardware event that counted 0 while the workload ran for milliseconds is not a clean report.
# The PMU is injected (tests/perf/fake_pmu.c with PMC_FAKE_PMU_ZERO=1: every hardware event opens and reads 0, as
# some hypervisors' virtual PMUs do); the workload and the software events are real.
source "$PMC_SOURCE_DIR/tests/lib.sh"

FAKE="$PMC_BUILD_DIR/tests/perf/fake_pmu.so"
[ -f "$FAKE" ] || fail "the fake PMU is not built: $FAKE"
inject=(env LD_PRELOAD="$FAKE" PMC_FAKE_PMU_ZERO=1 ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0")

set +e
"${inject[@]}" "$PMCTOOL" stat -e instructions,branch-misses,task-clock -- "$PMC_WORKLOAD" spin 5 >"$TMP/out" 2>"$TMP/err"
RC=$?
set -e
expect_rc 0 "a run whose hardware events read 0"
expect_err "\[warn\] zero-count: instructions counted 0 while the workload ran [0-9.]+ ms, which cannot be right" \
	"instructions at 0 over milliseconds is a warning"
expect_err "also 0: branch-misses" "the other zero is named"
ok "zero instructions over milliseconds: a zero-count warning"

set +e
"${inject[@]}" "$PMCTOOL" stat --json -o - -e branch-misses -- "$PMC_WORKLOAD" spin 5 >"$TMP/out" 2>"$TMP/err"
RC=$?
set -e
expect_rc 0 "JSON"
expect_out '"zero-count"' "the check is in the JSON report"
ok "a rare event at 0: a zero-count note in every format"

# A real, non-zero count is not flagged (the same injected PMU answering with task-clock).
set +e
env LD_PRELOAD="$FAKE" ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" "$PMCTOOL" stat -e instructions \
	-- "$PMC_WORKLOAD" spin 5 >"$TMP/out" 2>"$TMP/err"
RC=$?
set -e
expect_rc 0 "non-zero counts"
! grep -q "zero-count" "$TMP/err" || fail "a non-zero count was flagged zero-count"
ok "non-zero counts: no zero-count"
