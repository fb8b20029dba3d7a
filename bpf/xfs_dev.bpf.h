/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The dev_t of the XFS filesystem an event's object belongs to. The XFS
 * events are read as tp_btf: the superblock's dev is reached through the
 * event's first argument, as the kernel's own record does. Every pointer is
 * read with BPF_CORE_READ, so a NULL one yields dev 0 and is filtered out.
 */
#ifndef FSPROF_XFS_DEV_BPF_H
#define FSPROF_XFS_DEV_BPF_H

#include <bpf/bpf_core_read.h>

static __always_inline __u32 xfs_mount_dev(struct xfs_mount *mp)
{
	return mp ? BPF_CORE_READ(mp, m_super, s_dev) : 0;
}

static __always_inline __u32 xlog_dev(struct xlog *log)
{
	return log ? xfs_mount_dev(BPF_CORE_READ(log, l_mp)) : 0;
}

#endif
