/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FSPROF_LOOPDEV_H
#define FSPROF_LOOPDEV_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "util/teardown.h"

struct loopdev {
	char path[32]; /* /dev/loopN */
	int nr;
	int fd;
	dev_t dev;
	bool dio; /* /sys/block/loopN/loop/dio reads 1 */
};

/*
 * Attach image to a free loop device with direct IO (LOOP_CONFIGURE with
 * LO_FLAGS_DIRECT_IO) and check the kernel really enabled it. The detach
 * goes onto td.
 */
int loopdev_attach(struct loopdev *loop, const char *image,
		   struct teardown *td);

/* write /sys/block/loopN/queue/rotational (what filesystems see of the disk) */
/*
 * The loop device whose backing file is backing (a path, as given at
 * attach): its /dev/loopN into path. 0, or -ENOENT when there is none.
 */
int loopdev_find_by_backing(const char *backing, char *path, size_t len);

/* The backing file of loop device dev (sysfs). 0, or -ENOENT. */
int loopdev_backing(dev_t dev, char *out, size_t len);

/* Detach the loop device at path (fsprof cleanup). 0 or -errno. */
int loopdev_detach_path(const char *path);

int loopdev_set_rotational(const struct loopdev *loop, int rotational);

#endif
