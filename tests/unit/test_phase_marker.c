// SPDX-License-Identifier: GPL-2.0
/* The FSPROF_PHASE_FD line grammar and switches (src/run/phase_marker.h) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "fsprof/phase.h"
#include "run/phase_marker.h"

static struct marker_line parse(const char *text)
{
	struct marker_line ml;

	phase_marker_parse(text, strlen(text), &ml);
	return ml;
}

static void check_bad(const char *text, const char *because)
{
	struct marker_line ml = parse(text);

	if (ml.verb != MARKER_VERB_BAD)
		fail_msg("'%s' was accepted", text);
	if (!strstr(ml.why, because))
		fail_msg("'%s': '%s' does not say '%s'", text, ml.why, because);
}

static void begin_and_end_lines_parse(void **state)
{
	struct marker_line ml;

	(void)state;
	ml = parse("begin create");
	assert_int_equal(ml.verb, MARKER_VERB_BEGIN);
	assert_string_equal(ml.name, "create");
	ml = parse("begin a.b:c-d_9");
	assert_int_equal(ml.verb, MARKER_VERB_BEGIN);
	assert_string_equal(ml.name, "a.b:c-d_9");
	ml = parse("begin 0123456789012345678901234567890"); /* 31 */
	assert_int_equal(ml.verb, MARKER_VERB_BEGIN);
	assert_int_equal(strlen(ml.name), MARKER_NAME_MAX);
	assert_int_equal(parse("end").verb, MARKER_VERB_END);
}

static void bad_lines_say_what_is_wrong(void **state)
{
	(void)state;
	check_bad("bgin create", "unknown verb 'bgin'");
	check_bad("BEGIN x", "unknown verb 'BEGIN'");
	check_bad("begin", "needs a phase name");
	check_bad("begin ", "needs a phase name");
	check_bad("begin 01234567890123456789012345678901",
		  "32 characters: at most 31");
	check_bad("begin two words", "has ' '");
	check_bad("begin tab\there", "byte 0x09");
	check_bad("begin x\r", "byte 0x0d");
	check_bad("end now", "end takes no name");
	check_bad("", "empty line");
	check_bad("ending", "unknown verb 'ending'");
}

static void a_packet_splits_into_lines(void **state)
{
	const char buf[] = "begin a\nend\nbegin b";
	const char *line;
	size_t pos = 0, len;

	(void)state;
	assert_true(
		phase_marker_next_line(buf, strlen(buf), &pos, &line, &len));
	assert_int_equal(len, 7);
	assert_memory_equal(line, "begin a", 7);
	assert_true(
		phase_marker_next_line(buf, strlen(buf), &pos, &line, &len));
	assert_int_equal(len, 3);
	assert_true(
		phase_marker_next_line(buf, strlen(buf), &pos, &line, &len));
	assert_memory_equal(line, "begin b", 7); /* no newline at the end */
	assert_false(
		phase_marker_next_line(buf, strlen(buf), &pos, &line, &len));
	pos = 0;
	assert_true(phase_marker_next_line("end\n", 4, &pos, &line, &len));
	assert_int_equal(len, 3);
	assert_false(phase_marker_next_line("end\n", 4, &pos, &line, &len));
}

static void switches_give_ids_in_order(void **state)
{
	struct marker_state st = { .next_phase = 2, .open_phase = 0 };
	struct marker_line b1 = parse("begin one"), end = parse("end");
	unsigned int phase = 0;
	char why[160] = "";

	(void)state;
	assert_false(marker_state_apply(&st, &end, &phase, why, sizeof(why)));
	assert_string_equal(why, "end with no phase open");
	assert_true(marker_state_apply(&st, &b1, &phase, why, sizeof(why)));
	assert_int_equal(phase, 2);
	/* begin while a phase is open switches straight to the next one */
	assert_true(marker_state_apply(&st, &b1, &phase, why, sizeof(why)));
	assert_int_equal(phase, 3);
	assert_int_equal(st.open_phase, 3);
	assert_true(marker_state_apply(&st, &end, &phase, why, sizeof(why)));
	assert_int_equal(phase, 3);
	assert_int_equal(st.open_phase, 0);
	assert_false(marker_state_apply(&st, &end, &phase, why, sizeof(why)));
}

static void no_phase_beyond_the_kernel_maps(void **state)
{
	struct marker_state st = { .next_phase = FSPROF_MAX_PHASES - 1 };
	struct marker_line b = parse("begin last");
	unsigned int phase = 0;
	char why[160] = "";

	(void)state;
	assert_true(marker_state_apply(&st, &b, &phase, why, sizeof(why)));
	assert_int_equal(phase, FSPROF_MAX_PHASES - 1);
	assert_false(marker_state_apply(&st, &b, &phase, why, sizeof(why)));
	assert_non_null(strstr(why, "at most 63 phases"));
	assert_int_equal(st.open_phase, FSPROF_MAX_PHASES - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(begin_and_end_lines_parse),
		cmocka_unit_test(bad_lines_say_what_is_wrong),
		cmocka_unit_test(a_packet_splits_into_lines),
		cmocka_unit_test(switches_give_ids_in_order),
		cmocka_unit_test(no_phase_beyond_the_kernel_maps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
