/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a range of a stacked device's sectors lands on the devices below
 * it: the arithmetic of the layouts whose placement can be known.
 */
#ifndef FSPROF_STACK_MAP_H
#define FSPROF_STACK_MAP_H

#include <stdbool.h>
#include <stdint.h>

/*
 * md RAID0 of ndev members with one zone (members of one size), chunk
 * sectors a chunk: the part of the array's [start, start + len) that lands
 * on member m (its slot), which is one contiguous range on it, from the
 * start of its data area: [*mstart, *mstart + *mlen). False when none of
 * the range is on m.
 */
bool raid0_member_range(uint64_t start, uint64_t len, unsigned int ndev,
			uint64_t chunk, unsigned int m, uint64_t *mstart,
			uint64_t *mlen);

/* array sector x of such a RAID0: its member (slot), and its sector there */
unsigned int raid0_map_sector(uint64_t x, unsigned int ndev, uint64_t chunk,
			      uint64_t *msector);

/*
 * One segment of a dm table, [start, start + len) of the dm device, on
 * [offset, offset + len) of the device below (dm-linear). The overlap of
 * [start, start + len) with it, as a range of the device below; false when
 * they do not overlap.
 */
struct dm_segment {
	uint64_t start, len; /* of the dm device, sectors */
	char type[16]; /* "linear", "striped", ... */
	unsigned int major, minor; /* linear: the device below */
	uint64_t offset; /* linear: where the segment starts on it */
};

bool dm_linear_overlap(const struct dm_segment *seg, uint64_t start,
		       uint64_t len, uint64_t *below, uint64_t *blen);

/* a dm-linear target's parameters, "MAJ:MIN OFFSET"; 0 or -EINVAL */
int dm_linear_params(const char *params, struct dm_segment *seg);

#endif
