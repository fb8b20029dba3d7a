/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Charts drawn with the SVG writer: grouped or stacked bars over
 * categories, and step lines over time with event markers. Every chart has
 * a title, axis labels with units and a legend; colours come from the
 * Okabe-Ito palette, which colour-blind readers tell apart.
 */
#ifndef FSPROF_REPORT_CHART_H
#define FSPROF_REPORT_CHART_H

#include <stdbool.h>
#include <stdio.h>

#define CHART_MAX_SERIES 10
#define CHART_MAX_CATS 64
#define CHART_MAX_MARKERS 2

/* Okabe-Ito colour i (wraps around); black last */
const char *chart_colour(unsigned int i);

struct chart_series {
	const char *name;
	const char *colour; /* NULL: chart_colour(index) */
	double v[CHART_MAX_CATS]; /* bars: one per category */
};

struct bar_chart {
	const char *title;
	const char *x_label; /* "phase" */
	const char *y_label; /* with its unit: "wall time (s)" */
	const char *unit; /* for tooltips: "s" */
	bool stacked; /* series stacked in one bar, else side by side */
	double y_max; /* the y axis' end; 0: from the data */
	unsigned int n_cats;
	const char *cats[CHART_MAX_CATS];
	unsigned int n_series;
	struct chart_series series[CHART_MAX_SERIES];
};

void chart_bars(FILE *out, const struct bar_chart *c);

/* leave out the categories where every series is 0 (a throughput chart's
 * phases that moved no data) */
void chart_bars_drop_empty(struct bar_chart *c);

/* a step line: value v[i] over [i * dx, (i + 1) * dx) */
struct line_series {
	const char *name;
	const char *colour;
	unsigned int n;
	const double *v;
};

/* vertical lines at x[] (log forces, commits) */
struct chart_markers {
	const char *name;
	const char *colour;
	unsigned int n;
	const double *x;
};

struct line_chart {
	const char *title;
	const char *x_label; /* "time in phase (s)" */
	const char *y_label; /* "MB/s issued" */
	double dx, x_max; /* bin width and the x axis end, in x units */
	unsigned int n_series;
	struct line_series series[CHART_MAX_SERIES];
	unsigned int n_markers;
	struct chart_markers markers[CHART_MAX_MARKERS];
};

void chart_lines(FILE *out, const struct line_chart *c);

/* the smallest 1, 2, 2.5 or 5 x 10^k at or above v (for axis ends) */
double chart_nice_max(double v);

/* the round step between the ticks of an axis that ends at max */
double chart_tick_step(double max);

/*
 * horizontal bars, one a label, on an axis of their own from 0: one of
 * the small multiples the HTML summary draws, a phase's wall time by target
 */
struct hbar {
	const char *label;
	double v;
	const char *colour; /* NULL: chart_colour(index) */
};

struct hbar_chart {
	const char *title;
	const char *x_label; /* with its unit: "wall time (s)" */
	const char *unit; /* "s" */
	unsigned int n;
	struct hbar bars[CHART_MAX_CATS];
};

void chart_hbars(FILE *out, const struct hbar_chart *c);

#endif
