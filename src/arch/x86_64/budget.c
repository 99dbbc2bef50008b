/* SPDX-License-Identifier: MIT */
/* x86's counter budget: the vendor, SMT and model rules read from CPUID's counts or libpfm4's table. Pure functions of
 * their inputs, built on every architecture: tests pose any machine, and a forced libpfm4 PMU (LIBPFM_FORCE_PMU) is
 * read the same way on any host. */
#include "arch/x86_64/budget.h"

#include "util/util.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct why {
	char *buf;
	size_t len, used;
};

__attribute__((format(printf, 2, 3))) static void say(struct why *w, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!w->buf || w->used + 1 >= w->len)
		return;
	if (w->used)
		w->buf[w->used++] = '\n';
	va_start(ap, fmt);
	n = vsnprintf(w->buf + w->used, w->len - w->used, fmt, ap);
	va_end(ap);
	if (n > 0)
		w->used = PMC_MIN(w->used + (size_t)n, w->len - 1);
}

static bool model_in(unsigned model, const unsigned char *models, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (models[i] == model)
			return true;
	return false;
}

/* Nehalem and Westmere: 4 programmable counters per thread, whether SMT is on or off (no 8 with SMT off). */
static bool intel_nehalem(unsigned family, unsigned model)
{
	static const unsigned char models[] = { 0x1a, 0x1e, 0x1f, 0x2e, 0x25, 0x2c, 0x2f };

	return family == 6 && model_in(model, models, sizeof(models));
}

bool pmc_intel_smt_splits_counters(unsigned family, unsigned model)
{
	/* Sandy Bridge through Comet Lake: 8 counters per core, 4 per thread when both threads are on. */
	static const unsigned char models[] = {
		0x2a, 0x2d, 0x3a, 0x3e,                         /* Sandy Bridge, Ivy Bridge */
		0x3c, 0x3f, 0x45, 0x46, 0x3d, 0x47, 0x4f, 0x56, /* Haswell, Broadwell */
		0x4e, 0x5e, 0x55, 0x8e, 0x9e, 0xa5, 0xa6,       /* Skylake, Kaby/Coffee/Comet Lake */
	};

	return family == 6 && model_in(model, models, sizeof(models));
}

/* The live count and where it came from; 0 when unknown. The SMT notes follow smt/active (sibling threads running
 * now), which is what the kernel can say; the split itself is decided when the CPU starts, by the firmware's SMT
 * setting, and CPUID 0xA reports its result. */
static unsigned base_count(const struct pmc_budget_input *in, struct why *w)
{
	bool split = in->vendor == PMC_VENDOR_INTEL && pmc_intel_smt_splits_counters(in->family, in->model);

	if (in->vendor == PMC_VENDOR_INTEL && intel_nehalem(in->family, in->model) && (in->cpuid_gp || in->table_gp)) {
		say(w, "Nehalem/Westmere: 4 programmable counters per thread, whether SMT is on or off");
		return 4;
	}
	if (in->vendor == PMC_VENDOR_AMD && in->family >= 0x17 && !in->amd_v2 && in->cpuid_gp < 6) {
		/* A hypervisor may hide PerfCtrExtCore; every Zen core has 6, and PerfMonV2 would say otherwise. */
		say(w, "AMD family %#x (Zen): 6 core counters per thread (no CPUID 0x80000022 count); SMT does not split "
		       "them", in->family);
		return 6;
	}
	if (in->cpuid_gp) {
		if (in->vendor == PMC_VENDOR_AMD)
			say(w, "CPUID %s (AMD family %#x): %u core counters per thread; SMT does not split them",
			    in->amd_v2 ? "0x80000022" : "0x80000001", in->family, in->cpuid_gp);
		else
			say(w, "CPUID 0xA: %u programmable counters per logical CPU (live count)", in->cpuid_gp);
		if (split && in->smt_active == 1)
			say(w, "smt/active is 1 (sibling threads run): before Ice Lake a core's 8 counters are split 4 per "
			       "thread (CPUID already reports the per-thread count)");
		else if (split && in->smt_active == 0)
			say(w, "smt/active is 0 (no sibling thread runs): CPUID's count is this thread's (8 when SMT is off "
			       "in the firmware; 4 when it is on there and the kernel only keeps the siblings offline)");
		return in->cpuid_gp;
	}
	if (!in->table_gp)
		return 0;
	say(w, "CPUID gives no count; libpfm4's table says %u (a static value, not live)", in->table_gp);
	if (split && in->smt_active != 0 && in->table_gp > 4) {
		say(w, "smt/active is %s: before Ice Lake a core's 8 counters are split 4 per thread",
		    in->smt_active == 1 ? "1 (sibling threads run)" : "unreadable, SMT assumed on");
		return 4;
	}
	if (in->vendor == PMC_VENDOR_INTEL && in->table_gp > 8) {
		say(w, "Ice Lake and later have 8 per thread; the table's %u is an upper bound", in->table_gp);
		return 8;
	}
	return (unsigned)in->table_gp;
}

int pmc_arch_forced_pmu_budget(const char *name, bool intel, unsigned table_gp, unsigned *ret_n, char *why, size_t whylen)
{
	struct why w = { why, whylen, 0 };
	unsigned n = table_gp;

	if (why && whylen)
		why[0] = '\0';
	if (!table_gp)
		return -ENODEV;
	if (!intel)
		say(&w, "forced PMU %s: %u core counters per thread (libpfm4's table)", name, n);
	else if (table_gp > 8) {
		n = 8;
		say(&w, "forced PMU %s: 8 per thread (Ice Lake and later; libpfm4's table says %u, an upper bound)", name,
		    table_gp);
	} else if (table_gp == 8) {
		n = 4;
		say(&w, "forced PMU %s: 4 per thread (before Ice Lake a core's 8 are split with SMT on, assumed on)",
		    name);
	} else {
		say(&w, "forced PMU %s: %u (libpfm4's table)", name, n);
	}
	*ret_n = n;
	return 0;
}

int pmc_counter_budget(const struct pmc_budget_input *in, unsigned *ret_n, char *why, size_t whylen)
{
	struct why w = { why, whylen, 0 };
	unsigned n;

	if (why && whylen)
		why[0] = '\0';
	if (!in->has_kernel_pmu) {
		say(&w, "no kernel PMU driver (no /sys/bus/event_source/devices/cpu): no programmable counter can be used");
		return -ENODEV;
	}
	n = base_count(in, &w);
	if (!n) {
		say(&w, "neither CPUID nor libpfm4 gives a counter count for this CPU");
		return -ENODEV;
	}
	if (in->nmi_watchdog == 1 && n > 1) {
		n--;
		say(&w, "NMI watchdog is on (/proc/sys/kernel/nmi_watchdog=1): its pinned cycles event %s: -1 -> %u",
		    in->vendor == PMC_VENDOR_AMD ? "holds a core counter" :
						   "can hold a programmable counter (not guaranteed otherwise)", n);
	} else if (in->nmi_watchdog == 0) {
		say(&w, "NMI watchdog is off: it holds no counter");
	} else if (in->nmi_watchdog < 0) {
		say(&w, "NMI watchdog state unknown (/proc/sys/kernel/nmi_watchdog unreadable): not subtracted");
	}
	if (in->vendor == PMC_VENDOR_INTEL && in->tsx_force_abort == 0 && n > 1) {
		n--;
		say(&w, "allow_tsx_force_abort=0: the kernel keeps PMC3 for TSX: -1 -> %u", n);
	}
	say(&w, "budget: %u programmable counter%s per batch", n, n == 1 ? "" : "s");
	*ret_n = n;
	return 0;
}
