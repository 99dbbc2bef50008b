/* SPDX-License-Identifier: MIT */
/* man/pmctool-topdown.7 names every tree pmctool knows (as --topdown-def takes it) and every node a tree shows: a
 * tree or node added without its line in the man page fails here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "metrics/topdown.h"

static char page[65536];

/* name as troff writes it: '-' as "\-". */
static bool documented(const char *name)
{
	char esc[128];
	size_t k = 0;

	for (const char *p = name; *p && k + 3 < sizeof(esc); p++) {
		if (*p == '-')
			esc[k++] = '\\';
		esc[k++] = *p;
	}
	esc[k] = '\0';
	return strstr(page, esc) != NULL;
}

static void test_man_page_names_every_tree_and_node(void **state)
{
	const char *src = getenv("PMC_SOURCE_DIR");
	char path[4096];
	FILE *f;
	size_t n;

	(void)state;
	assert_non_null(src);
	snprintf(path, sizeof(path), "%s/man/pmctool-topdown.7", src);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(page, 1, sizeof(page) - 1, f);
	fclose(f);
	page[n] = '\0';
	for (size_t i = 0; i < pmc_td_tree_count(); i++) {
		const struct pmc_td_tree *t = pmc_td_tree_at(i);

		if (!documented(t->name))
			fail_msg("man/pmctool-topdown.7 does not name the tree %s", t->name);
		for (size_t k = 0; k < t->nnodes; k++)
			if (t->nodes[k].level >= 1 && !documented(t->nodes[k].name))
				fail_msg("man/pmctool-topdown.7 does not explain the node %s (tree %s)", t->nodes[k].name,
					 t->name);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_man_page_names_every_tree_and_node),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
