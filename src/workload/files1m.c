// SPDX-License-Identifier: GPL-2.0
/*
 * files1m: many 1 MiB files. create writes N files in 4 KiB write(2)s and
 * ends with syncfs inside the timing; read drops caches first and reads every
 * file back, checking each block's stamp; remove is rm -rf + syncfs on a
 * target mounted again (cold), as the original's was.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/log.h"
#include "util/write_full.h"
#include "util/progress.h"
#include "workload/cache.h"
#include "workload/rmtree.h"
#include "workload/syncmode.h"
#include "workload/workload.h"

#define FILES1M_DIR "files1m"
#define FILES1M_MIN_BS 16ULL
#define FILES1M_MAX_BS (16ULL << 20)

static const struct param_def files1m_params[] = {
	{ "files", PARAM_COUNT, "2000", "4000", "number of files" },
	{ "filesize", PARAM_SIZE, "1M", "1M", "bytes per file" },
	{ "bs", PARAM_SIZE, "4k", "4k", "bytes per write(2) and read(2)" },
	{ "sync", PARAM_STRING, "none", "none", SYNC_MODE_HELP },
};

/* what every phase needs: the parameters and the open directories */
struct files1m_run {
	uint64_t files, size;
	size_t bs;
	enum sync_mode sync;
	int topfd; /* env->dir */
	int dirfd; /* env->dir/files1m */
	char *block;
};

static int files1m_fail(const struct workload_env *env, const char *what,
			const char *name)
{
	int err = errno;

	log_error("files1m: %s %s/%s/%s: %s", what, env->dir, FILES1M_DIR, name,
		  strerror_safe(err));
	return -err;
}

static void files1m_name(uint64_t i, char *buf, size_t len)
{
	snprintf(buf, len, "f%06llu", (unsigned long long)i);
}

/* each block starts with (file, block): a misplaced block reads back wrong */
static void files1m_stamp(char *block, size_t len, uint64_t file, uint64_t blk)
{
	uint64_t stamp[2] = { file, blk };

	memcpy(block, stamp, len < sizeof(stamp) ? len : sizeof(stamp));
}

static void files1m_close(struct files1m_run *r)
{
	if (r->dirfd >= 0)
		close(r->dirfd);
	if (r->topfd >= 0)
		close(r->topfd);
	free(r->block);
}

