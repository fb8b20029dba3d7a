// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <string.h>

#include "report/chart.h"
#include "report/svg.h"

#define CHART_W 760
#define CHART_H 320
#define PLOT_L 72 /* left margin: y ticks and label */
#define PLOT_T 40 /* top: the title */
#define PLOT_B 64 /* bottom: x ticks and label */
#define LEGEND_W 170 /* right: the legend */
#define TICKS 5
#define MARKERS_FULL 40 /* more markers than this are drawn as a rug */
#define RUG_LEN 8

static const char *const okabe_ito[] = {
	"#0072B2", /* blue */
	"#E69F00", /* orange */
	"#009E73", /* bluish green */
	"#D55E00", /* vermillion */
	"#56B4E9", /* sky blue */
	"#CC79A7", /* reddish purple */
	"#F0E442", /* yellow */
	"#000000", /* black */
};

const char *chart_colour(unsigned int i)
{
	return okabe_ito[i % (sizeof(okabe_ito) / sizeof(okabe_ito[0]))];
}

double chart_nice_max(double v)
{
	double p, m;

	if (!(v > 0))
		return 1;
	p = pow(10, floor(log10(v)));
	m = v / p;
	if (m <= 1.0000001)
		return p;
	if (m <= 2)
		return 2 * p;
	if (m <= 2.5)
		return 2.5 * p;
	if (m <= 5)
		return 5 * p;
	return 10 * p;
}

/*
 * The step between ticks up to an axis end chart_nice_max made, at round
 * values: 1 -> 0.2, 2 -> 0.5, 2.5 -> 0.5, 5 -> 1 (x 10^k)
 */
double chart_tick_step(double max)
{
	double p, m;

	if (!(max > 0))
		return 1;
	p = pow(10, floor(log10(max) + 1e-9));
	m = max / p;
	if (m <= 1.0000001)
		return 0.2 * p;
	if (m <= 2.5000001)
		return 0.5 * p;
	if (m <= 5.0000001)
		return p;
	return 2 * p;
}

/* "0.25", "12", "1500": as many digits as the step has (2.5: one) */
static void tick_label(double v, double step, char *buf, size_t len)
{
	int digits = 0;

	while (digits < 6 &&
	       fabs(step * pow(10, digits) - round(step * pow(10, digits))) >
		       1e-6 * step * pow(10, digits))
		digits++;
	snprintf(buf, len, "%.*f", digits, v);
}

struct plot_area {
	double x, y, w, h;
};

static struct plot_area plot_area(void)
{
	struct plot_area a = { PLOT_L, PLOT_T, CHART_W - PLOT_L - LEGEND_W - 10,
			       CHART_H - PLOT_T - PLOT_B };
	return a;
}

/* title, y grid with ticks, axis labels */
/* a y axis of decades from lo to hi (both powers of 10): log10 of v */
struct log_axis {
	bool on;
	double lo, hi;
};

/* the height of v on a's axis, 0..1 */
static double axis_frac(const struct log_axis *l, double v, double y_max)
{
	if (!l || !l->on)
		return v / y_max;
	if (!(v > l->lo))
		return 0;
	return (log10(v) - log10(l->lo)) / (log10(l->hi) - log10(l->lo));
}

static void chart_frame_log(FILE *out, const struct plot_area *a,
			    const struct log_axis *l)
{
	struct svg_text_style tick = { SVG_END, 11, 0, false };
	char buf[32];
	double v;

	for (v = l->lo; v <= l->hi * 1.0001; v *= 10) {
		double y = a->y + a->h - a->h * axis_frac(l, v, 1);

		svg_line(out, a->x, y, a->x + a->w, y,
			 v > l->lo ? "#dddddd" : "#333333", 1, NULL);
		tick_label(v, v, buf, sizeof(buf));
		svg_text(out, a->x - 6, y + 4, &tick, buf);
	}
}

