/* SPDX-License-Identifier: MIT */
/* Intel's fixed counters: which encodings the kernel places on them (arch/x86/events/intel/core.c, the
 * FIXED_EVENT_CONSTRAINT rows and the pseudo-encoding rule: event 0x00 umask N is fixed counter N-1, never extended to
 * the programmable counters). */
#include "arch/x86_64/fixed.h"

#include "arch/common.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* USR 16, OS 17, INT 20, EN 22: the kernel takes them from the attr, not from config. */
#define PLM_BITS ((1ull << 16) | (1ull << 17) | (1ull << 20) | (1ull << 22))

/* What each fixed counter counts, and the libpfm4 event name (EVENT[:UMASK] prefix) that means it. */
static const struct {
	const char *what, *name;
} counters[] = {
	{ "instructions retired (INST_RETIRED.ANY)", "INST_RETIRED" },
	{ "core cycles (CPU_CLK_UNHALTED.THREAD)", "CPU_CLK_UNHALTED" },
	{ "reference cycles (CPU_CLK_UNHALTED.REF_TSC)", "CPU_CLK_UNHALTED" },
	{ "issue slots (TOPDOWN.SLOTS)", "TOPDOWN:SLOTS" },
	{ "a top-down counter", "TOPDOWN" },
	{ "a top-down counter", "TOPDOWN" },
	{ "a top-down counter", "TOPDOWN" },
	{ "fixed counter 7", "" },
};

/* The libpfm4 table ("icl") and the event without the table ("TOPDOWN:BACKEND_BOUND_SLOTS:e=0...") of name. */
static void split_name(const char *name, char *table, size_t tlen, const char **event)
{
	const char *sep = strstr(name, "::");

	snprintf(table, tlen, "%.*s", sep ? (int)(sep - name) : 0, name);
	*event = sep ? sep + 2 : name;
}

int pmc_x86_fixed_placement(uint64_t config, uint64_t config1, unsigned nfixed, const char *name,
			    struct pmc_arch_placement *ret, char *why, size_t len)
{
	uint64_t cfg = config & ~PLM_BITS;
	unsigned code = (unsigned)(cfg & 0xff), umask = (unsigned)(cfg >> 8 & 0xff);
	bool plain = !(cfg >> 16) && !config1; /* no cmask, inv, edge, any, in_tx... and no config1 */
	char table[64], tabletxt[192];
	const char *event;
	int idx = -1;

	ret->fixed_index = -1;
	ret->fixed_only = false;
	ret->no_counter = false;
	if (!nfixed || (config >> 32))
		return 0;
	if (code) {
		if (plain && umask == 0 && code == 0xc0)
			ret->fixed_index = 0;
		else if (plain && umask == 0 && code == 0x3c && nfixed >= 2)
			ret->fixed_index = 1;
		return 0;
	}
	if (umask >= 0x80) {
		/* the top-down metrics (0x8000...): fields of PERF_METRICS, read through the slots group (fixed counter
		 * 3); the kernel gives them no counter (intel/core.c: is_metric_event, INTEL_TD_METRIC_*) */
		ret->no_counter = plain && umask <= 0x87 && nfixed >= 4;
		return 0;
	}
	if (plain && umask == 3 && nfixed >= 3)
		idx = 2;
	else if (plain && umask >= 1 && umask <= 8 && nfixed >= 4 && umask - 1 < nfixed)
		idx = (int)umask - 1;
	split_name(name ? name : "", table, sizeof(table), &event);
	if (table[0]) {
		/* EVENT:UMASK, without the modifiers libpfm4 spells out (:e=0:i=0...) */
		size_t n = strcspn(event, ":");

		if (event[n] == ':' && !memchr(event + n + 1, '=', strcspn(event + n + 1, ":")))
			n += 1 + strcspn(event + n + 1, ":");
		snprintf(tabletxt, sizeof(tabletxt), "libpfm4's %s table gives %.*s this encoding", table, (int)n,
			 event);
	}
	else
		snprintf(tabletxt, sizeof(tabletxt), "raw code");
	if (idx < 0) {
		if (why && len) {
			if (umask >= 1 && umask <= 8)
				snprintf(why, len, "event code 0x00 umask %#04x is Intel's pseudo-encoding of fixed counter "
					 "%u, which this PMU (%u fixed counters) does not have%s: no counter can take it "
					 "(on a programmable counter event 0x00 counts nothing), so it is not counted (%s "
					 "%#llx)", umask, umask - 1, nfixed, plain ? "" : " with these modifiers", tabletxt,
					 (unsigned long long)cfg);
			else
				snprintf(why, len, "event code 0x00 is no event on Intel CPUs (umask N names fixed counter "
					 "N-1): no counter can take %#llx (on a programmable counter it counts nothing), so "
					 "it is not counted (%s)", (unsigned long long)cfg, tabletxt);
		}
		return -1;
	}
	ret->fixed_index = idx;
	ret->fixed_only = true;
	/* The counter counts what it counts whatever the name: a name of another event is a table error. */
	if (table[0] && counters[idx].name[0] && strncasecmp(event, counters[idx].name, strlen(counters[idx].name))) {
		if (why && len)
			snprintf(why, len, "%s (%#llx), Intel's pseudo-encoding of fixed counter %d, which counts %s, not "
				 "the event the name says: an error in that table (its own event code differs); spell "
				 "the event's code as rNNNN", tabletxt, (unsigned long long)cfg, idx, counters[idx].what);
		return 1;
	}
	return 0;
}

