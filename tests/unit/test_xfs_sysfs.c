// SPDX-License-Identifier: GPL-2.0
/* XFS's own counters file, src/trace/xfs_sysfs.h */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmocka.h>

#include "trace/xfs_sysfs.h"

/* the head of /sys/fs/xfs/loop0/stats/stats on 6.18 */
static const char stats_text[] = "extent_alloc 2 32527 0 0\n"
				 "abt 0 0 0 0\n"
				 "trans 0 10 0\n"
				 "log 57 663 0 53 55\n"
				 "push_ail 3461 7 28 0 0 0 0 0 0 0\n"
				 "xstrat 0 0\n"
				 "log2 1 2 3\n";

static void log_and_push_ail_fields_are_read_in_kernel_order(void **state)
{
	struct xfs_sysfs_stats s;

	(void)state;
	assert_int_equal(xfs_sysfs_stats_parse(stats_text, &s), 0);
	assert_int_equal(s.log_writes, 57);
	assert_int_equal(s.log_blocks, 663);
	assert_int_equal(s.log_forces, 53);
	assert_int_equal(s.sleep_logspace, 7);
}

static void a_stats_text_without_the_log_line_is_refused(void **state)
{
	struct xfs_sysfs_stats s;

	(void)state;
	assert_int_equal(xfs_sysfs_stats_parse("abt 0 0 0 0\n"
					       "push_ail 1 2\n",
					       &s),
			 -EINVAL);
	/* "log2" is not "log"; a short line is not a full one */
	assert_int_equal(xfs_sysfs_stats_parse("log2 1 2 3 4 5\n"
					       "push_ail 1 2\n",
					       &s),
			 -EINVAL);
	assert_int_equal(xfs_sysfs_stats_parse("log 1 2 3\npush_ail 1 2\n", &s),
			 -EINVAL);
}

/* a counters file longer than 4 KiB is read whole, not cut at 4 KiB */
static void a_long_stats_file_is_read_to_its_end(void **state)
{
	char path[] = "/tmp/fsprof-xfs-stats.XXXXXX";
	struct xfs_sysfs_stats s;
	FILE *f;
	int fd, i;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	for (i = 0; i < 400; i++)
		fprintf(f, "filler%03d 1 2 3 4 5\n", i);
	fputs("log 57 663 0 53 55\npush_ail 3461 7 28 0 0 0 0 0 0 0\n", f);
	fclose(f);
	assert_int_equal(xfs_sysfs_stats_read(path, &s), 0);
	unlink(path);
	assert_int_equal(s.log_writes, 57);
	assert_int_equal(s.sleep_logspace, 7);
}

static void deltas_survive_the_32_bit_wrap(void **state)
{
	struct xfs_sysfs_stats a = { .log_writes = 0xfffffff0 };
	struct xfs_sysfs_stats b = { .log_writes = 0x10 }, d;

	(void)state;
	xfs_sysfs_stats_delta(&a, &b, &d);
	assert_int_equal(d.log_writes, 0x20);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			log_and_push_ail_fields_are_read_in_kernel_order),
		cmocka_unit_test(a_stats_text_without_the_log_line_is_refused),
		cmocka_unit_test(deltas_survive_the_32_bit_wrap),
		cmocka_unit_test(a_long_stats_file_is_read_to_its_end),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
