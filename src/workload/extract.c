// SPDX-License-Identifier: GPL-2.0
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
#include "workload/extract.h"

#define TAR_BLOCK 512
#define TAR_NAME_FIELD 100 /* longer names need a GNU long-name header */

/* one open directory of the current path: cur[0..end) */
struct dir_level {
	int fd;
	size_t end;
};

struct extractor {
	int rootfd;
	const char *label;
	struct phase_ctx *pc;
	uint64_t stream_off; /* where the member would be in a tar stream */
	uint64_t bytes_done;
	struct dir_level *levels; /* [0] is rootfd */
	size_t depth, cap;
	char cur[PATH_MAX];
	const char *member; /* for error messages */
};

static int put_fail(struct extractor *x, const char *what)
{
	int err = errno;

	log_error("untar: member '%s': %s in %s: %s", x->member, what, x->label,
		  strerror_safe(err));
	return -err;
}

struct extractor *extractor_new(int rootfd, const char *label,
				struct phase_ctx *pc)
{
	struct extractor *x = calloc(1, sizeof(*x));

	if (!x)
		return NULL;
	x->cap = 16;
	x->levels = calloc(x->cap, sizeof(*x->levels));
	if (!x->levels) {
		free(x);
		return NULL;
	}
	x->rootfd = rootfd;
	x->label = label;
	x->pc = pc;
	x->levels[0].fd = rootfd;
	x->levels[0].end = 0;
	x->depth = 1;
	return x;
}

void extractor_free(struct extractor *x)
{
	if (!x)
		return;
	while (x->depth > 1)
		close(x->levels[--x->depth].fd);
	free(x->levels);
	free(x);
}

