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
				snprintf(scaled, sizeof(scaled), "%.0f", pmc_report_sample_value(e, c));
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

void pmc_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void json_num(FILE *f, double v)
{
	if (!isfinite(v))
		fputs("null", f);
	else if (v == floor(v) && fabs(v) < 9.007199254740992e15)
		fprintf(f, "%.0f", v);
	else
		fprintf(f, "%.17g", v);
}

/* Hybrid CPUs only (absent elsewhere): the core PMU of a per-core-type row and the share of time the workload ran
 * there, or the rows a merged row sums. */
static void json_core_pmu(FILE *f, const struct pmc_report *rep, const struct pmc_report_event *e)
{
	char pmu[64];

	if (e->ev.core_pmu) {
		pmc_report_core_pmu_name(e, pmu, sizeof(pmu));
		fputs(",\"core_pmu\":", f);
		pmc_json_string(f, pmu);
		if (e->status == PMC_COUNT_OK) {
			fputs(",\"core_share_pct\":", f);
			json_num(f, e->core_share_pct);
		}
	}
	if (e->nparts) {
		fputs(",\"merged_from\":[", f);
		for (unsigned k = 0; k < e->nparts; k++) {
			fputs(k ? "," : "", f);
			pmc_json_string(f, rep->events[e->parts[k]].ev.name);
		}
		fputc(']', f);
	}
}

static void json_event(FILE *f, const struct pmc_report *rep, const struct pmc_report_event *e)
{
	const struct perf_event_attr *a = &e->ev.attr;

	fputs("{\"name\":", f);
	pmc_json_string(f, e->ev.name);
	fputs(",\"canonical\":", f);
	pmc_json_string(f, e->ev.canonical);
	fprintf(f, ",\"type\":%u,\"config\":\"0x%llx\",\"config1\":\"0x%llx\",\"config2\":\"0x%llx\"", a->type,
		(unsigned long long)a->config, (unsigned long long)a->config1, (unsigned long long)a->config2);
	fprintf(f, ",\"exclude_user\":%s,\"exclude_kernel\":%s", a->exclude_user ? "true" : "false",
		a->exclude_kernel ? "true" : "false");
	fputs(",\"class\":", f);
	pmc_json_string(f, pmc_output_class_name(e->ev.cls));
	fprintf(f, ",\"anchor\":%s,\"every_batch\":%s,\"batch\":", (e->ev.flags & PMC_EVF_ANCHOR) ? "true" : "false",
		e->in_every_batch ? "true" : "false");
	if (e->in_every_batch)
		fputs("null", f);
	else
		fprintf(f, "%d", e->batch + 1);
	fprintf(f, ",\"unit\":\"%s\",\"status\":", (e->ev.flags & PMC_EVF_TIME_NS) ? "ns" : "");
	pmc_json_string(f, pmc_output_status_name(e->status));
	fputs(",\"reason\":", f);
	pmc_json_string(f, e->reason);
	if (e->status == PMC_COUNT_OK) {
		fputs(",\"mean\":", f);
		json_num(f, e->mean);
		fputs(",\"median\":", f);
		json_num(f, e->median);
		fputs(",\"stddev\":", f);
		json_num(f, e->stddev);
		fputs(",\"min\":", f);
		json_num(f, e->min);
		fputs(",\"max\":", f);
		json_num(f, e->max);
		fputs(",\"running_pct\":", f);
		json_num(f, e->running_pct);
		fputs(",\"batch_spread_pct\":", f);
		json_num(f, e->batch_spread_pct >= 0 ? e->batch_spread_pct : NAN);
	}
	json_core_pmu(f, rep, e);
	fputs(",\"samples\":[", f);
	for (size_t s = 0; s < e->nsamples; s++) {
		const struct pmc_sample *sm = &e->samples[s];
		fprintf(f, "%s{\"run\":%u,\"batch\":%u,\"status\":", s ? "," : "", sm->run + 1, sm->batch + 1);
		pmc_json_string(f, pmc_output_status_name(sm->count.status));
		if (sm->count.status == PMC_COUNT_OK)
			fprintf(f, ",\"value\":%llu,\"enabled_ns\":%llu,\"running_ns\":%llu,\"user_only\":%s",
				(unsigned long long)sm->count.value, (unsigned long long)sm->count.enabled,
				(unsigned long long)sm->count.running,
				(sm->count.flags & PMC_COUNT_USER_ONLY) ? "true" : "false");
		else if (sm->count.status == PMC_COUNT_NOT_SUPPORTED)
			fprintf(f, ",\"errno\":%d", sm->count.err);
		fputc('}', f);
	}
	fputs("]}", f);
}

