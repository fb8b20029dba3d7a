// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "workload/workload.h"

static const struct workload_def *const registry[] = {
	&seqio_workload,   &bonnie_workload,   &afd_workload,
	&files1m_workload, &mdcreate_workload, &fsync_workload,
	&untar_workload,
};

const struct workload_def *const *workload_all(unsigned int *n)
{
	*n = sizeof(registry) / sizeof(registry[0]);
	return registry;
}

const struct workload_def *workload_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < sizeof(registry) / sizeof(registry[0]); i++)
		if (!strcmp(registry[i]->name, name))
			return registry[i];
	return NULL;
}

/* ext4's default bytes-per-inode ratio (mke2fs.conf inode_ratio) */
#define EXT4_BYTES_PER_INODE 16384
/* a workload without files_needed: a file, its directory, some slack */
#define WORKLOAD_FEW_FILES 16

uint64_t workload_files_needed(const struct workload_def *wl,
			       const struct workload_params *params)
{
	return wl->files_needed ? wl->files_needed(params) :
				  WORKLOAD_FEW_FILES;
}

uint64_t workload_image_need(const struct workload_def *wl,
			     const struct workload_params *params)
{
	return wl->space_needed(params) +
	       workload_files_needed(wl, params) * EXT4_BYTES_PER_INODE;
}
