/* SPDX-License-Identifier: GPL-2.0 */
/* The attach report: every BPF program as attached, missing or failed. */
#ifndef FSPROF_REPORT_ATTACH_H
#define FSPROF_REPORT_ATTACH_H

#include <stdio.h>

#include "results/results.h"

/* a table: domain, program, event, state, reason */
void report_attach_table(const struct attach_list *list, FILE *out);

/* "29 attached, 2 missing (this kernel lacks them), 0 failed" */
void report_attach_summary(const struct attach_list *list, FILE *out);

#endif
