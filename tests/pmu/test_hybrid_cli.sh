#!/bin/bash
# Hybrid CPUs through the built binary, on an Alder Lake sysfs fixture (cpu_core type 4 on CPUs 0-15, cpu_atom type
# 10 on CPUs 16-23): what info and list show, the attrs stat plans (one copy per core PMU, -k one core type), and the
# per-core-type and merged rows of a real run. This machine has no such PMU: the opens fail (ENOENT) and the rows
# say so; what is checked is what pmctool asks of the kernel and how it reports it. libpfm4 4.13 has no Alder Lake
# tables, so icl gives Intel's fixed-counter layout.
. "$PMC_SOURCE_DIR/tests/lib.sh"
export LIBPFM_FORCE_PMU=icl
export PMCTOOL_SYSFS_ROOT="$PMC_SOURCE_DIR/tests/pmu/sysfs-adl"

# info's exit status is its verdict on this machine's counting (no PMU here), not checked.
run_pmc info
expect_out "cpu_atom +type 10, .*CPUs 16-23" "info gives cpu_atom's CPUs"
expect_out "cpu_core +type 4, .*CPUs 0-15" "info gives cpu_core's CPUs"
expect_out "core PMU +cpu_core \(hybrid: cpu_atom \(CPUs 16-23\), cpu_core \(CPUs 0-15\); each hardware event is opened once per core PMU\)" "info says the CPU is hybrid"
ok "info shows both core PMUs"

run_pmc info --json
python3 - "$TMP/out" <<'PY' || fail "info --json: core PMUs' cpus"
import json, sys
d = json.load(open(sys.argv[1]))
cpus = {p["name"]: p["cpus"] for p in d["kernel_pmus"]}
assert cpus["cpu_atom"] == "16-23" and cpus["cpu_core"] == "0-15" and cpus["msr"] is None, cpus
PY
ok "info --json gives each PMU's cpus"

run_pmc list
expect_rc 0 "list on the hybrid fixture"
expect_out "^cpu_atom \(sysfs; hybrid core PMU of CPUs 16-23\):" "list heads cpu_atom with its CPUs"
expect_out "^cpu_core \(sysfs; hybrid core PMU of CPUs 0-15\):" "list heads cpu_core with its CPUs"
ok "list shows both core PMUs"

# The plan's table: event, class, type, config, perf spelling.
run_pmc stat --dry-run -e cycles,r01c2,cpu_atom/event=0xc0/ true
expect_rc 0 "stat --dry-run on the hybrid fixture"
expect_out "^ +cycles \[cpu_atom\] +fixed +0 +0xa00000000 +cpu_atom/cycles/" "cycles on cpu_atom: type 10 in config bits 32-63"
expect_out "^ +cycles \[cpu_core\] +fixed +0 +0x400000000 +cpu_core/cycles/" "cycles on cpu_core: type 4 in config bits 32-63"
expect_out "^ +r01c2 \[cpu_atom\] +programmable +10 +0x1c2 +cpu_atom/event=0xc2,umask=0x01/" "a raw code opens with cpu_atom's type"
expect_out "^ +r01c2 \[cpu_core\] +programmable +4 +0x1c2 +cpu_core/event=0xc2,umask=0x01/" "a raw code opens with cpu_core's type"
expect_out "^ +cpu_atom/event=0xc0/ +[a-z]+ +10 +0xc0 " "an event naming cpu_atom opens there only"
[ "$(grep -c 'cpu_atom/event=0xc0/' "$TMP/out")" -eq 1 ] || fail "cpu_atom/event=0xc0/ was copied"
ok "stat opens generic and raw events once per core PMU"

run_pmc stat -k empty --cpu 16 --dry-run
expect_rc 0 "-k pinned to an E-core, dry run"
expect_out "^ +instructions +fixed +0 +0xa00000001 +cpu_atom/instructions/" "-k on CPU 16 opens cpu_atom's instructions"
expect_out "^ +branches +programmable +0 +0xa00000004 " "-k on CPU 16 opens cpu_atom's branches"
grep -q '0x4000000' "$TMP/out" && fail "-k on an E-core opened a cpu_core event"
ok "-k --cpu 16 opens cpu_atom events only, under their own names"

run_pmc stat -k empty --cpu 3 --dry-run -e cycles
expect_rc 0 "-k pinned to a P-core, dry run"
expect_out "^ +cycles +fixed +0 +0x400000000 " "-k on CPU 3 opens cpu_core's cycles"
grep -q '0xa0000000' "$TMP/out" && fail "-k on a P-core opened a cpu_atom event"
ok "-k --cpu 3 opens cpu_core events only"

