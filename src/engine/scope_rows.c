/* SPDX-License-Identifier: MIT */
/* The engine: the report side of a scoped measurement (engine/scope.c measures): the words for who was counted, the
 * rows of the report and their batches, the rows' metrics and checks. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/scope.h"
#include "metrics/checks.h"

/* What -p / -t name, in words. */
const char *scope_task_word(const struct pmc_engine_opts *o)
{
	return o->targets.npids ? "process" : "thread";
}

/* "1234,5678" (shortened with ",..." when long): the ids a request names, for the report's words. */
void scope_ids_text(const pid_t *ids, size_t n, char *buf, size_t len)
{
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++)
		scope_note_id(buf, len, ids[i]);
}

/* "0,2-3": a request's CPUs in its order, runs of consecutive numbers as ranges (shortened with ",..."). */
static void cpus_text(const int *cpus, size_t n, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && off + 24 < len;) {
		size_t j = i;
		while (j + 1 < n && cpus[j + 1] == cpus[j] + 1)
			j++;
		off += (size_t)(j > i ? snprintf(buf + off, len - off, "%s%d-%d", i ? "," : "", cpus[i], cpus[j])
				      : snprintf(buf + off, len - off, "%s%d", i ? "," : "", cpus[i]));
		i = j + 1;
		if (i < n && off + 24 >= len && off + 4 < len)
			snprintf(buf + off, len - off, ",...");
	}
}

static const char *aggr_name(enum pmc_aggr a)
{
	static const char *const names[] = { "none", "cpu", "core", "die", "socket", "thread", "node", "cache" };
	return names[a];
}

void scope_describe_target(const struct pmc_engine_opts *o, const struct scope_targets *st, struct pmc_report *rep)
{
	char ids[160];

	if (pmc_target_req_tasks(&o->targets)) {
		scope_ids_text(o->targets.npids ? o->targets.pids : o->targets.tids,
			 o->targets.npids ? o->targets.npids : o->targets.ntids, ids, sizeof(ids));
		rep->target_kind = o->targets.npids ? "pid" : "tid";
		snprintf(rep->target, sizeof(rep->target), "%s %s (%zu thread%s)", scope_task_word(o), ids, st->ntargets,
			 st->ntargets == 1 ? "" : "s");
		if (!o->argv)
			snprintf(rep->workload, sizeof(rep->workload), "%s %s", scope_task_word(o), ids);
	} else if (st->ncgroups) {
		size_t off = 0;

		rep->target_kind = "cgroups";
		for (size_t c = 0; c < o->targets.ncgroups && off + 8 < sizeof(ids); c++)
			off += (size_t)snprintf(ids + off, sizeof(ids) - off, "%s%s", c ? "," : "", o->targets.cgroups[c]);
		snprintf(rep->target, sizeof(rep->target), "cgroup%s %s on %zu CPU%s", o->targets.ncgroups > 1 ? "s" : "",
			 ids, st->ntargets / st->ncgroups, st->ntargets / st->ncgroups == 1 ? "" : "s");
		if (!o->argv)
			snprintf(rep->workload, sizeof(rep->workload), "%s", rep->target);
	} else if (st->cpus) {
		rep->target_kind = o->targets.ncpus ? "cpus" : "system-wide";
		if (o->targets.ncpus) {
			cpus_text(o->targets.cpus, o->targets.ncpus, ids, sizeof(ids));
			snprintf(rep->target, sizeof(rep->target), "CPUs %s", ids);
		} else {
			snprintf(rep->target, sizeof(rep->target), "system-wide (%zu CPUs)", st->ntargets);
		}
		if (!o->argv)
			snprintf(rep->workload, sizeof(rep->workload), "%s", rep->target);
	} else {
		rep->target_kind = "command";
		snprintf(rep->target, sizeof(rep->target), "the command");
	}
	rep->aggregation = o->targets.ncgroups ? "cgroup" : aggr_name(o->aggr);
	rep->interval_ms = (double)o->interval_ms;
}

