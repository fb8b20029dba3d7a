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
int loopdev_set_rotational(const struct loopdev *loop, int rotational);

#endif
