// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/disk.h"

#define NS_PER_S 1e9

/*
 * The seek curve (Ruemmler and Wilkes, "An Introduction to Disk Drive
 * Modeling", IEEE Computer 27(3), 1994: about a + b*sqrt(d) for short
 * seeks, where the arm accelerates and decelerates, and c + e*d for long
 * ones, where it coasts) over x, the fraction of the full stroke. Made
 * from the three figures a data sheet gives: a is the one-track seek,
 * value and slope are continuous at x0, t(1) is the full stroke, and the
 * mean over all pairs of positions (the data sheets' "weighted average":
 * the distance of a random pair has density 2(1 - x)) is the average
 * seek. x0 is found by bisection: the mean grows with x0, from the
 * straight line's a + (full - a)/3 to the square root's a + 8/15 b.
 */
static double curve_b(double a, double full, double x0)
{
	return (full - a) / (sqrt(x0) / 2 + 1 / (2 * sqrt(x0)));
}

static double curve_mean(double a, double b, double x0)
{
	double c = a + b * sqrt(x0) / 2, e = b / (2 * sqrt(x0));
	double lo_const = 2 * x0 - x0 * x0;
	double lo_sqrt = 2 * (2.0 / 3 * pow(x0, 1.5) - 2.0 / 5 * pow(x0, 2.5));
	double hi_const = (1 - x0) * (1 - x0);
	double hi_lin = 1.0 / 3 - x0 * x0 + 2.0 / 3 * x0 * x0 * x0;

	return a * lo_const + b * lo_sqrt + c * hi_const + e * hi_lin;
}

static int curve_fit(struct disk_model *d)
{
	double a = (double)d->m.seek_track_ns, avg = (double)d->m.seek_avg_ns;
	double full = (double)d->m.seek_full_ns, lo = 1e-6, hi = 1 - 1e-6;
	int i;

	if (!(a < avg && avg < full) ||
	    curve_mean(a, curve_b(a, full, lo), lo) > avg ||
	    curve_mean(a, curve_b(a, full, hi), hi) < avg)
		return -EINVAL;
	for (i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2;

		if (curve_mean(a, curve_b(a, full, mid), mid) < avg)
			lo = mid;
		else
			hi = mid;
	}
	d->seek_x0 = (lo + hi) / 2;
	d->seek_a = a;
	d->seek_b = curve_b(a, full, d->seek_x0);
	d->seek_c = a + d->seek_b * sqrt(d->seek_x0) / 2;
	d->seek_e = d->seek_b / (2 * sqrt(d->seek_x0));
	return 0;
}

double disk_seek_ns(const struct disk_model *d, double x)
{
	if (x <= 0)
		return 0;
	if (x < d->seek_x0)
		return d->seek_a + d->seek_b * sqrt(x);
	return d->seek_c + d->seek_e * x;
}

double disk_mean_seek_ns(const struct disk_model *d)
{
	return curve_mean(d->seek_a, d->seek_b, d->seek_x0);
}

void disk_model_reset(struct disk_model *d)
{
	d->busy_until = 0;
	d->busy_read = 0;
	d->head = 0;
	d->ra_valid = false;
	d->n_dirty = 0;
	d->dirty_bytes = 0;
}

int disk_model_init(struct disk_model *d, const struct device_model *m,
		    uint64_t span)
{
	memset(d, 0, sizeof(*d));
	d->m = *m;
	d->span = span ? span : 1;
	if (!disk_model_seeking(m))
		return 0;
	if (!m->media_bps || !m->iface_bps)
		return -EINVAL;
	d->rev_ns = 60 * NS_PER_S / m->rpm;
	/* a track holds what passes under the head in one revolution */
	d->track_bytes = (double)m->media_bps * d->rev_ns / NS_PER_S;
	d->n_tracks = fmax(1, (double)d->span / d->track_bytes);
	return curve_fit(d);
}

void disk_model_free(struct disk_model *d)
{
	free(d->dirty);
	d->dirty = NULL;
	d->n_dirty = d->cap_dirty = 0;
}

static double xfer_ns(uint64_t len, uint64_t bps)
{
	return bps ? (double)len * NS_PER_S / (double)bps : 0;
}

/*
 * A rate model: reads and writes each one at a time, each its 1/IOPS or
 * bytes/bandwidth (as the old throttle's limits, apart); a direction
 * without a limit is free: 0, no model
 */
