/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --suite classic without --fs: each experiment on the targets its
 * original ran on (data/classic.tsv's targets rows), as a user
 * reproducing one of them would run it. With --fs every workload runs on
 * the targets given, as without the suite.
 */
#ifndef FSPROF_CLI_SUITE_TARGETS_H
#define FSPROF_CLI_SUITE_TARGETS_H

#include <stddef.h>

#include "run/options.h"

/*
 * opt->fs becomes the union of the originals' targets of opt's workloads,
 * in the order first named, and each workload's fs_mask the targets its
 * original ran on; a workload without an original (-w mdcreate beside the
 * suite) keeps fs_mask 0: every target. 0, or -EINVAL with err.
 */
int suite_targets_plan(struct run_options *opt, char *err, size_t errlen);

#endif
