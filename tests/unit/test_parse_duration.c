// SPDX-License-Identifier: GPL-2.0
/* parse_duration() from src/util/parse.h (--bin, --slow-io, afd duration=) */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "util/parse.h"

static void check_ns(const char *text, uint64_t want)
{
	char err[256] = "";
	uint64_t got = 0;

	if (parse_duration(text, &got, err, sizeof(err)))
		fail_msg("parse_duration(\"%s\") failed: %s", text, err);
	if (got != want)
		fail_msg("parse_duration(\"%s\") = %llu, want %llu", text,
			 (unsigned long long)got, (unsigned long long)want);
}

static void check_rejected(const char *text)
{
	char err[256] = "";
	uint64_t got = 12345;

	assert_int_equal(parse_duration(text, &got, err, sizeof(err)), -EINVAL);
	assert_int_equal(got, 12345); /* untouched */
	assert_non_null(strstr(err, text));
}

static void durations_with_units(void **state)
{
	(void)state;
	check_ns("100ms", 100000000ULL);
	check_ns("50us", 50000ULL);
	check_ns("1s", 1000000000ULL);
	check_ns("1.5s", 1500000000ULL);
	check_ns("250ns", 250);
	check_ns("100MS", 100000000ULL);
	/* afd's duration= and interval= use the same parser */
	check_ns("2m", 120000000000ULL);
	check_ns("1.5min", 90000000000ULL);
	check_ns("1h", 3600000000000ULL);
}

static void durations_refused(void **state)
{
	(void)state;
	check_rejected("100"); /* no unit: ms? s? */
	check_rejected("ms");
	check_rejected("-1ms");
	check_rejected("0ms");
	check_rejected("0.1ns"); /* under a nanosecond */
	check_rejected("10 ms");
	check_rejected("10minutes");
	check_rejected("99999999999999999999s"); /* over 64 bits of ns */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(durations_with_units),
		cmocka_unit_test(durations_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
