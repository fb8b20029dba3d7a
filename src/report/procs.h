/* SPDX-License-Identifier: GPL-2.0 */
/* The text table of the processes with the most block IO (fsprof record). */
#ifndef FSPROF_REPORT_PROCS_H
#define FSPROF_REPORT_PROCS_H

#include <stdio.h>

#include "results/results.h"

void report_proc_top(const struct case_result *c, FILE *out);

#endif
