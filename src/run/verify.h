/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --verify: re-run a case with a finding's mount or mkfs knob applied,
 * interleaved with re-runs of the case as it was, and record in the
 * finding whether the knob made its phase faster.
 */
#ifndef FSPROF_RUN_VERIFY_H
#define FSPROF_RUN_VERIFY_H

#include <stdbool.h>

#include "results/results.h"
#include "run/case_run.h"

/*
 * Verify every warning of run whose advice is a mount or mkfs option:
 * repeats pairs (the case as it was, then with each knob) per target,
 * workload and parameters; fills each finding's verified. params are the
 * -w options' parsed parameters, in opt->workloads order.
 */
void verify_findings(struct run_ctx *ctx, struct run_result *run,
		     const struct run_options *opt,
		     const struct workload_params *params);

/* mount options orig with option set (its key's other values and its
 * no-/non-no form removed), into out */
void mount_opts_apply(const char *orig, const char *option, char *out,
		      size_t len);

#endif
