// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/fs.h>

#include "target/image.h"
#include "target/stack_up.h"
#include "util/ioctl_path.h"
#include "util/log.h"
#include "util/spawn.h"

/* room for md's superblock and data offset on every member */
#define MEMBER_SLACK (8ULL << 20)
#define MIB (1ULL << 20)

/*
 * A driver that is a module not loaded yet: modprobe it, quietly (the
 * features were checked: a guest's init has loaded them already)
 */
static void modules_load(const struct stack_spec *s)
{
	const char *md[] = { "modprobe", "-q", "md_mod", NULL, NULL };
	const char *dm[] = { "modprobe", "-q", "dm_mod", NULL };
	struct spawn_result res = { 0 };

	if (s->raid_members) {
		md[3] = s->raid_level ? "raid1" : "raid0";
		if (!spawn_capture((char *const *)md, &res))
			free(res.output);
	}
	if (s->dm_linear && access("/dev/mapper/control", F_OK) &&
	    !spawn_capture((char *const *)dm, &res))
		free(res.output);
}

static uint64_t member_size(const struct stack_spec *s, uint64_t fs_size)
{
	uint64_t size = fs_size;

	if (s->raid_members && !s->raid_level)
		size = fs_size / s->raid_members; /* RAID0: they add up */
	size = (size + MIB - 1) / MIB * MIB;
	return size + MEMBER_SLACK + (s->dm_linear ? MIB : 0);
}

int model_disk_up(struct model_daemon *md, const struct device_model *m,
		  const char *image, uint64_t size, const char *dir,
		  struct loopdev *lower, struct loopdev *loop,
		  struct teardown *td)
{
	int err = model_daemon_start(md, m, image, size, dir, td);

	if (!err)
		err = loopdev_attach(lower, md->file, td);
	if (!err)
		err = loopdev_attach(loop, lower->path, td);
	/* before mkfs, md and dm: they read it then */
	if (!err && m->rotational >= 0)
		err = loopdev_set_rotational(loop, m->rotational);
	if (!err)
		err = model_daemon_probe(md, loop->path);
	return err;
}

/*
 * A member's loop: on its image, or with a device model on a disk of the
 * model of its own (model.m<N> in the run directory)
 */
static int member_up(struct stack_devs *sd, unsigned int i, uint64_t size,
		     const struct stack_build *b, struct teardown *td)
{
	char dir[PATH_MAX];

	if (!device_model_active(b->model))
		return loopdev_attach(&sd->member[i], sd->image[i], td);
	snprintf(dir, sizeof(dir), "%s/model.m%u", b->rundir, i);
	return model_disk_up(&sd->model[i], b->model, sd->image[i], size, dir,
			     &sd->lower[i], &sd->member[i], td);
}

static int members_up(struct stack_devs *sd, const struct stack_build *b,
		      uint64_t size, struct teardown *td)
{
	unsigned int i;
	int err = 0;

	sd->n = b->spec->raid_members ? b->spec->raid_members : 1;
	for (i = 0; !err && i < sd->n; i++) {
		/* image.m0, image.m1...: fsprof cleanup knows them by name */
		snprintf(sd->image[i], sizeof(sd->image[i]), "%s/image.m%u",
			 b->rundir, i);
		err = image_create(sd->image[i], size, td);
		if (!err)
			err = member_up(sd, i, size, b, td);
	}
	return err;
}

/* --device: the given devices, each with its number */
static int devices_take(struct stack_devs *sd, const struct stack_build *b,
			struct teardown *td)
{
	const char *paths[STACK_SPEC_MAX_MEMBERS];
	struct stat st;
	unsigned int i;

	sd->on_devices = true;
	sd->n = b->n_devices;
	for (i = 0; i < sd->n; i++) {
		snprintf(sd->device[i], sizeof(sd->device[i]), "%s",
			 b->devices[i]);
		paths[i] = sd->device[i];
		if (stat(paths[i], &st) || !S_ISBLK(st.st_mode)) {
			log_error("%s is not a block device", paths[i]);
			return -ENOTBLK;
		}
		sd->member[i].dev = st.st_rdev;
	}
	return b->spec->raid_members ? mdarray_members_claim(paths, sd->n, td) :
				       0;
}

static const char *member_path(const struct stack_devs *sd, unsigned int i)
{
	return sd->on_devices ? sd->device[i] : sd->member[i].path;
}

static int sectors_of(const char *path, uint64_t *sectors)
{
	uint64_t bytes = 0;
	int err = ioctl_path(path, O_RDONLY, BLKGETSIZE64, &bytes);

	*sectors = bytes / 512;
	return err;
}

static int dm_up(struct stack_devs *sd, const char *rundir, const char *below,
		 dev_t below_dev, struct teardown *td)
{
	const char *base = strrchr(rundir, '.');
	uint64_t sectors = 0;
	char name[64];
	int err = sectors_of(below, &sectors);

	if (err || sectors <= STACK_DM_OFFSET) {
		log_error("%s: cannot read its size for the dm-linear table",
			  below);
		return err ? err : -ENOSPC;
	}
	/* named for the run directory: fsprof cleanup's proof */
	snprintf(name, sizeof(name), DMDEV_PREFIX "%s", base ? base + 1 : "x");
	return dmdev_create_linear(&sd->dm, name, below_dev, STACK_DM_OFFSET,
				   sectors - STACK_DM_OFFSET, td);
}

int stack_up(struct stack_devs *sd, const struct stack_build *b,
	     struct teardown *td)
{
	const struct stack_spec *s = b->spec;
	const char *paths[STACK_SPEC_MAX_MEMBERS];
	const char *below;
	dev_t below_dev;
	unsigned int i;
	int err;

	modules_load(s);
	err = b->devices ? devices_take(sd, b, td) :
			   members_up(sd, b, member_size(s, b->fs_size), td);
	if (err)
		return err;
	below = member_path(sd, 0);
	below_dev = sd->member[0].dev;
	if (s->raid_members) {
		for (i = 0; i < sd->n; i++)
			paths[i] = member_path(sd, i);
		err = mdarray_create(&sd->md, s->raid_level, paths, sd->n, td);
		if (err)
			return err;
		below = sd->md.path;
		below_dev = sd->md.dev;
	}
	if (s->dm_linear) {
		err = dm_up(sd, b->rundir, below, below_dev, td);
		if (err)
			return err;
		below = sd->dm.path;
		below_dev = sd->dm.dev;
	}
	snprintf(sd->devpath, sizeof(sd->devpath), "%s", below);
	sd->dev = below_dev;
	return 0;
}
