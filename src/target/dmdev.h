/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A dm-linear device fsprof puts under an image target's filesystem
 * (--dm linear): created with dmsetup, removed with the DM_DEV_REMOVE
 * ioctl (teardown, and fsprof cleanup after a kill).
 */
#ifndef FSPROF_DMDEV_H
#define FSPROF_DMDEV_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "util/teardown.h"

/* fsprof's dm devices are named fsprof-<its run directory's suffix> */
#define DMDEV_PREFIX "fsprof-"

struct dmdev {
	char name[64]; /* dm name: "fsprof-5U5PqQ" */
	char path[32]; /* "/dev/dm-3" */
	dev_t dev;
};

/*
 * Create name: a linear map of sectors of below, starting offset sectors
 * into it; recorded ("dm NAME") before it is made, its removal onto td.
 */
int dmdev_create_linear(struct dmdev *dm, const char *name, dev_t below,
			uint64_t offset, uint64_t sectors, struct teardown *td);

/* the dm device named name: its sysfs name ("dm-3"); 0 or -ENOENT */
int dmdev_find(const char *name, char *kname, size_t len);

/* remove the dm device named name; 0 or -errno */
int dmdev_remove_name(const char *name);

#endif
