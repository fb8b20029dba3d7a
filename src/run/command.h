/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The traced command's process: found in PATH as a shell would, forked in
 * a process group of its own, held before exec until the tracer follows
 * it, then let go with FSPROF_PHASE_FD and FSPROF_DIR set.
 */
#ifndef FSPROF_COMMAND_H
#define FSPROF_COMMAND_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define EXIT_COMMAND_NOT_FOUND 127
#define EXIT_COMMAND_NOT_EXECUTABLE 126

/*
 * Where argv0 is, as a shell finds it (PATH unless it holds a /), as an
 * absolute path into out: 0, or -ENOENT (not found) or -EACCES (not
 * executable) with why filled in.
 */
int command_resolve(const char *argv0, char *out, size_t out_len, char *why,
		    size_t why_len);

struct command {
	pid_t pid; /* -1 once reaped */
	pid_t pgid; /* its process group, which outlives it */
	int go_fd; /* written once to let it exec; -1 after */
};

/*
 * Fork argv (the program at path), in the directory dir, with FSPROF_DIR=dir and, when
 * marker_fd >= 0, FSPROF_PHASE_FD=marker_fd (inherited across exec); the
 * child waits for command_release before it execs.
 */
int command_fork(struct command *cmd, const char *path, char *const argv[],
		 const char *dir, int marker_fd);

/* let it exec (release true) or make it exit unexecuted (false) */
void command_release(struct command *cmd, bool release);

/* has it exited? (still a zombie: its /proc entry remains) */
bool command_exited(const struct command *cmd);

/*
 * signal its process group, then SIGCONT it: a stopped member (SIGSTOP, a
 * read of the terminal) acts on sig at once, not once it is continued
 */
void command_signal(const struct command *cmd, int sig);

/*
 * the signal that stopped it since the last look (SIGSTOP, SIGTSTP,
 * SIGTTIN, SIGTTOU), 0 if it has not stopped: each stop is told once
 */
int command_stopped(const struct command *cmd);

/*
 * What it left running in its process group (a background child) would
 * hold the target busy: SIGTERM, then SIGKILL 2 s later.
 */
void command_end_group(struct command *cmd);

/* reap it: its exit status as a shell reports it (128+N for signal N) */
int command_reap(struct command *cmd);

#endif
