/* SPDX-License-Identifier: MIT */
/* pmctool check: can counts be trusted on this machine, now? (info/check.h judges; this file measures and prints.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "arch/arch.h"
#include "cli/commands.h"
#include "cli/multi.h"
#include "cli/opts.h"
#include "info/check.h"
#include "cli/check_uncore.h"
#include "output/output.h"
#include "run/emulate.h"
#include "util/file_read.h"
#include "util/json_read.h"
#include "util/util.h"

struct check_cli {
	bool json;
	bool quick;
};

static const struct pmc_opt check_opts[] = {
	{ .long_name = "json", .kind = PMC_OPT_FLAG, .field = PMC_OPT_FIELD(struct check_cli, json),
	  .help = "one JSON document instead of text" },
	{ .long_name = "quick", .kind = PMC_OPT_FLAG, .field = PMC_OPT_FIELD(struct check_cli, quick),
	  .help = "only the probe, the exact counts and the read paths (what stat --check runs)" },
	{ .short_name = 'h', .long_name = "help", .kind = PMC_OPT_FLAG, .flags = PMC_OPT_HELP, .help = "this help" },
	{ .kind = PMC_OPT_END },
};

static int check_bad_argument(const struct pmc_opts_cmd *cmd, const char *arg, const struct pmc_opt *missing)
{
	(void)missing;
	fprintf(stderr, "pmctool check: unknown argument '%s'; run 'pmctool check --help'\n", arg);
	pmc_opts_suggest(cmd, arg);
	return PMC_EXIT_USAGE;
}

const struct pmc_opts_cmd pmc_opts_check = {
	.name = "check",
	.opts = check_opts,
	.usage = "Usage: pmctool check [--json] [--quick]\n\n"
		 "Can counts be trusted on this machine, now? Runs the built-in loop kernel, whose retired\n"
		 "instructions and branches are known exactly, on every core type and through both read paths (in\n"
		 "process and read()), then the fixed counters, a multiplexed run, the counter width and the NMI\n"
		 "watchdog, and gives each item a verdict: trustworthy, degraded (why) or unavailable (why).\n"
		 "Takes a few seconds.\n\n"
		 "Options:\n",
	.epilogue = "\nExit status: 0 trustworthy, 10 degraded (some item is; counts may still be usable, see it),\n"
		    "11 unavailable (no hardware counting here), 2 bad option, 4 output could not be written.\n",
	.col = 14,
	.bad_option = check_bad_argument,
};

struct check_runner {
	char dir[256];
	char json[300], err[300];
	char self[4096];         /* pmctool's own path: the loop as a command */
};

static void parse_events(const struct pmc_jvalue *evs, struct pmc_check_sample *s)
{
	for (size_t i = 0; i < pmc_json_len(evs) && s->n < PMC_CHECK_MAX_EVENTS; i++) {
		const struct pmc_jvalue *e = pmc_json_at(evs, i);
		struct pmc_check_count *c = &s->ev[s->n++];

		snprintf(c->name, sizeof(c->name), "%s", pmc_json_get_str(e, "name", "?"));
		c->counted = !strcmp(pmc_json_get_str(e, "status", ""), "ok");
		c->value = pmc_json_get_num(e, "mean", 0);
		c->running_pct = pmc_json_get_num(e, "running_pct", -1);
		snprintf(c->reason, sizeof(c->reason), "%s", pmc_json_get_str(e, "reason", c->counted ? "" : "not counted"));
		/* A count of 0 the PMU itself disowns (arm64: not in its PMCEID registers; QEMU opens such events and
		 * reads 0) was never measured: not counted, with the PMU's words, not "opens but reads 0". */
		if (c->counted && c->value == 0) {
			struct perf_event_attr attr = { .size = sizeof(attr) };
			char why[160];

			attr.type = (uint32_t)pmc_json_get_num(e, "type", -1);
			attr.config = strtoull(pmc_json_get_str(e, "config", "0"), NULL, 0);
			if (pmc_arch_event_implemented(&attr, why, sizeof(why)) == 0) {
				c->counted = false;
				snprintf(c->reason, sizeof(c->reason), "not implemented by this PMU (%s)", why);
			}
		}
	}
}

