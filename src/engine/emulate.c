/* SPDX-License-Identifier: MIT */
/*
 * The engine, emulated counts (issue 25; run/emulate.h): instructions:u@emulated, or every instructions:u under
 * --emulate, counted by valgrind where no PMU counts. Each run executes the command twice: natively (its
 * time, exit status and resources are the report's, as any run's) and then under valgrind (the count, and the
 * slowdown). An emulated event never shares a measurement with a counter.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/engine.h"
#include "engine/exec.h"
#include "engine/fields.h"
#include "run/emulate.h"
#include "run/launch.h"

#define EMULATED_SUFFIX "@emulated"

/* The instructions counter's encoding in user mode only: the only thing valgrind's count stands for. */
static bool is_user_instructions(const struct pmc_event *ev)
{
	return ev->attr.type == PERF_TYPE_HARDWARE && ev->attr.config == PERF_COUNT_HW_INSTRUCTIONS &&
	       ev->attr.exclude_kernel && !ev->attr.exclude_user;
}

int pmc_eng_emulated_resolve(bool emulate, const char *spec, struct pmc_event *ev, bool *ret)
{
	size_t len = strlen(spec), sl = strlen(EMULATED_SUFFIX);
	bool suffixed = len > sl && !strcmp(spec + len - sl, EMULATED_SUFFIX);
	char base[PMC_NAME_MAX];
	struct pmc_resolve_error err;

	*ret = false;
	if (!suffixed && !emulate)
		return 0;
	snprintf(base, sizeof(base), "%.*s", (int)(suffixed ? len - sl : len), spec);
	memset(&err, 0, sizeof(err));
	if (pmc_event_resolve(base, ev, &err) < 0)
		return 0; /* the caller resolves the spelling again and says what is wrong with it */
	if (!is_user_instructions(ev)) {
		pmc_diag_error("'%s' cannot be emulated: valgrind counts the user-mode instructions a command executes, "
			       "so only instructions:u can be (as instructions:u@emulated, or instructions:u under "
			       RQ_EMULATE "); measure %s in a run of its own without " RQ_EMULATE, spec, base);
		return PMC_EXIT_USAGE;
	}
	/* The row says how it was counted. */
	snprintf(ev->name, sizeof(ev->name), "%.*s" EMULATED_SUFFIX, (int)(sizeof(ev->name) - sizeof(EMULATED_SUFFIX)),
		 base);
	ev->cls = PMC_CLASS_EMULATED;
	ev->flags &= ~PMC_EVF_HARDWARE;
	ev->fixed_index = -1;
	*ret = true;
	return 0;
}

bool pmc_eng_emulated(const struct pmc_engine *se)
{
	for (size_t i = 0; i < se->n; i++)
		if (se->evs[i].cls == PMC_CLASS_EMULATED)
			return true;
	return false;
}

int pmc_eng_emulate_check(const struct pmc_engine *se, const struct pmc_engine_opts *o)
{
	char vg[4096];

	if (!pmc_eng_emulated(se))
		return 0;
	for (size_t i = 0; i < se->n; i++)
		if (se->evs[i].cls != PMC_CLASS_EMULATED) {
			pmc_diag_error("'%s' is counted by a counter and %s by valgrind: an emulated count is measured "
				       "alone (the command runs under valgrind); measure %s in another run",
				       se->evs[i].name, o->emulate ? RQ_EMULATE "'s instructions:u"
							    : "the @emulated event",
				       se->evs[i].name);
			return PMC_EXIT_USAGE;
		}
	if (!o->argv || o->k || o->regions || pmc_eng_scope_wanted(o) || o->pre_cmd || o->post_cmd ||
	    o->batch == PMC_BATCH_MULTIPLEX || o->nmetrics || o->topdown_level) {
		pmc_diag_error("emulated counts are of a command pmctool launches under valgrind: not with "
			       RQ_KERNEL ", " RQ_REGIONS ", " RQ_PIDS ", " RQ_TIDS ", " RQ_SYSTEM_WIDE ", " RQ_CPUS ", "
			       RQ_INTERVAL_MS ", " RQ_DELAY_MS ", " RQ_CONTROL ", " RQ_PRE_CMD "/" RQ_POST_CMD ", "
			       RQ_BATCHING "=multiplex, " RQ_METRICS " or " RQ_TOPDOWN_LEVEL);
		return PMC_EXIT_USAGE;
	}
	if (!pmc_emulator_find(vg, sizeof(vg))) {
		pmc_diag_error("emulated counts need valgrind (not found on PATH): install it (Debian: apt-get install "
			       "valgrind), or count with a hardware counter where the machine has one");
		return PMC_EXIT_USAGE;
	}
	return 0;
}

