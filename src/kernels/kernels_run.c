/* SPDX-License-Identifier: MIT */
/* Measuring a kernel in-process: counters on this thread (the counter set, perf/evlist.h), read in process through
 * the perf page (RDPMC, mrs), else read(). */
#include "kernels/kernels.h"

#include <errno.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "perf/evlist.h"
#include "perf/selfread.h"

/* Empty regions measured for the overhead median. */
#define OVERHEAD_SAMPLES 63

/* One snapshot of every event: the counts, and which were read in process with full times (enabled == running on
 * the page: the times are as of the last update, and the event ran all the time). */
struct snap {
	struct pmc_count *c;
	bool *full;
};

struct runner {
	const struct pmc_measure_req *req;
	struct pmc_target self;  /* this thread, on any CPU */
	struct pmc_evlist *el;   /* the counters, with their perf pages (PMC_EVL_SELFREAD) */
	const int *fds;          /* the set's, one per event: -1 when not opened */
	bool *rdpmc;             /* per event: read in process (probed); each read still decides from its page */
	size_t n;
	/* The RDPMC events, snapshotted together. */
	const struct perf_event_mmap_page **pages;
	size_t *page_slot;
	size_t npages;
	struct pmc_selfread_value *vals;
	struct snap s0, s1;    /* start and stop snapshots, allocated before any measuring */
	char why[160];         /* why RDPMC could not be used, from the first probe that said no */
};

static uint64_t (*kernel_fn(const struct pmc_kernel *k, const struct pmc_kernel_params *p))(uint64_t, void *)
{
	return k->select ? k->select(p) : k->run;
}

/* Open the events on this thread (no inherit; leaders and lone events stopped, enabled around the region), each
 * with its perf page. An event refused in the group (EINVAL) is tried alone: refused again, its encoding is bad and
 * it is NOT_SUPPORTED; accepted alone, the combination is at fault: every counter is closed, out->group_err names it
 * for the engine to split the batch, and false is returned (nothing to measure). */
static bool open_events(struct runner *r, struct pmc_measure_out *out)
{
	struct pmc_evlist_fail fail;

	if (pmc_evlist_open(r->el, &fail) == PMC_EVL_SPLIT) {
		out->group_err = fail.err;
		out->group_err_index = (int)fail.index;
		return false;
	}
	return true;
}

/* After enabling: which events can be read in process, and the counters' width (from the first page that may be
 * read in process). syscall_reads (--read=syscall): none is, so the caller can compare the two paths. */
static void probe_rdpmc(struct runner *r, bool syscall_reads, struct pmc_kernel_info *info)
{
	char why[160];

	for (size_t i = 0; i < r->n; i++) {
		struct pmc_selfread *s = pmc_evlist_selfread(r->el, 0, i);
		if (!s)
			continue;
		if (pmc_selfread_probe(s, why, sizeof(why))) {
			if (!r->why[0])
				snprintf(r->why, sizeof(r->why), "%s", why);
			continue;
		}
		if (!info->counter_width)
			info->counter_width = s->page->pmc_width;
		if (syscall_reads) {
			if (!r->why[0])
				snprintf(r->why, sizeof(r->why), "asked for (--read=syscall)");
			continue;
		}
		r->rdpmc[i] = true;
		r->pages[r->npages] = s->page;
		r->page_slot[r->npages++] = i;
	}
}

static void read_syscall(struct runner *r, struct snap *ret)
{
	for (size_t i = 0; i < r->n; i++) {
		if (r->fds[i] < 0 || r->rdpmc[i])
			continue;
		ret->full[i] = false;
		if (pmc_perf_read(r->fds[i], &ret->c[i]))
			ret->c[i].status = PMC_COUNT_NOT_COUNTED;
	}
}

/* In-process values into ret, decided per read from each page: from the counter with times extrapolated (or full),
 * else (off the PMU at this instant, or times stale and unequal) the kernel's read(). No allocation; no system call
 * unless a page says the in-process read cannot be trusted this time. */
