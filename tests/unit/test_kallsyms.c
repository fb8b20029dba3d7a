// SPDX-License-Identifier: GPL-2.0
/* kallsyms_resolve() from src/trace/kallsyms.h, on kallsyms-format files */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "trace/kallsyms.h"

/* an excerpt of /proc/kallsyms: out of order, data and module symbols */
static const char kallsyms_text[] =
	"ffffffff81931ad0 T xfs_log_force_seq\n"
	"ffffffff81907750 t xfs_file_fsync\n"
	"ffffffff81907900 d xfs_file_data\n"
	"ffffffff81929b50 t xfs_fs_sync_fs\n"
	"ffffffff819310d0 t xfs_log_worker\n"
	"ffffffffc0001000 t ext4_sync_file\t[ext4]\n"
	"ffffffff81000000 T _stext\n";

static char *write_temp(const char *text)
{
	char *path = strdup("/tmp/fsprof-kallsyms.XXXXXX");
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

static void an_address_is_named_by_the_function_it_lies_in(void **state)
{
	char *path = write_temp(kallsyms_text);
	struct ksym_lookup v[3] = {
		{ .addr = 0xffffffff81907790 }, /* 0x40 into xfs_file_fsync */
		{ .addr = 0xffffffff81929b50 }, /* the first byte of sync_fs */
		{ .addr = 0xffffffffc0001234 }, /* in a module */
	};

	(void)state;
	assert_int_equal(kallsyms_resolve(path, v, 3), 3);
	assert_string_equal(v[0].name, "xfs_file_fsync");
	assert_int_equal(v[0].sym_addr, 0xffffffff81907750);
	assert_string_equal(v[1].name, "xfs_fs_sync_fs");
	assert_string_equal(v[2].name, "ext4_sync_file");
	unlink(path);
	free(path);
}

static void data_symbols_do_not_name_code(void **state)
{
	char *path = write_temp(kallsyms_text);
	/* after the data symbol xfs_file_data, still in xfs_file_fsync */
	struct ksym_lookup v = { .addr = 0xffffffff81907a00 };

	(void)state;
	assert_int_equal(kallsyms_resolve(path, &v, 1), 1);
	assert_string_equal(v.name, "xfs_file_fsync");
	unlink(path);
	free(path);
}

static void an_address_below_every_symbol_is_not_named(void **state)
{
	char *path = write_temp(kallsyms_text);
	struct ksym_lookup v = { .addr = 0x1000 };

	(void)state;
	assert_int_equal(kallsyms_resolve(path, &v, 1), 0);
	assert_false(v.found);
	assert_string_equal(v.name, "");
	unlink(path);
	free(path);
}

/* what an unprivileged reader sees under kptr_restrict */
static void hidden_addresses_name_nothing(void **state)
{
	char *path = write_temp("0000000000000000 t xfs_file_fsync\n"
				"0000000000000000 T xfs_log_force_seq\n");
	struct ksym_lookup v = { .addr = 0xffffffff81907790 };

	(void)state;
	assert_int_equal(kallsyms_resolve(path, &v, 1), 0);
	assert_false(v.found);
	unlink(path);
	free(path);
}

static void a_missing_file_is_an_error(void **state)
{
	struct ksym_lookup v = { .addr = 1 };

	(void)state;
	assert_int_equal(kallsyms_resolve("/nonexistent/kallsyms", &v, 1),
			 -ENOENT);
}

/* many addresses at once are named as each alone */
static void many_addresses_are_named_as_one_by_one(void **state)
{
	char *path = write_temp("ffffffff81931ad0 T xfs_log_force_seq\n"
				"ffffffff81907750 t xfs_file_fsync\n"
				"ffffffff81907750 t xfs_file_fsync_alias\n"
				"ffffffff81907900 d xfs_file_data\n"
				"ffffffff81929b50 t xfs_fs_sync_fs\n"
				"ffffffffc0001000 t ext4_sync_file\t[ext4]\n"
				"ffffffff81000000 T _stext\n");
	static const uint64_t addrs[] = {
		0xffffffff81907790,
		0xffffffff81907a00,
		0xffffffff81929b50,
		0xffffffffc0001234,
		0x1000,
		0xffffffff81931ad0,
		0xffffffff81907790,
		0,
	};
	struct ksym_lookup one[8], many[8];
	unsigned int i;
	int named = 0;

	(void)state;
	for (i = 0; i < 8; i++) {
		memset(&one[i], 0, sizeof(one[i]));
		one[i].addr = addrs[i];
		named += kallsyms_resolve(path, &one[i], 1);
		/* what the call must overwrite */
		memset(&many[i], 'x', sizeof(many[i]));
		many[i].name[KSYM_NAME_LEN - 1] = '\0';
		many[i].addr = addrs[i];
	}
	assert_int_equal(kallsyms_resolve(path, many, 8), named);
	assert_int_equal(named, 6);
	for (i = 0; i < 8; i++) {
		assert_int_equal(many[i].found, one[i].found);
		assert_int_equal(many[i].sym_addr, one[i].sym_addr);
		assert_string_equal(many[i].name, one[i].name);
	}
	/* of two names at one address, the first in the file */
	assert_string_equal(many[0].name, "xfs_file_fsync");
	assert_string_equal(many[3].name, "ext4_sync_file");
	assert_false(many[4].found);
	assert_int_equal(kallsyms_resolve("/nonexistent/kallsyms", many, 8),
			 -ENOENT);
	unlink(path);
	free(path);
}

/* the table is kept between calls, but not past a change of the file */
static void a_file_written_again_is_read_again(void **state)
{
	char *path = write_temp("ffffffff81907750 t xfs_file_fsync\n");
	struct ksym_lookup v = { .addr = 0xffffffff81907790 };
	FILE *f;

	(void)state;
	assert_int_equal(kallsyms_resolve(path, &v, 1), 1);
	assert_string_equal(v.name, "xfs_file_fsync");
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("ffffffff81907700 t ext4_file_write_iter\n", f);
	fclose(f);
	assert_int_equal(kallsyms_resolve(path, &v, 1), 1);
	assert_string_equal(v.name, "ext4_file_write_iter");
	unlink(path);
	free(path);
}

/* the text span runs from the lowest text symbol to the highest, modules in */
static void the_text_span_covers_kernel_and_module_code(void **state)
{
	char *path = write_temp(kallsyms_text);
	uint64_t lo = 0, hi = 0;

	(void)state;
	assert_int_equal(kallsyms_text_span(path, &lo, &hi), 0);
	assert_int_equal(lo, 0xffffffff81000000);
	assert_int_equal(hi, 0xffffffffc0001000);
	unlink(path);
	free(path);
	/* data symbols only, or every address hidden: no span */
	path = write_temp("ffffffff81907900 d xfs_file_data\n"
			  "0000000000000000 T _stext\n");
	assert_int_equal(kallsyms_text_span(path, &lo, &hi), -ENOENT);
	unlink(path);
	free(path);
	assert_int_equal(kallsyms_text_span("/nonexistent/kallsyms", &lo, &hi),
			 -ENOENT);
}

/* a function runs from its symbol to the next text symbol, in any order */
static void a_function_ends_where_the_next_text_symbol_begins(void **state)
{
	char *path = write_temp(kallsyms_text);
	uint64_t start = 0, end = 0;

	(void)state;
	assert_int_equal(
		kallsyms_function(path, "xfs_file_fsync", &start, &end), 0);
	assert_int_equal(start, 0xffffffff81907750);
	/* not the data symbol at ...7900 */
	assert_int_equal(end, 0xffffffff81929b50);
	assert_int_equal(kallsyms_function(path, "no_such_function", &start,
					   &end),
			 -ENOENT);
	/* the last symbol has no end */
	assert_int_equal(kallsyms_function(path, "ext4_sync_file", &start,
					   &end),
			 -ENOENT);
	unlink(path);
	free(path);
}

/* one pass gives the span and the first of several names the file has */
static void one_scan_gives_the_span_and_the_first_name_found(void **state)
{
	static const char *const names[] = { "no_such_function",
					     "xfs_file_fsync", "_stext" };
	char *path = write_temp(kallsyms_text);
	struct ksym_text_scan scan;

	(void)state;
	assert_int_equal(kallsyms_scan_text(path, names, 3, &scan), 0);
	assert_int_equal(scan.lo, 0xffffffff81000000);
	assert_int_equal(scan.hi, 0xffffffffc0001000);
	/* the earliest in names[] that is there, not the first in the file */
	assert_int_equal(scan.which, 1);
	assert_int_equal(scan.start, 0xffffffff81907750);
	assert_int_equal(scan.end, 0xffffffff81929b50);
	assert_int_equal(kallsyms_scan_text(path, names, 1, &scan), 0);
	assert_int_equal(scan.which, -1);
	unlink(path);
	free(path);
}

/*
 * the kernel's data (between _etext and _sinittext, after _einittext) is
 * in no range of the span; its text, init text and modules' text are
 */
static void the_text_ranges_leave_the_kernels_data_out(void **state)
{
	char *path = write_temp("ffffffff81000000 T _stext\n"
				"ffffffff81907750 t xfs_file_fsync\n"
				"ffffffff8225b140 T _etext\n"
				"ffffffff82400000 d jiffies_data\n"
				"ffffffff83576000 T _sinittext\n"
				"ffffffff835ec7b0 T _einittext\n"
				"ffffffffc0001000 t ext4_sync_file\t[ext4]\n"
				"ffffffffc0201000 t ftrace_trampoline\n");
	struct ksym_text_scan scan;

	(void)state;
	assert_int_equal(kallsyms_scan_text(path, NULL, 0, &scan), 0);
	assert_int_equal(scan.lo, 0xffffffff81000000);
	assert_int_equal(scan.hi, 0xffffffffc0201000);
	assert_int_equal(scan.n_ranges, 3);
	assert_int_equal(scan.range_lo[0], 0xffffffff81000000);
	assert_int_equal(scan.range_hi[0], 0xffffffff8225b140);
	assert_int_equal(scan.range_lo[1], 0xffffffff83576000);
	assert_int_equal(scan.range_hi[1], 0xffffffff835ec7b0);
	assert_int_equal(scan.range_lo[2], 0xffffffffc0001000);
	assert_int_equal(scan.range_hi[2], 0xffffffffc0201000);
	unlink(path);
	free(path);
	/* without the markers: the span, one range */
	path = write_temp(kallsyms_text);
	assert_int_equal(kallsyms_scan_text(path, NULL, 0, &scan), 0);
	assert_int_equal(scan.n_ranges, 1);
	assert_int_equal(scan.range_lo[0], 0xffffffff81000000);
	assert_int_equal(scan.range_hi[0], 0xffffffffc0001000);
	unlink(path);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			an_address_is_named_by_the_function_it_lies_in),
		cmocka_unit_test(data_symbols_do_not_name_code),
		cmocka_unit_test(an_address_below_every_symbol_is_not_named),
		cmocka_unit_test(hidden_addresses_name_nothing),
		cmocka_unit_test(a_missing_file_is_an_error),
		cmocka_unit_test(many_addresses_are_named_as_one_by_one),
		cmocka_unit_test(a_file_written_again_is_read_again),
		cmocka_unit_test(the_text_span_covers_kernel_and_module_code),
		cmocka_unit_test(the_text_ranges_leave_the_kernels_data_out),
		cmocka_unit_test(
			a_function_ends_where_the_next_text_symbol_begins),
		cmocka_unit_test(
			one_scan_gives_the_span_and_the_first_name_found),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
