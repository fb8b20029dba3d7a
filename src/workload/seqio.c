// SPDX-License-Identifier: GPL-2.0
/*
 * seqio, dd style: write one file in 4 KiB writes and fdatasync it, read it
 * back with cold caches, unlink it and syncfs.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/log.h"
#include "util/write_full.h"
#include "util/progress.h"
#include "workload/cache.h"
#include "workload/syncmode.h"
#include "workload/workload.h"

#define SEQIO_FILE "seqio.dat"
#define SEQIO_MAX_BS (16ULL << 20)
#define SEQIO_ALIGN 4096

static const struct param_def seqio_params[] = {
	{ "size", PARAM_SIZE, "1G", "4G", "bytes in the file" },
	{ "bs", PARAM_SIZE, "4k", "4k", "bytes per write(2) and read(2)" },
	{ "direct", PARAM_BOOL, "no", "no",
	  "O_DIRECT: bypass the page cache (bs must be a multiple of 4k)" },
	{ "sync", PARAM_STRING, "none", "none", SYNC_MODE_HELP },
};

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

static int seqio_check(const struct workload_params *params)
{
	uint64_t bs = param_num(params, "bs");

	if (sync_mode_check("seqio", params))
		return -EINVAL;
	if (bs > SEQIO_MAX_BS) {
		log_error("seqio: bs=%llu is larger than 16 MiB",
			  (unsigned long long)bs);
		return -EINVAL;
	}
	if (param_num(params, "direct") && bs % SEQIO_ALIGN) {
		log_error(
			"seqio: direct=yes needs bs to be a multiple of 4096, not %llu",
			(unsigned long long)bs);
		return -EINVAL;
	}
	return 0;
}

/* an IO buffer: aligned for O_DIRECT, filled so nothing looks sparse */
static char *seqio_buffer(size_t bs)
{
	void *buf = NULL;

	if (posix_memalign(&buf, SEQIO_ALIGN, bs))
		return NULL;
	memset(buf, 0x5a, bs);
	return buf;
}

static int seqio_open_flags(const struct workload_env *env)
{
	return param_num(env->params, "direct") ? O_DIRECT : 0;
}

/*
 * The phase's file opened (the open timed as op) and an IO buffer of bs:
 * 0, or an error with nothing left open
 */
static int seqio_begin(const struct workload_env *env, struct phase_ctx *pc,
		       int flags, enum op_class op, char *path, size_t len,
		       char **block, int *fd)
{
	uint64_t t0;

	if (seqio_path(env, path, len) || seqio_check(env->params))
		return -EINVAL;
	*block = seqio_buffer((size_t)param_num(env->params, "bs"));
	if (!*block)
		return -ENOMEM;
	progress_total(pc->progress, param_num(env->params, "size"),
		       PROGRESS_BYTES);
	t0 = clock_mono_ns();
	*fd = open(path, flags | O_CLOEXEC | seqio_open_flags(env), 0644);
	if (*fd < 0) {
		free(*block);
		return seqio_fail(op == OP_CREATE ? "create" : "open", path);
	}
	op_record(pc, op, t0);
	work_add(pc, 0, 1, 1);
	return 0;
}

static int seqio_write(const struct workload_env *env, struct phase_ctx *pc)
{
	uint64_t size = param_num(env->params, "size"), left = size;
	size_t bs = (size_t)param_num(env->params, "bs");
	char path[PATH_MAX], *block;
	int fd, err;
	uint64_t t0;

	enum sync_mode sync = sync_mode_of(env->params);

	err = seqio_begin(env, pc,
			  O_WRONLY | O_CREAT | O_TRUNC |
				  sync_mode_open_flags(sync),
			  OP_CREATE, path, sizeof(path), &block, &fd);
	if (err)
		return err;
	while (left) {
		size_t chunk = left < bs ? (size_t)left : bs;

		if (*env->stop) {
			err = -EINTR;
			break;
		}
		t0 = clock_mono_ns();
		err = write_full(fd, block, chunk, env->stop);
		if (err) {
			errno = -err;
			if (err != -EINTR)
				seqio_fail("write", path);
			break;
		}
		op_record(pc, OP_WRITE, t0);
		work_add(pc, (uint64_t)chunk, 1, 0);
		left -= (uint64_t)chunk;
		progress_set(pc->progress, size - left);
		err = sync_mode_after_write(sync, pc, fd);
		if (err) {
			errno = -err;
			seqio_fail("sync", path);
			break;
		}
	}
	if (!err) {
		t0 = clock_mono_ns();
		if (fdatasync(fd))
			err = seqio_fail("fdatasync", path);
		op_record(pc, OP_FSYNC, t0);
		work_add(pc, 0, 1, 0);
	}
	close(fd);
	free(block);
	return err;
}

static int seqio_drop_caches(const struct workload_env *env)
{
	return cache_prepare(env);
}

static int seqio_read(const struct workload_env *env, struct phase_ctx *pc)
{
	uint64_t size = param_num(env->params, "size"), got = 0;
	size_t bs = (size_t)param_num(env->params, "bs");
	char path[PATH_MAX], *block;
	int fd, err;
	uint64_t t0;

	err = seqio_begin(env, pc, O_RDONLY, OP_OPEN, path, sizeof(path),
			  &block, &fd);
	if (err)
		return err;
	for (;;) {
		ssize_t n;

		if (*env->stop) {
			err = -EINTR;
			break;
		}
		t0 = clock_mono_ns();
		n = read(fd, block, bs);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = seqio_fail("read", path);
			break;
		}
		op_record(pc, OP_READ, t0);
		work_add(pc, (uint64_t)n, 1, 0);
		if (n == 0)
			break;
		got += (uint64_t)n;
		progress_set(pc->progress, got);
	}
	close(fd);
	free(block);
	if (!err && got != size) {
		log_error("seqio: read %llu bytes back from %s, wrote %llu",
			  (unsigned long long)got, path,
			  (unsigned long long)size);
		err = -EIO;
	}
	return err;
}

static int seqio_delete(const struct workload_env *env, struct phase_ctx *pc)
{
	char path[PATH_MAX];
	int dirfd, err = 0;
	uint64_t t0;

	if (seqio_path(env, path, sizeof(path)))
		return -ENAMETOOLONG;
	dirfd = open(env->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return seqio_fail("open", env->dir);
	t0 = clock_mono_ns();
	if (unlinkat(dirfd, SEQIO_FILE, 0)) {
		err = seqio_fail("unlink", path);
	} else {
		op_record(pc, OP_UNLINK, t0);
		t0 = clock_mono_ns();
		if (syncfs(dirfd))
			err = seqio_fail("syncfs", env->dir);
		op_record(pc, OP_SYNC, t0);
	}
	work_add(pc, 0, 2, 1);
	close(dirfd);
	return err;
}

static uint64_t seqio_space_needed(const struct workload_params *params)
{
	return param_num(params, "size");
}

static const struct phase_def seqio_phases[] = {
	{ "write", "warm", "fdatasync", NULL, seqio_write },
	{ "read", "dropped", "none", seqio_drop_caches, seqio_read },
	{ "delete", "warm", "syncfs", NULL, seqio_delete },
};

const struct workload_def seqio_workload = {
	.name = "seqio",
	.description =
		"dd-style sequential file: 4 KiB writes + fdatasync, cold read, unlink + syncfs",
	.params = seqio_params,
	.n_params = sizeof(seqio_params) / sizeof(seqio_params[0]),
	.phases = seqio_phases,
	.n_phases = sizeof(seqio_phases) / sizeof(seqio_phases[0]),
	.check = seqio_check,
	.space_needed = seqio_space_needed,
};
