/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The HTML report: one self-contained file (no script, no external font,
 * stylesheet or image; a Content-Security-Policy forbids loading any), with
 * findings and verdicts first, then the targets, the comparisons across
 * targets, the classic originals beside ours (html_classic.h) and each
 * case's tables and inline SVG charts.
 */
#ifndef FSPROF_REPORT_HTML_H
#define FSPROF_REPORT_HTML_H

#include <stdio.h>

#include "results/results.h"

void report_html(const struct run_result *run, FILE *out);

#endif
