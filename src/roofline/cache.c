/* SPDX-License-Identifier: MIT */
/* The ceilings cache: one small text file per machine fingerprint in the user's cache directory, read only when it
 * is a regular file of ours, written whole (temporary file, fsync, rename), never through a link or into a FIFO. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "roofline/roofline.h"
#include "util/file_write.h"

#define MAGIC "# pmctool roofline ceilings v1"
#define MAX_FILE (64 * 1024)

static const char *cache_root(char *buf, size_t len)
{
	const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	if (x && x[0] == '/')
		return x; /* the XDG spec: a relative value is invalid and ignored */
	if (home && home[0] == '/' && snprintf(buf, len, "%s/.cache", home) < (int)len)
		return buf;
	return NULL;
}

int pmc_rf_cache_path(const char *fingerprint, char *buf, size_t len)
{
	char tmp[4096];
	const char *root = cache_root(tmp, sizeof(tmp));

	if (!root)
		return -ENOENT;
	if (snprintf(buf, len, "%s/pmctool/roofline-%s", root, fingerprint) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

/* The pmctool directory under the cache root, O_PATH: made 0700 when create and absent; refused when it is a link,
 * not a directory, or not ours (another user's directory could feed us ceilings or take our writes). */
static int open_dir(bool create, char *err, size_t errlen)
{
	char tmp[4096];
	const char *root = cache_root(tmp, sizeof(tmp));
	struct stat st;
	int rootfd, fd;

	if (!root) {
		snprintf(err, errlen, "neither XDG_CACHE_HOME nor HOME names a directory (an absolute path)");
		return -ENOENT;
	}
	if (create && mkdir(root, 0700) < 0 && errno != EEXIST) {
		snprintf(err, errlen, "cannot make '%s': %s", root, strerror(errno));
		return -errno;
	}
	rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0) {
		int e = errno;
		snprintf(err, errlen, "cannot open '%s': %s", root, strerror(e));
		return -e;
	}
	if (create && mkdirat(rootfd, "pmctool", 0700) < 0 && errno != EEXIST) {
		int e = errno;
		snprintf(err, errlen, "cannot make '%s/pmctool': %s", root, strerror(e));
		close(rootfd);
		return -e;
	}
	fd = openat(rootfd, "pmctool", O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	close(rootfd);
	if (fd < 0) {
		int e = errno;
		snprintf(err, errlen, "cannot open '%s/pmctool'%s: %s", root,
			 e == ELOOP || e == ENOTDIR ? " (a link or not a directory: remove it)" : "", strerror(e));
		return -e;
	}
	if (fstat(fd, &st) < 0 || st.st_uid != geteuid()) {
		snprintf(err, errlen, "'%s/pmctool' is not owned by this user: not used", root);
		close(fd);
		return -EPERM;
	}
	return fd;
}

static void base_name(const char *fingerprint, char *buf, size_t len)
{
	snprintf(buf, len, "roofline-%s", fingerprint);
}

int pmc_rf_cache_load(struct pmc_rf_ceilings *ret, char *err, size_t errlen)
{
	struct pmc_rf_ceilings c;
	char base[64], *buf;
	struct stat st;
	ssize_t got;
	int dirfd, fd, rc;

	base_name(ret->fingerprint, base, sizeof(base));
	if ((dirfd = open_dir(false, err, errlen)) < 0)
		return dirfd == -ENOENT ? -ENOENT : dirfd;
	fd = openat(dirfd, base, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	close(dirfd);
	if (fd < 0) {
		rc = -errno;
		if (rc != -ENOENT)
			snprintf(err, errlen, "cannot open the cached ceilings '%s'%s: %s", base,
				 rc == -ELOOP ? " (a link)" : "", strerror(-rc));
		return rc;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > MAX_FILE || st.st_uid != geteuid()) {
		snprintf(err, errlen, "the cached ceilings '%s' are not a regular file of this user under %d bytes", base,
			 MAX_FILE);
		close(fd);
		return -EINVAL;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	got = read(fd, buf, (size_t)st.st_size);
	close(fd);
	if (got != (ssize_t)st.st_size) {
		snprintf(err, errlen, "cannot read the cached ceilings '%s'", base);
		free(buf);
		return -EIO;
	}
	buf[got] = '\0';
	rc = pmc_rf_ceilings_parse(buf, &c, err, errlen);
	free(buf);
	if (rc < 0)
		return rc;
	if (strcmp(c.fingerprint, ret->fingerprint)) {
		snprintf(err, errlen, "the cached ceilings '%s' name another fingerprint (%s)", base, c.fingerprint);
		return -EINVAL;
	}
	*ret = c;
	return 0;
}

int pmc_rf_cache_store(const struct pmc_rf_ceilings *c, char *err, size_t errlen)
{
	char base[64], *buf;
	struct stat old;
	int dirfd, rc;

	buf = malloc(MAX_FILE);
	if (!buf)
		return -ENOMEM;
	if ((rc = pmc_rf_ceilings_format(c, buf, MAX_FILE)) < 0) {
		snprintf(err, errlen, "the ceilings do not fit in %d bytes", MAX_FILE);
		free(buf);
		return rc;
	}
	if ((dirfd = open_dir(true, err, errlen)) < 0) {
		free(buf);
		return dirfd;
	}
	base_name(c->fingerprint, base, sizeof(base));
	/* The rename replaces whatever has the name (a link or a FIFO included) without following it. */
	rc = fstatat(dirfd, base, &old, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(old.st_mode) ? 1 : 0;
	rc = pmc_write_renamed_at(dirfd, base, rc ? &old : NULL, false, buf, strlen(buf));
	if (rc < 0)
		snprintf(err, errlen, "cannot write the cached ceilings '%s': %s", base, strerror(-rc));
	close(dirfd);
	free(buf);
	return rc;
}

/* ---- the text form ---- */

static bool clean(const char *s)
{
	return !strpbrk(s, "\t\n\r");
}

int pmc_rf_ceilings_format(const struct pmc_rf_ceilings *c, char *buf, size_t len)
{
	size_t off = 0;
	int w;

	w = snprintf(buf, len, "%s\nfingerprint\t%s\nmachine\t%s\nmeasured_at\t%lld\n", MAGIC, c->fingerprint,
		     clean(c->machine) ? c->machine : "?", c->measured_at);
	if (w < 0 || (size_t)w >= len)
		return -ENOSPC;
	off = (size_t)w;
	for (size_t i = 0; i < c->n; i++) {
		const struct pmc_rf_ceiling *x = &c->c[i];

		if (!clean(x->name) || !clean(x->kernel) || !clean(x->reason))
			return -EINVAL;
		w = snprintf(buf + off, len - off,
			     "ceiling\t%s\t%d\t%d\t%u\t%llu\t%d\t%u\t%.17g\t%.17g\t%.17g\t%s\t%s\t%s\n",
			     x->kind == PMC_RF_COMPUTE ? "compute" : "bandwidth", x->level, x->dp, x->threads,
			     (unsigned long long)x->footprint, x->valid, x->repeats, x->median, x->min, x->max, x->name,
			     x->kernel, x->reason);
		if (w < 0 || (size_t)w >= len - off)
			return -ENOSPC;
		off += (size_t)w;
	}
	return 0;
}

/* Split line at tabs into at most max fields (the line is modified): the count. */
static size_t split(char *line, char **f, size_t max)
{
	size_t n = 0;

	while (n < max) {
		f[n++] = line;
		line = strchr(line, '\t');
		if (!line)
			break;
		*line++ = '\0';
	}
	return n;
}

static bool num(const char *s, double *ret)
{
	char *end;

	errno = 0;
	*ret = strtod(s, &end);
	return !errno && end != s && !*end && isfinite(*ret) && *ret >= 0;
}

static bool uint_in(const char *s, unsigned long long max, unsigned long long *ret)
{
	char *end;

	errno = 0;
	if (*s == '-' || !*s)
		return false;
	*ret = strtoull(s, &end, 10);
	return !errno && !*end && *ret <= max;
}

static int parse_ceiling(char **f, struct pmc_rf_ceiling *x)
{
	unsigned long long level, dp, threads, foot, valid, reps;

	memset(x, 0, sizeof(*x));
	if (!strcmp(f[1], "compute"))
		x->kind = PMC_RF_COMPUTE;
	else if (!strcmp(f[1], "bandwidth"))
		x->kind = PMC_RF_BANDWIDTH;
	else
		return -EINVAL;
	if (x->kind == PMC_RF_COMPUTE ? strcmp(f[2], "-1") != 0 : !uint_in(f[2], PMC_RF_NLEVELS - 1, &level))
		return -EINVAL;
	x->level = x->kind == PMC_RF_COMPUTE ? -1 : (int)level;
	if (!uint_in(f[3], 1, &dp) || !uint_in(f[4], 1u << 20, &threads) || !threads ||
	    !uint_in(f[5], 1ull << 40, &foot) || !uint_in(f[6], 1, &valid) || !uint_in(f[7], PMC_RF_MAX_REPEATS, &reps))
		return -EINVAL;
	if (!num(f[8], &x->median) || !num(f[9], &x->min) || !num(f[10], &x->max))
		return -EINVAL;
	if (valid && !(x->min <= x->median && x->median <= x->max && x->median > 0 && reps > 0))
		return -EINVAL;
	if (strlen(f[11]) >= sizeof(x->name) || strlen(f[12]) >= sizeof(x->kernel) || strlen(f[13]) >= sizeof(x->reason))
		return -EINVAL;
	x->dp = dp;
	x->threads = (unsigned)threads;
	x->footprint = foot;
	x->valid = valid;
	x->repeats = (unsigned)reps;
	strcpy(x->name, f[11]);
	strcpy(x->kernel, f[12]);
	strcpy(x->reason, f[13]);
	return 0;
}

int pmc_rf_ceilings_parse(const char *text, struct pmc_rf_ceilings *ret, char *err, size_t errlen)
{
	struct pmc_rf_ceilings c = { .n = 0 };
	char *copy = strdup(text), *save = NULL, *line;
	unsigned lineno = 0;
	unsigned seen = 0;
	int rc = 0;

	if (!copy)
		return -ENOMEM;
	for (line = strtok_r(copy, "\n", &save); line && !rc; line = strtok_r(NULL, "\n", &save)) {
		char *f[15];
		size_t n;
		unsigned long long at;

		lineno++;
		if (lineno == 1) {
			if (strcmp(line, MAGIC))
				rc = -EINVAL;
			continue;
		}
		n = split(line, f, 15);
		if (n == 2 && !strcmp(f[0], "fingerprint") && strlen(f[1]) == 16 &&
		    strspn(f[1], "0123456789abcdef") == 16) {
			strcpy(c.fingerprint, f[1]);
			seen |= 1;
		} else if (n == 2 && !strcmp(f[0], "machine")) {
			snprintf(c.machine, sizeof(c.machine), "%s", f[1]);
		} else if (n == 2 && !strcmp(f[0], "measured_at") && uint_in(f[1], 1ull << 40, &at)) {
			c.measured_at = (long long)at;
		} else if (n == 14 && !strcmp(f[0], "ceiling") && c.n < PMC_RF_MAX_CEILINGS) {
			rc = parse_ceiling(f, &c.c[c.n++]);
		} else {
			rc = -EINVAL;
		}
	}
	free(copy);
	if (!rc && (lineno == 0 || !(seen & 1)))
		rc = -EINVAL, lineno = lineno ? lineno : 1;
	if (rc) {
		snprintf(err, errlen, "malformed ceilings at line %u (run 'pmctool roofline --refresh' to measure again)",
			 lineno);
		return rc;
	}
	*ret = c;
	return 0;
}
