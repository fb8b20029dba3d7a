/* SPDX-License-Identifier: GPL-2.0 */
/* The analyze stage's part of the results JSON. */
#ifndef FSPROF_FINDINGS_JSON_H
#define FSPROF_FINDINGS_JSON_H

#include <jansson.h>

#include "results/results.h"

/* cases[].phases[].findings[] */
json_t *findings_to_json(const struct finding_list *l);

/* cases[].phases[].verdict; null before analysis */
json_t *verdict_to_json(const struct phase_verdict *v);

/* the top-level comparisons[] */
json_t *comparisons_to_json(const struct comparison_list *l);

#endif