int pmc_output_json(FILE *f, const struct pmc_report *rep)
{
	fputs("{\"pmctool\":", f);
	pmc_json_string(f, PMC_VERSION);
	fputs(",\"workload\":", f);
	pmc_json_string(f, rep->workload);
	fputs(",\"mode\":", f);
	pmc_json_string(f, rep->mode ? rep->mode : "");
	fprintf(f, ",\"runs\":%u,\"batches\":%u,\"partial\":%s,\"exit_status\":%d,\"signal\":%d", rep->nruns,
		rep->nbatches, rep->partial ? "true" : "false", rep->exit_status, rep->term_signal);
	fputs(",\"wall_ns\":{\"mean\":", f);
	json_num(f, rep->wall_ns_mean);
	fputs(",\"min\":", f);
	json_num(f, rep->wall_ns_min);
	fputs(",\"max\":", f);
	json_num(f, rep->wall_ns_max);
	fputs("},\"user_s\":", f);
	json_num(f, rep->user_s);
	fputs(",\"sys_s\":", f);
	json_num(f, rep->sys_s);
	fputs(",\"tsc_hz\":", f);
	json_num(f, rep->tsc_hz > 0 ? rep->tsc_hz : NAN);
	fputs(",\"tsc_source\":", f);
	if (rep->tsc_source)
		pmc_json_string(f, rep->tsc_source);
	else
		fputs("null", f);
	fputs(",\"constants\":{", f);
	for (size_t i = 0; i < rep->nconsts; i++) {
		if (i)
			fputc(',', f);
		pmc_json_string(f, rep->consts[i].name);
		fputc(':', f);
		json_num(f, rep->consts[i].value);
	}
	fputs("},\"events\":[", f);
	for (size_t i = 0; i < rep->nevents; i++) {
		if (i)
			fputc(',', f);
		json_event(f, rep, &rep->events[i]);
	}
	fputs("],\"metrics\":[", f);
	for (size_t i = 0; i < rep->nmetrics; i++) {
		const struct pmc_metric_value *m = &rep->metrics[i];
		fputs(i ? ",{\"name\":" : "{\"name\":", f);
		pmc_json_string(f, m->name);
		fputs(",\"unit\":", f);
		pmc_json_string(f, m->unit);
		fputs(",\"value\":", f);
		json_num(f, m->valid ? m->value : NAN);
		fputs(",\"reason\":", f);
		pmc_json_string(f, m->valid ? "" : m->reason);
		fputs(",\"description\":", f);
		pmc_json_string(f, m->desc);
		fputc('}', f);
	}
	fputs("],\"checks\":[", f);
	for (size_t i = 0; i < rep->nchecks; i++) {
		const struct pmc_check_note *c = &rep->checks[i];
		fputs(i ? ",{\"name\":" : "{\"name\":", f);
		pmc_json_string(f, c->name);
		fprintf(f, ",\"severity\":\"%s\",\"message\":",
			c->severity == PMC_CHECK_BAD ? "bad" : c->severity == PMC_CHECK_WARN ? "warn" : "info");
		pmc_json_string(f, c->msg);
		fputc('}', f);
	}
	fputs("]}\n", f);
	return ferror(f) ? -1 : 0;
}
