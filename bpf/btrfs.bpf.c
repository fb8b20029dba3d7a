// SPDX-License-Identifier: GPL-2.0
/*
 * btrfs domain: who asked the target btrfs for durability - its fsyncs
 * (btrfs_sync_file, which O_SYNC/O_DSYNC writes reach too), its sync_fs
 * calls, and its transaction commits, split by whether a process committed
 * (an fsync the tree log could not serve, a sync) or the btrfs-transaction
 * thread (the commit interval). Charged to the phase running when the
 * event fired.
 *
 * btrfs's superblock has an anonymous s_dev: the filter is the filesystem's
 * newest device (fs_devices->latest_dev), the target's block device.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "fsprof/btrfs.h"
#include "phase.bpf.h"
#include "phase_stats.bpf.h"

/* this domain's target (bpf/phase.bpf.h) */
__u32 btrfs_targ_dev = 0;


struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, FSPROF_MAX_PHASES);
	__type(key, __u32);
	__type(value, struct btrfs_stats);
} btrfs_stats SEC(".maps");

#define PF_KTHREAD 0x00200000 /* include/linux/sched.h, stable since 2.6 */

static __always_inline bool fs_info_is_target(const struct btrfs_fs_info *fs)
{
	return fs && BPF_CORE_READ(fs, fs_devices, latest_dev, bdev, bd_dev) ==
			     btrfs_targ_dev;
}

SEC("tp_btf/btrfs_sync_file")
int BPF_PROG(fsprof_bt_fsync, const struct file *file, int datasync)
{
	const struct btrfs_fs_info *fs;
	struct btrfs_stats *st;

	fs = file ? BPF_CORE_READ(file, f_inode, i_sb, s_fs_info) : NULL;
	st = target_phase_stats(&btrfs_stats, fs_info_is_target(fs));
	if (!st)
		return 0;
	st->fsyncs++;
	st->fdatasyncs += datasync != 0;
	return 0;
}

SEC("tp_btf/btrfs_transaction_commit")
int BPF_PROG(fsprof_bt_commit, const struct btrfs_fs_info *fs)
{
	struct task_struct *task = (void *)bpf_get_current_task();
	struct btrfs_stats *st;

	st = target_phase_stats(&btrfs_stats, fs_info_is_target(fs));
	if (!st)
		return 0;
	st->commits++;
	if (!(BPF_CORE_READ(task, flags) & PF_KTHREAD))
		st->commits_user++;
	return 0;
}

SEC("tp_btf/btrfs_sync_fs")
int BPF_PROG(fsprof_bt_syncfs, const struct btrfs_fs_info *fs, int wait)
{
	return COUNT_TARGET_EVENT(&btrfs_stats, struct btrfs_stats,
				  fs_info_is_target(fs), sync_fs);
}
