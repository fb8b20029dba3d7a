/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's internal dev_t, as tracepoints and super_block.s_dev hold it:
 * MAJOR << 20 | MINOR (include/linux/kdev_t.h).
 */
#ifndef FSPROF_KDEV_BPF_H
#define FSPROF_KDEV_BPF_H

#include <bpf/bpf_core_read.h>

#define KERNEL_MINORBITS 20
#define KERNEL_MKDEV(ma, mi) (((ma) << KERNEL_MINORBITS) | (mi))

/*
 * a whole disk's dev_t (its first minor), 0 for no disk; disk is a BTF
 * pointer (loaded from a tracepoint argument)
 */
static __always_inline __u32 gendisk_dev(struct gendisk *disk)
{
	if (!disk)
		return 0;
	return KERNEL_MKDEV((__u32)disk->major, (__u32)disk->first_minor);
}

#endif
