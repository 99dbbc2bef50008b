/* SPDX-License-Identifier: MIT */
/* Finding the tables: the search locations, the layouts (perf's pmu-events tree, Intel perfmon, Arm's Neoverse
 * files), the mapfile match on the CPUID (POSIX extended regex, as perf), reading the matched files. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tables/tables_internal.h"
#include "util/file_read.h"
#include "util/json_read.h"

static size_t dashes(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += (*s == '-');
	return n;
}

/* The size an ERE compiles to, counted as glibc builds it: each atom a state, a repetition a copy of what it repeats
 * ('+' two, {m,n} max(m,n)+1), so "a++++" doubles per '+' and "(a{255}){255}" multiplies. Capped at over: a pattern
 * whose size passes PMC_TABLE_PATTERN_STATES is refused before regcomp sees it (regcomp's time and memory grow with
 * that size: 20 '+' took 16 s and 700 MB). Back-references (\1) are refused: only they make regexec backtrack. */
static size_t pattern_states(const char *p, size_t over)
{
	size_t stack[PMC_TABLE_PATTERN_MAX + 1], depth = 0, cur = 0, last = 0;

	for (; *p; p++) {
		size_t rep = 0;

		switch (*p) {
		case '(':
			stack[depth++] = cur;
			cur = 0;
			last = 0;
			continue;
		case ')':
			if (!depth) /* a ')' that closes nothing: taken as a character (regcomp decides) */
				goto atom;
			last = cur;
			cur = stack[--depth] + cur;
			continue;
		case '|':
			last = 0;
			continue;
		case '*':
		case '?':
			rep = 1;
			break;
		case '+':
			rep = 2;
			break;
		case '{': {
			char *end;
			unsigned long a = strtoul(p + 1, &end, 10), b = a;
			if (*end == ',')
				b = end[1] == '}' ? a : strtoul(end + 1, &end, 10);
			if (*end != '}')
				goto atom; /* not an interval: regcomp refuses it or takes the '{' as a character */
			if (a > over || b > over)
				return over;
			rep = (a > b ? a : b) + 1;
			p = end;
			break;
		}
		case '[':
			/* a bracket expression is one state: skip to its ']' (one right after '[' or '[^' is a member) */
			p += p[1] == '^' ? 2 : 1;
			if (*p == ']')
				p++;
			for (; *p && *p != ']'; p++)
				if (*p == '[' && (p[1] == ':' || p[1] == '.' || p[1] == '=')) {
					const char *close = strstr(p + 2, (char[]){ p[1], ']', '\0' });
					if (!close)
						return cur; /* unterminated: regcomp refuses it */
					p = close + 1;
				}
			if (!*p)
				return cur;
			last = 1;
			cur++;
			continue;
		case '\\':
			if (p[1] >= '1' && p[1] <= '9')
				return over;
			if (p[1])
				p++;
			/* fall through */
		default:
		atom:
			last = 1;
			cur++;
			continue;
		}
		/* a repetition of the last atom (a group's whole size): its copies replace it; with nothing before it, regcomp
		 * refuses it or takes it as a character */
		if (!last)
			goto atom;
		if (last > over / (rep + 1))
			return over;
		cur += last * (rep ? rep - 1 : 0);
		last *= rep ? rep : 1;
		if (cur >= over)
			return over;
	}
	return cur; /* an unclosed '(': regcomp refuses it */
}

int pmc_table_cpuid_match(const char *pattern, const char *cpuid)
{
	regex_t re;
	regmatch_t m[1];
	size_t len;
	int hit;

	if (!pattern || !cpuid)
		return -EINVAL;
	if (strlen(pattern) > PMC_TABLE_PATTERN_MAX ||
	    pattern_states(pattern, PMC_TABLE_PATTERN_STATES + 1) > PMC_TABLE_PATTERN_STATES)
		return -E2BIG;
	if (regcomp(&re, pattern, REG_EXTENDED) != 0)
		return -EINVAL;
	hit = regexec(&re, cpuid, 1, m, 0) == 0;
	regfree(&re);
	if (!hit || m[0].rm_so != 0)
		return 0;
	/* x86: a pattern without a stepping ("GenuineIntel-6-3D") matches a CPUID with one ("GenuineIntel-6-3D-4") up to
	 * its last dash, as perf's x86 strcmp_cpuid_str does; otherwise the whole CPUID must match. */
	len = strlen(cpuid);
	if (dashes(cpuid) == 3 && dashes(pattern) < 3)
		len = (size_t)(strrchr(cpuid, '-') - cpuid);
	return (size_t)m[0].rm_eo == len;
}

