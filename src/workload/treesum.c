// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "util/log.h"
#include "workload/treesum.h"

#define TREESUM_READ_BS (1U << 20)
#define TREESUM_MAX_DEPTH 1024

static struct tree_rec *tree_list_add(struct tree_list *l, const char *path,
				      char type)
{
	struct tree_rec *r;

	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 256;
		struct tree_rec *bigger = realloc(l->v, cap * sizeof(*bigger));

		if (!bigger)
			return NULL;
		l->v = bigger;
		l->cap = cap;
	}
	r = &l->v[l->n];
	memset(r, 0, sizeof(*r));
	r->path = strdup(path);
	if (!r->path)
		return NULL;
	r->type = type;
	l->n++;
	return r;
}

void tree_list_free(struct tree_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		free(l->v[i].path);
		free(l->v[i].link);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static int rec_cmp(const void *a, const void *b)
{
	return strcmp(((const struct tree_rec *)a)->path,
		      ((const struct tree_rec *)b)->path);
}

static void tree_list_sort(struct tree_list *l)
{
	if (l->n)
		qsort(l->v, l->n, sizeof(*l->v), rec_cmp);
}

static const struct tree_rec *tree_list_find(const struct tree_list *l,
					     const char *path)
{
	struct tree_rec key = { .path = (char *)path };

	return l->n ? bsearch(&key, l->v, l->n, sizeof(*l->v), rec_cmp) : NULL;
}

static int memtar_rec(const struct memtar *t, const struct memtar_entry *e,
		      struct tree_list *out)
{
	static const char types[] = {
		[MEMTAR_FILE] = 'f',
		[MEMTAR_DIR] = 'd',
		[MEMTAR_SYMLINK] = 'l',
	};
	struct tree_rec *r =
		tree_list_add(out, memtar_path(t, e), types[e->type]);

	if (!r)
		return -ENOMEM;
	r->mode = e->mode;
	r->mtime = e->mtime;
	if (e->type == MEMTAR_FILE) {
		r->size = e->size;
		r->crc = (uint32_t)crc32_z(0, t->data + e->data_off,
					   (size_t)e->size);
	} else if (e->type == MEMTAR_SYMLINK) {
		r->link = strdup(memtar_link(t, e));
		if (!r->link)
			return -ENOMEM;
	}
	return 0;
}

/* a hard link is one more path to its target's content */
static int memtar_hardlinks(const struct memtar *t, struct tree_list *out)
{
	/* out is sorted up to here; links are appended after it */
	size_t i, n_sorted = out->n;
	struct tree_list sorted;

	for (i = 0; i < t->n; i++) {
		const struct memtar_entry *e = &t->v[i];
		const struct tree_rec *target;
		struct tree_rec copy, *r;

		if (e->type != MEMTAR_HARDLINK)
			continue;
		/* out->v may move as links are added: search the sorted part */
		sorted.v = out->v;
		sorted.n = n_sorted;
		target = tree_list_find(&sorted, memtar_link(t, e));
		if (!target || target->type != 'f') {
			log_error(
				"untar: member '%s' is a hard link to '%s', which is not a regular file of the archive",
				memtar_path(t, e), memtar_link(t, e));
			return -EINVAL;
		}
		copy = *target;
		r = tree_list_add(out, memtar_path(t, e), 'f');
		if (!r)
			return -ENOMEM;
		r->mode = copy.mode;
		r->mtime = copy.mtime;
		r->size = copy.size;
		r->crc = copy.crc;
	}
	return 0;
}

int tree_list_from_memtar(const struct memtar *t, struct tree_list *out)
{
	size_t i;
	int err = 0;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < t->n && !err; i++)
		if (t->v[i].type != MEMTAR_HARDLINK)
			err = memtar_rec(t, &t->v[i], out);
	tree_list_sort(out);
	if (!err)
		err = memtar_hardlinks(t, out);
	tree_list_sort(out);
	if (err)
		tree_list_free(out);
	return err;
}

