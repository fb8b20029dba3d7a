/* SPDX-License-Identifier: GPL-2.0 */
/* The check report printed for people or as JSON. */
#ifndef FSPROF_CHECK_PRINT_H
#define FSPROF_CHECK_PRINT_H

#include <stdio.h>

#include "check/check_item.h"

/* Aligned table of item, status and detail, then the verdict line. */
void check_print_text(const struct check_report *rep, FILE *out);

/* The report as JSON; returns 0, or -ENOMEM / -EIO when it could not be written. */
int check_print_json(const struct check_report *rep, FILE *out);

#endif
