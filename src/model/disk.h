/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The disk a device model stands for, as a function of time: given a
 * request (read, write or cache flush at a byte offset) and when it
 * arrives, when the disk would complete it. Pure computation: the engine
 * that serves the lower device (target/model_daemon.c) sleeps until that
 * time before it answers, and the calibration (check/calibrate.c) compares
 * what it measures with what this file predicts.
 *
 * Two kinds of model:
 *  - a seeking disk (hdd, hdd-15k): seek time by distance (Ruemmler and
 *    Wilkes' square-root/linear curve), rotational latency from the
 *    platter's angle at the time the head arrives, a media transfer rate,
 *    a volatile write cache the disk destages while idle (elevator order),
 *    a cache flush that waits for the whole cache to reach the media, and
 *    read-ahead after a read. The image is the whole disk: offset 0 at the
 *    outer edge, the image's last byte at the inner one.
 *  - a rate model (ssd-sata, custom:): each request takes the larger of
 *    1/IOPS and its bytes/bandwidth, one at a time; a flush counts as one
 *    write.
 */
#ifndef FSPROF_MODEL_DISK_H
#define FSPROF_MODEL_DISK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "results/device_model.h"

enum disk_op { DISK_READ, DISK_WRITE, DISK_FLUSH };

struct disk_extent {
	uint64_t start, end; /* bytes, end exclusive */
	uint64_t t_in; /* when the last of it entered the cache */
};

struct disk_model {
	struct device_model m;
	uint64_t span; /* bytes: the disk */
	/* the seek curve, ns over the fraction x of the full stroke:
	 * a + b*sqrt(x) below x0, c + e*x from x0 on */
	double seek_a, seek_b, seek_c, seek_e, seek_x0;
	double rev_ns, track_bytes, n_tracks;
	/* state */
	uint64_t busy_until; /* the head's, ns (a rate model's writes) */
	uint64_t busy_read; /* a rate model's reads */
	uint64_t head; /* byte offset under the head */
	/*
	 * read-ahead: the media streams from ra_off since ra_t0, up to the
	 * read-ahead size past the furthest byte asked of it (head); once the
	 * head goes elsewhere it holds up to ra_held (0: still streaming)
	 */
	bool ra_valid;
	uint64_t ra_off, ra_t0, ra_held;
	/* the volatile write cache: dirty extents sorted by start */
	struct disk_extent *dirty;
	size_t n_dirty, cap_dirty;
	uint64_t dirty_bytes;
};

/*
 * Ready d for model m on a disk of span bytes (m must be active). 0, or
 * -EINVAL (a seeking model's curve has no solution) / -ENOMEM.
 */
int disk_model_init(struct disk_model *d, const struct device_model *m,
		    uint64_t span);
void disk_model_free(struct disk_model *d);

/* back to a cold, idle disk with an empty cache, head at offset 0 */
void disk_model_reset(struct disk_model *d);

/*
 * completion time (ns, the clock of now_ns) of a request arriving now; 0
 * when the model does not limit it (a rate model's unlimited direction)
 */
uint64_t disk_model_submit(struct disk_model *d, enum disk_op op, uint64_t off,
			   uint64_t len, uint64_t now_ns);

static inline bool disk_model_seeking(const struct device_model *m)
{
	return m->rpm > 0;
}

/* seek time over a fraction x (0..1) of the full stroke, ns; 0 at 0 */
double disk_seek_ns(const struct disk_model *d, double x);

/*
 * The model's own figures, for the calibration: the mean service time of
 * a read of len bytes at a random angle after a seek over the fraction x
 * of the stroke, of a random read anywhere on the disk (random pairs: the
 * distance's density is 2(1 - x)), and the sequential media rate.
 */
double disk_predict_read_ns(const struct disk_model *d, double x, uint64_t len);
double disk_predict_random_read_ns(const struct disk_model *d, uint64_t len);
double disk_mean_seek_ns(const struct disk_model *d);

#endif
