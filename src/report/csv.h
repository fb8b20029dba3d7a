/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The results as CSV for spreadsheets and pandas: one row per case x phase
 * x metric, with the target's short name and full spec, the metric's JSON
 * path inside the phase (cases[].phases[]), its value and its unit.
 */
#ifndef FSPROF_REPORT_CSV_H
#define FSPROF_REPORT_CSV_H

#include <stdio.h>

#include "results/results.h"

/* the header row, as written first */
#define CSV_HEADER                                                            \
	"case,repeat,workload,params,target,target_spec,fstype,phase,metric," \
	"value,unit"

void report_csv(const struct run_result *run, FILE *out);

/* the unit a metric's name says: "ns", "bytes", "pages", ..., "count" */
const char *metric_unit(const char *name);

#endif
