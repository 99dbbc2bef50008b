/* SPDX-License-Identifier: MIT */
/* Measuring the ceilings: a built-in kernel's declared FLOPs or bytes over the wall time it takes, on one core and on
 * every core allowed to this process at once, repeated; the median is the ceiling and min..max its spread. No PMU. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernels/kernels.h"
#include "roofline/roofline.h"
#include "util/util.h"

#define MAX_THREADS 1024

struct job {
	const struct pmc_kernel *k;
	struct pmc_kernel_params p;
	uint64_t (*fn)(uint64_t, void *);
};

/* Threads wait here until all of them exist: a team that could not be started whole is let go without ever reaching
 * the barriers (which count every member). */
struct gate {
	pthread_mutex_t m;
	pthread_cond_t cv;
	int state; /* 0 wait, 1 go, -1 abort */
};

struct worker {
	pthread_t tid;
	int cpu;
	const struct job *job;
	void *ctx;
	int prep_err;
	char err[128];
	uint64_t iters;
	uint64_t sink;
	pthread_barrier_t *go, *done;
	struct gate *gate;
	bool quit;
};

static int cpus_allowed(int *cpus, size_t max, size_t *ret_n)
{
	cpu_set_t set;
	size_t n = 0;

	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return -errno;
	for (int c = 0; c < CPU_SETSIZE && n < max; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	*ret_n = n;
	return n ? 0 : -ESRCH;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	/* A CPU refused (a cpuset changed under us) leaves the thread where it is: the ceiling is still work over time. */
	(void)pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

/* Each worker pins itself, prepares its own data (first touch on its own CPU), then runs the kernel once per round:
 * round start and end are barriers, so the main thread times the slowest worker. */
static void *worker_main(void *arg)
{
	struct worker *w = arg;
	int state;

	pthread_mutex_lock(&w->gate->m);
	while (!(state = w->gate->state))
		pthread_cond_wait(&w->gate->cv, &w->gate->m);
	pthread_mutex_unlock(&w->gate->m);
	if (state < 0)
		return NULL;
	pin(w->cpu);
	if (w->job->k->prepare)
		w->prep_err = w->job->k->prepare(&w->job->p, &w->ctx, w->err, sizeof(w->err));
	pthread_barrier_wait(w->done);
	for (;;) {
		pthread_barrier_wait(w->go);
		if (w->quit)
			break;
		if (!w->prep_err)
			w->sink += w->job->fn(w->iters, w->ctx);
		pthread_barrier_wait(w->done);
	}
	if (w->job->k->release && w->ctx && !w->prep_err)
		w->job->k->release(w->ctx);
	return NULL;
}

struct team {
	struct worker *w;
	size_t n;
	pthread_barrier_t go, done;
	struct gate gate;
};

static void gate_open(struct gate *g, int state)
{
	pthread_mutex_lock(&g->m);
	g->state = state;
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->m);
}

static void team_free(struct team *t)
{
	pthread_barrier_destroy(&t->go);
	pthread_barrier_destroy(&t->done);
	pthread_mutex_destroy(&t->gate.m);
	pthread_cond_destroy(&t->gate.cv);
	free(t->w);
	t->w = NULL;
}

static int team_start(struct team *t, const struct job *job, const int *cpus, size_t n, char *err, size_t errlen)
{
	size_t started = 0;
	int rc = 0;

	t->n = n;
	t->w = calloc(n, sizeof(*t->w));
	if (!t->w)
		return -ENOMEM;
	pthread_barrier_init(&t->go, NULL, (unsigned)n + 1);
	pthread_barrier_init(&t->done, NULL, (unsigned)n + 1);
	pthread_mutex_init(&t->gate.m, NULL);
	pthread_cond_init(&t->gate.cv, NULL);
	t->gate.state = 0;
	for (; started < n; started++) {
		struct worker *w = &t->w[started];

		w->cpu = cpus[started];
		w->job = job;
		w->go = &t->go;
		w->done = &t->done;
		w->gate = &t->gate;
		if ((rc = -pthread_create(&w->tid, NULL, worker_main, w)))
			break;
	}
	if (rc) {
		snprintf(err, errlen, "cannot start %zu measuring threads: %s", n, strerror(-rc));
		gate_open(&t->gate, -1);
		for (size_t i = 0; i < started; i++)
			pthread_join(t->w[i].tid, NULL);
		team_free(t);
		return rc;
	}
	gate_open(&t->gate, 1);
	pthread_barrier_wait(&t->done);
	for (size_t i = 0; i < n; i++)
		if (t->w[i].prep_err) {
			snprintf(err, errlen, "%s", t->w[i].err[0] ? t->w[i].err : strerror(-t->w[i].prep_err));
			return t->w[i].prep_err;
		}
	return 0;
}

/* One round of 'iters' iterations on every worker: its wall time in seconds. */
static double team_round(struct team *t, uint64_t iters)
{
	uint64_t t0;

	for (size_t i = 0; i < t->n; i++)
		t->w[i].iters = iters;
	t0 = pmc_now_ns();
	pthread_barrier_wait(&t->go);
	pthread_barrier_wait(&t->done);
	return (double)(pmc_now_ns() - t0) * 1e-9;
}

static void team_stop(struct team *t)
{
	if (!t->w)
		return;
	for (size_t i = 0; i < t->n; i++)
		t->w[i].quit = true;
	pthread_barrier_wait(&t->go);
	for (size_t i = 0; i < t->n; i++)
		pthread_join(t->w[i].tid, NULL);
	team_free(t);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Work per iteration of the job: FLOPs of the precision (compute) or bytes loaded + stored (bandwidth). */
static double work_per_iter(const struct job *job, enum pmc_rf_kind kind)
{
	struct pmc_kernel_expect e;

	pmc_kernel_expect(job->k, &job->p, &e);
	if (kind == PMC_RF_BANDWIDTH)
		return (double)(e.per_iter[PMC_KX_BYTES_LOADED] + e.per_iter[PMC_KX_BYTES_STORED]);
	return (double)(e.per_iter[PMC_KX_FLOPS_SP] + e.per_iter[PMC_KX_FLOPS_DP]);
}

static void measure_one(const struct pmc_rf_measure_opts *o, const struct job *job, const int *cpus, size_t ncpus,
			struct pmc_rf_ceiling *c)
{
	struct team t = { 0 };
	double per_iter = work_per_iter(job, c->kind), rates[PMC_RF_MAX_REPEATS], s;
	uint64_t iters = 1;
	char err[160] = "";
	unsigned r;

	c->valid = false;
	if (team_start(&t, job, cpus, ncpus, err, sizeof(err)) < 0) {
		snprintf(c->reason, sizeof(c->reason), "%s", err);
		team_stop(&t);
		return;
	}
	/* Calibrate: double the iterations until a round takes a tenth of the target, then scale to the target. */
	while ((s = team_round(&t, iters)) < o->target_s / 10 && iters < PMC_KERNEL_MAX_ITERS / 4 &&
	       !(o->stop && *o->stop))
		iters *= 2;
	if (s > 0 && s < o->target_s)
		iters = (uint64_t)((double)iters * (o->target_s / s)) + 1;
	for (r = 0; r < o->repeats && !(o->stop && *o->stop); r++) {
		s = team_round(&t, iters);
		rates[r] = s > 0 ? per_iter * (double)iters * (double)ncpus / s : 0;
	}
	team_stop(&t);
	if (r == 0) {
		snprintf(c->reason, sizeof(c->reason), "interrupted before the first measurement");
		return;
	}
	qsort(rates, r, sizeof(rates[0]), cmp_double);
	c->repeats = r;
	c->min = rates[0];
	c->max = rates[r - 1];
	c->median = r % 2 ? rates[r / 2] : (rates[r / 2 - 1] + rates[r / 2]) / 2;
	c->valid = c->median > 0;
	if (!c->valid)
		snprintf(c->reason, sizeof(c->reason), "the kernel's time could not be measured");
}

/* The widest flops kernel of a precision this CPU runs: "flops-dp-512", then 256, 128, scalar. */
static const struct pmc_kernel *widest(bool dp)
{
	static const char *const widths[] = { "512", "256", "128", "scalar" };
	char name[32], err[128];

	for (size_t i = 0; i < PMC_ARRAY_SIZE(widths); i++) {
		const struct pmc_kernel *k;

		snprintf(name, sizeof(name), "flops-%s-%s", dp ? "dp" : "sp", widths[i]);
		k = pmc_kernel_find(name);
		if (k && pmc_kernel_check_cpu(k, err, sizeof(err)) == 0)
			return k;
	}
	return NULL;
}

static struct pmc_rf_ceiling *add(struct pmc_rf_ceilings *ret, enum pmc_rf_kind kind, int level, unsigned threads)
{
	struct pmc_rf_ceiling *c;

	if (ret->n == PMC_RF_MAX_CEILINGS)
		return NULL;
	c = &ret->c[ret->n++];
	memset(c, 0, sizeof(*c));
	c->kind = kind;
	c->level = level;
	c->threads = threads;
	return c;
}

static const char *const level_names[PMC_RF_NLEVELS] = { "L1", "L2", "L3", "memory" };

static void measure_compute(const struct pmc_rf_measure_opts *o, struct pmc_rf_ceilings *ret, bool dp,
			    const int *cpus, size_t ncpus)
{
	const struct pmc_kernel *k = widest(dp);

	for (int all = 0; all < 2; all++) {
		struct pmc_rf_ceiling *c = add(ret, PMC_RF_COMPUTE, -1, all ? (unsigned)ncpus : 1);
		struct job job = { .k = k };

		if (!c)
			return;
		c->dp = dp;
		snprintf(c->name, sizeof(c->name), "%s peak", dp ? "DP" : "SP");
		if (!k) {
			snprintf(c->reason, sizeof(c->reason), "no flops-%s-* kernel runs on this CPU", dp ? "dp" : "sp");
			continue;
		}
		snprintf(c->kernel, sizeof(c->kernel), "%s", k->name);
		pmc_kernel_params_init(k, &job.p);
		job.fn = k->run;
		measure_one(o, &job, cpus, all ? ncpus : 1, c);
	}
}

static void measure_bandwidth(const struct pmc_rf_measure_opts *o, struct pmc_rf_ceilings *ret,
			      const struct pmc_rf_caches *caches, const int *cpus, size_t ncpus)
{
	const struct pmc_kernel *k = pmc_kernel_find("stream");

	for (int lv = 0; lv < PMC_RF_NLEVELS; lv++)
		for (int all = 0; all < 2; all++) {
			unsigned threads = all ? (unsigned)ncpus : 1;
			struct pmc_rf_ceiling *c = add(ret, PMC_RF_BANDWIDTH, lv, threads);
			struct job job = { .k = k };
			char kv[64], err[160], fp[32];
			uint64_t foot = pmc_rf_footprint(caches, (enum pmc_rf_level)lv, threads);

			if (!c)
				return;
			snprintf(c->name, sizeof(c->name), "%s bandwidth", level_names[lv]);
			if (!k) {
				snprintf(c->reason, sizeof(c->reason), "no stream kernel in this build");
				continue;
			}
			if (!foot) {
				snprintf(c->reason, sizeof(c->reason), "no %s cache in sysfs (devices/system/cpu/cpu0/cache)",
					 level_names[lv]);
				continue;
			}
			pmc_kernel_params_init(k, &job.p);
			snprintf(kv, sizeof(kv), "footprint=%llu", (unsigned long long)foot);
			if (pmc_kernel_params_parse(k, "mode=triad", &job.p, err, sizeof(err)) < 0 ||
			    pmc_kernel_params_parse(k, kv, &job.p, err, sizeof(err)) < 0) {
				snprintf(c->reason, sizeof(c->reason), "%s", err);
				continue;
			}
			c->footprint = foot;
			pmc_kernel_format_value(&k->params[1], foot, fp, sizeof(fp));
			snprintf(c->kernel, sizeof(c->kernel), "stream mode=triad footprint=%s", fp);
			job.fn = k->select ? k->select(&job.p) : k->run;
			measure_one(o, &job, cpus, threads, c);
		}
}

int pmc_rf_measure(const struct pmc_rf_measure_opts *o, struct pmc_rf_ceilings *ret, char *err, size_t errlen)
{
	static int cpus[MAX_THREADS];
	struct pmc_rf_caches caches;
	size_t ncpus = 0;
	int rc;

	if (o->repeats < 1 || o->repeats > PMC_RF_MAX_REPEATS || !(o->target_s > 0)) {
		snprintf(err, errlen, "repeats must be 1..%d and the target time positive", PMC_RF_MAX_REPEATS);
		return -EINVAL;
	}
	if ((rc = cpus_allowed(cpus, MAX_THREADS, &ncpus)) < 0) {
		snprintf(err, errlen, "cannot read the CPUs allowed to this process: %s", strerror(-rc));
		return rc;
	}
	pmc_rf_caches_read(&caches);
	ret->n = 0;
	ret->measured_at = (long long)time(NULL);
	measure_compute(o, ret, true, cpus, ncpus);
	measure_compute(o, ret, false, cpus, ncpus);
	measure_bandwidth(o, ret, &caches, cpus, ncpus);
	return 0;
}
