// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "target/image.h"
#include "target/mount.h"
#include "target/scratch.h"
#include "target/target.h"
#include "util/log.h"

unsigned int target_kernel_dev(dev_t dev)
{
	return (major(dev) << 20) | minor(dev);
}

int target_preflight(const struct target_spec *spec)
{
	return scratch_check(spec->scratch, spec->image_size);
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

int target_up(struct target *t, const struct target_spec *spec,
	      struct teardown *td)
{
	int err;

	memset(t, 0, sizeof(*t));
	t->spec = *spec;
	t->loop.fd = -1;

	err = scratch_make_rundir(spec->scratch, t->rundir, sizeof(t->rundir),
				  td);
	if (err)
		return err;
	err = path_join(t->image, sizeof(t->image), t->rundir, "image");
	if (!err)
		err = path_join(t->mnt, sizeof(t->mnt), t->rundir, "mnt");
	if (err)
		return err;

	err = image_create(t->image, spec->image_size, td);
	if (err)
		return err;
	err = loopdev_attach(&t->loop, t->image, td);
	if (err)
		return err;
	t->kernel_dev = target_kernel_dev(t->loop.dev);
	log_debug("%s: %s on %s (dev %u:%u), direct IO on", spec->fstype,
		  t->image, t->loop.path, major(t->loop.dev),
		  minor(t->loop.dev));

	err = mkfs_run(spec->fstype, t->loop.path, spec->mkfs_opts, &t->mkfs);
	if (err)
		return err;
	err = mount_fs(t->loop.path, t->mnt, spec->fstype, spec->mount_opts,
		       td);
	if (err)
		return err;
	err = mount_read_options(t->mnt, t->mount_opts, sizeof(t->mount_opts),
				 t->super_opts, sizeof(t->super_opts));
	if (err) {
		log_error("%s is not in /proc/self/mountinfo after mounting it",
			  t->mnt);
		return err;
	}
	/* after mkfs: making the filesystem is not what is measured */
	if (spec->model)
		return throttle_apply(spec->model, t->loop.dev, td);
	return 0;
}

void target_free(struct target *t)
{
	free(t->mkfs.output);
	t->mkfs.output = NULL;
}
