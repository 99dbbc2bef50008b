/* SPDX-License-Identifier: MIT */
/* The engine's measurement loop: runs x batches over an executor (engine/exec.h), and the one rule for a batch that
 * could not be counted as one group, whatever the target (a command, a kernel, attached tasks, CPUs). */
#include "engine/exec.h"

/* Batch b could not be counted as one group: the kernel refused it (EINVAL at the member at request position
 * 'at'), or accepted it and never ran it. Split it there (first run only, so every run measures the same batches),
 * or else count only this batch ungrouped. Always 1: measure batch b again. */
int pmc_eng_regroup(struct pmc_engine *se, size_t b, size_t nreq, size_t at, unsigned run)
{
	size_t own = se->plan.batches[b].n, first_own = nreq - own;

	if (run == 0 && at > first_own && pmc_plan_split(&se->plan, b, at - first_own) == 0)
		return 1;
	se->plan.batches[b].ungrouped = true;
	return 1;
}

int pmc_eng_regroup_never_ran(struct pmc_engine *se, size_t b, size_t nreq, unsigned run)
{
	se->never_ran++;
	return pmc_eng_regroup(se, b, nreq, nreq - se->plan.batches[b].n / 2, run);
}

void pmc_eng_regroup_report(const struct pmc_engine *se, struct pmc_report *rep)
{
	size_t ungrouped = 0;

	for (size_t b = 0; b < se->plan.nbatches; b++)
		ungrouped += se->plan.batches[b].ungrouped;
	if (se->never_ran)
		pmc_report_add_check(rep, PMC_CHECK_INFO, "group-never-ran",
				     "the kernel accepted a batch as one group but never ran it (time running 0: the NMI "
				     "watchdog, another user of the counters or a constraint its group check ignores held "
				     "a counter); it was split (or, where it could not be, counted ungrouped) and measured again");
	if (ungrouped)
		pmc_report_add_check(rep, PMC_CHECK_WARN, "ungrouped",
				     "the kernel refused %zu batch%s as one group and %s could not be split; %s events "
				     "were counted ungrouped and may have been multiplexed (the other batches stayed "
				     "grouped)",
				     ungrouped, ungrouped == 1 ? "" : "es", ungrouped == 1 ? "it" : "they",
				     ungrouped == 1 ? "its" : "their");
}
