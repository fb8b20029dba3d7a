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

/* a value in its name's unit: "1.23 s", "4.5 ms", "12 MB", "3.4k" */
void diff_format_value(const char *name, double v, char *buf, size_t len);

#endif
