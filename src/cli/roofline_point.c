/* SPDX-License-Identifier: MIT */
/* The program's point(s): one run under the engine with task-clock, the vendor's FLOP events and the memory
 * controllers' byte events; what could not be counted keeps the engine's reason. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/arch.h"
#include "cli/roofline_point.h"
#include "engine/engine.h"
#include "pmu/event.h"
#include "report/regions.h"
#include "report/report.h"
#include "roofline/mem_events.h"
#include "util/util.h"

void pmc_roofline_env_text(char *buf, size_t len)
{
	struct pmc_report rep;

	memset(&rep, 0, sizeof(rep));
	pmc_eng_environment(&rep, "", false);
	snprintf(buf, len, "%s | %s | %s | %s | %s | pmctool %s", rep.env.cpu, rep.env.cpuid, rep.env.microcode,
		 rep.env.kernel, rep.env.arch, rep.env.pmctool);
}

static bool resolves(const char *name)
{
	struct pmc_event ev;
	struct pmc_resolve_error err;

	return pmc_event_resolve(name, &ev, &err) == 0;
}

void pmc_roofline_flop_events(bool dp, struct pmc_rf_flop_event *ret, size_t *ret_n, char *why, size_t whylen)
{
	/* Intel (Skylake and later): one count per element operation, an FMA counting twice (so x2 is built in). */
	static const struct pmc_rf_flop_event intel_dp[] = {
		{ "FP_ARITH:SCALAR_DOUBLE", 1 }, { "FP_ARITH:128B_PACKED_DOUBLE", 2 },
		{ "FP_ARITH:256B_PACKED_DOUBLE", 4 }, { "FP_ARITH:512B_PACKED_DOUBLE", 8 },
	};
	static const struct pmc_rf_flop_event intel_sp[] = {
		{ "FP_ARITH:SCALAR_SINGLE", 1 }, { "FP_ARITH:128B_PACKED_SINGLE", 4 },
		{ "FP_ARITH:256B_PACKED_SINGLE", 8 }, { "FP_ARITH:512B_PACKED_SINGLE", 16 },
	};
	/* AMD Zen: FLOPs retired, SP and DP together (an FMA counts 2). */
	static const struct pmc_rf_flop_event amd[] = { { "RETIRED_SSE_AVX_FLOPS:ANY", 1 } };
	struct pmc_arch_cpu cpu;
	const struct pmc_rf_flop_event *t = NULL;
	size_t n = 0;

	*ret_n = 0;
	pmc_arch_cpu_identify(&cpu);
	if (!strcmp(cpu.vendor, "GenuineIntel")) {
		t = dp ? intel_dp : intel_sp;
		n = 4;
	} else if (!strcmp(cpu.vendor, "AuthenticAMD") || !strcmp(cpu.vendor, "HygonGenuine")) {
		t = amd;
		n = 1;
	}
	for (size_t i = 0; i < n; i++)
		if (resolves(t[i].name) && *ret_n < PMC_RF_MAX_FLOP_EVENTS)
			ret[(*ret_n)++] = t[i];
	if (!*ret_n)
		snprintf(why, whylen, "%s", n ? "this CPU's PMU has no FLOP event (pre-Skylake Intel, pre-Zen AMD)"
					      : "no FLOP-counting event known for this CPU (Armv8 PMUs count FP "
						"instructions, not FLOPs)");
}

/* The first run's events: task-clock and the FLOP events. */
static int event_list(char *buf, size_t len, const struct pmc_rf_flop_event *fe, size_t nf)
{
	size_t off = (size_t)snprintf(buf, len, "task-clock");

	for (size_t i = 0; i < nf && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, ",%s", fe[i].name);
	return off < len ? 0 : -ENOSPC;
}

/* The second run's: every box's byte events. */
static int mem_list(char *buf, size_t len, const struct pmc_rf_mem_events *me)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < me->n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? "," : "", me->ev[i].name);
	return off < len ? 0 : -ENOSPC;
}

