// SPDX-License-Identifier: GPL-2.0
/* signals_early(), signals_pending() and signals_install() (run/signals.h) */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "run/signals.h"

/*
 * A SIGINT during a run's preflight, before its flag exists, is kept,
 * not acted on by default (which would kill fsprof between making and
 * removing a probe file): the run then finds it, and its flag has it.
 */
static void a_signal_before_the_run_reaches_its_flag(void **state)
{
	volatile sig_atomic_t flag = 0;

	(void)state;
	assert_int_equal(signals_early(), 0);
	assert_int_equal(signals_pending(), 0);
	raise(SIGINT);
	assert_int_equal(signals_pending(), SIGINT);
	raise(SIGTERM); /* the first one is the one kept */
	assert_int_equal(signals_pending(), SIGINT);
	assert_int_equal(signals_install(&flag), 0);
	assert_int_equal(flag, SIGINT);
	assert_int_equal(signals_pending(), SIGINT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_signal_before_the_run_reaches_its_flag),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