/* parameters checked, buffer made, env->dir open; the subdir if mkdir */
static int files1m_open(const struct workload_env *env, struct files1m_run *r,
			bool make_dir)
{
	r->files = param_num(env->params, "files");
	r->size = param_num(env->params, "filesize");
	r->bs = (size_t)param_num(env->params, "bs");
	r->sync = sync_mode_of(env->params);
	r->topfd = r->dirfd = -1;
	r->block = NULL;
	if (r->bs < FILES1M_MIN_BS || r->bs > FILES1M_MAX_BS) {
		log_error("files1m: bs=%zu is outside 16 bytes .. 16 MiB",
			  r->bs);
		return -EINVAL;
	}
	r->block = malloc(r->bs);
	if (!r->block)
		return -ENOMEM;
	/* not zeros: nothing below us may treat the data as sparse */
	memset(r->block, 0x5a, r->bs);
	r->topfd = open(env->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (r->topfd < 0)
		return files1m_fail(env, "open", "");
	if (make_dir && mkdirat(r->topfd, FILES1M_DIR, 0755))
		return files1m_fail(env, "mkdir", "");
	r->dirfd = openat(r->topfd, FILES1M_DIR,
			  O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (r->dirfd < 0)
		return files1m_fail(env, "open", "");
	return 0;
}

static int files1m_write_one(const struct workload_env *env,
			     struct phase_ctx *pc, struct files1m_run *r,
			     uint64_t i)
{
	uint64_t left = r->size, blk = 0, t0;
	char name[32];
	int fd, err = 0;

	files1m_name(i, name, sizeof(name));
	t0 = clock_mono_ns();
	fd = openat(r->dirfd, name,
		    O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC |
			    sync_mode_open_flags(r->sync),
		    0644);
	if (fd < 0)
		return files1m_fail(env, "create", name);
	op_record(pc, OP_CREATE, t0);
	work_add(pc, 0, 1, 1);
	while (left && !err) {
		size_t chunk = left < r->bs ? (size_t)left : r->bs;

		files1m_stamp(r->block, chunk, i, blk);
		t0 = clock_mono_ns();
		err = write_full(fd, r->block, chunk, env->stop);
		if (err) {
			errno = -err;
			if (err != -EINTR)
				files1m_fail(env, "write", name);
			break;
		}
		op_record(pc, OP_WRITE, t0);
		work_add(pc, (uint64_t)chunk, 1, 0);
		left -= (uint64_t)chunk;
		blk++;
		err = sync_mode_after_write(r->sync, pc, fd);
		if (err) {
			errno = -err;
			files1m_fail(env, "sync", name);
		}
	}
	t0 = clock_mono_ns();
	if (close(fd) && !err)
		err = files1m_fail(env, "close", name);
	op_record(pc, OP_CLOSE, t0);
	work_add(pc, 0, 1, 0);
	return err;
}

static int files1m_create(const struct workload_env *env, struct phase_ctx *pc)
{
	struct files1m_run r;
	uint64_t i, t0;
	int err;

	err = files1m_open(env, &r, true);
	progress_total(pc->progress, r.files * r.size, PROGRESS_BYTES);
	for (i = 0; !err && i < r.files; i++) {
		if (*env->stop) {
			err = -EINTR;
			break;
		}
		err = files1m_write_one(env, pc, &r, i);
		progress_set(pc->progress, (i + 1) * r.size);
	}
	if (!err) {
		t0 = clock_mono_ns();
		if (syncfs(r.dirfd))
			err = files1m_fail(env, "syncfs", "");
		op_record(pc, OP_SYNC, t0);
		work_add(pc, 0, 1, 0);
	}
	files1m_close(&r);
	return err;
}

static int files1m_drop_caches(const struct workload_env *env)
{
	return cache_prepare(env);
}

/* the stamp of a block read at off, if the read began a block */
static int files1m_check(const char *name, const char *buf, size_t n,
			 uint64_t off, struct files1m_run *r, uint64_t i)
{
	uint64_t want[2] = { i, off / r->bs };
	size_t len = n < sizeof(want) ? n : sizeof(want);

	if (off % r->bs || !memcmp(buf, want, len))
		return 0;
	log_error(
		"files1m: %s/%s: the block at offset %llu does not carry its stamp (file %llu, block %llu): data was lost or misplaced",
		FILES1M_DIR, name, (unsigned long long)off,
		(unsigned long long)i, (unsigned long long)want[1]);
	return -EIO;
}

static int files1m_read_one(const struct workload_env *env,
			    struct phase_ctx *pc, struct files1m_run *r,
			    uint64_t i)
{
	uint64_t got = 0, t0;
	char name[32];
	int fd, err = 0;

	files1m_name(i, name, sizeof(name));
	t0 = clock_mono_ns();
	fd = openat(r->dirfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return files1m_fail(env, "open", name);
	op_record(pc, OP_OPEN, t0);
	work_add(pc, 0, 1, 1);
	for (;;) {
		ssize_t n;

		t0 = clock_mono_ns();
		n = read(fd, r->block, r->bs);
		if (n < 0 && errno == EINTR) {
			if (!*env->stop)
				continue;
			err = -EINTR;
			break;
		}
		if (n < 0) {
			err = files1m_fail(env, "read", name);
			break;
		}
		op_record(pc, OP_READ, t0);
		work_add(pc, (uint64_t)n, 1, 0);
		if (!n)
			break;
		err = files1m_check(name, r->block, (size_t)n, got, r, i);
		if (err)
			break;
		got += (uint64_t)n;
	}
	close(fd);
	if (!err && got != r->size) {
		log_error(
			"files1m: %s/%s/%s holds %llu bytes, %llu were written",
			env->dir, FILES1M_DIR, name, (unsigned long long)got,
			(unsigned long long)r->size);
		err = -EIO;
	}
	return err;
}

static int files1m_read(const struct workload_env *env, struct phase_ctx *pc)
{
	struct files1m_run r;
	uint64_t i, verified = 0;
	int err;

	err = files1m_open(env, &r, false);
	progress_total(pc->progress, r.files * r.size, PROGRESS_BYTES);
	for (i = 0; !err && i < r.files; i++) {
		if (*env->stop) {
			err = -EINTR;
			break;
		}
		err = files1m_read_one(env, pc, &r, i);
		if (!err)
			verified++;
		progress_set(pc->progress, (i + 1) * r.size);
	}
	metric_add(&pc->result->metrics, "files1m.files_verified", verified);
	files1m_close(&r);
	return err;
}

static int files1m_remove(const struct workload_env *env, struct phase_ctx *pc)
{
	return rmtree_phase(env, pc, FILES1M_DIR, "files1m");
}

static uint64_t files1m_space_needed(const struct workload_params *params)
{
	uint64_t files = param_num(params, "files");
	uint64_t size = param_num(params, "filesize");

	/* data in 4 KiB blocks, plus a block of mapping/indirects per file */
	return files * ((size + 4095) / 4096 * 4096 + 4096);
}

static uint64_t files1m_files_needed(const struct workload_params *params)
{
	return param_num(params, "files") + 1;
}

static int files1m_params_check(const struct workload_params *params)
{
	return sync_mode_check("files1m", params);
}

static const struct phase_def files1m_phases[] = {
	{ "create", "warm", "syncfs", NULL, files1m_create },
	{ "read", "dropped", "none", files1m_drop_caches, files1m_read },
	/*
	 * cold: the original's rm -rf followed 4 GB written and read, which
	 * had pushed the files' mapping blocks out of the cache
	 */
	{ "remove", "cold", "syncfs", NULL, files1m_remove },
};

const struct workload_def files1m_workload = {
	.name = "files1m",
	.description =
		"many 1 MiB files: create in 4 KiB writes + syncfs, cold read, cold rm -rf + syncfs",
	.params = files1m_params,
	.n_params = sizeof(files1m_params) / sizeof(files1m_params[0]),
	.phases = files1m_phases,
	.n_phases = sizeof(files1m_phases) / sizeof(files1m_phases[0]),
	.check = files1m_params_check,
	.space_needed = files1m_space_needed,
	.files_needed = files1m_files_needed,
};
