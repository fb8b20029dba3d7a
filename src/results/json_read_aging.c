// SPDX-License-Identifier: GPL-2.0
/* A case's "age" member back into its age_result (aging_json.c). */
#include <errno.h>
#include <string.h>

#include "results/json_read_int.h"

static int bucket_read(struct jread *r, const char *where, json_t *row,
		       struct freespace_bucket *b)
{
	return jread_u64(r, where, row, "min_bytes", &b->min_bytes) ||
			       jread_u64(r, where, row, "max_bytes",
					 &b->max_bytes) ||
			       jread_u64(r, where, row, "extents",
					 &b->extents) ||
			       jread_u64(r, where, row, "blocks", &b->blocks) ||
			       jread_double(r, where, row, "percent",
					    &b->percent) ?
		       -EINVAL :
		       0;
}

static int freespace_read(struct jread *r, const char *where, json_t *obj,
			  struct freespace_table *t)
{
	json_t *rows, *row;
	size_t i;

	if (!obj)
		return 0;
	if (jread_str(r, where, obj, "tool", t->tool, sizeof(t->tool)) ||
	    jread_str(r, where, obj, "error", t->error, sizeof(t->error)))
		return -EINVAL;
	if (t->error[0])
		return 0;
	if (jread_uint(r, where, obj, "block_size", &t->block_size) ||
	    jread_u64(r, where, obj, "free_blocks", &t->free_blocks) ||
	    jread_u64(r, where, obj, "free_extents", &t->free_extents) ||
	    jread_array(r, where, obj, "buckets", &rows))
		return -EINVAL;
	json_array_foreach(rows, i, row)
	{
		if (t->n == FREESPACE_BUCKETS_MAX)
			return jread_fail(r, where, "more than %d buckets",
					  FREESPACE_BUCKETS_MAX);
		if (bucket_read(r, where, row, &t->b[t->n++]))
			return -EINVAL;
	}
	return 0;
}

int jread_aging(struct jread *r, const char *where, json_t *obj,
		struct age_result *a)
{
	json_t *age = json_object_get(obj, "age"), *out, *free_space;

	memset(a, 0, sizeof(*a));
	if (!age || json_is_null(age))
		return 0;
	a->on = true;
	if (jread_str(r, where, age, "spec", a->spec, sizeof(a->spec)) ||
	    jread_uint(r, where, age, "fill_percent", &a->fill_pct) ||
	    jread_uint(r, where, age, "delete_percent", &a->delete_pct) ||
	    jread_str(r, where, age, "pattern", a->pattern,
		      sizeof(a->pattern)) ||
	    jread_str(r, where, age, "sizes", a->sizes, sizeof(a->sizes)) ||
	    jread_u64(r, where, age, "size_min_bytes", &a->size_min) ||
	    jread_u64(r, where, age, "size_max_bytes", &a->size_max) ||
	    jread_u64(r, where, age, "seed", &a->seed) ||
	    jread_object(r, where, age, "outcome", &out) ||
	    jread_object(r, where, age, "free_space", &free_space))
		return -EINVAL;
	if (out &&
	    (jread_u64(r, where, out, "files_written", &a->files_written) ||
	     jread_u64(r, where, out, "bytes_written", &a->bytes_written) ||
	     jread_u64(r, where, out, "files_deleted", &a->files_deleted) ||
	     jread_u64(r, where, out, "bytes_deleted", &a->bytes_deleted) ||
	     jread_double(r, where, out, "used_after_fill", &a->used_filled) ||
	     jread_double(r, where, out, "used_after_age", &a->used_aged) ||
	     jread_u64(r, where, out, "wall_ns", &a->wall_ns)))
		return -EINVAL;
	return freespace_read(r, where, free_space, &a->free);
}
