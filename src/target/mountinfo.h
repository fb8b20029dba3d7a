/* SPDX-License-Identifier: GPL-2.0 */
/* Reading /proc/self/mountinfo: what is mounted where, from which device. */
#ifndef FSPROF_MOUNTINFO_H
#define FSPROF_MOUNTINFO_H

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

struct mountinfo_entry {
	unsigned int major, minor; /* st_dev of files on it (0:N = no disk) */
	char mountpoint[PATH_MAX];
	char mnt_opts[1024]; /* per-mount options */
	char fstype[32];
	char source[PATH_MAX]; /* /dev/vda1, tmpfs, overlay ... */
	char super_opts[1024]; /* superblock options */
};

/* the visible (last) mount at dir; 0 or -ENOENT */
int mountinfo_find_by_dir(const char *dir, struct mountinfo_entry *out);

/* the last mount whose st_dev is major:minor; 0 or -ENOENT */
int mountinfo_find_by_dev(unsigned int major, unsigned int minor,
			  struct mountinfo_entry *out);

/* does entry e match what arg describes */
typedef bool (*mountinfo_match)(const struct mountinfo_entry *e,
				const void *arg);

/* the last entry that matches, like the kernel's visible mount; 0 or
 * -ENOENT (-errno when mountinfo cannot be read) */
int mountinfo_find(mountinfo_match match, const void *arg,
		   struct mountinfo_entry *out);

#endif
