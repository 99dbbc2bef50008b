/* SPDX-License-Identifier: MIT */
/* pmctool check: the measurements and the verdict of each item (check.h). Pure but for ops->measure. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "arch/arch.h"
#include "info/check.h"
#include "sys/sysfs.h"
#include "util/util.h"

void pmc_check_sample_read_method(struct pmc_check_sample *s, const char *msg)
{
	if (!strncmp(msg, "counters read with ", 19))
		msg += 19;
	snprintf(s->read_method, sizeof(s->read_method), "%.255s", msg);
	s->in_process = strstr(msg, "(in process)") && !strstr(msg, "read()");
}

const char *pmc_check_verdict_name(enum pmc_check_verdict v)
{
	switch (v) {
	case PMC_CHECK_TRUSTWORTHY:
		return "trustworthy";
	case PMC_CHECK_DEGRADED:
		return "degraded";
	default:
		return "unavailable";
	}
}

int pmc_check_exit_status(const struct pmc_check_result *r)
{
	return r->overall == PMC_CHECK_TRUSTWORTHY ? 0 : r->overall == PMC_CHECK_DEGRADED ? 10 : 11;
}

static struct pmc_check_item *item(struct pmc_check_result *r, const char *name, const char *title,
				   enum pmc_check_verdict v, const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static struct pmc_check_item *item(struct pmc_check_result *r, const char *name, const char *title,
				   enum pmc_check_verdict v, const char *fmt, ...)
{
	struct pmc_check_item *it;
	va_list ap;

	if (r->n >= PMC_CHECK_MAX_ITEMS)
		return NULL;
	it = &r->item[r->n++];
	snprintf(it->name, sizeof(it->name), "%s", name);
	snprintf(it->title, sizeof(it->title), "%s", title);
	it->verdict = v;
	va_start(ap, fmt);
	vsnprintf(it->detail, sizeof(it->detail), fmt, ap);
	va_end(ap);
	return it;
}

/* Append to an item's detail. */
static void more(struct pmc_check_item *it, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void more(struct pmc_check_item *it, const char *fmt, ...)
{
	size_t len;
	va_list ap;

	if (!it)
		return;
	len = strlen(it->detail);
	if (len + 1 >= sizeof(it->detail))
		return;
	va_start(ap, fmt);
	vsnprintf(it->detail + len, sizeof(it->detail) - len, fmt, ap);
	va_end(ap);
}

static void worsen(struct pmc_check_item *it, enum pmc_check_verdict v)
{
	if (it && v > it->verdict)
		it->verdict = v;
}

static const struct pmc_check_count *find(const struct pmc_check_sample *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->ev[i].name, name))
			return &s->ev[i];
	return NULL;
}

static void measure(const struct pmc_check_ops *ops, const struct pmc_check_req *req, struct pmc_check_sample *s)
{
	memset(s, 0, sizeof(*s));
	if (ops->measure(ops->ctx, req, s) && !s->rc) {
		s->rc = -1;
		snprintf(s->err, sizeof(s->err), "the measurement could not be run");
	}
}

static void req_init(struct pmc_check_req *q, uint64_t iters, int cpu)
{
	memset(q, 0, sizeof(*q));
	q->iters = iters;
	q->cpu = cpu;
}

static void req_add(struct pmc_check_req *q, const char *ev)
{
	if (q->nevents < PMC_CHECK_MAX_EVENTS)
		q->events[q->nevents++] = ev;
}

/* An exact pair: the kernel at ITERS_A and ITERS_B; the difference cancels the reads' own constant cost. */
struct pair {
	struct pmc_check_sample a, b;
};

enum delta_state { DELTA_EXACT, DELTA_CLOSE, DELTA_WRONG, DELTA_ZERO, DELTA_NOT_COUNTED, DELTA_NO_EXPECTATION };

/* The measured difference of event name between the two runs, against the declared difference. */
static enum delta_state delta(const struct pair *p, const char *name, double want_a, double want_b, double *ret_got,
			      double *ret_want, const char **ret_reason)
{
	const struct pmc_check_count *a = find(&p->a, name), *b = find(&p->b, name);

	*ret_got = *ret_want = 0;
	*ret_reason = "not in the report";
	if (!a || !b || !a->counted || !b->counted) {
		if (a && !a->counted)
			*ret_reason = a->reason;
		else if (b && !b->counted)
			*ret_reason = b->reason;
		return DELTA_NOT_COUNTED;
	}
	*ret_got = b->value - a->value;
	*ret_want = want_b - want_a;
	if (a->value == 0 && b->value == 0)
		return DELTA_ZERO;
	if (want_a <= 0 || want_b <= 0)
		return DELTA_NO_EXPECTATION;
	if (*ret_got == *ret_want)
		return DELTA_EXACT;
	return fabs(*ret_got - *ret_want) <= 1e-4 * *ret_want ? DELTA_CLOSE : DELTA_WRONG;
}

