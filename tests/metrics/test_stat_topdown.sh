#!/usr/bin/env bash
# stat --topdown on the command line (issue 27): the tree chosen for a forced libpfm4 PMU, its level-1 group in the
# plan (Ice Lake: slots leads the four metric fields), the usage errors, and on a machine without a PMU a run whose
# every node is n/a with the reason in each format (table, JSON, CSV, -x), never a number.
source "$PMC_SOURCE_DIR/tests/lib.sh"

# A CPU without a top-down tree (Zen 3 has no per-slot dispatch events): exit 2, says why, runs nothing.
LIBPFM_FORCE_PMU=amd64_fam19h_zen3 run_pmc stat --topdown -- touch "$TMP/ran"
expect_rc 2 "--topdown on Zen 3"
expect_err "no top-down tree for this CPU.*Zen 3 has no per-slot dispatch events" "Zen 3"
[ ! -e "$TMP/ran" ] || fail "--topdown on Zen 3 ran the command"

run_pmc stat --topdown=3 -- true
expect_rc 2 "--topdown=3"
expect_err "invalid value '3' for --topdown: expected a decimal whole number from 1 to 2" "--topdown=3"
run_pmc stat --topdown-def nosuch -- true
expect_rc 2 "--topdown-def nosuch"
expect_err "--topdown-def 'nosuch': no such top-down tree; the trees are: .*intel-icl-tma" "--topdown-def"
LIBPFM_FORCE_PMU=icl run_pmc stat --topdown=2 -- true
expect_rc 2 "--topdown=2 on Ice Lake"
expect_err "the tree intel-icl .* has level 1$" "icl level 2"
LIBPFM_FORCE_PMU=skl run_pmc stat --topdown --counters 2 -- true
expect_rc 2 "--topdown on 2 counters"
expect_err "level 1 of intel-skl needs its 5 events in one group .* do not fit one batch" "2 counters"
PMCTOOL_SYSFS_ROOT=$PMC_SOURCE_DIR/tests/pmu/sysfs-adl LIBPFM_FORCE_PMU=icl run_pmc stat --topdown -- true
expect_rc 2 "--topdown on the hybrid fixture"
expect_err "--topdown on a hybrid CPU \(cpu_(core|atom) and cpu_(core|atom)\): one tree per core type is not built yet" "hybrid"
run_pmc stat --topdown --compare true -- true
expect_rc 2 "--topdown --compare"
expect_err "--topdown prints one measurement's tree; it does not combine with --compare" "--compare"
run_pmc sweep n=1,2 --topdown -- true
expect_rc 2 "sweep --topdown"
expect_err "--topdown is a stat option that sweep does not take" "sweep"
ok "usage errors: no tree, --compare and sweep, bad level, bad tree, level 1 that does not fit, a hybrid CPU"

