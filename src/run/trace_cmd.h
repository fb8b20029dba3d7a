/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsprof trace -- CMD ARGS...: CMD runs on the target (its working
 * directory and $FSPROF_DIR), traced as the workload with its descendants;
 * its phases are the ones it marks on FSPROF_PHASE_FD, --interval time
 * slices, or the whole command. fsprof exits with CMD's exit status.
 */
#ifndef FSPROF_TRACE_CMD_H
#define FSPROF_TRACE_CMD_H

#include "run/run.h"

/* returns the process exit code */
int trace_command(const struct run_options *opt, char *const argv[]);

#endif