/* One event's exactness into it: returns the verdict it deserves. required: a missing count is degraded (instructions),
 * else a note (branches: not every PMU has the event). */
static enum pmc_check_verdict judge_delta(struct pmc_check_item *it, const struct pair *p, const char *name,
					  double want_a, double want_b, bool required)
{
	const char *reason;
	double got, want;

	switch (delta(p, name, want_a, want_b, &got, &want, &reason)) {
	case DELTA_EXACT:
		more(it, "%s %.0f = %.0f declared (exact); ", name, got, want);
		return PMC_CHECK_TRUSTWORTHY;
	case DELTA_CLOSE:
		more(it, "%s %.0f for %.0f declared (off by %+.0f, under 0.01%%: an interrupt or fault counted on some "
			 "CPUs); ", name, got, want, got - want);
		return PMC_CHECK_TRUSTWORTHY;
	case DELTA_WRONG:
		more(it, "%s %.0f for %.0f declared: off by %+.0f (%+.3f%%): this counter does not count what ran; ", name,
		     got, want, got - want, want ? 100 * (got - want) / want : 0);
		return PMC_CHECK_DEGRADED;
	case DELTA_ZERO:
		more(it, "%s opens but reads 0 on a loop that executes it (a partial virtual PMU?); ", name);
		return PMC_CHECK_DEGRADED;
	case DELTA_NO_EXPECTATION:
		more(it, "%s %.0f (the kernel declares no count to compare with); ", name, got);
		return PMC_CHECK_TRUSTWORTHY;
	default:
		more(it, "%s not counted: %s; ", name, reason);
		return required ? PMC_CHECK_DEGRADED : PMC_CHECK_TRUSTWORTHY;
	}
}

static void trim(struct pmc_check_item *it)
{
	size_t n;

	if (!it)
		return;
	n = strlen(it->detail);
	while (n && (it->detail[n - 1] == ' ' || it->detail[n - 1] == ';'))
		it->detail[--n] = '\0';
}

static bool pair_failed(struct pmc_check_result *r, const char *name, const char *title, const struct pair *p)
{
	const struct pmc_check_sample *bad = p->a.rc ? &p->a : p->b.rc ? &p->b : NULL;

	if (!bad)
		return false;
	item(r, name, title, PMC_CHECK_DEGRADED, "the measurement failed: %s", bad->err);
	return true;
}

/* Exactness of instructions:u and branches:u on one core type, read the default way (in process where allowed). */
static void check_exact(struct pmc_check_result *r, const char *core, const struct pair *p)
{
	char name[32], title[64];
	struct pmc_check_item *it;
	enum pmc_check_verdict v;

	snprintf(name, sizeof(name), "exact:%s", core);
	snprintf(title, sizeof(title), "exact counts (%s)", core);
	if (pair_failed(r, name, title, p))
		return;
	it = item(r, name, title, PMC_CHECK_TRUSTWORTHY, "loop kernel, %u minus %u iterations: ", PMC_CHECK_ITERS_B,
		  PMC_CHECK_ITERS_A);
	v = judge_delta(it, p, "instructions:u", p->a.expected_instructions, p->b.expected_instructions, true);
	worsen(it, v);
	worsen(it, judge_delta(it, p, "branches:u", p->a.expected_branches, p->b.expected_branches, false));
	more(it, "read with %s", p->b.read_method[0] ? p->b.read_method : "(not said)");
	trim(it);
}

