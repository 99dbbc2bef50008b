/* SPDX-License-Identifier: MIT */
#include "info/inventory.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "arch/arch.h"
#include "perf/perf.h"
#include "perf/probe.h"
#include "pmu/event.h"
#include "sys/perf_access.h"
#include "util/util.h"

static int read_proc_int(const char *path, int dflt)
{
	long v;

	return pmc_sysfs_read_long(path, &v) || v < INT_MIN + 1 || v > INT_MAX ? dflt : (int)v;
}

bool pmc_inventory_can_count_kernel(void)
{
	bool perfmon, sys_admin;
	int paranoid = pmc_perf_paranoid();

	pmc_perf_caps(&perfmon, &sys_admin);
	return (paranoid != INT_MIN && paranoid < 2) || perfmon || sys_admin;
}

/* The first core PMU directory the kernel has (arch hook: cpu, cpu_core, cpu_atom; armv8_pmuv3*), or NULL. */
static const char *core_pmu_dir(char *buf, size_t len)
{
	return pmc_arch_core_pmu_dir(buf, len) ? NULL : buf;
}

static int read_core_knob(const char *file)
{
	char dir[512], path[600];
	long v;

	if (!core_pmu_dir(dir, sizeof(dir)))
		return -1;
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return pmc_sysfs_read_long(path, &v) || v < 0 || v > INT_MAX ? -1 : (int)v;
}

/* libpfm4's static counter count for its default core PMU; 0 unknown. */
static unsigned libpfm_table_gp(void)
{
	static struct pmc_libpfm_facts f;

	pmc_pmu_libpfm_facts(&f);
	return f.core_gp > 0 ? (unsigned)f.core_gp : 0;
}

static void fill_budget_facts(struct pmc_budget_facts *f)
{
	*f = (struct pmc_budget_facts){ .has_kernel_pmu = pmc_arch_has_core_pmu(),
					.smt_active = pmc_sysfs_smt_active(),
					.nmi_watchdog = read_proc_int("/proc/sys/kernel/nmi_watchdog", -1),
					.tsx_force_abort = read_core_knob("allow_tsx_force_abort"),
					.table_gp = libpfm_table_gp };
}

/* The real opener: perf_event_open on this thread, any CPU. */
static int open_self(struct perf_event_attr *attr, int group_fd)
{
	return pmc_perf_open_self(attr, group_fd, NULL);
}

int pmc_budget_from_kernel(pmc_budget_opener opener, unsigned *ret_n, char *why, size_t whylen)
{
	/* Enabled leader (REFERENCE 11: a disabled leader lets one member too many in, and that group never runs). */
	struct perf_event_attr attr = { .size = sizeof(attr), .type = PERF_TYPE_HARDWARE,
					.config = PERF_COUNT_HW_INSTRUCTIONS, .exclude_kernel = 1, .exclude_hv = 1 };
	int fds[PMC_BUDGET_PROBE_MAX], n = 0, err = 0;
	const char *extra = pmc_arch_extra_counters();

	if (why && whylen)
		why[0] = '\0';
	while (n < PMC_BUDGET_PROBE_MAX) {
		struct perf_event_attr a = attr;
		int fd = opener(&a, n ? fds[0] : -1);

		if (fd < 0) {
			err = -fd;
			break;
		}
		fds[n++] = fd;
	}
	for (int i = n - 1; i >= 0; i--)
		close(fds[i]);
	if (n == 0) {
		if (why)
			snprintf(why, whylen, "the kernel refused even one instructions event (%s): no counter is usable "
				 "now", strerror(err));
		return -ENODEV;
	}
	*ret_n = (unsigned)n;
	if (!why)
		return 0;
	if (err)
		snprintf(why, whylen, "learnt from the kernel: a group of instructions events (user only, enabled leader) "
			 "took %d, the next was refused (%s)%s%s", n, strerror(err), extra ? "\nplus " : "",
			 extra ? extra : "");
	else
		snprintf(why, whylen, "learnt from the kernel: a group of %d instructions events opened (pmctool tries no "
			 "more)%s%s", n, extra ? "\nplus " : "", extra ? extra : "");
	return 0;
}

int pmc_inventory_gp_counters(unsigned *ret_n, char *why, size_t whylen)
{
	struct pmc_budget_facts f;

	if (pmc_arch_budget_from_kernel()) {
		if (!pmc_arch_has_core_pmu()) {
			if (why)
				snprintf(why, whylen, "no kernel PMU driver for this CPU's counters: no programmable "
					 "counter can be used");
			return -ENODEV;
		}
		return pmc_budget_from_kernel(open_self, ret_n, why, whylen);
	}
	fill_budget_facts(&f);
	return pmc_arch_counter_budget(&f, ret_n, why, whylen);
}

static int probe_instructions(void)
{
	struct perf_event_attr attr = { .size = sizeof(attr), .type = PERF_TYPE_HARDWARE,
					.config = PERF_COUNT_HW_INSTRUCTIONS, .disabled = 1,
					.exclude_kernel = 1, .exclude_hv = 1 };
	int fd = pmc_perf_open_self(&attr, -1, NULL);

	if (fd < 0)
		return -fd;
	close(fd);
	return 0;
}