static void chart_frame(FILE *out, const struct plot_area *a, const char *title,
			const char *x_label, const char *y_label, double y_max,
			const struct log_axis *l)
{
	struct svg_text_style big = { SVG_MIDDLE, 15, 0, true };
	struct svg_text_style tick = { SVG_END, 11, 0, false };
	struct svg_text_style lab = { SVG_MIDDLE, 12, 0, false };
	double step = chart_tick_step(y_max);
	unsigned int ticks = (unsigned int)(y_max / step + 0.5), i;
	char buf[32];

	svg_text(out, CHART_W / 2.0, 22, &big, title);
	if (l && l->on) {
		chart_frame_log(out, a, l);
		ticks = 0;
		i = 1;
	} else
		i = 0;
	for (; i <= ticks; i++) {
		double v = step * i, y = a->y + a->h - a->h * v / y_max;

		svg_line(out, a->x, y, a->x + a->w, y,
			 i ? "#dddddd" : "#333333", 1, NULL);
		tick_label(v, step, buf, sizeof(buf));
		svg_text(out, a->x - 6, y + 4, &tick, buf);
	}
	svg_line(out, a->x, a->y, a->x, a->y + a->h, "#333333", 1, NULL);
	svg_text(out, a->x + a->w / 2, CHART_H - 12, &lab, x_label);
	lab.rotate = -90;
	svg_text(out, 18, a->y + a->h / 2, &lab, y_label);
}

enum legend_symbol { LEGEND_BOX, LEGEND_LINE, LEGEND_DASH };

static void legend_item(FILE *out, unsigned int i, const char *name,
			const char *colour, enum legend_symbol sym)
{
	struct svg_text_style st = { SVG_START, 12, 0, false };
	double x = CHART_W - LEGEND_W, y = PLOT_T + 8 + 20.0 * i;

	if (sym == LEGEND_BOX)
		svg_rect(out, x, y - 10, 12, 12, colour, NULL);
	else
		svg_line(out, x, y - 4, x + 14, y - 4, colour, 2,
			 sym == LEGEND_DASH ? "4 3" : NULL);
	svg_text(out, x + 20, y, &st, name);
}

static double bars_max(const struct bar_chart *c)
{
	double max = 0;
	unsigned int i, s;

	for (i = 0; i < c->n_cats; i++) {
		double sum = 0;

		for (s = 0; s < c->n_series; s++) {
			double v = c->series[s].v[i];

			sum += v;
			if (!c->stacked && v > max)
				max = v;
		}
		if (c->stacked && sum > max)
			max = sum;
	}
	return chart_nice_max(max);
}

static bool series_drawn(const struct bar_chart *c, unsigned int s)
{
	unsigned int i;

	for (i = 0; i < c->n_cats; i++)
		if (c->series[s].v[i] > 0)
			return true;
	return false;
}

static const char *series_colour(const struct chart_series *s, unsigned int i)
{
	return s->colour ? s->colour : chart_colour(i);
}

static void bar_one(FILE *out, const struct bar_chart *c, unsigned int s,
		    unsigned int i, const double box[4])
{
	char tip[160];

	snprintf(tip, sizeof(tip), "%s, %s: %.3g %s", c->cats[i],
		 c->series[s].name, c->series[s].v[i], c->unit);
	svg_rect(out, box[0], box[1], box[2], box[3],
		 series_colour(&c->series[s], s), tip);
}

/* category labels: every k-th one when they would crowd */
static void bar_cat_labels(FILE *out, const struct bar_chart *c,
			   const struct plot_area *a)
{
	struct svg_text_style st = { SVG_MIDDLE, 11, 0, false };
	double slot = a->w / c->n_cats;
	unsigned int i, every = 1;

	while (slot * every < 48)
		every++;
	for (i = 0; i < c->n_cats; i += every)
		svg_text(out, a->x + slot * (i + 0.5), a->y + a->h + 16, &st,
			 c->cats[i]);
}

void chart_bars_drop_empty(struct bar_chart *c)
{
	unsigned int i, s, n = 0;

	for (i = 0; i < c->n_cats; i++) {
		bool any = false;

		for (s = 0; s < c->n_series; s++)
			any |= c->series[s].v[i] > 0;
		if (!any)
			continue;
		c->cats[n] = c->cats[i];
		for (s = 0; s < c->n_series; s++)
			c->series[s].v[n] = c->series[s].v[i];
		n++;
	}
	c->n_cats = n;
}

/*
 * Side-by-side bars whose values span two decades or more (a 0.08 s phase
 * beside an 18 s one) on a log axis of whole decades, so that the short
 * ones are bars and not slivers; stacked bars stay linear (their parts
 * add up)
 */
#define LOG_AXIS_SPAN 100

