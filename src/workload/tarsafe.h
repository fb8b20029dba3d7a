/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What an archive member may name, checked before anything is extracted:
 * no absolute paths, no ".." components, no link that points outside the
 * extraction directory. Pure string checks; the extractor also opens every
 * path relative to a directory fd with O_NOFOLLOW, so a symlink placed by an
 * earlier member is never followed.
 */
#ifndef FSPROF_TARSAFE_H
#define FSPROF_TARSAFE_H

#include <stddef.h>

/*
 * Canonical member path into out: leading "./" and repeated or trailing
 * slashes dropped, "." components removed ("./a//./b/" -> "a/b"). "" is the
 * extraction directory itself. -ENAMETOOLONG when out is too small.
 */
int tarsafe_normalize(const char *path, char *out, size_t len);

/* NULL when the (normalized) member path stays inside, else why not */
const char *tarsafe_path_problem(const char *path);

/*
 * NULL when a symlink at member pointing to target resolves, by its text,
 * inside the extraction directory; else why not.
 */
const char *tarsafe_symlink_problem(const char *member, const char *target);

/* NULL when a hard link to target (a member path) is safe, else why not */
const char *tarsafe_hardlink_problem(const char *target);

#endif