static void parse_report(const struct pmc_jvalue *doc, struct pmc_check_sample *s)
{
	const struct pmc_jvalue *consts = pmc_json_get(doc, "constants"), *checks = pmc_json_get(doc, "checks");

	parse_events(pmc_json_get(doc, "events"), s);
	s->expected_instructions = pmc_json_get_num(consts, "EXPECTED_INSTRUCTIONS", 0);
	s->expected_branches = pmc_json_get_num(consts, "EXPECTED_BRANCHES", 0);
	s->counter_width = (unsigned)pmc_json_get_num(consts, "COUNTER_WIDTH", 0);
	for (size_t i = 0; i < pmc_json_len(checks); i++) {
		const struct pmc_jvalue *c = pmc_json_at(checks, i);
		if (!strcmp(pmc_json_get_str(c, "name", ""), "read-method"))
			pmc_check_sample_read_method(s, pmc_json_get_str(c, "message", ""));
	}
}

/* One 'pmctool stat -k loop ... --json' child (the ops of info/check.h). */
static int measure(void *ctx, const struct pmc_check_req *q, struct pmc_check_sample *s)
{
	struct check_runner *r = ctx;
	struct pmc_jvalue *doc = NULL;
	struct child_args a = { .n = 0 };
	char events[1024] = "", jerr[160];
	size_t len = 0, off = 0;
	char *text = NULL;
	int status;

	for (size_t i = 0; i < q->nevents; i++)
		off += (size_t)snprintf(events + off, off < sizeof(events) ? sizeof(events) - off : 0, "%s%s", i ? "," : "",
					q->events[i]);
	child_args_push(&a, "pmctool");
	child_args_push(&a, "stat");
	child_args_push(&a, "--json");
	child_args_push(&a, "-o");
	child_args_push(&a, r->json);
	if (q->command) {
		/* The loop as a launched command: pmctool itself, quiet, running its kernel with a software event. */
		if (q->multiplex)
			child_args_push(&a, "--batch=multiplex");
		child_args_push(&a, "-e");
		child_args_push(&a, events);
		child_args_push(&a, "--");
		child_args_push(&a, r->self);
		child_args_push(&a, "stat");
		child_args_push(&a, "-q");
		child_args_push(&a, "-e");
		child_args_push(&a, "task-clock");
	}
	child_args_push(&a, "-k");
	child_args_push(&a, "loop");
	child_args_push(&a, "--iters");
	child_args_push(&a, child_args_fmt(&a, "%llu", (unsigned long long)q->iters));
	child_args_push(&a, "--warmup");
	child_args_push(&a, "0");
	if (q->cpu >= 0) {
		child_args_push(&a, "--cpu");
		child_args_push(&a, child_args_fmt(&a, "%d", q->cpu));
	}
	if (q->syscall_reads)
		child_args_push(&a, "--read=syscall");
	if (!q->command) {
		if (q->multiplex)
			child_args_push(&a, "--batch=multiplex");
		child_args_push(&a, "-e");
		child_args_push(&a, events);
	}
	if (child_run(&a, NULL, NULL, r->err, r->json, &status, s->err, sizeof(s->err))) {
		s->rc = -1;
		return 0;
	}
	if (pmc_read_whole_file(r->json, PMC_LOAD_MAX_BYTES, &text, &len, jerr, sizeof(jerr)) < 0 ||
	    pmc_json_parse(text, len, &doc, jerr, sizeof(jerr)) < 0) {
		s->rc = -1;
		snprintf(s->err, sizeof(s->err), "pmctool stat exited %d without a report (%s)", status, jerr);
		child_first_error(r->err, s->err, sizeof(s->err));
	} else {
		parse_report(doc, s);
	}
	pmc_json_free(doc);
	free(text);
	unlink(r->json);
	return 0;
}

