/* SPDX-License-Identifier: MIT */
/* The engine, --control: perf's control channel (fifo:CTL[,ACK] or fd:CTL[,ACK]), parsed and opened; the commands
 * on it are read by the session (src/run/session.c). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/scope.h"

static int refuse(const char *msg)
{
	pmc_diag_error("%s", msg);
	return PMC_EXIT_USAGE;
}

int scope_parse_control(const char *spec, char *ctl, size_t ctl_len, char *ack, size_t ack_len, bool *is_fd)
{
	bool fifo = !strncmp(spec, "fifo:", 5), fd = !strncmp(spec, "fd:", 3);
	const char *p = spec + (fifo ? 5 : 3), *comma;
	size_t n;

	if (!fifo && !fd)
		return -EINVAL;
	comma = strchr(p, ',');
	n = comma ? (size_t)(comma - p) : strlen(p);
	if (!n || n >= ctl_len || (comma && (!comma[1] || strlen(comma + 1) >= ack_len || strchr(comma + 1, ','))))
		return -EINVAL;
	memcpy(ctl, p, n);
	ctl[n] = '\0';
	snprintf(ack, ack_len, "%s", comma ? comma + 1 : "");
	if (fd) {
		for (const char *q = ctl; *q; q++)
			if (*q < '0' || *q > '9')
				return -EINVAL;
		for (const char *q = ack; *q; q++)
			if (*q < '0' || *q > '9')
				return -EINVAL;
		if (strlen(ctl) > 9 || strlen(ack) > 9)
			return -EINVAL;
	}
	*is_fd = fd;
	return 0;
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
		pmc_diag_error("--control: cannot open '%s': %s (create it first: mkfifo %s)", path, strerror(errno),
			       path);
		return -1;
	}
	if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode))
		return fd;
	close(fd);
not_fifo:
	pmc_diag_error("--control fifo: '%s' is not a FIFO: pmctool reads commands from a FIFO and writes 'ack' into "
		       "one, never into another kind of file (create it: mkfifo %s; or pass descriptors: fd:CTL,ACK)",
		       path, path);
	return -1;
}

/* --control: open what the spec names. 0, or an exit status after the message. */
int scope_control_open(const char *spec, int *ctl, int *ack)
{
	char c[4096], a[4096];
	bool fd;

	*ctl = *ack = -1;
	if (scope_parse_control(spec, c, sizeof(c), a, sizeof(a), &fd) < 0)
		return refuse("--control expects fifo:CTL[,ACK] or fd:CTL[,ACK] (perf's)");
	if (fd) {
		*ctl = atoi(c);
		*ack = a[0] ? atoi(a) : -1;
		if (fcntl(*ctl, F_GETFD) < 0 || (*ack >= 0 && fcntl(*ack, F_GETFD) < 0)) {
			*ctl = *ack = -1;
			return refuse("--control fd:CTL[,ACK]: each must be an open file descriptor");
		}
		return 0;
	}
	*ctl = open_fifo(c);
	if (*ctl < 0)
		return PMC_EXIT_USAGE;
	if (a[0] && (*ack = open_fifo(a)) < 0) {
		close(*ctl);
		*ctl = -1;
		return PMC_EXIT_USAGE;
	}
	return 0;
}
