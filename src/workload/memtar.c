// SPDX-License-Identifier: GPL-2.0
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload/memtar.h"
#include "workload/tarsafe.h"

#define MEMTAR_READ_BLOCK (1U << 16)

static int grow(void **buf, size_t *cap, size_t need, size_t elem)
{
	size_t n = *cap ? *cap : 64;
	void *bigger;

	if (need <= *cap)
		return 0;
	while (n < need) {
		if (n > SIZE_MAX / 2 / elem)
			return -ENOMEM;
		n *= 2;
	}
	bigger = realloc(*buf, n * elem);
	if (!bigger)
		return -ENOMEM;
	*buf = bigger;
	*cap = n;
	return 0;
}

static int memtar_name(struct memtar *t, const char *s, size_t *off)
{
	size_t len = strlen(s) + 1;

	if (grow((void **)&t->names, &t->names_cap, t->names_len + len, 1))
		return -ENOMEM;
	memcpy(t->names + t->names_len, s, len);
	*off = t->names_len;
	t->names_len += len;
	return 0;
}

struct memtar_entry *memtar_add(struct memtar *t, enum memtar_type type,
				const char *path, const char *link)
{
	struct memtar_entry *e;

	if (grow((void **)&t->v, &t->cap, t->n + 1, sizeof(*t->v)))
		return NULL;
	e = &t->v[t->n];
	memset(e, 0, sizeof(*e));
	e->type = type;
	e->link_off = MEMTAR_NO_LINK;
	if (memtar_name(t, path, &e->path_off))
		return NULL;
	if (link && memtar_name(t, link, &e->link_off))
		return NULL;
	t->n++;
	return e;
}

int memtar_data_reserve(struct memtar *t, size_t len)
{
	if (t->data_len + len < t->data_len)
		return -ENOMEM;
	return grow((void **)&t->data, &t->data_cap, t->data_len + len, 1);
}

void memtar_free(struct memtar *t)
{
	free(t->v);
	free(t->names);
	free(t->data);
	memset(t, 0, sizeof(*t));
}

/* one pass over an archive: keep (into t) or only count (into ext) */
struct memtar_reader {
	const char *archive;
	struct archive *a;
	struct memtar *t; /* NULL: count only */
	struct memtar_extent *ext;
	char *err;
	size_t errlen;
	char path[PATH_MAX], link[PATH_MAX];
};

__attribute__((format(printf, 3, 4))) static int
reader_fail(struct memtar_reader *r, int code, const char *fmt, ...)
{
	size_t n;
	va_list ap;

	n = (size_t)snprintf(r->err, r->errlen, "%s: ", r->archive);
	if (n < r->errlen) {
		va_start(ap, fmt);
		vsnprintf(r->err + n, r->errlen - n, fmt, ap);
		va_end(ap);
	}
	return code;
}

static int reader_data(struct memtar_reader *r, struct archive_entry *ae,
		       struct memtar_entry *e)
{
	int64_t declared = archive_entry_size(ae);
	la_ssize_t n;

	e->data_off = r->t->data_len;
	if (declared > 0 && memtar_data_reserve(r->t, (size_t)declared))
		return reader_fail(r, -ENOMEM,
				   "member '%s': no memory for its %lld bytes",
				   r->path, (long long)declared);
	for (;;) {
		if (memtar_data_reserve(r->t, MEMTAR_READ_BLOCK))
			return reader_fail(r, -ENOMEM,
					   "member '%s': out of memory",
					   r->path);
		n = archive_read_data(r->a, r->t->data + r->t->data_len,
				      MEMTAR_READ_BLOCK);
		if (n < 0)
			return reader_fail(r, -EIO, "member '%s': %s", r->path,
					   archive_error_string(r->a));
		if (!n)
			break;
		r->t->data_len += (size_t)n;
	}
	e->size = r->t->data_len - e->data_off;
	return 0;
}

static int reader_type(struct memtar_reader *r, struct archive_entry *ae,
		       enum memtar_type *type)
{
	const char *problem = NULL, *target;