struct tree_walk {
	const char *label;
	struct tree_list *out;
	unsigned char *buf;
	char path[PATH_MAX];
};

static int walk_fail(struct tree_walk *w, const char *what)
{
	int err = errno;

	log_error("untar: %s %s/%s: %s", what, w->label, w->path,
		  strerror_safe(err));
	return -err;
}

static int walk_file(struct tree_walk *w, int dirfd, const char *name,
		     struct tree_rec *r)
{
	int fd = openat(dirfd, name,
			O_RDONLY | O_NOFOLLOW | O_NOATIME | O_CLOEXEC);
	uLong crc = 0;
	ssize_t n;

	if (fd < 0)
		return walk_fail(w, "open");
	while ((n = read(fd, w->buf, TREESUM_READ_BS)) > 0)
		crc = crc32_z(crc, w->buf, (size_t)n);
	if (n < 0) {
		n = walk_fail(w, "read");
		close(fd);
		return (int)n;
	}
	close(fd);
	r->crc = (uint32_t)crc;
	return 0;
}

static int walk_dir(struct tree_walk *w, int dirfd, unsigned int depth);

static int walk_entry(struct tree_walk *w, int dirfd, const char *name,
		      unsigned int depth)
{
	struct tree_rec *r;
	struct stat st;
	char link[PATH_MAX];
	ssize_t n;
	int fd, err;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return walk_fail(w, "stat");
	if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode) &&
	    !S_ISLNK(st.st_mode)) {
		errno = EINVAL;
		return walk_fail(w, "special file");
	}
	r = tree_list_add(w->out, w->path,
			  S_ISREG(st.st_mode) ? 'f' :
			  S_ISDIR(st.st_mode) ? 'd' :
						'l');
	if (!r)
		return -ENOMEM;
	r->mode = st.st_mode & 07777;
	r->mtime = st.st_mtim.tv_sec;
	if (S_ISREG(st.st_mode)) {
		r->size = (uint64_t)st.st_size;
		return walk_file(w, dirfd, name, r);
	}
	if (S_ISLNK(st.st_mode)) {
		n = readlinkat(dirfd, name, link, sizeof(link) - 1);
		if (n < 0)
			return walk_fail(w, "readlink");
		link[n] = '\0';
		r->link = strdup(link);
		return r->link ? 0 : -ENOMEM;
	}
	fd = openat(dirfd, name,
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NOATIME |
			    O_CLOEXEC);
	if (fd < 0)
		return walk_fail(w, "open directory");
	err = walk_dir(w, fd, depth + 1);
	close(fd);
	return err;
}

/* takes no ownership of dirfd */
static int walk_dir(struct tree_walk *w, int dirfd, unsigned int depth)
{
	size_t base = strlen(w->path);
	struct dirent *de;
	int fd, err = 0;
	DIR *d;

	if (depth > TREESUM_MAX_DEPTH) {
		errno = ELOOP;
		return walk_fail(w, "descend into");
	}
	fd = dup(dirfd);
	d = fd < 0 ? NULL : fdopendir(fd);
	if (!d) {
		if (fd >= 0)
			close(fd);
		return walk_fail(w, "read directory");
	}
	rewinddir(d);
	while (!err && (errno = 0, de = readdir(d))) {
		int n;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		n = snprintf(w->path + base, sizeof(w->path) - base, "%s%s",
			     base ? "/" : "", de->d_name);
		if (n < 0 || (size_t)n >= sizeof(w->path) - base) {
			errno = ENAMETOOLONG;
			err = walk_fail(w, "walk");
			break;
		}
		err = walk_entry(w, dirfd, de->d_name, depth);
		w->path[base] = '\0';
	}
	if (!err && errno)
		err = walk_fail(w, "read directory");
	closedir(d);
	return err;
}

