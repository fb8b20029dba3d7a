// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "target/devinfo.h"
#include "target/mountinfo.h"
#include "util/sysfile.h"

dev_t devinfo_whole_disk(dev_t dev)
{
	char path[PATH_MAX], buf[32] = "";
	unsigned int maj, min;

	/* /sys/dev/block/M:m/partition exists for partitions only */
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/partition",
		 major(dev), minor(dev));
	if (access(path, F_OK))
		return dev;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/../dev", major(dev),
		 minor(dev));
	if (sysfile_read_line(path, buf, sizeof(buf)) < 0 ||
	    sscanf(buf, "%u:%u", &maj, &min) != 2)
		return dev;
	return makedev(maj, min);
}

dev_t devinfo_fs_device(const char *path)
{
	struct mountinfo_entry e;
	struct stat st;

	if (stat(path, &st))
		return 0;
	if (major(st.st_dev))
		return st.st_dev;
	/* anonymous st_dev (btrfs, tmpfs, overlay): the mount's source */
	if (mountinfo_find_by_dev(major(st.st_dev), minor(st.st_dev), &e))
		return 0;
	if (stat(e.source, &st) || !S_ISBLK(st.st_mode))
		return 0;
	return st.st_rdev;
}

dev_t devinfo_root_device(void)
{
	return devinfo_fs_device("/");
}

int devinfo_dev_path(dev_t dev, char *buf, size_t len)
{
	char path[PATH_MAX], line[256], name[128];
	int err = -ENOENT;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/uevent", major(dev),
		 minor(dev));
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (err && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "DEVNAME=%127s", name) == 1) {
			snprintf(buf, len, "/dev/%s", name);
			err = 0;
		}
	}
	fclose(f);
	return err;
}

static int sysfs_read_u64(dev_t dev, const char *name, uint64_t *v)
{
	char path[PATH_MAX];
	unsigned long long x;
	int err = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/%s", major(dev),
		 minor(dev), name);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (fscanf(f, "%llu", &x) != 1)
		err = -EIO;
	fclose(f);
	*v = x;
	return err;
}

int devinfo_partition_range(dev_t dev, uint64_t *start, uint64_t *sectors)
{
	int err;

	if (devinfo_whole_disk(dev) == dev)
		return -ENOENT;
	err = sysfs_read_u64(dev, "start", start);
	if (!err)
		err = sysfs_read_u64(dev, "size", sectors);
	return err;
}

bool devinfo_issues_requests(dev_t disk)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/mq", major(disk),
		 minor(disk));
	return !access(path, F_OK);
}

/* the mount's filesystem is on dev, or on a partition of disk dev */
static bool match_blockdev(const struct mountinfo_entry *e, const void *arg)
{
	const dev_t *dev = arg;
	dev_t src = makedev(e->major, e->minor);
	struct stat st;

	/* btrfs and others report an anonymous st_dev: ask the source */
	if (!e->major && !stat(e->source, &st) && S_ISBLK(st.st_mode))
		src = st.st_rdev;
	return src == *dev || devinfo_whole_disk(src) == *dev;
}

bool devinfo_blockdev_in_use(dev_t dev)
{
	struct mountinfo_entry e;

	return !mountinfo_find(match_blockdev, &dev, &e);
}

struct disk_other {
	dev_t disk, self;
};

/* a mount of a partition of disk that is not self (nor the whole disk) */
static bool match_other_partition(const struct mountinfo_entry *e,
				  const void *arg)
{
	const struct disk_other *o = arg;
	dev_t src = makedev(e->major, e->minor);
	struct stat st;

	if (!e->major && !stat(e->source, &st) && S_ISBLK(st.st_mode))
		src = st.st_rdev;
	return src != o->self && devinfo_whole_disk(src) == o->disk;
}

bool devinfo_sibling_mounted(dev_t part)
{
	struct disk_other o = { devinfo_whole_disk(part), part };
	struct mountinfo_entry e;

	return o.disk != part && !mountinfo_find(match_other_partition, &o, &e);
}