/* Each event's batch in the total and in every row, as the plan has them now. */
void scope_assign_batches(const struct pmc_engine *se, const struct scope_targets *st, struct pmc_report *rep)
{
	for (size_t b = 0; b < se->plan.nbatches; b++)
		for (size_t k = 0; k < se->plan.batches[b].n; k++)
			for (size_t r = 0; r <= st->nrows; r++)
				rep->events[r * se->n + se->plan.batches[b].events[k]].batch = (int)b;
}

int scope_alloc_rows(const struct pmc_engine *se, const struct scope_targets *st, struct pmc_report *rep)
{
	size_t total = se->n * (st->nrows + 1);

	rep->events = calloc(total ? total : 1, sizeof(*rep->events));
	if (!rep->events)
		return -ENOMEM;
	rep->nevents = total;
	for (size_t r = 0; r <= st->nrows; r++)
		for (size_t i = 0; i < se->n; i++) {
			struct pmc_report_event *e = &rep->events[r * se->n + i];
			e->ev = se->evs[i];
			e->in_every_batch = se->plan.in_every[i];
			e->batch = -1;
			if (r)
				e->scope = st->rows[r - 1];
		}
	scope_assign_batches(se, st, rep);
	return 0;
}

/* Whether any run counted something in e. */
static bool counted_any(const struct pmc_report_event *e)
{
	for (size_t s = 0; s < e->nsamples; s++)
		if (e->samples[s].count.status == PMC_COUNT_OK && e->samples[s].count.value)
			return true;
	return false;
}

void scope_drop_empty_rows(struct pmc_report *rep, size_t n, bool counted_only)
{
	size_t w = n;

	for (size_t i = n; i < rep->nevents; i++) {
		if (!rep->events[i].nsamples || (counted_only && !counted_any(&rep->events[i]))) {
			free(rep->events[i].samples);
			continue;
		}
		rep->events[w++] = rep->events[i];
	}
	rep->nevents = w;
}

/* The metrics of one row: a report that holds only that row's events (and the measurement's constants). */
static void row_metrics(const struct pmc_engine *se, const struct pmc_metric_def *cli, size_t ncli,
			struct pmc_report *rep, size_t first, size_t n)
{
	struct pmc_report sub = *rep;
	const char *label = rep->events[first].scope.label;

	sub.events = &rep->events[first];
	sub.nevents = n;
	sub.metrics = NULL;
	sub.nmetrics = 0;
	sub.checks = NULL;
	sub.nchecks = 0;
	pmc_eng_metrics_eval(se, cli, ncli, &sub);
	for (size_t m = 0; m < sub.nmetrics; m++) {
		snprintf(sub.metrics[m].scope, sizeof(sub.metrics[m].scope), "%s", label);
		pmc_report_add_metric(rep, &sub.metrics[m]);
	}
	/* The set's own checks know their scope: each row is checked, and its notes name the row. */
	if (se->variant && se->variant->nchecks)
		pmc_checks_run_defs(&sub, se->variant->checks, se->variant->nchecks);
	for (size_t c = 0; c < sub.nchecks; c++)
		pmc_report_add_check(rep, sub.checks[c].severity, sub.checks[c].name, "%s: %s", label, sub.checks[c].msg);
	free(sub.metrics);
	free(sub.checks);
}

void pmc_eng_scope_row_metrics(const struct pmc_engine *se, const struct pmc_metric_def *cli, size_t ncli,
			    struct pmc_report *rep)
{
	size_t i = 0;

	while (i < rep->nevents && rep->events[i].scope.kind == PMC_ROW_ALL)
		i++;
	while (i < rep->nevents) {
		size_t j = i;
		while (j < rep->nevents && !strcmp(rep->events[j].scope.label, rep->events[i].scope.label))
			j++;
		row_metrics(se, cli, ncli, rep, i, j - i);
		i = j;
	}
}
