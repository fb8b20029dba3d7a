/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An md array fsprof makes of its own loop devices (--raid): created with
 * mdadm (it writes the superblocks), stopped with the STOP_ARRAY ioctl
 * (teardown, and fsprof cleanup after a kill, which needs no mdadm).
 */
#ifndef FSPROF_MDARRAY_H
#define FSPROF_MDARRAY_H

#include <stddef.h>
#include <sys/types.h>

#include "util/teardown.h"

struct mdarray {
	char name[16]; /* "md120" */
	char path[32]; /* "/dev/md120" */
	dev_t dev;
};

/*
 * Create a RAID level array of the n devices (paths) under a free name,
 * recorded ("md NAME") before it is made; its stop goes onto td.
 */
int mdarray_create(struct mdarray *md, unsigned int level,
		   const char *const *devices, unsigned int n,
		   struct teardown *td);

/*
 * --device members: the user's devices, recorded ("mdmember PATH") and
 * their md superblocks zeroed (mdadm --zero-superblock) after the array
 * is stopped: pushed onto td before mdarray_create, so undone after it.
 */
int mdarray_members_claim(const char *const *devices, unsigned int n,
			  struct teardown *td);

/*
 * mdadm --zero-superblock path, when it has the md 1.2 superblock that
 * mdarray_create writes (0 without: mdadm never got to write it); 0 or
 * -errno, said
 */
int mdarray_zero_member(const char *path);

/* stop the array named name ("md120"); 0 or -errno */
int mdarray_stop_name(const char *name);

#endif
