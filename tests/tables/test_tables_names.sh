#!/bin/bash
# Vendor table names in name resolution (pmu/tables.c), with the fixture tables (tests/tables/fixtures) and
# PMCTOOL_CPUID: encode gives the fixture's config and config1 with its source file, stat --dry-run --json plans it
# with its source (and validates against the schema), a PMU-qualified cpu/NAME/ resolves, a name in neither the
# tables nor libpfm4 gives the same error as without tables, a malformed fixture file is not fatal, and the tables
# are never looked for while no name needs them (strace). LIBPFM_FORCE_PMU keeps libpfm4's answers the same here
# and on any host.
. "$PMC_SOURCE_DIR/tests/lib.sh"

fix=$PMC_SOURCE_DIR/tests/tables/fixtures
export HOME=$TMP/home XDG_DATA_HOME=$TMP/xdg LIBPFM_FORCE_PMU=skx
export PMCTOOL_TABLES=$fix/pmu-events PMCTOOL_CPUID=GenuineIntel-6-55-4
sky=$fix/pmu-events/arch/x86/fakesky/pipeline.json sky_cache=$fix/pmu-events/arch/x86/fakesky/cache.json

jget() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$TMP/out" "$1"; }

# A multi-dot name libpfm4 does not have, and one it has (the table wins: resolved before libpfm4), any case.
run_pmc encode --json idq_uops_not_delivered.cycles_0_uops_deliv.core UOPS_ISSUED.ANY
expect_rc 0 "encode of table names"
[ "$(jget 'd["events"][0]["config"]')" = 0x400019c ] || fail "multi-dot table name: config $(jget 'd["events"][0]["config"]'), fixture gives 0x400019c"
[ "$(jget 'd["events"][1]["config"]')" = 0x10e ] || fail "UOPS_ISSUED.ANY: not the fixture's 0x10e"
[ "$(jget 'd["events"][0]["source"]')" = "$sky" ] || fail "encode --json: source is not $sky"
# Modifiers apply on top; a PMU-qualified name with a term after it.
run_pmc encode uops_issued.any:u cpu/uops_issued.any,cmask=2/
expect_rc 0 "modifiers and cpu/NAME/"
expect_out "exclude    user=0 kernel=1 hv=1" ":u on a table name"
expect_out "config     0x200010e" "cpu/uops_issued.any,cmask=2/: the table's config with cmask on top"
# config1 from MSRValue (offcore), and --tables DIR before PMCTOOL_TABLES (perfmon fixture).
PMCTOOL_TABLES=$TMP/none PMCTOOL_CPUID=GenuineIntel-6-9A-3 run_pmc encode --tables "$fix/perfmon" --json \
	ocr.demand_data_rd.any_response
expect_rc 0 "encode --tables DIR of an offcore name"
python3 - "$TMP/out" "$fix/perfmon/FAKELAKE/events/fakelake_core.json" <<'PY' || fail "offcore name: not the fixture's encoding"
import json, sys
e = json.load(open(sys.argv[1]))["events"][0]
assert e["config"] == "0x1b7" and e["config1"] == "0x10001" and e["source"] == sys.argv[2], e
PY
# stat --dry-run --json plans it with its source; the document validates against the schema.
run_pmc stat -e idq_uops_not_delivered.cycles_0_uops_deliv.core,task-clock --dry-run --json true
expect_rc 0 "stat --dry-run of a table name"
[ "$(jget '[e for b in d["batches"] for e in b if "idq" in e["name"]][0]["source"]')" = "$sky" ] ||
	fail "the plan does not record the table file"
python3 "$PMC_SOURCE_DIR/tests/core/validate_json.py" "$PMC_SOURCE_DIR/schema/pmctool-report.schema.json" "$TMP/out" ||
	fail "the plan with a table source does not validate"
# stat --tables DIR: the directory is searched before PMCTOOL_TABLES (which names none here); a DIR that is not a
# directory is a usage error.
PMCTOOL_TABLES=$TMP/none run_pmc stat --tables "$fix/pmu-events" -e idq_uops_not_delivered.cycles_0_uops_deliv.core \
	--dry-run --json true
