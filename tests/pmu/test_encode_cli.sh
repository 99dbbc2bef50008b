#!/bin/bash
# pmctool encode / decode against the built binary: outputs, errors (exit 2, stderr naming the input).
. "$PMC_SOURCE_DIR/tests/lib.sh"
export LIBPFM_FORCE_PMU=hsw
export PMCTOOL_SYSFS_ROOT="$PMC_SOURCE_DIR/tests/pmu/sysfs"

run_pmc encode --help
expect_rc 0 "encode --help"
expect_out "--pmu NAME" "encode --help lists --pmu"
expect_out "--json" "encode --help lists --json"

run_pmc encode 'uops_issued.any<1' UOPS_ISSUED:ANY:u r53010e msr/tsc/ cycles
expect_rc 0 "encode of five spellings"
expect_out "canonical  hsw::UOPS_ISSUED:ANY:e=0:i=1:c=1" "test-bench <1 is c=1:i=1"
expect_out "config     0x180010e" "attr.config of uops_issued.any<1 lacks the USR/OS bits"
expect_out "perf       cpu/event=0x0e,umask=0x01,cmask=1,inv/$" "perf spelling of uops_issued.any<1"
expect_out "perf       cpu/event=0x0e,umask=0x01/u$" "perf spelling keeps :u"
expect_out "exclude    user=0 kernel=1 hv=1" ":u excludes kernel and hv"
expect_out "perf       msr/tsc/$" "msr/tsc/ spells as itself"
expect_out "class      fixed \(fixed counter 1\)" "cycles is on fixed counter 1 on hsw"
ok "encode text output"

run_pmc encode --json cycles 'a"b'
expect_rc 2 "encode with one bad event"
expect_out '^\{"schema_version":1,"kind":"encode",.*"events":\[$' "json document opens with its version and kind"
expect_out '"name":"cycles","canonical":"cycles","type":0,.*"class":"(programmable|fixed)"' "json object for cycles"
expect_err "unknown event 'a\"b'" "error names the bad input"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$TMP/out" || fail "encode --json is not valid JSON"
ok "encode --json"

run_pmc encode uops_isued.any
expect_rc 2 "typo"
expect_err "unknown event 'uops_isued.any'.*did you mean 'uops_issued.any'" "typo gets a suggestion"
[ ! -s "$TMP/out" ] || fail "nothing on stdout for a bad event"

run_pmc encode --pmu skl FP_ARITH_INST_RETIRED:SCALAR_DOUBLE fp_arith_inst_retired.scalar_double cycles
expect_rc 0 "encode --pmu skl on a hsw-forced libpfm4"
expect_out "canonical  skl::FP_ARITH_INST_RETIRED:SCALAR_DOUBLE" "--pmu prefixes the PMU"
expect_out "config     0x1c7" "skl FP_ARITH scalar double"
ok "encode --pmu"

run_pmc encode --bogus cycles
expect_rc 2 "unknown option"
expect_err "unknown option '--bogus'" "unknown option named"
run_pmc encode
expect_rc 2 "no event"

run_pmc decode r1d3010e
expect_rc 0 "decode r1d3010e"
expect_out "^hsw::UOPS_ISSUED:ANY:c=1:i=1$" "decode finds the c=1:i=1 spelling"
expect_out "^hsw::UOPS_ISSUED:STALL_CYCLES$" "decode finds the preset"
run_pmc decode 'cpu/event=0x0e,umask=0x01/u'
expect_rc 0 "decode sysfs spelling"
expect_out "^hsw::UOPS_ISSUED:ANY:u$" "decode keeps :u"
LIBPFM_FORCE_PMU=ivb run_pmc decode r5301b1
expect_rc 0 "decode seed 002's r5301b1 on ivb"
expect_out "^ivb::UOPS_EXECUTED:THREAD$" "r5301b1 is UOPS_EXECUTED:THREAD on IvyBridge"
run_pmc decode --pmu ivb r5302b1
expect_rc 0 "decode --pmu ivb"
expect_out "^ivb::UOPS_EXECUTED:CORE$" "r5302b1 is UOPS_EXECUTED:CORE"
run_pmc decode r5300ff
expect_rc 1 "decode of a code no event has"
expect_err "no hsw event encodes to 0xff" "none found is said"
run_pmc decode cycles
expect_rc 2 "decode of a generic name"
expect_err "'cycles' is not a raw core event" "decode names its input"
run_pmc decode rzz
expect_rc 2 "decode of garbage"
expect_err "rzz" "decode error names the input"
run_pmc decode --help
expect_rc 0 "decode --help"
expect_out "--pmu NAME" "decode --help lists --pmu"
ok "decode"

