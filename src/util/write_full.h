/* SPDX-License-Identifier: GPL-2.0 */
/* Writing a whole buffer: the one way every workload writes data. */
#ifndef FSPROF_WRITE_FULL_H
#define FSPROF_WRITE_FULL_H

#include <signal.h>
#include <stddef.h>

/*
 * Write all len bytes of buf to fd. A short write is not an error (a
 * filesystem may write what fits, a signal may cut a write short): the rest
 * is written again, and if the device is full that next write says so
 * (-ENOSPC). EINTR is retried, unless *stop (may be NULL) is set: then
 * -EINTR. Returns 0 or -errno; a write(2) that returns 0 for a non-empty
 * buffer gives -ENOSPC (nothing more fits).
 */
int write_full(int fd, const void *buf, size_t len,
	       const volatile sig_atomic_t *stop);

#endif
