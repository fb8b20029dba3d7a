/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FSPROF_CACHE_H
#define FSPROF_CACHE_H

/* write back dir's filesystem, then drop the clean page and inode caches */
int cache_drop(const char *dir);

#endif
