// SPDX-License-Identifier: GPL-2.0
/* The charts' axes: ticks at round values, a log axis when bars span two
 * decades, series of zeros out of the legend, and the summary's horizontal
 * bars on an axis of their own. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "report/chart.h"
#include "written_text.h"

/* the SVG of one chart, in a malloc'ed string */
static char *bars_svg(const struct bar_chart *c)
{
	FILE *f = written_begin();

	chart_bars(f, c);
	return written_text(f);
}

/* a <text> whose content is exactly s */
static bool has_text(const char *svg, const char *s)
{
	char want[64];

	snprintf(want, sizeof(want), ">%s</text>", s);
	return strstr(svg, want) != NULL;
}

/* the height of the bar whose tooltip is tip, or -1 */
static double bar_height(const char *svg, const char *tip)
{
	size_t at;
	const char *t = strstr(svg, tip), *h;

	if (!t)
		return -1;
	at = (size_t)(t - svg);
	while (at > 0 && strncmp(svg + at, "<rect", 5))
		at--;
	h = strstr(svg + at, "height=\"");
	return h ? strtod(h + 8, NULL) : -1;
}

static void ticks_are_round(void **state)
{
	struct bar_chart c = { .title = "t",
			       .x_label = "x",
			       .y_label = "y (s)",
			       .unit = "s",
			       .n_cats = 2,
			       .n_series = 1 };
	char *svg;

	(void)state;
	c.cats[0] = "a";
	c.cats[1] = "b";
	c.series[0].name = "one";
	c.series[0].v[0] = 11.8; /* the axis ends at 20: 0 5 10 15 20 */
	c.series[0].v[1] = 3;
	svg = bars_svg(&c);
	assert_true(has_text(svg, "0") && has_text(svg, "5") &&
		    has_text(svg, "10") && has_text(svg, "15") &&
		    has_text(svg, "20"));
	free(svg);
	c.series[0].v[0] = 2.3; /* ends at 2.5: every 0.5, labelled so */
	c.series[0].v[1] = 1;
	svg = bars_svg(&c);
	assert_true(has_text(svg, "0.5") && has_text(svg, "2.5"));
	assert_false(has_text(svg, "2") || has_text(svg, "8"));
	free(svg);
	assert_true(chart_tick_step(2.5) == 0.5 && chart_tick_step(10) == 2 &&
		    chart_tick_step(5) == 1 && chart_tick_step(0.2) == 0.05);
}

static void bars_spanning_two_decades_get_a_log_axis(void **state)
{
	struct bar_chart c = { .title = "t",
			       .x_label = "x",
			       .y_label = "wall time (s)",
			       .unit = "s",
			       .n_cats = 2,
			       .n_series = 2 };
	char *svg;
	double h;

	(void)state;
	c.cats[0] = "ex-sync";
	c.cats[1] = "rm-sync";
	c.series[0].name = "ext4";
	c.series[0].v[0] = 18.5;
	c.series[0].v[1] = 0.083;
	c.series[1].name = "xfs";
	c.series[1].v[0] = 16.4;
	c.series[1].v[1] = 1.16;
	svg = bars_svg(&c);
	assert_non_null(strstr(svg, "wall time (s), log scale"));
	/* decades from 0.01 to 100 */
	assert_true(has_text(svg, "0.01") && has_text(svg, "0.1") &&
		    has_text(svg, "1") && has_text(svg, "10") &&
		    has_text(svg, "100"));
	/* the 1.16 s bar: 2.06 of the axis' 4 decades, about half of the
	 * plot's 216 px (on a linear 0-20 axis it was 13 px) */
	h = bar_height(svg, "rm-sync, xfs: 1.16 s");
	assert_true(h > 0.5 * 216 - 2 && h < 0.53 * 216);
	free(svg);
	/* under two decades: linear */
	c.series[0].v[1] = 0.5;
	c.series[1].v[1] = 1.16;
	svg = bars_svg(&c);
	assert_null(strstr(svg, "log scale"));
	free(svg);
}

static void a_series_of_zeros_is_not_in_the_legend(void **state)
{
	struct bar_chart c = { .title = "t",
			       .x_label = "x",
			       .y_label = "y (s)",
			       .unit = "s",
			       .n_cats = 1,
			       .n_series = 2 };
	char *svg;

	(void)state;
	c.cats[0] = "a";
	c.series[0].name = "drawn";
	c.series[0].v[0] = 1;
	c.series[1].name = "nothing";
	svg = bars_svg(&c);
	assert_true(has_text(svg, "drawn"));
	assert_false(has_text(svg, "nothing"));
	free(svg);
}

static void empty_categories_are_dropped_on_request(void **state)
{
	struct bar_chart c = { .n_cats = 3, .n_series = 1 };

	(void)state;
	c.cats[0] = "write";
	c.cats[1] = "sync";
	c.cats[2] = "read";
	c.series[0].v[0] = 100;
	c.series[0].v[2] = 200;
	chart_bars_drop_empty(&c);
	assert_int_equal(c.n_cats, 2);
	assert_string_equal(c.cats[1], "read");
	assert_true(c.series[0].v[1] == 200);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ticks_are_round),
		cmocka_unit_test(bars_spanning_two_decades_get_a_log_axis),
		cmocka_unit_test(a_series_of_zeros_is_not_in_the_legend),
		cmocka_unit_test(empty_categories_are_dropped_on_request),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
