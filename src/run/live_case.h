/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The frame of a live case (fsprof trace, fsprof record): one case on one
 * target, set up as run sets its cases up, with run's checks before
 * anything is created, its state file for fsprof cleanup, its signal
 * handling, and at the end the same analysis and outputs.
 */
#ifndef FSPROF_LIVE_CASE_H
#define FSPROF_LIVE_CASE_H

#include <signal.h>

#include "run/case_target.h"
#include "run/run.h"
#include "util/runstate.h"
#include "util/teardown.h"

struct live_case {
	const struct run_options *opt;
	struct teardown td;
	struct runstate state;
	volatile sig_atomic_t stop; /* the signal that stopped it, or 0 */
	struct run_result *result;
	struct case_result *c; /* the one case */
	struct case_target ct;
	struct tracer tracer; /* bound to the case (ct.tracer) */
	bool target_up; /* ct went up (and must come down) */
	bool sigint_ends; /* record: SIGINT is the end, not an interruption */
};

/* the target spec of opt's one target (--fs, --dir or --device) */
void live_case_spec(const struct run_options *opt, uint64_t image_size,
		    struct target_spec *spec);

/*
 * Check, then set up the case and its target: 0, or an exit code (nothing
 * is left set up then but what live_case_end undoes).
 */
int live_case_begin(struct live_case *lc, const struct run_options *opt,
		    const struct target_spec *spec, const char *workload);

/*
 * Tear down, analyse, report; code is the exit code so far (a signal's
 * 128+N replaces it). Frees everything; returns the process exit code.
 */
int live_case_end(struct live_case *lc, int code);

#endif
