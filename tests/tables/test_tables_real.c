/* SPDX-License-Identifier: MIT */
/* Optional: with PMCTOOL_TEST_TABLES=DIR naming a perf pmu-events tree (a kernel checkout's
 * tools/perf/pmu-events/arch, or its parent folders), every model folder of every architecture's mapfile loads:
 * each JSON file parses, and the events and metrics per model are printed (to compare with perf's own parsing
 * later). Skips (77) with the reason when the variable is unset or names no such tree. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tables/tables.h"

static int load_model(const char *archdir, const char *model, size_t *nfiles, size_t *nbad)
{
	char path[PATH_MAX + 300], why[200];
	struct dirent *de;
	DIR *d;
	size_t events = 0, metrics = 0, items = 0;
	int failed = 0;

	snprintf(path, sizeof(path), "%s/%s", archdir, model);
	if (!(d = opendir(path))) {
		printf("FAIL %s: %s\n", path, strerror(errno));
		return 1;
	}
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		if (l < 6 || strcmp(de->d_name + l - 5, ".json") != 0)
			continue;
		char file[PATH_MAX + 600];
		snprintf(file, sizeof(file), "%s/%s", path, de->d_name);
		FILE *f = fopen(file, "r");
		char *text = NULL;
		size_t cap = 0, len = 0;
		if (f) {
			len = (size_t)getdelim(&text, &cap, '\0', f);
			fclose(f);
		}
		struct pmc_tables *t = pmc_tables_new();
		if (!t || !text) {
			printf("FAIL %s: cannot read\n", file);
			failed = 1;
		} else if (pmc_tables_parse_text(t, text, len, file, why, sizeof(why)) < 0 &&
		           !strstr(why, "no events or metrics")) {
			printf("FAIL %s: %s\n", file, why);
			failed = 1;
		} else {
			const struct pmc_table_event *e;
			const struct pmc_table_metric *m;
			events += pmc_tables_events(t, &e);
			metrics += pmc_tables_metrics(t, &m);
			if (why[0] && !strstr(why, "no events or metrics")) {
				printf("     %s: items left out, first: %s\n", de->d_name, why);
				items++;
			}
		}
		(*nfiles)++;
		free(text);
		pmc_tables_free(t);
	}
	closedir(d);
	*nbad += items;
	printf("%-40s %6zu events %5zu metrics\n", model, events, metrics);
	return failed;
}

int main(void)
{
	const char *dir = getenv("PMCTOOL_TEST_TABLES");
	const char *subs[] = { "", "/arch", "/tools/perf/pmu-events/arch" };
	char base[PATH_MAX], map[PATH_MAX + 300], line[1024];
	int failed = 0, found = 0;
	size_t models = 0, nfiles = 0, nbad = 0;
	struct stat st;

	if (!dir || !*dir) {
		printf("SKIP: set PMCTOOL_TEST_TABLES to a perf pmu-events tree (tools/perf/pmu-events/arch of a kernel "
		       "checkout) to check that every model's tables load\n");
		return 77;
	}
	for (size_t s = 0; s < 3 && !found; s++) {
		snprintf(base, sizeof(base), "%s%s", dir, subs[s]);
		snprintf(map, sizeof(map), "%s/x86/mapfile.csv", base);
		found = stat(map, &st) == 0;
	}
	if (!found) {
		printf("SKIP: PMCTOOL_TEST_TABLES=%s holds no x86/mapfile.csv (nor arch/x86/...): not a pmu-events tree\n",
		       dir);
		return 77;
	}
	static const char *const arches[] = { "x86", "arm64", "powerpc", "riscv", "s390", "nds32" };
	for (size_t a = 0; a < sizeof(arches) / sizeof(arches[0]); a++) {
		char archdir[PATH_MAX + 64];
		snprintf(archdir, sizeof(archdir), "%s/%s", base, arches[a]);
		snprintf(map, sizeof(map), "%s/mapfile.csv", archdir);
		FILE *f = fopen(map, "r");
		if (!f)
			continue;
		char seen[512][128];
		size_t nseen = 0;
		while (fgets(line, sizeof(line), f)) {
			char *c1 = strchr(line, ','), *c2 = c1 ? strchr(c1 + 1, ',') : NULL, *c3 = c2 ? strchr(c2 + 1, ',') : NULL;
			if (!c3 || strncmp(line, "Family-model", 12) == 0 || line[0] == '#')
				continue;
			*c3 = '\0';
			if (strstr(c3 + 1, "uncore"))
				continue;
			const char *model = c2 + 1;
			bool dup = false;
			for (size_t i = 0; i < nseen && !dup; i++)
				dup = strcmp(seen[i], model) == 0;
			if (dup || nseen == 512)
				continue;
			snprintf(seen[nseen++], sizeof(seen[0]), "%s", model);
			models++;
			failed |= load_model(archdir, model, &nfiles, &nbad);
		}
		fclose(f);
	}
	printf("%zu models, %zu files, %zu files with items left out; %s\n", models, nfiles, nbad,
	       failed ? "FAILED" : "every file loads");
	return failed;
}
