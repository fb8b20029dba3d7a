/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The HTML report's charts, chosen from the results: per workload the wall
 * time and throughput of each phase across targets; per case the time
 * budget, device IO by class, block latency histograms and each phase's
 * timeline of bytes by class with commit and log-force markers.
 */
#ifndef FSPROF_REPORT_HTML_CHARTS_H
#define FSPROF_REPORT_HTML_CHARTS_H

#include <stdio.h>

#include "results/results.h"
#include "results/summary.h"

/* the groups of sum with the workload and params of group first */
void html_charts_workload(FILE *out, const struct summary *sum,
			  unsigned int first);

/* the charts of one case; returns how many it drew */
unsigned int html_charts_case(FILE *out, const struct case_result *c);

#endif