run_pmc stat -k empty --cpu 3 --dry-run -e cpu_atom/event=0xc0/
expect_rc 2 "-k on a P-core with an event of cpu_atom"
expect_err "'cpu_atom/event=0xc0/' counts only on cpu_atom CPUs \(16-23\), and CPU 3 is a cpu_core CPU" "the error names the event, its PMU and the CPU"
ok "-k refuses an event of the other core type"

# The report goes to stderr, as perf stat's does.
# -k without --cpu runs on the current CPU, here 0 or 1: cpu_core in the fixture. The run is real; its hardware
# events are not supported on this machine.
# --no-merge (perf's): the per-core-type rows alone, no summed row.
run_pmc stat --no-merge -x, -e cycles,task-clock -- true
expect_rc 0 "--no-merge"
grep -q ",cycles \[cpu_atom\]," "$TMP/err" && grep -q ",cycles \[cpu_core\]," "$TMP/err" && ! grep -q ",cycles," "$TMP/err" ||
	{ cat "$TMP/err" >&2; fail "--no-merge: cycles [cpu_atom] and [cpu_core], no summed cycles row"; }
run_pmc stat -x, -e cycles,task-clock -- true
grep -q ",cycles," "$TMP/err" || { cat "$TMP/err" >&2; fail "without --no-merge: the summed cycles row"; }
ok "--no-merge: each core type's row alone; without it the sum too"

run_pmc stat -k empty --iters 1000 -e instructions,task-clock
expect_rc 0 "-k on the current CPU"
expect_err "core-type: the kernel ran on CPU [0-9]+, a cpu_core CPU \(P-core: CPUs 0-15\): only cpu_core events were opened" "-k says which core type it ran on"
ok "-k says its CPU and core type"

run_pmc stat --json -o - -e cycles,task-clock true
expect_rc 0 "a real run on the hybrid fixture"
python3 - "$TMP/out" <<'PY' || fail "stat --json rows of a hybrid run"
import json, sys
d = json.load(open(sys.argv[1]))
ev = {e["name"]: e for e in d["events"]}
assert list(ev)[:3] == ["cycles [cpu_atom]", "cycles [cpu_core]", "cycles"], list(ev)
assert ev["cycles [cpu_atom]"]["core_pmu"] == "cpu_atom" and ev["cycles [cpu_core]"]["core_pmu"] == "cpu_core"
assert ev["cycles [cpu_atom]"]["config"] == "0xa00000000" and ev["cycles [cpu_core]"]["config"] == "0x400000000"
assert ev["cycles"]["merged_from"] == ["cycles [cpu_atom]", "cycles [cpu_core]"], ev["cycles"]
assert ev["cycles"]["type"] == 0 and ev["cycles"]["config"] == "0x0" and ev["cycles"]["canonical"] == "cycles"
assert ev["task-clock"]["core_pmu"] is None and ev["task-clock"]["merged_from"] is None
assert any(c["name"] == "core-type" for c in d["checks"]), d["checks"]
PY
python3 "$PMC_SOURCE_DIR/tests/core/validate_json.py" "$PMC_SOURCE_DIR/schema/pmctool-report.schema.json" "$TMP/out" \
	>/dev/null || fail "the hybrid report does not match the JSON Schema"
ok "stat --json gives per-core-type rows, the merged row, and the core-type note; the schema holds"

run_pmc stat -e cycles,task-clock true
expect_rc 0 "table of a hybrid run"
expect_err "^ +[0-9,<].* +cycles \[cpu_atom\]" "table row of cycles on cpu_atom"
expect_err "^ +[0-9,<].* +cycles \[cpu_core\]" "table row of cycles on cpu_core"
if ! has_hw_pmu; then
	expect_err "^ +<not supported> +cycles +\(note [0-9]+\)" "table row of the merged cycles, not supported here, with a note"
	expect_err "^  note [0-9]+: [a-z]" "the note gives the reason"
fi
expect_err "\[info\] core-type: hybrid CPU \(cpu_atom: CPUs 16-23, cpu_core: CPUs 0-15\)" "the table says how hybrid rows read"
ok "table of a hybrid run"

run_pmc stat --batch multiplex -e cycles,task-clock true
expect_rc 0 "multiplex mode on the hybrid fixture"
expect_err "\[warn\] core-type-multiplex: " "multiplex mode says per-core-type rows cannot be scaled"
ok "multiplex mode warns that per-core-type rows are unscaled"

# Not hybrid: the single-core-PMU fixture gives one event per name, as before.
export PMCTOOL_SYSFS_ROOT="$PMC_SOURCE_DIR/tests/pmu/sysfs"
run_pmc stat --dry-run -e cycles,r01c2 true
expect_rc 0 "stat --dry-run without hybrid PMUs"
expect_out "^ +cycles +fixed +0 +0x0 " "cycles is plain PERF_TYPE_HARDWARE"
grep -q '\[cpu_' "$TMP/out" && fail "copies made on a non-hybrid machine"
ok "no copies without hybrid core PMUs"
