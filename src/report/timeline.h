/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The timeline and the rare events in the text report, kept short: one
 * sparkline per phase and busy series, and one line of event counts. The
 * JSON has every bin and every event.
 */
#ifndef FSPROF_REPORT_TIMELINE_H
#define FSPROF_REPORT_TIMELINE_H

#include <stdio.h>

#include "results/results.h"

#define TIMELINE_COLUMNS 40

void report_timeline(const struct case_result *c, FILE *out);

void report_events(const struct case_result *c, FILE *out);

/*
 * Draw cols column values as a sparkline, one character per column scaled
 * to peak (' ' is zero, '@' is the peak) into buf (cols + 1 bytes).
 */
void sparkline_draw(const uint64_t *v, unsigned int cols, uint64_t peak,
		    char *buf);

#endif