static uint64_t rate_submit(struct disk_model *d, enum disk_op op, uint64_t len,
			    uint64_t now)
{
	bool rd = op == DISK_READ;
	uint64_t iops = rd ? d->m.riops : d->m.wiops;
	uint64_t bps = rd ? d->m.rbps : d->m.wbps;
	uint64_t *busy = rd ? &d->busy_read : &d->busy_until;
	double t = fmax(iops ? NS_PER_S / (double)iops : 0, xfer_ns(len, bps));
	uint64_t start = now > *busy ? now : *busy;

	if (!iops && !bps)
		return 0;
	*busy = start + (uint64_t)t;
	return *busy;
}

/*
 * One media access at off, len bytes, from the head's place, starting at
 * start: seek, wait for the sector to come round, transfer. Returns its
 * end; the head is then after it.
 */
static uint64_t media_access(struct disk_model *d, uint64_t off, uint64_t len,
			     uint64_t start)
{
	double from = floor((double)d->head / d->track_bytes);
	double to = floor((double)off / d->track_bytes);
	double t =
		(double)start + disk_seek_ns(d, fabs(to - from) / d->n_tracks);
	double angle = fmod((double)off, d->track_bytes) / d->track_bytes;
	double now_angle = fmod(t / d->rev_ns, 1.0);
	double wait = angle - now_angle;

	if (wait < 0)
		wait += 1;
	t += wait * d->rev_ns + xfer_ns(len, d->m.media_bps);
	d->head = off + len;
	return (uint64_t)t;
}

/* how far the stream may read ahead: past the furthest byte asked of it */
static uint64_t ra_cap(const struct disk_model *d)
{
	return (d->head > d->ra_off ? d->head : d->ra_off) +
	       d->m.readahead_bytes;
}

/* the read-ahead stops when the head goes elsewhere at time t */
static void ra_freeze(struct disk_model *d, uint64_t t)
{
	double pos;

	if (!d->ra_valid || d->ra_held)
		return;
	/* what passed under the head since the stream began */
	pos = (double)d->ra_off + (t > d->ra_t0 ? (double)(t - d->ra_t0) : 0) *
					  (double)d->m.media_bps / NS_PER_S;
	if (pos > (double)ra_cap(d))
		pos = (double)ra_cap(d);
	d->ra_held = (uint64_t)pos;
	if (d->ra_held <= d->ra_off)
		d->ra_valid = false;
}

static void dirty_remove(struct disk_model *d, size_t i)
{
	d->dirty_bytes -= d->dirty[i].end - d->dirty[i].start;
	memmove(&d->dirty[i], &d->dirty[i + 1],
		(d->n_dirty - i - 1) * sizeof(d->dirty[0]));
	d->n_dirty--;
}

/*
 * The next extent to destage, elevator order (the first at or after the
 * head, else the lowest) among those already in the cache at time t;
 * -1 when none is.
 */
static long destage_pick(const struct disk_model *d, uint64_t t)
{
	long first = -1;
	size_t i;

	for (i = 0; i < d->n_dirty; i++) {
		if (d->dirty[i].t_in > t)
			continue;
		if (d->dirty[i].start >= d->head)
			return (long)i;
		if (first < 0)
			first = (long)i;
	}
	return first;
}

/* the earliest time an extent in the cache can be destaged */
static uint64_t dirty_earliest(const struct disk_model *d)
{
	uint64_t t = UINT64_MAX;
	size_t i;

	for (i = 0; i < d->n_dirty; i++)
		if (d->dirty[i].t_in < t)
			t = d->dirty[i].t_in;
	return t;
}

/* destage one extent, the disk free from then on: false when none */
static bool destage_one(struct disk_model *d)
{
	uint64_t start = d->busy_until, first = dirty_earliest(d);
	long i;

	if (!d->n_dirty)
		return false;
	if (first > start)
		start = first;
	i = destage_pick(d, start);
	ra_freeze(d, start);
	d->busy_until = media_access(d, d->dirty[i].start,
				     d->dirty[i].end - d->dirty[i].start,
				     start);
	dirty_remove(d, (size_t)i);
	return true;
}

/* what the idle disk destaged before now (each destage, once started, ends) */
static void advance(struct disk_model *d, uint64_t now)
{
	while (d->n_dirty) {
		uint64_t start = d->busy_until, first = dirty_earliest(d);

		if (first > start)
			start = first;
		if (start >= now)
			break;
		destage_one(d);
	}
}

static bool cache_holds(const struct disk_model *d, uint64_t off, uint64_t end)
{
	size_t i;

	for (i = 0; i < d->n_dirty; i++)
		if (d->dirty[i].start <= off && end <= d->dirty[i].end)
			return true;
	return false;
}

