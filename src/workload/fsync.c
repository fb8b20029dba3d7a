// SPDX-License-Identifier: GPL-2.0
/*
 * fsync, varmail-like: per file, create + append + fsync + close, then
 * (appends - 1) times open + append + fsync + close, then read the whole file
 * back. Every append waits for a journal commit: the purest commit-latency
 * test. Then rm -rf + syncfs.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/log.h"
#include "util/write_full.h"
#include "util/progress.h"
#include "workload/rmtree.h"
#include "workload/syncmode.h"
#include "workload/workload.h"

#define FSYNC_DIR "fsync"
#define FSYNC_MAX_APPEND (16ULL << 20)
#define FSYNC_READ_BS (1U << 20)

static const struct param_def fsync_params[] = {
	{ "files", PARAM_COUNT, "1000", "10000", "files, one cycle each" },
	{ "appends", PARAM_COUNT, "2", "4",
	  "appends per file, each made durable as sync= says" },
	{ "appendsize", PARAM_SIZE, "16k", "16k", "bytes per append" },
	{ "sync", PARAM_STRING, "fsync", "fsync", SYNC_MODE_HELP },
};

struct fsync_run {
	uint64_t files, appends;
	size_t size;
	enum sync_mode sync;
	int dirfd;
	char *buf; /* max(size, FSYNC_READ_BS) bytes */
};

static int fsync_fail(const struct workload_env *env, const char *what,
		      const char *name)
{
	int err = errno;

	log_error("fsync: %s %s/%s/%s: %s", what, env->dir, FSYNC_DIR, name,
		  strerror_safe(err));
	return -err;
}

static int fsync_append(const struct workload_env *env, struct phase_ctx *pc,
			struct fsync_run *r, int fd, const char *name)
{
	uint64_t t0 = clock_mono_ns();
	int err;

	err = write_full(fd, r->buf, r->size, env->stop);
	if (err == -EINTR)
		return err;
	if (err) {
		errno = -err;
		return fsync_fail(env, "append to", name);
	}
	op_record(pc, OP_WRITE, t0);
	err = sync_mode_after_write(r->sync, pc, fd);
	if (err) {
		errno = -err;
		return fsync_fail(env, "sync", name);
	}
	work_add(pc, r->size, 2, 0);
	return 0;
}

/* open (creating the first time), append + fsync, close */
static int fsync_append_cycle(const struct workload_env *env,
			      struct phase_ctx *pc, struct fsync_run *r,
			      const char *name, bool create)
{
	int flags = O_WRONLY | O_APPEND | O_CLOEXEC |
		    sync_mode_open_flags(r->sync);
	uint64_t t0 = clock_mono_ns();
	int fd, err;

	if (create)
		flags |= O_CREAT | O_EXCL;
	fd = openat(r->dirfd, name, flags, 0644);
	if (fd < 0)
		return fsync_fail(env, create ? "create" : "open", name);
	op_record(pc, create ? OP_CREATE : OP_OPEN, t0);
	work_add(pc, 0, 1, create ? 1 : 0);
	err = fsync_append(env, pc, r, fd, name);
	t0 = clock_mono_ns();
	close(fd);
	op_record(pc, OP_CLOSE, t0);
	work_add(pc, 0, 1, 0);
	return err;
}

static int fsync_read_back(const struct workload_env *env, struct phase_ctx *pc,
			   struct fsync_run *r, const char *name)
{
	uint64_t got = 0, want = r->appends * r->size, t0;
	int fd, err = 0;
	ssize_t n;

	t0 = clock_mono_ns();
	fd = openat(r->dirfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fsync_fail(env, "open", name);
	op_record(pc, OP_OPEN, t0);
	work_add(pc, 0, 1, 0);
	for (;;) {
		t0 = clock_mono_ns();
		n = read(fd, r->buf, FSYNC_READ_BS);
		if (n < 0 && errno == EINTR && !*env->stop)
			continue;
		if (n < 0) {
			err = fsync_fail(env, "read", name);
			break;
		}
		op_record(pc, OP_READ, t0);
		work_add(pc, (uint64_t)n, 1, 0);
		if (!n)
			break;
		got += (uint64_t)n;
	}
	t0 = clock_mono_ns();
	close(fd);
	op_record(pc, OP_CLOSE, t0);
	work_add(pc, 0, 1, 0);
	if (!err && got != want) {
		log_error(
			"fsync: %s/%s/%s holds %llu bytes after %llu appends of %zu",
			env->dir, FSYNC_DIR, name, (unsigned long long)got,
			(unsigned long long)r->appends, r->size);
		err = -EIO;
	}
	return err;
}

static int fsync_one_file(const struct workload_env *env, struct phase_ctx *pc,
			  struct fsync_run *r, uint64_t i)
{
	char name[32];
	uint64_t a;
	int err;

