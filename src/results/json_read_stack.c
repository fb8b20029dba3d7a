// SPDX-License-Identifier: GPL-2.0
/* A stacked target's parts of a saved run (block_stack_json.c) read back. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "results/json_read_int.h"

static int dev_read(struct jread *r, const char *where, json_t *obj,
		    const char *key, unsigned int *major, unsigned int *minor)
{
	char dev[32];

	if (jread_str(r, where, obj, key, dev, sizeof(dev)))
		return -EINVAL;
	if (sscanf(dev, "%u:%u", major, minor) != 2)
		return jread_fail(r, where, "%s '%s' is not MAJ:MIN", key, dev);
	return 0;
}

static int member_read(struct jread *r, const char *where, json_t *obj,
		       struct stack_member *m)
{
	if (jread_str(r, where, obj, "name", m->name, sizeof(m->name)) ||
	    dev_read(r, where, obj, "dev", &m->major, &m->minor) ||
	    dev_read(r, where, obj, "disk", &m->disk_major, &m->disk_minor) ||
	    jread_u64(r, where, obj, "part_start", &m->part_start) ||
	    jread_u64(r, where, obj, "part_sectors", &m->part_sectors) ||
	    jread_str(r, where, obj, "via", m->via, sizeof(m->via)))
		return -EINVAL;
	return 0;
}

static int log_class_read(struct jread *r, const char *where, json_t *obj,
			  struct block_stack *st)
{
	json_t *ranges, *g;
	size_t i;

	if (!obj)
		return 0;
	if (jread_bool(r, where, obj, "mapped", &st->log_mapped) ||
	    jread_str(r, where, obj, "note", st->log_note,
		      sizeof(st->log_note)) ||
	    jread_array(r, where, obj, "ranges", &ranges))
		return -EINVAL;
	json_array_foreach(ranges, i, g)
	{
		struct stack_log_range *l = &st->log[st->n_log];

		if (st->n_log == BLK_LOG_MAX_RANGES)
			return jread_fail(r, where, "more than %d log ranges",
					  BLK_LOG_MAX_RANGES);
		if (jread_uint(r, where, g, "member", &l->member) ||
		    jread_u64(r, where, g, "start_sector", &l->start) ||
		    jread_u64(r, where, g, "sectors", &l->sectors))
			return -EINVAL;
		st->n_log++;
	}
	return 0;
}

int jread_block_stack(struct jread *r, const char *where, json_t *t,
		      struct block_stack *st)
{
	json_t *obj = json_object_get(t, "block_stack"), *members, *m, *lc;
	size_t i;

	memset(st, 0, sizeof(*st));
	if (!obj || json_is_null(obj))
		return 0;
	if (!json_is_object(obj))
		return jread_fail(r, where, "block_stack is not an object");
	if (jread_str(r, where, obj, "top", st->top, sizeof(st->top)) ||
	    jread_str(r, where, obj, "layout", st->layout,
		      sizeof(st->layout)) ||
	    jread_array(r, where, obj, "members", &members) ||
	    jread_object(r, where, obj, "log_class", &lc))
		return -EINVAL;
	json_array_foreach(members, i, m)
	{
		if (st->n == BLK_MEMBERS_MAX)
			return jread_fail(r, where, "more than %d members",
					  BLK_MEMBERS_MAX);
		if (member_read(r, where, m, &st->member[st->n]))
			return -EINVAL;
		st->n++;
	}
	return log_class_read(r, where, lc, st);
}

/* a member's latency; absent in a file of before it was counted */
static int member_latency_read(struct jread *r, const char *where, json_t *m,
			       struct block_member_result *out)
{
	json_t *lat;

	if (jread_object(r, where, m, "latency", &lat))
		return -EINVAL;
	if (!lat)
		return 0;
	if (jread_u64(r, where, lat, "count", &out->lat.count) ||
	    jread_u64(r, where, lat, "sum_ns", &out->lat.sum_ns) ||
	    jread_u64(r, where, lat, "max_ns", &out->lat.max_ns))
		return -EINVAL;
	return 0;
}

int jread_block_members(struct jread *r, const char *where, json_t *obj,
			struct block_result *b)
{
	json_t *arr = json_object_get(obj, "members"), *m, *classes, *c;
	const char *name;
	unsigned int k;
	size_t i;

	if (!json_is_array(arr))
		return 0;
	json_array_foreach(arr, i, m)
	{
		if (b->n_members == BLK_MEMBERS_MAX)
			return jread_fail(r, where, "more than %d members",
					  BLK_MEMBERS_MAX);
		if (jread_object(r, where, m, "io_classes", &classes) ||
		    member_latency_read(r, where, m, &b->member[b->n_members]))
			return -EINVAL;
		json_object_foreach(classes, name, c)
		{
			for (k = 0; k < BLK_IOC_NR &&
				    strcmp(blk_ioclass_name(k), name);
			     k++)
				;
			if (k == BLK_IOC_NR)
				return jread_fail(r, where,
						  "unknown IO class %s", name);
			if (jread_u64(r, where, c, "ios",
				      &b->member[b->n_members].ios[k]) ||
			    jread_u64(r, where, c, "bytes",
				      &b->member[b->n_members].bytes[k]))
				return -EINVAL;
		}
		b->n_members++;
	}
	return 0;
}
