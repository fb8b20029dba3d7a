// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>

#include "results/block_stack_json.h"

static json_t *dev_json(unsigned int major, unsigned int minor)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%u:%u", major, minor);
	return json_string(buf);
}

static json_t *member_json(const struct stack_member *m)
{
	json_t *obj = json_pack("{s:s, s:o, s:o, s:I, s:I, s:s}", "name",
				m->name, "dev", dev_json(m->major, m->minor),
				"disk", dev_json(m->disk_major, m->disk_minor),
				"part_start", (json_int_t)m->part_start,
				"part_sectors", (json_int_t)m->part_sectors,
				"via", m->via);

	return obj;
}

static json_t *log_class_json(const struct block_stack *st)
{
	json_t *ranges = json_array();
	unsigned int i;

	for (i = 0; i < st->n_log; i++)
		json_array_append_new(
			ranges,
			json_pack("{s:i, s:I, s:I}", "member",
				  (int)st->log[i].member, "start_sector",
				  (json_int_t)st->log[i].start, "sectors",
				  (json_int_t)st->log[i].sectors));
	return json_pack("{s:b, s:s, s:o}", "mapped", st->log_mapped, "note",
			 st->log_note, "ranges", ranges);
}

json_t *block_stack_json(const struct block_stack *st)
{
	json_t *members;
	unsigned int i;

	if (!st->n)
		return json_null();
	members = json_array();
	for (i = 0; i < st->n; i++)
		json_array_append_new(members, member_json(&st->member[i]));
	return json_pack("{s:s, s:s, s:o, s:o}", "top", st->top, "layout",
			 st->layout, "members", members, "log_class",
			 log_class_json(st));
}

static bool ioclass_writes(unsigned int c)
{
	return c == BLK_IOC_DATA_WRITE || c == BLK_IOC_META_WRITE ||
	       c == BLK_IOC_LOG_WRITE;
}

static bool ioclass_reads(unsigned int c)
{
	return c == BLK_IOC_DATA_READ || c == BLK_IOC_META_READ ||
	       c == BLK_IOC_LOG_READ;
}

uint64_t block_member_write_bytes(const struct block_member_result *m)
{
	uint64_t n = 0;
	unsigned int c;

	for (c = 0; c < BLK_IOC_NR; c++)
		n += ioclass_writes(c) ? m->bytes[c] : 0;
	return n;
}

uint64_t block_member_read_bytes(const struct block_member_result *m)
{
	uint64_t n = 0;
	unsigned int c;

	for (c = 0; c < BLK_IOC_NR; c++)
		n += ioclass_reads(c) ? m->bytes[c] : 0;
	return n;
}

static json_t *member_io_json(const struct block_member_result *m)
{
	json_t *classes = json_object();
	uint64_t ios = 0, bytes = 0;
	unsigned int c;

	for (c = 0; c < BLK_IOC_NR; c++) {
		ios += m->ios[c];
		bytes += m->bytes[c];
		json_object_set_new(classes, blk_ioclass_name(c),
				    json_pack("{s:I, s:I}", "ios",
					      (json_int_t)m->ios[c], "bytes",
					      (json_int_t)m->bytes[c]));
	}
	return json_pack(
		"{s:I, s:I, s:I, s:I, s:o, s:{s:I, s:I, s:I, s:I}}", "ios",
		(json_int_t)ios, "bytes", (json_int_t)bytes, "write_bytes",
		(json_int_t)block_member_write_bytes(m), "read_bytes",
		(json_int_t)block_member_read_bytes(m), "io_classes", classes,
		"latency", "count", (json_int_t)m->lat.count, "sum_ns",
		(json_int_t)m->lat.sum_ns, "mean_ns",
		(json_int_t)(m->lat.count ? m->lat.sum_ns / m->lat.count : 0),
		"max_ns", (json_int_t)m->lat.max_ns);
}

json_t *block_members_json(const struct block_result *b)
{
	json_t *arr = json_array();
	unsigned int i;

	for (i = 0; i < b->n_members; i++)
		json_array_append_new(arr, member_io_json(&b->member[i]));
	return arr;
}
