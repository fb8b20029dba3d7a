// SPDX-License-Identifier: GPL-2.0
/* A live case's phases (src/run/live_phases.h), untraced */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "run/live_phases.h"

#define S 1000000000ULL

static struct live_phases lp;
static struct run_result run;

/* a case with room for every phase, in a fresh run */
static struct case_result *case_new(void)
{
	struct case_result *c;

	memset(&run, 0, sizeof(run));
	c = run_result_add_case(&run, FSPROF_MAX_PHASES - 1);
	assert_non_null(c);
	return c;
}

static void time_phases_follow_the_interval(void **state)
{
	struct case_result *c = case_new();

	(void)state;
	live_phases_init(&lp, NULL, 0, S);
	live_phases_begin(&lp, "cmd", 100 * S);
	/* the time to the next boundary */
	assert_int_equal(live_phases_tick(&lp, 100 * S + S / 4), 3 * S / 4);
	/* a tick 10 ms late: the switch is when it was made */
	assert_int_equal(live_phases_tick(&lp, 101 * S + S / 100),
			 S - S / 100);
	assert_int_equal(lp.running, 2);
	/*
	 * a tick late by 1.5 intervals: the slot it passed over is in the
	 * slice that ended, the new one is the slot it falls in, and the next
	 * boundary is on the grid
	 */
	assert_int_equal(live_phases_tick(&lp, 103 * S + S / 2), S / 2);
	assert_int_equal(lp.running, 3);
	assert_int_equal(live_phases_collect(&lp, c, 103 * S + S * 3 / 4, false),
			 0);
	assert_int_equal(c->n_phases, 3);
	assert_string_equal(c->phases[0].name, "0-1s");
	assert_string_equal(c->phases[1].name, "1-2s");
	assert_string_equal(c->phases[2].name, "3-4s");
	assert_int_equal(c->phases[0].wall_ns, S + S / 100);
	assert_int_equal(c->phases[1].start_mono_ns, 101 * S + S / 100);
	assert_int_equal(c->phases[1].wall_ns, 2 * S + S / 2 - S / 100);
	assert_int_equal(c->phases[2].wall_ns, S / 4); /* the rest */
	run_result_free(&run);
}

static void marked_phases_leave_the_prelude_between_phases(void **state)
{
	struct case_result *c = case_new();

	(void)state;
	live_phases_init(&lp, NULL, 0, 0);
	live_phases_begin(&lp, "cmd", 10 * S);
	assert_int_equal(live_phases_tick(&lp, 50 * S), 0); /* no --interval */
	live_phases_switch(&lp, 2, "load", 11 * S, true);
	live_phases_switch(&lp, 0, "", 13 * S, true);
	live_phases_switch(&lp, 3, "query", 14 * S, true);
	assert_int_equal(live_phases_collect(&lp, c, 20 * S, true), 0);
	assert_int_equal(c->n_phases, 2);
	assert_string_equal(c->phases[0].name, "load");
	assert_int_equal(c->phases[0].id, 2);
	assert_int_equal(c->phases[0].wall_ns, 2 * S);
	assert_string_equal(c->phases[1].name, "query");
	assert_int_equal(c->phases[1].wall_ns, 6 * S);
	run_result_free(&run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(time_phases_follow_the_interval),
		cmocka_unit_test(
			marked_phases_leave_the_prelude_between_phases),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
