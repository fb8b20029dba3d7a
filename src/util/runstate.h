/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run's state file: what the run created, one record a line, written
 * before each resource is created and marked removed after its undo, so
 * that `fsprof cleanup` can undo what a run killed with SIGKILL left behind
 * (src/target/leftovers.c reads it). Lines are appended with O_APPEND, each
 * with one write(2): a process killed at any point leaves whole lines.
 *
 *   fsprof-state 1
 *   pid 4242
 *   start 123456            (the process's start time, /proc/PID/stat)
 *   boot 1b7e...            (/proc/sys/kernel/random/boot_id)
 *   cwd /root               (what relative paths below are relative to)
 *   scratch /var/tmp/fsprof
 *   + 1 rundir /var/tmp/fsprof/fsprof.Ab12Cd
 *   + 2 image /var/tmp/fsprof/fsprof.Ab12Cd/image
 *   - 2
 */
#ifndef FSPROF_RUNSTATE_H
#define FSPROF_RUNSTATE_H

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

#define RUNSTATE_VERSION 1
#define RUNSTATE_PREFIX "fsprof-"
#define RUNSTATE_SUFFIX ".state"

struct runstate {
	int fd;
	int next_id;
	char path[PATH_MAX];
};

/*
 * Create <dir>/fsprof-<pid>.state with its header. Returns 0 or -errno (the
 * error is logged).
 */
int runstate_create(struct runstate *rs, const char *dir);

/*
 * Record a resource about to be created: kind is one word, arg the rest of
 * the line (no newline). Returns the record's id (> 0) or -errno.
 */
int runstate_add(struct runstate *rs, const char *kind, const char *arg);

/* The resource of record id is gone. */
int runstate_remove(struct runstate *rs, int id);

/*
 * Close the state file; remove it when everything it records is gone
 * (clean), keep it for `fsprof cleanup` otherwise.
 */
void runstate_close(struct runstate *rs, bool clean);

/*
 * a process's start time in clock ticks since boot (/proc/PID/stat);
 * -ESRCH for a process that has exited and is not yet reaped (a zombie)
 */
int runstate_proc_start(pid_t pid, unsigned long long *start);

/* this boot's id (/proc/sys/kernel/random/boot_id), "" when unknown */
void runstate_boot_id(char *buf, size_t len);

#endif
