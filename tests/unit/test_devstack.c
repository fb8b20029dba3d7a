// SPDX-License-Identifier: GPL-2.0
/*
 * The stack walk and the log mapping (src/target/devstack.h,
 * src/target/stack_map.h): the layouts' arithmetic against a sector by
 * sector reference, and the walk and mapping on a fake sysfs tree in a
 * temp directory (dm-linear on md raid0 of two loops; md raid1 of a
 * partition and a loop), with a fake dm table. The real kernel's stacks
 * are raid_dm_guest.bats's.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "target/devstack.h"
#include "target/stack_map.h"

static char top[64];

/* a file below the tree, its folders made */
static void put(const char *rel, const char *text)
{
	char path[PATH_MAX / 2], cmd[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", top, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p $(dirname %s)", path);
	assert_int_equal(system(cmd), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", text);
	fclose(f);
}

static void link_at(const char *rel, const char *target)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", top, rel);
	assert_int_equal(symlink(target, path), 0);
}

static void md_member(const char *md, const char *dev, const char *slot,
		      const char *offset, const char *size_kib)
{
	char rel[128];

	snprintf(rel, sizeof(rel), "class/block/%s/md/dev-%s/slot", md, dev);
	put(rel, slot);
	snprintf(rel, sizeof(rel), "class/block/%s/md/dev-%s/offset", md, dev);
	put(rel, offset);
	snprintf(rel, sizeof(rel), "class/block/%s/md/dev-%s/size", md, dev);
	put(rel, size_kib);
	snprintf(rel, sizeof(rel), "class/block/%s/slaves/%s", md, dev);
	put(rel, "");
}

/*
 * dm-0 (linear, 8 sectors into md127) on md127 (raid0, chunk 64 KiB, data
 * offset 2048) of loop1 and loop2; md126 (raid1) of sda1 (a partition at
 * 2048 of sda) and loop3, loop3's data at 4096; md125 a raid5
 */
static int make_tree(void **state)
{
	(void)state;
	snprintf(top, sizeof(top), "/tmp/fsprof-devstack.XXXXXX");
	if (!mkdtemp(top))
		return -1;
	put("class/block/loop1/dev", "7:1");
	put("class/block/loop2/dev", "7:2");
	put("class/block/loop3/dev", "7:3");
	put("class/block/md127/dev", "9:127");
	put("class/block/md127/md/level", "raid0");
	put("class/block/md127/md/chunk_size", "65536");
	md_member("md127", "loop1", "0", "2048", "100000");
	md_member("md127", "loop2", "1", "2048", "100000");
	put("class/block/dm-0/dev", "253:0");
	put("class/block/dm-0/dm/name", "fsprof-x");
	put("class/block/dm-0/slaves/md127", "");
	put("block/sda/dev", "8:0");
	put("block/sda/sda1/dev", "8:1");
	put("block/sda/sda1/partition", "1");
	put("block/sda/sda1/start", "2048");
	put("block/sda/sda1/size", "409600");
	link_at("class/block/sda", "../../block/sda");
	link_at("class/block/sda1", "../../block/sda/sda1");
	put("class/block/md126/dev", "9:126");
	put("class/block/md126/md/level", "raid1");
	md_member("md126", "sda1", "0", "8192", "200000");
	md_member("md126", "loop3", "1", "4096", "200000");
	put("class/block/md125/dev", "9:125");
	put("class/block/md125/md/level", "raid5");
	md_member("md125", "loop1", "0", "2048", "100000");
	return 0;
}

static int remove_tree(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", top);
	return system(cmd) ? -1 : 0;
}

static int fake_dm_table(void *arg, const char *name, struct dm_segment *seg,
			 unsigned int max)
{
	(void)arg;
	if (strcmp(name, "dm-0") || max < 1)
		return -ENOENT;
	memset(seg, 0, sizeof(*seg));
	seg->start = 0;
	seg->len = 150000;
	snprintf(seg->type, sizeof(seg->type), "linear");
	assert_int_equal(dm_linear_params("9:127 8", seg), 0);
	return 1;
}

static struct devstack_source source(void)
{
	static char sysfs[PATH_MAX];

	snprintf(sysfs, sizeof(sysfs), "%s", top);
	return (struct devstack_source){ sysfs, fake_dm_table, NULL };
}