static int read_file(const char *path, char **ret, size_t *retlen, char *why, size_t whylen)
{
	struct stat st;
	int fd = pmc_open_regular(path, &st); /* a FIFO named *.json is refused, never waited on */
	char *buf = NULL;
	size_t len = 0;

	if (fd < 0) {
		snprintf(why, whylen, "cannot be read: %s", pmc_open_regular_why(fd));
		return fd == -EISDIR ? -EINVAL : fd;
	}
	if (st.st_size > (off_t)PMC_TABLES_MAX_FILE) {
		snprintf(why, whylen, "larger than %u MiB", PMC_TABLES_MAX_FILE >> 20);
		close(fd);
		return -EINVAL;
	}
	if (!(buf = malloc((size_t)st.st_size + 1))) {
		close(fd);
		return -ENOMEM;
	}
	while (len < (size_t)st.st_size) {
		ssize_t r = read(fd, buf + len, (size_t)st.st_size - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;
			snprintf(why, whylen, "read failed: %s", strerror(e));
			free(buf);
			close(fd);
			return -e;
		}
		if (r == 0)
			break; /* the file shrank while read: what was there is parsed */
		len += (size_t)r;
	}
	close(fd);
	buf[len] = '\0';
	*ret = buf;
	*retlen = len;
	return 0;
}

/* Read one table file into t with a note in the report. -ENOMEM only: a bad file is noted and skipped. */
static int load_file(struct pmc_tables *t, const char *path)
{
	struct pmc_table_note *n = pmc_tables_note(t, false, path);
	const char *src;
	char *text;
	size_t len;
	int r;

	if (!n)
		return -ENOMEM;
	if ((r = read_file(path, &text, &len, n->why, sizeof(n->why))) < 0) {
		n->skipped = true;
		return r == -ENOMEM ? r : 0;
	}
	if ((r = pmc_tables_add_source(t, path, &src)) == 0)
		r = pmc_tables_parse_note(t, text, len, src, n);
	free(text);
	return r == -ENOMEM ? r : 0;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The JSON files of dir, sorted (a deterministic order): 0 and *ret and *n, -errno. */
static int json_files(const char *dir, char ***ret, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **v = NULL;
	size_t k = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		if (l < 6 || strcmp(de->d_name + l - 5, ".json") != 0 || de->d_name[0] == '.')
			continue;
		char **p = realloc(v, (k + 1) * sizeof(*p));
		if (!p || asprintf(&p[k], "%s/%s", dir, de->d_name) < 0) {
			v = p ? p : v;
			for (size_t i = 0; i < k; i++)
				free(v[i]);
			free(v);
			closedir(d);
			return -ENOMEM;
		}
		v = p;
		k++;
	}
	closedir(d);
	if (k) /* qsort may not be handed NULL, even for nothing */
		qsort(v, k, sizeof(*v), name_cmp);
	*ret = v;
	*n = k;
	return 0;
}

static void strv_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static int load_dir(struct pmc_tables *t, const char *dir)
{
	char **v;
	size_t n;
	int r = json_files(dir, &v, &n);

	if (r < 0) {
		struct pmc_table_note *note = pmc_tables_note(t, false, dir);
		if (!note)
			return -ENOMEM;
		note->skipped = true;
		snprintf(note->why, sizeof(note->why), "the model folder cannot be read: %s", strerror(-r));
		return r == -ENOMEM ? r : 0;
	}
	for (size_t i = 0; i < n && r == 0; i++)
		r = load_file(t, v[i]);
	strv_free(v, n);
	return r;
}