/* The same loop read through read() only: its difference must equal the in-process one to the count. */
static void check_read_paths(struct pmc_check_result *r, const struct pmc_check_env *env, const char *core,
			     const struct pair *inproc, const struct pair *sys)
{
	const struct pmc_check_count *ia = find(&inproc->a, "instructions:u"), *ib = find(&inproc->b, "instructions:u");
	const struct pmc_check_count *sa = find(&sys->a, "instructions:u"), *sb = find(&sys->b, "instructions:u");
	char name[32], title[64];
	double di, ds;

	snprintf(name, sizeof(name), "read-paths:%s", core);
	snprintf(title, sizeof(title), "in-process read vs read() (%s)", core);
	if (pair_failed(r, name, title, inproc) || pair_failed(r, name, title, sys))
		return;
	if (!ia || !ib || !sa || !sb || !ia->counted || !ib->counted || !sa->counted || !sb->counted) {
		item(r, name, title, PMC_CHECK_UNAVAILABLE, "instructions:u was not counted, so there is nothing to compare");
		return;
	}
	di = ib->value - ia->value;
	ds = sb->value - sa->value;
	if (!env->user_read_name) {
		item(r, name, title, PMC_CHECK_UNAVAILABLE, "this CPU has no in-process counter read: every count goes "
		     "through read() (%.0f instructions:u over the loop)", ds);
		return;
	}
	if (!inproc->a.in_process || !inproc->b.in_process) {
		item(r, name, title, PMC_CHECK_DEGRADED, "the in-process read (%s) was not used: %s; counts go through "
		     "read(), a system call per read (correct, but slower and not usable inside a tight region)",
		     env->user_read_name, inproc->b.read_method[0] ? inproc->b.read_method : "the report does not say why");
		return;
	}
	if (di == ds)
		item(r, name, title, PMC_CHECK_TRUSTWORTHY, "%s and read() agree: instructions:u %.0f = %.0f over the "
		     "loop", env->user_read_name, di, ds);
	else
		item(r, name, title, PMC_CHECK_DEGRADED, "%s and read() disagree: instructions:u %.0f in process, %.0f "
		     "through read() (%+.0f): one read path is wrong", env->user_read_name, di, ds, di - ds);
}

/* :u must not move with kernel work: in read() mode the kernel runs inside the counted window (the reads themselves,
 * timer interrupts); instructions:k shows it ran while instructions:u stayed exact. */
static void check_user_kernel(struct pmc_check_result *r, const struct pmc_check_env *env, const struct pair *sys)
{
	const struct pmc_check_count *kb = find(&sys->b, "instructions:k");
	double got, want;
	const char *reason;
	enum delta_state st;

	if (pair_failed(r, "user-kernel", "user/kernel separation", sys))
		return;
	st = delta(sys, "instructions:u", sys->a.expected_instructions, sys->b.expected_instructions, &got, &want,
		   &reason);
	if (st != DELTA_EXACT && st != DELTA_CLOSE) {
		item(r, "user-kernel", "user/kernel separation", PMC_CHECK_DEGRADED,
		     "instructions:u over the loop read with read() is %.0f for %.0f declared: kernel work may be counted "
		     "as user work (or the count is wrong; see the exact item)", got, want);
		return;
	}
	if (!env->can_count_kernel || !kb || !kb->counted) {
		item(r, "user-kernel", "user/kernel separation", PMC_CHECK_UNAVAILABLE,
		     "instructions:u stayed exact (%.0f) with the reads' system calls inside the window, but kernel-mode "
		     "counting is not allowed here (%s), so no kernel work could be shown to have run", got,
		     kb && !kb->counted ? kb->reason : "perf_event_paranoid");
		return;
	}
	if (kb->value <= 0) {
		item(r, "user-kernel", "user/kernel separation", PMC_CHECK_DEGRADED,
		     "instructions:k read 0 although the reads entered the kernel inside the window: kernel-mode "
		     "counting does not work (instructions:u %.0f, exact)", got);
		return;
	}
	item(r, "user-kernel", "user/kernel separation", PMC_CHECK_TRUSTWORTHY,
	     "instructions:u stayed exact (%.0f) while the kernel ran %.0f instructions:k in the same window", got,
	     kb->value);
}