/* One execution without counters: the run's time, exit status and resources. */
static int run_native(const struct pmc_engine_opts *o, struct pmc_measure_out *out)
{
	const struct pmc_eng_workload w = { .argv = o->argv };
	struct pmc_measure_req req = { 0 };
	struct pmc_launch_error le = { 0 };

	memset(out, 0, sizeof(*out));
	if (pmc_eng_cmd_run(&w, &req, out, &le) < 0)
		return pmc_eng_report_launch_failure(o, &le);
	return 0;
}

static int run_emulated(const struct pmc_engine_opts *o, const char *vg, const char *dir,
			struct pmc_measure_out *out, struct pmc_emulate_count *cnt)
{
	struct pmc_eng_workload w = { .argv = NULL };
	struct pmc_measure_req req = { 0 };
	struct pmc_launch_error le = { 0 };
	char store[4200], why[300];
	size_t n = 0;
	char **words;
	int r;

	while (o->argv[n])
		n++;
	if (!(words = calloc(PMC_EMULATE_MAX_ARGS + n + 1, sizeof(*words))))
		return PMC_EXIT_INTERNAL;
	r = pmc_emulate_argv(vg, dir, o->argv, words, PMC_EMULATE_MAX_ARGS + n + 1, store, sizeof(store));
	w.argv = words;
	memset(out, 0, sizeof(*out));
	if (r < 0 || pmc_eng_cmd_run(&w, &req, out, &le) < 0) {
		free(words);
		if (r < 0) {
			pmc_diag_error(RQ_EMULATE ": the directory for valgrind's counts has too long a name (%s)",
				       dir);
			return PMC_EXIT_INTERNAL;
		}
		return pmc_eng_report_launch_failure(o, &le);
	}
	free(words);
	if (pmc_emulate_collect(dir, o->argv, cnt, why, sizeof(why)) < 0) {
		pmc_diag_error(RQ_EMULATE ": %s (valgrind exited with status %d)", why,
			       pmc_wait_status_code(out->wait_status));
		return PMC_EXIT_NOCOUNT;
	}
	return 0;
}

/* The emulator executor (the loop's ctx). */
struct emulate_exec {
	struct pmc_engine *se;
	const struct pmc_engine_opts *o;
	struct pmc_report *rep;
	const char *vg, *dir;
	double emu_ns;                /* the emulated executions' wall time, summed */
	struct pmc_emulate_count cnt; /* the last emulated execution's count */
};

/* Run r (the loop's executor, every event at once): the native execution, then the emulated one; the count goes
 * to every emulated event (they are one). */
static int emulate_step(void *ctx, struct pmc_eng_step *s)
{
	struct emulate_exec *e = ctx;
	struct pmc_engine *se = e->se;
	const struct pmc_engine_opts *o = e->o;
	struct pmc_report *rep = e->rep;
	struct pmc_emulate_count *cnt = &e->cnt;
	unsigned run = s->run;
	struct pmc_measure_out nat, emu;
	struct pmc_report_exec x = { .run = run };
	int rc;

	if ((rc = run_native(o, &nat)))
		return rc;
	x.interrupted = nat.interrupted || pmc_eng_stopped(se) != 0;
	x.wall_ns = x.counting_ns = (double)nat.wall_ns;
	x.user_s = pmc_eng_tv_s(&nat.ru.ru_utime);
	x.sys_s = pmc_eng_tv_s(&nat.ru.ru_stime);
	x.exit_status = pmc_wait_status_code(nat.wait_status);
	x.signal = WIFSIGNALED(nat.wait_status) ? WTERMSIG(nat.wait_status) : 0;
	if (!x.interrupted && (rc = run_emulated(o, e->vg, e->dir, &emu, cnt)))
		return rc;
	x.interrupted |= pmc_eng_stopped(se) != 0;
	for (size_t i = 0; i < rep->nevents; i++) {
		struct pmc_count c = { .status = PMC_COUNT_NOT_COUNTED };

		if (!x.interrupted) {
			c.value = cnt->instructions;
			c.enabled = c.running = emu.wall_ns ? emu.wall_ns : 1;
			c.status = PMC_COUNT_OK;
		}
		if (pmc_eng_push_sample(&rep->events[i], run, 0, &c))
			return PMC_EXIT_INTERNAL;
	}
	if (!x.interrupted && pmc_wait_status_code(emu.wait_status) != x.exit_status)
		pmc_report_add_check(rep, PMC_CHECK_WARN, "emulated-status",
				     "run %u: the command exited %d natively but %d under valgrind: the two executions "
				     "differed, so the count may not be of what the native run did", run + 1, x.exit_status,
				     pmc_wait_status_code(emu.wait_status));
	e->emu_ns += (double)emu.wall_ns;
	return pmc_eng_exec_record(rep, &x) ? PMC_EXIT_INTERNAL : 0;
}

