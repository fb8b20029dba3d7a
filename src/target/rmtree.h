/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FSPROF_RMTREE_H
#define FSPROF_RMTREE_H

/*
 * Remove dir and everything below it, without following symlinks and
 * without crossing into other mounts. Returns 0 or -errno.
 */
int rmtree(const char *dir);

#endif
