/* SPDX-License-Identifier: MIT */
/* perf's event names without vendor tables: the shapes libpfm4 does not spell as perf does, rewritten to libpfm4's
 * spelling (the answer is libpfm4's encoding, its canonical name kept), or refused with the spelling that works.
 *   multi-dot names       idq_uops_not_delivered.cycles_0_uops_deliv.core, ocr.demand_data_rd.any_response:
 *                         the dots after the first are '_' in libpfm4's umask
 *   offcore response      offcore_response.REQUEST.any_response -> OFFCORE_RESPONSE_0:REQ:ANY_RESPONSE; the
 *                         others (supplier, snoop) a message: libpfm4's umasks set other bits than perf's
 *   load latency          EVENT.load_latency_gt_N -> EVENT:LOAD_LATENCY:ldlat=N
 *   frontend latency      frontend_retired.latency_ge_N[_bubbles_ge_K] -> FRONTEND_RETIRED:IDQ_K_BUBBLES:fe_thres=N
 *   fixed-counter names   cpu_clk_unhalted.ref_tsc -> UNHALTED_REFERENCE_CYCLES, cpu_clk_unhalted.thread_any ->
 *                         CPU_CLK_UNHALTED:THREAD_P:t=1; topdown.slots where there is no slots counter: a message
 *   AMD's mnemonics       ex_ret_instr, ls_dispatch.ld_dispatch, de_src_op_disp.all: by AMD's event code
 *                         (pmc_arch_pfm_perf_name), named by libpfm4's event of that code when it has one
 * Called after libpfm4 and the vendor tables missed the name. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arch/arch.h"
#include "pmu/event.h"
#include "pmu/pmu_internal.h"

/* perf's offcore words -> libpfm4's umasks (Skylake-era OFFCORE_RESPONSE_0). */
static const struct {
	const char *perf, *pfm;
} offcore_words[] = {
	{ "demand_data_rd", "DMND_DATA_RD" }, { "demand_rfo", "DMND_RFO" }, { "demand_code_rd", "DMND_CODE_RD" },
	{ "other", "OTHER" }, { "any_request", "ANY_REQUEST" }, { "any_response", "ANY_RESPONSE" },
};

static int try_spelling(const char *pfm, struct pmc_event *ev)
{
	struct perf_event_attr a;
	char fstr[PMC_NAME_MAX];

	if (pmc_libpfm_encode(pfm, &a, fstr, sizeof(fstr)) != PFM_SUCCESS)
		return -ENOENT;
	ev->attr = a;
	snprintf(ev->canonical, sizeof(ev->canonical), "%s", fstr);
	pmc_event_classify_core(ev);
	if (a.type == PERF_TYPE_RAW || a.type >= PERF_TYPE_MAX)
		ev->flags |= PMC_EVF_HARDWARE;
	return 0;
}

/* perf-shaped: [a-z0-9_] words joined by '.', at least one dot, nothing else. */
static bool perf_shaped(const char *s, int *ndots)
{
	*ndots = 0;
	if (!isalpha((unsigned char)*s))
		return false;
	for (; *s; s++) {
		if (*s == '.') {
			if (s[1] == '.' || !s[1])
				return false;
			(*ndots)++;
		} else if (!isalnum((unsigned char)*s) && *s != '_') {
			return false;
		}
	}
	return true;
}

static const char *offcore_word(const char *w)
{
	for (size_t i = 0; i < PMC_ARRAY_SIZE(offcore_words); i++)
		if (!strcasecmp(offcore_words[i].perf, w))
			return offcore_words[i].pfm;
	return NULL;
}

