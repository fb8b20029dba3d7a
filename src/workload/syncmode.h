/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sync= parameter of seqio, files1m and fsync: how each write is made
 * durable, to model a database's log or an application's writes.
 *   none       no per-write durability (the phase's own sync, if any)
 *   osync      open with O_SYNC: each write waits for data and metadata
 *   odsync     open with O_DSYNC: each write waits for its data
 *   fsync      an fsync(2) after each write
 *   fdatasync  an fdatasync(2) after each write
 */
#ifndef FSPROF_WORKLOAD_SYNCMODE_H
#define FSPROF_WORKLOAD_SYNCMODE_H

#include "workload/workload.h"

enum sync_mode {
	SYNC_MODE_NONE,
	SYNC_MODE_OSYNC,
	SYNC_MODE_ODSYNC,
	SYNC_MODE_FSYNC,
	SYNC_MODE_FDATASYNC,
	SYNC_MODE_NR,
};

#define SYNC_MODE_HELP \
	"durability per write: none, osync/odsync (O_SYNC/O_DSYNC open), fsync/fdatasync (a call after each write)"

/* the mode of the workload's sync= (SYNC_MODE_NR: not a mode) */
enum sync_mode sync_mode_of(const struct workload_params *params);

/* 0, or -EINVAL with an error that names the workload and the modes */
int sync_mode_check(const char *workload, const struct workload_params *params);

/* O_SYNC, O_DSYNC or 0 */
int sync_mode_open_flags(enum sync_mode m);

/* after a write: fsync or fdatasync, timed as OP_FSYNC; 0 or -errno */
int sync_mode_after_write(enum sync_mode m, struct phase_ctx *pc, int fd);

#endif
