/* SPDX-License-Identifier: MIT */
/* The engine, --control: perf's control channel (FIFOs or descriptors, as the caller parsed them) opened; the commands
 * on it are read by the session (src/run/session.c). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/fields.h"
#include "engine/scope.h"

static int refuse(const char *msg)
{
	pmc_diag_error("%s", msg);
	return PMC_EXIT_USAGE;
}

/* One end of --control fifo:: a FIFO and nothing else (a regular file named there would be written into), looked at
 * before it is opened and again once it is. -1 after the message. */
static int open_fifo(const char *path)
{
	struct stat st;
	int fd;

	if (stat(path, &st) == 0 && !S_ISFIFO(st.st_mode))
		goto not_fifo;
	/* Read and write: the FIFO never reports end of file while pmctool holds it, between two writers; and an ack
	 * nobody reads never stops pmctool. */
	fd = open(path, O_RDWR | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		pmc_diag_error(RQ_CONTROL ": cannot open '%s': %s (create it first: mkfifo %s)", path, strerror(errno),
			       path);
		return -1;
	}
	if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode))
		return fd;
	close(fd);
not_fifo:
	pmc_diag_error(RQ_CONTROL " fifo: '%s' is not a FIFO: pmctool reads commands from a FIFO and writes 'ack' into "
		       "one, never into another kind of file (create it: mkfifo %s; or pass descriptors: fd:CTL,ACK)",
		       path, path);
	return -1;
}

/* --control: open what the request names. 0, or an exit status after the message. */
int scope_control_open(const struct pmc_control_req *c, int *ctl, int *ack)
{
	bool has_ack = c->ack && c->ack[0];

	*ctl = *ack = -1;
	if (c->is_fd) {
		*ctl = c->ctl_fd;
		*ack = c->ack_fd;
		if (*ctl < 0 || fcntl(*ctl, F_GETFD) < 0 || (*ack >= 0 && fcntl(*ack, F_GETFD) < 0)) {
			*ctl = *ack = -1;
			return refuse(RQ_CONTROL " fd:CTL[,ACK]: each must be an open file descriptor");
		}
		return 0;
	}
	if (!c->ctl || !c->ctl[0])
		return refuse(RQ_CONTROL " names no control channel");
	*ctl = open_fifo(c->ctl);
	if (*ctl < 0)
		return PMC_EXIT_USAGE;
	if (has_ack && (*ack = open_fifo(c->ack)) < 0) {
		close(*ctl);
		*ctl = -1;
		return PMC_EXIT_USAGE;
	}
	return 0;
}