static void log_axis_choose(const struct bar_chart *c, struct log_axis *l)
{
	double lo = INFINITY, hi = 0;
	unsigned int i, s;

	l->on = false;
	if (c->stacked || c->y_max > 0)
		return;
	for (s = 0; s < c->n_series; s++)
		for (i = 0; i < c->n_cats; i++) {
			double v = c->series[s].v[i];

			if (v > 0 && v < lo)
				lo = v;
			if (v > hi)
				hi = v;
		}
	if (!(hi > 0) || hi / lo < LOG_AXIS_SPAN)
		return;
	l->on = true;
	l->lo = pow(10, floor(log10(lo)));
	if (l->lo >= lo * 0.999) /* the smallest on the axis' foot: a bar */
		l->lo /= 10;
	l->hi = pow(10, ceil(log10(hi)));
}

void chart_bars(FILE *out, const struct bar_chart *c)
{
	struct plot_area a = plot_area();
	struct log_axis l;
	char ylab[160];
	double max = c->y_max > 0 ? c->y_max : bars_max(c), slot, bw;
	unsigned int i, s;

	log_axis_choose(c, &l);
	svg_begin(out, CHART_W, CHART_H, c->title, NULL);
	if (l.on) {
		snprintf(ylab, sizeof(ylab), "%s, log scale", c->y_label);
		chart_frame(out, &a, c->title, c->x_label, ylab, max, &l);
	} else
		chart_frame(out, &a, c->title, c->x_label, c->y_label, max,
			    NULL);
	slot = c->n_cats ? a.w / c->n_cats : a.w;
	bw = c->stacked || !c->n_series ? slot * 0.7 : slot * 0.8 / c->n_series;
	for (i = 0; i < c->n_cats; i++) {
		double base = a.y + a.h;

		for (s = 0; s < c->n_series; s++) {
			double h = a.h * axis_frac(&l, c->series[s].v[i], max),
			       box[4];

			if (!(h > 0))
				continue;
			if (h > a.h)
				h = a.h;
			if (c->stacked) {
				base -= h;
				box[0] = a.x + slot * i + slot * 0.15;
				box[1] = base;
			} else {
				box[0] = a.x + slot * i + slot * 0.1 + bw * s;
				box[1] = a.y + a.h - h;
			}
			box[2] = bw;
			box[3] = h < 0.5 ? 0.5 : h;
			bar_one(out, c, s, i, box);
		}
	}
	bar_cat_labels(out, c, &a);
	/* a series that is zero everywhere draws nothing: not in the legend */
	for (s = 0, i = 0; s < c->n_series; s++)
		if (series_drawn(c, s))
			legend_item(out, i++, c->series[s].name,
				    series_colour(&c->series[s], s),
				    LEGEND_BOX);
	svg_end(out);
}

static double lines_max(const struct line_chart *c)
{
	double max = 0;
	unsigned int s, i;

	for (s = 0; s < c->n_series; s++)
		for (i = 0; i < c->series[s].n; i++)
			if (c->series[s].v[i] > max)
				max = c->series[s].v[i];
	return chart_nice_max(max);
}

/* x axis ticks in the x unit */
static void lines_x_ticks(FILE *out, const struct plot_area *a, double x_end)
{
	struct svg_text_style st = { SVG_MIDDLE, 11, 0, false };
	double step = chart_tick_step(chart_nice_max(x_end)), v;
	char buf[32];

	for (v = 0; v <= x_end * 1.0001; v += step) {
		double x = a->x + a->w * v / x_end;

		svg_line(out, x, a->y + a->h, x, a->y + a->h + 4, "#333333", 1,
			 NULL);
		tick_label(v, step, buf, sizeof(buf));
		svg_text(out, x, a->y + a->h + 16, &st, buf);
	}
}

static void lines_series(FILE *out, const struct line_series *s, double dx,
			 double x_end, double y_max, const struct plot_area *a)
{
	static double px[2 * 4096 + 2], py[2 * 4096 + 2];
	unsigned int i, n = 0, bins = s->n > 4096 ? 4096 : s->n;

	for (i = 0; i < bins; i++) {
		double y = a->y + a->h - a->h * s->v[i] / y_max;

		px[n] = a->x + a->w * (dx * i) / x_end;
		py[n++] = y;
		px[n] = a->x + a->w * (dx * (i + 1)) / x_end;
		py[n++] = y;
	}
	if (n)
		svg_polyline(out, px, py, n, s->colour, 1.8);
}

