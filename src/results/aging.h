/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a case's aging step (--age) did to the filesystem before its first
 * phase, and the free space it left: the free-extent histogram of
 * e2freefrag (ext2/3/4) or xfs_db's freesp (xfs), as a table.
 */
#ifndef FSPROF_AGING_H
#define FSPROF_AGING_H

#include <stdbool.h>
#include <stdint.h>

#define FREESPACE_BUCKETS_MAX 64

/* free extents from min_bytes up to max_bytes (inclusive) */
struct freespace_bucket {
	uint64_t min_bytes, max_bytes;
	uint64_t extents; /* free extents in this range */
	uint64_t blocks; /* filesystem blocks they hold */
	double percent; /* of all free blocks, as the tool printed it */
};

struct freespace_table {
	char tool[32]; /* "e2freefrag", "xfs_db freesp"; "" when not taken */
	char error[256]; /* why there is no table, or "" */
	unsigned int block_size; /* bytes */
	uint64_t free_blocks, free_extents;
	unsigned int n;
	struct freespace_bucket b[FREESPACE_BUCKETS_MAX];
};

struct age_result {
	bool on; /* the case was aged */
	char spec[128]; /* canonical: "fill=90,pattern=every-other,..." */
	/* the spec's fields, as recorded */
	unsigned int fill_pct, delete_pct; /* delete_pct: pattern random */
	char pattern[16]; /* every-other, random, none */
	char sizes[16]; /* small, mixed, large */
	uint64_t size_min, size_max; /* the sizes' range, bytes */
	uint64_t seed;
	uint64_t files_written, bytes_written;
	uint64_t files_deleted, bytes_deleted;
	double used_filled; /* used share of the filesystem after the fill */
	double used_aged; /* ... after the deletes */
	uint64_t wall_ns; /* the aging's own time (untimed for the phases) */
	struct freespace_table free; /* after the aging */
};

/* the median free extent's size class: the bucket holding half the blocks */
const struct freespace_bucket *
freespace_median_bucket(const struct freespace_table *t);

#endif
