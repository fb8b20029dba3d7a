/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsprof check: can a run happen on this machine, and what will it see?
 * Collect the report once, then print it as a table or as JSON.
 */
#ifndef FSPROF_CHECK_H
#define FSPROF_CHECK_H

#include "check/check_item.h"
#include "check/check_print.h"

/* exit code of `fsprof check` (and of a run) when the environment cannot run */
#define CHECK_EXIT_CANNOT_RUN 3

/* Probe the machine and fill rep; returns 0 (every probe failure is an item). */
int check_collect(struct check_report *rep, const char *scratch);

/*
 * `fsprof check [--json]`: collect, print to stdout, and return the exit
 * code: 0 when a run is possible, CHECK_EXIT_CANNOT_RUN (3) when not (the
 * reasons also go to stderr in text mode), 1 when the report could not be
 * written.
 */
int check_command(int json, const char *scratch);

#endif
