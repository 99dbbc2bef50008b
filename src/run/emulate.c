/* SPDX-License-Identifier: MIT */
/* The emulated backend: valgrind's lackey tool counts every user-mode instruction executed (emulate.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/emulate.h"
#include "run/launch.h"
#include "util/file_read.h"


const char *pmc_emulator_find(char *buf, size_t len)
{
	return pmc_path_resolve("valgrind", buf, len) ? buf : NULL;
}

int pmc_emulate_argv(const char *valgrind, const char *dir, char *const argv[], char **words, size_t nwords,
		     char *store, size_t storelen)
{
	size_t n = 0, cmd = 0;
	int w;

	while (argv[cmd])
		cmd++;
	if (nwords < PMC_EMULATE_MAX_ARGS + cmd + 1)
		return -E2BIG;
	/* lackey's basic counts: every guest instruction as it executes (callgrind counts a basic block when it
	 * completes, so it misses the block that ends in exit). One log per process image (%p the process, %n a number
	 * within it), children followed (a PMU's counters are inherited by them); the log also keeps valgrind's own
	 * messages out of the command's stderr. */
	w = snprintf(store, storelen, "--log-file=%s/vg.%%p.%%n.log", dir);
	if (w < 0 || (size_t)w >= storelen)
		return -E2BIG;
	words[n++] = (char *)valgrind;
	words[n++] = "--tool=lackey";
	words[n++] = "--basic-counts=yes";
	words[n++] = store;
	words[n++] = "--trace-children=yes";
	words[n++] = "--";
	for (size_t i = 0; i < cmd; i++)
		words[n++] = argv[i];
	words[n] = NULL;
	return 0;
}

/* The text after "==PID== " on a line of a valgrind log, or the line itself. */
static const char *payload(const char *line, const char *end)
{
	if (line < end && line[0] == '=' && line[1] == '=') {
		const char *q = line + 2;

		while (q < end && *q >= '0' && *q <= '9')
			q++;
		if (q + 3 <= end && q[0] == '=' && q[1] == '=' && q[2] == ' ')
			return q + 3;
	}
	return line;
}

/* "2,000,005" -> 2000005; false when it is not such a number. */
static bool grouped_number(const char *p, const char *end, uint64_t *ret)
{
	uint64_t v = 0;
	bool digit = false;

	while (p < end && *p == ' ')
		p++;
	for (; p < end && ((*p >= '0' && *p <= '9') || *p == ','); p++) {
		if (*p == ',')
			continue;
		if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return false;
		v = v * 10 + (uint64_t)(*p - '0');
		digit = true;
	}
	while (p < end && (*p == ' ' || *p == '\r'))
		p++;
	if (!digit || p != end)
		return false;
	*ret = v;
	return true;
}

int pmc_emulate_parse(const char *text, uint64_t *ret_count, char *cmd, size_t cmdlen)
{
	const char *p = text;
	bool have = false, log = false;
	uint64_t v = 0;

	if (cmdlen)
		cmd[0] = '\0';
	while (p && *p) {
		const char *nl = strchr(p, '\n'), *end = nl ? nl : p + strlen(p), *q = payload(p, end);

		if (q != p)
			log = true;
		if (!have && !strncmp(q, "  guest instrs:", 15) && grouped_number(q + 15, end, &v))
			have = true;
		else if (!strncmp(q, "Command: ", 9) && cmdlen)
			snprintf(cmd, cmdlen, "%.*s", (int)((size_t)(end - q - 9) < cmdlen ? (size_t)(end - q - 9) : cmdlen - 1),
				 q + 9);
		p = nl ? nl + 1 : NULL;
	}
	if (!have)
		return log && cmdlen && cmd[0] ? -ENODATA : -EINVAL;
	*ret_count = v;
	return 0;
}

/* Whether a log's "Command:" (valgrind joins the words with spaces and escapes the spaces inside them) is argv. */
static bool is_command(const char *cmd, char *const argv[])
{
	for (size_t i = 0; argv[i]; i++) {
		if (i && *cmd++ != ' ')
			return false;
		for (const char *a = argv[i]; *a; a++) {
			if (*cmd == '\\')
				cmd++;
			if (*cmd++ != *a)
				return false;
		}
	}
	return *cmd == '\0';
}

int pmc_emulate_collect(const char *dir, char *const argv[], struct pmc_emulate_count *ret, char *why, size_t whylen)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int rc = 0;

	memset(ret, 0, sizeof(*ret));
	if (!d) {
		snprintf(why, whylen, "%s: %s", dir, strerror(errno));
		return -errno;
	}
	while ((e = readdir(d))) {
		char path[4096], cmd[4096], *text = NULL;
		size_t len;
		uint64_t v;
		int r;

		if (strncmp(e->d_name, "vg.", 3))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (!rc && pmc_read_whole_file(path, PMC_EMULATE_MAX_LOG, &text, &len, why, whylen) < 0) {
			rc = -EIO;
		} else if (!rc && (r = pmc_emulate_parse(text, &v, cmd, sizeof(cmd))) == 0) {
			ret->instructions += v;
			ret->images++;
			ret->top_seen |= argv && is_command(cmd, argv);
		} else if (!rc && r == -ENODATA) {
			/* A process image that exec'd into another (or died by SIGKILL): lackey never summed it. */
			if (!ret->uncounted++)
				snprintf(ret->uncounted_cmd, sizeof(ret->uncounted_cmd), "%.*s",
					 (int)sizeof(ret->uncounted_cmd) - 1, cmd);
		} else if (!rc) {
			snprintf(why, whylen, "valgrind's log %s holds no instruction count: %.200s", e->d_name,
				 text ? text : "");
			rc = -EINVAL;
		}
		free(text);
		unlinkat(dirfd(d), e->d_name, 0);
	}
	closedir(d);
	if (!rc && !ret->images) {
		snprintf(why, whylen, "valgrind counted no process image of the command%s%s", ret->uncounted ? ": " : "",
			 ret->uncounted ? ret->uncounted_cmd : "");
		rc = -ENOENT;
	}
	return rc;
}
