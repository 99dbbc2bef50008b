/* SPDX-License-Identifier: MIT */
/* Where a report came from (host, pid, MPI / Slurm rank, job id) and -o path templates built from it:
 *   %h host name   %p process id   %r rank   %j job id   %% a '%'
 * The rank is the first of OMPI_COMM_WORLD_RANK, PMI_RANK, PMIX_RANK, SLURM_PROCID that is set; the job id the first
 * of SLURM_JOB_ID, PBS_JOBID, LSB_JOBID, FLUX_JOB_ID, OMPI_MCA_ess_base_jobid. */
#ifndef PMC_UTIL_PATH_TEMPLATE_H
#define PMC_UTIL_PATH_TEMPLATE_H

#include <stdbool.h>
#include <stddef.h>

struct pmc_origin {
	char host[64];
	long pid;
	long rank;             /* -1 when no launcher set one */
	const char *rank_from; /* the variable it came from, or NULL */
	char job[64];          /* "" when none */
	const char *job_from;
};

/* Fill *ret from this process and its environment. */
void pmc_origin_get(struct pmc_origin *ret);

/* Expand tmpl into out (outlen bytes). 0; -EINVAL with a message in err for an unknown %X or a %r / %j that the
 * environment cannot fill; -ENAMETOOLONG when the path does not fit. A '/' in a host name or job id becomes '_'. */
int pmc_path_template(const char *tmpl, const struct pmc_origin *o, char *out, size_t outlen, char *err,
		      size_t errlen);

/* Whether tmpl has a % directive (and so needs expanding). */
bool pmc_path_is_template(const char *tmpl);

#endif
