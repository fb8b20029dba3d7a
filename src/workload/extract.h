/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Writes in-memory archive members below one directory, the way GNU tar
 * does (create with O_EXCL, data in writes bounded by the archive's 10 KiB
 * records, mtime set, directory times set at the end), and never outside
 * it: every path is opened relative to a directory fd, one component at a
 * time, with O_NOFOLLOW, so no symlink is ever followed.
 */
#ifndef FSPROF_EXTRACT_H
#define FSPROF_EXTRACT_H

#include "workload/memtar.h"
#include "workload/workload.h"

/* GNU tar's default record: 20 blocks of 512 bytes */
#define EXTRACT_RECORD_SIZE 10240

struct extractor;

/*
 * Extract below rootfd (not taken over); label is its path, for errors.
 * Calls are timed into pc's op histograms and counted as pc's work.
 */
struct extractor *extractor_new(int rootfd, const char *label,
				struct phase_ctx *pc);

/* one member; members must come in archive order */
int extractor_put(struct extractor *x, const struct memtar *t,
		  const struct memtar_entry *e);

/* give every directory of the archive its mtime, as tar does last */
int extractor_finish(struct extractor *x, const struct memtar *t);

void extractor_free(struct extractor *x);

#endif
