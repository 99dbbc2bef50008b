#!/bin/bash
# Every name shape perf users type (issue 23 item 3), one row each: the libpfm4 PMU forced, with no tables or with
# the fixture tables (tests/tables/fixtures/pmu-events, CPUID forced), the name, and what encode must give: the config
# and config1 perf's own tables give it (Intel perfmon's skylake/icelake JSON, the kernel's amdzen3/amdzen4 JSON; the
# fixture's made-up codes where a table is loaded), or exit 2 with the message that gives the spelling that works.
# Without tables the answers come from libpfm4 and pmu/perfname.c (AMD's names by event code from
# arch/x86_64/amd_names.c); with tables the table wins.
. "$PMC_SOURCE_DIR/tests/lib.sh"

fix=$PMC_SOURCE_DIR/tests/tables/fixtures/pmu-events
export HOME=$TMP/home XDG_DATA_HOME=$TMP/xdg PMCTOOL_SYSFS_ROOT=$TMP/nosysfs
unset PMCTOOL_TABLES PMCTOOL_CPUID

# pmu | tables (- none; fixture CPUID) | name | config | config1 (or "!" and an ERE the message must match)
rows=$(cat <<'ROWS'
skl|-|idq_uops_not_delivered.cycles_0_uops_deliv.core|0x400019c|0x0
skl|-|IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE|0x400019c|0x0
skl|-|offcore_response.demand_data_rd.any_response|0x1b7|0x10001
skl|-|offcore_response.demand_rfo.any_response|0x1b7|0x10002
skl|-|offcore_response.demand_data_rd.l3_hit.any_snoop|!|libpfm4 spells OFFCORE_RESPONSE_0:REQUEST:RESPONSE.*--tables DIR
skl|-|mem_trans_retired.load_latency_gt_4|0x1cd|0x4
skl|-|mem_trans_retired.load_latency_gt_512|0x1cd|0x200
skl|-|frontend_retired.latency_ge_8|0x1c6|0x400806
skl|-|frontend_retired.latency_ge_2_bubbles_ge_1|0x1c6|0x100206
skl|-|frontend_retired.dsb_miss|0x1c6|0x11
skl|-|cpu_clk_unhalted.ref_tsc|0x300|0x0
skl|-|cpu_clk_unhalted.thread_any|0x20003c|0x0
skl|-|inst_retired.any|0xc0|0x0
skl|-|topdown.slots|!|slots counter of Ice Lake and later; libpfm4's PMU skl has none: 'pmctool stat --topdown'
skl|-|cpu/uops_issued.any/|0x10e|0x0
skl|-|cpu/uops_issued.any,cmask=2/u|0x200010e|0x0
skl|-|cpu/idq_uops_not_delivered.cycles_0_uops_deliv.core/|0x400019c|0x0
skl|-|cpu/mem_trans_retired.load_latency_gt_4/|0x1cd|0x4
skl|-|idq_uops_not_delivered.no_such.umask|!|has no idq_uops_not_delivered with umask no_such_umask; run 'pmctool list idq_uops_not_delivered'
icl|-|ocr.demand_data_rd.any_response|0x1b7|0x10001
icl|-|idq_uops_not_delivered.cycles_0_uops_deliv.core|0x500019c|0x0
icl|-|frontend_retired.latency_ge_8|0x1c6|0x500806
icl|-|topdown.slots|0x400|0x0
icl|-|cpu_clk_unhalted.ref_tsc|0x300|0x0
icl|-|mem_trans_retired.load_latency_gt_32|0x1cd|0x20
icl|-|cpu/ocr.demand_data_rd.any_response/|0x1b7|0x10001
amd64_fam19h_zen4|-|ex_ret_instr|0xc0|0x0
amd64_fam19h_zen4|-|ex_ret_ops|0xc1|0x0
amd64_fam19h_zen4|-|ls_dispatch.ld_dispatch|0x129|0x0
amd64_fam19h_zen4|-|de_src_op_disp.all|0x7aa|0x0
amd64_fam19h_zen4|-|de_no_dispatch_per_slot.no_ops_from_frontend|0x1000001a0|0x0
amd64_fam19h_zen4|-|de_no_dispatch_per_slot.backend_stalls|0x100001ea0|0x0
amd64_fam19h_zen4|-|ex_no_retire.load_not_complete|0xa2d6|0x0
amd64_fam19h_zen4|-|ex_ret_brn_misp|0xc3|0x0
amd64_fam19h_zen4|-|ic_tag_hit_miss.instruction_cache_miss|0x10000188e|0x0
amd64_fam19h_zen4|-|fp_ret_sse_avx_ops.all|0x1f03|0x0
amd64_fam19h_zen4|-|EX_RET_INSTR:u|0xc0|0x0
amd64_fam19h_zen4|-|cpu/de_src_op_disp.all/|0x7aa|0x0
amd64_fam19h_zen4|-|mem_trans_retired.load_latency_gt_4|!|a load-latency event; libpfm4's PMU amd64_fam19h_zen4 has no
amd64_fam19h_zen3|-|fp_ret_sse_avx_ops.all|0xff03|0x0
amd64_fam19h_zen3|-|ex_ret_ops|0xc1|0x0
amd64_fam19h_zen3|-|de_src_op_disp.all|!|perf's name of an AMD event another Zen generation has, not PMU amd64_fam19h_zen3
amd64_fam17h_zen2|-|ex_ret_cops|0xc1|0x0
amd64_fam17h_zen2|-|l2_cache_req_stat.ic_dc_miss_in_l2|0x964|0x0
skx|GenuineIntel-6-55-4|idq_uops_not_delivered.cycles_0_uops_deliv.core|0x400019c|0x0
skx|GenuineIntel-6-55-4|ocr.demand_data_rd.l3_hit.snoop_hitm|0x1b7|0x10003c0001
skx|GenuineIntel-6-55-4|mem_trans_retired.load_latency_gt_4|0x1cd|0x4
skx|GenuineIntel-6-55-4|cpu/ocr.demand_data_rd.l3_hit.snoop_hitm/|0x1b7|0x10003c0001
skx|GenuineIntel-6-55-4|inst_retired.any|0xc0|0x0
amd64_fam19h_zen3|AuthenticAMD-25-1-1|de_src_op_disp.all|0x1000007aa|0x0
amd64_fam19h_zen3|AuthenticAMD-25-1-1|ls_dispatch.ld_dispatch|0x129|0x0
amd64_fam19h_zen3|AuthenticAMD-25-1-1|ex_ret_brn|0xc2|0x0
ROWS
)
n=0
while IFS='|' read -r pmu cpuid name config config1 msg; do
	[ -n "$pmu" ] || continue
	if [ "$cpuid" = - ]; then
		LIBPFM_FORCE_PMU=$pmu run_pmc encode --json "$name"
	else
		LIBPFM_FORCE_PMU=$pmu PMCTOOL_CPUID=$cpuid run_pmc encode --tables "$fix" --json "$name"
	fi
	where="$pmu${cpuid/#-/}: $name"
	if [ "$config" = "!" ]; then
		[ "$RC" -eq 2 ] || { cat "$TMP/out" "$TMP/err" >&2; fail "$where: exit $RC, expected 2 (not an event there)"; }
		grep -qE -- "$config1" "$TMP/err" || { cat "$TMP/err" >&2; fail "$where: the message lacks /$config1/"; }
	else
		[ "$RC" -eq 0 ] || { cat "$TMP/err" >&2; fail "$where: exit $RC, expected it to resolve"; }
		got=$(python3 -c 'import json,sys; e=json.load(open(sys.argv[1]))["events"][0]; print(e["config"], e["config1"])' "$TMP/out")
		[ "$got" = "$config $config1" ] || fail "$where: config/config1 $got, perf's are $config $config1"
	fi
	n=$((n + 1))
done <<<"$rows"
ok "$n name shapes resolve to perf's config, or say the spelling that works"
