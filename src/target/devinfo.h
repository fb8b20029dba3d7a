/* SPDX-License-Identifier: GPL-2.0 */
/* Block device facts from sysfs: whole disk of a partition, names. */
#ifndef FSPROF_DEVINFO_H
#define FSPROF_DEVINFO_H

#include <stddef.h>
#include <sys/types.h>

/* the disk a partition belongs to; dev itself when it is a whole disk */
dev_t devinfo_whole_disk(dev_t dev);

/* the block device holding the filesystem of path (0 when none: tmpfs) */
dev_t devinfo_fs_device(const char *path);

/* "/dev/<name>" of dev from sysfs (its uevent's DEVNAME); -ENOENT if none */
int devinfo_dev_path(dev_t dev, char *buf, size_t len);

/* the block device holding "/", or 0 */
dev_t devinfo_root_device(void);

#endif