/* does member m's [start, start + len) on its range list hold sector s? */
static bool log_holds(const struct block_stack *st, unsigned int m, uint64_t s)
{
	unsigned int i;

	for (i = 0; i < st->n_log; i++)
		if (st->log[i].member == m && s >= st->log[i].start &&
		    s < st->log[i].start + st->log[i].sectors)
			return true;
	return false;
}

static uint64_t log_sectors(const struct block_stack *st)
{
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; i < st->n_log; i++)
		n += st->log[i].sectors;
	return n;
}

/* every sector of the range, mapped one by one, is in the member's range */
static void
raid0_ranges_hold_exactly_the_sectors_mapped_one_by_one(void **state)
{
	static const uint64_t chunks[] = { 1, 8, 128 };
	unsigned int ndev, c, m;
	uint64_t start, len;

	(void)state;
	for (ndev = 1; ndev <= 4; ndev++)
		for (c = 0; c < 3; c++)
			for (start = 0; start < 3 * ndev * chunks[c];
			     start += chunks[c] / 2 + 1)
				for (len = 1; len < 5 * chunks[c] * ndev;
				     len += chunks[c] / 3 + 1) {
					uint64_t ms[4], ml[4], x, on, n = 0;
					bool any[4];

					for (m = 0; m < ndev; m++)
						any[m] = raid0_member_range(
							start, len, ndev,
							chunks[c], m, &ms[m],
							&ml[m]);
					for (x = start; x < start + len; x++) {
						m = raid0_map_sector(x, ndev,
								     chunks[c],
								     &on);
						assert_true(any[m]);
						assert_true(on >= ms[m] &&
							    on < ms[m] + ml[m]);
					}
					for (m = 0; m < ndev; m++)
						n += any[m] ? ml[m] : 0;
					/* and nothing more */
					assert_int_equal(n, len);
				}
}

static void raid0_map_sector_follows_md_map_sector(void **state)
{
	uint64_t on;

	(void)state;
	/* 2 members, chunk 128: chunk 3 is the second chunk of slot 1 */
	assert_int_equal(raid0_map_sector(3 * 128 + 5, 2, 128, &on), 1);
	assert_int_equal(on, 128 + 5);
	assert_int_equal(raid0_map_sector(4 * 128, 2, 128, &on), 0);
	assert_int_equal(on, 2 * 128);
}

static void dm_linear_overlap_shifts_by_the_table_offset(void **state)
{
	struct dm_segment seg = { .start = 100, .len = 50 };
	uint64_t below, blen;

	(void)state;
	assert_int_equal(dm_linear_params("7:3 2048", &seg), 0);
	assert_int_equal(seg.major, 7);
	assert_int_equal(seg.minor, 3);
	assert_true(dm_linear_overlap(&seg, 90, 20, &below, &blen));
	assert_int_equal(below, 2048);
	assert_int_equal(blen, 10);
	assert_true(dm_linear_overlap(&seg, 120, 100, &below, &blen));
	assert_int_equal(below, 2068);
	assert_int_equal(blen, 30);
	assert_false(dm_linear_overlap(&seg, 150, 10, &below, &blen));
	assert_int_equal(dm_linear_params("7:3", &seg), -EINVAL);
	assert_int_equal(dm_linear_params("7:3 12x", &seg), -EINVAL);
}

static void the_walk_goes_down_dm_on_md_to_the_loops(void **state)
{
	struct devstack_source src = source();
	struct block_stack *st = calloc(1, sizeof(*st));

	(void)state;
	assert_int_equal(devstack_walk(&src, "dm-0", st), 0);
	assert_int_equal(st->n, 2);
	assert_string_equal(st->top, "dm-0");
	assert_string_equal(st->member[0].name, "loop1");
	assert_string_equal(st->member[1].name, "loop2");
	assert_int_equal(st->member[1].major, 7);
	assert_int_equal(st->member[1].minor, 2);
	assert_int_equal(st->member[1].disk_minor, 2);
	assert_int_equal(st->member[1].part_sectors, 0);
	assert_string_equal(st->member[0].via, "dm-0 md127");
	assert_string_equal(
		st->layout,
		"dm-0 (dm-linear) on md127 (md raid0, chunk 64 KiB)");
	free(st);
}

static void a_device_without_slaves_is_not_stacked(void **state)
{
	struct devstack_source src = source();
	struct block_stack *st = calloc(1, sizeof(*st));

	(void)state;
	assert_int_equal(devstack_walk(&src, "loop1", st), -ENOENT);
	assert_int_equal(st->n, 0);
	free(st);
}

