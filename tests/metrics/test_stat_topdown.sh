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
PMCTOOL_SYSFS_ROOT=$PMC_SOURCE_DIR/tests/pmu/sysfs-adl LIBPFM_FORCE_PMU=icl run_pmc stat --topdown-def intel-spr -- true
expect_rc 2 "--topdown-def on the hybrid fixture"
expect_err "--topdown-def on a hybrid CPU \(cpu_(core|atom) and cpu_(core|atom)\): each core type has its own tree" "hybrid def"
run_pmc stat --topdown --compare true -- true
expect_rc 2 "--topdown --compare"
expect_err "--topdown prints one measurement's tree; it does not combine with --compare" "--compare"
run_pmc sweep n=1,2 --topdown -- true
expect_rc 2 "sweep --topdown"
expect_err "--topdown is a stat option that sweep does not take" "sweep"
ok "usage errors: no tree, --compare and sweep, bad level, bad tree, level 1 that does not fit, --topdown-def on a hybrid CPU"

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
# Zen 4 level 2 without --no-anchors: level 1's clock and retired ops are the anchors of every batch, each level-2
# split a group of its own beside them (golden plan).
LIBPFM_FORCE_PMU=amd64_fam19h_zen4 run_pmc stat --topdown=2 --dry-run --json -- true
expect_rc 0 "zen4 level 2"
[ "$(plan)" = "every: ls_not_halted_cyc ex_ret_ops msr/tsc/
batch 1: de_no_dispatch_per_slot.no_ops_from_frontend de_no_dispatch_per_slot.backend_stalls de_no_dispatch_per_slot.smt_contention de_src_op_disp.all
batch 2: de_no_dispatch_per_slot.no_ops_from_frontend:cmask=6 ex_ret_brn_misp resyncs_or_nc_redirects
batch 3: ex_no_retire.load_not_complete ex_no_retire.not_complete ex_ret_ucode_ops" ] || { plan >&2; fail "zen4 level 2 plan"; }
PMCTOOL_SYSFS_ROOT=$PMC_SOURCE_DIR/tests/pmu/sysfs-armv8 run_pmc stat --topdown-def arm-cycles --dry-run --json -- true
[ "$(plan)" = "every:
batch 1: cpu_cycles stall_frontend stall_backend" ] || { plan >&2; fail "arm-cycles plan"; }
ok "plans: icl (slots leads its metrics), skl levels 1 and 2, zen4 levels 1 and 2 (its own anchors), arm-cycles"

# -g topdown (events/topdown.set, 'topdown 1'): the same plan as --topdown on each forced PMU; listed by 'sets'.
for pmu in icl skl amd64_fam19h_zen4; do
	LIBPFM_FORCE_PMU=$pmu run_pmc stat --topdown --dry-run --json -- true
	want=$(plan)
	LIBPFM_FORCE_PMU=$pmu run_pmc stat -g topdown --dry-run --json -- true
	expect_rc 0 "-g topdown on $pmu"
	[ "$(plan)" = "$want" ] || { plan >&2; fail "-g topdown on $pmu: not --topdown's plan ($want)"; }
done
LIBPFM_FORCE_PMU=icl run_pmc stat -g topdown -o "$TMP/gtable" -- true
grep -qE "^ Top-down, level 1, % of slots \(intel-icl" "$TMP/gtable" || { cat "$TMP/gtable" >&2; fail "-g topdown prints no tree"; }
LIBPFM_FORCE_PMU=amd64_fam19h_zen3 run_pmc stat -g topdown -- true
expect_rc 2 "-g topdown on Zen 3"
expect_err "no top-down tree for this CPU" "-g topdown on Zen 3"
run_pmc stat -g topdown --compare true -- true
expect_rc 2 "-g topdown --compare"
expect_err "--topdown prints one measurement's tree; it does not combine with --compare" "-g topdown --compare"
run_pmc sweep n=1,2 -g topdown -- true
expect_rc 2 "sweep -g topdown"
expect_err "--topdown is a stat option that sweep does not take" "sweep -g topdown"
run_pmc sets
expect_out "^topdown +any +Where the pipeline's slots" "sets lists topdown"
run_pmc sets topdown
expect_out "^this set is stat --topdown=1" "sets topdown"
ok "-g topdown: the plan of --topdown (icl, skl, zen4), its tree, Zen 3's, --compare's and sweep's refusals, listed by sets"

# Hybrid (the Alder Lake fixture; libpfm4 4.13 has no adl_glc/adl_grt, so icl gives the x86 layout): a tree per core
# type. The plan: cpu_core's level 1 is one group led by slots, all of it on cpu_core's PMU (type 4); cpu_atom's
# events, where they can be encoded, are a group of their own on type 10.
export PMCTOOL_SYSFS_ROOT=$PMC_SOURCE_DIR/tests/pmu/sysfs-adl
LIBPFM_FORCE_PMU=icl run_pmc stat --topdown --dry-run -- true
expect_rc 0 "hybrid plan"
grep -E "^ +[a-z_.-]+ \[cpu_(core|atom)\] " "$TMP/out" | sed -E 's/^ +([a-z_.-]+ \[cpu_[a-z]+\]) +([a-z]+) +([0-9]+) +(0x[0-9a-f]+) .*\(group ([0-9]+)\).*/\1 \2 \3 \4 g\5/' >"$TMP/hplan"
core=$(grep -F '[cpu_core]' "$TMP/hplan")
[ "$(awk '{ print $1 }' <<<"$core" | tr '\n' ' ')" = "slots topdown-retiring topdown-bad-spec topdown-fe-bound topdown-be-bound " ] &&
	[ "$(awk '{ print $6 }' <<<"$core" | sort -u | wc -l)" = 1 ] && [ "$(awk '{ print $4 }' <<<"$core" | sort -u)" = 4 ] &&
	[ "$(sed -n 1p <<<"$core" | awk '{ print $3, $5 }')" = "fixed 0x400" ] ||
	{ cat "$TMP/out" >&2; fail "hybrid plan: cpu_core's level 1 is not one group of slots and its four fields on type 4"; }
atom=$(grep -F '[cpu_atom]' "$TMP/hplan" || true)
if [ -n "$atom" ]; then
	[ "$(awk '{ print $4 }' <<<"$atom" | sort -u)" = 10 ] && [ "$(awk '{ print $6 }' <<<"$atom" | sort -u | wc -l)" = 1 ] &&
		[ "$(awk '{ print $6 }' <<<"$atom" | sort -u)" != "$(awk '{ print $6 }' <<<"$core" | sort -u)" ] ||
		{ cat "$TMP/out" >&2; fail "hybrid plan: cpu_atom's events are not one group of their own on type 10"; }
fi
if ! has_hw_pmu; then
	LIBPFM_FORCE_PMU=icl run_pmc stat --topdown --json -o "$TMP/hjson" -- true
	python3 - "$TMP/hjson" "$PMC_SOURCE_DIR/schema/pmctool-report.schema.json" <<'PY' || fail "hybrid trees"
import json, sys
d = json.load(open(sys.argv[1]))
trees = [d["topdown"]] + d["topdown_scopes"]
got = {t["scope"]: t["tree"] for t in trees}
assert got == {"cpu_atom": "intel-atom-grt", "cpu_core": "intel-spr"}, got
for t in trees:
    assert [n["node"] for n in t["nodes"]] == ["frontend_bound", "bad_speculation", "backend_bound", "retiring"], t
    assert all(n["value"] is None and "was not counted" in n["reason"] for n in t["nodes"]), t
atom = [t for t in trees if t["tree"] == "intel-atom-grt"][0]
assert all("cannot be encoded here" in n["reason"] or "was not counted" in n["reason"] for n in atom["nodes"]), atom
c = [c for c in d["checks"] if c["name"] == "topdown-hybrid"]
assert c and "no merged tree" in c[0]["message"], d["checks"]
try:
    import jsonschema
    jsonschema.Draft202012Validator(json.load(open(sys.argv[2]))).validate(d)
except ImportError:
    pass
PY
	LIBPFM_FORCE_PMU=icl run_pmc stat --topdown -o "$TMP/htable" -- true
	[ "$(grep -cE '^ Top-down of cpu_(atom|core), level 1' "$TMP/htable")" = 2 ] || { cat "$TMP/htable" >&2; fail "hybrid: two tables"; }
fi
unset PMCTOOL_SYSFS_ROOT
ok "hybrid: cpu_core's level 1 one group on its PMU (golden plan), a tree per core type (intel-spr, intel-atom-grt), no merged tree"

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

	# -I: a tree per interval in each format, after that interval's records, every node n/a with the reason.
	LIBPFM_FORCE_PMU=icl run_pmc stat -I 100 --topdown -o "$TMP/itable" -- sleep 0.25
	ni=$(grep -cE '^ +[0-9]+\.[0-9]{9} +<not supported> +slots' "$TMP/itable" || true)
	nt=$(grep -cE '^ +[0-9]+\.[0-9]{9}  Top-down, level 1, % of slots \(intel-icl' "$TMP/itable" || true)
	nna=$(grep -cE '^ +[0-9]+\.[0-9]{9}   (frontend_bound|bad_speculation|backend_bound|retiring) +n/a  input TD_[A-Z_]+ \(topdown-[a-z-]+\) was not counted: no hardware PMU' "$TMP/itable" || true)
	[ "$ni" -ge 2 ] && [ "$nt" = "$ni" ] && [ "$nna" = $((4 * ni)) ] ||
		{ cat "$TMP/itable" >&2; fail "-I table: $nt trees, $nna n/a nodes for $ni intervals"; }
	LIBPFM_FORCE_PMU=icl run_pmc stat -I 100 --topdown --csv -o "$TMP/icsv" -- sleep 0.25
	python3 - "$TMP/icsv" <<'PY' || fail "-I CSV topdown"
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
head = rows[0]
rows = [dict(zip(head, r)) for r in rows[1:] if len(r) == len(head)]
ivals = sorted({r["interval"] for r in rows if r["record"] == "interval"})
assert len(ivals) >= 2, ivals
for i in ivals:
    td = [r for r in rows if r["record"] == "topdown" and r["interval"] == i]
    assert [r["event"] for r in td] == ["frontend_bound", "bad_speculation", "backend_bound", "retiring"], (i, td)
    t = {r["time_ns"] for r in rows if r["record"] == "interval" and r["interval"] == i}
    assert all(r["status"] == "n/a" and r["value"] == "" and r["time_ns"] in t and r["n"] == "1" for r in td), td
final = [r for r in rows if r["record"] == "topdown" and r["interval"] == ""]
assert len(final) == 4, final
PY
	LIBPFM_FORCE_PMU=icl run_pmc stat -I 100 --topdown -x';' -o "$TMP/isep" -- sleep 0.25
	ni=$(grep -cE '^ *[0-9]+\.[0-9]{9};<not supported>;;slots;' "$TMP/isep" || true)
	nt=$(grep -cE '^ *[0-9]+\.[0-9]{9};<n/a>;%;topdown\.[a-z_]+;;1;[0-9]+;input ' "$TMP/isep" || true)
	[ "$ni" -ge 2 ] && [ "$nt" = $((4 * ni)) ] || { cat "$TMP/isep" >&2; fail "-I -x: $nt topdown lines for $ni intervals"; }
	LIBPFM_FORCE_PMU=icl run_pmc stat -I 100 --topdown --json -o "$TMP/ijson" -- sleep 0.25
	python3 - "$TMP/ijson" "$PMC_SOURCE_DIR/schema/pmctool-report.schema.json" <<'PY' || fail "-I JSON topdown"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
ivals = sorted({d["interval"] for d in lines if d["kind"] == "interval"})
trees = [d for d in lines if d["kind"] == "interval_topdown"]
assert len(ivals) >= 2 and [t["interval"] for t in trees] == ivals, (ivals, trees)
for t in trees:
    assert t["scope"] is None and t["end_ns"] > t["start_ns"] >= 0 and t["topdown"]["tree"] == "intel-icl", t
    assert all(n["value"] is None and "was not counted" in n["reason"] for n in t["topdown"]["nodes"]), t
assert lines[-1]["kind"] == "stat" and lines[-1]["topdown"]["tree"] == "intel-icl"
try:
    import jsonschema
except ImportError:
    print("note: python3-jsonschema is not installed: the lines' schema was not checked")
    sys.exit(0)
v = jsonschema.Draft202012Validator(json.load(open(sys.argv[2])))
for d in lines:
    errs = list(v.iter_errors(d))
    assert not errs, (d["kind"], errs[0].message)
PY
	ok "-I: a tree per interval in the table, CSV, -x and JSON (schema-valid), every node n/a with the reason"

	# -a --per-core: a tree per core row after the total's (topdown_scopes, labelled as the rows), each n/a here.
	LIBPFM_FORCE_PMU=skl run_pmc stat -a --per-core --topdown --json -o "$TMP/pcore" -- sleep 0.05
	if grep -q "perf_event_paranoid" "$TMP/err"; then
		echo "note: -a is not permitted here: the per-core trees were not checked"
	else
		python3 - "$TMP/pcore" "$PMC_SOURCE_DIR/schema/pmctool-report.schema.json" <<'PY' || fail "-a --per-core trees"
import json, sys
d = json.load(open(sys.argv[1]))
rows = []
for e in d["events"]:
    l = e["scope"]["label"]
    if e["scope"]["kind"] == "core" and l not in rows:
        rows.append(l)
scopes = [t["scope"] for t in d.get("topdown_scopes", [])]
assert rows and scopes == rows, (rows, scopes)
for t in d["topdown_scopes"]:
    assert t["tree"] == d["topdown"]["tree"] and all(n["value"] is None for n in t["nodes"]), t
try:
    import jsonschema
    jsonschema.Draft202012Validator(json.load(open(sys.argv[2]))).validate(d)
except ImportError:
    pass
PY
		ok "-a --per-core: a tree per core ($(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["topdown_scopes"]))' "$TMP/pcore") cores), labelled as the rows"
	fi
fi

# Sapphire Rapids level 2: the four level-2 PERF_METRICS fields are in slots' group with level 1's (the kernel refuses
# topdown-* events in a group slots does not lead); golden lines of the plan.
LIBPFM_FORCE_PMU=spr run_pmc stat --dry-run --topdown=2 -- true
expect_rc 0 "spr --topdown=2 --dry-run"
lead=$(awk '$1 == "slots" { for (i = 1; i <= NF; i++) if ($i == "(group") print $(i + 1) }' "$TMP/out")
[ -n "$lead" ] || { cat "$TMP/out" >&2; fail "spr level 2: slots has no group"; }
for f in retiring bad-spec fe-bound be-bound heavy-ops br-mispredict fetch-lat mem-bound; do
	grep -qE "^ +topdown-$f +programmable .*\(group $lead " "$TMP/out" ||
		{ cat "$TMP/out" >&2; fail "spr level 2: topdown-$f is not in slots' group $lead"; }
done
ok "spr level 2: slots leads one group of all eight topdown-* fields"

# Sandy Bridge and Haswell (4 slots a cycle, no PERF_METRICS): level 1's clock and four events one group; level 2's
# four further events a group of their own in the next batch, the anchors in both.
for pmu in snb hsw; do
	LIBPFM_FORCE_PMU=$pmu run_pmc stat --dry-run --topdown=2 -- true
	expect_rc 0 "$pmu --topdown=2 --dry-run"
	g1=$(awk '$1 == "cpu_clk_unhalted.thread" { for (i = 1; i <= NF; i++) if ($i == "(group") print $(i + 1) }' "$TMP/out")
	for e in idq_uops_not_delivered.core uops_issued.any uops_retired.retire_slots int_misc.recovery_cycles; do
		grep -qE "^ +$e +programmable .*\(group $g1 " "$TMP/out" ||
			{ cat "$TMP/out" >&2; fail "$pmu level 1: $e is not in the clock's group $g1"; }
	done
	g2=$(awk '$1 == "br_misp_retired.all_branches" { for (i = 1; i <= NF; i++) if ($i == "(group") print $(i + 1) }' "$TMP/out")
	[ -n "$g2" ] && [ "$g2" != "$g1" ] || { cat "$TMP/out" >&2; fail "$pmu level 2: its own group"; }
	for e in idq_uops_not_delivered.cycles_0_uops_deliv.core machine_clears.count idq.ms_uops; do
		grep -qE "^ +$e +programmable .*\(group $g2 " "$TMP/out" ||
			{ cat "$TMP/out" >&2; fail "$pmu level 2: $e is not in group $g2"; }
	done
	grep -q '^Plan: 12 events in 2 batches' "$TMP/out" || { cat "$TMP/out" >&2; fail "$pmu level 2: 12 events in 2 batches"; }
	ok "$pmu: level 1 one group with the clock, level 2 one group in the second batch, anchors in both"
done
