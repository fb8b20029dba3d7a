/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One fsprof run at a time per block device it formats (--device) or
 * throttles in place (--device-model with --dir/--device): a flock on
 * /run/fsprof/dev-MAJ:MIN.lock, held until teardown (the kernel drops it when
 * the process dies), with the holder's pid in the file for the message.
 * Image targets need none: every run has its own image, loop devices and run
 * directory.
 */
#ifndef FSPROF_DEVLOCK_H
#define FSPROF_DEVLOCK_H

#include <sys/types.h>

#include "util/teardown.h"

#define DEVLOCK_DIR "/run/fsprof"

/*
 * Take the lock of dev (what names it in the error: "--device /dev/sdb"),
 * released by td. 0, or -EBUSY when another live run holds it (logged).
 */
int devlock_take(dev_t dev, const char *what, struct teardown *td);

/* Is dev free? 0, or -EBUSY (logged) when another run holds it. */
int devlock_check(dev_t dev, const char *what);

#endif