/* open (making it if missing) one component below the deepest level */
static int push_component(struct extractor *x, const char *comp, size_t len)
{
	struct dir_level *top = &x->levels[x->depth - 1];
	char name[NAME_MAX + 1];
	uint64_t t0;
	int fd;

	if (len > NAME_MAX || top->end + 1 + len >= sizeof(x->cur)) {
		errno = ENAMETOOLONG;
		return put_fail(x, "open parent directory");
	}
	memcpy(name, comp, len);
	name[len] = '\0';
	t0 = clock_mono_ns();
	fd = openat(top->fd, name,
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT) {
		/* a directory the archive leaves implied, as tar makes it */
		if (mkdirat(top->fd, name, 0755) && errno != EEXIST)
			return put_fail(x, "make parent directory");
		op_record(x->pc, OP_MKDIR, t0);
		work_add(x->pc, 0, 1, 0);
		t0 = clock_mono_ns();
		fd = openat(top->fd, name,
			    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	}
	if (fd < 0 && (errno == ELOOP || errno == ENOTDIR)) {
		log_error(
			"untar: member '%s': '%s' in its path is a symlink or not a directory; refusing to write through it",
			x->member, name);
		return -ELOOP;
	}
	if (fd < 0)
		return put_fail(x, "open parent directory");
	op_record(x->pc, OP_OPEN, t0);
	work_add(x->pc, 0, 1, 0);
	if (x->depth == x->cap) {
		struct dir_level *bigger =
			realloc(x->levels, 2 * x->cap * sizeof(*bigger));

		if (!bigger) {
			close(fd);
			return -ENOMEM;
		}
		x->levels = bigger;
		x->cap *= 2;
	}
	if (top->end)
		x->cur[top->end] = '/';
	memcpy(x->cur + top->end + !!top->end, name, len + 1);
	x->levels[x->depth].fd = fd;
	x->levels[x->depth].end = top->end + !!top->end + len;
	x->depth++;
	return 0;
}

/* the fd of directory dir (dir[0..len), "" is the root), made current */
static int enter_dir(struct extractor *x, const char *dir, size_t len)
{
	size_t keep = 1, pos;

	/* the deepest open level that is a whole-component prefix of dir */
	while (keep < x->depth) {
		size_t end = x->levels[keep].end;

		if (end > len || memcmp(x->cur, dir, end) ||
		    (end < len && dir[end] != '/'))
			break;
		keep++;
	}
	while (x->depth > keep)
		close(x->levels[--x->depth].fd);
	pos = x->levels[x->depth - 1].end;
	while (pos < len) {
		const char *comp;
		size_t clen;
		int err;

		if (dir[pos] == '/')
			pos++;
		comp = dir + pos;
		clen = strcspn(comp, "/");
		if (pos + clen > len)
			clen = len - pos;
		err = push_component(x, comp, clen);
		if (err)
			return err;
		pos += clen;
	}
	return x->levels[x->depth - 1].fd;
}

/* the parent's fd and the base name of a member path */
static int enter_parent(struct extractor *x, const char *path,
			const char **base)
{
	const char *slash = strrchr(path, '/');

	*base = slash ? slash + 1 : path;
	return enter_dir(x, path, slash ? (size_t)(slash - path) : 0);
}

/* a directory below rootfd, opened component by component (hard links) */
static int open_beneath(struct extractor *x, const char *dir, size_t len)
{
	int fd = dup(x->rootfd);
	size_t pos = 0;

	while (fd >= 0 && pos < len) {
		char name[NAME_MAX + 1];
		size_t clen = strcspn(dir + pos, "/");
		int next;

		if (pos + clen > len)
			clen = len - pos;
		if (clen > NAME_MAX) {
			close(fd);
			errno = ENAMETOOLONG;
			return -1;
		}
		memcpy(name, dir + pos, clen);
		name[clen] = '\0';
		next = openat(fd, name,
			      O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		close(fd);
		fd = next;
		pos += clen + 1;
	}
	return fd;
}

/* the header blocks tar writes before a member's data */
static void stream_header(struct extractor *x, const struct memtar *t,
			  const struct memtar_entry *e)
{
	const char *link = memtar_link(t, e);
	size_t len = strlen(memtar_path(t, e));

	x->stream_off += TAR_BLOCK;
	if (len >= TAR_NAME_FIELD)
		x->stream_off +=
			TAR_BLOCK + (len + TAR_BLOCK) / TAR_BLOCK * TAR_BLOCK;
	if (link && strlen(link) >= TAR_NAME_FIELD)
		x->stream_off += TAR_BLOCK + (strlen(link) + TAR_BLOCK) /
						     TAR_BLOCK * TAR_BLOCK;
}

/* data in writes that end where the archive's 10 KiB records end */
static int put_data(struct extractor *x, int fd, const unsigned char *data,
		    uint64_t size)
{
	uint64_t done = 0, t0;

	while (done < size) {
		uint64_t room = EXTRACT_RECORD_SIZE -
				x->stream_off % EXTRACT_RECORD_SIZE;
		size_t chunk =
			(size_t)(size - done < room ? size - done : room);
		int err;

		t0 = clock_mono_ns();
		err = write_full(fd, data + done, chunk, NULL);
		if (err) {
			errno = -err;
			return put_fail(x, "write");
		}
		op_record(x->pc, OP_WRITE, t0);
		work_add(x->pc, (uint64_t)chunk, 1, 0);
		done += (uint64_t)chunk;
		x->stream_off += (uint64_t)chunk;
		x->bytes_done += (uint64_t)chunk;
	}
	x->stream_off = (x->stream_off + TAR_BLOCK - 1) / TAR_BLOCK * TAR_BLOCK;
	progress_set(x->pc->progress, x->bytes_done);
	return 0;
}

static int put_file(struct extractor *x, const struct memtar *t,
		    const struct memtar_entry *e, int dirfd, const char *base)
{
	struct timespec ts[2] = { { .tv_nsec = UTIME_OMIT },
				  { .tv_sec = e->mtime } };
	uint64_t t0 = clock_mono_ns();
	int fd, err;

	fd = openat(dirfd, base,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		    e->mode);
	if (fd < 0 && errno == EEXIST) {
		log_error(
			"untar: member '%s' already exists in %s (the archive holds it twice?)",
			x->member, x->label);
		return -EEXIST;
	}
	if (fd < 0)
		return put_fail(x, "create");
	op_record(x->pc, OP_CREATE, t0);
	work_add(x->pc, 0, 1, 1);
	err = put_data(x, fd, t->data + e->data_off, e->size);
	if (!err && futimens(fd, ts))
		err = put_fail(x, "set mtime");
	work_add(x->pc, 0, 1, 0);
	t0 = clock_mono_ns();
	if (close(fd) && !err)
		err = put_fail(x, "close");
	op_record(x->pc, OP_CLOSE, t0);
	work_add(x->pc, 0, 1, 0);
	return err;
}

static int put_dir(struct extractor *x, const struct memtar_entry *e, int dirfd,
		   const char *base)
{
	uint64_t t0 = clock_mono_ns();
	struct stat st;

	if (!mkdirat(dirfd, base, e->mode)) {
		op_record(x->pc, OP_MKDIR, t0);
		work_add(x->pc, 0, 1, 0);
		return 0;
	}
	if (errno != EEXIST)
		return put_fail(x, "mkdir");
	/* made earlier as an implied parent: take the archive's mode */
	if (fstatat(dirfd, base, &st, AT_SYMLINK_NOFOLLOW) ||
	    !S_ISDIR(st.st_mode)) {
		log_error(
			"untar: member '%s' is a directory, but %s already holds something else there",
			x->member, x->label);
		return -EEXIST;
	}
	if (fchmodat(dirfd, base, e->mode, 0))
		return put_fail(x, "chmod");
	work_add(x->pc, 0, 2, 0);
	return 0;
}

static int put_symlink(struct extractor *x, const struct memtar *t,
		       const struct memtar_entry *e, int dirfd,
		       const char *base)
{
	struct timespec ts[2] = { { .tv_nsec = UTIME_OMIT },
				  { .tv_sec = e->mtime } };
	uint64_t t0 = clock_mono_ns();

	if (symlinkat(memtar_link(t, e), dirfd, base))
		return put_fail(x, errno == EEXIST ?
					   "symlink (already exists)" :
					   "symlink");
	op_record(x->pc, OP_CREATE, t0);
	if (utimensat(dirfd, base, ts, AT_SYMLINK_NOFOLLOW))
		return put_fail(x, "set symlink mtime");
	work_add(x->pc, 0, 2, 1);
	return 0;
}

static int put_hardlink(struct extractor *x, const struct memtar *t,
			const struct memtar_entry *e, int dirfd,
			const char *base)
{
	const char *target = memtar_link(t, e), *slash = strrchr(target, '/');
	uint64_t t0;
	int oldfd, err = 0;

	oldfd = open_beneath(x, target, slash ? (size_t)(slash - target) : 0);
	if (oldfd < 0)
		return put_fail(x, "open the hard link target's directory");
	t0 = clock_mono_ns();
	/* no AT_SYMLINK_FOLLOW: a symlink target is linked, not followed */
	if (linkat(oldfd, slash ? slash + 1 : target, dirfd, base, 0))
		err = put_fail(x, "hard link");
	else
		op_record(x->pc, OP_CREATE, t0);
	close(oldfd);
	work_add(x->pc, 0, 1, err ? 0 : 1);
	return err;
}

int extractor_put(struct extractor *x, const struct memtar *t,
		  const struct memtar_entry *e)
{
	const char *base;
	int dirfd;

	x->member = memtar_path(t, e);
	stream_header(x, t, e);
	dirfd = enter_parent(x, x->member, &base);
	if (dirfd < 0)
		return dirfd;
	switch (e->type) {
	case MEMTAR_FILE:
		return put_file(x, t, e, dirfd, base);
	case MEMTAR_DIR:
		return put_dir(x, e, dirfd, base);
	case MEMTAR_SYMLINK:
		return put_symlink(x, t, e, dirfd, base);
	case MEMTAR_HARDLINK:
		return put_hardlink(x, t, e, dirfd, base);
	}
	return -EINVAL;
}

int extractor_finish(struct extractor *x, const struct memtar *t)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		const struct memtar_entry *e = &t->v[i];
		struct timespec ts[2] = { { .tv_nsec = UTIME_OMIT },
					  { .tv_sec = e->mtime } };
		const char *path = memtar_path(t, e);
		int fd;

		if (e->type != MEMTAR_DIR)
			continue;
		x->member = path;
		fd = enter_dir(x, path, strlen(path));
		if (fd < 0)
			return fd;
		if (futimens(fd, ts))
			return put_fail(x, "set directory mtime");
		work_add(x->pc, 0, 1, 0);
	}
	return 0;
}