/* The fixed counters: cycles, instructions, ref-cycles and slots where the CPU has them, counting and consistent. */
static void check_fixed(struct pmc_check_result *r, const struct pmc_check_env *env, const struct pmc_check_ops *ops)
{
	static const char *const names[] = { "cycles:u", "instructions:u", "ref-cycles:u", "slots:u" };
	struct pmc_check_sample s;
	struct pmc_check_req q;
	struct pmc_check_item *it;
	const struct pmc_check_count *cy, *in;

	req_init(&q, PMC_CHECK_ITERS_B, env->core[0].cpu);
	for (size_t i = 0; i < PMC_ARRAY_SIZE(names); i++)
		if (i != 3 || env->has_slots)
			req_add(&q, names[i]);
	measure(ops, &q, &s);
	if (s.rc) {
		item(r, "fixed", "fixed counters", PMC_CHECK_DEGRADED, "the measurement failed: %s", s.err);
		return;
	}
	it = item(r, "fixed", "fixed counters", PMC_CHECK_TRUSTWORTHY, "%s", "");
	for (size_t i = 0; i < q.nevents; i++) {
		const struct pmc_check_count *c = find(&s, q.events[i]);
		bool required = i < 2 || (i == 3 && env->has_slots);

		if (!c || !c->counted) {
			more(it, "%s %s: %s; ", q.events[i], required ? "not counted" : "not on this CPU",
			     c ? c->reason : "not in the report");
			if (required)
				worsen(it, PMC_CHECK_DEGRADED);
		} else if (c->value <= 0) {
			more(it, "%s opens but reads 0 (a partial virtual PMU?); ", q.events[i]);
			worsen(it, PMC_CHECK_DEGRADED);
		} else {
			more(it, "%s %.0f; ", q.events[i], c->value);
		}
	}
	cy = find(&s, "cycles:u");
	in = find(&s, "instructions:u");
	if (cy && in && cy->counted && in->counted && cy->value > 0 && in->value > 0) {
		double ipc = in->value / cy->value;

		/* The loop retires at most a few instructions a cycle on any core; far outside, one of them is wrong. */
		if (ipc > 16 || ipc < 0.01) {
			more(it, "instructions per cycle %.3g on the loop: cycles and instructions disagree; ", ipc);
			worsen(it, PMC_CHECK_DEGRADED);
		} else {
			more(it, "instructions per cycle %.3g; ", ipc);
		}
	}
	trim(it);
}

static void check_width(struct pmc_check_result *r, const struct pair *p)
{
	unsigned w = p->b.counter_width ? p->b.counter_width : p->a.counter_width;

	if (!w)
		item(r, "width", "counter width", PMC_CHECK_UNAVAILABLE, "no perf page said (the counters were not read "
		     "in process): the kernel still folds counter overflows into 64-bit counts");
	else if (w < 31)
		item(r, "width", "counter width", PMC_CHECK_DEGRADED, "%u-bit counters: they wrap within a second; counts "
		     "rely on the kernel's overflow handling", w);
	else
		item(r, "width", "counter width", PMC_CHECK_TRUSTWORTHY, "%u-bit counters (in-process reads extend them; "
		     "the kernel folds overflows into 64-bit counts)", w);
}

static void check_watchdog(struct pmc_check_result *r, const struct pmc_check_env *env)
{
	if (env->nmi_watchdog < 0)
		item(r, "nmi-watchdog", "NMI watchdog", PMC_CHECK_TRUSTWORTHY, "not readable (/proc/sys/kernel/nmi_watchdog):"
		     " if it is on it may hold one counter");
	else if (env->nmi_watchdog == 0)
		item(r, "nmi-watchdog", "NMI watchdog", PMC_CHECK_TRUSTWORTHY, "off: no counter is held by the kernel");
	else
		item(r, "nmi-watchdog", "NMI watchdog", PMC_CHECK_DEGRADED, "on: it holds one counter (cycles) for itself, "
		     "so one counter fewer is left to events (more batches, or multiplexing under --batch=multiplex); "
		     "'sysctl kernel.nmi_watchdog=0' as root frees it (pmctool never changes it)");
}

