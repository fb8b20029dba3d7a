/* SPDX-License-Identifier: GPL-2.0 */
/* A case's "age" member of the results JSON (null when not aged). */
#ifndef FSPROF_AGING_JSON_H
#define FSPROF_AGING_JSON_H

#include <jansson.h>

#include "results/aging.h"

json_t *aging_json(const struct age_result *a);

#endif