/* offcore_response.REQUEST.RESPONSE[.SNOOP]: each word through the table (or upper-cased as it is). */
static int offcore(const char *rest, char *out, size_t len)
{
	char buf[PMC_NAME_MAX], *save = NULL;
	size_t n = (size_t)snprintf(out, len, "OFFCORE_RESPONSE_0");

	snprintf(buf, sizeof(buf), "%s", rest);
	for (char *w = strtok_r(buf, ".", &save); w && n < len; w = strtok_r(NULL, ".", &save)) {
		const char *p = offcore_word(w);

		n += (size_t)snprintf(out + n, len - n, ":");
		for (const char *c = p ? p : w; *c && n + 1 < len; c++)
			out[n++] = (char)toupper((unsigned char)*c);
		out[n < len ? n : len - 1] = '\0';
	}
	return n < len ? 0 : -E2BIG;
}

static int first_name(const char *n, void *ctx)
{
	snprintf(ctx, PMC_NAME_MAX, "%s", n);
	return 1;
}

/* A perf name of AMD's (by event code): libpfm4's name of that code when its table has one, else the code raw. The
 * Zen generation is libpfm4's core PMU's; without one (libpfm4 4.13 on Zen 5), the one the arch seam knows this CPU's
 * family and model to be. */
static int amd_name(const char *name, struct pmc_event *ev, struct pmc_resolve_error *err)
{
	const char *pfm = pmc_pmu_core_model();
	char first[PMC_NAME_MAX] = "";
	uint64_t config;
	int rc = pmc_arch_pfm_perf_name(pfm, name, &config);

	if (rc == -ENODEV)
		return pmc_resolve_fail(err, PMC_RESOLVE_UNKNOWN, -ENOENT,
					"'%s' is perf's name of an AMD event another Zen generation has, not %s %s: "
					"run 'pmctool list' for this one's events, or load vendor tables (--tables DIR, "
					"pmctool-tables(1))", name, pmc_pmu_core_name() ? "PMU" : "this CPU's (by its "
					"CPUID family and model)", pfm);
	if (rc)
		return -ENOENT;
	pmc_event_decode(config, NULL, first_name, first);
	if (first[0] && !strchr(first, ' ') && !try_spelling(first, ev))
		return 0;
	ev->attr.type = PERF_TYPE_RAW;
	ev->attr.config = config;
	pmc_event_classify_core(ev);
	ev->flags |= PMC_EVF_HARDWARE;
	snprintf(ev->canonical, sizeof(ev->canonical), "r%llx", (unsigned long long)config);
	return 0;
}

