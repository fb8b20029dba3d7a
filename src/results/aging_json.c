// SPDX-License-Identifier: GPL-2.0
#include "results/aging_json.h"

static json_t *freespace_json(const struct freespace_table *t)
{
	json_t *rows = json_array();
	unsigned int i;

	if (!t->tool[0] || t->error[0])
		return json_pack("{s:s, s:s}", "tool", t->tool, "error",
				 t->error[0] ? t->error : "not taken");
	for (i = 0; i < t->n; i++)
		json_array_append_new(
			rows,
			json_pack("{s:I, s:I, s:I, s:I, s:f}", "min_bytes",
				  (json_int_t)t->b[i].min_bytes, "max_bytes",
				  (json_int_t)t->b[i].max_bytes, "extents",
				  (json_int_t)t->b[i].extents, "blocks",
				  (json_int_t)t->b[i].blocks, "percent",
				  t->b[i].percent));
	return json_pack("{s:s, s:i, s:I, s:I, s:o}", "tool", t->tool,
			 "block_size", (int)t->block_size, "free_blocks",
			 (json_int_t)t->free_blocks, "free_extents",
			 (json_int_t)t->free_extents, "buckets", rows);
}

json_t *aging_json(const struct age_result *a)
{
	json_t *obj;

	if (!a->on)
		return json_null();
	obj = json_pack("{s:s, s:i, s:s, s:i, s:s, s:I, s:I, s:I}", "spec",
			a->spec, "fill_percent", (int)a->fill_pct, "pattern",
			a->pattern, "delete_percent", (int)a->delete_pct,
			"sizes", a->sizes, "size_min_bytes",
			(json_int_t)a->size_min, "size_max_bytes",
			(json_int_t)a->size_max, "seed", (json_int_t)a->seed);
	json_object_set_new(
		obj, "outcome",
		json_pack("{s:I, s:I, s:I, s:I, s:f, s:f, s:I}",
			  "files_written", (json_int_t)a->files_written,
			  "bytes_written", (json_int_t)a->bytes_written,
			  "files_deleted", (json_int_t)a->files_deleted,
			  "bytes_deleted", (json_int_t)a->bytes_deleted,
			  "used_after_fill", a->used_filled, "used_after_age",
			  a->used_aged, "wall_ns", (json_int_t)a->wall_ns));
	json_object_set_new(obj, "free_space", freespace_json(&a->free));
	return obj;
}
