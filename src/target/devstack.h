/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The disks under a stacked block device (md, device-mapper), found by
 * following /sys/class/block/<dev>/slaves/ down (dm on md, and deeper) to
 * the devices that have none: they issue the requests. And the filesystem
 * log's ranges mapped onto them through each layer where the layout can
 * be known: dm-linear (its table's offsets), md raid0 (chunking, one zone)
 * and raid1 (a copy on every member), with each md member's data offset.
 */
#ifndef FSPROF_DEVSTACK_H
#define FSPROF_DEVSTACK_H

#include <stddef.h>

#include "results/block_stack.h"
#include "results/results.h"
#include "target/devstack_sysfs.h"

/* /sys and the device-mapper's table ioctl (target/dm_table.c) */
void devstack_system(struct devstack_source *src);

/* the name of block device major:minor in sysfs ("md127"); 0 or -ENOENT */
int devstack_name_of(const struct devstack_source *src, unsigned int major,
		     unsigned int minor, char *name, size_t len);

/*
 * Walk down from device top: its members (the leaves) and its layout into
 * out. 0 with out->n > 0 for a stacked device; -ENOENT when top has no
 * slaves (not stacked: out->n == 0); -E2BIG when more than BLK_MEMBERS_MAX
 * members; other -errno when sysfs cannot be read.
 */
int devstack_walk(const struct devstack_source *src, const char *top,
		  struct block_stack *out);

/*
 * Map the log's ranges (sectors of top, as the filesystem sees them) onto
 * the members found by devstack_walk: out->log and log_mapped, and
 * out->log_note saying how, or why the log class is not mapped on this
 * stack. 0, or -errno when not mapped.
 */
int devstack_map_log(const struct devstack_source *src,
		     const struct log_region *log, struct block_stack *out);

#endif
