/* SPDX-License-Identifier: GPL-2.0 */
/* The top-level classic[] of the results JSON (docs/results-json.md). */
#ifndef FSPROF_CLASSIC_JSON_H
#define FSPROF_CLASSIC_JSON_H

#include <jansson.h>

#include "results/classic.h"

json_t *classic_to_json(const struct classic_list *l);

#endif
