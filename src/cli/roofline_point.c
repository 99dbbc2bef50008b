/* SPDX-License-Identifier: MIT */
/* The program's point(s): one run under the engine with task-clock, the vendor's FLOP events and the core events
 * that count each cache level's bytes (per region and per -I interval too), then a second run for the memory
 * controllers' byte events; one point per level with bytes; what could not be counted keeps the engine's reason. */
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
#include "roofline/level_events.h"
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
	/* the PMU's own names say whose it is (LIBPFM_FORCE_PMU included): Intel's FP_ARITH, else AMD's */
	if (resolves(intel_dp[0].name)) {
		t = dp ? intel_dp : intel_sp;
		n = 4;
	} else if (resolves(amd[0].name)) {
		t = amd;
		n = 1;
	}
	for (size_t i = 0; i < n; i++)
		if (resolves(t[i].name) && *ret_n < PMC_RF_MAX_FLOP_EVENTS)
			ret[(*ret_n)++] = t[i];
	if (*ret_n)
		return;
	pmc_arch_cpu_identify(&cpu);
	if (!strcmp(cpu.vendor, "GenuineIntel") || !strcmp(cpu.vendor, "AuthenticAMD") ||
	    !strcmp(cpu.vendor, "HygonGenuine"))
		snprintf(why, whylen, "this CPU's PMU has no FLOP event (pre-Skylake Intel, pre-Zen AMD)");
	else
		snprintf(why, whylen, "no FLOP-counting event known for this CPU (Armv8 PMUs count FP instructions, "
			 "not FLOPs)");
}

