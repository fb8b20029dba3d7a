/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The originals beside ours (fsprof run --suite classic): for each
 * classic experiment the run reproduced, the original's published figures
 * next to ours, and its shapes (ratios between targets) next to ours with
 * our 95% interval, a verdict, and what our measurements say where they
 * disagree. Prints nothing when the run has none (results/classic.h).
 */
#ifndef FSPROF_REPORT_CLASSIC_H
#define FSPROF_REPORT_CLASSIC_H

#include <stdio.h>

#include "results/results.h"

void report_classic(const struct run_result *run, FILE *out);

/* the cells both writers print (the HTML's: html_classic.c) */

/* "7.5-8.6", "~21" or "184" to digits significant digits */
void classic_value_text(const struct classic_value *v, int digits, char *buf,
			size_t len);
/* our mean, "± half the interval" with repeats, "(n runs)"; "not run" */
void classic_ours_text(const struct stats *st, char *buf, size_t len);
/* our ratio "r (lo-hi)", "r" without an interval, "-" when not run */
void classic_ratio_ours_text(const struct classic_ratio *r, char *buf,
			     size_t len);

#endif
