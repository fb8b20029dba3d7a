/* SPDX-License-Identifier: GPL-2.0 */
/* Reading a saved results JSON back into the results model. */
#ifndef FSPROF_JSON_READ_H
#define FSPROF_JSON_READ_H

#include <jansson.h>
#include <stddef.h>

#include "results/results.h"

/*
 * Read the results file path into run (which the caller frees with
 * run_result_free on success). On failure returns a negative errno,
 * leaves run empty, and err says what is wrong and where: the file, the
 * JSON path ("cases[0].phases[2].block: ...") and what to do.
 */
int results_read_json(const char *path, struct run_result *run, char *err,
		      size_t errlen);

/* the same from a parsed document; name is what errors call it */
int results_from_json(json_t *root, const char *name, struct run_result *run,
		      char *err, size_t errlen);

#endif
