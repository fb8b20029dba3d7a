/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device model's engine: a disk served from user space. A daemon
 * (a child process of fsprof's, in a session of its own) serves one file,
 * "disk", on a FUSE mount in the run directory, backed by the image; the
 * lower loop device sits on that file with direct IO, the traced loop on
 * the lower one (image -> FUSE file, the model -> lower loop -> traced
 * loop). Every request the lower loop passes down (data, journal, log,
 * writeback, cache flushes) is charged its time in model/disk.c before it
 * is answered, whoever issued it; the traced device's latency and busy
 * time include the wait. It needs FUSE and loop only: no cgroup, on any
 * kernel.
 *
 * The model is off until model_daemon_engage (mkfs is not measured) and
 * off again before teardown unmounts the filesystem. The daemon's
 * counters (shared memory) say how many requests the model charged and
 * how many it could not hold: requests whose modelled time is shorter
 * than the engine's own round trip, which then run at the engine's speed.
 */
#ifndef FSPROF_MODEL_DAEMON_H
#define FSPROF_MODEL_DAEMON_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "results/device_model.h"
#include "util/teardown.h"

/* the daemon's name in ps and in /proc/PID/comm: fsprof cleanup's proof */
#define MODEL_DAEMON_COMM "fsprof-model"

struct model_stats {
	uint64_t requests, reads, writes, flushes;
	uint64_t bytes_read, bytes_written;
	uint64_t charged; /* requests served with the model on */
	uint64_t modelled_ns; /* their modelled time, summed */
	uint64_t engine_ns; /* the daemon's own time in handlers, summed */
	/* modelled shorter than the engine's round trip */
	uint64_t short_requests, short_excess_ns;
};

struct model_ctl;

/* can the engine run here (FUSE)? the reason and the fix in err if not */
int model_daemon_available(char *err, size_t errlen);

struct model_daemon {
	pid_t pid;
	int pidfd; /* the daemon's, -1 where pidfd_open is missing */
	char mnt[PATH_MAX]; /* the FUSE mount */
	char file[PATH_MAX]; /* mnt/disk: the lower loop's backing file */
	char pidfile[PATH_MAX];
	struct model_ctl *ctl; /* shared with the daemon */
	/* the engine's round trip, measured by the probe, by enum disk_op:
	 * read, write, flush */
	uint64_t round_trip[3];
	bool stopped;
	bool dead; /* it died, and that was said */
};

/*
 * Start the daemon for model m (active) on image (size bytes), its mount
 * at dir (created, below the run directory, with name.pid beside it): the
 * file to attach into md->file. The stop goes onto td. 0 or -errno, said.
 */
int model_daemon_start(struct model_daemon *md, const struct device_model *m,
		       const char *image, uint64_t size, const char *dir,
		       struct teardown *td);

/*
 * Measure the engine's round trip through dev (a loop device stacked on
 * md->file) with the model off: 4 KiB direct reads and writes (at the
 * disk's end, before mkfs), and cache flushes. The
 * time the engine adds outside the model is taken off every request's
 * wait from then on, so that a request's latency is the model's. 0 or
 * -errno, said.
 */
int model_daemon_probe(struct model_daemon *md, const char *dev);

/* the model on (a cold, idle disk) or off; the off goes onto td */
int model_daemon_engage(struct model_daemon *md, struct teardown *td);
void model_daemon_disengage(struct model_daemon *md);

/* the counters since the start */
void model_daemon_stats(const struct model_daemon *md, struct model_stats *s);

/*
 * 0 while the daemon runs; -EPIPE when it died, with what killed it said
 * (the filesystem above it then sees IO errors: the case fails).
 */
int model_daemon_check(struct model_daemon *md);

/* the pidfile names a live daemon of fsprof's (its start time and name) */
bool model_daemon_pidfile_live(const char *pidfile, pid_t *pid);
/* unmount (lazily) and remove a model's mount directory: 0/-errno */
int model_mount_remove(const char *mnt);

/* fsprof cleanup: stop the daemon the pidfile names, remove it. 0/-errno */
int model_daemon_kill_pidfile(const char *pidfile);

#endif
