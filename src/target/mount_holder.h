/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A live process that holds a mounted filesystem, which unmount(2) then
 * refuses (EBUSY): its working directory, root, executable or an open file
 * is below the mount point (by the paths /proc gives, not followed). fsprof cleanup asks before it waits for a dead run's mount to
 * be let go: a command fsprof trace started, still running in it, never
 * lets go by itself.
 */
#ifndef FSPROF_MOUNT_HOLDER_H
#define FSPROF_MOUNT_HOLDER_H

#include <stddef.h>
#include <sys/types.h>

/*
 * The first process (other than this one) found holding the filesystem
 * mounted on dir, with its name (/proc/PID/comm) in comm: its pid, or 0
 * when none does (or /proc cannot say); -errno when dir cannot be
 * resolved.
 */
pid_t mount_holder(const char *dir, char *comm, size_t len);

#endif
