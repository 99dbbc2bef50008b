/* SPDX-License-Identifier: MIT */
/* Whether the command pmctool launches gains privilege at exec, so that the kernel stops counting it: exec commits
 * the new credentials, and a task whose mm is then not dumpable by its user leaves every perf event
 * (perf_event_exit_task in begin_new_exec). That is a set-user-ID file of another owner, a set-group-ID file of
 * another group, a file with capabilities (for anyone but root), or a file its user may not read; unless the file
 * system is mounted nosuid, no_new_privs is set, or fs.suid_dumpable is 1 (then every task stays dumpable). Scripts
 * (#!) never gain privilege from their own mode. */
#include "run/launch.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/xattr.h>
#include <unistd.h>

bool pmc_path_resolve(const char *name, char *buf, size_t len)
{
	const char *path = getenv("PATH"), *p;
	struct stat st;

	if (strchr(name, '/')) {
		snprintf(buf, len, "%s", name);
		return true;
	}
	for (p = path && *path ? path : "/bin:/usr/bin"; ; p++) {
		size_t n = strcspn(p, ":");

		snprintf(buf, len, "%.*s%s%s", (int)n, p, n ? "/" : "", name);
		if (!access(buf, X_OK) && !stat(buf, &st) && S_ISREG(st.st_mode))
			return true;
		p += n;
		if (!*p)
			return false;
	}
}

static bool suid_dumpable_is_user(void)
{
	char line[16] = "";
	FILE *f = fopen("/proc/sys/fs/suid_dumpable", "re");

	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
	}
	return atoi(line) == 1;
}

bool pmc_launch_gains_privilege(const char *argv0, char *why, size_t len)
{
	char file[4096], magic[2] = { 0 };
	struct stat st;
	struct statvfs vfs;
	bool suid, sgid, caps = false, unreadable;
	int fd;

	if (!argv0 || !pmc_path_resolve(argv0, file, sizeof(file)) || stat(file, &st) || !S_ISREG(st.st_mode))
		return false;
	if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1 || suid_dumpable_is_user())
		return false;
	fd = open(file, O_RDONLY | O_CLOEXEC);
	unreadable = fd < 0 && errno == EACCES;
	if (fd >= 0) {
		if (read(fd, magic, sizeof(magic)) != (ssize_t)sizeof(magic))
			magic[0] = '\0';
		close(fd);
		if (magic[0] == '#' && magic[1] == '!')
			return false; /* the interpreter runs, with the caller's credentials */
	}
	if (!statvfs(file, &vfs) && (vfs.f_flag & ST_NOSUID))
		suid = sgid = false; /* and no file capabilities either */
	else {
		suid = (st.st_mode & S_ISUID) && st.st_uid != geteuid();
		sgid = (st.st_mode & S_ISGID) && (st.st_mode & S_IXGRP) && st.st_gid != getegid();
		caps = geteuid() != 0 && getxattr(file, "security.capability", NULL, 0) > 0;
	}
	if (suid)
		snprintf(why, len, "%s is set-user-ID (owner uid %u)", file, (unsigned)st.st_uid);
	else if (sgid)
		snprintf(why, len, "%s is set-group-ID (group gid %u)", file, (unsigned)st.st_gid);
	else if (caps)
		snprintf(why, len, "%s has file capabilities", file);
	else if (unreadable)
		snprintf(why, len, "%s is executable but not readable by you", file);
	else
		return false;
	return true;
}
