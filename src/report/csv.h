/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The results as CSV for spreadsheets and pandas: one row per case x phase
 * x metric, with the target's short name and full spec, the metric's JSON
 * path inside the phase (cases[].phases[]), its value and its unit.
 */
#ifndef FSPROF_REPORT_CSV_H
#define FSPROF_REPORT_CSV_H

#include <stdbool.h>
#include <stdio.h>

#include "results/results.h"

/* the header row, as written first */
#define CSV_HEADER                                                            \
	"case,repeat,workload,params,target,target_spec,fstype,phase,metric," \
	"value,unit"

void report_csv(const struct run_result *run, FILE *out);

/*
 * One field and its separator (',' or, when last, the line's end). RFC
 * 4180: a field with a comma, quote or line break goes in quotes, its
 * quotes doubled.
 */
void csv_field(FILE *out, const char *s, bool last);

/* the unit a metric's name says: "ns", "bytes", "pages", ..., "count" */
const char *metric_unit(const char *name);

#endif
