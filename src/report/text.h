/* SPDX-License-Identifier: GPL-2.0 */
/* The text report for people: one aligned table per run, a row per phase. */
#ifndef FSPROF_REPORT_TEXT_H
#define FSPROF_REPORT_TEXT_H

#include <stdio.h>

#include "results/results.h"

void report_text(const struct run_result *run, FILE *out);

#endif
