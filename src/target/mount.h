/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FSPROF_MOUNT_H
#define FSPROF_MOUNT_H

#include <stddef.h>

#include "util/teardown.h"

/* mount device on dir (created here) with data options; undo onto td */
int mount_fs(const char *device, const char *dir, const char *fstype,
	     const char *options, struct teardown *td);

/*
 * Unmount dir (fsprof cleanup): when a live process holds it
 * (mount_holder), detach it lazily at once, saying which; else wait up to
 * 5 s for it to be idle, then detach it lazily. 0 or -errno.
 */
int mount_remove(const char *dir);

/*
 * Unmount dir and mount device there again with the same options: the
 * filesystem's page cache, dentries, inodes and metadata buffers go, the
 * device under it stays (--cold). Never detaches lazily: a busy mount is
 * an error (-EBUSY), said. The teardown step mount_fs pushed still
 * unmounts it; after a failed mount here, it finds nothing to undo.
 */
int mount_again(const char *device, const char *dir, const char *fstype,
		const char *options);

#endif
