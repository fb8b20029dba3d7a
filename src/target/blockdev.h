/* SPDX-License-Identifier: GPL-2.0 */
/* Whether a real block device may be formatted: the safety rules. */
#ifndef FSPROF_BLOCKDEV_H
#define FSPROF_BLOCKDEV_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* the device number of block device path; < 0 (said) when it is none */
int blockdev_dev(const char *path, dev_t *dev);

/*
 * Refuse (with the reason said, returning < 0) a path that is not a block
 * device, a device that is mounted or in use, the disk or partition holding
 * the root filesystem, and - unless force - one where libblkid finds any
 * filesystem, RAID, LVM or partition-table signature.
 */
int blockdev_check_formattable(const char *path, bool force, dev_t *dev);

/* the UUID of the filesystem on path (libblkid), "" when none */
void blockdev_fs_uuid(const char *path, char *buf, size_t len);

#endif
