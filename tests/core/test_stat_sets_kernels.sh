#!/usr/bin/env bash
# stat with event sets (-g), command-line metrics (--metric) and built-in kernels (-k).
source "$PMC_SOURCE_DIR/tests/lib.sh"
W=${PMC_WORKLOAD:?}

# core set on a command: metrics are printed, valued or n/a with the reason.
run_pmc stat -g core -- "$W" pages 10
expect_rc 0 "-g core on a command"
expect_err "Metrics:" "metrics section"
expect_err "IPC" "IPC metric"
if ! has_hw_pmu; then
	expect_err "n/a +IPC +event instructions is not supported" "IPC is n/a here, with the reason"
fi
ok "-g core on a command"

# core set on a kernel: the declared work gives constants, rates and retired/expected.
run_pmc stat -g core -k fma --iters 1000000 --warmup 0 --json -o "$TMP/k.json"
expect_rc 0 "-g core -k fma"
python3 - "$TMP/k.json" <<'PY' || fail "kernel report"
import json, sys
d = json.load(open(sys.argv[1]))
c = d["constants"]
assert c["ITERATIONS"] == 1000000, c
# seed 001's loop: 17 instructions and 160 single-precision FLOPs per iteration
assert 17e6 <= c["EXPECTED_INSTRUCTIONS"] <= 17e6 + 100, c["EXPECTED_INSTRUCTIONS"]
assert c["EXPECTED_FLOPS_SP"] == 160e6, c
m = {x["name"]: x for x in d["metrics"]}
assert m["GFLOP/s (declared work)"]["value"] > 0
assert "retired_vs_expected" in m
checks = {x["name"] for x in d["checks"]}
assert "read-method" in checks and "overhead" in checks, checks
print("kernel constants and metrics ok:", sorted(m))
PY
ok "-g core -k fma"

# --metric evaluates a formula over the measured counts, exactly.
run_pmc stat -e page-faults,task-clock --metric 'pf_per_ms={page-faults} / {task-clock} * 1e6' --json -o "$TMP/m.json" \
	-- "$W" pages 500
expect_rc 0 "--metric"
python3 - "$TMP/m.json" <<'PY' || fail "--metric value"
import json, sys
d = json.load(open(sys.argv[1]))
ev = {e["name"]: e["mean"] for e in d["events"]}
m = {x["name"]: x for x in d["metrics"]}
want = ev["page-faults"] / ev["task-clock"] * 1e6
assert abs(m["pf_per_ms"]["value"] - want) <= 1e-9 * want, (m["pf_per_ms"], want)
PY
ok "--metric computed from the counts"

run_pmc stat --metric 'bad=({page-faults}' -- true
expect_rc 2 "bad formula"
expect_err "bad --metric" "bad formula named"

run_pmc stat -g no-such-set -- true
expect_rc 2 "unknown set"
expect_err "no-such-set" "unknown set named"

run_pmc stat -k no-such-kernel
expect_rc 2 "unknown kernel"
expect_err "unknown kernel 'no-such-kernel'" "unknown kernel named"

run_pmc stat -k fma --param nonsense=1
expect_rc 2 "bad kernel parameter"

run_pmc stat -k fma -- true
expect_rc 2 "-k and a command"
ok "errors for sets, formulas and kernels"

# seed 001's schedule as batches on a forced Haswell: 71 events, 4 counters, 18 batches, anchors in each.
LIBPFM_FORCE_PMU=hsw run_pmc stat --dry-run -g seed001-hsw -k fma
expect_rc 0 "seed001 dry run"
expect_out "in 18 batches" "18 batches"
expect_out "batch 18:" "batch 18 listed"
grep -A4 "batch 1:" "$TMP/out" | grep "uops_issued.any<1" >/dev/null || fail "batch 1 is seed 001's first batch"
grep -A3 "batch 18:" "$TMP/out" | grep "cpu_clk_unhalted.ref_xclk" >/dev/null || fail "batch 18 is seed 001's last batch"
ok "seed 001's 71-event schedule plans as 18 batches"
