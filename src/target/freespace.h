/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The free-space histogram of a mounted target: its metadata pushed home
 * (freeze and thaw: a journal checkpoint, an XFS log cover), then
 * e2freefrag (ext2/3/4) or xfs_db -r freesp (xfs) read from the device.
 */
#ifndef FSPROF_FREESPACE_H
#define FSPROF_FREESPACE_H

#include "results/aging.h"

/*
 * The table of fstype's filesystem on dev, mounted on mnt. 0, or -errno
 * with out->error saying why (a filesystem with no such tool: -EOPNOTSUPP).
 */
int freespace_histogram(const char *fstype, const char *dev, const char *mnt,
			struct freespace_table *out);

#endif
