// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/loop.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "target/loopdev.h"
#include "util/log.h"
#include "util/sysfile.h"

#define LOOP_ATTACH_TRIES 16

static int loopdev_detach(void *arg)
{
	struct loopdev *loop = arg;
	int err = 0;

	/*
	 * With other openers left (udev probing after umount) the kernel only
	 * marks the device autoclear and frees it when the last one closes.
	 */
	if (ioctl(loop->fd, LOOP_CLR_FD, 0) && errno != ENXIO)
		err = -errno;
	close(loop->fd);
	loop->fd = -1;
	return err;
}

static int loopdev_read_dio(const struct loopdev *loop, bool *dio)
{
	char path[64], val[8] = "";
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/block/loop%d/loop/dio", loop->nr);
	n = sysfile_read_line(path, val, sizeof(val));
	if (n < 0)
		return n == -ENODATA ? -EIO : (int)n;
	*dio = val[0] == '1';
	return 0;
}

static int loopdev_configure(struct loopdev *loop, int ctl, int backing,
			     const char *image)
{
	struct loop_config cfg;
	int nr, fd, err;

	nr = ioctl(ctl, LOOP_CTL_GET_FREE);
	if (nr < 0)
		return -errno;
	snprintf(loop->path, sizeof(loop->path), "/dev/loop%d", nr);
	fd = open(loop->path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;

	memset(&cfg, 0, sizeof(cfg));
	cfg.fd = (unsigned int)backing;
	/* autoclear: the kernel frees the device if we die without teardown */
	cfg.info.lo_flags = LO_FLAGS_DIRECT_IO | LO_FLAGS_AUTOCLEAR;
	snprintf((char *)cfg.info.lo_file_name, LO_NAME_SIZE, "%s", image);
	if (ioctl(fd, LOOP_CONFIGURE, &cfg)) {
		err = -errno;
		close(fd);
		return err;
	}
	loop->nr = nr;
	loop->fd = fd;
	return 0;
}

int loopdev_attach(struct loopdev *loop, const char *image, struct teardown *td)
{
	int ctl, backing, err = -EBUSY, i, rec;
	struct stat st;

	loop->fd = -1;
	/* `fsprof cleanup` finds it by its backing file */
	rec = teardown_record(td, "loop", image);
	if (rec < 0)
		return rec;
	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0) {
		err = errno;
		log_error(
			"open /dev/loop-control: %s (is the loop driver available? try 'modprobe loop')",
			strerror_safe(err));
		return -err;
	}
	backing = open(image, O_RDWR | O_CLOEXEC);
	if (backing < 0) {
		err = errno;
		log_error("open image %s: %s", image, strerror_safe(err));
		close(ctl);
		return -err;
	}
	/* another process may take the free device first: try the next one */
	for (i = 0; i < LOOP_ATTACH_TRIES && err == -EBUSY; i++)
		err = loopdev_configure(loop, ctl, backing, image);
	close(backing);
	close(ctl);
	if (err) {
		log_error("attach %s to a loop device: %s", image,
			  strerror_safe(-err));
		return err;
	}
	err = teardown_push_recorded(td, rec, loopdev_detach, loop, "detach %s",
				     loop->path);
	if (err) {
		loopdev_detach(loop);
		return err;
	}
	if (fstat(loop->fd, &st))
		return -errno;
	loop->dev = st.st_rdev;

	err = loopdev_read_dio(loop, &loop->dio);
	if (err) {
		log_error("read /sys/block/loop%d/loop/dio: %s", loop->nr,
			  strerror_safe(-err));
		return err;
	}
	if (!loop->dio) {
		log_error(
			"%s did not enable direct IO on %s: the filesystem holding the scratch directory does not support O_DIRECT (tmpfs?) or its block size does not match; without direct IO data is cached twice and flushes lie. Pick a --scratch on a disk filesystem.",
			loop->path, image);
		return -EOPNOTSUPP;
	}
	return 0;
}

/* <sysdir>/loop/backing_file, without " (deleted)" once it is unlinked */
static int loopdev_read_backing(const char *sysdir, char *out, size_t len)
{
	char path[PATH_MAX];
	ssize_t n;
	size_t l;

	snprintf(path, sizeof(path), "%s/loop/backing_file", sysdir);
	n = sysfile_read_line(path, out, len);
	if (n < 0)
		return n == -ENODATA ? -ENOENT : (int)n;
	l = strlen(out);
	if (l > 10 && !strcmp(out + l - 10, " (deleted)"))
		out[l - 10] = '\0';
	return 0;
}

int loopdev_backing(dev_t dev, char *out, size_t len)
{
	char sysdir[64];

	snprintf(sysdir, sizeof(sysdir), "/sys/dev/block/%u:%u", major(dev),
		 minor(dev));
	return loopdev_read_backing(sysdir, out, len);
}

int loopdev_find_by_backing(const char *backing, char *path, size_t len)
{
	char sysdir[300], have[PATH_MAX];
	DIR *d = opendir("/sys/block");
	struct dirent *e;
	int found = -ENOENT;

	if (!d)
		return -errno;
	while (found < 0 && (e = readdir(d))) {
		if (strncmp(e->d_name, "loop", 4))
			continue;
		snprintf(sysdir, sizeof(sysdir), "/sys/block/%s", e->d_name);
		if (loopdev_read_backing(sysdir, have, sizeof(have)) ||
		    strcmp(have, backing))
			continue;
		snprintf(path, len, "/dev/%s", e->d_name);
		found = 0;
	}
	closedir(d);
	return found;
}

int loopdev_detach_path(const char *path)
{
	struct loopdev loop = { .fd = open(path, O_RDWR | O_CLOEXEC) };

	if (loop.fd < 0)
		return -errno;
	return loopdev_detach(&loop);
}

int loopdev_set_rotational(const struct loopdev *loop, int rotational)
{
	char path[64];
	int err;

	snprintf(path, sizeof(path), "/sys/block/loop%d/queue/rotational",
		 loop->nr);
	err = sysfile_write(path, rotational ? "1\n" : "0\n");
	if (err)
		log_error("write %d to %s: %s", rotational, path,
			  strerror_safe(-err));
	return err;
}
