// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/dm-ioctl.h>

#include "target/dmdev.h"
#include "util/ioctl_path.h"
#include "util/log.h"
#include "util/spawn.h"
#include "util/sysfile.h"

int dmdev_remove_name(const char *name)
{
	struct dm_ioctl io;

	memset(&io, 0, sizeof(io));
	io.version[0] = DM_VERSION_MAJOR;
	io.data_size = sizeof(io);
	io.data_start = sizeof(io);
	snprintf(io.name, sizeof(io.name), "%s", name);
	return ioctl_path("/dev/mapper/control", O_RDWR, DM_DEV_REMOVE, &io);
}

static int dmdev_remove(void *arg)
{
	const struct dmdev *dm = arg;
	int err = dmdev_remove_name(dm->name);

	if (err)
		log_error("remove dm device %s: %s", dm->name, strerror(-err));
	return err;
}

int dmdev_find(const char *name, char *kname, size_t len)
{
	char path[512], buf[128];
	struct dirent *e;
	int err = -ENOENT;
	DIR *d = opendir("/sys/block");

	if (!d)
		return -errno;
	while (err && (e = readdir(d))) {
		if (strncmp(e->d_name, "dm-", 3))
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/dm/name",
			 e->d_name);
		if (sysfile_read_line(path, buf, sizeof(buf)) > 0 &&
		    !strcmp(buf, name)) {
			snprintf(kname, len, "%s", e->d_name);
			err = 0;
		}
	}
	closedir(d);
	return err;
}

/* dmsetup create, not waiting for a udev (a guest has none) */
static int dmsetup_create(const char *name, const char *table)
{
	const char *argv[] = { "dmsetup", "create", name, "--noudevsync",
			       "--table", table,    NULL };

	return spawn_run_said((char *const *)argv);
}

int dmdev_create_linear(struct dmdev *dm, const char *name, dev_t below,
			uint64_t offset, uint64_t sectors, struct teardown *td)
{
	char table[128], kname[24];
	struct stat st;
	int err, rec;

	snprintf(dm->name, sizeof(dm->name), "%s", name);
	snprintf(table, sizeof(table), "0 %" PRIu64 " linear %u:%u %" PRIu64,
		 sectors, major(below), minor(below), offset);
	rec = teardown_record(td, "dm", dm->name);
	if (rec < 0)
		return rec;
	err = dmsetup_create(dm->name, table);
	if (err) {
		dmdev_remove_name(dm->name); /* half made: gone again */
		return err;
	}
	err = teardown_push_recorded(td, rec, dmdev_remove, dm,
				     "remove dm device %s", dm->name);
	if (err) {
		dmdev_remove(dm);
		return err;
	}
	err = dmdev_find(dm->name, kname, sizeof(kname));
	if (!err) {
		snprintf(dm->path, sizeof(dm->path), "/dev/%s", kname);
		if (stat(dm->path, &st) || !S_ISBLK(st.st_mode))
			err = -ENODEV;
	}
	if (err) {
		log_error("dm device %s was created but has no /dev/dm-N here",
			  dm->name);
		return err;
	}
	dm->dev = st.st_rdev;
	return 0;
}
