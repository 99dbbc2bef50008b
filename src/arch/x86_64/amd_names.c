/* SPDX-License-Identifier: MIT */
/* perf's AMD event names (the mnemonics of AMD's Processor Programming Reference, lower-case, '.' before the unit
 * mask's name) for the events people use most -- the top-down (dispatch slots), retire, branch, cache, TLB and
 * floating-point events -- keyed by AMD's event code and unit mask, so they resolve without vendor tables. Written
 * for pmctool from the PPR's event numbers; the name column follows perf's spelling so users' perf command lines
 * work. pmu/perfname.c asks libpfm4 which of its events has that encoding (the canonical name) and encodes the code
 * as it is when libpfm4's table has none. Pure: built on every architecture so its unit runs anywhere. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "arch/common.h"

/* Which Zen generations have the event under that name: libpfm4's amd64_fam17h_zen1 .. amd64_fam1ah_zen5. */
enum { Z1 = 1, Z2 = 2, Z3 = 4, Z4 = 8, Z5 = 16, ZALL = Z1 | Z2 | Z3 | Z4 | Z5, Z3P = Z3 | Z4 | Z5, Z4P = Z4 | Z5 };

static const struct amd_name {
	uint16_t code;   /* EventSelect[11:0] */
	uint8_t umask;
	uint8_t gens;
	const char *name;
} amd_names[] = {
	/* floating point */
	{ 0x002, 0x07, ZALL, "fp_ret_x87_fp_ops.all" },
	{ 0x003, 0xff, Z1 | Z2 | Z3, "fp_ret_sse_avx_ops.all" },
	{ 0x003, 0x1f, Z4P, "fp_ret_sse_avx_ops.all" },
	{ 0x003, 0x01, Z4P, "fp_ret_sse_avx_ops.add_sub_flops" },
	{ 0x003, 0x02, Z4P, "fp_ret_sse_avx_ops.mult_flops" },
	{ 0x003, 0x04, Z4P, "fp_ret_sse_avx_ops.div_flops" },
	{ 0x003, 0x08, Z4P, "fp_ret_sse_avx_ops.mac_flops" },
	{ 0x005, 0x0f, ZALL, "fp_retired_ser_ops.all" },
	{ 0x008, 0x3f, Z4P, "fp_ops_retired_by_width.all" },
	{ 0x008, 0x04, Z4P, "fp_ops_retired_by_width.scalar_uops_retired" },
	{ 0x008, 0x08, Z4P, "fp_ops_retired_by_width.pack_128_uops_retired" },
	{ 0x008, 0x10, Z4P, "fp_ops_retired_by_width.pack_256_uops_retired" },
	{ 0x008, 0x20, Z4P, "fp_ops_retired_by_width.pack_512_uops_retired" },
	{ 0x00a, 0x0f, Z4P, "fp_ops_retired_by_type.scalar_all" },
	{ 0x00a, 0xf0, Z4P, "fp_ops_retired_by_type.vector_all" },
	{ 0x00a, 0xff, Z4P, "fp_ops_retired_by_type.all" },
	{ 0x00b, 0xff, Z4P, "sse_avx_ops_retired.all" },
	/* load/store, L1 data cache, data TLB */
	{ 0x029, 0x01, ZALL, "ls_dispatch.ld_dispatch" },
	{ 0x029, 0x02, ZALL, "ls_dispatch.store_dispatch" },
	{ 0x029, 0x04, ZALL, "ls_dispatch.ld_st_dispatch" },
	{ 0x035, 0x00, ZALL, "ls_stlf" },
	{ 0x040, 0x00, ZALL, "ls_dc_accesses" },
	{ 0x041, 0x3f, Z3P, "ls_mab_alloc.load_store_allocations" },
	{ 0x043, 0x01, Z2 | Z3, "ls_refills_from_sys.ls_mabresp_lcl_l2" },
	{ 0x043, 0x08, Z2 | Z3, "ls_refills_from_sys.ls_mabresp_lcl_dram" },
	{ 0x045, 0xff, ZALL, "ls_l1_d_tlb_miss.all" },
	{ 0x076, 0x00, ZALL, "ls_not_halted_cyc" },
	/* instruction fetch, L1 instruction cache, op cache, instruction TLB, branch prediction */
	{ 0x084, 0x00, ZALL, "bp_l1_tlb_miss_l2_tlb_hit" },
	{ 0x085, 0xff, Z2 | Z3, "bp_l1_tlb_miss_l2_tlb_miss" },
	{ 0x08b, 0x00, ZALL, "bp_l2_btb_correct" },
	{ 0x08e, 0x00, ZALL, "bp_dyn_ind_pred" },
	{ 0x091, 0x00, ZALL, "bp_de_redirect" },
	{ 0x18e, 0x07, Z3P, "ic_tag_hit_miss.instruction_cache_hit" },
	{ 0x18e, 0x18, Z3P, "ic_tag_hit_miss.instruction_cache_miss" },
	{ 0x18e, 0x1f, Z3P, "ic_tag_hit_miss.all_instruction_cache_accesses" },
	{ 0x28f, 0x03, Z3P, "op_cache_hit_miss.op_cache_hit" },
	{ 0x28f, 0x04, Z3P, "op_cache_hit_miss.op_cache_miss" },
	{ 0x28f, 0x07, Z3P, "op_cache_hit_miss.all_op_cache_accesses" },
	/* L2 */
	{ 0x060, 0x10, Z2 | Z3, "l2_request_g1.cacheable_ic_read" },
	{ 0x064, 0x01, ZALL, "l2_cache_req_stat.ic_fill_miss" },
	{ 0x064, 0x07, Z2 | Z3, "l2_cache_req_stat.ic_access_in_l2" },
	{ 0x064, 0x09, Z2 | Z3, "l2_cache_req_stat.ic_dc_miss_in_l2" },
	{ 0x064, 0xf6, Z2 | Z3, "l2_cache_req_stat.ic_dc_hit_in_l2" },
	{ 0x064, 0x08, ZALL, "l2_cache_req_stat.ls_rd_blk_c" },
	{ 0x070, 0xff, Z2 | Z3, "l2_pf_hit_l2" },
	{ 0x071, 0xff, Z2 | Z3, "l2_pf_miss_l2_hit_l3" },
	{ 0x072, 0xff, Z2 | Z3, "l2_pf_miss_l2_l3" },
	/* dispatch: the top-down slots */
	{ 0x0aa, 0x01, Z1 | Z2 | Z3, "de_dis_uops_from_decoder.decoder_dispatched" },
	{ 0x0aa, 0x02, Z1 | Z2 | Z3, "de_dis_uops_from_decoder.opcache_dispatched" },
	{ 0x0aa, 0x01, Z4P, "de_src_op_disp.x86_decoder" },
	{ 0x0aa, 0x02, Z4P, "de_src_op_disp.op_cache" },
	{ 0x0aa, 0x07, Z4P, "de_src_op_disp.all" },
	{ 0x1a0, 0x01, Z4P, "de_no_dispatch_per_slot.no_ops_from_frontend" },
	{ 0x1a0, 0x1e, Z4P, "de_no_dispatch_per_slot.backend_stalls" },
	{ 0x1a0, 0x60, Z4P, "de_no_dispatch_per_slot.smt_contention" },
	/* retire */
	{ 0x0c0, 0x00, ZALL, "ex_ret_instr" },
	{ 0x0c1, 0x00, Z1 | Z2, "ex_ret_cops" },
	{ 0x0c1, 0x00, Z3P, "ex_ret_ops" },
	{ 0x0c2, 0x00, ZALL, "ex_ret_brn" },
	{ 0x0c3, 0x00, ZALL, "ex_ret_brn_misp" },
	{ 0x0c4, 0x00, ZALL, "ex_ret_brn_tkn" },
	{ 0x0c5, 0x00, ZALL, "ex_ret_brn_tkn_misp" },
	{ 0x0c6, 0x00, ZALL, "ex_ret_brn_far" },
	{ 0x0c8, 0x00, ZALL, "ex_ret_near_ret" },
	{ 0x0c9, 0x00, ZALL, "ex_ret_near_ret_mispred" },
	{ 0x0ca, 0x00, ZALL, "ex_ret_brn_ind_misp" },
	{ 0x0cc, 0x00, Z2 | Z3P, "ex_ret_ind_brch_instr" },
	{ 0x0d1, 0x00, ZALL, "ex_ret_cond" },
	{ 0x0d3, 0x00, ZALL, "ex_div_busy" },
	{ 0x0d4, 0x00, ZALL, "ex_div_count" },
	{ 0x0d6, 0x01, Z4P, "ex_no_retire.empty" },
	{ 0x0d6, 0x02, Z4P, "ex_no_retire.not_complete" },
	{ 0x0d6, 0x08, Z4P, "ex_no_retire.other" },
	{ 0x0d6, 0x10, Z4P, "ex_no_retire.thread_not_selected" },
	{ 0x0d6, 0xa2, Z4P, "ex_no_retire.load_not_complete" },
	{ 0x0d6, 0x1b, Z4P, "ex_no_retire.all" },
	{ 0x1c1, 0x00, Z3P, "ex_ret_ucode_instr" },
	{ 0x1c2, 0x00, Z3P, "ex_ret_ucode_ops" },
	{ 0x1c7, 0x00, Z3P, "ex_ret_msprd_brnch_instr_dir_msmtch" },
	{ 0x1d0, 0x00, Z4P, "ex_ret_fused_instr" },
};

