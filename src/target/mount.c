// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "target/kmsg.h"
#include "target/mount.h"
#include "target/mountopts.h"
#include "util/log.h"

static int mount_undo(void *arg)
{
	const char *dir = arg;
	int i;

	/* a just-finished writer or udev may still hold it for a moment */
	for (i = 0; i < 50; i++) {
		if (!umount2(dir, 0))
			return 0;
		if (errno != EBUSY)
			return -errno;
		usleep(100000);
	}
	log_warn("%s still busy after 5 s; detaching it lazily", dir);
	return umount2(dir, MNT_DETACH) ? -errno : 0;
}

int mount_remove(const char *dir)
{
	return mount_undo((void *)dir);
}

static int mountdir_remove(void *arg)
{
	const char *dir = arg;

	return rmdir(dir) ? -errno : 0;
}

int mount_fs(const char *device, const char *dir, const char *fstype,
	     const char *options, struct teardown *td)
{
	struct mount_args args;
	int err, kmsg, rec;

	rec = teardown_record(td, "mountpoint", dir);
	if (rec < 0)
		return rec;
	if (mkdir(dir, 0755)) {
		err = errno;
		log_error("create mount point %s: %s", dir, strerror_safe(err));
		return -err;
	}
	err = teardown_push_recorded(td, rec, mountdir_remove, (void *)dir,
				     "remove %s", dir);
	if (err)
		return err;
	rec = teardown_record(td, "mount", dir);
	if (rec < 0)
		return rec;
	if (mountopts_split(options, &args)) {
		log_error("mount options '%s' are too long", options);
		return -E2BIG;
	}
	kmsg = kmsg_watch_begin();
	if (mount(device, dir, fstype, args.flags,
		  args.data[0] ? args.data : NULL)) {
		const char *words[] = { fstype, strrchr(device, '/') + 1,
					NULL };
		char why[1024];

		err = errno;
		kmsg_watch_end(kmsg, words, why, sizeof(why));
		log_error("mount %s on %s as %s with options '%s': %s%s%s",
			  device, dir, fstype, options ? options : "",
			  strerror_safe(err),
			  why[0] ? "; the kernel says: " : "", why);
		return -err;
	}
	kmsg_watch_end(kmsg, NULL, NULL, 0);
	return teardown_push_recorded(td, rec, mount_undo, (void *)dir,
				      "unmount %s", dir);
}
