// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "model/disk.h"
#include "target/blockdev.h"
#include "target/devinfo.h"
#include "target/devlock.h"
#include "target/image.h"
#include "target/mount.h"
#include "target/mountinfo.h"
#include "target/remove_tree.h"
#include "target/scratch.h"
#include "target/target.h"
#include "util/kdev.h"
#include "util/log.h"
#include "util/parse.h"

unsigned int target_kernel_dev(dev_t dev)
{
	return kdev_encode(dev);
}

/*
 * Room for the workload in an existing filesystem: free bytes for its data
 * and, where the filesystem has a fixed number of inodes (ext4; XFS and
 * btrfs make them as needed and report a large or zero count), free inodes
 * for its files. Says which of the two is short.
 */
static int dir_check(const char *dir, uint64_t bytes, uint64_t files)
{
	char want[32], have[32];
	struct statvfs vfs;
	struct stat st;

	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		log_error("--dir %s: %s", dir,
			  errno ? strerror_safe(errno) : "not a directory");
		return -ENOTDIR;
	}
	if (access(dir, W_OK | X_OK) || statvfs(dir, &vfs) ||
	    (vfs.f_flag & ST_RDONLY)) {
		log_error("--dir %s is not writable", dir);
		return -EACCES;
	}
	if ((uint64_t)vfs.f_bavail * vfs.f_frsize < bytes) {
		format_bytes(bytes, want, sizeof(want));
		format_bytes((uint64_t)vfs.f_bavail * vfs.f_frsize, have,
			     sizeof(have));
		log_error(
			"--dir %s has %s free but the workload's data needs %s: free space there, or make the workload smaller (fsprof list workloads)",
			dir, have, want);
		return -ENOSPC;
	}
	if (vfs.f_files && (uint64_t)vfs.f_favail < files) {
		log_error(
			"--dir %s has %llu free inodes but the workload makes %llu files and directories: use a filesystem with more inodes (mkfs.ext4 -i, or XFS), or fewer files",
			dir, (unsigned long long)vfs.f_favail,
			(unsigned long long)files);
		return -ENOSPC;
	}
	return 0;
}

/*
 * --dir and --device: the model is a disk served under the traced loop
 * device, and nothing can be put under an existing filesystem or device
 */
static int model_refused(const char *option, const char *where)
{
	log_error(
		"--device-model needs an image target: the model is a disk fsprof serves under the traced loop device, and nothing can be put under the existing %s %s. Run on an image (no --dir or --device), or without --device-model",
		option, where);
	return -EINVAL;
}

/* --device DEV[,DEV]...: the paths into devs; the count, or < 0 (said) */
static int device_list(const struct target_spec *spec, char devs[][PATH_MAX])
{
	char why[PATH_MAX + 128];
	int n = stack_devices_parse(spec->device, devs[0], PATH_MAX,
				    STACK_SPEC_MAX_MEMBERS, why, sizeof(why));

	if (n < 0)
		log_error("%s", why);
	else if ((unsigned int)n != stack_spec_devices(spec->stack)) {
		log_error("--device %s: %d device(s) given, %u needed",
			  spec->device, n, stack_spec_devices(spec->stack));
		n = -EINVAL;
	}
	return n;
}

/* every member as a plain --device: free, safe to format */
static int device_preflight(const struct target_spec *spec)
{
	char devs[STACK_SPEC_MAX_MEMBERS][PATH_MAX];
	int i, n = device_list(spec, devs);
	dev_t dev;

	if (n < 0)
		return n;
	for (i = 0; i < n; i++) {
		/* another run's mount would look like a stranger's */
		if (blockdev_dev(devs[i], &dev) || devlock_check(dev, devs[i]))
			return -EBUSY;
		if (blockdev_check_formattable(devs[i], spec->force, &dev))
			return -EINVAL;
		/* refused before mkfs, not after */
		if (device_model_active(spec->model))
			return model_refused("device", devs[i]);
	}
	return 0;
}

int target_preflight(const struct target_spec *spec)
{
	switch (spec->kind) {
	case TARGET_IMAGE:
		return scratch_check(spec->scratch, spec->image_size);
	case TARGET_DEVICE:
		return device_preflight(spec);
	case TARGET_DIR:
		if (device_model_active(spec->model))
			return model_refused("filesystem of --dir", spec->dir);
		return dir_check(spec->dir, spec->space_needed,
				 spec->files_needed) ?
			       -EINVAL :
			       0;
	}
	return -EINVAL;
}

static int path_join(char *out, size_t len, const char *dir, const char *name)
{
	int n = snprintf(out, len, "%s/%s", dir, name);

	if (n < 0 || (size_t)n >= len) {
		log_error("path %s/%s is too long", dir, name);
		return -ENAMETOOLONG;
	}
	return 0;
}