# Issue 22 item 14: a forced AMD plan says ref-cycles is not supported there (with the reason) and spends no counter.
LIBPFM_FORCE_PMU=amd64_fam19h_zen4 run_pmc stat --dry-run -e ref-cycles,cycles -- true
expect_rc 0 "forced AMD plan with ref-cycles"
expect_out "warning: 'ref-cycles': not supported: .*amd64_fam19h_zen4.*ENOENT" "ref-cycles on AMD: warned, with the reason"
grep -A1 "in every batch:" "$TMP/out" | grep -q "ref-cycles" || fail "ref-cycles on AMD took a counter: $(cat "$TMP/out")"
LIBPFM_FORCE_PMU=icx run_pmc stat --dry-run -e ref-cycles -- true
grep -q "not supported" "$TMP/out" && fail "ref-cycles on icx is fixed counter 2, not unsupported: $(cat "$TMP/out")"
ok "ref-cycles: not supported with the reason on a forced AMD PMU, fixed counter 2 on Intel"

# Issue 22 item 15: Intel's pseudo-encodings. libpfm4 4.13's icl TOPDOWN:BACKEND_BOUND_SLOTS is 0x200, the
# pseudo-encoding of fixed counter 1 (core cycles): planned there and warned, naming the table; 0x0500 names a fixed
# counter icl does not have: not supported, with the reason, on no counter; Skylake (3 fixed counters) has no 0x0100.
LIBPFM_FORCE_PMU=icl run_pmc stat --dry-run -e topdown.backend_bound_slots,r0500:u -- true
expect_rc 0 "icl plan with pseudo-encodings"
expect_out "topdown.backend_bound_slots +fixed " "0x200 is fixed counter 1 on icl"
expect_out "warning: 'topdown.backend_bound_slots': libpfm4's icl table gives TOPDOWN:BACKEND_BOUND_SLOTS this encoding \(0x200\), Intel's pseudo-encoding of fixed counter 1" "the table error is named"
expect_out "warning: 'r0500:u': not supported: .*fixed counter 4" "0x0500 on icl: no counter"
LIBPFM_FORCE_PMU=skl run_pmc stat --dry-run -e r0100 -- true
expect_out "warning: 'r0100': not supported: .*fixed counter 0, which this PMU \(3 fixed counters\)" "0x0100 on skl: no counter"
ok "Intel pseudo-encodings: fixed where the counter exists, warned where the table is wrong, not supported elsewhere"

