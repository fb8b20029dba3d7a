/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A stacked target: a filesystem on an md array or a device-mapper device,
 * which issues no requests of its own. Its member disks (the leaves of
 * /sys/block/<dev>/slaves/, followed down through dm on md) do; the block
 * domain traces them, and counts each one's requests apart. The log's
 * ranges are mapped onto the members where the layout can be known.
 */
#ifndef FSPROF_BLOCK_STACK_H
#define FSPROF_BLOCK_STACK_H

#include <stdbool.h>
#include <stdint.h>

#include "fsprof/block.h"

/* one disk (or partition) under the stack that issues requests */
struct stack_member {
	char name[32]; /* "loop3", "sdb1" */
	unsigned int major, minor; /* its own dev_t */
	/* the disk its requests carry, and a partition's sectors on it */
	unsigned int disk_major, disk_minor;
	uint64_t part_start, part_sectors; /* 0 sectors: a whole disk */
	char via[64]; /* the devices above it: "dm-0 md127" */
};

/* a range of the log on one member's disk, 512-byte sectors */
struct stack_log_range {
	unsigned int member;
	uint64_t start, sectors;
};

struct block_stack {
	unsigned int n; /* members; 0: the target is not stacked */
	char top[32]; /* the filesystem's device: "md127", "dm-0" */
	char layout[128]; /* "dm-linear on md raid0 (chunk 512 KiB)" */
	struct stack_member member[BLK_MEMBERS_MAX];
	/* the log class: mapped onto the members, or why not */
	bool log_mapped;
	char log_note[256];
	unsigned int n_log;
	struct stack_log_range log[BLK_LOG_MAX_RANGES];
};

/* one member's requests in a phase, by IO class */
struct block_member_result {
	uint64_t ios[BLK_IOC_NR];
	uint64_t bytes[BLK_IOC_NR];
	struct {
		uint64_t count, sum_ns, max_ns; /* issue -> complete */
	} lat;
};

#endif
