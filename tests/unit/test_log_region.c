// SPDX-License-Identifier: GPL-2.0
/*
 * The log's LBA ranges (src/trace/log_region.c): merging, the XFS block to
 * sector conversion, and the ext3/ext4 journal read with libext2fs from
 * images made by the real mkfs.ext4 / mkfs.ext3 / mkfs.ext2, debugfs and
 * tune2fs (no root needed: they are files).
 */
#include <errno.h>
#include <fcntl.h>
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

static void test_ranges_merge_sorted_touching_and_overlapping(void **state)
{
	struct log_range v[] = {
		{ 800, 8 }, /* touches the one before it once sorted */
		{ 100, 8 },  { 792, 8 }, { 104, 2 }, /* inside 100-108 */
		{ 106, 10 }, /* overlaps 100-108 and grows it */
		{ 5000, 8 }, /* alone */
	};

	(void)state;
	assert_int_equal(log_ranges_merge(v, 6), 3);
	assert_int_equal(v[0].start, 100);
	assert_int_equal(v[0].sectors, 16);
	assert_int_equal(v[1].start, 792);
	assert_int_equal(v[1].sectors, 16);
	assert_int_equal(v[2].start, 5000);
	assert_int_equal(v[2].sectors, 8);
	assert_int_equal(log_ranges_merge(v, 0), 0);
}

/* numbers from xfs_db 'convert fsb 65542 daddr' on a 512 MiB mkfs.xfs */
/* new_encode_dev(): a minor over 255 and a major over 255 survive */
static void test_ext4_journal_dev_new_encoding(void **state)
{
	unsigned int maj, min;

	(void)state;
	/* 7:300 = (300 & 0xff) | 7 << 8 | (300 & ~0xff) << 12 */
	ext4_journal_dev_decode(44 | 7 << 8 | 256 << 12, &maj, &min);
	assert_int_equal(maj, 7);
	assert_int_equal(min, 300);
	ext4_journal_dev_decode(5 | 259 << 8, &maj, &min);
	assert_int_equal(maj, 259);
	assert_int_equal(min, 5);
	ext4_journal_dev_decode(3 | 8 << 8, &maj, &min);
	assert_int_equal(maj, 8);
	assert_int_equal(min, 3);
}

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

