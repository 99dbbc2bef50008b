/* SPDX-License-Identifier: MIT */
/* A saved report's top-down inputs, found by encoding and then by name (td_replay.h). */
#include "metrics/td_replay.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/arch.h"
#include "pmu/event.h"
#include "report/replay.h"
#include "sys/pmu_format.h"

/* "event=0x1a0,umask=0x01" in the core PMU's builtin layout (pmc_arch_core_format) of a model. */
struct term_ctx {
	const struct pmc_arch_format *fmt;
	uint64_t cfg[3];
};

static int put_term(const char *name, const char *value, void *vctx)
{
	struct term_ctx *c = vctx;
	struct pmc_sysfs_format f;
	char *end;
	unsigned long long v = value ? strtoull(value, &end, 0) : 1;

	if (value && *end)
		return -EINVAL;
	for (size_t i = 0; i < c->fmt->nterms; i++)
		if (!strcmp(c->fmt->terms[i].term, name))
			return pmc_sysfs_format_parse(c->fmt->terms[i].format, &f) ?: pmc_sysfs_format_apply(&f, v, c->cfg);
	return -ENOENT;
}

/* The encodings input in can have for model: its libpfm4 spelling's, its raw terms'. The number found. */
static size_t encodings(const struct pmc_td_input *in, const char *model, struct pmc_encoding *enc)
{
	size_t n = 0;

	if (in->pfm && model) {
		char spec[PMC_NAME_MAX + 64];
		struct pmc_event ev;
		struct pmc_resolve_error err;

		snprintf(spec, sizeof(spec), "%s::%s", model, in->pfm);
		if (pmc_event_resolve(spec, &ev, &err) == 0 && ev.attr.type != PERF_TYPE_HARDWARE)
			enc[n++] = (struct pmc_encoding){ ev.attr.type, ev.attr.config, ev.attr.config1, ev.attr.config1 != 0 };
	}
	if (in->raw && strchr(in->raw, '=')) {
		struct term_ctx c = { .fmt = pmc_arch_core_format(model) };

		if (c.fmt && pmc_sysfs_terms_parse(in->raw, put_term, &c) == 0)
			enc[n++] = (struct pmc_encoding){ PERF_TYPE_RAW, c.cfg[0], c.cfg[1], c.cfg[1] != 0 };
	}
	return n;
}

/* The report's event for input i: by encoding, else by one of its names. */
static const struct pmc_report_event *find_input(const struct pmc_report *rep, struct pmc_td_replay *td, size_t i)
{
	const struct pmc_td_input *in = &td->tree->inputs[i];
	const char *names[] = { in->perf, in->pfm, in->id };
	struct pmc_encoding enc[2];
	size_t n = encodings(in, td->model, enc);
	const struct pmc_report_event *e;

	for (size_t k = 0; k < n; k++)
		if ((e = pmc_report_find_encoding(rep, &enc[k], td->tree->layout == PMC_TD_LAYOUT_X86)))
			return e;
	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++)
		if (names[k] && (e = pmc_report_find_event(rep, names[k])) && e->scope.kind == PMC_ROW_ALL)
			return e;
	if (n)
		snprintf(td->reason[i], sizeof(td->reason[i]), "no event of the report has its encoding (type %u, config "
			 "0x%llx) or its name (%s)", enc[0].type, (unsigned long long)enc[0].config,
			 in->perf ? in->perf : in->pfm ? in->pfm : in->id);
	else
		snprintf(td->reason[i], sizeof(td->reason[i]), "no event of the report has its name (%s)%s",
			 in->perf ? in->perf : in->pfm ? in->pfm : in->id,
			 td->model ? "" : "; the report names no CPU, so its encoding is unknown (LIBPFM_FORCE_PMU=MODEL)");
	return NULL;
}

void pmc_td_replay_inputs(const struct pmc_report *rep, struct pmc_td_replay *td)
{
	td->scaled = false;
	for (size_t i = 0; i < td->tree->ninputs; i++) {
		const struct pmc_td_input *in = &td->tree->inputs[i];
		const struct pmc_report_event *e;
		double c;

		td->reason[i][0] = '\0';
		td->v[i] = (struct pmc_td_value){ .counted = false, .reason = td->reason[i] };
		if (in->kind == PMC_TD_ABSENT) {
			snprintf(td->reason[i], sizeof(td->reason[i]), "%s", in->source);
		} else if (in->kind == PMC_TD_PROPERTY) {
			if (pmc_report_get_const(rep, in->id, &c) == 0 && c > 0)
				td->v[i] = (struct pmc_td_value){ .counted = true, .value = c };
			else
				snprintf(td->reason[i], sizeof(td->reason[i]), "the report has no constant %s (%s)", in->id,
					 in->source);
		} else if ((e = find_input(rep, td, i))) {
			if (e->status == PMC_COUNT_OK) {
				td->v[i] = (struct pmc_td_value){ .counted = true, .value = e->mean };
				td->scaled |= e->running_pct < 100.0;
			} else {
				snprintf(td->reason[i], sizeof(td->reason[i]), "the report has %.40s %s: %.120s", e->ev.name,
					 e->status == PMC_COUNT_NOT_SUPPORTED ? "not supported"
					 : e->status == PMC_COUNT_NOT_RUN     ? "not run"
									      : "not counted",
					 e->reason[0] ? e->reason : "no reason recorded");
			}
		}
	}
}

int pmc_td_replay_deepest(const struct pmc_td_replay *td)
{
	int best = 1;

	for (int level = 2; level <= td->tree->max_level; level++) {
		bool needed[PMC_TD_MAX_INPUTS];
		bool all = pmc_td_level_inputs(td->tree, level, needed) > 0;

		for (size_t i = 0; all && i < td->tree->ninputs; i++)
			all = !needed[i] || td->v[i].counted || td->tree->inputs[i].kind == PMC_TD_ABSENT;
		if (all)
			best = level;
	}
	return best;
}
