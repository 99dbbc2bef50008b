#!/usr/bin/env bash
# Hardware counters: cycles and instructions of a known workload. Runs wherever a PMU exists; skips here.
source "$PMC_SOURCE_DIR/tests/lib.sh"
W=${PMC_WORKLOAD:?}

has_hw_pmu || skip "no hardware PMU: /sys/bus/event_source/devices/cpu is absent (a VM without a virtual PMU)"
run_pmc stat -e cycles:u,instructions:u --json -o "$TMP/h.json" -- "$W" calls 10000000
expect_rc 0 "cycles and instructions"
python3 - "$TMP/h.json" <<'PY' || fail "hardware counts"
import json, sys
d = json.load(open(sys.argv[1]))
ev = {e["name"]: e for e in d["events"]}
for n in ("cycles:u", "instructions:u"):
    assert ev[n]["status"] == "ok", (n, ev[n]["reason"])
# bump() is at least 3 instructions a call plus the loop: 10M calls retire more than 30M instructions
assert ev["instructions:u"]["mean"] > 3e7, ev["instructions:u"]["mean"]
assert ev["cycles:u"]["mean"] > 1e6
print("instructions", ev["instructions:u"]["mean"], "cycles", ev["cycles:u"]["mean"])
PY
ok "cycles and instructions counted"
