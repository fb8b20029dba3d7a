/* SPDX-License-Identifier: GPL-2.0 */
/* Numbers for people: durations, and a metric's value in its unit. */
#ifndef FSPROF_REPORT_FORMAT_H
#define FSPROF_REPORT_FORMAT_H

#include <stddef.h>

/* "812 us", "3.4 ms", "1.20 s" */
void format_duration_ns(double ns, char *buf, size_t len);

/* v in the unit name ends with (_ns, _bytes, else a count) */
void format_metric_value(const char *name, double v, char *buf, size_t len);

#endif
