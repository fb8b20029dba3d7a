/* SPDX-License-Identifier: GPL-2.0 */
/* A saved run read back: what of its analysis is kept, what made again. */
#ifndef FSPROF_ANALYZE_REANALYZE_H
#define FSPROF_ANALYZE_REANALYZE_H

#include "results/results.h"

/*
 * Keep the saved findings; make the phases' bound verdicts and the
 * comparisons between targets again (the results file does not hold
 * them). 0, or -ENOMEM. analyze_saved_run() (analyze.h) re-runs the rules.
 */
int analyze_saved_verdicts(struct run_result *run);

#endif