	snprintf(name, sizeof(name), "m%06llu", (unsigned long long)i);
	err = fsync_append_cycle(env, pc, r, name, true);
	for (a = 1; !err && a < r->appends; a++)
		err = fsync_append_cycle(env, pc, r, name, false);
	if (!err)
		err = fsync_read_back(env, pc, r, name);
	return err;
}

static int fsync_cycles(const struct workload_env *env, struct phase_ctx *pc)
{
	struct fsync_run r = {
		.files = param_num(env->params, "files"),
		.appends = param_num(env->params, "appends"),
		.size = (size_t)param_num(env->params, "appendsize"),
		.sync = sync_mode_of(env->params),
		.dirfd = -1,
	};
	int topfd, err = 0;
	uint64_t i, t0;

	if (r.size > FSYNC_MAX_APPEND) {
		log_error("fsync: size=%zu is larger than 16 MiB", r.size);
		return -EINVAL;
	}
	r.buf = malloc(r.size > FSYNC_READ_BS ? r.size : FSYNC_READ_BS);
	if (!r.buf)
		return -ENOMEM;
	memset(r.buf, 0x5a, r.size);
	topfd = open(env->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (topfd < 0) {
		free(r.buf);
		return fsync_fail(env, "open", "");
	}
	t0 = clock_mono_ns();
	if (mkdirat(topfd, FSYNC_DIR, 0755))
		err = fsync_fail(env, "mkdir", "");
	op_record(pc, OP_MKDIR, t0);
	work_add(pc, 0, 1, 0);
	if (!err) {
		r.dirfd = openat(topfd, FSYNC_DIR,
				 O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (r.dirfd < 0)
			err = fsync_fail(env, "open", "");
	}
	progress_total(pc->progress, r.files, PROGRESS_FILES);
	for (i = 0; !err && i < r.files; i++) {
		if (*env->stop) {
			err = -EINTR;
			break;
		}
		err = fsync_one_file(env, pc, &r, i);
		progress_set(pc->progress, i + 1);
	}
	if (r.dirfd >= 0)
		close(r.dirfd);
	close(topfd);
	free(r.buf);
	return err;
}

static int fsync_remove(const struct workload_env *env, struct phase_ctx *pc)
{
	return rmtree_phase(env, pc, FSYNC_DIR, "fsync");
}

static uint64_t fsync_space_needed(const struct workload_params *params)
{
	uint64_t files = param_num(params, "files");
	uint64_t bytes =
		param_num(params, "appends") * param_num(params, "appendsize");

	/* data in 4 KiB blocks */
	return files * ((bytes + 4095) / 4096 * 4096);
}

static uint64_t fsync_files_needed(const struct workload_params *params)
{
	return param_num(params, "files") + 1;
}

static int fsync_params_check(const struct workload_params *params)
{
	return sync_mode_check("fsync", params);
}

static const struct phase_def fsync_phases[] = {
	{ "cycles", "warm", "fsync", NULL, fsync_cycles },
	{ "remove", "warm", "syncfs", NULL, fsync_remove },
};

const struct workload_def fsync_workload = {
	.name = "fsync",
	.description =
		"varmail-like: create/append+fsync/close cycles and a read back per file, then rm -rf + syncfs",
	.params = fsync_params,
	.n_params = sizeof(fsync_params) / sizeof(fsync_params[0]),
	.phases = fsync_phases,
	.n_phases = sizeof(fsync_phases) / sizeof(fsync_phases[0]),
	.check = fsync_params_check,
	.space_needed = fsync_space_needed,
	.files_needed = fsync_files_needed,
};
