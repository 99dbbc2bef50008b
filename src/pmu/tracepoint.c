/* SPDX-License-Identifier: MIT */
/* Named tracepoints (sched:sched_switch): the id file under tracefs' events/SYSTEM/EVENT/ gives the config of a
 * PERF_TYPE_TRACEPOINT event (Documentation/trace/events.rst). */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pmu/event.h"
#include "pmu/pmu_internal.h"

/* PMCTOOL_TRACEFS (tests) or the first of tracefs' two mount points that has an events directory. NULL: none. */
const char *pmc_tracefs_root(void)
{
	static const char *const roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	static char buf[600];
	const char *env = getenv("PMCTOOL_TRACEFS");
	struct stat st;

	if (env && *env)
		return env;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(roots); i++) {
		snprintf(buf, sizeof(buf), "%s/events", roots[i]);
		if (!stat(buf, &st) && S_ISDIR(st.st_mode))
			return roots[i];
		if (errno == EACCES) /* debugfs is root-only: the events are there, unreadable */
			return roots[i];
	}
	return NULL;
}

const char *pmc_tracefs_unreadable(void)
{
	static char path[700];
	const char *root = pmc_tracefs_root();
	DIR *d;

	if (!root)
		return NULL;
	snprintf(path, sizeof(path), "%s/events", root);
	d = opendir(path);
	if (d) {
		closedir(d);
		return NULL;
	}
	return errno == EACCES || errno == EPERM ? path : NULL;
}

static bool is_ident(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '-')
			return false;
	return true;
}

bool pmc_tracepoint_shaped(const char *spec)
{
	const char *colon = strchr(spec, ':');

	return colon && !strchr(colon + 1, ':') && is_ident(spec, (size_t)(colon - spec)) &&
	       is_ident(colon + 1, strlen(colon + 1));
}

int pmc_tracepoint_lookup(const char *spec, struct pmc_event *ev, struct pmc_resolve_error *err, bool quiet)
{
	const char *root = pmc_tracefs_root(), *colon = strchr(spec, ':');
	char path[PMC_NAME_MAX + 700], line[32], sys[PMC_NAME_MAX];
	uint64_t id;
	FILE *f;

	if (!pmc_tracepoint_shaped(spec))
		return -ENOENT;
	snprintf(sys, sizeof(sys), "%.*s", (int)(colon - spec), spec);
	if (!root) {
		if (quiet)
			return -ENOENT;
		return pmc_resolve_fail(err, PMC_RESOLVE_UNSUPPORTED, -ENODEV,
					"tracepoint '%s': tracefs is not mounted (as root: mount -t tracefs nodev "
					"/sys/kernel/tracing)", spec);
	}
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", root, sys, colon + 1);
	f = fopen(path, "r");
	if (!f) {
		int e = errno;
		char dir[PMC_NAME_MAX + 700], fmt[PMC_NAME_MAX + 8];

		if (quiet)
			return -ENOENT;
		if (e == EACCES)
			return pmc_resolve_fail(err, PMC_RESOLVE_UNSUPPORTED, -EACCES,
						"tracepoint '%s': %s is readable by root only (tracefs' mode): run as "
						"root, or ask for the events directory's group to be given to you", spec,
						path);
		snprintf(dir, sizeof(dir), "%s/events/%s/%s", root, sys, colon + 1);
		if (!access(dir, F_OK))
			/* ftrace:bprint and its kind: record formats of ftrace's own, which perf cannot open */
			return pmc_resolve_fail(err, PMC_RESOLVE_UNSUPPORTED, -ENOENT,
						"tracepoint '%s' exists but has no id (%s): the kernel does not let perf "
						"count it", spec, path);
		pmc_resolve_fail(err, PMC_RESOLVE_UNKNOWN, -ENOENT,
				 "unknown tracepoint '%s': no %s; 'pmctool list %s:*' lists that system's", spec, path,
				 sys);
		/* the names are identifiers (is_ident): no '%' reaches the formats; only events with an id are
		 * suggested */
		snprintf(dir, sizeof(dir), "%s/events/%s", root, sys);
		snprintf(fmt, sizeof(fmt), "%s:%%s", sys);
		if (!access(dir, F_OK)) {
			pmc_suggest_dir_having(dir, spec, fmt, "id", err);
		} else {
			char need[PMC_NAME_MAX + 8];

			snprintf(dir, sizeof(dir), "%s/events", root);
			snprintf(fmt, sizeof(fmt), "%%s:%s", colon + 1);
			snprintf(need, sizeof(need), "%s/id", colon + 1);
			pmc_suggest_dir_having(dir, spec, fmt, need, err);
		}
		return -ENOENT;
	}
	if (fgets(line, sizeof(line), f))
		line[strcspn(line, "\n")] = '\0';
	else
		line[0] = '\0';
	if (pmc_parse_u64(line, 0, UINT64_MAX, &id)) {
		fclose(f);
		return pmc_resolve_fail(err, PMC_RESOLVE_SYNTAX, -EINVAL, "tracepoint '%s': %s holds no number", spec,
					path);
	}
	fclose(f);
	ev->attr.type = PERF_TYPE_TRACEPOINT;
	ev->attr.config = id;
	ev->cls = PMC_CLASS_FREE;
	ev->fixed_index = -1;
	snprintf(ev->canonical, sizeof(ev->canonical), "%s", spec);
	return 0;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted entries of dir (identifier names only), or NULL with *n = 0. Caller frees each and the array. */
static char **sorted_dir(const char *dir, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **v = NULL;
	size_t cap = 0;

	*n = 0;
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || !is_ident(de->d_name, strlen(de->d_name)))
			continue;
		if (*n == cap) {
			char **nv = realloc(v, (cap = cap ? cap * 2 : 64) * sizeof(*v));
			if (!nv)
				break;
			v = nv;
		}
		if (!(v[*n] = strdup(de->d_name)))
			break;
		(*n)++;
	}
	closedir(d);
	if (*n)
		qsort(v, *n, sizeof(*v), cmp_name);
	return v;
}

static void free_dir(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

int pmc_tracepoint_walk(int (*cb)(const char *name, void *ctx), void *ctx)
{
	const char *root = pmc_tracefs_root();
	char dir[1200], name[PMC_NAME_MAX * 2 + 2];
	size_t nsys = 0;
	char **sys;
	int rc = 0;

	if (!root)
		return 0;
	snprintf(dir, sizeof(dir), "%s/events", root);
	sys = sorted_dir(dir, &nsys);
	for (size_t i = 0; i < nsys && !rc; i++) {
		size_t nev = 0;
		char **evs;

		snprintf(dir, sizeof(dir), "%s/events/%s", root, sys[i]);
		evs = sorted_dir(dir, &nev);
		for (size_t j = 0; j < nev && !rc; j++) {
			char id[1300];

			snprintf(id, sizeof(id), "%s/%s/id", dir, evs[j]);
			if (strlen(sys[i]) + strlen(evs[j]) + 2 > PMC_NAME_MAX || access(id, F_OK))
				continue; /* enable, filter: files, not events */
			snprintf(name, sizeof(name), "%s:%s", sys[i], evs[j]);
			rc = cb(name, ctx);
		}
		free_dir(evs, nev);
	}
	free_dir(sys, nsys);
	return rc;
}
