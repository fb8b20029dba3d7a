// SPDX-License-Identifier: GPL-2.0
/*
 * The free-extent histograms of e2freefrag and xfs_db freesp, parsed
 * (src/target/freespace_parse.h), on the tools' real output.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "target/freespace_parse.h"

#define KiB 1024ULL
#define MiB (1024 * KiB)

/* e2freefrag 1.47 on a fresh 600 MiB ext4 (4 KiB blocks) */
static const char e2_fresh[] =
	"Device: t.img\n"
	"Blocksize: 4096 bytes\n"
	"Total blocks: 153600\n"
	"Free blocks: 146860 (95.6%)\n"
	"\n"
	"Min. free extent: 114688 KB \n"
	"Max. free extent: 220880 KB\n"
	"Avg. free extent: 146860 KB\n"
	"Num. free extent: 4\n"
	"\n"
	"HISTOGRAM OF FREE EXTENT SIZES:\n"
	"Extent Size Range :  Free extents   Free Blocks  Percent\n"
	"   64M...  128M-  :             3         91640   62.40%\n"
	"  128M...  256M-  :             1         55220   37.60%\n";

/* e2freefrag after --age fill=90,sizes=small on a 546 MiB ext4 (rows cut) */
static const char e2_aged[] =
	"Device: /dev/loop2\n"
	"Blocksize: 4096 bytes\n"
	"Total blocks: 139776\n"
	"Free blocks: 72777 (52.1%)\n"
	"\n"
	"Min. free extent: 4 KB \n"
	"Max. free extent: 33372 KB\n"
	"Avg. free extent: 29 KB\n"
	"Num. free extent: 10005\n"
	"\n"
	"HISTOGRAM OF FREE EXTENT SIZES:\n"
	"Extent Size Range :  Free extents   Free Blocks  Percent\n"
	"    4K...    8K-  :            10            10    0.01%\n"
	"    8K...   16K-  :          3944          9363   12.87%\n"
	"   16K...   32K-  :          3054         16017   22.01%\n"
	"   32K...   64K-  :          2725         30010   41.24%\n"
	"   64K...  128K-  :           266          4497    6.18%\n"
	"    1M...    2M-  :             2           889    1.22%\n"
	"   32M...   64M-  :             1          8343   11.46%\n";

/* xfs_db -r -c "sb 0" -c "p blocksize" -c "freesp -s" on a 400 MiB xfs */
static const char xfs_fresh[] = "blocksize = 4096\n"
				"   from      to extents  blocks    pct\n"
				"      1       1      16      16   0.02\n"
				"      4       7       1       6   0.01\n"
				"   8192   16383       1    9206  10.71\n"
				"  16384   25600       3   76756  89.27\n"
				"total free extents 21\n"
				"total free blocks 85984\n"
				"average free extent size 4094.48\n";

static void e2freefrag_rows_become_byte_ranges(void **state)
{
	struct freespace_table t;

	(void)state;
	assert_int_equal(freespace_parse_e2freefrag(e2_fresh, &t), 0);
	assert_string_equal(t.tool, "e2freefrag");
	assert_int_equal(t.block_size, 4096);
	assert_true(t.free_blocks == 146860);
	assert_true(t.free_extents == 4);
	assert_int_equal(t.n, 2);
	assert_true(t.b[0].min_bytes == 64 * MiB);
	assert_true(t.b[0].max_bytes == 128 * MiB - 1);
	assert_true(t.b[0].extents == 3 && t.b[0].blocks == 91640);
	assert_float_equal(t.b[0].percent, 62.40, 1e-9);
	assert_true(t.b[1].min_bytes == 128 * MiB);
	assert_true(t.b[1].max_bytes == 256 * MiB - 1);
	assert_string_equal(t.error, "");
}

static void e2freefrag_of_an_aged_fs_keeps_every_row(void **state)
{
	const struct freespace_bucket *half;
	struct freespace_table t;
	uint64_t blocks = 0;
	unsigned int i;

	(void)state;
	assert_int_equal(freespace_parse_e2freefrag(e2_aged, &t), 0);
	assert_int_equal(t.n, 7);
	assert_true(t.b[0].min_bytes == 4 * KiB);
	assert_true(t.b[0].max_bytes == 8 * KiB - 1);
	assert_true(t.b[1].extents == 3944);
	assert_true(t.b[5].min_bytes == 1 * MiB);
	for (i = 0; i < t.n; i++)
		blocks += t.b[i].blocks;
	assert_true(blocks == 69129); /* the rows cut from the fixture */
	/* half the free blocks lie in extents of 32-64 KiB and below */
	half = freespace_median_bucket(&t);
	assert_non_null(half);
	assert_true(half->min_bytes == 32 * KiB);
}

static void xfs_db_rows_in_blocks_become_bytes(void **state)
{
	struct freespace_table t;

	(void)state;
	assert_int_equal(freespace_parse_xfs_db(xfs_fresh, &t), 0);
	assert_string_equal(t.tool, "xfs_db freesp");
	assert_int_equal(t.block_size, 4096);
	assert_true(t.free_extents == 21 && t.free_blocks == 85984);
	assert_int_equal(t.n, 4);
	/* "1 1": single blocks; the range is inclusive, in blocks */
	assert_true(t.b[0].min_bytes == 4096);
	assert_true(t.b[0].max_bytes == 2 * 4096 - 1);
	assert_true(t.b[1].min_bytes == 4 * 4096);
	assert_true(t.b[1].max_bytes == 8 * 4096 - 1);
	assert_true(t.b[3].extents == 3 && t.b[3].blocks == 76756);
	assert_float_equal(t.b[3].percent, 89.27, 1e-9);
}

static void output_without_a_histogram_is_refused_with_why(void **state)
{
	struct freespace_table t;

	(void)state;
	assert_int_equal(freespace_parse_e2freefrag(
				 "e2freefrag: Bad magic number in super-block "
				 "while trying to open t.img\n",
				 &t),
			 -EINVAL);
	assert_non_null(strstr(t.error, "no histogram"));
	assert_int_equal(
		freespace_parse_xfs_db(
			"xfs_db: t.img is not a valid XFS filesystem\n", &t),
		-EINVAL);
	assert_non_null(strstr(t.error, "no block size"));
	assert_int_equal(freespace_parse_e2freefrag("", &t), -EINVAL);
}

static void a_histogram_of_no_free_extents_is_empty_not_an_error(void **state)
{
	struct freespace_table t;

	(void)state;
	assert_int_equal(freespace_parse_xfs_db(
				 "blocksize = 4096\n"
				 "   from      to extents  blocks    pct\n"
				 "total free extents 0\n"
				 "total free blocks 0\n",
				 &t),
			 0);
	assert_int_equal(t.n, 0);
	assert_null(freespace_median_bucket(&t));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(e2freefrag_rows_become_byte_ranges),
		cmocka_unit_test(e2freefrag_of_an_aged_fs_keeps_every_row),
		cmocka_unit_test(xfs_db_rows_in_blocks_become_bytes),
		cmocka_unit_test(
			output_without_a_histogram_is_refused_with_why),
		cmocka_unit_test(
			a_histogram_of_no_free_extents_is_empty_not_an_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
