/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tree as a sorted list of records (path, type, mode, size, content CRC,
 * link target, mtime), made from an in-memory archive or by walking a
 * directory, with a checksum and a first-difference compare. untar uses it
 * to prove that what it extracted is what the archive holds.
 */
#ifndef FSPROF_TREESUM_H
#define FSPROF_TREESUM_H

#include <stddef.h>
#include <stdint.h>

#include "workload/memtar.h"

/* 48 bits: exact in a JSON number, whatever reads it */
#define TREESUM_MASK ((1ULL << 48) - 1)

struct tree_rec {
	char *path; /* relative to the tree's root, no leading "./" */
	char type; /* 'f' regular file, 'd' directory, 'l' symlink */
	uint32_t mode; /* permission bits */
	uint64_t size;
	uint32_t crc; /* CRC-32 of the content (files) */
	int64_t mtime; /* seconds */
	char *link; /* symlink target, else NULL */
};

struct tree_list {
	struct tree_rec *v;
	size_t n, cap;
};

struct tree_sum {
	uint64_t files; /* regular files (each hard link counts) */
	uint64_t dirs;
	uint64_t symlinks;
	uint64_t bytes; /* in regular files */
	uint64_t checksum; /* over files and symlinks, see tree_sum_compute */
};

/* the records an archive extracts to (hard links resolved), sorted */
int tree_list_from_memtar(const struct memtar *t, struct tree_list *out);

/*
 * The records below dirfd (not following symlinks, reading every file
 * with O_NOATIME so the walk dirties nothing), sorted. label names the
 * directory in error messages.
 */
int tree_list_walk(int dirfd, const char *label, struct tree_list *out);

/*
 * Counts, and a 48-bit FNV-1a hash over every regular file's (path, mode,
 * size, CRC-32) and every symlink's (path, target), in path order.
 * Directories are counted, not hashed (a tarball may leave some implied).
 */
void tree_sum_compute(const struct tree_list *l, struct tree_sum *out);

enum tree_cmp_flags {
	TREE_CMP_DIRS = 1, /* directories and their modes too */
	TREE_CMP_MTIME = 2, /* mtimes of files and directories */
};

/* 0 when equal under flags; 1 and the first difference in why, if not */
int tree_list_diff(const struct tree_list *a, const struct tree_list *b,
		   unsigned int flags, char *why, size_t len);

void tree_list_free(struct tree_list *l);

#endif