/* perf's arm64 standard events (the JSON files of arch/arm64/, what ArchStdEvent names) into t->std. */
static int load_std(struct pmc_tables *t, const char *archdir)
{
	struct pmc_tables *save;
	int r;

	if (t->enc != PMC_TABLE_ENC_ARM64)
		return 0;
	if (!(t->std = pmc_tables_new()))
		return -ENOMEM;
	t->std->enc = t->enc;
	save = t->std;
	/* read them into t itself (for the report's notes), then move the entries over */
	size_t first = t->nev;
	t->std = NULL;
	r = load_dir(t, archdir);
	t->std = save;
	if (r < 0)
		return r;
	for (size_t i = first; i < t->nev; i++) {
		struct pmc_table_event *p = realloc(save->ev, (save->nev + 1) * sizeof(*p));
		if (!p)
			return -ENOMEM;
		save->ev = p;
		save->ev[save->nev++] = t->ev[i];
	}
	t->nev = first;
	return pmc_tables_sort(save);
}

/* perf's arm64 system PMU events (arch/arm64/VENDOR/NAME/sys/ JSON files: arm_cmn's, for instance): no mapfile row
 * names them; perf reads every such folder and keeps an event where the PMU's identifier matches its Compat. */
static int load_sys(struct pmc_tables *t, const char *archdir)
{
	DIR *vd;
	struct dirent *v;
	int r = 0;

	if (t->enc != PMC_TABLE_ENC_ARM64 || !(vd = opendir(archdir)))
		return 0;
	char **names = NULL;
	size_t n = 0;
	while ((v = readdir(vd))) {
		char vdir[4200];
		DIR *md;
		struct dirent *m;

		if (v->d_name[0] == '.' || snprintf(vdir, sizeof(vdir), "%s/%s", archdir, v->d_name) >= (int)sizeof(vdir) ||
		    !(md = opendir(vdir)))
			continue;
		while ((m = readdir(md))) {
			char *sys;
			struct stat st;

			if (m->d_name[0] == '.')
				continue;
			if (asprintf(&sys, "%s/%s/sys", vdir, m->d_name) < 0) {
				r = -ENOMEM;
				break;
			}
			if (stat(sys, &st) != 0 || !S_ISDIR(st.st_mode)) {
				free(sys);
				continue;
			}
			char **p = realloc(names, (n + 1) * sizeof(*p));
			if (!p) {
				free(sys);
				r = -ENOMEM;
				break;
			}
			names = p;
			names[n++] = sys;
		}
		closedir(md);
		if (r < 0)
			break;
	}
	closedir(vd);
	if (n) /* a deterministic order, whatever readdir's */
		qsort(names, n, sizeof(*names), name_cmp);
	for (size_t i = 0; i < n && r == 0; i++)
		r = load_dir(t, names[i]);
	strv_free(names, n);
	return r;
}

static char *field(char **line)
{
	char *s = *line, *c = strchr(s, ',');

	if (c) {
		*c = '\0';
		*line = c + 1;
	} else {
		*line = s + strlen(s);
	}
	return s;
}

/* The perfmon mapfile types read: core-PMU events and metrics ("uncore", "retire latency", "fp_arith_inst" (a table
 * of FP_ARITH umask bits, not events) are not). */
static bool type_read(const char *type)
{
	static const char *const read[] = { "core", "hybridcore", "offcore", "metrics" };

	for (size_t i = 0; i < sizeof(read) / sizeof(read[0]); i++)
		if (strcasecmp(type, read[i]) == 0)
			return true;
	return false;
}