/* More events than counters, time-shared by the kernel, on a loop of known count: how far off are the scaled counts? */
static void check_multiplex(struct pmc_check_result *r, const struct pmc_check_env *env,
			    const struct pmc_check_ops *ops)
{
	unsigned budget = env->gp_budget ? env->gp_budget : 6, n = budget + 2;
	double worst = 0, want, lo = 100, hi = 0;
	struct pmc_check_sample s;
	struct pmc_check_req q;
	const char *uncounted = NULL;
	struct pmc_check_item *it;
	size_t counted = 0;

	if (n > PMC_CHECK_MAX_EVENTS)
		n = PMC_CHECK_MAX_EVENTS;
	/* The truth: the same command counted by one counter, never multiplexed. */
	req_init(&q, PMC_CHECK_ITERS_MUX, -1);
	q.command = true;
	req_add(&q, "instructions:u");
	measure(ops, &q, &s);
	want = s.rc || !s.n || !s.ev[0].counted ? 0 : s.ev[0].value;
	if (s.rc || want <= 0) {
		item(r, "multiplex", "multiplexed counts", s.rc ? PMC_CHECK_DEGRADED : PMC_CHECK_UNAVAILABLE,
		     "the exact count of the loop command failed: %s", s.rc ? s.err : s.n ? s.ev[0].reason : "no event");
		return;
	}
	q.multiplex = true;
	q.nevents = 0;
	for (unsigned i = 0; i < n; i++)
		req_add(&q, "instructions:u");
	measure(ops, &q, &s);
	if (s.rc) {
		item(r, "multiplex", "multiplexed counts", PMC_CHECK_DEGRADED, "the measurement failed: %s", s.err);
		return;
	}
	for (size_t i = 0; i < s.n; i++) {
		const struct pmc_check_count *c = &s.ev[i];
		double err;

		if (!c->counted) {
			if (!uncounted)
				uncounted = c->reason;
			continue;
		}
		counted++;
		err = want > 0 ? fabs(c->value - want) / want : 0;
		worst = err > worst ? err : worst;
		if (c->running_pct >= 0) {
			lo = c->running_pct < lo ? c->running_pct : lo;
			hi = c->running_pct > hi ? c->running_pct : hi;
		}
	}
	if (!counted)
		it = item(r, "multiplex", "multiplexed counts", PMC_CHECK_DEGRADED,
			  "instructions:u was not counted under --batch=multiplex");
	else if (lo >= 99.99)
		it = item(r, "multiplex", "multiplexed counts", PMC_CHECK_TRUSTWORTHY, "%zu events on %u counters were all "
		     "counted all the time (the kernel did not need to time-share them); worst error %.4f%%", counted,
		     budget, 100 * worst);
	else
		it = item(r, "multiplex", "multiplexed counts", worst <= PMC_CHECK_MUX_TOL ? PMC_CHECK_TRUSTWORTHY
										: PMC_CHECK_DEGRADED,
		     "%zu instructions:u events time-shared %u counters on the loop as a command (each ran %.1f-%.1f%% of "
		     "the time); scaled counts within %.3f%% of its count by one counter, %.0f%s", counted, budget, lo, hi,
		     100 * worst, want,
		     worst <= PMC_CHECK_MUX_TOL ? "" : ": multiplexed estimates are off here; use rerun batches (the default)");
	/* An event the kernel never gave a counter is time-sharing gone wrong, whatever the others' scaling. */
	if (uncounted) {
		more(it, "; %zu of %zu never counted: %s", s.n - counted, s.n, uncounted);
		worsen(it, PMC_CHECK_DEGRADED);
	}
}

static void pair_measure(const struct pmc_check_ops *ops, const struct pmc_check_env *env, int cpu, bool sys,
			 struct pair *p)
{
	struct pmc_check_req q;

	req_init(&q, PMC_CHECK_ITERS_A, cpu);
	q.syscall_reads = sys;
	req_add(&q, "instructions:u");
	req_add(&q, "branches:u");
	if (sys && env->can_count_kernel)
		req_add(&q, "instructions:k");
	measure(ops, &q, &p->a);
	q.iters = PMC_CHECK_ITERS_B;
	measure(ops, &q, &p->b);
}

/* Whether breakpoints count here: the probe's execute breakpoint on a function of pmctool's own. Breakpoints that are
 * accepted and never fire read 0 for every address: degraded, and no other item may say they count. */
static void check_breakpoints(struct pmc_check_result *r, const struct pmc_check_env *env)
{
	char line[PMC_CHECK_TEXT];

	if (!env->bp_probed)
		return;
	pmc_bp_probe_describe(&env->bp, line, sizeof(line));
	item(r, "breakpoints", "hardware breakpoints",
	     env->bp.fires == PMC_BP_FIRE ? PMC_CHECK_TRUSTWORTHY
	     : env->bp.fires == PMC_BP_UNKNOWN ? PMC_CHECK_UNAVAILABLE : PMC_CHECK_DEGRADED,
	     "%s%s", line, env->bp.fires == PMC_BP_NEVER ? ": mem:ADDR events are <not counted> on this machine" : "");
}

static void summarize(struct pmc_check_result *r)
{
	size_t deg = 0;

	r->overall = PMC_CHECK_TRUSTWORTHY;
	for (size_t i = 0; i < r->n; i++)
		if (r->item[i].verdict == PMC_CHECK_DEGRADED) {
			r->overall = PMC_CHECK_DEGRADED;
			deg++;
		}
	if (r->overall == PMC_CHECK_TRUSTWORTHY)
		snprintf(r->summary, sizeof(r->summary), "counts on this machine can be trusted (%zu items checked)", r->n);
	else
		snprintf(r->summary, sizeof(r->summary), "counts can be used with care: %zu of %zu items degraded (see "
			 "each item)", deg, r->n);
}

