/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One ioctl on a device node, opened for it alone: the md array's stop,
 * the device-mapper control's remove and table status, a block device's
 * size. The node's fd is closed again whatever the ioctl said.
 */
#ifndef FSPROF_IOCTL_PATH_H
#define FSPROF_IOCTL_PATH_H

/*
 * open(path, flags | O_CLOEXEC), ioctl(fd, request, arg), close: 0, or
 * -errno of the open or of the ioctl
 */
int ioctl_path(const char *path, int flags, unsigned long request, void *arg);

#endif