/* What a location gave: 1 loaded, 0 nothing for this CPU (loc's why says why), -ENOMEM. */
static int try_mapfile(struct pmc_tables *t, const char *root, const char *mapfile, struct pmc_table_note *loc)
{
	char *text, *line, *save = NULL;
	size_t len, rows = 0, hits = 0;
	int r;

	if ((r = read_file(mapfile, &text, &len, loc->why, sizeof(loc->why))) < 0)
		return r == -ENOMEM ? r : 0;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		size_t l = strlen(line);
		if (l && line[l - 1] == '\r')
			line[l - 1] = '\0';
		if (!line[0] || line[0] == '#' || strncasecmp(line, "Family-model,", 13) == 0)
			continue;
		char *rest = line, *pattern = field(&rest);
		(void)field(&rest); /* version */
		char *file = field(&rest), *type = field(&rest);
		(void)field(&rest); /* perfmon's core type and native model id */
		(void)field(&rest);
		char *role = field(&rest); /* perfmon's core role name: Core or Atom on a hybrid CPU */
		rows++;
		int m = pmc_table_cpuid_match(pattern, t->rep.cpuid);
		if (m < 0) {
			struct pmc_table_note *n = pmc_tables_note(t, false, mapfile);
			if (!n) {
				r = -ENOMEM;
				goto out;
			}
			n->skipped = true;
			if (m == -E2BIG)
				snprintf(n->why, sizeof(n->why), "row %zu: '%.40s' too costly to match (limits: %u characters, "
					 "%u states with repetitions expanded)", rows, pattern, PMC_TABLE_PATTERN_MAX,
					 PMC_TABLE_PATTERN_STATES);
			else
				snprintf(n->why, sizeof(n->why), "row %zu: '%.60s' is not a POSIX extended regular expression",
					 rows, pattern);
			continue;
		}
		if (!m || !*file)
			continue;
		size_t fl = strlen(file);
		bool perfmon = fl > 5 && strcmp(file + fl - 5, ".json") == 0;
		if (!perfmon && hits) /* perf: the first matching row names the model */
			continue;
		if (perfmon && !type_read(type)) { /* core PMU events and metrics only, for now */
			struct pmc_table_note *n = pmc_tables_note(t, false, file);
			if (!n) {
				r = -ENOMEM;
				goto out;
			}
			n->skipped = true;
			snprintf(n->why, sizeof(n->why), "a %.40s table: only core-PMU events and metrics are read", type);
			continue;
		}
		char *path;
		while (*file == '/')
			file++;
		if (asprintf(&path, "%s/%s", root, file) < 0) {
			r = -ENOMEM;
			goto out;
		}
		if (!hits++) {
			t->rep.format = perfmon ? PMC_TABLE_PERFMON : PMC_TABLE_PERF;
			t->rep.mapfile = strdup(mapfile);
			t->rep.matched = strdup(pattern);
			t->rep.model = strdup(file);
			if (!t->rep.mapfile || !t->rep.matched || !t->rep.model) {
				free(path);
				r = -ENOMEM;
				goto out;
			}
		}
		if (perfmon) {
			size_t first = t->nev;
			r = load_file(t, path);
			/* a hybrid CPU's rows say which core type: its events belong to that PMU, as perf names it */
			const char *pmu = strcasecmp(role, "Core") == 0 ? "cpu_core" :
			                  strcasecmp(role, "Atom") == 0 ? "cpu_atom" : NULL;
			for (size_t i = first; r == 0 && pmu && i < t->nev; i++)
				if (!t->ev[i].pmu && !(t->ev[i].pmu = strdup(pmu)))
					r = -ENOMEM;
		} else {
			r = load_std(t, root);
			if (r == 0)
				r = load_dir(t, path);
			if (r == 0)
				r = load_sys(t, root);
		}
		free(path);
		if (r < 0)
			goto out;
	}
	if (!hits)
		snprintf(loc->why, sizeof(loc->why), "%.80s: none of its %zu rows matches CPUID %.60s", mapfile, rows,
		         t->rep.cpuid);
	r = hits > 0;
out:
	free(text);
	return r;
}