/* mkfs the device and mount it on t->mnt */
static int target_make_fs(struct target *t, struct teardown *td)
{
	const struct target_spec *spec = &t->spec;
	int err;

	err = mkfs_run(spec->fstype, t->devpath, spec->mkfs_opts, &t->mkfs);
	if (err)
		return err;
	blockdev_fs_uuid(t->devpath, t->fs_uuid, sizeof(t->fs_uuid));
	err = mount_fs(t->devpath, t->mnt, spec->fstype, spec->mount_opts, td);
	if (err)
		return err;
	snprintf(t->workdir, sizeof(t->workdir), "%s", t->mnt);
	return 0;
}

/*
 * --raid / --dm: member images and loops, md, dm; the fs on the top. With
 * a device model each member is a disk of the model of its own, turned on
 * after mkfs (model_engage)
 */
static int target_up_stack(struct target *t, struct teardown *td)
{
	const struct stack_build b = { .spec = t->spec.stack,
				       .rundir = t->rundir,
				       .fs_size = t->spec.image_size,
				       .model = t->spec.model };
	struct stack_devs *sd = &t->stack;
	int err;

	err = stack_up(sd, &b, td);
	if (err)
		return err;
	/* the first member stands for the image and loop in the report */
	snprintf(t->image, sizeof(t->image), "%s", sd->image[0]);
	t->loop = sd->member[0];
	if (device_model_active(t->spec.model)) {
		t->lower = sd->lower[0];
		t->model_at = MODEL_LOWER_LOOP;
		t->model_dev = sd->lower[0].dev;
	}
	snprintf(t->devpath, sizeof(t->devpath), "%s", sd->devpath);
	t->fs_dev = sd->dev;
	return target_make_fs(t, td);
}

static int target_up_image(struct target *t, struct teardown *td)
{
	const struct target_spec *spec = &t->spec;
	int err;

	err = scratch_make_rundir(spec->scratch, t->rundir, sizeof(t->rundir),
				  td);
	if (err)
		return err;
	err = path_join(t->image, sizeof(t->image), t->rundir, "image");
	if (!err)
		err = path_join(t->mnt, sizeof(t->mnt), t->rundir, "mnt");
	if (!err && spec->stack && stack_spec_active(spec->stack))
		return target_up_stack(t, td);
	if (!err)
		err = image_create(t->image, spec->image_size, td);
	if (err)
		return err;
	if (device_model_active(spec->model)) {
		/* the model is turned on after mkfs */
		char dir[PATH_MAX];

		err = path_join(dir, sizeof(dir), t->rundir, "model");
		if (!err)
			err = model_disk_up(&t->model, spec->model, t->image,
					    spec->image_size, dir, &t->lower,
					    &t->loop, td);
		t->model_at = MODEL_LOWER_LOOP;
		t->model_dev = t->lower.dev;
	} else {
		err = loopdev_attach(&t->loop, t->image, td);
	}
	if (err)
		return err;
	snprintf(t->devpath, sizeof(t->devpath), "%s", t->loop.path);
	t->fs_dev = t->loop.dev;
	return target_make_fs(t, td);
}

/* the stack of --raid / --dm on the user's devices, the fs on its top */
static int target_up_devstack(struct target *t, const char *const *devs,
			      unsigned int n, struct teardown *td)
{
	const struct stack_build b = { .spec = t->spec.stack,
				       .rundir = t->rundir,
				       .devices = devs,
				       .n_devices = n };
	int err = stack_up(&t->stack, &b, td);

	if (err)
		return err;
	snprintf(t->devpath, sizeof(t->devpath), "%s", t->stack.devpath);
	t->fs_dev = t->stack.dev;
	return target_make_fs(t, td);
}

static int target_up_device(struct target *t, struct teardown *td)
{
	const struct target_spec *spec = &t->spec;
	char devs[STACK_SPEC_MAX_MEMBERS][PATH_MAX];
	const char *paths[STACK_SPEC_MAX_MEMBERS];
	int i, n = device_list(spec, devs);
	int err = n < 0 ? n : 0;

	/* locked, then checked again right before formatting: things change */
	for (i = 0; !err && i < n; i++) {
		paths[i] = devs[i];
		err = blockdev_dev(devs[i], &t->fs_dev);
		if (!err)
			err = devlock_take(t->fs_dev, devs[i], td);
		if (!err)
			err = blockdev_check_formattable(devs[i], spec->force,
							 &t->fs_dev);
	}
	if (err)
		return err;
	snprintf(t->devpath, sizeof(t->devpath), "%s", devs[0]);
	err = scratch_make_rundir(spec->scratch, t->rundir, sizeof(t->rundir),
				  td);
	if (!err)
		err = path_join(t->mnt, sizeof(t->mnt), t->rundir, "mnt");
	if (err)
		return err;
	if (spec->stack && stack_spec_active(spec->stack))
		return target_up_devstack(t, paths, (unsigned int)n, td);
	return target_make_fs(t, td);
}

static int workdir_remove(void *arg)
{
	return remove_tree(arg);
}

