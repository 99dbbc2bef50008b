/* SPDX-License-Identifier: MIT */
/* The human report: reads like perf stat's (count, unit, event, running %, a note), then metrics and checks. */
#include <math.h>
#include <string.h>

#include "output/output.h"

static const char *severity_tag(enum pmc_check_severity s)
{
	return s == PMC_CHECK_BAD ? "BAD " : s == PMC_CHECK_WARN ? "warn" : "info";
}

static void value_text(const struct pmc_report_event *e, char *buf, size_t len, const char **unit)
{
	*unit = "";
	switch (e->status) {
	case PMC_COUNT_OK:
		if (e->ev.flags & PMC_EVF_TIME_NS) {
			snprintf(buf, len, "%.2f", e->mean / 1e6);
			*unit = "msec";
		} else {
			pmc_output_group_digits(e->mean, buf, len);
		}
		return;
	case PMC_COUNT_NOT_COUNTED:
		snprintf(buf, len, "<not counted>");
		return;
	case PMC_COUNT_NOT_SUPPORTED:
		snprintf(buf, len, "<not supported>");
		return;
	case PMC_COUNT_NOT_RUN:
	default:
		snprintf(buf, len, "<not run>");
		return;
	}
}

static bool any_user_only(const struct pmc_report_event *e)
{
	for (size_t i = 0; i < e->nsamples; i++)
		if (e->samples[i].count.flags & PMC_COUNT_USER_ONLY)
			return true;
	return false;
}

static void event_note(const struct pmc_report *rep, const struct pmc_report_event *e, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
#define ADD(...) (off += (size_t)snprintf(buf + off, off < len ? len - off : 0, __VA_ARGS__))
	if (e->status != PMC_COUNT_OK) {
		ADD("%s", e->reason);
		return;
	}
	if (e->nok > 1 && e->mean > 0 && rep->nruns > 1)
		ADD("+- %.2f%%  ", 100.0 * e->stddev / e->mean);
	if (e->in_every_batch && e->batch_spread_pct >= 0)
		ADD("spread %.2f%% over %u batches  ", e->batch_spread_pct, rep->nbatches);
	else if (!e->in_every_batch && rep->nbatches > 1)
		ADD("batch %d  ", e->batch + 1);
	if (e->ev.flags & PMC_EVF_ANCHOR)
		ADD("(anchor)  ");
	if (e->ev.core_pmu) {
		char pmu[64];
		pmc_report_core_pmu_name(e, pmu, sizeof(pmu));
		ADD("ran on %s %.2f%% of the time (not scaled)  ", pmu, e->core_share_pct);
	}
	if (e->nparts)
		ADD("sum of %u core types  ", e->nparts);
	if (any_user_only(e))
		ADD("user only: kernel.perf_event_paranoid forbids kernel counting  ");
	while (off > 0 && off < len && buf[off - 1] == ' ')
		buf[--off] = '\0';
#undef ADD
}

static void print_events(FILE *f, const struct pmc_report *rep)
{
	for (size_t i = 0; i < rep->nevents; i++) {
		const struct pmc_report_event *e = &rep->events[i];
		char val[64], pct[16] = "", note[400];
		const char *unit;

		value_text(e, val, sizeof(val), &unit);
		if (e->status == PMC_COUNT_OK)
			snprintf(pct, sizeof(pct), "%.2f%%", e->running_pct);
		event_note(rep, e, note, sizeof(note));
		fprintf(f, "  %20s %-4s  %-34s %8s  %s\n", val, unit, e->ev.name, pct, note);
	}
}

/* Distribution metrics (an event set's <series>_0 .. <series>_6plus, in percent) get a bar, so a uops histogram
 * reads as one. */
static void histogram_bar(const struct pmc_metric_value *m, char *buf, size_t len)
{
	size_t n = strlen(m->name), bars;
	bool bucket = n > 2 && m->name[n - 2] == '_' && m->name[n - 1] >= '0' && m->name[n - 1] <= '9';

	buf[0] = '\0';
	if (!m->valid || strcmp(m->unit, "%") || !(bucket || (n > 6 && !strcmp(m->name + n - 6, "_6plus"))))
		return;
	bars = m->value <= 0 ? 0 : m->value >= 100 ? 50 : (size_t)(m->value / 2 + 0.5);
	if (bars >= len)
		bars = len - 1;
	memset(buf, '#', bars);
	buf[bars] = '\0';
}

static void print_metrics(FILE *f, const struct pmc_report *rep)
{
	if (!rep->nmetrics)
		return;
	fprintf(f, "\n Metrics:\n");
	for (size_t i = 0; i < rep->nmetrics; i++) {
		const struct pmc_metric_value *m = &rep->metrics[i];
		if (m->valid && fabs(m->value) >= 1e6) {
			char big[64];
			pmc_output_group_digits(fabs(m->value), big, sizeof(big));
			fprintf(f, "  %s%*s %-6s  %-34s %s\n", m->value < 0 ? "-" : "", m->value < 0 ? 19 : 20, big, m->unit,
				m->name, m->desc);
		} else if (m->valid) {
			char bar[64];
			histogram_bar(m, bar, sizeof(bar));
			if (bar[0])
				fprintf(f, "  %20.4g %-6s  %-34s |%s\n", m->value, m->unit, m->name, bar);
			else
				fprintf(f, "  %20.4g %-6s  %-34s %s\n", m->value, m->unit, m->name, m->desc);
		}
		else
			fprintf(f, "  %20s %-6s  %-34s %s\n", "n/a", m->unit, m->name, m->reason);
	}
}

static void print_checks(FILE *f, const struct pmc_report *rep)
{
	if (!rep->nchecks)
		return;
	fprintf(f, "\n Checks:\n");
	for (size_t i = 0; i < rep->nchecks; i++)
		fprintf(f, "  [%s] %s: %s\n", severity_tag(rep->checks[i].severity), rep->checks[i].name,
			rep->checks[i].msg);
}

int pmc_output_table(FILE *f, const struct pmc_report *rep)
{
	fprintf(f, "\n Performance counter stats for '%s'", rep->workload);
	if (rep->nruns > 1 || rep->nbatches > 1)
		fprintf(f, " (%u run%s x %u batch%s, %s)", rep->nruns, rep->nruns == 1 ? "" : "s", rep->nbatches,
			rep->nbatches == 1 ? "" : "es", rep->mode);
	fprintf(f, "%s:\n\n", rep->partial ? " [PARTIAL: interrupted, counts so far]" : "");
	print_events(f, rep);
	print_metrics(f, rep);
	print_checks(f, rep);
	fprintf(f, "\n  %20.9f seconds time elapsed", rep->wall_ns_mean / 1e9);
	if (rep->wall_ns_max > rep->wall_ns_min && rep->wall_ns_mean > 0)
		fprintf(f, "  (min %.9f, max %.9f)", rep->wall_ns_min / 1e9, rep->wall_ns_max / 1e9);
	fprintf(f, "\n  %20.9f seconds user\n  %20.9f seconds sys\n", rep->user_s, rep->sys_s);
	if (rep->term_signal)
		fprintf(f, "\n  the workload was killed by signal %d (%s)\n", rep->term_signal, strsignal(rep->term_signal));
	fprintf(f, "\n");
	return ferror(f) ? -1 : 0;
}
