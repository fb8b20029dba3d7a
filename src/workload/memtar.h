/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An archive decoded into memory, so that extraction times only the writes:
 * entries in archive order, their paths in one string arena and their data
 * in one buffer. Read from a .tar/.tar.gz/.tar.xz with libarchive, or built
 * by the synthetic tree generator (synthtree.h).
 */
#ifndef FSPROF_MEMTAR_H
#define FSPROF_MEMTAR_H

#include <stddef.h>
#include <stdint.h>

enum memtar_type {
	MEMTAR_FILE,
	MEMTAR_DIR,
	MEMTAR_SYMLINK,
	MEMTAR_HARDLINK,
};

#define MEMTAR_NO_LINK SIZE_MAX

struct memtar_entry {
	enum memtar_type type;
	uint32_t mode; /* permission bits, 07777 */
	int64_t mtime; /* seconds */
	uint64_t size; /* data bytes (files) */
	uint64_t data_off; /* into memtar.data */
	size_t path_off; /* into memtar.names: normalized member path */
	size_t link_off; /* symlink or hard link target, or MEMTAR_NO_LINK */
};

struct memtar {
	struct memtar_entry *v;
	size_t n, cap;
	char *names;
	size_t names_len, names_cap;
	unsigned char *data;
	size_t data_len, data_cap;
};

/* summary of an archive without its data: for sizing the image */
struct memtar_extent {
	uint64_t files; /* regular files and hard links */
	uint64_t dirs;
	uint64_t symlinks;
	uint64_t bytes; /* file data */
};

static inline const char *memtar_path(const struct memtar *t,
				      const struct memtar_entry *e)
{
	return t->names + e->path_off;
}

static inline const char *memtar_link(const struct memtar *t,
				      const struct memtar_entry *e)
{
	return e->link_off == MEMTAR_NO_LINK ? NULL : t->names + e->link_off;
}

/* append an entry; path and link (may be NULL) are copied */
struct memtar_entry *memtar_add(struct memtar *t, enum memtar_type type,
				const char *path, const char *link);

/* room for len more data bytes at t->data + t->data_len */
int memtar_data_reserve(struct memtar *t, size_t len);

/*
 * Decode an archive into t: every member normalized and checked (tarsafe.h).
 * Errors name the archive and the member, in err.
 */
int memtar_load(const char *archive, struct memtar *t, char *err,
		size_t errlen);

/* count an archive's members and data bytes without keeping anything */
int memtar_measure(const char *archive, struct memtar_extent *out, char *err,
		   size_t errlen);

void memtar_free(struct memtar *t);

#endif
