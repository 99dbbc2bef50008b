/* SPDX-License-Identifier: MIT */
/* The verdict of `pmctool info` (a pure function of its inputs, so tests can pose any machine), and the budget of a
 * forced libpfm4 PMU under the name the engine knows. */
#include "info/inventory.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int pmc_forced_pmu_budget(const char *name, bool intel, unsigned table_gp, unsigned *ret_n, char *why, size_t whylen)
{
	return pmc_arch_forced_pmu_budget(name, intel, table_gp, ret_n, why, whylen);
}

const char *pmc_verdict_name(enum pmc_verdict v)
{
	switch (v) {
	case PMC_VERDICT_AVAILABLE:
		return "available";
	case PMC_VERDICT_DEGRADED:
		return "degraded";
	default:
		return "not available";
	}
}

static void unavailable(const struct pmc_verdict_input *in, struct pmc_verdict_result *r)
{
	r->verdict = PMC_VERDICT_UNAVAILABLE;
	if (in->probe_errno == EACCES || in->probe_errno == EPERM) {
		snprintf(r->reason, sizeof(r->reason), "perf_event_paranoid=%d denies counting to this user (%s)",
			 in->paranoid, strerror(in->probe_errno));
		snprintf(r->action, sizeof(r->action), "sysctl -w kernel.perf_event_paranoid=2 (own user space), or "
			 "grant CAP_PERFMON (setcap cap_perfmon+ep $(command -v pmctool))");
		return;
	}
	if (!in->has_core_pmu || in->probe_errno == ENOENT || in->probe_errno == EOPNOTSUPP) {
		const char *name = in->probe_errno ? strerrorname_np(in->probe_errno) : NULL;

		snprintf(r->reason, sizeof(r->reason), "the kernel has no driver for this CPU's counters (dmesg: 'no PMU "
			 "driver, software events only' or 'PMU not available due to virtualization'); hardware events "
			 "fail with %s", name ? name : "ENOENT");
		snprintf(r->action, sizeof(r->action), "%ssoftware events and msr/tsc/ still count, and "
			 "breakpoints where this machine's debug registers fire ('pmctool check' probes them)",
			 in->hypervisor ? "in a VM, enable a virtual PMU (e.g. KVM -cpu host,pmu=on, or a cloud instance "
					  "type with vPMU); " :
					  "update the kernel to one that knows this CPU; ");
		return;
	}
	snprintf(r->reason, sizeof(r->reason), "opening a hardware event fails: %s", strerror(in->probe_errno));
	snprintf(r->action, sizeof(r->action), "check dmesg for PMU messages; software events still count");
}

void pmc_inventory_verdict(const struct pmc_verdict_input *in, struct pmc_verdict_result *ret)
{
	struct pmc_verdict_result r = { .verdict = PMC_VERDICT_AVAILABLE };
	size_t used = 0;

	/* The driver is there but instructions does not open: a partial PMU (an emulator or a VM that offers some
	 * events: QEMU without -icount counts cycles but not instructions). Other events may count. */
	if (in->has_core_pmu && (in->probe_errno == ENOENT || in->probe_errno == EOPNOTSUPP)) {
		r.verdict = PMC_VERDICT_DEGRADED;
		snprintf(r.reason, sizeof(r.reason), "a partial PMU: the kernel has a core PMU driver, but the instructions "
			 "event does not open (%s); other hardware events may still count",
			 strerrorname_np(in->probe_errno) ? strerrorname_np(in->probe_errno) : "ENOENT");
		snprintf(r.action, sizeof(r.action), "pmctool check shows which counts can be trusted here");
		*ret = r;
		return;
	}
	if (in->probe_errno || !in->has_core_pmu) {
		unavailable(in, &r);
		*ret = r;
		return;
	}
	if (!in->can_count_kernel) {
		r.verdict = PMC_VERDICT_DEGRADED;
		used += (size_t)snprintf(r.reason, sizeof(r.reason), "user-only counting (perf_event_paranoid=%d): "
					 "kernel time is not counted", in->paranoid);
		snprintf(r.action, sizeof(r.action), "sysctl -w kernel.perf_event_paranoid=1, or grant CAP_PERFMON");
	}
	if (in->rdpmc == 0) {
		r.verdict = PMC_VERDICT_DEGRADED;
		snprintf(r.reason + used, sizeof(r.reason) - used, "%srdpmc is off (/sys/bus/event_source/devices/cpu/"
			 "rdpmc=0): built-in kernels read counters through read(), slower", used ? "; " : "");
		used = strlen(r.action);
		snprintf(r.action + used, sizeof(r.action) - used, "%secho 1 > /sys/bus/event_source/devices/cpu/rdpmc",
			 used ? "; " : "");
	}
	*ret = r;
}