# plan NAME: the dry-run plan as "every: names / batch N: name@group ..." lines, from the JSON plan.
plan() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join(["every:"] + [e["name"] for e in d["every_batch"]]))
for i, b in enumerate(d["batches"]):
    print(" ".join(["batch %d:" % (i + 1)] + [e["name"] for e in b]))' "$TMP/out"
}
LIBPFM_FORCE_PMU=icl run_pmc stat --topdown --dry-run --json -- true
expect_rc 0 "icl plan"
[ "$(plan)" = "every: slots
batch 1: topdown-retiring topdown-bad-spec topdown-fe-bound topdown-be-bound" ] || { plan >&2; fail "icl plan"; }
LIBPFM_FORCE_PMU=icl run_pmc stat --topdown --dry-run -- true
expect_out "^    slots +fixed .*\(group [0-9]+\)" "icl plan table"
LIBPFM_FORCE_PMU=skl run_pmc stat --topdown --dry-run --json -- true
[ "$(plan)" = "every: cpu_clk_unhalted.thread
batch 1: idq_uops_not_delivered.core uops_issued.any uops_retired.retire_slots int_misc.recovery_cycles" ] ||
	{ plan >&2; fail "skl plan"; }
# Level 2 on Skylake: level 1 stays one group in one batch; the rest reruns with the anchors (inst_retired.any, a
# heavy-operations input, is fixed counter 0 and stands in for the instructions anchor).
LIBPFM_FORCE_PMU=skl run_pmc stat --topdown=2 --dry-run --json -- true
p=$(plan)
[ "$(sed -n 2p <<<"$p")" = "batch 1: idq_uops_not_delivered.core uops_issued.any uops_retired.retire_slots int_misc.recovery_cycles" ] ||
	{ echo "$p" >&2; fail "skl level 2: level 1 is not batch 1"; }
[[ "$(sed -n 1p <<<"$p")" == "every: cpu_clk_unhalted.thread inst_retired.any ref-cycles"* ]] &&
	[ "$(wc -l <<<"$p")" = 5 ] || { echo "$p" >&2; fail "skl level 2: core clocks and anchors in every batch, 4 batches"; }
LIBPFM_FORCE_PMU=amd64_fam19h_zen4 run_pmc stat --topdown --dry-run --json -- true
[ "$(plan)" = "every:
batch 1: ls_not_halted_cyc de_no_dispatch_per_slot.no_ops_from_frontend de_no_dispatch_per_slot.backend_stalls de_no_dispatch_per_slot.smt_contention de_src_op_disp.all ex_ret_ops" ] ||
	{ plan >&2; fail "zen4 plan"; }
PMCTOOL_SYSFS_ROOT=$PMC_SOURCE_DIR/tests/pmu/sysfs-armv8 run_pmc stat --topdown-def arm-cycles --dry-run --json -- true
[ "$(plan)" = "every:
batch 1: cpu_cycles stall_frontend stall_backend" ] || { plan >&2; fail "arm-cycles plan"; }
ok "plans: icl (slots leads its metrics), skl levels 1 and 2, zen4 (six counters, one group), arm-cycles"

# --batch=multiplex: allowed, and the report says the tree is built from scaled estimates.
LIBPFM_FORCE_PMU=icl run_pmc stat --topdown --batch=multiplex -- true
expect_err "\[warn\] topdown-multiplexed: the top-down tree is built from scaled estimates" "--batch=multiplex"
LIBPFM_FORCE_PMU=icl run_pmc stat --topdown -- true
! grep -q "topdown-multiplexed" "$TMP/err" || fail "a tree counted as one group is called multiplexed"
ok "--batch=multiplex warns that the tree is estimated; the default does not"

if has_hw_pmu; then
	echo "note: this machine has a core PMU: the forced-PMU run below would count real events; not run here"
else
	LIBPFM_FORCE_PMU=icl run_pmc stat --topdown -o "$TMP/table" -- true
	expect_rc 3 "icl run without a PMU (nothing counted)"
	n=$(grep -cE "^  (frontend_bound|bad_speculation|backend_bound|retiring) +n/a  input TD_[A-Z_]+ \(topdown-[a-z-]+\) was not counted: " "$TMP/table" || true)
	[ "$n" = 4 ] || { cat "$TMP/table" >&2; fail "table: $n of 4 nodes n/a with the reason"; }
	! grep -E "^  [a-z_]+ +[0-9.]+%" "$TMP/table" || fail "table: a node has a number without a count"
	LIBPFM_FORCE_PMU=icl run_pmc stat --topdown --json -o "$TMP/json" -- true
	python3 - "$TMP/json" <<'PY' || fail "JSON topdown"
import json, sys
t = json.load(open(sys.argv[1]))["topdown"]
assert t["tree"] == "intel-icl" and t["level"] == 1 and t["unit"] == "slots", t
assert [n["node"] for n in t["nodes"]] == ["frontend_bound", "bad_speculation", "backend_bound", "retiring"], t
for n in t["nodes"]:
    assert n["value"] is None and n["raw"] is None and not n["bottleneck"] and n["parent"] is None, n
    assert "was not counted" in n["reason"] and n["threshold"] > 0, n
PY
	LIBPFM_FORCE_PMU=icl run_pmc stat --topdown --csv -o "$TMP/csv" -- true
	python3 - "$TMP/csv" <<'PY' || fail "CSV topdown"
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
head, td = rows[0], [r for r in rows if r[0] == "topdown"]
assert len(td) == 4 and all(len(r) == len(head) for r in rows), td
for r in td:
    d = dict(zip(head, r))
    assert d["status"] == "n/a" and d["value"] == "" and "was not counted" in d["reason"], d
    assert d["n"] == "1" and d["unit"] == "fraction of slots" and d["workload"] == "intel-icl" and d["min"], d
PY
	LIBPFM_FORCE_PMU=icl run_pmc stat --topdown -x';' -o "$TMP/sep" -- true
	n=$(grep -cE '^<n/a>;%;topdown\.[a-z_]+;;1;[0-9]+;input ' "$TMP/sep" || true)
	[ "$n" = 4 ] || { cat "$TMP/sep" >&2; fail "-x: $n of 4 topdown lines"; }
	ok "no PMU: every node n/a with the reason in the table, JSON, CSV and -x; exit 3"
fi