static unsigned zen_generation(const char *pfm)
{
	static const struct {
		const char *pfm;
		unsigned gen;
	} gens[] = {
		{ "amd64_fam17h_zen1", Z1 }, { "amd64_fam17h_zen2", Z2 }, { "amd64_fam19h_zen3", Z3 },
		{ "amd64_fam19h_zen4", Z4 }, { "amd64_fam1ah_zen5", Z5 },
	};

	for (size_t i = 0; pfm && i < sizeof(gens) / sizeof(gens[0]); i++)
		if (!strcasecmp(pfm, gens[i].pfm))
			return gens[i].gen;
	return 0;
}

int pmc_x86_amd_perf_name(const char *pfm, const char *name, uint64_t *config)
{
	unsigned gen = zen_generation(pfm);
	bool other_gen = false;

	if (!gen || !name)
		return -ENOENT;
	for (size_t i = 0; i < sizeof(amd_names) / sizeof(amd_names[0]); i++) {
		const struct amd_name *a = &amd_names[i];

		if (strcasecmp(a->name, name))
			continue;
		if (!(a->gens & gen)) {
			other_gen = true;
			continue;
		}
		*config = (uint64_t)(a->code & 0xff) | (uint64_t)a->umask << 8 | (uint64_t)(a->code >> 8) << 32;
		return 0;
	}
	return other_gen ? -ENODEV : -ENOENT;
}

const char *pmc_x86_amd_zen_pfm(const char *vendor, unsigned family, unsigned model)
{
	if (!vendor || strcmp(vendor, "AuthenticAMD"))
		return NULL;
	switch (family) {
	case 0x17: /* Zen and Zen+ 0x00-0x2f; Zen 2 from 0x30 (Rome 0x31, Renoir 0x60, Matisse 0x71, ...) */
		return model < 0x30 ? "amd64_fam17h_zen1" : "amd64_fam17h_zen2";
	case 0x19: /* Zen 4: Genoa 0x10-0x1f, Raphael/Phoenix 0x60-0x7f, Bergamo 0xa0-0xaf; the rest Zen 3 */
		return (model >= 0x10 && model <= 0x1f) || (model >= 0x60 && model <= 0xaf) ? "amd64_fam19h_zen4"
											  : "amd64_fam19h_zen3";
	case 0x1a:
		return "amd64_fam1ah_zen5";
	default:
		return NULL;
	}
}

size_t pmc_x86_amd_perf_name_count(void)
{
	return sizeof(amd_names) / sizeof(amd_names[0]);
}
