// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "target/freespace_parse.h"

/* "4K", "128M": e2freefrag's sizes, powers of 1024 from K */
static int e2_size(unsigned long long n, char unit, uint64_t *out)
{
	static const char units[] = "KMGTPE";
	const char *u = strchr(units, unit);
	uint64_t bytes = n;
	int shift;

	if (!unit || !u)
		return -EINVAL;
	for (shift = 0; shift <= u - units; shift++) {
		if (bytes > UINT64_MAX / 1024)
			return -EINVAL;
		bytes *= 1024;
	}
	*out = bytes;
	return 0;
}

static int table_fail(struct freespace_table *out, const char *why)
{
	snprintf(out->error, sizeof(out->error), "%s", why);
	return -EINVAL;
}

/* one "  4K...    8K-  :   3   12   0.11%" row; 1 when it was one */
static int e2_row(const char *line, struct freespace_table *out)
{
	unsigned long long lo, hi, ext, blk;
	char ulo, uhi;
	double pct;
	struct freespace_bucket *b;

	if (sscanf(line, " %llu%c... %llu%c- : %llu %llu %lf%%", &lo, &ulo, &hi,
		   &uhi, &ext, &blk, &pct) != 7)
		return 0;
	if (out->n == FREESPACE_BUCKETS_MAX)
		return -E2BIG;
	b = &out->b[out->n];
	if (e2_size(lo, ulo, &b->min_bytes) || e2_size(hi, uhi, &b->max_bytes))
		return -EINVAL;
	b->max_bytes--; /* e2freefrag's ranges end below the next bucket */
	b->extents = ext, b->blocks = blk, b->percent = pct;
	out->n++;
	return 1;
}

int freespace_parse_e2freefrag(const char *text, struct freespace_table *out)
{
	const char *line = text;
	bool histogram = false;
	unsigned long long n;
	unsigned int bs;

	memset(out, 0, sizeof(*out));
	snprintf(out->tool, sizeof(out->tool), "e2freefrag");
	for (; line && *line; line = strchr(line, '\n'), line += !!line) {
		if (sscanf(line, "Blocksize: %u bytes", &bs) == 1)
			out->block_size = bs;
		else if (sscanf(line, "Free blocks: %llu", &n) == 1)
			out->free_blocks = n;
		else if (sscanf(line, "Num. free extent: %llu", &n) == 1)
			out->free_extents = n;
		else if (!strncmp(line, "HISTOGRAM OF FREE EXTENT SIZES", 30))
			histogram = true;
		else if (histogram && e2_row(line, out) < 0)
			return table_fail(
				out,
				"e2freefrag: a histogram row out of range");
	}
	if (!out->block_size || !histogram)
		return table_fail(
			out,
			"e2freefrag printed no block size or no histogram");
	return 0;
}

/* one "   from  to extents blocks pct" row of xfs_db; 1 when it was one */
static int xfs_row(const char *line, struct freespace_table *out)
{
	unsigned long long lo, hi, ext, blk;
	struct freespace_bucket *b;
	double pct;
	char end;

	if (sscanf(line, " %llu %llu %llu %llu %lf%c", &lo, &hi, &ext, &blk,
		   &pct, &end) < 5)
		return 0;
	if (out->n == FREESPACE_BUCKETS_MAX)
		return -E2BIG;
	b = &out->b[out->n++];
	/* in blocks until the block size is known: scaled at the end */
	b->min_bytes = lo, b->max_bytes = hi;
	b->extents = ext, b->blocks = blk, b->percent = pct;
	return 1;
}

int freespace_parse_xfs_db(const char *text, struct freespace_table *out)
{
	const char *line = text;
	unsigned long long n;
	unsigned int bs, i;

	memset(out, 0, sizeof(*out));
	snprintf(out->tool, sizeof(out->tool), "xfs_db freesp");
	for (; line && *line; line = strchr(line, '\n'), line += !!line) {
		if (sscanf(line, "blocksize = %u", &bs) == 1)
			out->block_size = bs;
		else if (sscanf(line, "total free extents %llu", &n) == 1)
			out->free_extents = n;
		else if (sscanf(line, "total free blocks %llu", &n) == 1)
			out->free_blocks = n;
		else if (xfs_row(line, out) < 0)
			return table_fail(
				out,
				"xfs_db freesp: more rows than fsprof keeps");
	}
	if (!out->block_size)
		return table_fail(out, "xfs_db printed no block size");
	for (i = 0; i < out->n; i++) {
		out->b[i].min_bytes *= out->block_size;
		out->b[i].max_bytes =
			(out->b[i].max_bytes + 1) * out->block_size - 1;
	}
	return 0;
}
