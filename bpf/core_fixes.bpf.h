/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one place for kernel-version differences. Everything here is decided by
 * CO-RE feature detection against the running kernel's BTF, never by version.
 */
#ifndef FSPROF_CORE_FIXES_BPF_H
#define FSPROF_CORE_FIXES_BPF_H

#include <bpf/bpf_core_read.h>

#define KERNEL_MINORBITS 20
#define KERNEL_MKDEV(ma, mi) (((ma) << KERNEL_MINORBITS) | (mi))

/* struct request lost rq_disk in 5.17; rq->q->disk exists since 5.15 */
struct request___old {
	struct gendisk *rq_disk;
} __attribute__((preserve_access_index));

static __always_inline struct gendisk *rq_gendisk(struct request *rq)
{
	struct request___old *old = (void *)rq;

	if (bpf_core_field_exists(old->rq_disk))
		return BPF_CORE_READ(old, rq_disk);
	return BPF_CORE_READ(rq, q, disk);
}

static __always_inline __u32 rq_dev(struct request *rq)
{
	struct gendisk *disk = rq_gendisk(rq);

	if (!disk)
		return 0;
	return KERNEL_MKDEV(BPF_CORE_READ(disk, major),
			    BPF_CORE_READ(disk, first_minor));
}

/*
 * enum req_op (6.0+) was enum req_opf before; both carry the same names.
 * The first flag bit (__REQ_FAILFAST_DEV) equals REQ_OP_BITS, so the op mask
 * is derived from the kernel's own enum too.
 */
enum req_opf___old {
	REQ_OP_READ___opf,
	REQ_OP_WRITE___opf,
	REQ_OP_FLUSH___opf,
	REQ_OP_DISCARD___opf,
	REQ_OP_SECURE_ERASE___opf,
	REQ_OP_WRITE_ZEROES___opf,
};

