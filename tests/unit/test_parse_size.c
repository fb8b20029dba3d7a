// SPDX-License-Identifier: GPL-2.0
/* parse_size() and format_bytes() from src/util/parse.h */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "util/parse.h"

/* text must parse, to exactly want bytes */
static void check_size(const char *text, uint64_t want)
{
	char err[256] = "";
	uint64_t got = 0;
	int rc;

	rc = parse_size(text, &got, err, sizeof(err));
	if (rc != 0)
		fail_msg("parse_size(\"%s\") = %d (%s), want %" PRIu64, text,
			 rc, err, want);
	if (got != want)
		fail_msg("parse_size(\"%s\") gave %" PRIu64 ", want %" PRIu64,
			 text, got, want);
}

/*
 * text must be refused with -EINVAL and a message that quotes the text and
 * says why (contains reason).
 */
static void check_rejected(const char *text, const char *reason)
{
	char err[256] = "";
	uint64_t got = 0;
	int rc;

	rc = parse_size(text, &got, err, sizeof(err));
	if (rc != -EINVAL)
		fail_msg("parse_size(\"%s\") = %d (value %" PRIu64
			 "), want -EINVAL",
			 text, rc, got);
	if (!err[0])
		fail_msg("parse_size(\"%s\") gave no error message", text);
	if (text[0] && !strstr(err, text))
		fail_msg("error for \"%s\" does not quote it: \"%s\"", text,
			 err);
	if (!strstr(err, reason))
		fail_msg("error for \"%s\" does not say \"%s\": \"%s\"", text,
			 reason, err);
}

static void plain_number_is_a_byte_count(void **state)
{
	(void)state;
	check_size("1", 1);
	check_size("4096", 4096);
	check_size("4096b", 4096);
	check_size("4096B", 4096);
}

static void size_with_binary_unit_multiplies_by_1024(void **state)
{
	(void)state;
	check_size("4k", 4096);
	check_size("4K", 4096);
	check_size("256M", 256ULL << 20);
	check_size("256m", 256ULL << 20);
	check_size("4G", 4ULL << 30);
	check_size("1T", 1ULL << 40);
}

static void iec_unit_is_binary_in_any_case(void **state)
{
	(void)state;
	check_size("4KiB", 4096);
	check_size("4kib", 4096);
	check_size("256MiB", 256ULL << 20);
	check_size("2GiB", 2ULL << 30);
	check_size("3TiB", 3ULL << 40);
}

static void unit_ending_in_capital_b_is_decimal(void **state)
{
	(void)state;
	check_size("4kB", 4000);
	check_size("4KB", 4000);
	check_size("256MB", 256000000ULL);
	check_size("4GB", 4000000000ULL);
	check_size("2TB", 2000000000000ULL);
}

static void fractional_size_is_scaled_by_its_unit(void **state)
{
	(void)state;
	check_size("1.5G", 3ULL << 29);
	check_size("0.5k", 512);
	check_size("2.25M", 9ULL << 18);
	check_size("1.5kB", 1500);
}

static void empty_size_is_rejected_with_a_reason(void **state)
{
	(void)state;
	check_rejected("", "empty");
}

static void size_without_a_number_is_rejected(void **state)
{
	(void)state;
	check_rejected("abc", "not a size");
	check_rejected("k", "not a size");
	check_rejected(" 4k", "not a size");
}

static void negative_size_is_rejected(void **state)
{
	(void)state;
	check_rejected("-1", "not a size");
	check_rejected("-4k", "not a size");
}

static void zero_size_is_rejected_with_a_reason(void **state)
{
	(void)state;
	check_rejected("0", "zero");
	check_rejected("0k", "zero");
	check_rejected("0.0M", "zero");
}

static void unknown_unit_is_rejected_naming_it(void **state)
{
	(void)state;
	check_rejected("12q", "unknown unit 'q'");
	check_rejected("4kk", "unknown unit");
	check_rejected("4 k", "unknown unit");
}

static void bit_unit_is_rejected(void **state)
{
	(void)state;
	check_rejected("4Kb", "bits");
	check_rejected("4kb", "bits");
	check_rejected("1Mb", "bits");
}

static void fraction_without_digits_is_rejected(void **state)
{
	(void)state;
	check_rejected("1.", "not a size");
	check_rejected("1.k", "not a size");
}

