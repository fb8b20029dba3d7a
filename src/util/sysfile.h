/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's small files - sysfs attributes, /proc/sys, cgroup control
 * files: one value read in one read(2), one setting written in one write(2)
 * (a control file takes what a single write says).
 */
#ifndef FSPROF_SYSFILE_H
#define FSPROF_SYSFILE_H

#include <stddef.h>
#include <sys/types.h>

/*
 * The first line of path, without its newline, into buf (at most len - 1
 * bytes, NUL-terminated). Returns its length, or -errno; an empty file
 * gives -ENODATA.
 */
ssize_t sysfile_read_line(const char *path, char *buf, size_t len);

/* text into path in one write(2); 0, or -errno (-EIO: written short) */
int sysfile_write(const char *path, const char *text);

#endif
