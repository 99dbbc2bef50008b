/* SPDX-License-Identifier: MIT */
/* libpfm4 life cycle, the core PMU's identity, and encoding through libpfm4's perf_event OS layer. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/arch.h"
#include "pmu/pmu_internal.h"

static struct {
	bool tried;     /* pfm_initialize() was called (it is not reentrant: once per process until fini) */
	bool ready;     /* and it succeeded */
	int rc;         /* what pfm_initialize() returned */
	int core;       /* pfm_pmu_t of the default core PMU, or -1 */
	bool intel_fixed;
	bool amd;
	char core_name[64];
} pmu_state = { .core = -1 };

static void find_core_pmu(void)
{
	pfm_pmu_t p;

	pfm_for_all_pmus(p) {
		pfm_pmu_info_t pi;

		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		if (pfm_get_pmu_info(p, &pi) != PFM_SUCCESS || !pi.is_present || pi.type != PFM_PMU_TYPE_CORE)
			continue;
		/* libpfm4 lists the generic "perf" and "perf_raw" PMUs as core too: they are not the CPU's. */
		if (!strncmp(pi.name, "perf", 4))
			continue;
		pmu_state.core = (int)p;
		snprintf(pmu_state.core_name, sizeof(pmu_state.core_name), "%s", pi.name);
		pmu_state.amd = !strncmp(pi.name, "amd64", 5);
		pmu_state.intel_fixed = !pmu_state.amd && pi.num_fixed_cntrs > 0;
		return;
	}
}

int pmc_pmu_init(char *err, size_t errlen)
{
	int rc;

	if (!pmu_state.tried) {
		pmu_state.tried = true;
		pmu_state.rc = pfm_initialize();
		if (pmu_state.rc == PFM_SUCCESS) {
			pmu_state.ready = true;
			find_core_pmu();
		}
	}
	rc = pmu_state.rc;
	/* No PMU activated: generic, sysfs, raw and breakpoint spellings still work, so this is not fatal. */
	if (rc == PFM_SUCCESS || rc == PFM_ERR_NOTSUPP)
		return 0;
	/* Started lazily by whatever needed it first: every later caller hears of the failure too. */
	if (err && errlen)
		snprintf(err, errlen, "libpfm4 initialization failed: %s", pfm_strerror(rc));
	return -EIO;
}

void pmc_pmu_fini(void)
{
	pmc_suggest_fini();
	if (pmu_state.ready)
		pfm_terminate();
	memset(&pmu_state, 0, sizeof(pmu_state));
	pmu_state.core = -1;
}

/* Without a forced PMU, libpfm4 activates an Intel core PMU only on a CPU whose vendor is GenuineIntel: on any other
 * the answer is known without starting libpfm4 (one CPUID instead of one per PMU libpfm4 knows). */
static bool surely_not_intel(void)
{
	if (pmu_state.tried || getenv("LIBPFM_FORCE_PMU"))
		return false;
	return !pmc_arch_cpu_is_intel();
}

bool pmc_pmu_has_intel_fixed(void)
{
	if (surely_not_intel())
		return false;
	pmc_pmu_init(NULL, 0);
	return pmu_state.intel_fixed;
}

const char *pmc_pmu_core_name(void)
{
	pmc_pmu_init(NULL, 0);
	return pmu_state.core >= 0 ? pmu_state.core_name : NULL;
}

bool pmc_pmu_libpfm_ready(void)
{
	pmc_pmu_init(NULL, 0);
	return pmu_state.ready;
}

bool pmc_pmu_core_is_amd(void)
{
	pmc_pmu_init(NULL, 0);
	return pmu_state.amd;
}

const char *pmc_libpfm_strerror(int code)
{
	return pfm_strerror(code);
}

int pmc_libpfm_encode(const char *str, struct perf_event_attr *attr, char *fstr, size_t fstrlen)
{
	pfm_perf_encode_arg_t arg;
	struct perf_event_attr a;
	char *fq = NULL;
	int rc;

	if (!pmc_pmu_libpfm_ready())
		return PFM_ERR_NOTFOUND;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	memset(&arg, 0, sizeof(arg));
	arg.attr = &a;
	arg.fstr = &fq;
	arg.size = sizeof(arg);
	rc = pfm_get_os_event_encoding(str, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT, &arg);
	if (rc != PFM_SUCCESS) {
		free(fq);
		return rc;
	}
	if (fstr && fstrlen)
		snprintf(fstr, fstrlen, "%s", fq ? fq : str);
	free(fq);
	a.size = sizeof(a);
	*attr = a;
	return PFM_SUCCESS;
}

void pmc_event_normalize_excl(struct perf_event_attr *a)
{
	/* x86 has no hypervisor privilege level of its own: libpfm4 sets exclude_hv differently per PMU, so tie it
	 * to kernel and make every spelling of the same event give the same attr. Guest mode is counted, like perf
	 * does for an event without modifiers. */
	a->exclude_hv = a->exclude_kernel;
	a->exclude_guest = 0;
	a->exclude_host = 0;
}

void pmc_event_classify_core(struct pmc_event *ev)
{
	/* The kernel places only these exact encodings (no cmask, inv, edge, any) on the fixed counters. */
	static const uint64_t fixed_codes[] = { 0x00c0, 0x003c, 0x0300 };
	uint64_t cfg = ev->attr.config & ~PMC_X86_PLM_BITS;

	ev->flags |= PMC_EVF_HARDWARE;
	ev->cls = PMC_CLASS_GP;
	ev->fixed_index = -1;
	if (!pmc_pmu_has_intel_fixed() || ev->attr.config1 || ev->attr.config2)
		return;
	for (int i = 0; i < (int)PMC_ARRAY_SIZE(fixed_codes); i++)
		if (cfg == fixed_codes[i]) {
			ev->cls = PMC_CLASS_FIXED;
			ev->fixed_index = i;
		}
}

void pmc_event_raw_plm(struct perf_event_attr *a)
{
	uint64_t plm = a->config & (PMC_X86_USR | PMC_X86_OS);

	a->config &= ~PMC_X86_PLM_BITS;
	if (!plm)
		return;
	a->exclude_user = !(plm & PMC_X86_USR);
	a->exclude_kernel = !(plm & PMC_X86_OS);
	a->exclude_hv = a->exclude_kernel;
}
