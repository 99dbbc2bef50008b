/* SPDX-License-Identifier: MIT */
/* pmctool check's verdicts (output/check.h): the text and the JSON document. */
#include <stdio.h>
#include <string.h>

#include "output/check.h"

int pmc_check_table(FILE *f, const struct pmc_check_result *res)
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
	return 0;
}

int pmc_check_json(FILE *f, const struct pmc_check_result *res)
{
	struct pmc_jw jw, *w = &jw;

	pmc_jw_init(w, f, 0);
	pmc_json_header(w, "check");
	pmc_jw_karray_begin(w, "items");
	for (size_t i = 0; i < res->n; i++) {
		const struct pmc_check_item *it = &res->item[i];

		pmc_jw_break(w, "\n");
		pmc_jw_object_begin(w);
		pmc_jw_kstr(w, "name", it->name);
		pmc_jw_kstr(w, "title", it->title);
		pmc_jw_kstr(w, "verdict", pmc_check_verdict_name(it->verdict));
		pmc_jw_kstr(w, "detail", it->detail);
		pmc_jw_object_end(w);
	}
	pmc_jw_array_end(w);
	pmc_jw_break(w, "\n");
	pmc_jw_kobject_begin(w, "overall");
	pmc_jw_kstr(w, "verdict", pmc_check_verdict_name(res->overall));
	pmc_jw_kint(w, "exit_status", pmc_check_exit_status(res));
	pmc_jw_kstr(w, "summary", res->summary);
	pmc_jw_object_end(w);
	pmc_jw_object_end(w);
	fputc('\n', f);
	return 0;
}