# Issue 22 item 16: decode takes config1 (--config1 or the frontend=/offcore_rsp=/ldlat= terms) and narrows to it.
# The fixture cpu PMU has offcore_rsp; frontend comes from the built-in layout in a tree without a cpu PMU.
LIBPFM_FORCE_PMU=skl run_pmc decode --config1 0x11 r1c6
expect_rc 0 "decode --config1"
[ "$(cat "$TMP/out")" = "skl::FRONTEND_RETIRED:DSB_MISS" ] || fail "r1c6 with config1 0x11 is DSB_MISS alone: $(cat "$TMP/out")"
LIBPFM_FORCE_PMU=skl PMCTOOL_SYSFS_ROOT=$TMP/none run_pmc decode 'cpu/event=0xc6,umask=0x01,frontend=0x12/'
[ "$(cat "$TMP/out")" = "skl::FRONTEND_RETIRED:L1I_MISS" ] || fail "frontend=0x12 is L1I_MISS alone: $(cat "$TMP/out" "$TMP/err")"
LIBPFM_FORCE_PMU=skl run_pmc decode 'cpu/event=0xb7,umask=0x01,offcore_rsp=0x3f80040001/'
[ "$(cat "$TMP/out")" = "skl::OFFCORE_RESPONSE_0:DMND_DATA_RD:L3_HITM" ] || fail "offcore_rsp: $(cat "$TMP/out" "$TMP/err")"
LIBPFM_FORCE_PMU=skl run_pmc decode r1c6
expect_rc 0 "decode r1c6 without config1"
expect_out "^skl::FRONTEND_RETIRED:DSB_MISS \(config1=0x11\)$" "a name that needs config1 says which"
LIBPFM_FORCE_PMU=skl run_pmc decode --config1 0x99 r1c6
expect_rc 1 "no name with that config1"
expect_err "no skl event encodes to 0x1c6 with that config1" "none found with config1 is said"
run_pmc decode --config1 zz r1c6
expect_rc 2 "bad --config1"
expect_err "--config1 'zz'" "bad --config1 named"
run_pmc encode --config1 1 cycles
expect_rc 2 "encode has no --config1"
ok "decode with config1"

# Issue 33 item 6: encode --pmu skl resolves a name as LIBPFM_FORCE_PMU=skl does (perf's multi-dot, offcore and
# fixed-counter names, libpfm4's own), in every spelling.
for n in idq_uops_not_delivered.cycles_0_uops_deliv.core offcore_response.demand_data_rd.any_response \
	cpu_clk_unhalted.ref_tsc mem_load_retired.l3_miss UOPS_ISSUED:ANY cycles; do
	(unset LIBPFM_FORCE_PMU; "$PMCTOOL" encode --json --pmu skl "$n") >"$TMP/pmu.json" 2>"$TMP/pmu.err" ||
		fail "encode --pmu skl $n: $(cat "$TMP/pmu.err")"
	LIBPFM_FORCE_PMU=skl "$PMCTOOL" encode --json "$n" >"$TMP/force.json" 2>"$TMP/force.err" ||
		fail "LIBPFM_FORCE_PMU=skl encode $n: $(cat "$TMP/force.err")"
	python3 - "$TMP/pmu.json" "$TMP/force.json" "$n" <<'PY' || fail "encode --pmu skl $n differs from LIBPFM_FORCE_PMU=skl"
import json, sys
a, b = (json.load(open(f))["events"][0] for f in sys.argv[1:3])
keys = ("type", "config", "config1", "class")
assert [a[k] for k in keys] == [b[k] for k in keys], (sys.argv[3], a, b)
PY
done
ok "encode --pmu skl NAME is LIBPFM_FORCE_PMU=skl's NAME"

# Issue 33 item 5: with vendor tables loaded the table's encoding wins for the table's names, by every route
# (--pmu too); where libpfm4 knows the name with other bits, encode shows both and says which is used.
H=$PMC_SOURCE_DIR/tests/pmu/tables-hsw
for route in "--pmu hsw" ""; do
	# shellcheck disable=SC2086
	LIBPFM_FORCE_PMU=$([ -z "$route" ] && echo hsw) PMCTOOL_CPUID=GenuineIntel-6-3C-3 run_pmc encode $route --tables "$H" \
		l2_rqsts.code_rd_hit l2_rqsts.code_rd_miss
	expect_rc 0 "encode ${route:-(LIBPFM_FORCE_PMU=hsw)} with tables"
	expect_out "config +0xc424$" "${route:-forced}: the table's umask 0xc4, not libpfm4's 0x44"
	expect_out "libpfm4 +hsw::L2_RQSTS:CODE_RD_HIT.*config 0x4424 config1 0, which differs; the vendor table's encoding above is used" \
		"${route:-forced}: libpfm4's other encoding shown and which one is used"
	[ "$(grep -c '^  libpfm4 ' "$TMP/out")" = 1 ] || fail "a name libpfm4 encodes the same shows no libpfm4 line"
done
ok "encode with tables: the table's encoding, libpfm4's shown where it differs"
