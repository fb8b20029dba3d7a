/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsprof record --dir PATH: the filesystem's device traced for --duration
 * or until SIGINT, every process the workload (counted per process), in
 * one phase or --interval time phases.
 */
#ifndef FSPROF_RECORD_CMD_H
#define FSPROF_RECORD_CMD_H

#include "run/run.h"

/* returns the process exit code */
int record_command(const struct run_options *opt);

#endif