/* Arm telemetry-solution: a folder of <core>.json with "product_configuration" naming implementer and part number. */
static int try_neoverse(struct pmc_tables *t, const char *dir, struct pmc_table_note *loc)
{
	unsigned long long midr;
	char *end, **v;
	size_t n;
	int r, found = 0;

	if (t->enc != PMC_TABLE_ENC_ARM64)
		return 0;
	midr = strtoull(t->rep.cpuid, &end, 16);
	if ((r = json_files(dir, &v, &n)) < 0)
		return r == -ENOMEM ? r : 0;
	for (size_t i = 0; i < n && !found; i++) {
		char *text, why[160];
		size_t len;
		struct pmc_jvalue *doc;
		if (read_file(v[i], &text, &len, why, sizeof(why)) < 0)
			continue;
		r = pmc_json_parse(text, len, &doc, why, sizeof(why));
		free(text);
		if (r == -ENOMEM) {
			strv_free(v, n);
			return r;
		}
		if (r < 0) { /* it may be this CPU's file: name it */
			struct pmc_table_note *bad = pmc_tables_note(t, false, v[i]);
			if (!bad) {
				strv_free(v, n);
				return -ENOMEM;
			}
			bad->skipped = true;
			snprintf(bad->why, sizeof(bad->why), "not valid JSON: %s", why);
			r = 0;
			continue;
		}
		const struct pmc_jvalue *pc = pmc_json_get(doc, "product_configuration");
		const char *impl = pmc_json_get_str(pc, "implementer", NULL), *part = pmc_json_get_str(pc, "part_num", NULL);
		double implnum = pmc_json_get_num(pc, "implementer", -1), partnum = pmc_json_get_num(pc, "part_num", -1);
		unsigned long long iv = impl ? strtoull(impl, NULL, 0) : (unsigned long long)implnum;
		unsigned long long pv = part ? strtoull(part, NULL, 0) : (unsigned long long)partnum;
		if (pc && (impl || implnum >= 0) && (part || partnum >= 0) && iv == ((midr >> 24) & 0xff) &&
		    pv == ((midr >> 4) & 0xfff)) {
			const char *name = pmc_json_get_str(pc, "product_name", v[i]);
			t->rep.format = PMC_TABLE_ARM;
			t->rep.matched = strdup(name);
			t->rep.model = strdup(v[i]);
			found = 1;
			r = (t->rep.matched && t->rep.model) ? load_file(t, v[i]) : -ENOMEM;
		}
		pmc_json_free(doc);
		if (r == -ENOMEM) {
			strv_free(v, n);
			return r;
		}
	}
	strv_free(v, n);
	if (!found)
		snprintf(loc->why, sizeof(loc->why), "no Neoverse file names implementer 0x%02llx part 0x%03llx",
		         (midr >> 24) & 0xff, (midr >> 4) & 0xfff);
	return found;
}

