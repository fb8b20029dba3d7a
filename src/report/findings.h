/* SPDX-License-Identifier: GPL-2.0 */
/* The findings block of the text report: verdicts and findings first. */
#ifndef FSPROF_REPORT_FINDINGS_H
#define FSPROF_REPORT_FINDINGS_H

#include <stdio.h>

#include "results/results.h"

/*
 * Per target and workload, each phase's bound verdict and its findings
 * (warnings with evidence, mechanism, advice and verification; info with
 * evidence), then the cross-target findings. Prints nothing for a run the
 * analyze stage has not seen.
 */
void report_findings(const struct run_result *run, FILE *out);

/* "rm-sync 2.1 s -> 0.4 s with mount logbsize=256k: 5.2x (95% CI ...)" */
void verification_line(const struct verification *v, char *line, size_t len);

#endif
