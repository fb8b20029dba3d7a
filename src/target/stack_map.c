// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "target/stack_map.h"

unsigned int raid0_map_sector(uint64_t x, unsigned int ndev, uint64_t chunk,
			      uint64_t *msector)
{
	uint64_t c = x / chunk;

	/* drivers/md/raid0.c map_sector(): chunk c is on slot c % ndev */
	*msector = (c / ndev) * chunk + x % chunk;
	return (unsigned int)(c % ndev);
}

bool raid0_member_range(uint64_t start, uint64_t len, unsigned int ndev,
			uint64_t chunk, unsigned int m, uint64_t *mstart,
			uint64_t *mlen)
{
	uint64_t end = start + len, c0, c1, first, last, lo, hi, mhi;

	if (!len || !ndev || !chunk || m >= ndev)
		return false;
	c0 = start / chunk;
	c1 = (end - 1) / chunk;
	/* the first and last chunks of the range that are on m */
	first = c0 + (m + ndev - c0 % ndev) % ndev;
	if (first > c1)
		return false;
	last = c1 - (c1 % ndev + ndev - m) % ndev;
	/*
	 * m's chunks first, first + ndev, ... last are consecutive chunks on
	 * m: the range on m runs from where the first begins (or the range
	 * does) to where the last ends (or the range does)
	 */
	lo = first == c0 ? start : first * chunk;
	hi = last == c1 ? end : (last + 1) * chunk;
	raid0_map_sector(lo, ndev, chunk, mstart);
	raid0_map_sector(hi - 1, ndev, chunk, &mhi);
	*mlen = mhi + 1 - *mstart;
	return true;
}

bool dm_linear_overlap(const struct dm_segment *seg, uint64_t start,
		       uint64_t len, uint64_t *below, uint64_t *blen)
{
	uint64_t lo = start > seg->start ? start : seg->start;
	uint64_t end = start + len, seg_end = seg->start + seg->len;
	uint64_t hi = end < seg_end ? end : seg_end;

	if (lo >= hi)
		return false;
	*below = seg->offset + (lo - seg->start);
	*blen = hi - lo;
	return true;
}

int dm_linear_params(const char *params, struct dm_segment *seg)
{
	unsigned int ma, mi;
	uint64_t off;
	int used = 0;

	if (sscanf(params, "%u:%u %" SCNu64 "%n", &ma, &mi, &off, &used) != 3 ||
	    (params[used] && params[used] != ' ' && params[used] != '\n'))
		return -EINVAL;
	seg->major = ma;
	seg->minor = mi;
	seg->offset = off;
	return 0;
}
