/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Splitting "noatime,nodelalloc" the way mount(8) does: generic VFS options
 * become MS_* flags, the rest is the filesystem's data string.
 */
#ifndef FSPROF_MOUNTOPTS_H
#define FSPROF_MOUNTOPTS_H

#include <stddef.h>

struct mount_args {
	unsigned long flags;
	char data[1024];
};

/* Returns 0, or -E2BIG when the data does not fit. */
int mountopts_split(const char *options, struct mount_args *out);

#endif
