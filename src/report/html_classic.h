/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The originals beside ours in the HTML report (the text's is
 * report/classic.c): per classic experiment the run reproduced, the
 * original named in words, its targets, its published figures and shapes
 * beside ours with our 95% interval and a verdict, and where a shape
 * differs what our measurements say differs today. Nothing when the run
 * has none.
 */
#ifndef FSPROF_REPORT_HTML_CLASSIC_H
#define FSPROF_REPORT_HTML_CLASSIC_H

#include <stdio.h>

#include "results/results.h"

void html_classic(const struct run_result *run, FILE *out);

#endif
