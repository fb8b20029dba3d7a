// SPDX-License-Identifier: GPL-2.0
/* stage_mark() from src/util/stage.h: the -v lines startup.sh splits by */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stderr_capture.h"
#include "util/log.h"
#include "util/stage.h"

/* the numbers of "stage: NAME at T ns, cpu C ms, rss R kB, peak P kB" */
static void stage_fields(const char *text, const char *name,
			 unsigned long long *at, long *rss, long *peak)
{
	char head[96];
	const char *line;
	double cpu;

	snprintf(head, sizeof(head), "fsprof: stage: %s at ", name);
	line = strstr(text, head);
	assert_non_null(line);
	assert_int_equal(sscanf(line + strlen(head),
				"%llu ns, cpu %lf ms, rss %ld kB, peak %ld kB",
				at, &cpu, rss, peak),
			 4);
}

/* main's mark comes before -v is parsed: it is logged with the next one */
static void a_mark_before_verbose_is_logged_with_the_next(void **state)
{
	struct stderr_capture cap;
	unsigned long long at1, at2;
	long rss1, peak1, rss2, peak2;
	const char *text;

	(void)state;
	log_set_level(LOG_NORMAL);
	assert_int_equal(stderr_capture_begin(&cap), 0);
	stage_mark("main");
	text = stderr_capture_end(&cap);
	assert_string_equal(text, "");

	log_set_level(LOG_VERBOSE);
	assert_int_equal(stderr_capture_begin(&cap), 0);
	stage_mark("domain %s loaded", "block");
	text = stderr_capture_end(&cap);
	stage_fields(text, "main", &at1, &rss1, &peak1);
	stage_fields(text, "domain block loaded", &at2, &rss2, &peak2);
	/* in order, on one clock; the peak never below the RSS */
	assert_true(strstr(text, "stage: main") <
		    strstr(text, "stage: domain block"));
	assert_true(at1 <= at2);
	assert_true(rss1 > 0 && peak1 >= rss1);
	assert_true(rss2 > 0 && peak2 >= rss2 && peak2 >= peak1);
}

/* a mark logged once is not logged again */
static void a_mark_is_logged_once(void **state)
{
	struct stderr_capture cap;
	const char *text;

	(void)state;
	log_set_level(LOG_VERBOSE);
	assert_int_equal(stderr_capture_begin(&cap), 0);
	stage_mark("tracer up");
	text = stderr_capture_end(&cap);
	assert_null(strstr(text, "stage: main"));
	assert_non_null(strstr(text, "stage: tracer up at "));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_mark_before_verbose_is_logged_with_the_next),
		cmocka_unit_test(a_mark_is_logged_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
