// SPDX-License-Identifier: GPL-2.0
/* The progress line: the case counter, the bar, and the estimate an earlier
 * repeat of the same case gives a phase that does not count its work. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "util/log.h"
#include "util/progress.h"

static void the_line_names_the_case_and_its_counter(void **state)
{
	struct progress p;
	char line[400];

	(void)state;
	progress_case(2, 6, "untar on xfs");
	progress_init(&p, stdout, false, "extract");
	progress_total(&p, 1000, PROGRESS_BYTES);
	p.done = 500;
	progress_render(&p, p.start_ns + 2000000000ULL, line, sizeof(line));
	assert_non_null(strstr(line, "case 2/6 untar on xfs: extract "));
	assert_non_null(strstr(line, "[############............]  50%"));
	assert_non_null(strstr(line, "ETA 2s"));
}

static void a_phase_without_a_count_shows_its_seconds(void **state)
{
	struct progress p;
	char line[400];

	(void)state;
	progress_case(3, 6, "untar on xfs#2");
	progress_init(&p, stdout, false, "ex-sync");
	progress_render(&p, p.start_ns + 12400000000ULL, line, sizeof(line));
	assert_string_equal(line, "case 3/6 untar on xfs#2: ex-sync    12 s");
	p.estimate_s = 16;
	progress_render(&p, p.start_ns + 12400000000ULL, line, sizeof(line));
	assert_string_equal(
		line, "case 3/6 untar on xfs#2: ex-sync    12 s of about 16 s");
}

static void an_earlier_repeat_of_the_case_gives_the_estimate(void **state)
{
	struct progress p;

	(void)state;
	progress_init(&p, stdout, false, "ex-sync");
	progress_case_key("untar|files=2000|xfs");
	progress_phase_begin(&p, "ex-sync");
	assert_true(p.estimate_s < 0); /* the first time: none */
	progress_phase_end(&p, 16.2);
	/* another target's phase of the same name: still none */
	progress_case_key("untar|files=2000|ext4");
	progress_phase_begin(&p, "ex-sync");
	assert_true(p.estimate_s < 0);
	progress_phase_end(&p, 18.5);
	/* the repeat (or a --verify round) of the first case: its time */
	progress_case_key("untar|files=2000|xfs");
	progress_phase_begin(&p, "ex-sync");
	assert_true(p.estimate_s > 16.19 && p.estimate_s < 16.21);
	progress_phase_end(&p, 15.0);
	progress_phase_begin(&p, "ex-sync");
	assert_true(p.estimate_s > 14.99 && p.estimate_s < 15.01);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_line_names_the_case_and_its_counter),
		cmocka_unit_test(a_phase_without_a_count_shows_its_seconds),
		cmocka_unit_test(
			an_earlier_repeat_of_the_case_gives_the_estimate),
	};

	log_set_level(LOG_QUIET);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
