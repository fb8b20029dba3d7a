/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel-version compatibility, and nothing else: each item names the kernel
 * commit it works around. Everything here is decided by CO-RE feature
 * detection against the running kernel's BTF, never by version number.
 */
#ifndef FSPROF_CORE_FIXES_BPF_H
#define FSPROF_CORE_FIXES_BPF_H

#include <bpf/bpf_core_read.h>

/* ---- block domain (bpf/block.bpf.c) ---- */

/*
 * The block domain's helpers load fields directly: its tp_btf arguments
 * are BTF pointers, and a direct load is one instruction (the verifier
 * guards it) where BPF_CORE_READ is a bpf_probe_read_kernel call each,
 * ~30 ns, a dozen of them per request.
 */

/*
 * The disk of a request. commit f3fa33acca9f ("block: remove the ->rq_disk
 * field in struct request") (5.17) left rq->q->disk, which commit
 * d152c682f03c ("block: add an explicit ->disk backpointer to the
 * request_queue") (5.15) had added.
 */
struct request___old {
	struct gendisk *rq_disk;
} __attribute__((preserve_access_index));

static __always_inline struct gendisk *rq_gendisk(struct request *rq)
{
	struct request___old *old = (void *)rq;

	if (bpf_core_field_exists(old->rq_disk))
		return old->rq_disk;
	return rq->q->disk;
}

/*
 * The disk of a bio. commit 309dca309fc3 ("block: store a block_device
 * pointer in struct bio") (5.12) replaced bio->bi_disk with
 * bio->bi_bdev->bd_disk.
 */
struct bio___old {
	struct gendisk *bi_disk;
} __attribute__((preserve_access_index));

static __always_inline struct gendisk *bio_gendisk(struct bio *bio)
{
	struct bio___old *old = (void *)bio;

	if (bpf_core_field_exists(old->bi_disk))
		return old->bi_disk;
	return bio->bi_bdev->bd_disk;
}

/*
 * A request operation's value. commit ff07a02e9e8e ("treewide: Rename enum
 * req_opf into enum req_op") (6.0); both carry the same enumerator names.
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

/*
 * A kthread's struct kthread. commit e32cf5dfbe22 ("kthread: Generalize
 * pf_io_worker so it can point to struct kthread") (5.17) moved it to
 * task->worker_private; before, the kthread stashed it in set_child_tid.
 */
struct task_struct___old {
	int *set_child_tid;
} __attribute__((preserve_access_index));

static __always_inline struct kthread *task_kthread(struct task_struct *t)
{
	struct task_struct___old *old = (void *)t;

	if (bpf_core_field_exists(t->worker_private))
		return t->worker_private;
	return (struct kthread *)old->set_child_tid;
}

/* ---- writeback domain (bpf/writeback.bpf.c) ---- */

/*
 * A bdi's name ("7:2") into buf, NUL-terminated; returns the bytes read or
 * < 0. commit 6bd87eec23cb ("bdi: add a ->dev_name field to struct
 * backing_dev_info") (5.7); before it, the name was the bdi device's kobject
 * name, dev_name(bdi->dev).
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

/* ---- ext4 domain (bpf/ext4.bpf.c) ---- */

/* the ext4 helpers need enum ext4_cr */
#include "fsprof/ext4.h"

/*
 * mballoc criteria (6.5). Before, ac_criteria was a plain 0..3. Then
 * commit 4eb7a4a1a33b ("ext4: Convert mballoc cr (criteria) to enum") made
 * the passes enum criteria (CR0 .. CR3), commit 7e170922f06b ("ext4: Add
 * allocation criteria 1.5 (CR1_5)") added a pass between cr 1 and cr 2, and
 * commit f52f3d2b9fba ("ext4: Give symbolic names to mballoc criterias")
 * renamed them CR_POWER2_ALIGNED ... CR_ANY_FREE. Each kernel value is
 * matched against the running kernel's own enumerators, so the name reported
 * is the pass that ran.
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
	/* cr 0..3, as a plain number or as enum criteria without CR1_5 */
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


/* ---- xfs domain (bpf/xfs.bpf.c) ---- */

/*
 * The mount a log item belongs to. commit d86142dd7c4e ("xfs: log items
 * should have a xlog pointer, not a mount") (5.18) replaced li_mountp with
 * li_log.
 */
struct xfs_log_item___mountp {
	struct xfs_mount *li_mountp;
} __attribute__((preserve_access_index));

static __always_inline struct xfs_mount *
xfs_log_item_mount(struct xfs_log_item *lip)
{
	struct xfs_log_item___mountp *old = (void *)lip;

	if (!lip)
		return NULL;
	if (bpf_core_field_exists(lip->li_log))
		return BPF_CORE_READ(lip, li_log, l_mp);
	return BPF_CORE_READ(old, li_mountp);
}

/*
 * The mount an allocation group belongs to. commit e9c4d8bfb26c ("xfs:
 * factor out a generic xfs_group structure") (6.13) replaced pag_mount with
 * pag_group.xg_mount.
 */
struct xfs_perag___mount {
	struct xfs_mount *pag_mount;
} __attribute__((preserve_access_index));

static __always_inline struct xfs_mount *xfs_perag_mount(struct xfs_perag *pag)
{
	struct xfs_perag___mount *old = (void *)pag;

	if (!pag)
		return NULL;
	if (bpf_core_field_exists(old->pag_mount))
		return BPF_CORE_READ(old, pag_mount);
	return BPF_CORE_READ(pag, pag_group.xg_mount);
}

/*
 * An iclog's flags, 0 on a kernel without them. commit eef983ffeae7 ("xfs:
 * journal IO cache flush reductions") added ic_flags with XLOG_ICL_NEED_FLUSH
 * (1) and XLOG_ICL_NEED_FUA (2), #defines in xfs_log_priv.h and so not in
 * BTF.
 */
#define FSPROF_XLOG_ICL_NEED_FUA 2

static __always_inline __u32 xlog_iclog_flags(struct xlog_in_core *iclog)
{
	if (bpf_core_field_exists(iclog->ic_flags))
		return BPF_CORE_READ(iclog, ic_flags);
	return 0;
}

/* ---- sched domain (bpf/sched.bpf.c) ---- */

/*
 * A task's state. commit 2f064a59a11f ("sched: Change task_struct::state")
 * (5.14) renamed state to __state, an unsigned int. Needed where
 * sched_switch does not pass prev_state: it does since commit fa2c3254d7cf
 * ("sched/tracing: Don't re-read p->state when emitting sched_switch event")
 * (5.18).
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

#endif
