// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>

#include "report/format.h"
#include "report/timeline.h"
#include "util/parse.h"

/* series the report leaves to the JSON: they repeat another one's shape */
static const char *const quiet_series[] = {
	"block.ios",
	"jbd2.blocks_logged",
	"writeback.throttle_count",
};

static const char ramp[] = " .:-=+*#%@";

void sparkline_draw(const uint64_t *v, unsigned int cols, uint64_t peak,
		    char *buf)
{
	unsigned int i, levels = sizeof(ramp) - 2; /* without ' ' and NUL */

	for (i = 0; i < cols; i++) {
		unsigned int level = 0;

		/* anything non-zero shows, the peak alone gets the top */
		if (v[i] && peak)
			level = 1 + (unsigned int)((double)v[i] * (levels - 1) /
						   (double)peak);
		buf[i] = ramp[level > levels ? levels : level];
	}
	buf[cols] = '\0';
}

static bool series_quiet(const struct series *s)
{
	unsigned int i;

	for (i = 0; i < sizeof(quiet_series) / sizeof(quiet_series[0]); i++)
		if (!strcmp(s->name, quiet_series[i]))
			return true;
	return !series_sum(s);
}

/* a value in the unit the name ends with */
static void format_value(const char *name, uint64_t v, char *buf, size_t len)
{
	size_t n = strlen(name);

	if (n > 3 && !strcmp(name + n - 3, "_ns"))
		format_duration_ns((double)v, buf, len);
	else if (n > 6 && !strcmp(name + n - 6, "_bytes"))
		format_bytes(v, buf, len);
	else
		snprintf(buf, len, "%llu", (unsigned long long)v);
}

static void report_series(const struct phase_result *p, const struct series *s,
			  FILE *out)
{
	uint64_t cols[TIMELINE_COLUMNS];
	char line[TIMELINE_COLUMNS + 1], peak_s[32], at[32];
	unsigned int n, per, peak = 0, i;

	n = series_columns(s, cols, TIMELINE_COLUMNS);
	for (i = 1; i < n; i++)
		if (cols[i] > cols[peak])
			peak = i;
	sparkline_draw(cols, n, cols[peak], line);
	per = (s->n + TIMELINE_COLUMNS - 1) / TIMELINE_COLUMNS;
	format_value(s->name, cols[peak], peak_s, sizeof(peak_s));
	if (peak)
		format_duration_ns((double)peak * per * p->timeline.bin_ns, at,
				   sizeof(at));
	else
		snprintf(at, sizeof(at), "0 s");
	fprintf(out, "  %-28s |%-*s| peak %s at %s\n", s->name,
		TIMELINE_COLUMNS, line, peak_s, at);
}

/* the column width of a phase: its bins squeezed into TIMELINE_COLUMNS */
static void phase_column_width(const struct phase_result *p, char *buf,
			       size_t len)
{
	unsigned int bins = series_set_bins(&p->timeline);
	unsigned int per = (bins + TIMELINE_COLUMNS - 1) / TIMELINE_COLUMNS;

	format_duration_ns((double)per * p->timeline.bin_ns, buf, len);
}

void report_timeline(const struct case_result *c, FILE *out)
{
	unsigned int i, j;
	bool header = false;
	char width[32];

	for (i = 0; i < c->n_phases; i++) {
		const struct phase_result *p = &c->phases[i];
		bool phase_header = false;

		for (j = 0; j < p->timeline.n; j++) {
			const struct series *s = &p->timeline.s[j];

			if (series_quiet(s))
				continue;
			if (!header) {
				fprintf(out,
					"\ntimeline (a column sums its bins; peak = the largest column, at its start)\n");
				header = true;
			}
			if (!phase_header) {
				phase_column_width(p, width, sizeof(width));
				fprintf(out, "%s (one column = %s)\n", p->name,
					width);
				phase_header = true;
			}
			report_series(p, s, out);
		}
	}
}

/* the drops every domain counted in this phase (<domain>.events_dropped) */
static uint64_t phase_drops(const struct phase_result *p)
{
	const char *suffix = ".events_dropped";
	size_t ls = strlen(suffix);
	uint64_t sum = 0;
	unsigned int i;

	for (i = 0; i < p->metrics.n; i++) {
		size_t n = strlen(p->metrics.v[i].name);

		if (n > ls && !strcmp(p->metrics.v[i].name + n - ls, suffix))
			sum += p->metrics.v[i].value;
	}
	return sum;
}

void report_events(const struct case_result *c, FILE *out)
{
	uint64_t dropped = phase_drops(&c->spill);
	unsigned int i, k;
	const char *sep = " (";

	for (i = 0; i < c->n_phases; i++)
		dropped += phase_drops(&c->phases[i]);
	if (!c->events.n && !dropped && !c->events.not_stored)
		return;
	fprintf(out, "\nrare events: %zu", c->events.n);
	for (k = 0; k < FSPROF_EV_NR; k++) {
		const struct event_kind_info *info = event_kind_info(k);
		size_t n = event_list_count(&c->events, (int)k, -1);

		if (!n || !info)
			continue;
		fprintf(out, "%s%s %s %zu", sep, info->domain, info->name, n);
		sep = ", ";
	}
	fprintf(out, "%s; lost to a full ring: %llu", *sep == ',' ? ")" : "",
		(unsigned long long)dropped);
	if (c->events.not_stored)
		fprintf(out, "; not stored (over %u): %llu", EVENT_LIST_MAX,
			(unsigned long long)c->events.not_stored);
	fputc('\n', out);
}
