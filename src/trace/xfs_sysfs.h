/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XFS's own per-filesystem counters, /sys/fs/xfs/<dev>/stats/stats: the
 * peer the xfs domain's BPF counts are checked against. The "log" line is
 * xs_log_writes xs_log_blocks xs_log_noiclogs xs_log_force
 * xs_log_force_sleep; "push_ail" starts xs_try_logspace xs_sleep_logspace
 * (fs/xfs/xfs_stats.h). The counters are 32 bits wide and wrap.
 */
#ifndef FSPROF_XFS_SYSFS_H
#define FSPROF_XFS_SYSFS_H

#include <stddef.h>
#include <stdint.h>

struct xfs_sysfs_stats {
	uint32_t log_writes; /* iclogs written (xlog_sync) */
	uint32_t log_blocks; /* 512-byte blocks they took on disk */
	uint32_t log_forces; /* xfs_log_force + xfs_log_force_seq calls */
	uint32_t sleep_logspace; /* waits for log space */
};

/* the fields above from the text of a stats file; -EINVAL without them */
int xfs_sysfs_stats_parse(const char *text, struct xfs_sysfs_stats *out);

/*
 * The stats file of the XFS filesystem on kernel_dev (major << 20 | minor)
 * into path: /sys/fs/xfs/<block device name>/stats/stats. -ENOENT when no
 * XFS is mounted from that device.
 */
int xfs_sysfs_stats_path(unsigned int kernel_dev, char *path, size_t len);

int xfs_sysfs_stats_read(const char *path, struct xfs_sysfs_stats *out);

/* b - a, counter by counter, modulo 2^32 */
void xfs_sysfs_stats_delta(const struct xfs_sysfs_stats *a,
			   const struct xfs_sysfs_stats *b,
			   struct xfs_sysfs_stats *out);

#endif
