/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A device-mapper device's live table, read from the kernel with the
 * DM_TABLE_STATUS ioctl on /dev/mapper/control (what dmsetup table
 * prints), without dmsetup.
 */
#ifndef FSPROF_DM_TABLE_H
#define FSPROF_DM_TABLE_H

#include "target/stack_map.h"

/*
 * The segments of dm device name ("dm-0", its name in sysfs), at most
 * max: their count, or -errno. arg: unused (struct devstack_source).
 */
int dm_table_read(void *arg, const char *name, struct dm_segment *seg,
		  unsigned int max);

#endif
