/* SPDX-License-Identifier: MIT */
/* -o templates: one report per rank and host when pmctool runs under mpirun or srun. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/path_template.h"

static const char *const rank_vars[] = { "OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID" };
static const char *const job_vars[] = { "SLURM_JOB_ID", "PBS_JOBID", "LSB_JOBID", "FLUX_JOB_ID",
					"OMPI_MCA_ess_base_jobid" };

void pmc_origin_get(struct pmc_origin *ret)
{
	memset(ret, 0, sizeof(*ret));
	if (gethostname(ret->host, sizeof(ret->host) - 1) < 0)
		snprintf(ret->host, sizeof(ret->host), "unknown");
	ret->pid = (long)getpid();
	ret->rank = -1;
	for (size_t i = 0; i < sizeof(rank_vars) / sizeof(rank_vars[0]); i++) {
		const char *v = getenv(rank_vars[i]);
		char *end;
		long r;

		if (!v || !*v)
			continue;
		errno = 0;
		r = strtol(v, &end, 10);
		if (*end || errno || r < 0)
			continue;
		ret->rank = r;
		ret->rank_from = rank_vars[i];
		break;
	}
	for (size_t i = 0; i < sizeof(job_vars) / sizeof(job_vars[0]); i++) {
		const char *v = getenv(job_vars[i]);
		if (v && *v) {
			snprintf(ret->job, sizeof(ret->job), "%s", v);
			ret->job_from = job_vars[i];
			break;
		}
	}
}

bool pmc_path_is_template(const char *tmpl)
{
	return strchr(tmpl, '%') != NULL;
}

static int put(char *out, size_t outlen, size_t *o, const char *s, bool slash_safe)
{
	for (; *s; s++) {
		if (*o + 1 >= outlen)
			return -ENAMETOOLONG;
		out[(*o)++] = slash_safe && *s == '/' ? '_' : *s;
	}
	return 0;
}

int pmc_path_template(const char *tmpl, const struct pmc_origin *o, char *out, size_t outlen, char *err,
		      size_t errlen)
{
	size_t n = 0;
	char num[32];
	int rc = 0;

	for (const char *p = tmpl; *p && !rc; p++) {
		char lit[2] = { *p, 0 };

		if (*p != '%') {
			rc = put(out, outlen, &n, lit, false);
			continue;
		}
		switch (*++p) {
		case '%':
			rc = put(out, outlen, &n, "%", false);
			break;
		case 'h':
			rc = put(out, outlen, &n, o->host, true);
			break;
		case 'p':
			snprintf(num, sizeof(num), "%ld", o->pid);
			rc = put(out, outlen, &n, num, false);
			break;
		case 'r':
			if (o->rank < 0) {
				snprintf(err, errlen, "%%r: no rank in the environment (none of OMPI_COMM_WORLD_RANK, "
					 "PMI_RANK, PMIX_RANK, SLURM_PROCID is set: run under mpirun or srun, or use %%p)");
				return -EINVAL;
			}
			snprintf(num, sizeof(num), "%ld", o->rank);
			rc = put(out, outlen, &n, num, false);
			break;
		case 'j':
			if (!o->job[0]) {
				snprintf(err, errlen, "%%j: no job id in the environment (none of SLURM_JOB_ID, PBS_JOBID, "
					 "LSB_JOBID, FLUX_JOB_ID, OMPI_MCA_ess_base_jobid is set)");
				return -EINVAL;
			}
			rc = put(out, outlen, &n, o->job, true);
			break;
		default:
			snprintf(err, errlen, "'%%%.1s' is not a template directive: %%h host, %%p pid, %%r rank, %%j job "
				 "id, %%%% a '%%'", *p ? p : "");
			return -EINVAL;
		}
	}
	if (rc) {
		snprintf(err, errlen, "the expanded path is longer than %zu bytes", outlen - 1);
		return rc;
	}
	out[n] = '\0';
	return 0;
}
