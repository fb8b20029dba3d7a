// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "results/procs_json.h"

#define PROCS_KEY "block_processes"

void procs_json_set(json_t *obj, const struct proc_top *top)
{
	json_t *o, *arr;
	unsigned int i;

	if (!top->n)
		return;
	arr = json_array();
	for (i = 0; i < top->n; i++) {
		const struct proc_io_record *p = &top->v[i];

		json_array_append_new(
			arr, json_pack("{s:I, s:s, s:I, s:I, s:I}", "pid",
				       (json_int_t)p->tgid, "comm", p->comm,
				       "ios", (json_int_t)p->ios, "bytes",
				       (json_int_t)p->bytes, "write_bytes",
				       (json_int_t)p->write_bytes));
	}
	o = json_pack("{s:o, s:I, s:I, s:I}", "top", arr, "others",
		      (json_int_t)top->others, "others_bytes",
		      (json_int_t)top->others_bytes, "lost",
		      (json_int_t)top->lost);
	json_object_set_new(obj, PROCS_KEY, o);
}

int procs_json_get(const json_t *obj, struct proc_top *top)
{
	json_t *o = json_object_get(obj, PROCS_KEY), *arr, *p;
	json_int_t others = 0, others_bytes = 0, lost = 0;
	size_t i;

	memset(top, 0, sizeof(*top));
	if (!o)
		return 0;
	if (json_unpack(o, "{s:o, s?I, s?I, s?I}", "top", &arr, "others",
			&others, "others_bytes", &others_bytes, "lost",
			&lost) ||
	    !json_is_array(arr))
		return -EINVAL;
	json_array_foreach(arr, i, p)
	{
		struct proc_io_record *rec;
		json_int_t pid, ios, bytes, wbytes;
		const char *comm;

		if (top->n == PROC_TOP_MAX)
			break;
		if (json_unpack(p, "{s:I, s:s, s:I, s:I, s:I}", "pid", &pid,
				"comm", &comm, "ios", &ios, "bytes", &bytes,
				"write_bytes", &wbytes))
			return -EINVAL;
		rec = &top->v[top->n++];
		rec->tgid = (unsigned int)pid;
		snprintf(rec->comm, sizeof(rec->comm), "%s", comm);
		rec->ios = (uint64_t)ios;
		rec->bytes = (uint64_t)bytes;
		rec->write_bytes = (uint64_t)wbytes;
	}
	top->others = (unsigned int)others;
	top->others_bytes = (uint64_t)others_bytes;
	top->lost = (uint64_t)lost;
	return 0;
}
