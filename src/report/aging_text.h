/* SPDX-License-Identifier: GPL-2.0 */
/* The text report's lines for an aged case: what --age did, the free space. */
#ifndef FSPROF_AGING_TEXT_H
#define FSPROF_AGING_TEXT_H

#include <stdio.h>

#include "results/aging.h"

/* nothing when the case was not aged */
void report_aging(const struct age_result *a, FILE *out);

#endif
