/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the stack walk and the log mapping read of a block device in sysfs
 * (<sysfs>/class/block/<name>/...): its attributes, its dev_t, the
 * entries of its folders.
 */
#ifndef FSPROF_DEVSTACK_SYSFS_H
#define FSPROF_DEVSTACK_SYSFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "target/stack_map.h"

/* where the facts come from: the running system, or a test's tree */
struct devstack_source {
	const char *sysfs; /* "/sys" */
	/*
	 * the live table of dm device name ("dm-0"), at most max segments:
	 * their count, or -errno
	 */
	int (*dm_table)(void *arg, const char *name, struct dm_segment *seg,
			unsigned int max);
	void *arg;
};

#define NAMES_MAX 32

struct name_list {
	unsigned int n;
	char name[NAMES_MAX][32];
};

/* the first line of attribute attr of name; its length or -errno */
ssize_t attr_read(const struct devstack_source *src, const char *name,
		  const char *attr, char *buf, size_t len);

/* a number attribute; 0, -ENOENT or -EINVAL */
int attr_u64(const struct devstack_source *src, const char *name,
	     const char *attr, uint64_t *out);

/* its "dev": major:minor; 0 or -ENOENT */
int attr_dev(const struct devstack_source *src, const char *name,
	     unsigned int *major, unsigned int *minor);

/* the entries of folder sub of name starting with prefix, sorted */
int list_dir(const struct devstack_source *src, const char *name,
	     const char *sub, const char *prefix, struct name_list *out);

/* has name a folder sub (md, dm, slaves)? */
bool is_dir(const struct devstack_source *src, const char *name,
	    const char *sub);

#endif
