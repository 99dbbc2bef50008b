/* runas: run a command as another user, with the signals a terminal's foreground job has. Guest-side test helper.
 *   runas [-u UID] [-p] COMMAND [ARGS...]
 * -u UID   drop to uid and gid UID (no supplementary groups) before exec: tests run unprivileged without setuid files
 * -p       put the command in its own process group and print its pid on stderr as 'runas: pgid N', so a test can
 *          send SIGINT to the group as a terminal's Ctrl-C does
 * SIGINT and SIGQUIT are reset to their defaults: a shell's background job inherits them ignored.
 * Exit: the command's exec failure is 127; bad usage 2; a failed setuid 1 (never runs the command with privilege). */
#include <errno.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long uid = -1;
	int own_group = 0, opt;

	while ((opt = getopt(argc, argv, "+u:p")) != -1) {
		if (opt == 'u') {
			char *end;
			uid = strtol(optarg, &end, 10);
			if (*end || uid < 0) {
				fprintf(stderr, "runas: bad uid '%s'\n", optarg);
				return 2;
			}
		} else if (opt == 'p') {
			own_group = 1;
		} else {
			return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: runas [-u UID] [-p] COMMAND [ARGS...]\n");
		return 2;
	}
	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	if (own_group) {
		if (setpgid(0, 0) != 0) {
			perror("runas: setpgid");
			return 1;
		}
		fprintf(stderr, "runas: pgid %ld\n", (long)getpid());
	}
	if (uid >= 0) {
		if (setgroups(0, NULL) != 0 || setgid((gid_t)uid) != 0 || setuid((uid_t)uid) != 0) {
			perror("runas: dropping privilege");
			return 1;
		}
		if (setuid(0) == 0) {
			fprintf(stderr, "runas: could regain root after setuid(%ld)\n", uid);
			return 1;
		}
	}
	execvp(argv[optind], argv + optind);
	fprintf(stderr, "runas: %s: %s\n", argv[optind], strerror(errno));
	return 127;
}