/* The first run's events: task-clock, the FLOP events and the per-level byte events, each name once. */
static int event_list(char *buf, size_t len, const char *const *names, size_t n)
{
	size_t off = (size_t)snprintf(buf, len, "task-clock");

	for (size_t i = 0; i < n && off < len; i++) {
		bool dup = false;

		for (size_t k = 0; k < i; k++)
			dup |= !strcmp(names[k], names[i]);
		if (!dup)
			off += (size_t)snprintf(buf + off, len - off, ",%s", names[i]);
	}
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
		v = e->status == PMC_COUNT_OK ? value(arg, (size_t)k) : NAN;
		if (e->status != PMC_COUNT_OK || !isfinite(v)) {
			snprintf(why, wl, "%.90s: %.*s", e->ev.name, (int)(wl > 94 ? wl - 94 : 1),
				 e->status != PMC_COUNT_OK ? (e->reason[0] ? e->reason : "not counted")
				 : "not counted in this interval (more events than counters: -I gives each interval one "
				   "batch in turn)");
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
	struct pmc_rf_level_source ls[3]; /* core events' bytes from L2, L3, memory (level_events.h) */
	size_t nls;
	int mem_core;                     /* ls[] index of the memory level when no uncore counts it, else -1 */
};

/* The bytes of level source s: its events' counts x the line size. */
static void level_bytes(struct pmc_rf_point *p, const struct pmc_report *rep, const struct pmc_rf_level_source *s,
			double (*value)(const void *, size_t), const void *arg)
{
	double w[PMC_RF_LEVEL_MAX_EVENTS];

	p->bytes_level = s->level;
	snprintf(p->bytes_source, sizeof(p->bytes_source), "%s", s->what);
	if (!s->valid) {
		snprintf(p->bytes_why, sizeof(p->bytes_why), "%s", s->why);
		return;
	}
	for (size_t i = 0; i < s->n; i++)
		w[i] = s->line;
	p->bytes_valid = weighted(rep, s->ev, s->n, w, value, arg, &p->bytes, p->bytes_why, sizeof(p->bytes_why));
}

/* The points of one measurement (the program, a region, an interval): one per level with a byte source, from the
 * closest cache out, memory last; each has the same FLOPs and seconds. Returns the number written to out. */
static size_t fill(struct pmc_rf_point *out, const struct pmc_rf_point *base, const struct pmc_report *rep,
		   const struct inputs *in, double (*value)(const void *, size_t), const void *arg)
{
	struct pmc_rf_point p = *base;
	size_t n = 0;

	if (!in->nf)
		snprintf(p.flops_why, sizeof(p.flops_why), "%s", in->flops_why);
	else
		p.flops_valid = weighted(rep, in->fn, in->nf, in->fw, value, arg, &p.flops, p.flops_why,
					 sizeof(p.flops_why));
	for (size_t i = 0; i < in->nls; i++) {
		if (in->ls[i].level == PMC_RF_MEM)
			continue;
		out[n] = p;
		level_bytes(&out[n++], rep, &in->ls[i], value, arg);
	}
	out[n] = p;
	if (in->mem_core >= 0) {
		level_bytes(&out[n], rep, &in->ls[in->mem_core], value, arg);
	} else {
		out[n].bytes_level = PMC_RF_MEM;
		if (in->me.n)
			snprintf(out[n].bytes_source, sizeof(out[n].bytes_source), "%.40s cas_count_read + cas_count_write "
				 "x 64 B (every box, system-wide)", in->me.pmu);
		snprintf(out[n].bytes_why, sizeof(out[n].bytes_why), "%.*s", (int)sizeof(out[n].bytes_why) - 1,
			 in->me.why);
	}
	return n + 1;
}

/* -I: the interval records of the total, by interval, over the first run's event names. */
struct ivl {
	unsigned n;
	double start, end;
	double v[64];
};
struct ivls {
	const struct pmc_report *rep; /* set after the run: value() maps a report event to its name's slot */
	const char *names[64];
	size_t nnames;
	struct ivl *iv;
	size_t n, cap;
	bool oom;
	const struct ivl *cur;        /* value()'s interval */
};

static void ivl_record(void *ctx, const struct pmc_interval_record *r)
{
	struct ivls *x = ctx;
	size_t k;

	if (r->scope || x->oom)
		return;
	if (!x->n || x->iv[x->n - 1].n != r->interval) {
		if (x->n == x->cap) {
			size_t cap = x->cap ? 2 * x->cap : 64;
			struct ivl *p = realloc(x->iv, cap * sizeof(*p));
			if (!p) {
				x->oom = true;
				return;
			}
			x->iv = p;
			x->cap = cap;
		}
		struct ivl *v = &x->iv[x->n++];
		v->n = r->interval;
		v->start = r->start_s;
		v->end = r->end_s;
		for (size_t i = 0; i < 64; i++)
			v->v[i] = NAN;
	}
	for (k = 0; k < x->nnames && strcmp(x->names[k], r->ev->name); k++)
		;
	if (k < x->nnames && r->count.status == PMC_COUNT_OK && r->count.running)
		x->iv[x->n - 1].v[k] = pmc_count_scaled(&r->count);
}

static double interval_value(const void *arg, size_t i)
{
	const struct ivls *x = arg;

	for (size_t k = 0; k < x->nnames; k++)
		if (!strcmp(x->names[k], x->rep->events[i].ev.name))
			return x->cur->v[k];
	return NAN;
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

int pmc_roofline_points(struct pmc_engine_ctx *ctx, char **argv, bool regions, uint64_t interval_ms, bool dp,
			struct pmc_rf_point **ret, size_t *ret_n)
{
	struct pmc_rf_flop_event fe[PMC_RF_MAX_FLOP_EVENTS];
	struct pmc_engine_opts o;
	struct pmc_report rep;
	static struct inputs in;
	struct ivls iv = { .nnames = 0 };
	struct pmc_rf_caches caches;
	struct pmc_rf_point *pts, base;
	size_t nr = 0, nb, per, np = 0;
	char list[2048];
	int rc;

	*ret = NULL;
	*ret_n = 0;
	memset(&in, 0, sizeof(in));
	pmc_roofline_flop_events(dp, fe, &in.nf, in.flops_why, sizeof(in.flops_why));
	for (size_t i = 0; i < in.nf; i++) {
		in.fn[i] = fe[i].name;
		in.fw[i] = fe[i].weight;
		iv.names[iv.nnames++] = fe[i].name;
	}
	pmc_rf_mem_events(&in.me);
	for (size_t i = 0; i < in.me.n; i++) {
		in.mn[i] = in.me.ev[i].name;
		in.mw[i] = in.me.ev[i].bytes_per_count;
	}
	for (size_t i = 0, off = 0; i < in.me.ncpus && off < sizeof(in.cpulist); i++)
		off += (size_t)snprintf(in.cpulist + off, sizeof(in.cpulist) - off, "%s%d", i ? "," : "", in.me.cpus[i]);
	pmc_rf_caches_read(&caches);
	pmc_rf_level_sources(&caches, in.ls, &in.nls);
	in.mem_core = -1;
	for (size_t i = 0; i < in.nls; i++) {
		if (in.ls[i].level == PMC_RF_MEM && !in.me.n)
			in.mem_core = (int)i;
		if (in.ls[i].level == PMC_RF_MEM && in.me.n)
			continue; /* the memory controllers count memory's bytes: the core's LLC misses are not needed */
		for (size_t k = 0; k < in.ls[i].n && iv.nnames < 64; k++)
			iv.names[iv.nnames++] = in.ls[i].ev[k];
	}
	if (event_list(list, sizeof(list), iv.names, iv.nnames) < 0) {
		fprintf(stderr, "pmctool roofline: too many events for one list\n");
		return PMC_EXIT_INTERNAL;
	}
	pmc_engine_opts_init(&o);
	o.event_lists[0] = list;
	o.nlists = 1;
	o.argv = argv;
	o.regions = regions;
	o.no_anchors = true;
	if (interval_ms) {
		o.interval_ms = interval_ms;
		/* every event in every interval (the kernel multiplexes them when they do not fit, and the counts are
		 * scaled): a point needs its FLOPs and its bytes over the same interval, which rotating batches never give */
		o.batch = PMC_BATCH_MULTIPLEX;
		o.intervals.record = ivl_record;
		o.intervals.ctx = &iv;
	}
	memset(&rep, 0, sizeof(rep));
	rc = pmc_engine_run(ctx, &o, &rep);
	if (rc && !rep.nruns) {
		pmc_report_fini(&rep);
		free(iv.iv);
		return rc;
	}
	if (iv.oom) {
		pmc_report_fini(&rep);
		free(iv.iv);
		return PMC_EXIT_INTERNAL;
	}
	if (rep.regions)
		nr = rep.regions->n;
	if (!rc && rep.exit_status)
		rc = rep.exit_status;
	nb = nr + iv.n + 1;
	per = in.nls + 1;
	pts = calloc(nb * per, sizeof(*pts));
	if (!pts) {
		pmc_report_fini(&rep);
		free(iv.iv);
		return PMC_EXIT_INTERNAL;
	}
	for (size_t i = 0; i < nr; i++) {
		const struct pmc_report_region *r = &rep.regions->r[i];
		long k = find_event(&rep, "task-clock");
		double tc = k < 0 ? NAN : pmc_region_value(&r->all, (size_t)k);

		memset(&base, 0, sizeof(base));
		snprintf(base.label, sizeof(base.label), "%s", r->name);
		base.seconds = isfinite(tc) ? tc * 1e-9 : NAN;
		np += fill(pts + np, &base, &rep, &in, region_value, &r->all);
		if (in.me.n) /* uncore counters count the socket: never inside one thread's region */
			snprintf(pts[np - 1].bytes_why, sizeof(pts[np - 1].bytes_why),
				 "memory bytes are counted system-wide, not per region (only the whole program has them)");
	}
	iv.rep = &rep;
	for (size_t i = 0; i < iv.n; i++) {
		memset(&base, 0, sizeof(base));
		snprintf(base.label, sizeof(base.label), "interval %u", iv.iv[i].n);
		base.interval = iv.iv[i].n;
		base.start_s = iv.iv[i].start;
		base.seconds = iv.iv[i].end - iv.iv[i].start;
		iv.cur = &iv.iv[i];
		np += fill(pts + np, &base, &rep, &in, interval_value, &iv);
		if (in.me.n) /* the memory controllers are counted in a second run: its intervals are not these */
			snprintf(pts[np - 1].bytes_why, sizeof(pts[np - 1].bytes_why), "memory bytes (%s, uncore) are "
				 "counted in a second run of the command, not per interval of this one", in.me.pmu);
	}
	memset(&base, 0, sizeof(base));
	snprintf(base.label, sizeof(base.label), "%s", regions ? "whole program" : "program");
	base.seconds = rep.wall_ns_mean * 1e-9;
	np += fill(pts + np, &base, &rep, &in, total_value, &rep);
	pmc_report_fini(&rep);
	free(iv.iv);
	if (in.mem_core < 0 && (!ctx->stop || !*ctx->stop))
		mem_run(ctx, argv, &in, &pts[np - 1]);
	*ret = pts;
	*ret_n = np;
	return rc;
}
