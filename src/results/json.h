/* SPDX-License-Identifier: GPL-2.0 */
/* The results model as JSON (jansson); schema in docs/results-schema.md. */
#ifndef FSPROF_RESULTS_JSON_H
#define FSPROF_RESULTS_JSON_H

#include <jansson.h>

#include "results/results.h"

json_t *results_to_json(const struct run_result *run);

/*
 * Write to path atomically (a temporary file renamed into place), so a file
 * that exists is complete. Returns 0 or -errno, after saying what failed.
 */
int results_write_json(const struct run_result *run, const char *path);

#endif