static void collect_pfm(struct pmc_inventory *inv)
{
	static struct pmc_libpfm_facts f; /* large: not on the stack */

	pmc_pmu_libpfm_facts(&f);
	inv->pfm_table_gp = f.core_gp;
	inv->pfm_table_fixed = f.core_fixed;
	inv->pfm_error = f.init_rc;
	inv->pfm_major = f.major;
	inv->pfm_minor = f.minor;
	inv->pfm_release_how = pmc_pfm_release(inv->pfm_release, sizeof(inv->pfm_release));
	if (inv->pfm_error)
		return;
	for (unsigned i = 0; i < f.npmus && inv->npfm_pmus < PMC_INV_MAX_PFM_PMUS; i++)
		snprintf(inv->pfm_pmus[inv->npfm_pmus++], sizeof(inv->pfm_pmus[0]), "%s", f.pmus[i]);
	snprintf(inv->pfm_core, sizeof(inv->pfm_core), "%s", f.core);
	snprintf(inv->pfm_core_desc, sizeof(inv->pfm_core_desc), "%s", f.core_desc);
}

/* The index of the kernel's core PMU among inv->pmus, -1 when none: the architecture knows its names and which comes
 * first (x86 cpu, cpu_core, cpu_atom; arm64 armv8_pmuv3_0, armv8_cortex_a72...). */
static int find_core_pmu(const struct pmc_inventory *inv)
{
	char dir[512];
	const char *base;

	if (!core_pmu_dir(dir, sizeof(dir)) || !(base = strrchr(dir, '/')))
		return -1;
	for (size_t i = 0; i < inv->npmus; i++)
		if (!strcmp(inv->pmus[i].name, base + 1))
			return (int)i;
	return -1;
}

static void collect_kernel(struct pmc_inventory *inv)
{
	inv->sysfs_error = pmc_sysfs_scan_pmus(inv->pmus, PMC_SYSFS_MAX_PMUS, &inv->npmus);
	inv->core_pmu = find_core_pmu(inv);
	inv->rdpmc = inv->core_pmu >= 0 ? inv->pmus[inv->core_pmu].rdpmc : -1;
	inv->tsx_force_abort = read_core_knob("allow_tsx_force_abort");
	inv->paranoid = pmc_perf_paranoid();
	inv->nmi_watchdog = read_proc_int("/proc/sys/kernel/nmi_watchdog", -1);
	inv->uid = getuid();
	pmc_perf_caps(&inv->cap_perfmon, &inv->cap_sys_admin);
	inv->can_count_kernel = (inv->paranoid != INT_MIN && inv->paranoid < 2) || inv->cap_perfmon ||
				inv->cap_sys_admin;
	inv->cpu_index = sched_getcpu();
	inv->smt_active = pmc_sysfs_smt_active();
	if (inv->cpu_index < 0 || pmc_sysfs_smt_siblings(inv->cpu_index, inv->smt_siblings,
							 sizeof(inv->smt_siblings), &inv->nsmt_siblings)) {
		inv->smt_siblings[0] = '\0';
		inv->nsmt_siblings = 0;
	}
}

int pmc_inventory_collect(struct pmc_inventory *ret)
{
	struct pmc_verdict_input vin;

	struct pmc_budget_facts facts;

	memset(ret, 0, sizeof(*ret));
	ret->ncpu_facts = pmc_arch_describe(ret->cpu_facts, PMC_ARCH_FACTS_MAX);
	collect_pfm(ret);
	collect_kernel(ret);
	ret->tsc_error = pmc_arch_timer_hz(&ret->tsc_hz, &ret->tsc_source);
	fill_budget_facts(&facts);
	if (pmc_arch_budget_from_kernel())
		ret->budget_error = pmc_inventory_gp_counters(&ret->gp_budget, ret->budget_why, sizeof(ret->budget_why));
	else
		ret->budget_error = pmc_arch_counter_budget(&facts, &ret->gp_budget, ret->budget_why,
							    sizeof(ret->budget_why));
	ret->budget_from_kernel = pmc_arch_budget_from_kernel();
	pmc_arch_cpu_identify(&ret->acpu);
	ret->timer_name = pmc_arch_timer_name();
	ret->user_read_name = pmc_arch_user_read_name();
	ret->user_read_error = pmc_arch_user_read_blocked(ret->user_read_why, sizeof(ret->user_read_why));
	ret->probe_errno = probe_instructions();
	vin = (struct pmc_verdict_input){ .has_core_pmu = ret->core_pmu >= 0 || pmc_arch_has_core_pmu(), .probe_errno = ret->probe_errno,
					  .paranoid = ret->paranoid, .can_count_kernel = ret->can_count_kernel,
					  .rdpmc = ret->rdpmc, .hypervisor = ret->acpu.hypervisor };
	pmc_inventory_verdict(&vin, &ret->verdict);
	return 0;
}
