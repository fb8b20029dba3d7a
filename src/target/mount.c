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
#include "target/mount_holder.h"
#include "target/mountopts.h"
#include "util/log.h"

/*
 * A mount still busy this many 100 ms tries into the teardown's wait is
 * asked who holds it: a writer that just finished has let go by then, and
 * a live process that still holds it (a traced command's child in a
 * session of its own, setsid, which ending the command's process group
 * does not reach) would not let go in the rest of the 5 s either - that
 * the teardown spent with signals blocked.
 */
#define MOUNT_HOLDER_LOOK 5

/*
 * Unmount dir, waiting up to 5 s while it is busy (a just-finished writer
 * or udev may still hold it for a moment): 0, -EBUSY after 5 s, or -errno.
 * EINVAL (flags 0) means dir is no mount point: a mount again (--cold)
 * whose mount failed after its unmount left nothing to undo. With holder,
 * a live process still holding it at MOUNT_HOLDER_LOOK ends the wait:
 * -EBUSY, its pid in *holder and its name in comm.
 */
static int mount_unmount(const char *dir, pid_t *holder, char *comm,
			 size_t len)
{
	int i;

	for (i = 0; i < 50; i++) {
		if (!umount2(dir, 0) || errno == EINVAL)
			return 0;
		if (errno != EBUSY)
			return -errno;
		if (holder && i == MOUNT_HOLDER_LOOK) {
			*holder = mount_holder(dir, comm, len);
			if (*holder > 0)
				return -EBUSY;
		}
		usleep(100000);
	}
	return -EBUSY;
}

/* the teardown's unmount: a mount still busy is detached lazily, said */
static int mount_undo(void *arg)
{
	const char *dir = arg;
	char comm[32];
	pid_t holder = 0;
	int err = mount_unmount(dir, &holder, comm, sizeof(comm));

	if (err != -EBUSY)
		return err;
	if (holder > 0)
		log_warn("%s is held by pid %d (%s); detaching it lazily", dir,
			 (int)holder, comm);
	else
		log_warn("%s still busy after 5 s; detaching it lazily", dir);
	return umount2(dir, MNT_DETACH) ? -errno : 0;
}

int mount_remove(const char *dir)
{
	char comm[32];
	pid_t holder;

	if (!umount2(dir, 0) || errno == EINVAL)
		return 0;
	if (errno != EBUSY)
		return -errno;
	/* a dead run's command, still running in it, never lets go */
	holder = mount_holder(dir, comm, sizeof(comm));
	if (holder <= 0)
		return mount_undo((void *)dir);
	log_warn("%s is held by pid %d (%s); detaching it lazily", dir,
		 (int)holder, comm);
	return umount2(dir, MNT_DETACH) ? -errno : 0;
}

static int mountdir_remove(void *arg)
{
	const char *dir = arg;

	return rmdir(dir) ? -errno : 0;
}

/* mount(2) with options split into flags and data; said when it fails */
static int mount_call(const char *device, const char *dir, const char *fstype,
		      const char *options)
{
	struct mount_args args;
	int err, kmsg;

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
	return 0;
}

int mount_fs(const char *device, const char *dir, const char *fstype,
	     const char *options, struct teardown *td)
{
	int err, rec;

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
	err = mount_call(device, dir, fstype, options);
	if (err)
		return err;
	return teardown_push_recorded(td, rec, mount_undo, (void *)dir,
				      "unmount %s", dir);
}

int mount_again(const char *device, const char *dir, const char *fstype,
		const char *options)
{
	int err = mount_unmount(dir, NULL, NULL, 0);

	if (err == -EBUSY) {
		log_error(
			"cannot unmount %s to empty its caches: still busy after 5 s (a process holds a file or directory in it open)",
			dir);
		return err;
	}
	if (err) {
		log_error("unmount %s to empty its caches: %s", dir,
			  strerror_safe(-err));
		return err;
	}
	/* the teardown's unmount finds no mount if this fails: nothing left */
	return mount_call(device, dir, fstype, options);
}