int pmc_eng_emulate_measure(struct pmc_engine *se, const struct pmc_engine_opts *o, struct pmc_report *rep)
{
	struct emulate_exec e = { .se = se, .o = o, .rep = rep };
	struct pmc_eng_exec ex = { .all_at_once = true, .run = emulate_step, .ctx = &e };
	char vg[4096], dir[4096];
	const char *tmp = getenv("TMPDIR");
	double nat_ns = 0;
	unsigned done = 0;
	int rc = 0;

	if (!pmc_emulator_find(vg, sizeof(vg)))
		return PMC_EXIT_USAGE; /* pmc_eng_emulate_check said why */
	rep->events = calloc(se->n ? se->n : 1, sizeof(*rep->events));
	if (!rep->events)
		return PMC_EXIT_INTERNAL;
	rep->nevents = se->n;
	for (size_t i = 0; i < se->n; i++)
		rep->events[i].ev = se->evs[i];
	rep->mode = "single";
	rep->nbatches = 1;
	/* A private directory for valgrind's files: 0700, ours, removed with them. */
	snprintf(dir, sizeof(dir), "%s/pmctool-emulate.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		pmc_diag_error(RQ_EMULATE ": cannot make a directory for valgrind's counts under %s: %s (set TMPDIR)",
			       tmp && *tmp ? tmp : "/tmp", strerror(errno));
		return PMC_EXIT_INTERNAL;
	}
	e.vg = vg;
	e.dir = dir;
	rc = pmc_eng_loop(se, o, rep, &ex, &done);
	{
		struct pmc_emulate_count rest;
		char why[64];

		pmc_emulate_collect(dir, NULL, &rest, why, sizeof(why)); /* removes what an interrupted run left */
		rmdir(dir);
	}
	for (size_t i = 0; i < rep->nexecs; i++)
		nat_ns += rep->execs[i].wall_ns;
	if (done) {
		pmc_report_set_const(rep, "EMULATED_WALL_NS", e.emu_ns / done);
		pmc_report_add_check(rep, PMC_CHECK_INFO, "emulated",
				     "counted by valgrind (lackey), an emulator, not a counter: user-mode instructions "
				     "of the CPU it emulates; %.1fx slower (%.3f s vs %.3f s natively); the command ran "
				     "twice a run (natively for the times shown, then emulated)",
				     nat_ns > 0 ? e.emu_ns / nat_ns : 0, e.emu_ns / done / 1e9, nat_ns / (double)rep->nexecs / 1e9);
		if (!e.cnt.top_seen)
			pmc_report_add_check(rep, PMC_CHECK_WARN, "emulated-exec",
					     "'%.100s' replaced itself with exec: valgrind counts an image only when it ends, "
					     "so what it ran before the exec is not in the count (a PMU would count it)",
					     o->argv[0]);
		else if (e.cnt.uncounted)
			pmc_report_add_check(rep, PMC_CHECK_WARN, "emulated-exec",
					     "%u process image%s replaced itself with exec (first: '%.100s'): valgrind counts "
					     "an image only when it ends, so what ran before each exec is not in the count (a "
					     "PMU would count it)", e.cnt.uncounted, e.cnt.uncounted == 1 ? "" : "s",
					     e.cnt.uncounted_cmd);
	}
	pmc_eng_runs_finish(se, rep, done);
	return rc;
}
