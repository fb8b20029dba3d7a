// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "util/log.h"
#include "workload/cache.h"
#include "workload/workload.h"

int cache_syncfs(const char *dir, const char *before)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), err = 0;

	if (fd < 0 || syncfs(fd)) {
		err = -errno;
		log_error("syncfs %s %s: %s", dir, before, strerror_safe(-err));
	}
	if (fd >= 0)
		close(fd);
	return err;
}

int cache_drop(const char *dir)
{
	int fd, err = cache_syncfs(dir, "before dropping caches");

	if (err)
		return err;
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, "3", 1) != 1) {
		err = -errno;
		log_error("drop caches (/proc/sys/vm/drop_caches): %s",
			  strerror_safe(-err));
	}
	if (fd >= 0)
		close(fd);
	return err;
}

int cache_prepare(const struct workload_env *env)
{
	return env->warm ? 0 : cache_drop(env->dir);
}