	target = archive_entry_hardlink(ae);
	if (target) {
		*type = MEMTAR_HARDLINK;
		if (tarsafe_normalize(target, r->link, sizeof(r->link)))
			return reader_fail(
				r, -ENAMETOOLONG,
				"member '%s': hard link target too long",
				r->path);
		problem = tarsafe_hardlink_problem(r->link);
	} else if (archive_entry_filetype(ae) == AE_IFREG) {
		*type = MEMTAR_FILE;
	} else if (archive_entry_filetype(ae) == AE_IFDIR) {
		*type = MEMTAR_DIR;
	} else if (archive_entry_filetype(ae) == AE_IFLNK) {
		*type = MEMTAR_SYMLINK;
		target = archive_entry_symlink(ae);
		snprintf(r->link, sizeof(r->link), "%s", target ? target : "");
		problem = tarsafe_symlink_problem(r->path, r->link);
	} else {
		return reader_fail(
			r, -EINVAL,
			"member '%s': device, fifo and socket members are not extracted",
			r->path);
	}
	if (problem)
		return reader_fail(
			r, -EPERM,
			"member '%s' -> '%s': %s; refusing to extract this archive",
			r->path, r->link, problem);
	return 0;
}

static int reader_entry(struct memtar_reader *r, struct archive_entry *ae)
{
	const char *name = archive_entry_pathname(ae), *problem;
	struct memtar_entry *e;
	enum memtar_type type = MEMTAR_FILE;
	int err;

	if (!name)
		return reader_fail(r, -EINVAL, "a member has no path");
	if (tarsafe_normalize(name, r->path, sizeof(r->path)))
		return reader_fail(r, -ENAMETOOLONG,
				   "member '%.200s...': path too long", name);
	problem = tarsafe_path_problem(r->path);
	if (problem)
		return reader_fail(
			r, -EPERM,
			"member '%s': %s; refusing to extract this archive",
			name, problem);
	if (!r->path[0]) /* the extraction directory itself: "./" */
		return 0;
	err = reader_type(r, ae, &type);
	if (err)
		return err;
	r->ext->files += type == MEMTAR_FILE || type == MEMTAR_HARDLINK;
	r->ext->dirs += type == MEMTAR_DIR;
	r->ext->symlinks += type == MEMTAR_SYMLINK;
	if (!r->t) {
		if (type == MEMTAR_FILE && archive_entry_size(ae) > 0)
			r->ext->bytes += (uint64_t)archive_entry_size(ae);
		return 0;
	}
	e = memtar_add(r->t, type, r->path,
		       type == MEMTAR_SYMLINK || type == MEMTAR_HARDLINK ?
			       r->link :
			       NULL);
	if (!e)
		return reader_fail(r, -ENOMEM, "out of memory");
	e->mode = (uint32_t)archive_entry_perm(ae) & 07777;
	e->mtime = (int64_t)archive_entry_mtime(ae);
	if (type != MEMTAR_FILE)
		return 0;
	err = reader_data(r, ae, e);
	r->ext->bytes += e->size;
	return err;
}

static int memtar_read(struct memtar_reader *r)
{
	struct archive_entry *ae;
	int rc, err = 0;

	r->a = archive_read_new();
	if (!r->a)
		return reader_fail(r, -ENOMEM, "out of memory");
	archive_read_support_filter_all(r->a);
	archive_read_support_format_tar(r->a);
	if (archive_read_open_filename(r->a, r->archive, MEMTAR_READ_BLOCK)) {
		err = reader_fail(r, -EINVAL,
				  "cannot read it as a tar archive: %s",
				  archive_error_string(r->a));
		goto out;
	}
	while (!err) {
		rc = archive_read_next_header(r->a, &ae);
		if (rc == ARCHIVE_EOF)
			break;
		if (rc < ARCHIVE_WARN) {
			err = reader_fail(
				r, -EIO, "after %llu members: %s",
				(unsigned long long)(r->ext->files +
						     r->ext->dirs +
						     r->ext->symlinks),
				archive_error_string(r->a));
			break;
		}
		err = reader_entry(r, ae);
	}
out:
	archive_read_free(r->a);
	return err;
}

int memtar_load(const char *archive, struct memtar *t, char *err, size_t errlen)
{
	struct memtar_extent ext = { 0 };
	struct memtar_reader *r = calloc(1, sizeof(*r));
	int rc;

	if (!r)
		return -ENOMEM;
	memset(t, 0, sizeof(*t));
	r->archive = archive;
	r->t = t;
	r->ext = &ext;
	r->err = err;
	r->errlen = errlen;
	rc = memtar_read(r);
	free(r);
	if (rc)
		memtar_free(t);
	return rc;
}

int memtar_measure(const char *archive, struct memtar_extent *out, char *err,
		   size_t errlen)
{
	struct memtar_reader *r = calloc(1, sizeof(*r));
	int rc;

	if (!r)
		return -ENOMEM;
	memset(out, 0, sizeof(*out));
	r->archive = archive;
	r->ext = out;
	r->err = err;
	r->errlen = errlen;
	rc = memtar_read(r);
	free(r);
	return rc;
}