int pmc_perfname_resolve(const char *spec, struct pmc_event *ev, struct pmc_resolve_error *err)
{
	char name[PMC_NAME_MAX], out[PMC_NAME_MAX * 2], tb[PMC_NAME_MAX];
	const char *dot, *rest;
	unsigned long n, k;
	int ndots, rc;
	char *end;

	if (!pmc_pmu_core_alias(spec, ev))
		return 0; /* slots, topdown-retiring: the kernel's sysfs names of the core PMU in use */
	if (!perf_shaped(spec, &ndots) && strspn(spec, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(spec))
		return -ENOENT;
	snprintf(name, sizeof(name), "%s", spec);
	for (char *p = name; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	rc = amd_name(name, ev, err);
	if (rc != -ENOENT || err->msg[0])
		return rc;
	dot = strchr(name, '.');
	if (!dot)
		return -ENOENT;
	rest = dot + 1;
	/* EVENT.load_latency_gt_N */
	if (!strncmp(rest, "load_latency_gt_", 16) && (n = strtoul(rest + 16, &end, 10)) && !*end) {
		snprintf(out, sizeof(out), "%.*s:LOAD_LATENCY:ldlat=%lu", (int)(dot - name), name, n);
		if (!try_spelling(out, ev))
			return 0;
		return pmc_resolve_fail(err, PMC_RESOLVE_UNKNOWN, -ENOENT,
					"'%s': a load-latency event; libpfm4's PMU %s has no %s: load vendor tables "
					"(--tables DIR) or see 'pmctool list LOAD_LATENCY'", spec, pmc_pmu_core_name(), out);
	}
	/* frontend_retired.latency_ge_N[_bubbles_ge_K] */
	if (!strncmp(name, "frontend_retired.latency_ge_", 28)) {
		n = strtoul(name + 28, &end, 10);
		k = 4;
		if (!strncmp(end, "_bubbles_ge_", 12))
			k = strtoul(end + 12, &end, 10);
		if (!*end && n && k >= 1 && k <= 4) {
			snprintf(out, sizeof(out), "FRONTEND_RETIRED:IDQ_%lu_BUBBLE%s:fe_thres=%lu", k, k > 1 ? "S" : "", n);
			if (!try_spelling(out, ev))
				return 0;
		}
	}
	/* the fixed counters' names libpfm4 spells otherwise */
	if (!strcmp(name, "cpu_clk_unhalted.ref_tsc") && !try_spelling("UNHALTED_REFERENCE_CYCLES", ev))
		return 0;
	if ((!strcmp(name, "cpu_clk_unhalted.thread_any") || !strcmp(name, "cpu_clk_unhalted.thread_p_any")) &&
	    !try_spelling("CPU_CLK_UNHALTED:THREAD_P:t=1", ev))
		return 0;
	if (!strcmp(name, "topdown.slots") || !strncmp(name, "topdown.slots_p", 15))
		return pmc_resolve_fail(err, PMC_RESOLVE_UNSUPPORTED, -ENOENT,
					"'%s': the slots counter of Ice Lake and later; libpfm4's PMU %s has none: "
					"'pmctool stat --topdown' measures the top-down tree on this CPU", spec,
					pmc_pmu_core_name() ? pmc_pmu_core_name() : "(none)");
	/* offcore_response.REQUEST.RESPONSE[.SNOOP] */
	if (!strncmp(name, "offcore_response.", 17) && ndots >= 2) {
		/* only REQUEST.any_response: libpfm4's supplier and snoop umasks (L3_HIT, SNP_ANY) set other bits
		 * than perf's tables, and a name must never give another config than perf's */
		if (!offcore(name + 17, out, sizeof(out)) && ndots == 2 && !strcmp(strrchr(name, '.'), ".any_response") &&
		    !try_spelling(out, ev))
			return 0;
		return pmc_resolve_fail(err, PMC_RESOLVE_UNKNOWN, -ENOENT,
					"'%s': an offcore response event, which libpfm4 spells OFFCORE_RESPONSE_0:REQUEST:"
					"RESPONSE[:SNOOP] ('%s' is not one of PMU %s's; 'pmctool list --long "
					"OFFCORE_RESPONSE_0' lists them), or load vendor tables (--tables DIR) for perf's "
					"names", spec, out, pmc_pmu_core_name() ? pmc_pmu_core_name() : "(none)");
	}
	/* multi-dot: EVENT.A.B -> the test-bench spelling event.a_b (libpfm4's EVENT:A_B) */
	if (ndots >= 2) {
		snprintf(tb, sizeof(tb), "%s", name);
		for (char *p = tb + (dot - name) + 1; *p; p++)
			if (*p == '.')
				*p = '_';
		if (!pmc_testbench_to_libpfm(tb, out, sizeof(out)) && !try_spelling(out, ev))
			return 0;
		if (!strncmp(name, "ocr.", 4))
			return pmc_resolve_fail(err, PMC_RESOLVE_UNKNOWN, -ENOENT,
						"'%s': an offcore response event (libpfm4 spells them OCR:REQUEST_RESPONSE "
						"or OFFCORE_RESPONSE_0:...; 'pmctool list OCR' lists PMU %s's), or load vendor "
						"tables (--tables DIR) for perf's names", spec,
						pmc_pmu_core_name() ? pmc_pmu_core_name() : "(none)");
		return pmc_resolve_fail(err, PMC_RESOLVE_UNKNOWN, -ENOENT,
					"unknown event '%s': libpfm4's PMU %s has no %.*s with umask %s; run 'pmctool list "
					"%.*s' for its umasks, or load vendor tables (--tables DIR) for perf's names", spec,
					pmc_pmu_core_name() ? pmc_pmu_core_name() : "(none)", (int)(dot - name), name,
					tb + (dot - name) + 1, (int)(dot - name), name);
	}
	return -ENOENT;
}
