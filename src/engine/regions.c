/* SPDX-License-Identifier: MIT */
/* The engine, --regions: hand each execution of the program its batch's encoded events and a results channel (an
 * inherited memfd named in the environment, channel.h), then read what the program's libpmctool wrote there. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/engine.h"
#include "engine/fields.h"
#include "regions/channel.h"
#include "engine/rg_collect.h"

/* Results larger than this are not read (a program writes a few hundred bytes per region and thread). */
#define RESULTS_MAX (64u << 20)

void pmc_eng_regions_budget(struct pmc_engine *se)
{
	/* The program's thread counts the batch while pmctool counts the whole program: every event takes two
	 * counters. Fixed counters hold one event each, so the planner gives them none. */
	se->popts.gp_budget = se->popts.gp_budget > 1 ? se->popts.gp_budget / 2 : 1;
	se->popts.fixed_slots = 0;
	se->popts.bp_budget = se->popts.bp_budget > 1 ? se->popts.bp_budget / 2 : 1;
	snprintf(se->budget_why + strlen(se->budget_why), sizeof(se->budget_why) - strlen(se->budget_why),
		 "; halved for --regions (the program counts too)");
}

int pmc_eng_regions_begin(const struct pmc_engine_opts *o, struct pmc_measure_req *req)
{
	char spec[PMC_RG_EV_MAX * 96], num[16];
	int fd;

	(void)o;
	if (req->n > PMC_RG_EV_MAX) {
		pmc_diag_error(RQ_REGIONS " counts at most %d events per batch in the program; this batch "
				"has %zu (" RQ_COUNTERS " N for smaller batches)", PMC_RG_EV_MAX, req->n);
		return PMC_EXIT_USAGE;
	}
	if (pmc_regions_encode(req->events, req->n, spec, sizeof(spec)))
		return PMC_EXIT_INTERNAL;
	fd = memfd_create("pmctool-regions", MFD_CLOEXEC);
	if (fd < 0 || fcntl(fd, F_SETFL, O_APPEND)) {
		pmc_diag_error(RQ_REGIONS ": cannot create the results channel: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return PMC_EXIT_INTERNAL;
	}
	snprintf(num, sizeof(num), "%d", fd);
	if (setenv(PMC_RG_ENV_EVENTS, spec, 1) || setenv(PMC_RG_ENV_FD, num, 1)) {
		close(fd);
		return PMC_EXIT_INTERNAL;
	}
	unsetenv(PMC_RG_ENV_OUT);
	req->keep_fd_set = true;
	req->keep_fd = fd;
	return 0;
}

int pmc_eng_regions_collect(struct pmc_report *rep, const struct pmc_measure_req *req, const size_t *idx)
{
	struct stat st;
	char *buf;
	ssize_t n;
	int r;

	if (!req->keep_fd_set)
		return 0;
	if (fstat(req->keep_fd, &st) || st.st_size < 0)
		return PMC_EXIT_INTERNAL;
	if ((uint64_t)st.st_size > RESULTS_MAX) {
		pmc_diag_error(RQ_REGIONS ": the program wrote %lld bytes of results, more than %u: "
				"left out", (long long)st.st_size, RESULTS_MAX);
		st.st_size = 0;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf)
		return PMC_EXIT_INTERNAL;
	do
		n = pread(req->keep_fd, buf, (size_t)st.st_size, 0);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		free(buf);
		return PMC_EXIT_INTERNAL;
	}
	r = pmc_regions_collect(rep, buf, (size_t)n, idx, req->n, (int)getpid());
	free(buf);
	return r ? PMC_EXIT_INTERNAL : 0;
}

void pmc_eng_regions_end(struct pmc_measure_req *req)
{
	if (!req->keep_fd_set)
		return;
	close(req->keep_fd);
	req->keep_fd_set = false;
	unsetenv(PMC_RG_ENV_EVENTS);
	unsetenv(PMC_RG_ENV_FD);
}
