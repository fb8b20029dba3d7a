// SPDX-License-Identifier: GPL-2.0
/* --age's spec: age_spec_parse(), age_spec_format(), the share left free */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "workload/age_spec.h"

static struct age_spec parsed(const char *text)
{
	struct age_spec s;
	char why[512] = "";

	if (age_spec_parse(text, &s, why, sizeof(why)))
		fail_msg("age_spec_parse(\"%s\") refused it: %s", text, why);
	return s;
}

/* text is refused, and the reason says what (contains each of want) */
static void check_refused(const char *text, const char *want1,
			  const char *want2)
{
	struct age_spec s;
	char why[512] = "";

	if (age_spec_parse(text, &s, why, sizeof(why)) != -EINVAL)
		fail_msg("age_spec_parse(\"%s\") accepted it", text);
	if (!strstr(why, want1) || (want2 && !strstr(why, want2)))
		fail_msg("age_spec_parse(\"%s\") said \"%s\": want \"%s\"%s%s",
			 text, why, want1, want2 ? " and " : "",
			 want2 ? want2 : "");
}

static void fill_alone_takes_every_default(void **state)
{
	struct age_spec s = parsed("fill=90");
	char text[128];

	(void)state;
	assert_true(s.on);
	assert_int_equal(s.fill_pct, 90);
	assert_int_equal(s.pattern, AGE_EVERY_OTHER);
	assert_int_equal(s.sizes, AGE_MIXED);
	assert_int_equal(s.seed, 1);
	age_spec_format(&s, text, sizeof(text));
	assert_string_equal(text,
			    "fill=90,pattern=every-other,sizes=mixed,seed=1");
}

static void every_key_is_read_in_any_order(void **state)
{
	struct age_spec s =
		parsed("seed=42,sizes=small,delete=30,pattern=random,fill=80");
	char text[128];

	(void)state;
	assert_int_equal(s.fill_pct, 80);
	assert_int_equal(s.pattern, AGE_RANDOM);
	assert_int_equal(s.delete_pct, 30);
	assert_int_equal(s.sizes, AGE_SMALL);
	assert_int_equal(s.seed, 42);
	age_spec_format(&s, text, sizeof(text));
	assert_string_equal(
		text, "fill=80,pattern=random,delete=30,sizes=small,seed=42");
	/* the canonical text parses back to the same spec */
	s = parsed(text);
	assert_int_equal(s.delete_pct, 30);
	assert_int_equal(s.seed, 42);
}

static void fill_over_95_is_refused_with_why(void **state)
{
	(void)state;
	check_refused("fill=96", "fill=96", "ENOSPC");
	check_refused("fill=100", "give fill=95 or less", NULL);
	assert_int_equal(parsed("fill=95").fill_pct, 95);
	assert_int_equal(parsed("fill=1").fill_pct, 1);
}

static void fill_that_is_no_percentage_is_refused(void **state)
{
	(void)state;
	check_refused("fill=0", "not a percentage", "1 to 95");
	check_refused("fill=-5", "not a percentage", NULL);
	check_refused("fill=90%", "not a percentage", NULL);
	check_refused("fill=", "not a percentage", NULL);
	check_refused("fill=101", "not a percentage", NULL);
}

static void fill_is_required(void **state)
{
	(void)state;
	check_refused("pattern=random", "fill=PCT is required",
		      "--age fill=90");
}

static void unknown_pattern_and_sizes_name_the_known_ones(void **state)
{
	(void)state;
	check_refused("fill=90,pattern=alternate", "unknown pattern",
		      "every-other");
	check_refused("fill=90,sizes=huge", "unknown size mix", "small");
}

static void unknown_key_and_bare_word_are_refused(void **state)
{
	(void)state;
	check_refused("fill=90,fil=80", "unknown key 'fil'", "pattern=");
	check_refused("fill=90,random", "'random' is not key=value", NULL);
	check_refused("=90", "is not key=value", NULL);
}

static void delete_share_belongs_to_pattern_random(void **state)
{
	(void)state;
	check_refused("fill=90,delete=30", "only pattern=random",
		      "every other file");
	check_refused("fill=90,pattern=none,delete=30", "deletes nothing",
		      NULL);
	check_refused("fill=90,pattern=random,delete=100", "1 to 99", NULL);
	check_refused("fill=90,pattern=random,delete=0", "1 to 99", NULL);
}

static void seed_must_be_a_whole_number(void **state)
{
	(void)state;
	check_refused("fill=90,seed=x", "seed=x", "whole number");
	check_refused("fill=90,seed=-1", "whole number", NULL);
	check_refused("fill=90,seed=18446744073709551616", "whole number",
		      NULL);
	assert_true(parsed("fill=90,seed=18446744073709551615").seed ==
		    UINT64_MAX);
}

static void free_share_is_what_the_fill_leaves_plus_the_deletes(void **state)
{
	struct age_spec a = parsed("fill=90");
	struct age_spec b = parsed("fill=80,pattern=random,delete=25");
	struct age_spec c = parsed("fill=60,pattern=none");

	(void)state;
	assert_float_equal(age_spec_free_share(&a), 0.55, 1e-9);
	assert_float_equal(age_spec_free_share(&b), 0.4, 1e-9);
	assert_float_equal(age_spec_free_share(&c), 0.4, 1e-9);
}

static void size_mixes_have_their_documented_ranges(void **state)
{
	uint64_t lo, hi;

	(void)state;
	age_sizes_range(AGE_SMALL, &lo, &hi);
	assert_true(lo == 4096 && hi == 64 * 1024);
	age_sizes_range(AGE_MIXED, &lo, &hi);
	assert_true(lo == 4096 && hi == 4 << 20);
	age_sizes_range(AGE_LARGE, &lo, &hi);
	assert_true(lo == 1 << 20 && hi == 32 << 20);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fill_alone_takes_every_default),
		cmocka_unit_test(every_key_is_read_in_any_order),
		cmocka_unit_test(fill_over_95_is_refused_with_why),
		cmocka_unit_test(fill_that_is_no_percentage_is_refused),
		cmocka_unit_test(fill_is_required),
		cmocka_unit_test(unknown_pattern_and_sizes_name_the_known_ones),
		cmocka_unit_test(unknown_key_and_bare_word_are_refused),
		cmocka_unit_test(delete_share_belongs_to_pattern_random),
		cmocka_unit_test(seed_must_be_a_whole_number),
		cmocka_unit_test(
			free_share_is_what_the_fill_leaves_plus_the_deletes),
		cmocka_unit_test(size_mixes_have_their_documented_ranges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
