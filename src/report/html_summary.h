/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The top of the HTML report: the command line, the summary table and a
 * chart a phase it names, the headline phase first.
 */
#ifndef FSPROF_REPORT_HTML_SUMMARY_H
#define FSPROF_REPORT_HTML_SUMMARY_H

#include <stdio.h>

#include "results/results.h"

void html_summary(const struct run_result *run, FILE *out);

#endif
