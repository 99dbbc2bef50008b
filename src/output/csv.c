/* SPDX-License-Identifier: MIT */
/* Machine-readable layouts: perf's -x SEP, RFC 4180 CSV, and one JSON document. */
#include <math.h>
#include <string.h>

#include "config.h"
#include "output/output.h"

/* RFC 4180: quote a field when it holds a comma, quote, CR or LF; double the quotes inside. */
void pmc_csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_row(FILE *f, const char *const *fields, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputc(',', f);
		pmc_csv_field(f, fields[i] ? fields[i] : "");
	}
	fputs("\r\n", f);
}

static const char *const csv_header[] = { "record", "event", "canonical", "run", "batch", "value", "scaled",
					   "unit", "enabled_ns", "running_ns", "running_pct", "status", "reason" };

int pmc_output_csv(FILE *f, const struct pmc_report *rep)
{
	char run[16], batch[16], value[32], scaled[48], en[32], ru[32], pct[32];

	csv_row(f, csv_header, PMC_ARRAY_SIZE(csv_header));
	for (size_t i = 0; i < rep->nevents; i++) {
		const struct pmc_report_event *e = &rep->events[i];
		const char *unit = (e->ev.flags & PMC_EVF_TIME_NS) ? "ns" : "";

		if (e->nsamples == 0) {
			const char *row[] = { "count", e->ev.name, e->ev.canonical, "", "", "", "", unit, "", "", "",
					      pmc_output_status_name(e->status), e->reason };
			csv_row(f, row, PMC_ARRAY_SIZE(row));
			continue;
		}
		for (size_t s = 0; s < e->nsamples; s++) {
			const struct pmc_sample *sm = &e->samples[s];
			const struct pmc_count *c = &sm->count;
			bool ok = c->status == PMC_COUNT_OK;
			const char *reason = ok ? ((c->flags & PMC_COUNT_USER_ONLY) ? "user mode only (paranoid)" : "")
						: e->reason;

			snprintf(run, sizeof(run), "%u", sm->run + 1);
			snprintf(batch, sizeof(batch), "%u", sm->batch + 1);
			value[0] = scaled[0] = pct[0] = '\0';
			if (ok) {
				snprintf(value, sizeof(value), "%llu", (unsigned long long)c->value);
				snprintf(scaled, sizeof(scaled), "%.0f", pmc_count_scaled(c));
			}
			if (ok && c->enabled)
				snprintf(pct, sizeof(pct), "%.2f", 100.0 * (double)c->running / (double)c->enabled);
			snprintf(en, sizeof(en), "%llu", (unsigned long long)c->enabled);
			snprintf(ru, sizeof(ru), "%llu", (unsigned long long)c->running);
			{
				const char *row[] = { "count", e->ev.name, e->ev.canonical, run, batch, value, scaled,
						      unit, ok ? en : "", ok ? ru : "", pct,
						      pmc_output_status_name(c->status), reason };
				csv_row(f, row, PMC_ARRAY_SIZE(row));
			}
		}
	}
	for (size_t i = 0; i < rep->nmetrics; i++) {
		const struct pmc_metric_value *m = &rep->metrics[i];
		snprintf(value, sizeof(value), "%.6g", m->value);
		{
			const char *row[] = { "metric", m->name, "", "", "", m->valid ? value : "", "", m->unit, "", "", "",
					      m->valid ? "ok" : "n/a", m->valid ? "" : m->reason };
			csv_row(f, row, PMC_ARRAY_SIZE(row));
		}
	}
	for (size_t i = 0; i < rep->nchecks; i++) {
		const struct pmc_check_note *c = &rep->checks[i];
		const char *sev = c->severity == PMC_CHECK_BAD ? "bad" : c->severity == PMC_CHECK_WARN ? "warn" : "info";
		const char *row[] = { "check", c->name, "", "", "", "", "", "", "", "", "", sev, c->msg };
		csv_row(f, row, PMC_ARRAY_SIZE(row));
	}
	return ferror(f) ? -1 : 0;
}

/* perf stat -x: value, unit, event, [variance,] running time, running percentage. Unsupported events print perf's
 * <not supported> / <not counted> markers in the value field, as scripts written for perf expect. */
int pmc_output_sep(FILE *f, const struct pmc_report *rep, const char *sep)
{
	for (size_t i = 0; i < rep->nevents; i++) {
		const struct pmc_report_event *e = &rep->events[i];
		bool ok = e->status == PMC_COUNT_OK;
		bool ns = e->ev.flags & PMC_EVF_TIME_NS;
		double run_ns = 0;

		for (size_t s = 0; s < e->nsamples; s++)
			run_ns += (double)e->samples[s].count.running;
		if (e->nsamples)
			run_ns /= (double)e->nsamples;
		if (ok && ns)
			fprintf(f, "%.2f", e->mean / 1e6);
		else if (ok)
			fprintf(f, "%.0f", e->mean);
		else
			fprintf(f, "<%s>", pmc_output_status_name(e->status));
		fprintf(f, "%s%s%s%s", sep, ns ? "msec" : "", sep, e->ev.name);
		if (rep->nruns > 1)
			fprintf(f, "%s%.2f%%", sep, ok && e->mean > 0 ? 100.0 * e->stddev / e->mean : 0.0);
		fprintf(f, "%s%.0f%s%.2f\n", sep, run_ns, sep, ok ? e->running_pct : 0.0);
	}
	return ferror(f) ? -1 : 0;
}
