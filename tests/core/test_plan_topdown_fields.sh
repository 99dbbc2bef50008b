#!/usr/bin/env bash
# Issue 33 item 6b: the top-down PERF_METRICS fields (event 0x00, umask 0x80..0x87) are read through the slots group
# and take no programmable counter, as the kernel schedules them (perf opens these groups). Plans only (--dry-run,
# LIBPFM_FORCE_PMU): no PMU needed.
source "$PMC_SOURCE_DIR/tests/lib.sh"

batches() { python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["batches"]))' "$TMP/out"; }

LIBPFM_FORCE_PMU=spr run_pmc stat --topdown=2 --counters 7 --dry-run --json -o - -- true
expect_rc 0 "spr --topdown=2 --counters 7"
[ "$(batches)" = 1 ] || fail "spr --topdown=2 on 7 counters: $(batches) batches, perf opens one group"
LIBPFM_FORCE_PMU=icl run_pmc stat --topdown --counters 3 --dry-run --json -o - -- true
expect_rc 0 "icl --topdown --counters 3"
[ "$(batches)" = 1 ] || fail "icl --topdown on 3 counters: $(batches) batches"
ok "--topdown on Ice Lake and Sapphire Rapids: the metric fields cost no counter"

# slots + four fields + five programmable events on 8 counters: one batch (five counters used)
LIBPFM_FORCE_PMU=icl run_pmc stat -e '{r400,r8000,r8100,r8200,r8300,r01c2,r02c2,r04c2,r08c2,r10c2}' --counters 8 \
	--dry-run --json -o - -- true
expect_rc 0 "slots, four fields and five events"
[ "$(batches)" = 1 ] || fail "slots + 4 fields + 5 events on 8 counters: $(batches) batches where one fits"
# ... and the five programmable ones still count: on 4 counters the group cannot be one batch
LIBPFM_FORCE_PMU=icl run_pmc stat -e '{r400,r8000,r8100,r8200,r8300,r01c2,r02c2,r04c2,r08c2,r10c2}' --counters 4 \
	--dry-run -- true
[ "$RC" != 0 ] || grep -q "batch 2" "$TMP/out" || fail "five programmable events on 4 counters planned as one group"
# Skylake has no PERF_METRICS (3 fixed counters): event 0x00 umask 0x80 is no field there, nothing changes
LIBPFM_FORCE_PMU=skl run_pmc stat -e r8000 --dry-run -- true
expect_out "r8000 +programmable|not supported" "skl: 0x8000 is no metric field"
ok "the metric fields cost no counter beside slots; the other members still do"

# Issue 33 item 6c: perf's bare names of the kernel's sysfs events (slots, topdown-*) resolve on an Intel PMU with
# PERF_METRICS, and slots leads its group because the PMU in use is Intel's, whatever this host's vendor (the
# opens are injected: tests/perf/fake_pmu.c, -v shows each attr in open order).
LIBPFM_FORCE_PMU=icl run_pmc encode slots topdown-retiring topdown-mem-bound
expect_rc 0 "encode slots topdown-retiring topdown-mem-bound"
expect_out "config +0x400$" "slots"
expect_out "config +0x8000$" "topdown-retiring"
expect_out "config +0x8700$" "topdown-mem-bound"
LIBPFM_FORCE_PMU=skl run_pmc encode topdown-retiring
expect_rc 2 "Skylake has no PERF_METRICS"
FAKE="$PMC_BUILD_DIR/tests/perf/fake_pmu.so"
[ -f "$FAKE" ] || fail "the fake PMU is not built: $FAKE"
LIBPFM_FORCE_PMU=icl LD_PRELOAD="$FAKE" ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" \
	run_pmc stat -v -e '{topdown-retiring,slots}' -- true
expect_rc 0 "{topdown-retiring,slots} on an injected PMU"
first=$(grep -m1 -o 'perf_event_open(type=4 config=0x[0-9a-f]*' "$TMP/err" | sed 's/.*config=//')
[ "$first" = 0x400 ] || fail "slots does not lead its group on a forced Intel PMU (first opened: $first)"
ok "bare slots and topdown-* resolve; slots leads its group on an Intel PMU in use, whatever the host"