/* The report's event of that name, or -1. */
static long find_event(const struct pmc_report *rep, const char *name)
{
	for (size_t i = 0; i < rep->nevents; i++)
		if (!strcmp(rep->events[i].ev.name, name))
			return (long)i;
	return -1;
}

/* Sum of w[i] x value of event names[i] over the report's events; value(i) is NAN when not counted. false with
 * why when one of them was not counted. */
static bool weighted(const struct pmc_report *rep, const char *const *names, size_t n, const double *w,
		     double (*value)(const void *arg, size_t i), const void *arg, double *ret, char *why, size_t wl)
{
	double sum = 0;

	for (size_t i = 0; i < n; i++) {
		long k = find_event(rep, names[i]);
		const struct pmc_report_event *e;
		double v;

		if (k < 0) {
			snprintf(why, wl, "%s: not in the report", names[i]);
			return false;
		}
		e = &rep->events[k];
		v = value(arg, (size_t)k);
		if (e->status != PMC_COUNT_OK || !isfinite(v)) {
			snprintf(why, wl, "%.60s: %.*s", e->ev.name, (int)(wl > 64 ? wl - 64 : 1),
				 e->reason[0] ? e->reason : "not counted");
			return false;
		}
		sum += w[i] * v;
	}
	*ret = sum;
	return true;
}

static double total_value(const void *arg, size_t i)
{
	const struct pmc_report *rep = arg;

	return rep->events[i].status == PMC_COUNT_OK ? rep->events[i].mean : NAN;
}

static double region_value(const void *arg, size_t i)
{
	return pmc_region_value(arg, i);
}

struct inputs {
	size_t nf;
	const char *fn[PMC_RF_MAX_FLOP_EVENTS];
	double fw[PMC_RF_MAX_FLOP_EVENTS];
	const char *mn[PMC_RF_MAX_MEM_EVENTS];
	char cpulist[128];
	char flops_why[160];
	struct pmc_rf_mem_events me;
	double mw[PMC_RF_MAX_MEM_EVENTS];
};

static void fill(struct pmc_rf_point *p, const struct pmc_report *rep, const struct inputs *in,
		 double (*value)(const void *, size_t), const void *arg)
{
	if (!in->nf)
		snprintf(p->flops_why, sizeof(p->flops_why), "%s", in->flops_why);
	else
		p->flops_valid = weighted(rep, in->fn, in->nf, in->fw, value, arg, &p->flops, p->flops_why,
					  sizeof(p->flops_why));
	p->bytes_level = PMC_RF_MEM;
	snprintf(p->bytes_why, sizeof(p->bytes_why), "%.*s", (int)sizeof(p->bytes_why) - 1, in->me.why);
}

/* The memory bytes: a second run of the command with the memory controllers' events counted system-wide on their
 * cpumask CPUs (uncore events are never per task), so the whole socket's traffic while it runs. */
static void mem_run(struct pmc_engine_ctx *ctx, char **argv, const struct inputs *in, struct pmc_rf_point *p)
{
	struct pmc_engine_opts o;
	struct pmc_report rep;
	char list[4096];
	int rc;

	if (!in->me.n || mem_list(list, sizeof(list), &in->me) < 0)
		return;
	fprintf(stderr, "pmctool roofline: a second run for the memory bytes: %s counts the whole socket while the "
			"command runs (uncore: system-wide on CPUs %s)\n", in->me.pmu, in->cpulist);
	pmc_engine_opts_init(&o);
	o.event_lists[0] = list;
	o.nlists = 1;
	o.argv = argv;
	o.no_anchors = true;
	o.targets.cpus = in->me.cpus;
	o.targets.ncpus = in->me.ncpus;
	memset(&rep, 0, sizeof(rep));
	rc = pmc_engine_run(ctx, &o, &rep);
	if (rc && !rep.nruns) {
		snprintf(p->bytes_why, sizeof(p->bytes_why), "the second run (memory bytes, system-wide on CPUs %.40s) "
			 "could not be made (exit status %d; the message above says why)", in->cpulist, rc);
	} else {
		p->bytes_valid = weighted(&rep, in->mn, in->me.n, in->mw, total_value, &rep, &p->bytes, p->bytes_why,
					  sizeof(p->bytes_why));
	}
	pmc_report_fini(&rep);
}

