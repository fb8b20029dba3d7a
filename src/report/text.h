/* SPDX-License-Identifier: GPL-2.0 */
/* The text report for people: one aligned table per run, a row per phase. */
#ifndef FSPROF_REPORT_TEXT_H
#define FSPROF_REPORT_TEXT_H

#include <stdio.h>

#include "results/results.h"

void report_text(const struct run_result *run, FILE *out);

/* "812 us", "3.4 ms", "1.20 s" */
void format_duration_ns(double ns, char *buf, size_t len);

/* v in the unit name ends with (_ns, _bytes, else a count) */
void format_metric_value(const char *name, double v, char *buf, size_t len);

#endif
