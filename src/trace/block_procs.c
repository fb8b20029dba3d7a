// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/bpf.h>

#include "fsprof/block.h"
#include "trace/block_procs.h"

void proc_top_offer(struct proc_top *top, const struct proc_io_record *rec)
{
	unsigned int i;

	if (top->n == PROC_TOP_MAX &&
	    rec->bytes <= top->v[PROC_TOP_MAX - 1].bytes) {
		top->others++;
		top->others_bytes += rec->bytes;
		return;
	}
	if (top->n == PROC_TOP_MAX) {
		/* the last one drops out of the top */
		top->others++;
		top->others_bytes += top->v[PROC_TOP_MAX - 1].bytes;
		top->n--;
	}
	for (i = top->n; i > 0 && top->v[i - 1].bytes < rec->bytes; i--)
		top->v[i] = top->v[i - 1];
	top->v[i] = *rec;
	top->n++;
}

static void proc_name(int comm_fd, unsigned int tgid, char *out, size_t len)
{
	struct blk_proc_comm pc;

	if (bpf_map_lookup_elem(comm_fd, &tgid, &pc)) {
		snprintf(out, len, "?");
		return;
	}
	pc.comm[sizeof(pc.comm) - 1] = '\0';
	snprintf(out, len, "%s", pc.comm);
}

int block_procs_collect(int io_fd, int comm_fd, unsigned int phase,
			struct proc_top *out)
{
	struct blk_proc_key key, next, *prev = NULL;
	struct blk_proc_io io;
	int err;

	memset(out, 0, sizeof(*out));
	while (!(err = bpf_map_get_next_key(io_fd, prev, &next))) {
		struct proc_io_record rec = { 0 };

		key = next;
		prev = &key;
		if (key.phase != phase || bpf_map_lookup_elem(io_fd, &key, &io))
			continue;
		rec.tgid = key.tgid;
		rec.ios = io.ios;
		rec.bytes = io.bytes;
		rec.write_bytes = io.write_bytes;
		proc_name(comm_fd, key.tgid, rec.comm, sizeof(rec.comm));
		proc_top_offer(out, &rec);
	}
	return errno == ENOENT ? 0 : -errno;
}
