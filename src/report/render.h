/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The output formats a results model can be rendered in, by name, for
 * `fsprof report --format` (and any command that renders a saved or a
 * fresh run the same way).
 */
#ifndef FSPROF_RENDER_H
#define FSPROF_RENDER_H

#include <stdbool.h>
#include <stdio.h>

#include "results/results.h"

/* is name a format report_render knows? */
bool report_format_known(const char *name);

/* "text|json|..." for usage lines and errors */
const char *report_format_list(void);

/* render run as format into out; 0, or a negative errno (said on stderr) */
int report_render(const struct run_result *run, const char *format, FILE *out);

#endif