/* an image file of size bytes made by the real mkfs; "" when mkfs is missing */
static void make_image_sized(char *path, size_t len, const char *mkfs,
			     off_t size)
{
	char cmd[512];
	int fd;

	snprintf(path, len, "/tmp/fsprof-test-log-region.XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, size), 0);
	close(fd);
	snprintf(cmd, sizeof(cmd), "%s -q -F %s >/dev/null 2>&1", mkfs, path);
	if (system(cmd)) {
		unlink(path);
		path[0] = '\0';
	}
}

/* a 64 MiB image file made by the real mkfs; "" when mkfs is missing */
static void make_image(char *path, size_t len, const char *mkfs)
{
	make_image_sized(path, len, mkfs, 64 << 20);
}

static uint64_t region_sectors(const struct log_region *r)
{
	uint64_t total = 0;
	unsigned int i;

	for (i = 0; i < r->n; i++)
		total += r->range[i].sectors;
	return total;
}

static void test_ext4_journal_is_read_from_the_journal_inode(void **state)
{
	struct log_region r;
	char path[64];
	unsigned int i;

	(void)state;
	make_image(path, sizeof(path), "mkfs.ext4 -b 4096 -J size=4");
	if (!path[0])
		skip();
	assert_int_equal(log_region_read(path, "ext4", &r), 0);
	unlink(path);
	assert_true(r.n >= 1);
	for (i = 0; i < r.n; i++)
		/* inside the 64 MiB image */
		assert_true(r.range[i].start + r.range[i].sectors <=
			    (64ULL << 20) / 512);
	/* the extents sit in the inode: no mapping blocks */
	assert_int_equal(region_sectors(&r), (4ULL << 20) / 512);
	assert_non_null(strstr(r.source, "journal inode 8"));
}

/*
 * ext3's journal is an indirect-mapped file: with 4 KiB blocks an IND block
 * follows data blocks 0-11 and every 1024 data blocks after that, under one
 * DIND. The 64 MiB journal of mkfs.ext3 on a 5 GiB image is 16384 blocks in
 * 17 data runs; with its 17 mapping blocks (1 IND + 1 DIND + 15 IND) it is
 * one range.
 */
static void
test_ext3_journal_with_its_indirect_blocks_is_one_range(void **state)
{
	struct log_region r;
	char path[64];

	(void)state;
	make_image_sized(path, sizeof(path), "mkfs.ext3 -b 4096 -J size=64",
			 256 << 20);
	if (!path[0])
		skip();
	assert_int_equal(log_region_read(path, "ext3", &r), 0);
	unlink(path);
	assert_int_equal(r.n, 1);
	assert_int_equal(region_sectors(&r), (16384ULL + 17) * 4096 / 512);
	assert_true(r.range[0].start + r.range[0].sectors <=
		    (256ULL << 20) / 512);
	assert_non_null(strstr(r.source, "17 mapping blocks"));
}

/*
 * A journal added by tune2fs to a full ext2 in which every other 8 KiB file
 * was removed lies in hundreds of holes: that is an error that says how many
 * ranges there are, not a silently truncated region.
 */
static void test_fragmented_journal_is_enospc_that_says_so(void **state)
{
	char path[64], cmds[80], blob[80], cmd[512];
	unsigned char data[8192];
	struct log_region r;
	FILE *f;
	int fd, i;

	(void)state;
	make_image_sized(path, sizeof(path), "mkfs.ext2 -b 1024", 16 << 20);
	if (!path[0])
		skip();
	/* random data: debugfs writes zeros as holes */
	snprintf(blob, sizeof(blob), "%s.blob", path);
	for (i = 0; i < (int)sizeof(data); i++)
		data[i] = (unsigned char)(i * 131 + 7);
	fd = open(blob, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, sizeof(data)), (ssize_t)sizeof(data));
	close(fd);
	snprintf(cmds, sizeof(cmds), "%s.cmds", path);
	f = fopen(cmds, "w");
	assert_non_null(f);
	for (i = 0; i < 2048; i++) /* more than fits */
		fprintf(f, "write %s f%d\n", blob, i);
	for (i = 0; i < 2048; i += 2)
		fprintf(f, "rm f%d\n", i);
	fclose(f);
	snprintf(cmd, sizeof(cmd),
		 "debugfs -w -f %s %s >/dev/null 2>&1 && "
		 "tune2fs -j -J size=1 %s >/dev/null 2>&1",
		 cmds, path, path);
	i = system(cmd);
	unlink(cmds);
	unlink(blob);
	if (i) {
		unlink(path);
		skip();
	}
	assert_int_equal(log_region_read(path, "ext3", &r), -ENOSPC);
	unlink(path);
	assert_int_equal(r.n, 0);
	assert_non_null(
		strstr(r.source, "discontiguous ranges, more than the 16"));
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
		cmocka_unit_test(
			test_ranges_merge_sorted_touching_and_overlapping),
		cmocka_unit_test(test_xfs_fsb_to_sector),
		cmocka_unit_test(test_ext4_journal_dev_new_encoding),
		cmocka_unit_test(test_unknown_fstype_has_no_ranges),
		cmocka_unit_test(
			test_ext4_journal_is_read_from_the_journal_inode),
		cmocka_unit_test(
			test_ext3_journal_with_its_indirect_blocks_is_one_range),
		cmocka_unit_test(
			test_fragmented_journal_is_enospc_that_says_so),
		cmocka_unit_test(test_ext2_has_no_journal),
		cmocka_unit_test(test_garbage_is_an_error_that_says_so),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
