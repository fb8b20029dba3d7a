// SPDX-License-Identifier: GPL-2.0
/* Numbers for people: durations, and a metric's value in its unit. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "report/format.h"
#include "util/parse.h"

void format_duration_ns(double ns, char *buf, size_t len)
{
	if (ns <= 0)
		snprintf(buf, len, "-");
	else if (ns < 1e3)
		snprintf(buf, len, "%.0f ns", ns);
	else if (ns < 1e6)
		snprintf(buf, len, "%.0f us", ns / 1e3);
	else if (ns < 1e9)
		snprintf(buf, len, "%.1f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.2f s", ns / 1e9);
}

/*
 * A value in the unit its name ends with: _ns, _bytes, else a count. A key
 * after the unit, as in a summarised histogram ("op.write_ns.p99") or a
 * metric by cause ("sched.offcpu_ns.journal_commit"), is not the unit.
 */
static bool name_has_unit(const char *name, size_t n)
{
	return (n > 3 && !strncmp(name + n - 3, "_ns", 3)) ||
	       (n > 6 && !strncmp(name + n - 6, "_bytes", 6));
}

void format_metric_value(const char *name, double v, char *buf, size_t len)
{
	size_t n = strlen(name), domain = strcspn(name, ".");

	/* drop keys from the end until a unit shows, never the domain's */
	while (!name_has_unit(name, n)) {
		size_t dot = n;

		while (dot > domain && name[dot - 1] != '.')
			dot--;
		if (dot <= domain + 1)
			break;
		n = dot - 1;
	}
	if (n > 3 && !strncmp(name + n - 3, "_ns", 3))
		format_duration_ns(v, buf, len);
	else if (n > 6 && !strncmp(name + n - 6, "_bytes", 6))
		format_bytes((uint64_t)v, buf, len);
	else if (v != (double)(uint64_t)v)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.0f", v);
}