int tree_list_walk(int dirfd, const char *label, struct tree_list *out)
{
	struct tree_walk *w = calloc(1, sizeof(*w));
	int err = -ENOMEM;

	memset(out, 0, sizeof(*out));
	if (!w)
		return -ENOMEM;
	w->label = label;
	w->out = out;
	w->buf = malloc(TREESUM_READ_BS);
	if (w->buf)
		err = walk_dir(w, dirfd, 0);
	free(w->buf);
	free(w);
	if (err)
		tree_list_free(out);
	else
		tree_list_sort(out);
	return err;
}

static uint64_t fnv1a(uint64_t h, const void *p, size_t len)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ b[i]) * 0x100000001b3ULL;
	return h;
}

void tree_sum_compute(const struct tree_list *l, struct tree_sum *out)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < l->n; i++) {
		const struct tree_rec *r = &l->v[i];

		if (r->type == 'd') {
			out->dirs++;
			continue;
		}
		h = fnv1a(h, &r->type, 1);
		h = fnv1a(h, r->path, strlen(r->path) + 1);
		if (r->type == 'l') {
			out->symlinks++;
			h = fnv1a(h, r->link, strlen(r->link) + 1);
			continue;
		}
		out->files++;
		out->bytes += r->size;
		h = fnv1a(h, &r->mode, sizeof(r->mode));
		h = fnv1a(h, &r->size, sizeof(r->size));
		h = fnv1a(h, &r->crc, sizeof(r->crc));
	}
	out->checksum = h & TREESUM_MASK;
}

static const char *type_name(char type)
{
	return type == 'f' ? "regular file" :
	       type == 'd' ? "directory" :
			     "symlink";
}

/* 0 when a and b (same path) agree under flags, else say how */
static int rec_diff(const struct tree_rec *a, const struct tree_rec *b,
		    unsigned int flags, char *why, size_t len)
{
	if (a->type != b->type)
		snprintf(why, len, "%s: %s here, %s there", a->path,
			 type_name(a->type), type_name(b->type));
	else if (a->type != 'l' && a->mode != b->mode)
		snprintf(why, len, "%s: mode %04o here, %04o there", a->path,
			 a->mode, b->mode);
	else if (a->type == 'f' && a->size != b->size)
		snprintf(why, len, "%s: %llu bytes here, %llu there", a->path,
			 (unsigned long long)a->size,
			 (unsigned long long)b->size);
	else if (a->type == 'f' && a->crc != b->crc)
		snprintf(why, len,
			 "%s: contents differ (CRC-32 %08x here, %08x there)",
			 a->path, a->crc, b->crc);
	else if (a->type == 'l' && strcmp(a->link, b->link))
		snprintf(why, len, "%s: symlink to '%s' here, to '%s' there",
			 a->path, a->link, b->link);
	else if ((flags & TREE_CMP_MTIME) && a->type != 'l' &&
		 a->mtime != b->mtime)
		snprintf(why, len, "%s: mtime %lld here, %lld there", a->path,
			 (long long)a->mtime, (long long)b->mtime);
	else
		return 0;
	return 1;
}

/* the next record that counts under flags */
static size_t next_rec(const struct tree_list *l, size_t i, unsigned int flags)
{
	while (i < l->n && !(flags & TREE_CMP_DIRS) && l->v[i].type == 'd')
		i++;
	return i;
}

int tree_list_diff(const struct tree_list *a, const struct tree_list *b,
		   unsigned int flags, char *why, size_t len)
{
	size_t i = next_rec(a, 0, flags), j = next_rec(b, 0, flags);

	while (i < a->n || j < b->n) {
		int c = i == a->n ? 1 :
			j == b->n ? -1 :
				    strcmp(a->v[i].path, b->v[j].path);

		if (c < 0) {
			snprintf(why, len, "%s: only here", a->v[i].path);
			return 1;
		}
		if (c > 0) {
			snprintf(why, len, "%s: missing here", b->v[j].path);
			return 1;
		}
		if (rec_diff(&a->v[i], &b->v[j], flags, why, len))
			return 1;
		i = next_rec(a, i + 1, flags);
		j = next_rec(b, j + 1, flags);
	}
	return 0;
}
