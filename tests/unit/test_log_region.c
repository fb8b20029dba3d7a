// SPDX-License-Identifier: GPL-2.0
/*
 * The log's LBA ranges (src/trace/log_region.c): merging, the XFS block to
 * sector conversion, and the ext4 journal read with libext2fs from images
 * made by the real mkfs.ext4 / mkfs.ext2 (no root needed: they are files).
 */
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

#include "trace/log_region.h"

static void test_adjacent_ranges_merge(void **state)
{
	struct log_region r = { .n = 0 };

	(void)state;
	assert_int_equal(log_region_add(&r, 1000, 8), 0);
	assert_int_equal(log_region_add(&r, 1008, 8), 0);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.range[0].start, 1000);
	assert_int_equal(r.range[0].sectors, 16);
	/* a gap starts a new range */
	assert_int_equal(log_region_add(&r, 1032, 8), 0);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.range[1].start, 1032);
}

static void test_too_many_ranges_is_enospc(void **state)
{
	struct log_region r = { .n = 0 };
	unsigned int i;

	(void)state;
	for (i = 0; i < BLK_LOG_MAX_RANGES; i++)
		assert_int_equal(log_region_add(&r, i * 100, 8), 0);
	assert_int_equal(log_region_add(&r, 5000, 8), -ENOSPC);
	/* still room to grow the last one */
	assert_int_equal(log_region_add(&r, (i - 1) * 100 + 8, 8), 0);
	assert_int_equal(r.n, BLK_LOG_MAX_RANGES);
}

/* numbers from xfs_db 'convert fsb 65542 daddr' on a 512 MiB mkfs.xfs */
static void test_xfs_fsb_to_sector(void **state)
{
	(void)state;
	assert_int_equal(xfs_fsb_to_sector(65542, 15, 32768, 12), 524336);
	/* AG 0: just the block times 8 */
	assert_int_equal(xfs_fsb_to_sector(100, 15, 32768, 12), 800);
	/* AG numbers count whole AGs of agblocks, not 2^agblklog */
	assert_int_equal(xfs_fsb_to_sector((3ULL << 15) + 5, 15, 30000, 12),
			 (3ULL * 30000 + 5) * 8);
}

static void test_unknown_fstype_has_no_ranges(void **state)
{
	struct log_region r;

	(void)state;
	assert_int_equal(log_region_read("/dev/null", "btrfs", &r), 0);
	assert_int_equal(r.n, 0);
	assert_non_null(strstr(r.source, "btrfs"));
}

/* a 64 MiB image file made by the real mkfs; "" when mkfs is missing */
static void make_image(char *path, size_t len, const char *mkfs)
{
	char cmd[512];
	int fd;

	snprintf(path, len, "/tmp/fsprof-test-log-region.XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 64 << 20), 0);
	close(fd);
	snprintf(cmd, sizeof(cmd), "%s -q -F %s >/dev/null 2>&1", mkfs, path);
	if (system(cmd)) {
		unlink(path);
		path[0] = '\0';
	}
}

static void test_ext4_journal_is_read_from_the_journal_inode(void **state)
{
	struct log_region r;
	char path[64];
	uint64_t total = 0;
	unsigned int i;

	(void)state;
	make_image(path, sizeof(path), "mkfs.ext4 -b 4096 -J size=4");
	if (!path[0])
		skip();
	assert_int_equal(log_region_read(path, "ext4", &r), 0);
	unlink(path);
	assert_true(r.n >= 1);
	for (i = 0; i < r.n; i++) {
		total += r.range[i].sectors;
		/* inside the 64 MiB image */
		assert_true(r.range[i].start + r.range[i].sectors <=
			    (64ULL << 20) / 512);
	}
	assert_int_equal(total, (4ULL << 20) / 512);
	assert_non_null(strstr(r.source, "journal inode 8"));
}

static void test_ext2_has_no_journal(void **state)
{
	struct log_region r;
	char path[64];

	(void)state;
	make_image(path, sizeof(path), "mkfs.ext2");
	if (!path[0])
		skip();
	assert_int_equal(log_region_read(path, "ext2", &r), 0);
	unlink(path);
	assert_int_equal(r.n, 0);
	assert_non_null(strstr(r.source, "no journal"));
}

static void test_garbage_is_an_error_that_says_so(void **state)
{
	struct log_region r;

	(void)state;
	assert_true(log_region_read("/dev/zero", "xfs", &r) < 0);
	assert_int_equal(r.n, 0);
	assert_non_null(strstr(r.source, "no XFS superblock"));
	assert_true(log_region_read("/nonexistent", "ext4", &r) < 0);
	assert_non_null(strstr(r.source, "ext2fs_open"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_adjacent_ranges_merge),
		cmocka_unit_test(test_too_many_ranges_is_enospc),
		cmocka_unit_test(test_xfs_fsb_to_sector),
		cmocka_unit_test(test_unknown_fstype_has_no_ranges),
		cmocka_unit_test(
			test_ext4_journal_is_read_from_the_journal_inode),
		cmocka_unit_test(test_ext2_has_no_journal),
		cmocka_unit_test(test_garbage_is_an_error_that_says_so),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
