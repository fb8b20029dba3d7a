/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The teardown registry: every setup step registers its undo right after it
 * succeeds; teardown_run() undoes everything in reverse order, on success, on
 * error and after SIGINT/SIGTERM. With a state file (td->state), a step
 * that creates something outside the process (a mount, a loop device, a
 * file) records it there first (teardown_record), and its undo marks the
 * record removed, so `fsprof cleanup` can undo what a killed run left.
 */
#ifndef FSPROF_TEARDOWN_H
#define FSPROF_TEARDOWN_H

#include <stddef.h>

#include "util/runstate.h"

#define TEARDOWN_MAX 64

typedef int (*teardown_fn)(void *arg);

struct teardown_step {
	char what[128]; /* for error messages: "unmount /var/tmp/..." */
	teardown_fn undo;
	void *arg;
	int record; /* its record in the state file, 0 when none */
};

struct teardown {
	struct teardown_step steps[TEARDOWN_MAX];
	size_t n;
	struct runstate *state; /* NULL: nothing is recorded */
	unsigned int failed; /* undos that failed, ever */
};

/* Register an undo. Returns 0, or -ENOSPC when the registry is full. */
int teardown_push(struct teardown *td, teardown_fn undo, void *arg,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * Record a resource before creating it (see runstate_add). Returns the
 * record's id for teardown_push_recorded(), 0 without a state file, or
 * -errno: then do not create it.
 */
int teardown_record(struct teardown *td, const char *kind, const char *arg);

/* teardown_push(), and a successful undo marks record removed */
int teardown_push_recorded(struct teardown *td, int record, teardown_fn undo,
			   void *arg, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* Run and forget the undos registered after mark, newest first. */
int teardown_run_to(struct teardown *td, size_t mark);

/* Undo everything, newest first. Returns the number of undos that failed. */
int teardown_run(struct teardown *td);

#endif
