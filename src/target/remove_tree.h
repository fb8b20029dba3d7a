/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FSPROF_REMOVE_TREE_H
#define FSPROF_REMOVE_TREE_H

/*
 * Teardown's rm -rf of fsprof's own work directory (untimed; the workloads
 * time theirs with rmtree_at): remove dir and everything below it, without
 * following symlinks and without crossing into other mounts. Returns 0 (a
 * dir or entry already gone too: a traced command may remove FSPROF_DIR
 * itself) or -errno.
 */
int remove_tree(const char *dir);

#endif
