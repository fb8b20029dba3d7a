/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One case's target and tracer, set up and torn down the same way for
 * every driver (run, trace, record): the target (image, device or dir) with
 * its device model, recorded into the case's results; then the tracer,
 * loaded once for the run, bound to its device; then the teardown of both,
 * in reverse (the tracer off first).
 */
#ifndef FSPROF_CASE_TARGET_H
#define FSPROF_CASE_TARGET_H

#include <stdbool.h>
#include <sys/types.h>

#include "results/results.h"
#include "run/options.h"
#include "target/target.h"
#include "trace/tracer.h"

struct case_target {
	struct target target;
	struct tracer *tracer; /* the run's, bound to this case; NULL: untraced */
	size_t mark; /* the teardown registry before the target went up */
};

/*
 * Whose work is the "workload": fsprof's own process (pid 0, as run has
 * it), a command's process tree (pid), or every process (record).
 */
struct case_workload {
	pid_t pid;
	bool every_process;
};

/* the target of spec up, recorded into c; undo steps go onto td */
int case_target_up(struct case_target *ct, const struct target_spec *spec,
		   struct case_result *c, struct teardown *td);

/*
 * Bind tracer (started and loaded on first use; the caller stops it after
 * its last case) to the target, unless --no-trace or no block device,
 * following who as the workload (NULL: fsprof itself). Turned off again by
 * the case's teardown.
 */
int case_tracer_up(struct case_target *ct, struct tracer *tracer,
		   const struct run_options *opt,
		   const struct case_workload *who, struct case_result *c,
		   struct teardown *td);

/*
 * The device model's engine at the end of a case: its figures into c, and
 * err, or -EPIPE (said) when an engine died during the case.
 */
int case_model_end(struct case_target *ct, struct case_result *c, int err);

/*
 * Tear down what went up since the mark; err is the case's outcome so far.
 * Returns err, or -EIO when a teardown step failed after a success.
 */
int case_target_down(struct case_target *ct, struct teardown *td, int err);

#endif
