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
#include <stdbool.h>
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
		           !strstr(why, "no events or metrics") && !strstr(why, "only uncore events")) {
			printf("FAIL %s: %s\n", file, why);
			failed = 1;
		} else {
			const struct pmc_table_event *e;
			const struct pmc_table_metric *m;
			events += pmc_tables_events(t, &e);
			metrics += pmc_tables_metrics(t, &m);
			if (why[0] && !strstr(why, "no events or metrics") && !strstr(why, "only uncore events")) {
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

/* Load as pmctool will, through the mapfile, for a CPUID the row matches; files skipped for their type (uncore,
 * retire latency) are not failures. */
static int load_cpuid(const char *base, const char *row, const char *model, size_t *nfiles, size_t *nbad)
{
	struct pmc_tables *t = NULL;
	const struct pmc_tables_report *rep;
	int failed = 0;

	setenv("PMCTOOL_CPUID", row, 1);
	int r = pmc_tables_load(base, NULL, &t);
	unsetenv("PMCTOOL_CPUID");
	if (!t || pmc_tables_report(t, &rep) < 0) {
		printf("FAIL %s: %d\n", model, r);
		pmc_tables_free(t);
		return 1;
	}
	for (size_t i = 0; i < rep->nfiles; i++) {
		const struct pmc_table_note *n = &rep->files[i];
		(*nfiles)++;
		if (n->skipped && (strstr(n->why, "core-PMU") || strstr(n->why, "not read"))) {
			continue;
		} else if (n->skipped) {
			printf("FAIL %s: %s\n", n->path, n->why);
			failed = 1;
		} else if (n->bad) {
			printf("     %s: %zu items left out, first: %s\n", n->path, n->bad, n->why);
			(*nbad)++;
		}
	}
	if (r < 0) {
		printf("FAIL %s (CPUID %s): %d\n", model, row, r);
		failed = 1;
	}
	printf("%-40s %6zu events %5zu metrics (CPUID %s)\n", model, rep->nevents, rep->nmetrics, row);
	pmc_tables_free(t);
	return failed;
}

/* A CPUID the mapfile pattern matches: each bracket's first character, each group's first alternative. */
static void synth(const char *p, char *out, size_t outlen)
{
	size_t k = 0;

	while (*p && k + 2 < outlen) {
		if (*p == '[') {
			char c = p[1] == '[' ? '0' : p[1]; /* [[:xdigit:]] */
			const char *end = strchr(p + (p[1] == '[' ? 2 : 1), ']');
			if (p[1] == '[' && end)
				end = strchr(end + 1, ']');
			out[k++] = c;
			p = end ? end + 1 : p + strlen(p);
		} else if (*p == '(') {
			const char *bar = strpbrk(p, "|)"), *close = strchr(p, ')');
			size_t l = (size_t)(bar - p - 1);
			char alt[64];
			snprintf(alt, sizeof(alt), "%.*s", (int)l, p + 1);
			char sub[64];
			synth(alt, sub, sizeof(sub));
			k += (size_t)snprintf(out + k, outlen - k, "%s", sub);
			p = close ? close + 1 : p + strlen(p);
		} else if (*p == '?' || *p == '*' || *p == '+' || *p == '^' || *p == '$') {
			p++;
		} else {
			out[k++] = *p++;
		}
	}
	out[k] = '\0';
}

static bool is_perfmon(const char *map)
{
	char line[1024];
	bool json = false;
	FILE *f = fopen(map, "r");

	while (f && !json && fgets(line, sizeof(line), f))
		json = strstr(line, ".json,") != NULL;
	if (f)
		fclose(f);
	return json;
}

static int perfmon(const char *dir, const char *map)
{
	char line[1024], cpuid[1024], seen[512][128];
	size_t nseen = 0, models = 0, nfiles = 0, nbad = 0, unmatched = 0;
	int failed = 0;
	FILE *f = fopen(map, "r");

	while (f && fgets(line, sizeof(line), f)) {
		char *c1 = strchr(line, ','), *c2 = c1 ? strchr(c1 + 1, ',') : NULL, *c3 = c2 ? strchr(c2 + 1, ',') : NULL;
		if (!c3 || strncmp(line, "Family-model", 12) == 0 || (strncmp(c3 + 1, "core,", 5) != 0 &&
		                                                      strncmp(c3 + 1, "hybridcore,", 11) != 0))
			continue;
		*c1 = '\0';
		*c3 = '\0';
		bool dup = false;
		for (size_t i = 0; i < nseen && !dup; i++)
			dup = strcmp(seen[i], line) == 0;
		if (dup || nseen == 512)
			continue;
		snprintf(seen[nseen++], sizeof(seen[0]), "%.127s", line);
		synth(line, cpuid, sizeof(cpuid));
		if (pmc_table_cpuid_match(line, cpuid) != 1) {
			printf("     %s: no CPUID synthesized that matches (tried %s)\n", line, cpuid);
			unmatched++;
			continue;
		}
		models++;
		failed |= load_cpuid(dir, cpuid, c2 + 1, &nfiles, &nbad);
	}
	if (f)
		fclose(f);
	printf("perfmon: %zu models, %zu files, %zu files with items left out, %zu patterns not tried; %s\n", models,
	       nfiles, nbad, unmatched, failed ? "FAILED" : "every file loads");
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
	snprintf(map, sizeof(map), "%s/mapfile.csv", dir);
	if (stat(map, &st) == 0 && (found = is_perfmon(map)))
		return perfmon(dir, map);
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
	static const char *const arches[] = { "x86", "arm64" }; /* the architectures pmctool reads tables for */
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
			if (a == 1) { /* arm64: the row's CPUID is a literal MIDR, so load as pmctool will (ArchStdEvent) */
				*strchr(line, ',') = '\0';
				failed |= load_cpuid(base, line, model, &nfiles, &nbad);
			}
			else
				failed |= load_model(archdir, model, &nfiles, &nbad);
		}
		fclose(f);
	}
	printf("%zu models, %zu files, %zu files with items left out; %s\n", models, nfiles, nbad,
	       failed ? "FAILED" : "every file loads");
	return failed;
}
