/* SPDX-License-Identifier: GPL-2.0 */
/* Paths made absolute against the current directory. */
#ifndef FSPROF_PATH_H
#define FSPROF_PATH_H

#include <stddef.h>

/*
 * path as an absolute path into out (as it is when it starts with '/').
 * Returns 0, or -EACCES with why saying what failed (the current directory
 * unreadable, the result too long).
 */
int path_absolute(const char *path, char *out, size_t len, char *why,
		  size_t why_len);

#endif
