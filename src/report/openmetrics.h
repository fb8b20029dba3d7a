/* SPDX-License-Identifier: GPL-2.0 */
/*
 * OpenMetrics text exposition of a run (--openmetrics FILE), for the
 * node_exporter textfile collector: per phase the headline metrics, the
 * time budget, the bound verdict and the findings, labelled host, fs,
 * device, target, workload (and command for fsprof trace), phase. Every
 * family is a gauge: a run's numbers are a snapshot, not counters.
 */
#ifndef FSPROF_REPORT_OPENMETRICS_H
#define FSPROF_REPORT_OPENMETRICS_H

#include <stdio.h>

#include "results/results.h"

void report_openmetrics(const struct run_result *run, FILE *out);

/* a label value escaped as OpenMetrics wants it (\\, \", \n) into out */
void openmetrics_escape(const char *value, char *out, size_t size);

#endif
