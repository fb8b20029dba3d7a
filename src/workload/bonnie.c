// SPDX-License-Identifier: GPL-2.0
/*
 * bonnie, the bonnie++ file IO tests on one file of size S: sequential output
 * per char (stdio putc), block (write(2) of a chunk), rewrite (read a chunk,
 * dirty a byte, seek back, write it), sequential input per char (getc),
 * block (read(2)), and random seeks (bonnie_seeks.c).
 *
 * As bonnie++ 1.97: the file is (re)opened before a test starts, untimed, and
 * closed with fsync() inside the timing for every test (since 1.90b bonnie++
 * fsyncs every file handle it closes); the block write recreates the file
 * (unlink + O_EXCL) untimed. Unlike bonnie++, which relies on a file of twice
 * RAM, caches are dropped before every phase that reads the file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/log.h"
#include "util/write_full.h"
#include "util/progress.h"
#include "workload/bonnie_state.h"
#include "workload/cache.h"
#include "workload/workload.h"

#define BONNIE_MIN_CHUNK 256
#define BONNIE_MAX_CHUNK (1ULL << 20)

static const struct param_def bonnie_params[] = {
	{ "size", PARAM_SIZE, "2G", "4128M", "bytes in the file" },
	{ "chunk", PARAM_SIZE, "8k", "8k",
	  "bytes per block read/write (256..1M, divides size)" },
	{ "seeks", PARAM_COUNT, "8192", "8192", "random seeks in total" },
	{ "seekers", PARAM_COUNT, "3", "3", "concurrent seeker processes" },
	{ "seed", PARAM_COUNT, "1", "1", "seed of the random seek targets" },
};

int bonnie_fail(const char *what, const char *path)
{
	int err = errno;

	log_error("bonnie: %s %s: %s", what, path, strerror_safe(err));
	return -err;
}

/* len bytes, or fewer at end of file; a negative errno on failure */
static ssize_t read_full(int fd, char *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, buf + got, len - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

/* bonnie++'s close: flush the stream, fsync, close; timed by the caller */
static int bonnie_close(struct bonnie_state *st, struct phase_ctx *pc)
{
	int err = 0;
	uint64_t t0;

	if (st->fd < 0)
		return 0;
	if (st->stream && fflush(st->stream))
		err = bonnie_fail("flush", st->path);
	t0 = clock_mono_ns();
	if (fsync(st->fd) && !err)
		err = bonnie_fail("fsync", st->path);
	if (pc) {
		op_record(pc, OP_FSYNC, t0);
		work_add(pc, 0, 1, 0);
	}
	t0 = clock_mono_ns();
	if (st->stream)
		fclose(st->stream); /* closes fd */
	else
		close(st->fd);
	if (pc)
		op_record(pc, OP_CLOSE, t0);
	st->stream = NULL;
	st->fd = -1;
	return err;
}

static int bonnie_open(struct bonnie_state *st, bool create,
		       const char *stream_mode)
{
	int flags = O_RDWR | O_CLOEXEC;

	bonnie_close(st, NULL);
	if (create) {
		/* from scratch, as bonnie++: unlink, then O_EXCL */
		if (unlink(st->path) && errno != ENOENT)
			return bonnie_fail("unlink", st->path);
		flags |= O_CREAT | O_EXCL;
	}
	st->fd = open(st->path, flags, 0600);
	if (st->fd < 0)
		return bonnie_fail(create ? "create" : "open", st->path);
	if (!stream_mode)
		return 0;
	st->stream = fdopen(st->fd, stream_mode);
	if (!st->stream) {
		int err = bonnie_fail("fdopen", st->path);

		close(st->fd);
		st->fd = -1;
		return err;
	}
	return 0;
}

static struct latency_hist *bonnie_latency(struct phase_ctx *pc)
{
	return metric_hist(&pc->result->metrics, BONNIE_LATENCY_METRIC);
}

static int bonnie_putc_prepare(const struct workload_env *env)
{
	return bonnie_open(bonnie_state(env), true, "w");
}

/* one chunk of a sequential phase, c its index: 0 or an error */
typedef int (*bonnie_chunk_fn)(struct bonnie_state *st, struct phase_ctx *pc,
			       uint64_t c);

/*
 * The loop of the sequential phases: every chunk timed into the phase's
 * latency histogram (bonnie++'s latency column), its bytes counted once
 * with ops calls, the progress line moved; the file closed (fsync) at the
 * end, within the phase
 */
static int bonnie_chunks(const struct workload_env *env, struct phase_ctx *pc,
			 bonnie_chunk_fn fn, uint64_t ops)
{
	struct bonnie_state *st = bonnie_state(env);
	struct latency_hist *lat = bonnie_latency(pc);
	uint64_t c, t0;
	int err;

	if (!lat)
		return -ENOMEM;
	progress_total(pc->progress, st->size, PROGRESS_BYTES);
	for (c = 0; c < st->n_chunks; c++) {
		if (*env->stop)
			return -EINTR;
		t0 = clock_mono_ns();
		err = fn(st, pc, c);
		if (err)
			return err;
		latency_hist_record(lat, clock_mono_ns() - t0);
		work_add(pc, st->chunk, ops, 0);
		progress_set(pc->progress, (c + 1) * st->chunk);
	}
	return bonnie_close(st, pc);
}

static int bonnie_putc_chunk(struct bonnie_state *st, struct phase_ctx *pc,
			     uint64_t c)
{
	size_t i;

	(void)pc;
	(void)c;
	for (i = 0; i < st->chunk; i++)
		if (putc((int)(i & 0x7f), st->stream) == EOF)
			return bonnie_fail("putc", st->path);
	return 0;
}

/* Sequential Output, Per Chr: every byte through stdio putc() */
static int bonnie_putc(const struct workload_env *env, struct phase_ctx *pc)
{
	return bonnie_chunks(env, pc, bonnie_putc_chunk,
			     bonnie_state(env)->chunk);
}

static int bonnie_write_prepare(const struct workload_env *env)
{
	return bonnie_open(bonnie_state(env), true, NULL);
}

/* the buffer, one chunk, written at the file's offset; what: the call */
static int bonnie_write_buf(struct bonnie_state *st, struct phase_ctx *pc,
			    const char *what)
{
	uint64_t t0 = clock_mono_ns();
	int err = write_full(st->fd, st->buf, st->chunk, NULL);

	if (err) {
		errno = -err;
		return bonnie_fail(what, st->path);
	}
	op_record(pc, OP_WRITE, t0);
	return 0;
}

/* one byte of the buffer changed before each write, as bonnie++ does */
static int bonnie_write_chunk(struct bonnie_state *st, struct phase_ctx *pc,
			      uint64_t c)
{
	st->buf[c % st->chunk]++;
	return bonnie_write_buf(st, pc, "write");
}

/* Sequential Output, Block: write(2) of one chunk at a time */
static int bonnie_write(const struct workload_env *env, struct phase_ctx *pc)
{
	memset(bonnie_state(env)->buf, 0, bonnie_state(env)->chunk);
	return bonnie_chunks(env, pc, bonnie_write_chunk, 1);
}

static int bonnie_reopen_cold(const struct workload_env *env,
			      const char *stream_mode)
{
	int err = cache_prepare(env);

	return err ? err : bonnie_open(bonnie_state(env), false, stream_mode);
}

static int bonnie_rewrite_prepare(const struct workload_env *env)
{
	return bonnie_reopen_cold(env, NULL);
}

static int bonnie_short_file(const struct bonnie_state *st, uint64_t at)
{
	log_error("bonnie: %s ends at %llu bytes, expected %llu", st->path,
		  (unsigned long long)at, (unsigned long long)st->size);
	return -EIO;
}

static int bonnie_read_chunk(struct bonnie_state *st, struct phase_ctx *pc,
			     uint64_t c)
{
	uint64_t t0 = clock_mono_ns();
	ssize_t n = read_full(st->fd, st->buf, st->chunk);

	if (n < 0) {
		errno = (int)-n;
		return bonnie_fail("read", st->path);
	}
	if ((size_t)n != st->chunk)
		return bonnie_short_file(st, c * st->chunk + (uint64_t)n);
	op_record(pc, OP_READ, t0);
	return 0;
}

/* one rewrite step: read a chunk, dirty a byte, seek back, write it */
static int bonnie_rewrite_chunk(struct bonnie_state *st, struct phase_ctx *pc,
				uint64_t c)
{
	uint64_t t0;
	int err = bonnie_read_chunk(st, pc, c);

	if (err)
		return err;
	st->buf[c % st->chunk]++;
	t0 = clock_mono_ns();
	if (lseek(st->fd, -(off_t)st->chunk, SEEK_CUR) < 0)
		return bonnie_fail("lseek", st->path);
	op_record(pc, OP_SEEK, t0);
	return bonnie_write_buf(st, pc, "rewrite");
}

/* Sequential Output, Rewrite; bytes count each chunk once, as bonnie++ */
static int bonnie_rewrite(const struct workload_env *env, struct phase_ctx *pc)
{
	return bonnie_chunks(env, pc, bonnie_rewrite_chunk, 3);
}

static int bonnie_getc_prepare(const struct workload_env *env)
{
	return bonnie_reopen_cold(env, "r");
}

static int bonnie_getc_chunk(struct bonnie_state *st, struct phase_ctx *pc,
			     uint64_t c)
{
	size_t i;
	int ch;

	(void)pc;
	for (i = 0; i < st->chunk; i++) {
		ch = getc(st->stream);
		if (ch == EOF) {
			if (ferror(st->stream))
				return bonnie_fail("getc", st->path);
			return bonnie_short_file(st, c * st->chunk + i);
		}
		/* use the byte, as bonnie++ does, so it is really read */
		st->buf[ch]++;
	}
	return 0;
}

/* Sequential Input, Per Chr: every byte through stdio getc() */
static int bonnie_getc(const struct workload_env *env, struct phase_ctx *pc)
{
	return bonnie_chunks(env, pc, bonnie_getc_chunk,
			     bonnie_state(env)->chunk);
}

static int bonnie_read_prepare(const struct workload_env *env)
{
	return bonnie_reopen_cold(env, NULL);
}

/* Sequential Input, Block: read(2) of one chunk at a time */
static int bonnie_read(const struct workload_env *env, struct phase_ctx *pc)
{
	return bonnie_chunks(env, pc, bonnie_read_chunk, 1);
}

static int bonnie_check_geometry(uint64_t size, uint64_t chunk)
{
	if (chunk < BONNIE_MIN_CHUNK || chunk > BONNIE_MAX_CHUNK) {
		log_error(
			"bonnie: chunk=%llu must be between 256 bytes and 1 MiB, as in bonnie++",
			(unsigned long long)chunk);
		return -EINVAL;
	}
	if (size % chunk) {
		log_error("bonnie: size=%llu is not a multiple of chunk=%llu",
			  (unsigned long long)size, (unsigned long long)chunk);
		return -EINVAL;
	}
	return 0;
}

static int bonnie_setup(struct workload_env *env)
{
	uint64_t size = param_num(env->params, "size");
	uint64_t chunk = param_num(env->params, "chunk");
	struct bonnie_state *st;
	int n;

	if (bonnie_check_geometry(size, chunk))
		return -EINVAL;
	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	st->fd = -1;
	st->size = size;
	st->chunk = (size_t)chunk;
	st->n_chunks = size / chunk;
	n = snprintf(st->path, sizeof(st->path), "%s/%s", env->dir,
		     BONNIE_FILE);
	st->buf = malloc(st->chunk);
	if (n < 0 || (size_t)n >= sizeof(st->path) || !st->buf) {
		free(st->buf);
		free(st);
		return n < 0 || (size_t)n >= sizeof(st->path) ? -ENAMETOOLONG :
								-ENOMEM;
	}
	env->state = st;
	return 0;
}

static void bonnie_cleanup(struct workload_env *env)
{
	struct bonnie_state *st = env->state;

	if (!st)
		return;
	bonnie_close(st, NULL);
	unlink(st->path);
	free(st->tickets);
	free(st->buf);
	free(st);
	env->state = NULL;
}

static uint64_t bonnie_space_needed(const struct workload_params *params)
{
	return param_num(params, "size");
}

#define BONNIE_SYNC "fsync at close"

static const struct phase_def bonnie_phases[] = {
	{ "putc", "warm", BONNIE_SYNC, bonnie_putc_prepare, bonnie_putc },
	{ "write", "warm", BONNIE_SYNC, bonnie_write_prepare, bonnie_write },
	{ "rewrite", "dropped", BONNIE_SYNC, bonnie_rewrite_prepare,
	  bonnie_rewrite },
	{ "getc", "dropped", BONNIE_SYNC, bonnie_getc_prepare, bonnie_getc },
	{ "read", "dropped", BONNIE_SYNC, bonnie_read_prepare, bonnie_read },
	{ "seeks", "dropped", "fsync at close, per seeker",
	  bonnie_seeks_prepare, bonnie_seeks },
};

const struct workload_def bonnie_workload = {
	.name = "bonnie",
	.description =
		"bonnie++ file IO tests: putc, block write, rewrite, getc, block read, random seeks by concurrent processes",
	.params = bonnie_params,
	.n_params = sizeof(bonnie_params) / sizeof(bonnie_params[0]),
	.phases = bonnie_phases,
	.n_phases = sizeof(bonnie_phases) / sizeof(bonnie_phases[0]),
	.setup = bonnie_setup,
	.cleanup = bonnie_cleanup,
	.space_needed = bonnie_space_needed,
};
