/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One case run: a workload on one fresh target, traced, phase by phase,
 * into the run's result. The run driver walks its plan through it, and
 * --verify (verify.c) runs its extra cases through it.
 */
#ifndef FSPROF_RUN_CASE_RUN_H
#define FSPROF_RUN_CASE_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "results/results.h"
#include "run/options.h"
#include "target/target.h"
#include "trace/tracer.h"
#include "util/runstate.h"
#include "util/teardown.h"
#include "workload/workload.h"

/* everything one run owns; the teardown registry undoes it in reverse */
struct run_ctx {
	const struct run_options *opt;
	struct teardown td;
	struct runstate state; /* what fsprof cleanup needs after a kill */
	struct run_result *result;
	volatile sig_atomic_t stop;
	int gate; /* --case-gate's fd (case_gate.h); 0: none */
	struct tracer tracer; /* loaded once, bound to each case in turn */
};

/* one workload on one fresh target */
struct case_plan {
	const struct workload_def *wl;
	struct workload_params params;
	unsigned int repeat;
	unsigned int order; /* its place in the run's order, 1-based */
	const struct fsspec *fs;
	struct target_spec spec;
};

/* the image size used for a workload needing need bytes at its peak */
uint64_t run_image_size(uint64_t need);

/* the plan of one case: w with params on fs, the repeat-th time */
void case_plan_make(const struct run_options *opt, const struct workload_opt *w,
		    const struct workload_params *params,
		    const struct fsspec *fs, unsigned int repeat,
		    struct case_plan *plan);

/* set up a fresh target, trace the workload's phases, tear it all down */
int case_run(struct run_ctx *ctx, const struct case_plan *plan);

/* one case to run for a verification */
struct verify_case {
	const struct workload_opt *workload;
	const struct workload_params *params;
	const struct fsspec *fs;
	unsigned int repeat;
};

/* --verify: run one case on a fresh target into result (not the run's) */
int run_verify_case(struct run_ctx *ctx, struct run_result *into,
		    const struct verify_case *vc);

/* a signal asked the run to stop */
bool run_ctx_stopped(const struct run_ctx *ctx);

#endif
