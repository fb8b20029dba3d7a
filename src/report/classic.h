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

#endif