#define REQ_OP_VALUE(name)                                \
	(bpf_core_enum_value_exists(enum req_op, name) ?  \
		 bpf_core_enum_value(enum req_op, name) : \
		 bpf_core_enum_value(enum req_opf___old, name##___opf))

static __always_inline __u32 req_op_mask(void)
{
	return (1U << bpf_core_enum_value(enum req_flag_bits,
					  __REQ_FAILFAST_DEV)) -
	       1;
}

/* ---- block domain (bpf/block.bpf.c) ---- */

/* bio->bi_disk became bio->bi_bdev->bd_disk in 5.12 */
struct bio___old {
	struct gendisk *bi_disk;
} __attribute__((preserve_access_index));

static __always_inline __u32 bio_dev(struct bio *bio)
{
	struct bio___old *old = (void *)bio;
	struct gendisk *disk;

	if (bpf_core_field_exists(old->bi_disk))
		disk = BPF_CORE_READ(old, bi_disk);
	else
		disk = BPF_CORE_READ(bio, bi_bdev, bd_disk);
	if (!disk)
		return 0;
	return KERNEL_MKDEV(BPF_CORE_READ(disk, major),
			    BPF_CORE_READ(disk, first_minor));
}

/* a kthread's struct kthread: task->worker_private since 5.17, before that
 * the kthread stashed it in set_child_tid */
struct task_struct___old {
	int *set_child_tid;
} __attribute__((preserve_access_index));

static __always_inline struct kthread *task_kthread(struct task_struct *t)
{
	struct task_struct___old *old = (void *)t;

	if (bpf_core_field_exists(t->worker_private))
		return BPF_CORE_READ(t, worker_private);
	return (struct kthread *)BPF_CORE_READ(old, set_child_tid);
}

/* ---- end block domain ---- */

/* ---- writeback domain (bpf/writeback.bpf.c) ---- */

/*
 * A bdi's name ("7:2") into buf, NUL-terminated; returns the bytes read or
 * < 0. bdi->dev_name appeared in 5.8; before, the name was the bdi device's
 * kobject name, dev_name(bdi->dev).
 */
static __always_inline long bdi_name_read(struct backing_dev_info *bdi,
					  char *buf, __u32 len)
{
	const char *name;

	if (bpf_core_field_exists(bdi->dev_name))
		return bpf_core_read_str(buf, len, &bdi->dev_name);
	name = BPF_CORE_READ(bdi, dev, kobj.name);
	if (!name)
		return -1;
	return bpf_probe_read_kernel_str(buf, len, name);
}

/* ---- end writeback domain ---- */

/* ---- jbd2 / ext4 domains (bpf/jbd2.bpf.c, bpf/ext4.bpf.c) ---- */

/* the ext4 helpers need enum ext4_cr: only for objects including ext4.h */
#ifdef FSPROF_EXT4_H

/*
 * mballoc criteria. 6.5 added a pass between cr 1 and cr 2 and made the
 * passes an enum, first numbered (CR0, CR1, CR1_5, CR2, CR3), soon after
 * named (CR_POWER2_ALIGNED ... CR_ANY_FREE). Before that, ac_criteria was a
 * plain 0..3. Each kernel value is matched against the running kernel's own
 * enumerators, so the name reported is the pass that ran.
 */
enum criteria___numbered {
	CR0___numbered,
	CR1___numbered,
	CR1_5___numbered,
	CR2___numbered,
	CR3___numbered,
};

#define EXT4_CR_IS(cr, name)                                \
	(bpf_core_enum_value_exists(enum criteria, name) && \
	 (cr) == bpf_core_enum_value(enum criteria, name))
#define EXT4_CR_NUMBERED_IS(cr, name)                          \
	(bpf_core_enum_value_exists(enum criteria___numbered,  \
				    name##___numbered) &&      \
	 (cr) == bpf_core_enum_value(enum criteria___numbered, \
				     name##___numbered))

static __always_inline enum ext4_cr ext4_cr_decode(__u32 cr)
{
	if (bpf_core_enum_value_exists(enum criteria, CR_ANY_FREE)) {
		if (EXT4_CR_IS(cr, CR_POWER2_ALIGNED))
			return EXT4_CR_POWER2_ALIGNED;
		if (EXT4_CR_IS(cr, CR_GOAL_LEN_FAST))
			return EXT4_CR_GOAL_LEN_FAST;
		if (EXT4_CR_IS(cr, CR_BEST_AVAIL_LEN))
			return EXT4_CR_BEST_AVAIL_LEN;
		if (EXT4_CR_IS(cr, CR_GOAL_LEN_SLOW))
			return EXT4_CR_GOAL_LEN_SLOW;
		if (EXT4_CR_IS(cr, CR_ANY_FREE))
			return EXT4_CR_ANY_FREE;
		return EXT4_CR_UNKNOWN;
	}
	if (bpf_core_enum_value_exists(enum criteria___numbered,
				       CR1_5___numbered)) {
		if (EXT4_CR_NUMBERED_IS(cr, CR0))
			return EXT4_CR_POWER2_ALIGNED;
		if (EXT4_CR_NUMBERED_IS(cr, CR1))
			return EXT4_CR_GOAL_LEN_FAST;
		if (EXT4_CR_NUMBERED_IS(cr, CR1_5))
			return EXT4_CR_BEST_AVAIL_LEN;
		if (EXT4_CR_NUMBERED_IS(cr, CR2))
			return EXT4_CR_GOAL_LEN_SLOW;
		if (EXT4_CR_NUMBERED_IS(cr, CR3))
			return EXT4_CR_ANY_FREE;
		return EXT4_CR_UNKNOWN;
	}
	/* before 6.5: cr 0..3, no enum in BTF */
	switch (cr) {
	case 0:
		return EXT4_CR_POWER2_ALIGNED;
	case 1:
		return EXT4_CR_GOAL_LEN_FAST;
	case 2:
		return EXT4_CR_GOAL_LEN_SLOW;
	case 3:
		return EXT4_CR_ANY_FREE;
	default:
		return EXT4_CR_UNKNOWN;
	}
}

/* ac_groups_scanned came with the mballoc statistics of 5.13 */
static __always_inline __u32
ext4_ac_groups_scanned(struct ext4_allocation_context *ac)
{
	if (!bpf_core_field_exists(ac->ac_groups_scanned))
		return 0;
	return BPF_CORE_READ(ac, ac_groups_scanned);
}

#endif /* FSPROF_EXT4_H */

/* ---- end of jbd2 / ext4 domains ---- */

/* ---- xfs domain (bpf/xfs.bpf.c) ---------------------------------------- */

/*
 * The XFS events are read as tp_btf: the superblock's dev is reached through
 * the event's first argument, as the kernel's own record does. Every pointer
 * is read with BPF_CORE_READ, so a NULL one yields dev 0 and is filtered out.
 */
static __always_inline __u32 xfs_mount_dev(struct xfs_mount *mp)
{
	return mp ? BPF_CORE_READ(mp, m_super, s_dev) : 0;
}

static __always_inline __u32 xlog_dev(struct xlog *log)
{
	return log ? xfs_mount_dev(BPF_CORE_READ(log, l_mp)) : 0;
}

/* log items pointed at their mount before the log (li_mountp, until 5.17) */
struct xfs_log_item___mountp {
	struct xfs_mount *li_mountp;
} __attribute__((preserve_access_index));

static __always_inline __u32 xfs_log_item_dev(struct xfs_log_item *lip)
{
	struct xfs_log_item___mountp *old = (void *)lip;

	if (!lip)
		return 0;
	if (bpf_core_field_exists(lip->li_log))
		return xlog_dev(BPF_CORE_READ(lip, li_log));
	return xfs_mount_dev(BPF_CORE_READ(old, li_mountp));
}

/* the per-AG structure had its own mount pointer before xfs_group (6.13) */
struct xfs_perag___mount {
	struct xfs_mount *pag_mount;
} __attribute__((preserve_access_index));

static __always_inline __u32 xfs_perag_dev(struct xfs_perag *pag)
{
	struct xfs_perag___mount *old = (void *)pag;

	if (!pag)
		return 0;
	if (bpf_core_field_exists(old->pag_mount))
		return xfs_mount_dev(BPF_CORE_READ(old, pag_mount));
	return xfs_mount_dev(BPF_CORE_READ(pag, pag_group.xg_mount));
}

/*
 * The iclog flags (XLOG_ICL_NEED_FLUSH 1, XLOG_ICL_NEED_FUA 2: #defines in
 * xfs_log_priv.h, so not in BTF) arrived with the cache-flush rework (5.13);
 * 0 before.
 */
#define FSPROF_XLOG_ICL_NEED_FUA 2

static __always_inline __u32 xlog_iclog_flags(struct xlog_in_core *iclog)
{
	if (bpf_core_field_exists(iclog->ic_flags))
		return BPF_CORE_READ(iclog, ic_flags);
	return 0;
}

/* ---- end of xfs domain --------------------------------------------------- */

/* ---- sched domain (bpf/sched.bpf.c) ------------------------------------ */

/*
 * task_struct.state became __state (an unsigned int) in 5.14 (2f064a59a11f,
 * "sched: Change task_struct::state"); sched_switch passes it as prev_state
 * only since 5.18 (fa2c3254d7cf, "sched/tracing: Don't re-read p->state
 * when emitting sched_switch event").
 */
struct task_struct___state_old {
	long state;
} __attribute__((preserve_access_index));

static __always_inline long task_state(struct task_struct *t)
{
	struct task_struct___state_old *old = (void *)t;

	if (bpf_core_field_exists(t->__state))
		return BPF_CORE_READ(t, __state);
	return BPF_CORE_READ(old, state);
}

/* ---- end of sched domain ------------------------------------------------- */

#endif