expect_rc 0 "stat --tables DIR"
[ "$(jget '[e for b in d["batches"] for e in b if "idq" in e["name"]][0]["source"]')" = "$sky" ] ||
	fail "stat --tables DIR: the plan does not record the table file of DIR"
run_pmc stat --tables "$TMP/none" -e cycles true
expect_rc 2 "stat --tables of a missing directory"
expect_err "invalid value '$TMP/none' for --tables: not a directory" "the missing directory named"
# info names the table that names this CPU's events: the vendor table first, then libpfm4's; and libpfm4's version.
run_pmc info
expect_out "^  event names      vendor table fakesky \(8 events, $fix/pmu-events\), then libpfm4's table skx$" "info: the vendor table"
expect_out "^  version          (API [0-9]+\.[0-9]+ \(pfm_get_version|[0-9][0-9.]* \((the shared library loaded|linked statically when built); API)" "info: libpfm4's version"
PMCTOOL_TABLES=$TMP/none run_pmc info --json
python3 - "$TMP/out" <<'PY' || fail "info --json: event_names without tables"
import json, sys
n = json.load(open(sys.argv[1]))["libpfm4"]["event_names"]
assert n == {"vendor_table": None, "vendor_table_dir": None, "libpfm4_table": "skx"}, n
PY
# list: the table's events (perf's names, encodings, the file) and metrics (formula), with --tables DIR or
# PMCTOOL_TABLES; --names offers the events (not the metrics) for completion.
run_pmc list --pmu tables --long
expect_rc 0 "list --pmu tables"
expect_out "^fakesky \(vendor table $fix/pmu-events\):$" "list: the table's events under its model and directory"
expect_out "^      encoding config=0x1b7,config1=0x10003c0001 \($sky_cache\)$" "list --long: encoding and file"
expect_out "^  fake_sky_cpi  +Made-up CPI\.$" "list: the table's metrics"
PMCTOOL_TABLES=$TMP/none run_pmc list --tables "$fix/pmu-events" --json ocr.demand
python3 - "$TMP/out" "$sky_cache" <<'PY' || fail "list --tables --json: the table event with its file"
import json, sys
ev = [e for e in json.load(open(sys.argv[1]))["events"] if e["name"] == "ocr.demand_data_rd.l3_hit.snoop_hitm"]
assert ev and ev[0]["file"] == sys.argv[2] and ev[0]["metric"] is False and ev[0]["source"].startswith("vendor table"), ev
PY
run_pmc list --names
grep -qx "idq_uops_not_delivered.cycles_0_uops_deliv.core" "$TMP/out" || fail "list --names lacks the table's name"
! grep -qx "fake_sky_cpi" "$TMP/out" || fail "list --names offers a metric to -e"
. "$PMC_SOURCE_DIR/tests/completion.sh"
PMCTOOL_TABLES=$TMP/none complete_words stat --tables "$fix/pmu-events" -e idq_uops_not_delivered.cy
expect_reply idq_uops_not_delivered.cycles_0_uops_deliv.core "completion: a table name after --tables DIR"
PMCTOOL_TABLES=$TMP/none complete_words stat -e idq_uops_not_delivered.cycles_0_uops_deliv.c
[ ! -s "$TMP/reply" ] || [ "$(cat "$TMP/reply")" = "" ] || { cat "$TMP/reply" >&2; fail "completion offers a table name without tables"; }
# decode: the table's name of a code comes first, with its file; config1 narrows it; a code only the table has.
run_pmc decode r400019c
expect_rc 0 "decode of a table code"
[ "$(head -n 1 "$TMP/out")" = "idq_uops_not_delivered.cycles_0_uops_deliv.core (vendor table $sky)" ] ||
	{ cat "$TMP/out" >&2; fail "decode: the table's name is not first"; }