void pmc_check_run(const struct pmc_check_env *env, const struct pmc_check_ops *ops, struct pmc_check_result *ret)
{
	static struct pair inproc, sys; /* large: not on the stack */

	memset(ret, 0, sizeof(*ret));
	if (env->pmu.verdict == PMC_VERDICT_UNAVAILABLE) {
		item(ret, "pmu", "hardware counters", PMC_CHECK_UNAVAILABLE, "%s%s%s", env->pmu.reason,
		     env->pmu.action[0] ? "; " : "", env->pmu.action);
		item(ret, "instructions", "instruction counts", PMC_CHECK_UNAVAILABLE, "%s",
		     env->emulator ? "no counter counts instructions here; an emulator can count user-mode instructions "
				     "exactly (slowly): pmctool stat --emulate -- COMMAND runs COMMAND under valgrind"
				   : "no counter counts instructions here, and no emulator (valgrind) is installed to count "
				     "them instead");
		check_breakpoints(ret, env);
		ret->overall = PMC_CHECK_UNAVAILABLE;
		snprintf(ret->summary, sizeof(ret->summary), "no hardware counting here: %s", env->pmu.reason);
		return;
	}
	item(ret, "pmu", "hardware counters", env->pmu.verdict == PMC_VERDICT_DEGRADED ? PMC_CHECK_DEGRADED
											: PMC_CHECK_TRUSTWORTHY,
	     "%s%s%s", env->pmu.verdict == PMC_VERDICT_DEGRADED ? env->pmu.reason : "a hardware event opens",
	     env->pmu.action[0] ? "; " : "", env->pmu.action);
	for (size_t c = 0; c < env->ncores && c < PMC_CHECK_MAX_CORES; c++) {
		pair_measure(ops, env, env->core[c].cpu, false, &inproc);
		pair_measure(ops, env, env->core[c].cpu, true, &sys);
		check_exact(ret, env->core[c].pmu, &inproc);
		check_read_paths(ret, env, env->core[c].pmu, &inproc, &sys);
		if (c == 0) {
			check_user_kernel(ret, env, &sys);
			check_width(ret, &inproc);
		}
	}
	if (!env->quick) {
		check_fixed(ret, env, ops);
		check_multiplex(ret, env, ops);
		check_watchdog(ret, env);
	}
	check_breakpoints(ret, env);
	summarize(ret);
}

/* The first CPU of a cpulist ("0-7,16-23" -> 0), -1 when none. */
static int first_cpu(const char *list)
{
	int cpu = -1;

	if (list[0] && sscanf(list, "%d", &cpu) != 1)
		cpu = -1;
	return cpu;
}

void pmc_check_env_from(const struct pmc_inventory *inv, struct pmc_check_env *ret)
{
	char path[512];
	const char *core = NULL;

	memset(ret, 0, sizeof(*ret));
	ret->pmu = inv->verdict;
	ret->nmi_watchdog = inv->nmi_watchdog;
	ret->gp_budget = inv->budget_error ? 0 : inv->gp_budget;
	ret->can_count_kernel = inv->can_count_kernel;
	ret->user_read_name = inv->user_read_name;
	/* Hybrid: every core PMU that names its CPUs is a core type of its own. */
	for (size_t i = 0; i < inv->npmus && ret->ncores < PMC_CHECK_MAX_CORES; i++) {
		const struct pmc_sysfs_pmu *p = &inv->pmus[i];

		if (!p->is_core || !p->cpus[0])
			continue;
		snprintf(ret->core[ret->ncores].pmu, sizeof(ret->core[0].pmu), "%s", p->name);
		ret->core[ret->ncores++].cpu = first_cpu(p->cpus);
	}
	if (ret->ncores < 2) {
		ret->ncores = 1;
		ret->core[0].cpu = -1;
		core = pmc_arch_core_pmu_dir(path, sizeof(path)) == 0 ? strrchr(path, '/') : NULL;
		snprintf(ret->core[0].pmu, sizeof(ret->core[0].pmu), "%s", core ? core + 1 : "core");
	}
	if (pmc_arch_core_pmu_dir(path, sizeof(path)) == 0 && strlen(path) + 13 < sizeof(path)) {
		strcat(path, "/events/slots");
		ret->has_slots = access(path, F_OK) == 0;
	}
	ret->bp = *pmc_perf_probe_breakpoints();
	ret->bp_probed = true;
}