static void read_pages(struct runner *r, struct snap *ret)
{
	pmc_selfread_group_page(r->pages, r->npages, &pmc_selfread_hw_ops, r->vals);
	for (size_t j = 0; j < r->npages; j++) {
		size_t i = r->page_slot[j];
		struct pmc_count *c = &ret->c[i];
		const struct pmc_selfread_value *v = &r->vals[j];

		ret->full[i] = false;
		if (!pmc_selfread_usable(v)) {
			if (pmc_perf_read(r->fds[i], c))
				c->status = PMC_COUNT_NOT_COUNTED;
			continue;
		}
		c->value = v->value;
		c->enabled = v->enabled;
		c->running = v->running;
		c->err = 0;
		c->status = PMC_COUNT_OK;
		ret->full[i] = !v->times_now;
	}
}

/*
 * Interrupting a kernel. A kernel may run for minutes in one call (matmul n=2048: one iteration is 2 n^3 FLOPs), so
 * while it runs SIGINT and SIGTERM jump out of it (siglongjmp): the kernels touch only registers and their own data,
 * never libc, so abandoning one mid-loop is safe. The region then ends where it stopped: the stop reads take the
 * counts so far, exactly (no chunk boundaries inside the totals, no extra calls). The signal is handed on to the
 * handler that was installed before (pmctool's: partial report, exit 130) once the measurement is over.
 */
static sigjmp_buf kernel_jmp;
static volatile sig_atomic_t in_kernel, caught_signal;

static void on_stop_signal(int sig)
{
	caught_signal = sig;
	if (in_kernel) {
		in_kernel = 0;
		siglongjmp(kernel_jmp, 1);
	}
}

struct stop_guard {
	struct sigaction old_int, old_term;
};

static void guard_install(struct stop_guard *g)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	/* Not blocked in the handler: the jump leaves the mask as it was (sigsetjmp saves none: no system call). */
	sa.sa_flags = SA_NODEFER;
	caught_signal = 0;
	in_kernel = 0;
	sigaction(SIGINT, &sa, &g->old_int);
	sigaction(SIGTERM, &sa, &g->old_term);
}

/* Restore the handlers and deliver a signal that arrived meanwhile to them. */
static void guard_remove(struct stop_guard *g)
{
	sigaction(SIGINT, &g->old_int, NULL);
	sigaction(SIGTERM, &g->old_term, NULL);
	if (caught_signal)
		raise(caught_signal);
}

/* fn(iters, ctx) (fn NULL: nothing, for the empty region, which runs the same code but the call) unless a stop
 * signal arrives first or during it: *ret_stopped then. sigsetjmp saves no signal mask: no system call. */
static __attribute__((noinline)) uint64_t call_guarded(uint64_t (*fn)(uint64_t, void *), uint64_t iters, void *ctx,
						      bool *ret_stopped)
{
	volatile uint64_t res = 0;

	if (caught_signal || sigsetjmp(kernel_jmp, 0)) {
		*ret_stopped = true;
		return res;
	}
	in_kernel = 1;
	if (fn)
		res = fn(iters, ctx);
	in_kernel = 0;
	return res;
}

struct region {
	uint64_t tsc, wall_ns, result;
	bool stopped; /* a stop signal ended the kernel early: the counts are those of the part that ran */
};

/*
 * One measured region; fn NULL measures the empty region. Identical code on both paths but the call. The wall clock
 * is read outside the read windows (it contains them, so task-clock / wall cannot exceed 1 on one thread, and no
 * clock_gettime runs between the start and stop reads); the region timer inside them, fenced around the kernel.
 */
static void region(struct runner *r, uint64_t (*fn)(uint64_t, void *), uint64_t iters, void *ctx,
		   struct snap *s0, struct snap *s1, struct region *ret)
{
	uint64_t t0, t1, w0, w1, res;
	bool stopped = false;

	w0 = pmc_now_ns();
	read_syscall(r, s0);
	read_pages(r, s0);
	t0 = pmc_arch_timer_begin();
	res = call_guarded(fn, iters, ctx, &stopped);
	t1 = pmc_arch_timer_end();
	read_pages(r, s1);
	read_syscall(r, s1);
	w1 = pmc_now_ns();
	ret->tsc = t1 - t0;
	ret->wall_ns = w1 - w0;
	ret->result = res;
	ret->stopped = stopped;
}

