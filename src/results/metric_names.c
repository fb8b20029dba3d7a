// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "fsprof/btrfs.h"
#include "fsprof/ext4.h"
#include "fsprof/jbd2.h"
#include "fsprof/xfs.h"
#include "results/metric_names.h"

#define METRIC_READ_NAME(id, name) [MR_##id] = name,

const char *const metric_read_names[MR_NR] = { METRIC_READS(METRIC_READ_NAME) };

#define EXT4_NAME(field, metric, prog) "ext4." #metric,
#define JBD2_NAME(field, metric, prog) "jbd2." #metric,
#define XFS_NAME(id, metric) "xfs." #metric,
#define BTRFS_NAME(field, metric, prog) "btrfs." #metric,

static const char *const counters[] = { EXT4_COUNTERS(EXT4_NAME) JBD2_COUNTERS(
	JBD2_NAME) XFS_COUNTERS(XFS_NAME) BTRFS_COUNTERS(BTRFS_NAME) };

bool metric_name_is_counter(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(counters) / sizeof(counters[0]); i++)
		if (!strcmp(counters[i], name))
			return true;
	return false;
}
