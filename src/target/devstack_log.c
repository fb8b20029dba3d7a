// SPDX-License-Identifier: GPL-2.0
/*
 * The log's ranges mapped down a stack (target/devstack.h): one layer at a
 * time, from the filesystem's device to the members' disks.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "target/devstack.h"
#include "target/devstack_sysfs.h"
#include "target/stack_map.h"

#define DEVSTACK_MAX_DEPTH 8
#define DM_MAX_SEGMENTS 64

/* one md member: its name, slot and data offset, as md/dev-X/ says */
struct md_member {
	char name[32];
	int slot; /* -1: a spare, or faulty */
	uint64_t offset, size_kib;
};

struct md_array {
	char level[16];
	uint64_t chunk; /* sectors */
	unsigned int n;
	struct md_member m[BLK_MEMBERS_MAX];
};

static int map_range(const struct devstack_source *src, const char *name,
		     uint64_t start, uint64_t len, struct block_stack *out,
		     int depth);

/* a range on a member's disk, merged with the last when they touch */
static int leaf_add(struct block_stack *out, const char *name, uint64_t start,
		    uint64_t len)
{
	struct stack_log_range *last = out->n_log ? &out->log[out->n_log - 1] :
						    NULL;
	unsigned int i;

	for (i = 0; i < out->n && strcmp(out->member[i].name, name); i++)
		;
	if (i == out->n) {
		snprintf(out->log_note, sizeof(out->log_note),
			 "%s is not among the members the walk found", name);
		return -ENOENT;
	}
	start += out->member[i].part_start;
	if (last && last->member == i && last->start + last->sectors == start) {
		last->sectors += len;
		return 0;
	}
	if (out->n_log == BLK_LOG_MAX_RANGES) {
		snprintf(out->log_note, sizeof(out->log_note),
			 "the log lies in more than %d ranges on the members",
			 BLK_LOG_MAX_RANGES);
		return -ENOSPC;
	}
	out->log[out->n_log++] = (struct stack_log_range){ i, start, len };
	return 0;
}

static int map_dm(const struct devstack_source *src, const char *name,
		  uint64_t start, uint64_t len, struct block_stack *out,
		  int depth)
{
	struct dm_segment *seg = calloc(DM_MAX_SEGMENTS, sizeof(*seg));
	uint64_t below, blen;
	char dev[32];
	int i, n, err = 0;

	n = seg && src->dm_table ?
		    src->dm_table(src->arg, name, seg, DM_MAX_SEGMENTS) :
		    -ENOMEM;
	if (n < 0)
		snprintf(out->log_note, sizeof(out->log_note),
			 "the table of %s cannot be read: %s", name,
			 strerror(-n));
	for (i = 0; i < n && !err; i++) {
		if (!dm_linear_overlap(&seg[i], start, len, &below, &blen))
			continue;
		if (strcmp(seg[i].type, "linear")) {
			snprintf(
				out->log_note, sizeof(out->log_note),
				"%s's dm target %s places its sectors in a way fsprof does not map (it maps linear)",
				name, seg[i].type);
			err = -EOPNOTSUPP;
		} else if (devstack_name_of(src, seg[i].major, seg[i].minor,
					    dev, sizeof(dev))) {
			snprintf(
				out->log_note, sizeof(out->log_note),
				"%s maps onto %u:%u, which sysfs does not list",
				name, seg[i].major, seg[i].minor);
			err = -ENOENT;
		} else {
			err = map_range(src, dev, below, blen, out, depth + 1);
		}
	}
	free(seg);
	return n < 0 ? n : err;
}

static int md_read(const struct devstack_source *src, const char *name,
		   struct md_array *a)
{
	struct name_list *devs = malloc(sizeof(*devs));
	char attr[96], slot[16];
	unsigned int i;
	int err;

	memset(a, 0, sizeof(*a));
	err = devs ? list_dir(src, name, "md", "dev-", devs) : -ENOMEM;
	if (!err &&
	    attr_read(src, name, "md/level", a->level, sizeof(a->level)) <= 0)
		err = -ENOENT;
	if (!err && !attr_u64(src, name, "md/chunk_size", &a->chunk))
		a->chunk /= 512;
	for (i = 0; !err && i < devs->n && a->n < BLK_MEMBERS_MAX; i++) {
		struct md_member *m = &a->m[a->n++];

		snprintf(m->name, sizeof(m->name), "%s", devs->name[i] + 4);
		snprintf(attr, sizeof(attr), "md/%s/slot", devs->name[i]);
		m->slot = attr_read(src, name, attr, slot, sizeof(slot)) > 0 &&
					  strcmp(slot, "none") ?
				  atoi(slot) :
				  -1;
		snprintf(attr, sizeof(attr), "md/%s/offset", devs->name[i]);
		err = attr_u64(src, name, attr, &m->offset);
		snprintf(attr, sizeof(attr), "md/%s/size", devs->name[i]);
		if (!err)
			err = attr_u64(src, name, attr, &m->size_kib);
	}
	free(devs);
	return err;
}

