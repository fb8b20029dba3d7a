/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The teardown registry: every setup step registers its undo right after it
 * succeeds; teardown_run() undoes everything in reverse order, on success, on
 * error and after SIGINT/SIGTERM.
 */
#ifndef FSPROF_TEARDOWN_H
#define FSPROF_TEARDOWN_H

#include <stddef.h>

#define TEARDOWN_MAX 64

typedef int (*teardown_fn)(void *arg);

struct teardown_step {
	char what[128]; /* for error messages: "unmount /var/tmp/..." */
	teardown_fn undo;
	void *arg;
};

struct teardown {
	struct teardown_step steps[TEARDOWN_MAX];
	size_t n;
};

/* Register an undo. Returns 0, or -ENOSPC when the registry is full. */
int teardown_push(struct teardown *td, teardown_fn undo, void *arg,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Run and forget the undos registered after mark, newest first. */
int teardown_run_to(struct teardown *td, size_t mark);

/* Undo everything, newest first. Returns the number of undos that failed. */
int teardown_run(struct teardown *td);

#endif
