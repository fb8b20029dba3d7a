// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <sys/statvfs.h>

#include "run/case_age.h"
#include "target/freespace.h"
#include "util/log.h"
#include "util/parse.h"
#include "workload/age.h"

/* the workload's peak must fit in what the aging left */
static int age_room_check(const struct target *t, uint64_t need,
			  const struct age_result *a)
{
	struct statvfs st;
	char left[32], want[32];
	uint64_t avail;

	if (statvfs(t->mnt, &st))
		return -errno;
	/* the workload runs as root: the blocks reserved for root are its */
	avail = (uint64_t)st.f_bfree * st.f_frsize;
	if (avail >= need)
		return 0;
	format_bytes(avail, left, sizeof(left));
	format_bytes(need, want, sizeof(want));
	log_error(
		"--age %s left %s free on %s and the workload needs %s at its peak: lower fill=, delete more (pattern=every-other or random with a larger delete=), or give a larger --image-size",
		a->spec, left, t->mnt, want);
	return -ENOSPC;
}

static void age_said(const struct age_result *a)
{
	char wrote[32], deleted[32];

	format_bytes(a->bytes_written, wrote, sizeof(wrote));
	format_bytes(a->bytes_deleted, deleted, sizeof(deleted));
	log_info(
		"aged (--age %s): %llu files written (%s), %.0f%% used; %llu deleted (%s), %.0f%% used; %.1f s",
		a->spec, (unsigned long long)a->files_written, wrote,
		100 * a->used_filled, (unsigned long long)a->files_deleted,
		deleted, 100 * a->used_aged, (double)a->wall_ns / 1e9);
}

int case_age(const struct target *t, const struct age_spec *s, uint64_t need,
	     const volatile sig_atomic_t *stop, struct case_result *c)
{
	int err;

	log_info("aging %s: --age, untimed, before the tracer starts", t->mnt);
	err = age_filesystem(t->mnt, s, stop, &c->age);
	if (err)
		return err;
	age_said(&c->age);
	/* no histogram is a gap in the record, not a failed case */
	if (freespace_histogram(t->fstype, t->devpath, t->mnt, &c->age.free))
		log_warn("aged %s: no free-space histogram: %s", t->mnt,
			 c->age.free.error);
	return age_room_check(t, need, &c->age);
}
