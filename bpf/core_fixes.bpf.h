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

#define REQ_OP_VALUE(name)                                                   \
	(bpf_core_enum_value_exists(enum req_op, name) ?                     \
		 bpf_core_enum_value(enum req_op, name) :                    \
		 bpf_core_enum_value(enum req_opf___old, name##___opf))

static __always_inline __u32 req_op_mask(void)
{
	return (1U << bpf_core_enum_value(enum req_flag_bits,
					  __REQ_FAILFAST_DEV)) -
	       1;
}

#endif