static void print_text(FILE *f, const struct pmc_check_result *res)
{
	fprintf(f, "pmctool check: can counts be trusted here, now?\n\n");
	for (size_t i = 0; i < res->n; i++) {
		const struct pmc_check_item *it = &res->item[i];

		const char *d = it->detail;

		fprintf(f, "  %-12s %s\n", pmc_check_verdict_name(it->verdict), it->title);
		/* The detail's parts ("; " between them) one per line, under the title. */
		while (*d) {
			const char *end = strstr(d, "; ");
			int n = end ? (int)(end - d) : (int)strlen(d);

			fprintf(f, "  %-12s   %.*s\n", "", n, d);
			d += n + (end ? 2 : 0);
		}
	}
	fprintf(f, "\noverall: %s: %s\n", pmc_check_verdict_name(res->overall), res->summary);
}

static void print_json(FILE *f, const struct pmc_check_result *res)
{
	pmc_json_header(f, "check");
	fputs(",\"items\":[", f);
	for (size_t i = 0; i < res->n; i++) {
		const struct pmc_check_item *it = &res->item[i];

		fprintf(f, "%s\n{\"name\":", i ? "," : "");
		pmc_json_string(f, it->name);
		fputs(",\"title\":", f);
		pmc_json_string(f, it->title);
		fprintf(f, ",\"verdict\":\"%s\",\"detail\":", pmc_check_verdict_name(it->verdict));
		pmc_json_string(f, it->detail);
		fputc('}', f);
	}
	fprintf(f, "],\n\"overall\":{\"verdict\":\"%s\",\"exit_status\":%d,\"summary\":",
		pmc_check_verdict_name(res->overall), pmc_check_exit_status(res));
	pmc_json_string(f, res->summary);
	fputs("}}\n", f);
}

int pmc_check_measure_here(bool quick, struct pmc_check_result *res)
{
	static struct pmc_inventory inv;
	struct check_runner r;
	struct pmc_check_env env;
	struct pmc_check_ops ops = { .measure = measure, .ctx = &r };
	char vg[4096];
	int rc;

	pmc_inventory_collect(&inv);
	pmc_check_env_from(&inv, &env);
	env.quick = quick;
	env.emulator = pmc_emulator_find(vg, sizeof(vg));
	if (env.pmu.verdict == PMC_VERDICT_UNAVAILABLE) {
		pmc_check_run(&env, &ops, res); /* measures nothing */
		return 0;
	}
	if ((rc = multi_tmpdir(r.dir, sizeof(r.dir))))
		return rc;
	snprintf(r.json, sizeof(r.json), "%s/check.json", r.dir);
	{
		ssize_t n = readlink("/proc/self/exe", r.self, sizeof(r.self) - 1);
		r.self[n > 0 ? n : 0] = '\0';
	}
	snprintf(r.err, sizeof(r.err), "%s/check.err", r.dir);
	multi_install_signals();
	pmc_check_run(&env, &ops, res);
	multi_tmpdir_remove(r.dir);
	return multi_interrupted ? 130 : 0;
}

int pmc_cmd_check(int argc, char **argv)
{
	static struct pmc_check_result res;
	struct check_cli o = { .json = false };
	char *buf = NULL;
	size_t len = 0;
	int first, rc;
	FILE *f;

	rc = pmc_opts_parse(&pmc_opts_check, argc, argv, &o, &first);
	if (rc)
		return rc == PMC_OPTS_HELP ? PMC_EXIT_OK : rc;
	if (first < argc)
		return check_bad_argument(&pmc_opts_check, argv[first], NULL);
	if ((rc = pmc_check_measure_here(o.quick, &res)))
		return rc;
	pmc_check_uncore_items(&res);
	if (!(f = open_memstream(&buf, &len))) {
		fprintf(stderr, "pmctool check: out of memory\n");
		return PMC_EXIT_INTERNAL;
	}
	if (o.json)
		print_json(f, &res);
	else
		print_text(f, &res);
	if (fclose(f)) {
		free(buf);
		fprintf(stderr, "pmctool check: out of memory\n");
		return PMC_EXIT_INTERNAL;
	}
	rc = pmc_cli_write_stdout("check", "report", buf, len);
	free(buf);
	return rc ? rc : pmc_check_exit_status(&res);
}