expect_out "^skx::IDQ_UOPS_NOT_DELIVERED:CYCLES_0_UOPS_DELIV_CORE$" "decode: libpfm4's names after the table's"
run_pmc decode --config1 0x10003c0001 r1b7
expect_out "^ocr.demand_data_rd.l3_hit.snoop_hitm \(vendor table $sky_cache\)$" "decode --config1: the offcore table name"
PMCTOOL_CPUID=AuthenticAMD-25-1-1 LIBPFM_FORCE_PMU=amd64_fam19h_zen3 run_pmc decode --tables "$fix/pmu-events" r1000007aa
expect_rc 0 "decode of a code only the table has"
expect_out "^de_src_op_disp.all \(vendor table $fix/pmu-events/arch/x86/fakezen/core.json\)$" "decode: the AMD table name"
# Hybrid (the ADL sysfs fixture, the perfmon fixture's HYBRIDLAKE rows): a name of one core type's file is counted on
# that core PMU alone, a name of both on both; cpu_atom/NAME/ takes the E-core file's entry and refuses a P-core name.
(
	export PMCTOOL_SYSFS_ROOT=$PMC_SOURCE_DIR/tests/pmu/sysfs-adl LIBPFM_FORCE_PMU=icl PMCTOOL_CPUID=GenuineIntel-6-AA
	export PMCTOOL_TABLES=$fix/perfmon
	for row in "big_only.fake:cpu_core" "small_only.fake:cpu_atom" "br_fake_retired.all:cpu_atom cpu_core" \
		"cpu_atom/small_only.fake/:cpu_atom"; do
		run_pmc stat --dry-run --json -e "${row%%:*}" true
		expect_rc 0 "hybrid: ${row%%:*}"
		got=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(" ".join(sorted(e["perf"].split("/")[0] for b in d["batches"] for e in b)))' "$TMP/out")
		[ "$got" = "${row#*:}" ] || fail "hybrid: ${row%%:*} counted on '$got', expected '${row#*:}'"
	done
	run_pmc encode cpu_atom/big_only.fake/
	expect_rc 2 "hybrid: cpu_atom/ of a P-core table name"
)
# A name in neither: today's error, word for word.
run_pmc encode nosuch.event.name
expect_rc 2 "a name in neither the tables nor libpfm4"
cp "$TMP/err" "$TMP/err.tables"
PMCTOOL_TABLES= run_pmc encode nosuch.event.name
expect_rc 2 "the same name without tables"
cmp -s "$TMP/err" "$TMP/err.tables" || { diff "$TMP/err" "$TMP/err.tables" >&2; fail "the error changed with tables loaded"; }
# A malformed file (fakezen/broken.json) is skipped: the other files' names resolve; a deprecated name says so.
PMCTOOL_CPUID=AuthenticAMD-25-1-1 LIBPFM_FORCE_PMU=amd64_fam19h_zen3 run_pmc encode de_src_op_disp.all ex_fake_old
expect_rc 0 "names beside a malformed file"
expect_out "config     0x1000007aa" "an extended AMD code"
expect_err "event 'ex_fake_old' is marked deprecated in .*fakezen/core.json" "the deprecated note"
# Not looked for until a name needs them: task-clock, cycles, raw and sysfs names stat no table location.
if command -v strace >/dev/null; then
	strace -f -e trace=%file -o "$TMP/trace" "$PMCTOOL" stat -e task-clock,r10e,msr/tsc/ --dry-run true >/dev/null 2>&1 || true
	! grep -q "pmctool/tables\|pmu-events" "$TMP/trace" || { grep tables "$TMP/trace" >&2; fail "tables looked for without a table name"; }
	strace -f -e trace=%file -o "$TMP/trace" "$PMCTOOL" encode uops_issued.any >/dev/null 2>&1 || true
	grep -q "pmu-events" "$TMP/trace" || fail "strace saw no table access for a table name (the check above proves nothing)"
else
	echo "strace not installed: the no-access check is not run"
fi
ok "table names: encode, modifiers, cpu/NAME/, config1, --tables, stat --tables, plan source, unchanged error, malformed file, lazy load"
