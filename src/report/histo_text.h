/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Histograms in the text report as the classic bcc tools print them
 * (biolatency, ext4slower): a row per power-of-two range with its count and
 * a bar of stars, the largest 40 wide. Shown under -v.
 */
#ifndef FSPROF_REPORT_HISTO_TEXT_H
#define FSPROF_REPORT_HISTO_TEXT_H

#include <stdio.h>

#include "results/results.h"

#define HISTO_STARS 40

/* one histogram under its title; unit names the values ("nsecs") */
void report_histogram_bcc(const char *title, const char *unit,
			  const struct latency_hist *h, FILE *out);

/* every phase's block latency and named histograms of case c */
void report_case_histograms(const struct case_result *c, FILE *out);

#endif