/* a log range on dm-0 lands on the loops where md's arithmetic puts it */
static void the_log_maps_through_dm_linear_and_raid0(void **state)
{
	struct devstack_source src = source();
	struct block_stack *st = calloc(1, sizeof(*st));
	struct log_region log = { .n = 1 };
	uint64_t x, on;
	unsigned int m;

	(void)state;
	log.range[0].start = 1000;
	log.range[0].sectors = 1000;
	assert_int_equal(devstack_walk(&src, "dm-0", st), 0);
	assert_int_equal(devstack_map_log(&src, &log, st), 0);
	assert_true(st->log_mapped);
	assert_non_null(strstr(st->log_note, "mapped through dm-0"));
	assert_int_equal(st->n_log, 2);
	for (x = 1000; x < 2000; x++) {
		/* dm-0 sector x is md127 sector x + 8 */
		m = raid0_map_sector(x + 8, 2, 128, &on);
		assert_true(log_holds(st, m, on + 2048));
	}
	assert_int_equal(log_sectors(st), 1000);
	free(st);
}

static void raid1_copies_the_log_to_a_partition_and_a_loop(void **state)
{
	struct devstack_source src = source();
	struct block_stack *st = calloc(1, sizeof(*st));
	struct log_region log = { .n = 1 };

	(void)state;
	log.range[0].start = 500;
	log.range[0].sectors = 64;
	assert_int_equal(devstack_walk(&src, "md126", st), 0);
	assert_int_equal(st->n, 2);
	/* sorted: loop3, sda1; the partition's requests carry sda's dev */
	assert_string_equal(st->member[1].name, "sda1");
	assert_int_equal(st->member[1].disk_major, 8);
	assert_int_equal(st->member[1].disk_minor, 0);
	assert_int_equal(st->member[1].part_start, 2048);
	assert_int_equal(st->member[1].part_sectors, 409600);
	assert_int_equal(devstack_map_log(&src, &log, st), 0);
	assert_int_equal(st->n_log, 2);
	assert_true(log_holds(st, 0, 4096 + 500));
	assert_true(log_holds(st, 0, 4096 + 563));
	assert_false(log_holds(st, 0, 4096 + 564));
	/* on sda: the partition's start, then md's data offset */
	assert_true(log_holds(st, 1, 2048 + 8192 + 500));
	assert_int_equal(log_sectors(st), 128);
	free(st);
}

static void
a_layout_fsprof_cannot_place_says_the_log_is_not_mapped(void **state)
{
	struct devstack_source src = source();
	struct block_stack *st = calloc(1, sizeof(*st));
	struct log_region log = { .n = 1 };

	(void)state;
	log.range[0].start = 0;
	log.range[0].sectors = 8;
	assert_int_equal(devstack_walk(&src, "md125", st), 0);
	assert_int_equal(devstack_map_log(&src, &log, st), -EOPNOTSUPP);
	assert_false(st->log_mapped);
	assert_int_equal(st->n_log, 0);
	assert_non_null(strstr(st->log_note,
			       "the log class is not mapped on this stack"));
	assert_non_null(strstr(st->log_note, "md raid5 md125"));
	/* a raid0 whose members differ in size has a second zone */
	put("class/block/md127/md/dev-loop2/size", "90000");
	assert_int_equal(devstack_walk(&src, "md127", st), 0);
	assert_int_equal(devstack_map_log(&src, &log, st), -EOPNOTSUPP);
	assert_non_null(strstr(st->log_note, "differ in size"));
	free(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			raid0_ranges_hold_exactly_the_sectors_mapped_one_by_one),
		cmocka_unit_test(raid0_map_sector_follows_md_map_sector),
		cmocka_unit_test(dm_linear_overlap_shifts_by_the_table_offset),
		cmocka_unit_test_setup_teardown(
			the_walk_goes_down_dm_on_md_to_the_loops, make_tree,
			remove_tree),
		cmocka_unit_test_setup_teardown(
			a_device_without_slaves_is_not_stacked, make_tree,
			remove_tree),
		cmocka_unit_test_setup_teardown(
			the_log_maps_through_dm_linear_and_raid0, make_tree,
			remove_tree),
		cmocka_unit_test_setup_teardown(
			raid1_copies_the_log_to_a_partition_and_a_loop,
			make_tree, remove_tree),
		cmocka_unit_test_setup_teardown(
			a_layout_fsprof_cannot_place_says_the_log_is_not_mapped,
			make_tree, remove_tree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
