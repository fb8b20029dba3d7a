// SPDX-License-Identifier: GPL-2.0
#include <blkid/blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "target/blockdev.h"
#include "target/devinfo.h"
#include "util/log.h"

/* "ext4 filesystem", "dos partition table", or "" when blank */
static int blockdev_signature(const char *path, char *what, size_t len)
{
	const char *type = NULL, *usage = NULL;
	blkid_probe pr;
	int rc;

	what[0] = '\0';
	pr = blkid_new_probe_from_filename(path);
	if (!pr)
		return -errno ? -errno : -EIO;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE |
						      BLKID_SUBLKS_USAGE);
	blkid_probe_enable_partitions(pr, 1);
	rc = blkid_do_safeprobe(pr);
	if (rc == 0) {
		if (!blkid_probe_lookup_value(pr, "TYPE", &type, NULL)) {
			blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
			snprintf(what, len, "%s %s", type,
				 usage ? usage : "signature");
		} else if (!blkid_probe_lookup_value(pr, "PTTYPE", &type,
						     NULL)) {
			snprintf(what, len, "%s partition table", type);
		} else {
			snprintf(what, len, "an unidentified signature");
		}
	} else if (rc == -2) {
		snprintf(what, len, "several conflicting signatures");
	}
	blkid_free_probe(pr);
	return rc == -1 ? -EIO : 0;
}

int blockdev_dev(const char *path, dev_t *dev)
{
	struct stat st;

	if (stat(path, &st)) {
		log_error("--device %s: %s", path, strerror_safe(errno));
		return -errno;
	}
	if (!S_ISBLK(st.st_mode)) {
		log_error("--device %s is not a block device", path);
		return -ENOTBLK;
	}
	*dev = st.st_rdev;
	return 0;
}

int blockdev_check_formattable(const char *path, bool force, dev_t *dev)
{
	char what[128];
	dev_t root;
	int fd;

	if (blockdev_dev(path, dev))
		return -ENODEV;
	root = devinfo_root_device();
	if (root && (*dev == root || *dev == devinfo_whole_disk(root))) {
		log_error(
			"--device %s holds the root filesystem (or is its disk): fsprof never formats it",
			path);
		return -EPERM;
	}
	if (devinfo_blockdev_in_use(*dev)) {
		log_error(
			"--device %s (or a partition of it) is mounted: unmount it first; fsprof never formats a mounted device",
			path);
		return -EBUSY;
	}
	/* O_EXCL fails for devices held by a mount, swap, md or dm */
	fd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		log_error(
			"--device %s is in use (%s): swap, RAID or device-mapper may hold it",
			path, strerror_safe(errno));
		return -EBUSY;
	}
	close(fd);
	if (blockdev_signature(path, what, sizeof(what))) {
		log_error("--device %s: libblkid cannot probe it", path);
		return -EIO;
	}
	if (what[0] && !force) {
		log_error(
			"--device %s holds %s (libblkid); fsprof will not format it without --force",
			path, what);
		return -EEXIST;
	}
	if (what[0])
		log_warn("--device %s holds %s; formatting it anyway (--force)",
			 path, what);
	return 0;
}

void blockdev_fs_uuid(const char *path, char *buf, size_t len)
{
	const char *uuid = NULL;
	blkid_probe pr;

	buf[0] = '\0';
	pr = blkid_new_probe_from_filename(path);
	if (!pr)
		return;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_UUID);
	if (!blkid_do_safeprobe(pr) &&
	    !blkid_probe_lookup_value(pr, "UUID", &uuid, NULL))
		snprintf(buf, len, "%s", uuid);
	blkid_free_probe(pr);
}
