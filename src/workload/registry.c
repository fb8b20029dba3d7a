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
