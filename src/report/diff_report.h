/* SPDX-License-Identifier: GPL-2.0 */
/* fsprof diff's outputs: text for people, JSON and CSV for scripts. */
#ifndef FSPROF_DIFF_REPORT_H
#define FSPROF_DIFF_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "compare/diff.h"

/* mechanism first: headline change per phase, then what moved most */
void diff_report_text(const struct diff_result *d, bool verbose, FILE *out);

/* 0 or -ENOMEM/-EIO */
int diff_report_json(const struct diff_result *d, FILE *out);

/* one row per pair x phase x metric (histograms as their own rows) */
void diff_report_csv(const struct diff_result *d, FILE *out);

/*
 * lkp-tests' compare layout: per pair a header, then a line per metric
 * (KPIs first; the others fsprof or lkp calls changed, every one with
 * verbose), then the counts of both criteria
 */
void diff_report_lkp(const struct diff_result *d, bool verbose, FILE *out);

/* one metric's lkp line, name last: "  1.20 ±  3%  +45.1% ... name" */
void diff_lkp_line(const struct diff_metric *m, const char *name, char *buf,
		   size_t len);

/* its columns: "changed", "same", "inconclusive" or "emulated" (a time
 * of a TCG guest, not judged); "improvement",
 * "regression", "higher", "lower" or "-"; lkp's "changed", "-" or "<3" */
const char *diff_lkp_verdict(const struct diff_metric *m);
const char *diff_lkp_effect(const struct diff_metric *m);
const char *diff_lkp_criterion(const struct diff_metric *m);

/* a value in its name's unit: "1.23 s", "4.5 ms", "12 MB", "3.4k" */
void diff_format_value(const char *name, double v, char *buf, size_t len);

#endif
