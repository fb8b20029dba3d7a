// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/log.h"
#include "util/write_full.h"
#include "workload/age.h"
#include "workload/cache.h"
#include "workload/prng.h"

#define AGE_WRITE (1u << 20) /* bytes per write(2) */
#define AGE_PER_DIR 1000 /* files per directory */
#define AGE_ROUND 4096ULL /* file sizes are whole 4 KiB pages */

struct age_fill {
	const char *root; /* dir/AGE_DIR */
	const struct age_spec *s;
	const volatile sig_atomic_t *stop;
	struct prng sizes;
	char *buf;
	uint64_t *len; /* each file's size, in the order written */
	size_t n, cap;
};

/* used share of the filesystem dir is on: (blocks - free) / blocks */
static int used_share(const char *dir, double *share, uint64_t *total)
{
	struct statvfs st;

	if (statvfs(dir, &st))
		return -errno;
	*total = (uint64_t)st.f_blocks * st.f_frsize;
	*share = st.f_blocks ? (double)(st.f_blocks - st.f_bfree) /
				       (double)st.f_blocks :
			       1;
	return 0;
}

/* a size from the spec's range, log-uniform: as many small as large */
static uint64_t age_draw_size(struct age_fill *f)
{
	uint64_t min, max, n;

	age_sizes_range(f->s->sizes, &min, &max);
	n = (uint64_t)exp(log((double)min) +
			  prng_unit(&f->sizes) *
				  (log((double)max) - log((double)min)));
	n = (n + AGE_ROUND - 1) / AGE_ROUND * AGE_ROUND;
	return n < min ? min : n > max ? max : n;
}

static void age_path(const struct age_fill *f, size_t i, char *path, size_t len)
{
	snprintf(path, len, "%s/d%05zu/f%07zu", f->root, i / AGE_PER_DIR, i);
}

/* write file i of size bytes, making its directory first when new */
static int age_write_file(struct age_fill *f, size_t i, uint64_t size)
{
	char path[4200];
	int fd, err = 0;

	if (i % AGE_PER_DIR == 0) {
		snprintf(path, sizeof(path), "%s/d%05zu", f->root,
			 i / AGE_PER_DIR);
		if (mkdir(path, 0755) && errno != EEXIST)
			return -errno;
	}
	age_path(f, i, path, sizeof(path));
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	while (size && !err) {
		size_t chunk = size < AGE_WRITE ? (size_t)size : AGE_WRITE;

		err = write_full(fd, f->buf, chunk, f->stop);
		size -= chunk;
	}
	if (close(fd) && !err)
		err = -errno;
	return err;
}

static int age_remember(struct age_fill *f, uint64_t size)
{
	if (f->n == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 4096;
		uint64_t *len = realloc(f->len, cap * sizeof(*len));

		if (!len)
			return -ENOMEM;
		f->len = len, f->cap = cap;
	}
	f->len[f->n++] = size;
	return 0;
}

/*
 * Fill to the spec's share; ENOSPC (blocks or inodes) ends it early. The
 * bytes to write are planned once, from the share used at the start: the
 * same seed on the same fresh filesystem then writes the same files,
 * where a stop on each file's statvfs would move with writeback's timing.
 */
static int age_fill_up(struct age_fill *f, struct age_result *out)
{
	double goal = f->s->fill_pct / 100.0, used;
	uint64_t total, size, planned, written = 0;
	int err;

	err = used_share(f->root, &used, &total);
	if (err || used >= goal)
		return err;
	planned = (uint64_t)((goal - used) * (double)total);
	while (written < planned) {
		if (*f->stop)
			return -EINTR;
		size = age_draw_size(f);
		/* the last file no larger than what is left to write */
		if (size > planned - written)
			size = (planned - written + AGE_ROUND - 1) / AGE_ROUND *
			       AGE_ROUND;
		err = age_remember(f, size);
		if (!err)
			err = age_write_file(f, f->n - 1, size);
		if (err == -ENOSPC) {
			log_warn(
				"aging: the filesystem filled up after %llu of %llu bytes (blocks or inodes): the fill stops there",
				(unsigned long long)written,
				(unsigned long long)planned);
			return 0;
		}
		if (err)
			return err;
		written += size;
		out->files_written++;
		out->bytes_written += size;
	}
	return 0;
}

/* delete the pattern's files, in the order they were written */
static int age_delete(struct age_fill *f, struct age_result *out)
{
	struct prng pick;
	char path[4200];
	size_t i;
	bool del;

	prng_seed(&pick, f->s->seed ^ 0x5851f42d4c957f2dULL);
	for (i = 0; i < f->n; i++) {
		if (*f->stop)
			return -EINTR;
		switch (f->s->pattern) {
		case AGE_EVERY_OTHER:
			del = i % 2 == 1;
			break;
		case AGE_RANDOM:
			del = prng_below(&pick, 100) < f->s->delete_pct;
			break;
		default:
			del = false;
			break;
		}
		if (!del)
			continue;
		age_path(f, i, path, sizeof(path));
		if (unlink(path) && errno != ENOENT)
			return -errno;
		out->files_deleted++;
		out->bytes_deleted += f->len[i];
	}
	return 0;
}

static int age_steps(struct age_fill *f, struct age_result *out)
{
	uint64_t total;
	int err;

	err = age_fill_up(f, out);
	if (!err)
		err = cache_syncfs(f->root, "after the aging's fill");
	if (!err)
		err = used_share(f->root, &out->used_filled, &total);
	if (!err)
		err = age_delete(f, out);
	if (!err)
		err = cache_syncfs(f->root, "after the aging's deletes");
	if (!err)
		err = used_share(f->root, &out->used_aged, &total);
	return err;
}

int age_filesystem(const char *dir, const struct age_spec *s,
		   const volatile sig_atomic_t *stop, struct age_result *out)
{
	char root[4096];
	struct age_fill f = { .root = root, .s = s, .stop = stop };
	uint64_t start = clock_mono_ns();
	int err;

	age_spec_format(s, out->spec, sizeof(out->spec));
	out->on = true;
	out->fill_pct = s->fill_pct;
	out->delete_pct = s->pattern == AGE_RANDOM	? s->delete_pct :
			  s->pattern == AGE_EVERY_OTHER ? 50 :
							  0;
	snprintf(out->pattern, sizeof(out->pattern), "%s",
		 age_pattern_name(s->pattern));
	snprintf(out->sizes, sizeof(out->sizes), "%s",
		 age_sizes_name(s->sizes));
	age_sizes_range(s->sizes, &out->size_min, &out->size_max);
	out->seed = s->seed;
	snprintf(root, sizeof(root), "%s/%s", dir, AGE_DIR);
	prng_seed(&f.sizes, s->seed);
	f.buf = calloc(1, AGE_WRITE);
	if (!f.buf)
		return -ENOMEM;
	memset(f.buf, 0xa5, AGE_WRITE);
	err = mkdir(root, 0755) ? -errno : 0;
	if (!err)
		err = age_steps(&f, out);
	if (err && err != -EINTR)
		log_error("aging %s (--age %s): %s", root, out->spec,
			  strerror_safe(-err));
	out->wall_ns = clock_mono_ns() - start;
	free(f.len);
	free(f.buf);
	return err;
}
