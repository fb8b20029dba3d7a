/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FSPROF_MKFS_H
#define FSPROF_MKFS_H

#include <stddef.h>

struct mkfs_record {
	char cmd[1024]; /* the command line as run */
	char *output; /* what it printed; free() */
};

/*
 * Make a filesystem of fstype on device, with extra space-separated options.
 * ext2/3/4 are made fully initialised (no lazy inode table or journal init)
 * so that no background zeroing lands in a measured phase.
 */
int mkfs_run(const char *fstype, const char *device, const char *extra_opts,
	     struct mkfs_record *rec);

#endif