static void number_beyond_64_bits_is_rejected_as_too_large(void **state)
{
	(void)state;
	check_rejected("99999999999999999999", "too large");
	check_rejected("18446744073709551616", "too large");
}

static void unit_overflowing_64_bits_is_rejected_as_too_large(void **state)
{
	(void)state;
	check_rejected("20000000T", "too large");
	/* 2^24 TiB = 2^64: one past the largest */
	check_rejected("16777216T", "too large");
}

/* sizes travel as signed 64-bit JSON integers: INT64_MAX is the limit */
static void largest_size_that_fits_is_accepted(void **state)
{
	(void)state;
	check_size("9223372036854775807", INT64_MAX);
	check_size("8388607T", 8388607ULL << 40);
}

static void size_beyond_int64_is_rejected(void **state)
{
	(void)state;
	check_rejected("9223372036854775808", "too large");
	check_rejected("8388608T", "too large");
}

static void exponent_in_fraction_is_rejected(void **state)
{
	(void)state;
	check_rejected("1.5e3k", "unknown unit");
	check_rejected("1.5E2M", "unknown unit");
}

static void fraction_of_a_byte_is_rejected(void **state)
{
	(void)state;
	check_rejected("1.5", "fraction of a byte");
}

/* buf must read exactly want after format_bytes(bytes) */
static void check_format(uint64_t bytes, const char *want)
{
	char buf[64];

	memset(buf, 'x', sizeof(buf));
	format_bytes(bytes, buf, sizeof(buf));
	if (strcmp(buf, want))
		fail_msg("format_bytes(%" PRIu64 ") = \"%s\", want \"%s\"",
			 bytes, buf, want);
}

static void zero_bytes_formats_as_0_B(void **state)
{
	(void)state;
	check_format(0, "0 B");
}

static void count_below_1024_formats_in_bytes(void **state)
{
	(void)state;
	check_format(512, "512 B");
	check_format(1023, "1023 B");
}

static void exact_binary_multiple_formats_without_decimals(void **state)
{
	(void)state;
	check_format(1024, "1 KiB");
	check_format(256ULL << 20, "256 MiB");
	check_format(1ULL << 40, "1 TiB");
}

static void fractional_binary_multiple_formats_with_one_decimal(void **state)
{
	(void)state;
	check_format(3ULL << 29, "1.5 GiB");
	check_format(1536, "1.5 KiB");
}

static void format_bytes_stays_within_a_short_buffer(void **state)
{
	char buf[8];

	(void)state;
	memset(buf, 'x', sizeof(buf));
	format_bytes(256ULL << 20, buf, 4);
	assert_string_equal(buf, "256");
	assert_int_equal(buf[4], 'x');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(plain_number_is_a_byte_count),
		cmocka_unit_test(size_with_binary_unit_multiplies_by_1024),
		cmocka_unit_test(iec_unit_is_binary_in_any_case),
		cmocka_unit_test(unit_ending_in_capital_b_is_decimal),
		cmocka_unit_test(fractional_size_is_scaled_by_its_unit),
		cmocka_unit_test(empty_size_is_rejected_with_a_reason),
		cmocka_unit_test(size_without_a_number_is_rejected),
		cmocka_unit_test(negative_size_is_rejected),
		cmocka_unit_test(zero_size_is_rejected_with_a_reason),
		cmocka_unit_test(unknown_unit_is_rejected_naming_it),
		cmocka_unit_test(bit_unit_is_rejected),
		cmocka_unit_test(fraction_without_digits_is_rejected),
		cmocka_unit_test(
			number_beyond_64_bits_is_rejected_as_too_large),
		cmocka_unit_test(
			unit_overflowing_64_bits_is_rejected_as_too_large),
		cmocka_unit_test(largest_size_that_fits_is_accepted),
		cmocka_unit_test(size_beyond_int64_is_rejected),
		cmocka_unit_test(exponent_in_fraction_is_rejected),
		cmocka_unit_test(fraction_of_a_byte_is_rejected),
		cmocka_unit_test(zero_bytes_formats_as_0_B),
		cmocka_unit_test(count_below_1024_formats_in_bytes),
		cmocka_unit_test(
			exact_binary_multiple_formats_without_decimals),
		cmocka_unit_test(
			fractional_binary_multiple_formats_with_one_decimal),
		cmocka_unit_test(format_bytes_stays_within_a_short_buffer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
