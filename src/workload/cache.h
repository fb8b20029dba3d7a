/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FSPROF_CACHE_H
#define FSPROF_CACHE_H

/*
 * write back dir's filesystem (syncfs); the error said, naming what it was
 * for ("before dropping caches"); 0 or -errno
 */
int cache_syncfs(const char *dir, const char *before);

/* write back dir's filesystem, then drop the clean page and inode caches */
int cache_drop(const char *dir);

struct workload_env;

/* a read phase's prepare step: cache_drop, unless the run is --warm */
int cache_prepare(const struct workload_env *env);

#endif
