/* SPDX-License-Identifier: GPL-2.0 */
/* A finished run recorded in the run history (--db, --no-db, --label). */
#ifndef FSPROF_RUN_HISTORY_H
#define FSPROF_RUN_HISTORY_H

#include "results/results.h"
#include "run/options.h"

/*
 * Record r unless --no-db or no case was started. A database that cannot take it
 * (locked, damaged, newer, not writable) is a warning naming the file and
 * what to do: the run's outputs and exit code are not affected.
 */
void run_history_record(const struct run_options *opt,
			const struct run_result *r);

#endif
