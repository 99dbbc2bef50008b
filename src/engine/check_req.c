/* SPDX-License-Identifier: MIT */
/* The trust check's measurements as engine requests, and their reports as check's samples (check_req.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "arch/arch.h"
#include "engine/check_req.h"
#include "util/util.h"

/* The launched loop (the forked child's function, after the go byte): the loop kernel at its default parameters,
 * pinned as asked; its exit status is the run's (a CPU it cannot be pinned to: a usage error). */
static int loop_child(void *ctx)
{
	const struct pmc_eng_check_args *a = ctx;
	const struct pmc_kernel *k = pmc_kernel_find("loop");
	struct pmc_kernel_params p;
	char err[128];
	int rc;

	if (!k)
		return PMC_EXIT_INTERNAL;
	pmc_kernel_params_init(k, &p);
	rc = pmc_kernel_run_plain(k, &p, a->loop_iters, a->loop_cpu, err, sizeof(err));
	return !rc ? 0 : rc == -EINVAL ? PMC_EXIT_USAGE : PMC_EXIT_INTERNAL;
}

void pmc_eng_check_opts(const struct pmc_check_req *q, struct pmc_eng_check_args *a,
			struct pmc_engine_opts *o)
{
	size_t off = 0, n = 0;

	a->events[0] = '\0';
	for (size_t i = 0; i < q->nevents; i++)
		off += (size_t)snprintf(a->events + off, off < sizeof(a->events) ? sizeof(a->events) - off : 0, "%s%s",
					i ? "," : "", q->events[i]);
	snprintf(a->iters, sizeof(a->iters), "%llu", (unsigned long long)q->iters);
	snprintf(a->cpu, sizeof(a->cpu), "%d", q->cpu);
	o->event_lists[o->nlists++] = a->events;
	o->batch = q->multiplex ? PMC_BATCH_MULTIPLEX : PMC_BATCH_AUTO;
	if (!q->command) {
		o->k = pmc_kernel_find("loop");
		pmc_kernel_params_init(o->k, &o->kp);
		o->iters = q->iters;
		o->warmup_s = 0;
		o->cpu = q->cpu;
		o->syscall_reads = q->syscall_reads;
		return;
	}
	/* The program measured, named for the report: the loop kernel in a forked child, counted from outside */
	a->loop[n++] = "loop";
	a->loop[n++] = "--iters";
	a->loop[n++] = a->iters;
	if (q->cpu >= 0) {
		a->loop[n++] = "--cpu";
		a->loop[n++] = a->cpu;
	}
	a->loop[n] = NULL;
	a->loop_iters = q->iters;
	a->loop_cpu = q->cpu;
	o->argv = a->loop;
	o->fork_fn = loop_child;
	o->fork_ctx = a;
}

/* One event of the report as check judges it. */
static void take_event(const struct pmc_report_event *e, struct pmc_check_count *c)
{
	snprintf(c->name, sizeof(c->name), "%.*s", (int)sizeof(c->name) - 1, e->ev.name);
	c->counted = e->status == PMC_COUNT_OK;
	c->value = c->counted ? e->mean : 0;
	c->running_pct = c->counted ? e->running_pct : -1;
	snprintf(c->reason, sizeof(c->reason), "%.*s", (int)sizeof(c->reason) - 1,
		 e->reason[0] ? e->reason : c->counted ? "" : "not counted");
	/* A count of 0 the PMU itself disowns (arm64: not in its PMCEID registers; QEMU opens such events and reads 0)
	 * was never measured: not counted, with the PMU's words, not "opens but reads 0". */
	if (c->counted && c->value == 0) {
		char why[160];

		if (pmc_arch_event_implemented(&e->ev.attr, why, sizeof(why)) == 0) {
			c->counted = false;
			snprintf(c->reason, sizeof(c->reason), "not implemented by this PMU (%s)", why);
		}
	}
}

static double constant(const struct pmc_report *rep, const char *name)
{
	for (size_t i = 0; i < rep->nconsts; i++)
		if (!strcmp(rep->consts[i].name, name))
			return rep->consts[i].value;
	return 0;
}

void pmc_eng_check_sample(const struct pmc_report *rep, struct pmc_check_sample *s)
{
	for (size_t i = 0; i < rep->nevents && s->n < PMC_CHECK_MAX_EVENTS; i++)
		take_event(&rep->events[i], &s->ev[s->n++]);
	s->expected_instructions = constant(rep, "EXPECTED_INSTRUCTIONS");
	s->expected_branches = constant(rep, "EXPECTED_BRANCHES");
	s->counter_width = (unsigned)constant(rep, "COUNTER_WIDTH");
	snprintf(s->read_method, sizeof(s->read_method), "%s", rep->read_method);
	s->in_process = rep->read_in_process;
}