/* add [off, end) to the cache at time t, merged with what it touches */
static int cache_insert(struct disk_model *d, uint64_t off, uint64_t end,
			uint64_t t)
{
	size_t i = 0, j;

	while (i < d->n_dirty && d->dirty[i].end < off)
		i++;
	/* i: the first extent that touches or follows off */
	j = i;
	while (j < d->n_dirty && d->dirty[j].start <= end) {
		if (d->dirty[j].start < off)
			off = d->dirty[j].start;
		if (d->dirty[j].end > end)
			end = d->dirty[j].end;
		j++;
	}
	while (j > i) {
		dirty_remove(d, i);
		j--;
	}
	if (d->n_dirty == d->cap_dirty) {
		size_t cap = d->cap_dirty ? 2 * d->cap_dirty : 64;
		struct disk_extent *n = realloc(d->dirty, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		d->dirty = n;
		d->cap_dirty = cap;
	}
	memmove(&d->dirty[i + 1], &d->dirty[i],
		(d->n_dirty - i) * sizeof(d->dirty[0]));
	d->dirty[i] = (struct disk_extent){ off, end, t };
	d->n_dirty++;
	d->dirty_bytes += end - off;
	return 0;
}

static uint64_t seek_read(struct disk_model *d, uint64_t off, uint64_t len,
			  uint64_t now)
{
	uint64_t end = off + len, oh = d->m.overhead_ns;
	uint64_t hit = now + oh + (uint64_t)xfer_ns(len, d->m.iface_bps);
	uint64_t start, done;

	if (cache_holds(d, off, end))
		return hit;
	if (d->ra_valid && off >= d->ra_off && !d->ra_held &&
	    off <= ra_cap(d)) {
		/* the stream goes on: this read ends when its last byte has
		 * passed under the head */
		done = d->ra_t0 +
		       (uint64_t)xfer_ns(end - d->ra_off, d->m.media_bps);
		done = done > hit ? done : hit;
		if (done > d->busy_until)
			d->busy_until = done;
		d->head = end > d->head ? end : d->head;
		return done;
	}
	if (d->ra_valid && d->ra_held && off >= d->ra_off && off < d->ra_held) {
		if (end <= d->ra_held)
			return hit;
		/* the rest from the media, the head where read-ahead stopped */
		len = end - d->ra_held;
		off = d->ra_held;
	}
	start = now + oh > d->busy_until ? now + oh : d->busy_until;
	ra_freeze(d, start);
	done = media_access(d, off, len, start);
	d->busy_until = done;
	if (d->m.readahead_bytes) {
		d->ra_valid = true;
		d->ra_off = end;
		d->ra_t0 = done;
		d->ra_held = 0;
	}
	return done;
}

static uint64_t seek_write(struct disk_model *d, uint64_t off, uint64_t len,
			   uint64_t now)
{
	uint64_t end = off + len, oh = d->m.overhead_ns, t = now, start;

	/* what the read-ahead held of these bytes is stale */
	if (d->ra_valid && off < d->ra_off + d->m.readahead_bytes &&
	    end > d->ra_off)
		d->ra_valid = false;
	if (!d->m.cache_bytes) {
		start = now + oh > d->busy_until ? now + oh : d->busy_until;
		ra_freeze(d, start);
		d->busy_until = media_access(d, off, len, start);
		return d->busy_until;
	}
	/* no room: wait for destages to free it */
	while (d->dirty_bytes + len > d->m.cache_bytes && destage_one(d))
		t = d->busy_until > t ? d->busy_until : t;
	if (cache_insert(d, off, end, t))
		return t + oh;
	return t + oh + (uint64_t)xfer_ns(len, d->m.iface_bps);
}

static uint64_t seek_flush(struct disk_model *d, uint64_t now)
{
	uint64_t done = now + d->m.overhead_ns;

	while (destage_one(d))
		;
	return d->busy_until > done ? d->busy_until : done;
}

uint64_t disk_model_submit(struct disk_model *d, enum disk_op op, uint64_t off,
			   uint64_t len, uint64_t now_ns)
{
	if (!disk_model_seeking(&d->m))
		return rate_submit(d, op, len, now_ns);
	advance(d, now_ns);
	switch (op) {
	case DISK_READ:
		return seek_read(d, off, len, now_ns);
	case DISK_WRITE:
		return seek_write(d, off, len, now_ns);
	case DISK_FLUSH:
		return seek_flush(d, now_ns);
	}
	return now_ns;
}

double disk_predict_read_ns(const struct disk_model *d, double x, uint64_t len)
{
	return (double)d->m.overhead_ns + disk_seek_ns(d, x) + d->rev_ns / 2 +
	       xfer_ns(len, d->m.media_bps);
}

double disk_predict_random_read_ns(const struct disk_model *d, uint64_t len)
{
	return (double)d->m.overhead_ns + disk_mean_seek_ns(d) + d->rev_ns / 2 +
	       xfer_ns(len, d->m.media_bps);
}