static bool is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* One location: the layouts it may hold, in order. 1 loaded, 0 not (why in the location's note), -ENOMEM. */
static int try_location(struct pmc_tables *t, const char *dir, const char *from)
{
	struct pmc_table_note *loc = pmc_tables_note(t, true, dir);
	const char *arch = t->enc == PMC_TABLE_ENC_ARM64 ? "arm64" : "x86";
	const char *sub[] = { "", "/arch/%s", "/%s", "/tools/perf/pmu-events/arch/%s" };
	char root[4096], map[4200];
	int r;

	if (!loc)
		return -ENOMEM;
	if (!is_dir(dir)) {
		snprintf(loc->why, sizeof(loc->why), "no such directory");
		return 0;
	}
	for (size_t i = 0; i < sizeof(sub) / sizeof(sub[0]); i++) {
		char tail[64];
		snprintf(tail, sizeof(tail), sub[i], arch);
		snprintf(root, sizeof(root), "%s%s", dir, tail);
		snprintf(map, sizeof(map), "%s/mapfile.csv", root);
		if (!is_file(map))
			continue;
		if ((r = try_mapfile(t, root, map, loc)) != 0)
			goto found;
		return 0;
	}
	const char *nsub[] = { "", "/data/pmu/cpu/neoverse", "/neoverse" };
	for (size_t i = 0; i < sizeof(nsub) / sizeof(nsub[0]); i++) {
		snprintf(root, sizeof(root), "%s%s", dir, nsub[i]);
		if (!is_dir(root))
			continue;
		if ((r = try_neoverse(t, root, loc)) != 0)
			goto found;
	}
	if (!loc->why[0])
		snprintf(loc->why, sizeof(loc->why), "no mapfile.csv (perf or perfmon) and no Neoverse file for %s",
		         t->rep.cpuid);
	return 0;
found:
	if (r < 0)
		return r;
	loc->why[0] = '\0';
	t->rep.dir_from = from;
	return (t->rep.dir = strdup(dir)) ? 1 : -ENOMEM;
}

/* One name defined twice for the same PMU with different codes (two files, or one file twice): the first read is
 * used (the events are sorted stably), and the report says so, naming both; perf takes one silently. A hybrid CPU's
 * cpu_core and cpu_atom entries of one name are not a conflict. */
static void find_conflicts(struct pmc_tables *t)
{
	for (size_t i = 1; i < t->nev; i++) {
		const struct pmc_table_event *a = &t->ev[i - 1], *b = &t->ev[i];

		if (strcmp(a->name, b->name) || (a->pmu && b->pmu ? strcmp(a->pmu, b->pmu) != 0 : a->pmu != b->pmu) ||
		    (a->config == b->config && a->config1 == b->config1))
			continue;
		if (!t->rep.nconflicts++)
			snprintf(t->rep.conflict, sizeof(t->rep.conflict), "'%.60s': config 0x%" PRIx64 " in %.90s, "
				 "0x%" PRIx64 " in %.90s", a->name, a->config, a->source, b->config, b->source);
	}
}

int pmc_tables_load(const char *dir, const char *cpuid, struct pmc_tables **ret)
{
	struct pmc_tables *t;
	const char *env = getenv("PMCTOOL_CPUID"), *home = getenv("HOME"), *xdg = getenv("XDG_DATA_HOME");
	char xdgdir[4096] = "", homedir[4096] = "";
	int r = 0;

	if (!ret)
		return -EINVAL;
	if (!(t = pmc_tables_new()))
		return -ENOMEM;
	t->rep.cpuid_from = "caller";
	if (env && *env) {
		cpuid = env;
		t->rep.cpuid_from = "PMCTOOL_CPUID";
	}
	if (!cpuid || !*cpuid) {
		*ret = t;
		return -ENOENT;
	}
	if (!(t->rep.cpuid = strdup(cpuid))) {
		pmc_tables_free(t);
		return -ENOMEM;
	}
	t->enc = strncasecmp(cpuid, "0x", 2) == 0 ? PMC_TABLE_ENC_ARM64 : PMC_TABLE_ENC_X86;
	if (xdg && xdg[0] == '/')
		snprintf(xdgdir, sizeof(xdgdir), "%s/pmctool/tables", xdg);
	if (home && home[0] == '/')
		snprintf(homedir, sizeof(homedir), "%s/.local/share/pmctool/tables", home);
	const struct {
		const char *dir, *from;
	} where[] = {
		{ dir, "argument" },
		{ getenv("PMCTOOL_TABLES"), "PMCTOOL_TABLES" },
		{ xdgdir, "XDG_DATA_HOME" },
		{ homedir, "HOME" },
		{ "/usr/local/share/pmctool/tables", "system" },
		{ "/usr/share/pmctool/tables", "system" },
	};
	for (size_t i = 0; i < sizeof(where) / sizeof(where[0]) && r == 0; i++)
		if (where[i].dir && where[i].dir[0])
			r = try_location(t, where[i].dir, where[i].from);
	if (r == 1)
		r = pmc_tables_sort(t);
	if (r >= 0)
		find_conflicts(t);
	if (r == -ENOMEM) {
		pmc_tables_free(t);
		return r;
	}
	for (size_t i = 0; i < t->nev; i++)
		t->rep.ndeprecated += t->ev[i].deprecated;
	t->rep.nevents = t->nev;
	t->rep.nmetrics = t->nmet;
	*ret = t;
	return t->rep.dir ? 0 : -ENOENT;
}
