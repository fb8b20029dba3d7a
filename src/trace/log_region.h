/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the filesystem's log lives on its device, so the block domain can
 * class a request as log IO by its LBA: the ext4/ext3 journal inode's blocks,
 * data and mapping (indirect or extent tree) blocks alike, merged into
 * ranges (libext2fs), or the XFS internal log (sb_logstart / sb_logblocks).
 */
#ifndef FSPROF_LOG_REGION_H
#define FSPROF_LOG_REGION_H

#include <stddef.h>
#include <stdint.h>

#include "results/results.h"

/*
 * Read the log's ranges from device, a block device holding an fstype
 * filesystem (mounted or not; it is only read). On success out->source says
 * where the ranges came from, or why there are none (ext2 has no journal, an
 * external log is on another device). Returns 0, or -errno with out->n == 0
 * and out->source saying what failed: -ENOSPC when the journal lies in more
 * than BLK_LOG_MAX_RANGES ranges even after merging.
 */
int log_region_read(const char *device, const char *fstype,
		    struct log_region *out);

/* a range of 512-byte sectors, [start, start + sectors) */
struct log_range {
	uint64_t start, sectors;
};

/*
 * Sort v by start and merge the ranges that touch or overlap, in place;
 * returns how many ranges are left in v.
 */
size_t log_ranges_merge(struct log_range *v, size_t n);

/* add [start, start + sectors) after the ranges, merged with an adjacent
 * last one; -ENOSPC when BLK_LOG_MAX_RANGES are in use */
int log_region_add(struct log_region *r, uint64_t start, uint64_t sectors);

/*
 * The device of an external ext4 journal: s_journal_dev holds the kernel's
 * new_encode_dev() encoding (minor's low 8 bits, major, minor's high bits).
 */
void ext4_journal_dev_decode(uint32_t s_journal_dev, unsigned int *major,
			     unsigned int *minor);

/* an XFS filesystem block number as a 512-byte sector (XFS_FSB_TO_DADDR) */
uint64_t xfs_fsb_to_sector(uint64_t fsb, unsigned int agblklog,
			   uint32_t agblocks, unsigned int blocklog);

#endif