void chart_lines(FILE *out, const struct line_chart *c)
{
	struct plot_area a = plot_area();
	double y_max = lines_max(c), x_end = c->x_max > 0 ? c->x_max : 1;
	unsigned int s, i, item = 0;
	char tip[96];

	svg_begin(out, CHART_W, CHART_H, c->title, NULL);
	chart_frame(out, &a, c->title, c->x_label, c->y_label, y_max, NULL);
	lines_x_ticks(out, &a, x_end);
	for (s = 0; s < c->n_markers; s++) {
		const struct chart_markers *m = &c->markers[s];
		/* many markers: ticks along the top (a rug), not over the lines */
		double len = m->n > MARKERS_FULL ? RUG_LEN : a.h;
		double top = a.y + (m->n > MARKERS_FULL ? RUG_LEN * s : 0);

		for (i = 0; i < m->n; i++) {
			double x = a.x + a.w * m->x[i] / x_end;

			if (m->x[i] < 0 || m->x[i] > x_end)
				continue;
			fprintf(out, "<g>");
			snprintf(tip, sizeof(tip), "%s at %.3f s", m->name,
				 m->x[i]);
			svg_line(out, x, top, x, top + len, m->colour, 0.8,
				 m->n > MARKERS_FULL ? NULL : "4 3");
			fprintf(out, "<title>");
			xml_escape(out, tip);
			fprintf(out, "</title></g>\n");
		}
	}
	for (s = 0; s < c->n_series; s++)
		lines_series(out, &c->series[s], c->dx, x_end, y_max, &a);
	for (s = 0; s < c->n_series; s++) {
		for (i = 0; i < c->series[s].n && !(c->series[s].v[i] > 0); i++)
			;
		if (i < c->series[s].n)
			legend_item(out, item++, c->series[s].name,
				    c->series[s].colour, LEGEND_LINE);
	}
	for (s = 0; s < c->n_markers; s++)
		if (c->markers[s].n)
			legend_item(out, item++, c->markers[s].name,
				    c->markers[s].colour,
				    c->markers[s].n > MARKERS_FULL ?
					    LEGEND_LINE :
					    LEGEND_DASH);
	svg_end(out);
}

#define HBAR_LABEL_W 230 /* left: the bars' labels */
#define HBAR_VALUE_W 80 /* right: the value past the longest bar */
#define HBAR_H 20
#define HBAR_GAP 6
#define HBAR_TOP 34
#define HBAR_BOTTOM 44

void chart_hbars(FILE *out, const struct hbar_chart *c)
{
	struct svg_text_style big = { SVG_MIDDLE, 14, 0, true };
	struct svg_text_style lab = { SVG_END, 12, 0, false };
	struct svg_text_style val = { SVG_START, 11, 0, false };
	struct svg_text_style tick = { SVG_MIDDLE, 11, 0, false };
	double x0 = HBAR_LABEL_W, w = CHART_W - HBAR_LABEL_W - HBAR_VALUE_W;
	double max = 0, step, v, y;
	int height = HBAR_TOP + (int)c->n * (HBAR_H + HBAR_GAP) + HBAR_BOTTOM;
	unsigned int i;
	char buf[160];

	for (i = 0; i < c->n; i++)
		if (c->bars[i].v > max)
			max = c->bars[i].v;
	max = chart_nice_max(max);
	step = chart_tick_step(max);
	svg_begin(out, CHART_W, height, c->title, NULL);
	svg_text(out, CHART_W / 2.0, 20, &big, c->title);
	y = HBAR_TOP + c->n * (HBAR_H + HBAR_GAP);
	for (v = 0; v <= max * 1.0001; v += step) {
		double x = x0 + w * v / max;

		svg_line(out, x, HBAR_TOP - 4, x, y,
			 v > 0 ? "#dddddd" : "#333333", 1, NULL);
		tick_label(v, step, buf, sizeof(buf));
		svg_text(out, x, y + 14, &tick, buf);
	}
	tick.anchor = SVG_MIDDLE;
	svg_text(out, x0 + w / 2, y + 34, &tick, c->x_label);
	for (i = 0; i < c->n; i++) {
		const struct hbar *b = &c->bars[i];
		double by = HBAR_TOP + i * (HBAR_H + HBAR_GAP);
		double bw = max > 0 ? w * b->v / max : 0;

		svg_text(out, x0 - 8, by + HBAR_H * 0.7, &lab, b->label);
		snprintf(buf, sizeof(buf), "%s: %.3g %s", b->label, b->v,
			 c->unit);
		svg_rect(out, x0, by, bw < 1 ? 1 : bw, HBAR_H,
			 b->colour ? b->colour : chart_colour(i), buf);
		snprintf(buf, sizeof(buf), "%.3g %s", b->v, c->unit);
		svg_text(out, x0 + bw + 6, by + HBAR_H * 0.7, &val, buf);
	}
	svg_end(out);
}
