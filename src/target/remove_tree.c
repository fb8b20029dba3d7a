// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <ftw.h>
#include <stdio.h>

#include "target/remove_tree.h"

static int remove_tree_entry(const char *path, const struct stat *st, int type,
			     struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	return remove(path) ? errno : 0;
}

int remove_tree(const char *dir)
{
	int err = nftw(dir, remove_tree_entry, 32,
		       FTW_DEPTH | FTW_PHYS | FTW_MOUNT);

	/* gone already is removed (a traced command rm -rf its FSPROF_DIR) */
	if (err < 0)
		return errno == ENOENT ? 0 : -errno;
	return err == ENOENT ? 0 : -err;
}
