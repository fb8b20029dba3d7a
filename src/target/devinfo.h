/* SPDX-License-Identifier: GPL-2.0 */
/* Block device facts from sysfs: whole disk of a partition, names. */
#ifndef FSPROF_DEVINFO_H
#define FSPROF_DEVINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* the disk a partition belongs to; dev itself when it is a whole disk */
dev_t devinfo_whole_disk(dev_t dev);

/* the block device holding the filesystem of path (0 when none: tmpfs) */
dev_t devinfo_fs_device(const char *path);

/* "/dev/<name>" of dev from sysfs (its uevent's DEVNAME); -ENOENT if none */
int devinfo_dev_path(dev_t dev, char *buf, size_t len);

/*
 * A partition's place on its disk, in 512-byte sectors; -ENOENT for a
 * whole disk.
 */
int devinfo_partition_range(dev_t dev, uint64_t *start, uint64_t *sectors);

/*
 * Does the disk issue requests of its own (blk-mq: /sys/dev/block/M:m/mq)?
 * A bio-based device (device-mapper, MD, zram) passes bios down and never
 * issues a request, so the block domain sees nothing on it.
 */
bool devinfo_issues_requests(dev_t disk);

/*
 * Is the block device dev (or, when it is a whole disk, one of its
 * partitions) the source of any mount?
 */
bool devinfo_blockdev_in_use(dev_t dev);

/*
 * Is part a partition whose disk has another partition (or the whole
 * disk) mounted? A throttle on the disk would slow that one down too.
 */
bool devinfo_sibling_mounted(dev_t part);

/* the block device holding "/", or 0 */
dev_t devinfo_root_device(void);

#endif