/* stop - start of event i. Full times at both ends (read in process, never off the PMU): it ran the whole region,
 * whose length is wall_ns; the page's times, as of the last update, would say 0. */
void pmc_kernel_count_delta(const struct pmc_count *a, bool a_full, const struct pmc_count *b, bool b_full,
			    uint64_t wall_ns, struct pmc_count *ret)
{
	ret->value = b->value - a->value;
	ret->enabled = b->enabled - a->enabled;
	ret->running = b->running - a->running;
	ret->err = 0;
	if (a_full && b_full && a->status == PMC_COUNT_OK && b->status == PMC_COUNT_OK && ret->enabled == ret->running)
		ret->enabled = ret->running = wall_ns ? wall_ns : 1;
	ret->status = b->status == PMC_COUNT_OK && a->status == PMC_COUNT_OK && ret->running ? PMC_COUNT_OK
											       : PMC_COUNT_NOT_COUNTED;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Median counts and timer ticks of OVERHEAD_SAMPLES empty regions. */
static int measure_overhead(struct runner *r, struct pmc_kernel_info *info)
{
	size_t n = r->n, ns = OVERHEAD_SAMPLES;
	uint64_t *samples = calloc((n + 2) * ns, sizeof(*samples)), *walls;
	struct pmc_count *d = calloc(n ? n : 1, sizeof(*d));
	bool *ok = calloc(n ? n : 1, sizeof(*ok));
	struct region reg;

	if (!samples || !d || !ok) {
		free(samples);
		free(d);
		free(ok);
		return -ENOMEM;
	}
	walls = samples + (n + 1) * ns;
	for (size_t i = 0; i < n; i++)
		ok[i] = r->fds[i] >= 0;
	for (size_t s = 0; s < ns; s++) {
		region(r, NULL, 0, NULL, &r->s0, &r->s1, &reg);
		samples[n * ns + s] = reg.tsc;
		walls[s] = reg.wall_ns;
		for (size_t i = 0; i < n; i++) {
			pmc_kernel_count_delta(&r->s0.c[i], r->s0.full[i], &r->s1.c[i], r->s1.full[i], reg.wall_ns, &d[i]);
			samples[i * ns + s] = d[i].value;
			/* A software event may legitimately not advance in an empty region: only a failed read spoils it. */
			if (r->s0.c[i].status != PMC_COUNT_OK || r->s1.c[i].status != PMC_COUNT_OK)
				ok[i] = false;
		}
	}
	for (size_t i = 0; i <= n + 1; i++)
		qsort(samples + i * ns, ns, sizeof(*samples), cmp_u64);
	info->overhead_tsc = samples[n * ns + ns / 2];
	info->overhead_wall_ns = walls[ns / 2];
	for (size_t i = 0; i < n; i++) {
		info->overhead_valid[i] = ok[i];
		info->overhead[i] = ok[i] ? samples[i * ns + ns / 2] : 0;
	}
	info->overhead_samples = (unsigned)ns;
	free(samples);
	free(d);
	free(ok);
	return 0;
}

/* Run the kernel about secs seconds; false when a stop signal ended it. */
static bool warm_up(uint64_t (*fn)(uint64_t, void *), void *ctx, double secs, struct pmc_kernel_info *info)
{
	uint64_t chunk = 1, start = pmc_now_ns(), now = start, limit = (uint64_t)(secs * 1e9);
	bool stopped = false;

	while (secs > 0 && now - start < limit && !stopped) {
		uint64_t t = pmc_now_ns();
		info->result ^= call_guarded(fn, chunk, ctx, &stopped);
		now = pmc_now_ns();
		/* Calls of a few milliseconds: the clock is read rarely and the end is not overshot by much. */
		if (now - t < 2000000 && chunk < PMC_KERNEL_MAX_ITERS / 2)
			chunk *= 2;
	}
	info->warmup_s = (double)(now - start) / 1e9;
	return !stopped;
}

static void tv_sub(struct timeval *a, const struct timeval *b)
{
	a->tv_sec -= b->tv_sec;
	a->tv_usec -= b->tv_usec;
	if (a->tv_usec < 0) {
		a->tv_sec--;
		a->tv_usec += 1000000;
	}
}

static void rusage_sub(struct rusage *a, const struct rusage *b)
{
	tv_sub(&a->ru_utime, &b->ru_utime);
	tv_sub(&a->ru_stime, &b->ru_stime);
	a->ru_minflt -= b->ru_minflt;
	a->ru_majflt -= b->ru_majflt;
	a->ru_nvcsw -= b->ru_nvcsw;
	a->ru_nivcsw -= b->ru_nivcsw;
	a->ru_inblock -= b->ru_inblock;
	a->ru_oublock -= b->ru_oublock;
}

static int check_inputs(const struct pmc_kernel *k, const struct pmc_kernel_params *p,
			const struct pmc_kernel_opts *o, const struct pmc_measure_req *req,
			const struct pmc_measure_out *out, char *err, size_t errlen)
{
	if (!k || !p || p->k != k || !o || !req || !out || (req->n && (!req->events || !out->counts))) {
		snprintf(err, errlen, "internal: kernel measurement called with missing arguments");
		return -EINVAL;
	}
	if (o->iters > PMC_KERNEL_MAX_ITERS) {
		snprintf(err, errlen, "%llu iterations is too many: at most 2^40", (unsigned long long)o->iters);
		return -EINVAL;
	}
	if (!(o->warmup_s >= 0 && o->warmup_s <= PMC_KERNEL_MAX_WARMUP_S)) {
		snprintf(err, errlen, "warm-up of %g s is out of range: use 0 to %g seconds", o->warmup_s,
			 PMC_KERNEL_MAX_WARMUP_S);
		return -EINVAL;
	}
	if (o->cpu < -1 || o->cpu >= CPU_SETSIZE) {
		snprintf(err, errlen, "CPU %d does not exist: use 0 to %d, or -1 for the current one", o->cpu,
			 CPU_SETSIZE - 1);
		return -EINVAL;
	}
	if (req->n > PMC_MAX_EVENTS) {
		snprintf(err, errlen, "%zu events in one batch: at most %d", req->n, PMC_MAX_EVENTS);
		return -EINVAL;
	}
	return pmc_kernel_check_cpu(k, err, errlen);
}

static int pin(int cpu, cpu_set_t *old, int *ret_cpu, char *err, size_t errlen)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(*old), old))
		return -errno;
	if (cpu < 0)
		cpu = sched_getcpu();
	if (cpu < 0)
		return -errno;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		int e = errno;
		snprintf(err, errlen, "cannot pin to CPU %d: %s (is it online and in this process's allowed set?)", cpu,
			 strerror(e));
		return -e;
	}
	*ret_cpu = cpu;
	return 0;
}

