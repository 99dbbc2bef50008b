/* SPDX-License-Identifier: MIT */
#include "run/session.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "util/util.h"

/* How often attached tasks are looked at in /proc (a task that is not our child gives no other sign). */
#define TASK_POLL_NS 10000000ull

bool pmc_task_alive(pid_t tid)
{
	char path[64], buf[256], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno != ENOENT && errno != ESRCH;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	p = strrchr(buf, ')'); /* the comm may hold spaces and parentheses: the state follows the last ')' */
	return !(p && p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X'));
}

const char *pmc_session_end_name(enum pmc_session_end e)
{
	switch (e) {
	case PMC_END_COMMAND:
		return "the command exited";
	case PMC_END_TASKS:
		return "every attached task ended";
	case PMC_END_TIMEOUT:
		return "--timeout";
	case PMC_END_INTERVALS:
		return "--interval-count";
	case PMC_END_SIGNAL:
		return "interrupted";
	case PMC_END_CONTROL:
		return "'stop' on the control fd";
	case PMC_END_NONE:
	default:
		return "none";
	}
}

static void set_enabled(struct pmc_session *s, bool on)
{
	if (s->enabled == on)
		return;
	s->enable(s->ctx, on);
	s->enabled = on;
}

static void ack(const struct pmc_session *s)
{
	if (s->ack_fd >= 0 && write(s->ack_fd, "ack\n", 4) != 4) {
		/* the reader went away: the command was obeyed all the same */
	}
}

/* One control line: perf's commands 'enable', 'disable', 'stop', 'ping' (and 'snapshot', which counting needs
 * nothing for). Returns true on 'stop'. */
static bool obey(struct pmc_session *s, const char *line)
{
	if (!strcmp(line, "enable")) {
		set_enabled(s, true);
		s->enables++;
	} else if (!strcmp(line, "disable")) {
		set_enabled(s, false);
		s->disables++;
	} else if (!strcmp(line, "stop")) {
		ack(s);
		return true;
	} else if (strcmp(line, "ping") && strcmp(line, "snapshot")) {
		s->bad_commands++;
		return false;
	}
	ack(s);
	return false;
}

/* Read what the control fd holds; obey each complete line (a trailing NUL or CR is ignored). Returns true on 'stop'. */
static bool read_control(struct pmc_session *s, char *buf, size_t *len, size_t cap)
{
	ssize_t n = read(s->ctl_fd, buf + *len, cap - 1 - *len);

	if (n <= 0)
		return false;
	*len += (size_t)n;
	buf[*len] = '\0';
	for (;;) {
		char *nl = memchr(buf, '\n', *len);
		size_t take;
		bool stop;

		if (!nl) {
			if (*len == cap - 1)
				*len = 0; /* a line longer than any command: dropped */
			return false;
		}
		*nl = '\0';
		take = (size_t)(nl - buf) + 1;
		for (char *p = buf; *p; p++)
			if (*p == '\r')
				*p = '\0';
		stop = obey(s, buf[0] ? buf : "ping");
		memmove(buf, buf + take, *len - take);
		*len -= take;
		if (stop)
			return true;
	}
}

static bool tasks_gone(const struct pmc_session *s)
{
	for (size_t i = 0; i < s->ntasks; i++)
		if (pmc_task_alive(s->tasks[i]))
			return false;
	return true;
}

static int pidfd_of(pid_t pid)
{
#ifdef SYS_pidfd_open
	long fd = syscall(SYS_pidfd_open, pid, 0);
	return fd < 0 ? -1 : (int)fd;
#else
	(void)pid;
	return -1;
#endif
}

static uint64_t earliest(uint64_t a, uint64_t b)
{
	return !a ? b : !b ? a : PMC_MIN(a, b);
}

int pmc_session_run(struct pmc_session *s)
{
	char ctl[256];
	size_t ctl_len = 0;
	uint64_t next_tick, deadline, enable_at, next_drain;
	int pidfd = s->cmd ? pidfd_of(s->cmd->pid) : -1;
	struct pmc_launch_error le = { 0 };

	s->t0 = s->cmd && s->cmd->t0 ? s->cmd->t0 : pmc_now_ns();
	next_tick = s->interval_ns ? s->t0 + s->interval_ns : 0;
	deadline = s->timeout_ns ? s->t0 + s->timeout_ns : 0;
	enable_at = s->delay_ms > 0 ? s->t0 + (uint64_t)s->delay_ms * 1000000ull : 0;
	next_drain = s->drain_ns ? s->t0 + s->drain_ns : 0;
	s->end = PMC_END_NONE;
	while (s->end == PMC_END_NONE) {
		struct pollfd pfd[2];
		nfds_t np = 0;
		uint64_t now = pmc_now_ns(), wake;
		struct timespec ts;

		if (enable_at && now >= enable_at) {
			set_enabled(s, true);
			enable_at = 0;
		}
		if (s->stop && *s->stop) {
			s->end = PMC_END_SIGNAL;
			break;
		}
		if (s->cmd && pmc_launch_reap(s->cmd, false, &le)) {
			s->end = PMC_END_COMMAND;
			break;
		}
		if (s->ntasks && tasks_gone(s)) {
			s->end = PMC_END_TASKS;
			break;
		}
		if (deadline && now >= deadline) {
			s->end = PMC_END_TIMEOUT;
			break;
		}
		if (next_tick && now >= next_tick) {
			s->ticks++;
			while (next_tick <= now)
				next_tick += s->interval_ns; /* a late wake-up skips, never bunches, intervals */
			if (s->tick(s->ctx, s->ticks, false) || (s->interval_count && s->ticks >= s->interval_count)) {
				s->end = PMC_END_INTERVALS;
				break;
			}
			continue;
		}
		if (next_drain && now >= next_drain) {
			s->drain(s->drain_ctx);
			next_drain = now + s->drain_ns;
		}
		wake = earliest(earliest(earliest(next_tick, deadline), enable_at), next_drain);
		if (s->ntasks || (s->cmd && pidfd < 0))
			wake = earliest(wake, now + TASK_POLL_NS);
		if (s->ctl_fd >= 0)
			pfd[np++] = (struct pollfd){ .fd = s->ctl_fd, .events = POLLIN };
		if (pidfd >= 0)
			pfd[np++] = (struct pollfd){ .fd = pidfd, .events = POLLIN };
		if (wake) {
			uint64_t d = wake > now ? wake - now : 0;
			ts.tv_sec = (time_t)(d / 1000000000ull);
			ts.tv_nsec = (long)(d % 1000000000ull);
		}
		if (ppoll(pfd, np, wake ? &ts : NULL, NULL) < 0 && errno != EINTR) {
			int e = errno;
			if (pidfd >= 0)
				close(pidfd);
			s->elapsed_ns = pmc_now_ns() - s->t0;
			return -e;
		}
		if (s->ctl_fd >= 0 && (pfd[0].revents & POLLIN) && read_control(s, ctl, &ctl_len, sizeof(ctl)))
			s->end = PMC_END_CONTROL;
	}
	s->elapsed_ns = (s->end == PMC_END_COMMAND && s->cmd->wall_ns ? s->cmd->t0 + s->cmd->wall_ns : pmc_now_ns()) -
			s->t0;
	/* The last, shorter interval: what was counted since the last tick (perf prints it too). */
	if (s->interval_ns && s->end != PMC_END_INTERVALS)
		s->tick(s->ctx, ++s->ticks, true);
	if (pidfd >= 0)
		close(pidfd);
	return 0;
}