int pmc_x86_core_placement(const struct perf_event_attr *a, unsigned nfixed, const char *name,
			   struct pmc_arch_placement *ret, char *why, size_t len)
{
	/* The kernel's Intel event map: which generic event each fixed counter counts. */
	static const uint64_t generic[] = { PERF_COUNT_HW_INSTRUCTIONS, PERF_COUNT_HW_CPU_CYCLES,
					    PERF_COUNT_HW_REF_CPU_CYCLES };

	if (a->type != PERF_TYPE_HARDWARE)
		return pmc_x86_fixed_placement(a->config, a->config1 | a->config2, nfixed, name, ret, why, len);
	ret->fixed_index = -1;
	ret->fixed_only = false;
	for (int i = 0; nfixed && i < (int)(sizeof(generic) / sizeof(generic[0])); i++)
		if ((a->config & PERF_HW_EVENT_MASK) == generic[i]) {
			ret->fixed_index = i;
			ret->fixed_only = generic[i] == PERF_COUNT_HW_REF_CPU_CYCLES; /* the kernel's 0x0300 */
		}
	return 0;
}

int pmc_x86_intel_alias(const char *name, unsigned nfixed, uint64_t *config)
{
	/* the kernel's intel/core.c event attributes: slots is event=0x00,umask=0x4, the fields umask=0x80..0x87 */
	static const char *const fields[] = { "topdown-retiring", "topdown-bad-spec", "topdown-fe-bound",
					      "topdown-be-bound", "topdown-heavy-ops", "topdown-br-mispredict",
					      "topdown-fetch-lat", "topdown-mem-bound" };

	if (nfixed < 4 || !name)
		return -ENOENT;
	if (!strcasecmp(name, "slots")) {
		*config = 0x0400;
		return 0;
	}
	for (unsigned i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (!strcasecmp(name, fields[i])) {
			*config = (0x80ull + i) << 8;
			return 0;
		}
	return -ENOENT;
}

bool pmc_x86_pfm_core(const char *name, const char *desc, int table_fixed, struct pmc_arch_core_id *ret)
{
	/* libpfm4 names every AMD core table amd64_* and describes every Intel one as "Intel ..." (its Pentium 4
	 * tables, "Pentium4", have no fixed counters): the tables' vendors, whatever CPU encodes with them. */
	if (!strncmp(name, "amd64", 5)) {
		*ret = (struct pmc_arch_core_id){ .vendor = "AMD", .place = pmc_x86_core_placement,
						  .missing = pmc_x86_hw_event_missing };
		return true;
	}
	if (!desc || strncmp(desc, "Intel", 5))
		return false;
	*ret = (struct pmc_arch_core_id){ .vendor = "Intel", .nfixed = table_fixed > 0 ? (unsigned)table_fixed : 0,
					  .ref_cycles = table_fixed > 0, .place = pmc_x86_core_placement,
					  .missing = pmc_x86_hw_event_missing, .alias = pmc_x86_intel_alias };
	return true;
}

int pmc_x86_ref_cycles_missing(const char *who, char *why, size_t len)
{
	snprintf(why, len, "ref-cycles is Intel's fixed counter 2 (reference cycles at the TSC rate), which %s does not "
		 "have: the kernel answers ENOENT, so it is not counted (msr/tsc/ counts at the TSC rate)", who);
	return 1;
}

int pmc_x86_hw_event_missing(uint64_t id, bool ref_cycles, const char *pmu, char *why, size_t len)
{
	char who[96];

	if (id != PERF_COUNT_HW_REF_CPU_CYCLES || ref_cycles)
		return 0;
	snprintf(who, sizeof(who), "the core PMU %s", pmu ? pmu : "in use");
	return pmc_x86_ref_cycles_missing(who, why, len);
}
