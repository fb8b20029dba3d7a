// SPDX-License-Identifier: GPL-2.0
/*
 * seqio, dd style: write one file in 4 KiB writes and fdatasync it, read it
 * back with cold caches, unlink it and syncfs.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util/log.h"
#include "workload/cache.h"
#include "workload/workload.h"

#define SEQIO_BLOCK 4096
#define SEQIO_FILE "seqio.dat"

static int seqio_path(const struct workload_env *env, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s/%s", env->dir, SEQIO_FILE);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static int seqio_fail(const char *what, const char *path)
{
	int err = errno;

	log_error("seqio: %s %s: %s", what, path, strerror_safe(err));
	return -err;
}

static int seqio_write(const struct workload_env *env,
		       struct workload_counters *out)
{
	char path[PATH_MAX], block[SEQIO_BLOCK];
	uint64_t left = env->size;
	int fd, err = 0;

	if (seqio_path(env, path, sizeof(path)))
		return -ENAMETOOLONG;
	/* not zeros: nothing below us may treat the data as sparse */
	memset(block, 0x5a, sizeof(block));
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return seqio_fail("create", path);
	out->files = 1;
	while (left) {
		size_t chunk = left < SEQIO_BLOCK ? (size_t)left : SEQIO_BLOCK;
		ssize_t n;

		if (*env->stop) {
			err = -EINTR;
			break;
		}
		n = write(fd, block, chunk);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? seqio_fail("write", path) : -EIO;
			break;
		}
		out->ops++;
		out->bytes += (uint64_t)n;
		left -= (uint64_t)n;
	}
	if (!err) {
		if (fdatasync(fd))
			err = seqio_fail("fdatasync", path);
		out->ops++;
	}
	close(fd);
	return err;
}

static int seqio_drop_caches(const struct workload_env *env)
{
	return cache_drop(env->dir);
}

static int seqio_read(const struct workload_env *env,
		      struct workload_counters *out)
{
	char path[PATH_MAX], block[SEQIO_BLOCK];
	int fd, err = 0;

	if (seqio_path(env, path, sizeof(path)))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return seqio_fail("open", path);
	out->files = 1;
	for (;;) {
		ssize_t n;

		if (*env->stop) {
			err = -EINTR;
			break;
		}
		n = read(fd, block, sizeof(block));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = seqio_fail("read", path);
			break;
		}
		out->ops++;
		if (n == 0)
			break;
		out->bytes += (uint64_t)n;
	}
	close(fd);
	if (!err && out->bytes != env->size) {
		log_error("seqio: read %llu bytes back from %s, wrote %llu",
			  (unsigned long long)out->bytes, path,
			  (unsigned long long)env->size);
		err = -EIO;
	}
	return err;
}

static int seqio_delete(const struct workload_env *env,
			struct workload_counters *out)
{
	char path[PATH_MAX];
	int dirfd, err = 0;

	if (seqio_path(env, path, sizeof(path)))
		return -ENAMETOOLONG;
	dirfd = open(env->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return seqio_fail("open", env->dir);
	if (unlinkat(dirfd, SEQIO_FILE, 0))
		err = seqio_fail("unlink", path);
	else if (syncfs(dirfd))
		err = seqio_fail("syncfs", env->dir);
	out->ops += 2;
	out->files = 1;
	close(dirfd);
	return err;
}

static uint64_t seqio_space_needed(uint64_t size)
{
	return size;
}

static const struct phase_def seqio_phases[] = {
	{ "write", "warm", "fdatasync", NULL, seqio_write },
	{ "read", "dropped", "none", seqio_drop_caches, seqio_read },
	{ "delete", "warm", "syncfs", NULL, seqio_delete },
};

const struct workload_def seqio_workload = {
	.name = "seqio",
	.description = "dd-style sequential file: 4 KiB writes + fdatasync, cold read, unlink + syncfs",
	.phases = seqio_phases,
	.n_phases = sizeof(seqio_phases) / sizeof(seqio_phases[0]),
	.default_size = 256ULL << 20,
	.space_needed = seqio_space_needed,
};
