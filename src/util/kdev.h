/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's internal dev_t, as tracepoints and BPF see it: MAJOR << 20 |
 * MINOR (include/linux/kdev_t.h). The one place it is encoded and decoded.
 */
#ifndef FSPROF_KDEV_H
#define FSPROF_KDEV_H

#include <sys/sysmacros.h>
#include <sys/types.h>

#define KDEV_MINOR_BITS 20
#define KDEV_MINOR_MASK ((1U << KDEV_MINOR_BITS) - 1)

static inline unsigned int kdev_encode(dev_t dev)
{
	return (major(dev) << KDEV_MINOR_BITS) | minor(dev);
}

static inline unsigned int kdev_major(unsigned int kdev)
{
	return kdev >> KDEV_MINOR_BITS;
}

static inline unsigned int kdev_minor(unsigned int kdev)
{
	return kdev & KDEV_MINOR_MASK;
}

static inline dev_t kdev_decode(unsigned int kdev)
{
	return makedev(kdev_major(kdev), kdev_minor(kdev));
}

#endif
