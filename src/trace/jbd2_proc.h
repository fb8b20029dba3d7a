/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's own journal statistics, /proc/fs/jbd2/<dev>-<ino>/info: an
 * independent count of the commits of a journal, read at the phase
 * boundaries as a peer of what the jbd2 BPF programs count.
 */
#ifndef FSPROF_JBD2_PROC_H
#define FSPROF_JBD2_PROC_H

#include <stddef.h>
#include <stdint.h>

#define JBD2_PROC_ROOT "/proc/fs/jbd2"

/*
 * The info file of the internal journal of the filesystem on the block
 * device named devname ("loop3"): <root>/<devname>-<journal inode>/info.
 * 0, or -ENOENT when there is none (no journal, or an external one).
 */
int jbd2_proc_find(const char *root, const char *devname, char *path,
		   size_t len);

/* the kernel's name of block device major:minor ("loop3"), from sysfs */
int jbd2_proc_dev_name(unsigned int major, unsigned int minor, char *name,
		       size_t len);

/* the transaction count from the text of an info file; -EINVAL if absent */
int jbd2_proc_parse_transactions(const char *text, uint64_t *transactions);

/* read path and parse it; 0 or -errno */
int jbd2_proc_read_transactions(const char *path, uint64_t *transactions);

#endif