static void read_method(struct runner *r, struct pmc_kernel_info *info)
{
	size_t opened = 0;

	for (size_t i = 0; i < r->n; i++)
		opened += r->fds[i] >= 0;
	info->rdpmc = r->npages > 0;
	info->all_in_process = opened && r->npages == opened;
	if (opened == 0)
		snprintf(info->read_method, sizeof(info->read_method), "none: no event could be opened");
	else if (r->npages == opened)
		snprintf(info->read_method, sizeof(info->read_method), "%s (in process)", pmc_arch_user_read_name());
	else if (r->npages)
		snprintf(info->read_method, sizeof(info->read_method), "%s (in process) + read(): %s",
			 pmc_arch_user_read_name(), r->why[0] ? r->why : "an event's perf page could not be mapped");
	else
		snprintf(info->read_method, sizeof(info->read_method), "read(): %s",
			 r->why[0] ? r->why : "an event's perf page could not be mapped");
}

static void subtract(struct pmc_measure_out *out, struct pmc_kernel_info *info, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct pmc_count *c = &out->counts[i];
		if (c->status != PMC_COUNT_OK || !info->overhead_valid[i])
			continue;
		c->value = c->value > info->overhead[i] ? c->value - info->overhead[i] : 0;
	}
	info->tsc_cycles = info->tsc_cycles > info->overhead_tsc ? info->tsc_cycles - info->overhead_tsc : 0;
	/* The wall time too, or task-clock (its overhead subtracted) / wall would read as a descheduled thread. */
	out->wall_ns = out->wall_ns > info->overhead_wall_ns ? out->wall_ns - info->overhead_wall_ns : 0;
	info->wall_unresolved = out->wall_ns < info->overhead_wall_ns;
	info->overhead_subtracted = true;
}

