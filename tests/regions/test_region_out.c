/* SPDX-License-Identifier: MIT */
/* The region library's standalone report path (src/regions/lib/rg_write.c, linked from the static libpmctool): the
 * PMCTOOL_REGIONS_OUT template expanded from this process's environment, the format chosen by the name or
 * PMCTOOL_REGIONS_FORMAT, the message for a template that cannot be expanded, and the files written. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "regions/lib/rg_internal.h"

static const char *const launcher_vars[] = { "OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID",
					     "SLURM_JOB_ID", "PBS_JOBID", "LSB_JOBID", "FLUX_JOB_ID",
					     "OMPI_MCA_ess_base_jobid" };

static void no_launcher(void)
{
	for (size_t i = 0; i < sizeof(launcher_vars) / sizeof(launcher_vars[0]); i++)
		unsetenv(launcher_vars[i]);
}

/* pmc_rg_setup_out with stderr caught in msg. */
static void setup_caught(const char *out, const char *format, char *msg, size_t len)
{
	FILE *tmp = tmpfile();
	int saved = dup(STDERR_FILENO);
	size_t n;

	assert_non_null(tmp);
	assert_true(saved >= 0);
	fflush(stderr);
	assert_true(dup2(fileno(tmp), STDERR_FILENO) >= 0);
	memset(&pmc_rg, 0, sizeof(pmc_rg));
	pmc_rg.chan_fd = -1;
	pmc_rg.exit_status = -1;
	pmc_rg.mode = RG_STANDALONE;
	pmc_rg_setup_out(out, format);
	fflush(stderr);
	assert_true(dup2(saved, STDERR_FILENO) >= 0);
	close(saved);
	rewind(tmp);
	n = fread(msg, 1, len - 1, tmp);
	msg[n] = '\0';
	fclose(tmp);
}

struct out_case {
	const char *out, *format;
	const char *rank, *job;    /* PMI_RANK, SLURM_JOB_ID; NULL: unset */
	bool bad, json;
	const char *msg;           /* a part of the message on stderr; NULL: none */
};

static void test_out_templates_and_formats_table(void **state)
{
	static const struct out_case cases[] = {
		{ "regions.%h.%r.json", NULL, "3", NULL, false, true, NULL },
		{ "regions.%p.txt", NULL, NULL, NULL, false, false, NULL },
		{ "r.%r.%j.json", NULL, "0", "77", false, true, NULL },
		{ "100%%.json", NULL, NULL, NULL, false, true, NULL },
		{ "regions.%r.json", NULL, NULL, NULL, true, false,
		  "PMCTOOL_REGIONS_OUT='regions.%r.json': %r: no rank in the environment (none of OMPI_COMM_WORLD_RANK, "
		  "PMI_RANK, PMIX_RANK, SLURM_PROCID is set" },
		{ "regions.%r.json", "json", NULL, NULL, true, true, "the region report will go to stderr" },
		{ "r.%j.json", NULL, "1", NULL, true, false, "%j: no job id in the environment (none of SLURM_JOB_ID" },
		{ "r.%q.json", NULL, NULL, NULL, true, false, "'%q' is not a template directive" },
		{ "r.json%", NULL, NULL, NULL, true, false, "is not a template directive" },
		{ "r.txt", "json", NULL, NULL, false, true, NULL },
		{ "r.json", "text", NULL, NULL, false, false, NULL },
		{ "r.json", "xml", NULL, NULL, false, true, "PMCTOOL_REGIONS_FORMAT='xml' is not a format (json or text)" },
		{ NULL, NULL, NULL, NULL, false, false, NULL },
		{ NULL, "json", NULL, NULL, false, true, NULL },
		{ ".json", NULL, NULL, NULL, false, false, NULL }, /* a name, not a .json suffix */
	};
	char msg[1024];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct out_case *c = &cases[i];

		no_launcher();
		if (c->rank)
			setenv("PMI_RANK", c->rank, 1);
		if (c->job)
			setenv("SLURM_JOB_ID", c->job, 1);
		setup_caught(c->out, c->format, msg, sizeof(msg));
		if (pmc_rg.out_bad != c->bad || pmc_rg.json != c->json)
			fail_msg("case %zu (%s, %s): bad %d json %d, expected %d %d; stderr: %s", i, c->out ? c->out : "NULL",
				 c->format ? c->format : "NULL", pmc_rg.out_bad, pmc_rg.json, c->bad, c->json, msg);
		if (c->msg ? !strstr(msg, c->msg) : msg[0] != '\0')
			fail_msg("case %zu (%s): stderr '%s', expected '%s'", i, c->out, msg, c->msg ? c->msg : "");
	}
	no_launcher();
}

static char *slurp(const char *path)
{
	static char buf[65536];
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return NULL;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

static size_t entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/* The JSON report goes to the expanded path, whole (one file, no temporary file beside it), with the rank in it;
 * written again, it is replaced, not appended to. */
static void test_json_report_written_to_the_expanded_path_and_replaced(void **state)
{
	char dir[] = "/tmp/pmctool-rgout-XXXXXX", tmpl[128], path[128], msg[256], *text;

	(void)state;
	assert_non_null(mkdtemp(dir));
	no_launcher();
	setenv("PMI_RANK", "5", 1);
	snprintf(tmpl, sizeof(tmpl), "%s/u.%%r.%%%%.json", dir);
	setup_caught(tmpl, NULL, msg, sizeof(msg));
	assert_string_equal(msg, "");
	pmc_rg.exit_status = 0;
	for (int round = 0; round < 2; round++)
		assert_int_equal(pmc_rg_write(), 0);
	snprintf(path, sizeof(path), "%s/u.5.%%.json", dir);
	text = slurp(path);
	assert_non_null(text);
	assert_true(!strncmp(text, "{\"schema_version\":1,\"kind\":\"stat\"", 33));
	assert_non_null(strstr(text, "\"rank\":5,\"rank_from\":\"PMI_RANK\""));
	assert_non_null(strstr(text, "\"mode\":\"standalone\""));
	assert_null(strstr(text + 1, "{\"schema_version\"")); /* replaced, not appended */
	assert_int_equal(entries(dir), 1);
	unlink(path);
	rmdir(dir);
	no_launcher();
}

/* Text reports are appended (several processes may share one file); each write is one whole report. */
static void test_text_report_appended(void **state)
{
	char dir[] = "/tmp/pmctool-rgout-XXXXXX", tmpl[128], path[128], msg[256], *text, *second;

	(void)state;
	assert_non_null(mkdtemp(dir));
	no_launcher();
	snprintf(tmpl, sizeof(tmpl), "%s/t.%%p.txt", dir);
	setup_caught(tmpl, NULL, msg, sizeof(msg));
	assert_false(pmc_rg.json);
	assert_int_equal(pmc_rg_write(), 0);
	assert_int_equal(pmc_rg_write(), 0);
	snprintf(path, sizeof(path), "%s/t.%d.txt", dir, (int)getpid());
	text = slurp(path);
	assert_non_null(text);
	assert_true(!strncmp(text, "pmctool regions: pid", 20));
	second = strstr(text + 1, "pmctool regions: pid");
	assert_non_null(second);
	assert_null(strstr(second + 1, "pmctool regions: pid"));
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_out_templates_and_formats_table),
		cmocka_unit_test(test_json_report_written_to_the_expanded_path_and_replaced),
		cmocka_unit_test(test_text_report_appended),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