/* the member in slot, or NULL */
static const struct md_member *md_slot(const struct md_array *a, int slot)
{
	unsigned int i;

	for (i = 0; i < a->n; i++)
		if (a->m[i].slot == slot)
			return &a->m[i];
	return NULL;
}

/*
 * RAID0 places chunks over its members in one pattern only while every
 * member has room (one zone): members of one size, in chunks. Their
 * count, or 0 (the note says why) when the layout cannot be mapped.
 */
static unsigned int raid0_single_zone(const char *name,
				      const struct md_array *a,
				      struct block_stack *out)
{
	const struct md_member *first = md_slot(a, 0), *m;
	unsigned int n;

	for (n = 0; (m = md_slot(a, (int)n)); n++)
		if (!a->chunk || m->size_kib * 2 / a->chunk !=
					 first->size_kib * 2 / a->chunk) {
			snprintf(
				out->log_note, sizeof(out->log_note),
				"md raid0 %s's members differ in size: past the smallest, its chunks go round fewer members (a second zone), which fsprof does not map",
				name);
			return 0;
		}
	if (!n)
		snprintf(out->log_note, sizeof(out->log_note),
			 "md raid0 %s has no member in slot 0", name);
	return n;
}

static int map_md(const struct devstack_source *src, const char *name,
		  uint64_t start, uint64_t len, struct block_stack *out,
		  int depth)
{
	struct md_array *a = malloc(sizeof(*a));
	const struct md_member *m;
	uint64_t ms, ml;
	unsigned int i, n;
	int err = a ? md_read(src, name, a) : -ENOMEM;

	if (err) {
		snprintf(out->log_note, sizeof(out->log_note),
			 "the md layout of %s cannot be read in sysfs", name);
	} else if (!strcmp(a->level, "raid1")) {
		/* a copy of every block on every active member */
		for (i = 0; !err && i < a->n; i++)
			if (a->m[i].slot >= 0)
				err = map_range(src, a->m[i].name,
						a->m[i].offset + start, len,
						out, depth + 1);
	} else if (!strcmp(a->level, "raid0")) {
		n = raid0_single_zone(name, a, out);
		err = n ? 0 : -EOPNOTSUPP;
		for (i = 0; !err && i < n; i++)
			if ((m = md_slot(a, (int)i)) &&
			    raid0_member_range(start, len, n, a->chunk, i, &ms,
					       &ml))
				err = map_range(src, m->name, m->offset + ms,
						ml, out, depth + 1);
	} else {
		snprintf(
			out->log_note, sizeof(out->log_note),
			"md %s %s places its sectors in a way fsprof does not map (it maps raid0 and raid1)",
			a->level, name);
		err = -EOPNOTSUPP;
	}
	free(a);
	return err;
}

static int map_range(const struct devstack_source *src, const char *name,
		     uint64_t start, uint64_t len, struct block_stack *out,
		     int depth)
{
	struct name_list slaves;

	if (depth > DEVSTACK_MAX_DEPTH)
		return -ELOOP;
	if (is_dir(src, name, "dm"))
		return map_dm(src, name, start, len, out, depth);
	if (is_dir(src, name, "md"))
		return map_md(src, name, start, len, out, depth);
	/* a layer neither md nor dm: bcache, drbd... */
	if (!list_dir(src, name, "slaves", "", &slaves) && slaves.n) {
		snprintf(
			out->log_note, sizeof(out->log_note),
			"%s stacks on other devices in a way fsprof does not map (it maps dm-linear, md raid0 and raid1)",
			name);
		return -EOPNOTSUPP;
	}
	return leaf_add(out, name, start, len);
}

int devstack_map_log(const struct devstack_source *src,
		     const struct log_region *log, struct block_stack *out)
{
	unsigned int i;
	int err = 0;

	out->n_log = 0;
	out->log_mapped = false;
	if (!log->n) {
		snprintf(out->log_note, sizeof(out->log_note),
			 "the filesystem's log has no ranges to map (%s)",
			 log->source);
		return -ENOENT;
	}
	for (i = 0; !err && i < log->n; i++)
		err = map_range(src, out->top, log->range[i].start,
				log->range[i].sectors, out, 0);
	if (err) {
		char why[sizeof(out->log_note)];

		out->n_log = 0;
		snprintf(why, sizeof(why), "%s", out->log_note);
		snprintf(out->log_note, sizeof(out->log_note),
			 "the log class is not mapped on this stack: %.210s",
			 why);
		return err;
	}
	out->log_mapped = true;
	snprintf(out->log_note, sizeof(out->log_note),
		 "mapped through %.200s: %u range(s) on the members",
		 out->layout, out->n_log);
	return 0;
}
