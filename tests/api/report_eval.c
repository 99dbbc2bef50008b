/* SPDX-License-Identifier: MIT */
/*
 * pmctool_report_eval (include/pmctool_engine.h) on a saved report, as the Python package calls it: the file is read
 * here and handed over as text. Prints "tree NAME level N unit U", a "node NAME LEVEL VALUE|n/a" line per node and a
 * "metric NAME VALUE|n/a" line per metric, or "error kind K subject 'S': DETAIL"; with --json the result's document.
 * The same request is evaluated twice in the process: the second must print what the first did ("again: same").
 * Usage: report_eval [--json] FILE [TREE|- [LEVEL [NAME=FORMULA]]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmctool_engine.h"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, r;

	if (!f)
		return NULL;
	do {
		if (n + 4096 > cap) {
			char *nb = realloc(buf, cap = n + 65536);

			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
	} while (r > 0);
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* What r says, into buf (a memstream). */
static void describe(const struct pmctool_report *r, FILE *out)
{
	if (r->tree)
		fprintf(out, "tree %s level %d unit %s\n", r->tree, r->level, r->unit);
	else
		fprintf(out, "no tree\n");
	for (size_t i = 0; i < r->nnodes; i++) {
		if (r->nodes[i].valid)
			fprintf(out, "node %s %d %.6f\n", r->nodes[i].name, r->nodes[i].level, r->nodes[i].value);
		else
			fprintf(out, "node %s %d n/a\n", r->nodes[i].name, r->nodes[i].level);
	}
	for (size_t i = 0; i < r->result->nmetrics; i++) {
		const struct pmctool_metric *m = &r->result->metrics[i];

		if (m->valid)
			fprintf(out, "metric %s %.6g\n", m->name, m->value);
		else
			fprintf(out, "metric %s n/a\n", m->name);
	}
}

static int eval(struct pmctool_engine *e, const struct pmctool_report_request *rq, char **text, char **json)
{
	struct pmctool_report *r = NULL;
	struct pmctool_error err;
	size_t len, jlen;
	FILE *out = open_memstream(text, &len);
	int kind;

	if (!out)
		return -1;
	kind = pmctool_report_eval(e, rq, &r, &err);
	if (kind) {
		fprintf(out, "error kind %d subject '%s': %s\n", kind, err.subject, err.detail);
	} else {
		describe(r, out);
		if (json && pmctool_result_json(r->result, json, &jlen))
			fprintf(out, "error: no JSON\n");
	}
	pmctool_report_free(r);
	fclose(out);
	return kind;
}

int main(int argc, char **argv)
{
	int json = argc > 1 && !strcmp(argv[1], "--json");
	struct pmctool_report_request rq = { 0 };
	const char *metrics[2] = { NULL, NULL };
	struct pmctool_engine *e;
	char *text = NULL, *again = NULL, *doc = NULL;
	size_t len = 0;
	char *file;

	argv += json;
	argc -= json;
	if (argc < 2) {
		fprintf(stderr, "usage: report_eval [--json] FILE [TREE|- [LEVEL [NAME=FORMULA]]]\n");
		return 2;
	}
	if (!(file = slurp(argv[1], &len))) {
		perror(argv[1]);
		return 2;
	}
	rq.json = file;
	rq.json_len = len;
	rq.topdown_def = argc > 2 && strcmp(argv[2], "-") ? argv[2] : NULL;
	rq.topdown_level = argc > 3 ? atoi(argv[3]) : 0;
	metrics[0] = argc > 4 ? argv[4] : NULL;
	rq.metrics = metrics;
	e = pmctool_engine_new();
	if (!e)
		return 1;
	eval(e, &rq, &text, json ? &doc : NULL);
	eval(e, &rq, &again, NULL);
	fputs(text, stdout);
	printf("again: %s\n", !strcmp(text, again) ? "same" : "different");
	if (doc)
		fputs(doc, stdout);
	free(text);
	free(again);
	free(doc);
	free(file);
	pmctool_engine_free(e);
	return 0;
}
