/* SPDX-License-Identifier: MIT */
/* pmctool encode's output (output/encode.h). */
#include <stdio.h>

#include "output/encode.h"
#include "output/format.h"

void pmc_encode_table_event(struct pmc_encode_out *o, const struct pmc_event *ev, const struct pmc_event *libpfm)
{
	const struct perf_event_attr *a = &ev->attr;
	FILE *f = o->f;
	char perf[PMC_NAME_MAX * 2];

	if (pmc_event_perf_spelling(ev, perf, sizeof(perf)))
		snprintf(perf, sizeof(perf), "(none)");
	fprintf(f, "%s\n", ev->name);
	fprintf(f, "  canonical  %s\n", ev->canonical);
	fprintf(f, "  type       %u\n", a->type);
	if (a->type == PERF_TYPE_BREAKPOINT) {
		fprintf(f, "  bp_type    %u\n  bp_addr    %#llx\n  bp_len     %llu\n", a->bp_type,
			(unsigned long long)a->bp_addr, (unsigned long long)a->bp_len);
	} else {
		fprintf(f, "  config     %#llx\n  config1    %#llx\n  config2    %#llx\n", (unsigned long long)a->config,
			(unsigned long long)a->config1, (unsigned long long)a->config2);
	}
	fprintf(f, "  exclude    user=%u kernel=%u hv=%u\n", a->exclude_user, a->exclude_kernel, a->exclude_hv);
	fprintf(f, "  class      %s", pmc_output_class_name(ev->cls));
	if (ev->cls == PMC_CLASS_FIXED)
		fprintf(f, " (fixed counter %d)", ev->fixed_index);
	fprintf(f, "\n  perf       %s\n", perf);
	if (libpfm)
		fprintf(f, "  libpfm4    %s: config %#llx config1 %#llx, which differs; the vendor table's encoding above is "
			"used (%s)\n", libpfm->canonical, (unsigned long long)libpfm->attr.config,
			(unsigned long long)libpfm->attr.config1, ev->source);
}

void pmc_encode_json_begin(struct pmc_encode_out *o)
{
	pmc_json_header(&o->w, "encode");
	pmc_jw_karray_begin(&o->w, "events");
}

/* The same members as stat's JSON events (pmc_json_event_encoding): one spelling everywhere. */
void pmc_encode_json_event(struct pmc_encode_out *o, const struct pmc_event *ev, const struct pmc_event *libpfm)
{
	(void)libpfm;
	pmc_jw_break(&o->w, "\n  ");
	pmc_jw_object_begin(&o->w);
	pmc_json_event_encoding(&o->w, ev);
	pmc_jw_object_end(&o->w);
}

void pmc_encode_json_end(struct pmc_encode_out *o)
{
	pmc_jw_break(&o->w, "\n");
	pmc_jw_array_end(&o->w);
	pmc_jw_object_end(&o->w);
	fputc('\n', o->f);
}

void pmc_encode_write_begin(struct pmc_encode_out *o, FILE *f, enum pmc_output_format fmt)
{
	const struct pmc_format *e = pmc_format_get(fmt);

	*o = (struct pmc_encode_out){ .f = f, .fmt = e->encode_event ? e : &pmc_format_table };
	pmc_jw_init(&o->w, f, 0);
	if (o->fmt->encode_begin)
		o->fmt->encode_begin(o);
}

void pmc_encode_write_event(struct pmc_encode_out *o, const struct pmc_event *ev, const struct pmc_event *libpfm)
{
	o->fmt->encode_event(o, ev, libpfm);
}

void pmc_encode_write_end(struct pmc_encode_out *o)
{
	if (o->fmt->encode_end)
		o->fmt->encode_end(o);
}
