// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "util/ioctl_path.h"

int ioctl_path(const char *path, int flags, unsigned long request, void *arg)
{
	int fd = open(path, flags | O_CLOEXEC), err = 0;

	if (fd < 0)
		return -errno;
	if (ioctl(fd, request, arg))
		err = -errno;
	close(fd);
	return err;
}
