/* SPDX-License-Identifier: MIT */
/* Reading set files and finding them in the events directories. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "eventsets/eventset.h"

/* A set is found by its file's name (-g NAME opens NAME.set), so the name inside must be that name. */
static int name_matches_file(const char *path, const struct pmc_eventset *set, char *err, size_t errlen)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	n = strlen(set->name);
	if (!strncmp(base, set->name, n) && !strcmp(base + n, ".set"))
		return 0;
	snprintf(err, errlen, "%s: says 'set %s', so the file must be named %s.set (pmctool finds a set by its file's "
		 "name): rename the file or change its 'set' line", path, set->name, set->name);
	return -EINVAL;
}

int pmc_eventset_load(const char *path, struct pmc_eventset **ret, char *err, size_t errlen)
{
	struct stat st;
	char *buf;
	size_t got = 0;
	int fd, rc;

	/* never blocking: a FIFO opens at once here and is refused below, a reader that never comes cannot hang -g */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(-rc));
		return rc;
	}
	if (fstat(fd, &st))
		memset(&st, 0, sizeof(st));
	if (!S_ISREG(st.st_mode) || st.st_size > PMC_EVENTSET_MAX_FILE) {
		rc = S_ISDIR(st.st_mode) ? -EISDIR : -E2BIG;
		snprintf(err, errlen, "%s: %s", path, rc == -EISDIR ? "is a directory, not a set file"
				: S_ISREG(st.st_mode) ? "larger than 1 MiB: a set file is at most 1 MiB"
				: "not a regular file (a FIFO, device or socket): a set file is read from a file; "
				  "copy it into one first");
		close(fd);
		return rc;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rc = n < 0 ? -errno : -EIO;
			snprintf(err, errlen, "%s: read failed: %s", path, strerror(-rc));
			free(buf);
			close(fd);
			return rc;
		}
		got += (size_t)n;
	}
	close(fd);
	rc = pmc_eventset_parse(buf, got, path, ret, err, errlen);
	free(buf);
	if (!rc && (rc = name_matches_file(path, *ret, err, errlen))) {
		pmc_eventset_free(*ret);
		*ret = NULL;
	}
	return rc;
}

size_t pmc_eventset_dirs(const char *dirs[3])
{
	const char *env = getenv("PMCTOOL_EVENTS_DIR");
	size_t n = 0;

	if (env && *env)
		dirs[n++] = env;
	dirs[n++] = PMC_EVENTS_DIR;
	dirs[n++] = PMC_SOURCE_EVENTS_DIR;
	return n;
}

static bool valid_set_name(const char *name)
{
	size_t n = strlen(name);

	return n && n < PMC_EVENTSET_NAME_MAX && name[0] != '.' &&
	       strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") == n;
}

int pmc_eventset_find(const char *name, struct pmc_eventset **ret, char *err, size_t errlen)
{
	const char *dirs[3];
	size_t nd = pmc_eventset_dirs(dirs), used = 0;
	char path[4096];

	if (strchr(name, '/'))
		return pmc_eventset_load(name, ret, err, errlen);
	if (!valid_set_name(name)) {
		snprintf(err, errlen, "'%.80s' is not a set name (letters, digits, '_', '.', '-'); "
			 "'pmctool sets --all' lists the sets", name);
		return -EINVAL;
	}
	for (size_t i = 0; i < nd; i++) {
		snprintf(path, sizeof(path), "%s/%s.set", dirs[i], name);
		if (access(path, F_OK) == 0)
			return pmc_eventset_load(path, ret, err, errlen);
	}
	used = (size_t)snprintf(err, errlen, "no event set '%s' (looked for %s.set in", name, name);
	for (size_t i = 0; i < nd && used < errlen; i++)
		used += (size_t)snprintf(err + used, errlen - used, "%s %s", i ? "," : "", dirs[i]);
	if (used < errlen)
		snprintf(err + used, errlen - used, "); 'pmctool sets --all' lists the sets, or give a path to a file");
	return -ENOENT;
}

static int cmp_set(const void *a, const void *b)
{
	const struct pmc_eventset *x = *(struct pmc_eventset *const *)a, *y = *(struct pmc_eventset *const *)b;

	return strcmp(x->name, y->name);
}

static bool have_name(struct pmc_eventset **sets, size_t n, const char *stem, size_t len)
{
	for (size_t i = 0; i < n; i++) {
		const char *base = strrchr(sets[i]->path, '/');
		base = base ? base + 1 : sets[i]->path;
		if (!strncmp(base, stem, len) && !strcmp(base + len, ".set"))
			return true;
	}
	return false;
}

int pmc_eventset_list(struct pmc_eventset ***ret, size_t *ret_n, char *err, size_t errlen)
{
	const char *dirs[3];
	size_t nd = pmc_eventset_dirs(dirs), n = 0;
	struct pmc_eventset **sets = NULL;
	int rc = 0;

	for (size_t i = 0; i < nd && !rc; i++) {
		DIR *d = opendir(dirs[i]);
		struct dirent *de;

		if (!d)
			continue;
		while (!rc && (de = readdir(d))) {
			size_t len = strlen(de->d_name);
			char path[4096];
			struct pmc_eventset **more;

			if (len < 5 || de->d_name[0] == '.' || strcmp(de->d_name + len - 4, ".set") ||
			    have_name(sets, n, de->d_name, len - 4))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dirs[i], de->d_name);
			more = realloc(sets, (n + 1) * sizeof(*sets));
			if (!more) {
				rc = -ENOMEM;
				break;
			}
			sets = more;
			rc = pmc_eventset_load(path, &sets[n], err, errlen);
			if (!rc)
				n++;
		}
		closedir(d);
	}
	if (rc) {
		pmc_eventset_list_free(sets, n);
		return rc;
	}
	if (n)
		qsort(sets, n, sizeof(*sets), cmp_set);
	*ret = sets;
	*ret_n = n;
	return 0;
}

void pmc_eventset_list_free(struct pmc_eventset **sets, size_t n)
{
	for (size_t i = 0; i < n; i++)
		pmc_eventset_free(sets[i]);
	free(sets);
}

int pmc_eventset_topdown_level(const char *name)
{
	struct pmc_eventset *set = NULL;
	char err[256];
	int level;

	if (!name || pmc_eventset_find(name, &set, err, sizeof(err)) < 0)
		return 0;
	level = set->topdown_level;
	pmc_eventset_free(set);
	return level;
}
