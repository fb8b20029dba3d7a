// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "run/command.h"
#include "util/path.h"
#include "util/log.h"

static int path_check(const char *path, char *why, size_t why_len)
{
	struct stat st;

	if (stat(path, &st)) {
		snprintf(why, why_len, "%s: %s", path, strerror_safe(errno));
		return errno == ENOENT ? -ENOENT : -EACCES;
	}
	if (S_ISDIR(st.st_mode) || access(path, X_OK)) {
		snprintf(why, why_len, "%s: %s", path,
			 S_ISDIR(st.st_mode) ? "is a directory" :
					       "not executable");
		return -EACCES;
	}
	return 0;
}

/* path made absolute: the command starts in the target's directory */
int command_resolve(const char *argv0, char *out, size_t out_len, char *why,
		    size_t why_len)
{
	const char *path = getenv("PATH"), *p, *colon;
	char full[4096];
	size_t n;
	int err;

	if (!argv0[0]) {
		snprintf(why, why_len, "an empty command name");
		return -ENOENT;
	}
	if (strchr(argv0, '/')) {
		err = path_check(argv0, why, why_len);
		return err ? err :
			     path_absolute(argv0, out, out_len, why, why_len);
	}
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path; *p; p = *colon ? colon + 1 : colon) {
		colon = strchrnul(p, ':');
		n = (size_t)(colon - p);
		snprintf(full, sizeof(full), "%.*s/%s", (int)n, n ? p : ".",
			 argv0);
		if (!access(full, X_OK) && !path_check(full, why, why_len))
			return path_absolute(full, out, out_len, why, why_len);
	}
	snprintf(why, why_len, "%s: command not found (not in PATH)", argv0);
	return -ENOENT;
}

/*
 * in the child: wait for the go, then become the command. Its copy of the
 * go pipe's write end is closed first: fsprof giving up closes its own,
 * and the read must then see the end, not wait on the child's own copy.
 */
static void __attribute__((noreturn))
command_child(int go_rd, int go_wr, const char *path, char *const argv[],
	      const char *dir, int marker_fd)
{
	char num[16];
	char go = 0;

	close(go_wr);
	setpgid(0, 0);
	if (read(go_rd, &go, 1) != 1 || go != 'g')
		_exit(EXIT_COMMAND_NOT_EXECUTABLE); /* fsprof gave up */
	if (chdir(dir)) {
		fprintf(stderr, "fsprof: trace: cd %s: %s\n", dir,
			strerror(errno));
		_exit(EXIT_COMMAND_NOT_EXECUTABLE);
	}
	setenv("FSPROF_DIR", dir, 1);
	if (marker_fd >= 0) {
		snprintf(num, sizeof(num), "%d", marker_fd);
		setenv("FSPROF_PHASE_FD", num, 1);
		fcntl(marker_fd, F_SETFD, 0); /* the command and its children */
	}
	execv(path, argv);
	fprintf(stderr, "fsprof: trace: %s: %s\n", argv[0], strerror(errno));
	_exit(errno == ENOENT ? EXIT_COMMAND_NOT_FOUND :
				EXIT_COMMAND_NOT_EXECUTABLE);
}

int command_fork(struct command *cmd, const char *path, char *const argv[],
		 const char *dir, int marker_fd)
{
	int go[2], err;

	cmd->pid = -1;
	cmd->pgid = -1;
	cmd->go_fd = -1;
	if (pipe2(go, O_CLOEXEC))
		return -errno;
	/*
	 * the command's orphans become fsprof's children, not init's: a
	 * killed group's zombies are reaped here at once (group_lingers),
	 * not when init gets to them (1.2-1.7 s on this machine's PID 1)
	 */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1))
		log_debug("trace: not the command's subreaper: %s",
			  strerror_safe(errno));
	fflush(NULL);
	cmd->pid = fork();
	if (cmd->pid < 0) {
		err = -errno;
		close(go[0]);
		close(go[1]);
		return err;
	}
	if (!cmd->pid)
		command_child(go[0], go[1], path, argv, dir, marker_fd);
	setpgid(cmd->pid, cmd->pid); /* either side may get there first */
	cmd->pgid = cmd->pid;
	close(go[0]);
	cmd->go_fd = go[1];
	return 0;
}

void command_release(struct command *cmd, bool release)
{
	if (cmd->go_fd < 0)
		return;
	if (release && write(cmd->go_fd, "g", 1) != 1)
		log_warn("trace: cannot start the command: %s",
			 strerror_safe(errno));
	close(cmd->go_fd);
	cmd->go_fd = -1;
}

bool command_exited(const struct command *cmd)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, (id_t)cmd->pid, &si, WEXITED | WNOHANG | WNOWAIT))
		return errno == ECHILD;
	return si.si_pid == cmd->pid;
}

void command_signal(const struct command *cmd, int sig)
{
	if (cmd->pgid <= 0)
		return;
	kill(-cmd->pgid, sig);
	if (sig != SIGKILL && sig != SIGCONT)
		kill(-cmd->pgid, SIGCONT);
}

int command_stopped(const struct command *cmd)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	if (cmd->pid <= 0 ||
	    waitid(P_PID, (id_t)cmd->pid, &si, WSTOPPED | WNOHANG) ||
	    si.si_pid != cmd->pid || si.si_code != CLD_STOPPED)
		return 0;
	return si.si_status;
}

/*
 * the group is empty; its zombies reaped first: its orphans are ours (the
 * subreaper), and a zombie is a member until reaped
 */
static bool group_gone(pid_t pgid)
{
	while (waitpid(-pgid, NULL, WNOHANG) > 0)
		;
	return kill(-pgid, 0) && errno == ESRCH;
}

/* is anyone left in the group, after up to ns of waiting? */
static bool group_lingers(pid_t pgid, uint64_t ns)
{
	const struct timespec step = { 0, 10000000L };
	uint64_t waited;

	for (waited = 0; waited < ns; waited += 10000000ULL) {
		if (group_gone(pgid))
			return false;
		nanosleep(&step, NULL);
	}
	return !group_gone(pgid);
}

void command_end_group(struct command *cmd)
{
	if (cmd->pgid > 0 && group_lingers(cmd->pgid, 0)) {
		log_warn(
			"processes the command left running in its process group hold the target: SIGTERM, then SIGKILL after 2 s");
		command_signal(cmd, SIGTERM);
		if (group_lingers(cmd->pgid, 2000000000ULL)) {
			kill(-cmd->pgid, SIGKILL);
			group_lingers(cmd->pgid, 1000000000ULL);
		}
	}
	/* later orphans (what left the group) are init's again */
	prctl(PR_SET_CHILD_SUBREAPER, 0);
}

int command_reap(struct command *cmd)
{
	int status = 0;

	while (waitpid(cmd->pid, &status, 0) < 0)
		if (errno != EINTR)
			return EXIT_COMMAND_NOT_EXECUTABLE;
	cmd->pid = -1;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
