// SPDX-License-Identifier: GPL-2.0
/* sysfile_read_line() and sysfile_write() (src/util/sysfile.h) on temp files */
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

#include "util/sysfile.h"

static char path[64];

static int make_file(void **state)
{
	int fd;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/fsprof-sysfile.XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int remove_file(void **state)
{
	(void)state;
	unlink(path);
	return 0;
}

static void a_written_line_reads_back_without_its_newline(void **state)
{
	char buf[32];

	(void)state;
	assert_int_equal(sysfile_write(path, "7:3 1000\nsecond\n"), 0);
	assert_int_equal(sysfile_read_line(path, buf, sizeof(buf)), 8);
	assert_string_equal(buf, "7:3 1000");
}

static void a_long_line_is_cut_to_the_buffer(void **state)
{
	char buf[4];

	(void)state;
	assert_int_equal(sysfile_write(path, "123456\n"), 0);
	assert_int_equal(sysfile_read_line(path, buf, sizeof(buf)), 3);
	assert_string_equal(buf, "123");
}

static void an_empty_file_or_a_missing_one_is_an_error(void **state)
{
	char buf[8];

	(void)state;
	assert_int_equal(sysfile_write(path, ""), 0);
	assert_int_equal(sysfile_read_line(path, buf, sizeof(buf)), -ENODATA);
	assert_int_equal(sysfile_read_line("/nonexistent/x", buf, sizeof(buf)),
			 -ENOENT);
	assert_int_equal(sysfile_write("/nonexistent/x", "1\n"), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			a_written_line_reads_back_without_its_newline,
			make_file, remove_file),
		cmocka_unit_test_setup_teardown(a_long_line_is_cut_to_the_buffer,
						make_file, remove_file),
		cmocka_unit_test_setup_teardown(
			an_empty_file_or_a_missing_one_is_an_error, make_file,
			remove_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