int pmc_roofline_points(struct pmc_engine_ctx *ctx, char **argv, bool regions, bool dp, struct pmc_rf_point **ret,
			size_t *ret_n)
{
	struct pmc_rf_flop_event fe[PMC_RF_MAX_FLOP_EVENTS];
	struct pmc_engine_opts o;
	struct pmc_report rep;
	struct inputs in = { .nf = 0 };
	struct pmc_rf_point *pts;
	size_t nr = 0;
	char list[1024];
	int rc;

	*ret = NULL;
	*ret_n = 0;
	pmc_roofline_flop_events(dp, fe, &in.nf, in.flops_why, sizeof(in.flops_why));
	for (size_t i = 0; i < in.nf; i++) {
		in.fn[i] = fe[i].name;
		in.fw[i] = fe[i].weight;
	}
	pmc_rf_mem_events(&in.me);
	for (size_t i = 0; i < in.me.n; i++) {
		in.mn[i] = in.me.ev[i].name;
		in.mw[i] = in.me.ev[i].bytes_per_count;
	}
	for (size_t i = 0, off = 0; i < in.me.ncpus && off < sizeof(in.cpulist); i++)
		off += (size_t)snprintf(in.cpulist + off, sizeof(in.cpulist) - off, "%s%d", i ? "," : "", in.me.cpus[i]);
	if (event_list(list, sizeof(list), fe, in.nf) < 0) {
		fprintf(stderr, "pmctool roofline: too many events for one list\n");
		return PMC_EXIT_INTERNAL;
	}
	pmc_engine_opts_init(&o);
	o.event_lists[0] = list;
	o.nlists = 1;
	o.argv = argv;
	o.regions = regions;
	o.no_anchors = true;
	memset(&rep, 0, sizeof(rep));
	rc = pmc_engine_run(ctx, &o, &rep);
	if (rc && !rep.nruns) {
		pmc_report_fini(&rep);
		return rc;
	}
	if (rep.regions)
		nr = rep.regions->n;
	if (!rc && rep.exit_status)
		rc = rep.exit_status;
	pts = calloc(nr + 1, sizeof(*pts));
	if (!pts) {
		pmc_report_fini(&rep);
		return PMC_EXIT_INTERNAL;
	}
	for (size_t i = 0; i < nr; i++) {
		const struct pmc_report_region *r = &rep.regions->r[i];
		struct pmc_rf_point *p = &pts[i];
		long k = find_event(&rep, "task-clock");
		double tc = k < 0 ? NAN : pmc_region_value(&r->all, (size_t)k);

		snprintf(p->label, sizeof(p->label), "%s", r->name);
		p->seconds = isfinite(tc) ? tc * 1e-9 : NAN;
		fill(p, &rep, &in, region_value, &r->all);
		if (in.me.n) /* uncore counters count the socket: never inside one thread's region */
			snprintf(p->bytes_why, sizeof(p->bytes_why),
				 "memory bytes are counted system-wide, not per region (only the whole program has them)");
	}
	snprintf(pts[nr].label, sizeof(pts[nr].label), "%s", regions ? "whole program" : "program");
	pts[nr].seconds = rep.wall_ns_mean * 1e-9;
	fill(&pts[nr], &rep, &in, total_value, &rep);
	pmc_report_fini(&rep);
	if (!ctx->stop || !*ctx->stop)
		mem_run(ctx, argv, &in, &pts[nr]);
	*ret = pts;
	*ret_n = nr + 1;
	return rc;
}
