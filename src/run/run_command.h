/* SPDX-License-Identifier: GPL-2.0 */
/* fsprof run, from its parsed options to the process exit code */
#ifndef FSPROF_RUN_COMMAND_H
#define FSPROF_RUN_COMMAND_H

#include "run/options.h"

/* plan the workloads, run them here or in each --kernel's guest */
int run_command(const struct run_options *opt);

#endif