static int target_up_dir(struct target *t, struct teardown *td)
{
	struct mountinfo_entry *e;
	struct stat st;
	int err, rec;

	err = path_join(t->workdir, sizeof(t->workdir), t->spec.dir,
			"fsprof.XXXXXX");
	if (err)
		return err;
	if (!mkdtemp(t->workdir)) {
		err = -errno;
		log_error("--dir %s: cannot create a work directory: %s",
			  t->spec.dir, strerror_safe(-err));
		return err;
	}
	/* recorded once it exists: mkdtemp picks the name */
	rec = teardown_record(td, "workdir", t->workdir);
	if (rec < 0) {
		rmdir(t->workdir);
		return rec;
	}
	err = teardown_push_recorded(td, rec, workdir_remove, t->workdir,
				     "remove %s", t->workdir);
	if (err)
		return err;
	t->fs_dev = devinfo_fs_device(t->workdir);
	e = malloc(sizeof(*e));
	if (!e || stat(t->workdir, &st))
		err = e ? -errno : -ENOMEM;
	if (!err &&
	    !mountinfo_find_by_dev(major(st.st_dev), minor(st.st_dev), e)) {
		snprintf(t->fstype, sizeof(t->fstype), "%s", e->fstype);
		snprintf(t->mnt, sizeof(t->mnt), "%s", e->mountpoint);
		if (t->fs_dev)
			snprintf(t->devpath, sizeof(t->devpath), "%s",
				 e->source);
	}
	free(e);
	if (!err && !t->fs_dev)
		snprintf(
			t->untraced, sizeof(t->untraced),
			"%s (%s) has no block device: block, journal and filesystem tracing is unavailable; only user-side metrics are measured",
			t->spec.dir, t->fstype[0] ? t->fstype : "unknown");
	return err;
}

/*
 * After mkfs: making the filesystem is not what is measured. A stack's
 * members are each a disk of the model, as the disks of an array each
 * have their own.
 */
static int model_engage(struct target *t, struct teardown *td)
{
	struct stack_devs *sd = &t->stack;
	unsigned int i;
	int err = 0;

	if (!sd->n)
		return model_daemon_engage(&t->model, td);
	for (i = 0; !err && i < sd->n; i++)
		err = model_daemon_engage(&sd->model[i], td);
	return err;
}

void target_model_stats(const struct target *t, struct model_stats *sum,
			uint64_t *round_trip_ns)
{
	const struct stack_devs *sd = &t->stack;
	const struct model_daemon *md;
	struct model_stats s;
	unsigned int i, n = sd->n ? sd->n : 1;

	memset(sum, 0, sizeof(*sum));
	*round_trip_ns = 0;
	if (t->model_at != MODEL_LOWER_LOOP)
		return;
	for (i = 0; i < n; i++) {
		md = sd->n ? &sd->model[i] : &t->model;
		model_daemon_stats(md, &s);
		sum->charged += s.charged;
		sum->modelled_ns += s.modelled_ns;
		sum->short_requests += s.short_requests;
		sum->short_excess_ns += s.short_excess_ns;
		if (md->round_trip[DISK_READ] > *round_trip_ns)
			*round_trip_ns = md->round_trip[DISK_READ];
	}
}

int target_model_check(struct target *t)
{
	struct stack_devs *sd = &t->stack;
	unsigned int i;
	int err = 0;

	if (t->model_at != MODEL_LOWER_LOOP)
		return 0;
	if (!sd->n)
		return model_daemon_check(&t->model);
	for (i = 0; !err && i < sd->n; i++)
		err = model_daemon_check(&sd->model[i]);
	return err;
}

int target_up(struct target *t, const struct target_spec *spec,
	      struct teardown *td)
{
	struct mountinfo_entry *e;
	int err = -EINVAL;

	memset(t, 0, sizeof(*t));
	t->spec = *spec;
	t->loop.fd = -1;
	t->lower.fd = -1;
	t->model.pidfd = -1;
	switch (spec->kind) {
	case TARGET_IMAGE:
		err = target_up_image(t, td);
		break;
	case TARGET_DEVICE:
		err = target_up_device(t, td);
		break;
	case TARGET_DIR:
		err = target_up_dir(t, td);
		break;
	}
	if (err)
		return err;
	if (t->fs_dev)
		t->disk_dev = devinfo_whole_disk(t->fs_dev);
	e = calloc(1, sizeof(*e));
	if (e && !mountinfo_find_by_dir(t->mnt, e)) {
		snprintf(t->fstype, sizeof(t->fstype), "%s", e->fstype);
		snprintf(t->mount_opts, sizeof(t->mount_opts), "%s",
			 e->mnt_opts);
		snprintf(t->super_opts, sizeof(t->super_opts), "%s",
			 e->super_opts);
	}
	free(e);
	if (t->model_at != MODEL_LOWER_LOOP)
		return 0;
	return model_engage(t, td);
}

int target_mount_again(struct target *t)
{
	if (t->spec.kind == TARGET_DIR) {
		log_error(
			"%s: a --dir target's filesystem is not fsprof's to unmount, so its caches cannot be emptied alone",
			t->workdir);
		return -EOPNOTSUPP;
	}
	return mount_again(t->devpath, t->mnt, t->spec.fstype,
			   t->spec.mount_opts);
}

void target_free(struct target *t)
{
	free(t->mkfs.output);
	t->mkfs.output = NULL;
}