static int alloc_runner(struct runner *r, size_t n, struct pmc_measure_out *out, struct pmc_kernel_info *info)
{
	struct pmc_evlist_opts eo = {
		.flags = PMC_EVL_DISABLED | PMC_EVL_SELFREAD | (r->req->group ? PMC_EVL_GROUP : 0),
		.counts = n ? out->counts : NULL,
	};
	size_t m = n ? n : 1;

	r->n = n;
	r->self = (struct pmc_target){ .pid = 0, .cpu = -1 };
	if (pmc_evlist_new(r->req->events, n, &r->self, 1, &eo, &r->el))
		return -ENOMEM;
	r->fds = pmc_evlist_fds(r->el, 0);
	r->rdpmc = calloc(m, sizeof(*r->rdpmc));
	r->pages = calloc(m, sizeof(*r->pages));
	r->page_slot = calloc(m, sizeof(*r->page_slot));
	r->vals = calloc(m, sizeof(*r->vals));
	r->s0.c = calloc(2 * m, sizeof(*r->s0.c));
	r->s0.full = calloc(2 * m, sizeof(*r->s0.full));
	if (r->s0.c && r->s0.full) {
		r->s1.c = r->s0.c + m;
		r->s1.full = r->s0.full + m;
	}
	info->overhead = calloc(m, sizeof(*info->overhead));
	info->overhead_valid = calloc(m, sizeof(*info->overhead_valid));
	info->event_rdpmc = calloc(m, sizeof(*info->event_rdpmc));
	if (!r->rdpmc || !r->pages || !r->page_slot || !r->vals || !r->s0.c || !r->s0.full || !info->overhead || !info->overhead_valid ||
	    !info->event_rdpmc)
		return -ENOMEM;
	return 0;
}

static void free_runner(struct runner *r)
{
	pmc_evlist_delete(r->el);
	free(r->rdpmc);
	free(r->pages);
	free(r->page_slot);
	free(r->vals);
	free(r->s0.c);
	free(r->s0.full);
}

/* Open, warm up, enable, measure the overhead and the region. The counts land in out, the rest in info. A stop
 * signal (held by the caller's guard) ends the kernel where it is: the counts so far are kept (out->interrupted,
 * info->stopped). */
static int run_measured(struct runner *r, uint64_t (*fn)(uint64_t, void *), void *ctx,
			const struct pmc_kernel_opts *o, struct pmc_measure_out *out, struct pmc_kernel_info *info)
{
	struct rusage ru0, ru1;
	struct region reg;
	int rc;

	if (!open_events(r, out)) {
		read_method(r, info);
		return 0; /* the kernel is not run for a batch the engine splits */
	}
	if (!warm_up(fn, ctx, o->warmup_s, info)) {
		/* Stopped before anything was measured: the events stay <not counted>. */
		for (size_t i = 0; i < r->n; i++)
			if (r->fds[i] >= 0)
				out->counts[i].status = PMC_COUNT_NOT_COUNTED;
		out->interrupted = info->stopped = true;
		read_method(r, info);
		return 0;
	}
	pmc_evlist_enable(r->el, NULL);
	probe_rdpmc(r, o->syscall_reads, info);
	rc = measure_overhead(r, info);
	if (rc)
		goto out;
	getrusage(RUSAGE_THREAD, &ru0);
	region(r, fn, info->iters, ctx, &r->s0, &r->s1, &reg);
	getrusage(RUSAGE_THREAD, &ru1);
	pmc_evlist_disable(r->el, NULL);
	for (size_t i = 0; i < r->n; i++) {
		if (r->fds[i] < 0)
			continue;
		pmc_kernel_count_delta(&r->s0.c[i], r->s0.full[i], &r->s1.c[i], r->s1.full[i], reg.wall_ns,
				       &out->counts[i]);
		info->event_rdpmc[i] = r->rdpmc[i];
	}
	rusage_sub(&ru1, &ru0);
	out->ru = ru1;
	out->wall_ns = reg.wall_ns;
	out->interrupted = info->stopped = reg.stopped;
	info->tsc_cycles = reg.tsc;
	info->result = reg.result;
	if (o->subtract_overhead)
		subtract(out, info, r->n);
	info->wall_ns = out->wall_ns;
	read_method(r, info);
out:
	return rc;
}

int pmc_kernel_measure(const struct pmc_kernel *k, const struct pmc_kernel_params *p, const struct pmc_kernel_opts *o,
		       const struct pmc_measure_req *req, struct pmc_measure_out *out, struct pmc_kernel_info *info,
		       char *err, size_t errlen)
{
	struct runner r = { .req = req };
	struct stop_guard g;
	cpu_set_t old;
	void *ctx = NULL;
	bool pinned = false;
	int rc;

	memset(info, 0, sizeof(*info));
	rc = check_inputs(k, p, o, req, out, err, errlen);
	if (rc)
		return rc;
	out->wall_ns = 0;
	out->wait_status = 0;
	out->interrupted = false;
	out->group_err = 0;
	out->group_err_index = -1;
	out->never_ran = false;
	info->nevents = req->n;
	info->iters = o->iters ? o->iters : pmc_kernel_default_iters(k, p);
	/* From here a stop signal is held for the kernel (preparing matmul n=2048's data takes a while too). */
	guard_install(&g);
	rc = alloc_runner(&r, req->n, out, info);
	if (rc) {
		snprintf(err, errlen, "out of memory for %zu events", req->n);
		goto out;
	}
	rc = pin(o->cpu, &old, &info->cpu, err, errlen);
	if (rc) {
		if (!err[0])
			snprintf(err, errlen, "cannot read or set the CPU affinity: %s", strerror(-rc));
		goto out;
	}
	pinned = true;
	if (k->prepare) {
		err[0] = '\0';
		rc = k->prepare(p, &ctx, err, errlen);
		if (rc) {
			if (!err[0])
				snprintf(err, errlen, "kernel '%s': cannot prepare its data: %s", k->name, strerror(-rc));
			goto out;
		}
	}
	rc = run_measured(&r, kernel_fn(k, p), ctx, o, out, info);
	if (rc)
		snprintf(err, errlen, "out of memory while measuring");
	else if (req->group && !out->group_err) /* asked of the live set, as its counts are: the engine splits it */
		out->never_ran = pmc_evlist_never_ran(r.el, NULL);
out:
	if (rc)
		pmc_kernel_info_fini(info);
	if (ctx && k->release)
		k->release(ctx);
	free_runner(&r);
	if (pinned)
		sched_setaffinity(0, sizeof(old), &old);
	guard_remove(&g);
	return rc;
}

int pmc_kernel_run_plain(const struct pmc_kernel *k, const struct pmc_kernel_params *p, uint64_t iters, int cpu,
			 char *err, size_t errlen)
{
	volatile uint64_t sink;
	cpu_set_t old;
	void *ctx = NULL;
	int rc = 0, got;

	if (cpu >= 0 && (rc = pin(cpu, &old, &got, err, errlen)))
		return rc;
	if (k->prepare)
		rc = k->prepare(p, &ctx, err, errlen);
	if (!rc) {
		sink = kernel_fn(k, p)(iters ? iters : pmc_kernel_default_iters(k, p), ctx);
		(void)sink;
	}
	if (ctx && k->release)
		k->release(ctx);
	if (cpu >= 0)
		sched_setaffinity(0, sizeof(old), &old);
	return rc;
}

void pmc_kernel_info_fini(struct pmc_kernel_info *info)
{
	if (!info)
		return;
	free(info->overhead);
	free(info->overhead_valid);
	free(info->event_rdpmc);
	info->overhead = NULL;
	info->overhead_valid = NULL;
	info->event_rdpmc = NULL;
}
