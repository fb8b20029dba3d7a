// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "target/devstack.h"
#include "target/devstack_sysfs.h"
#include "target/dm_table.h"
#include "util/sysfile.h"

/* how deep stacks go: dm on md on dm ... */
#define DEVSTACK_MAX_DEPTH 8
#define DM_MAX_SEGMENTS 64
/* a partition's disk (the directory above it in sysfs) and its place */
static void member_partition(const struct devstack_source *src,
			     struct stack_member *m)
{
	char path[PATH_MAX], real[PATH_MAX], disk[64];

	m->disk_major = m->major;
	m->disk_minor = m->minor;
	if (attr_u64(src, m->name, "partition", &(uint64_t){ 0 }) ||
	    attr_u64(src, m->name, "start", &m->part_start) ||
	    attr_u64(src, m->name, "size", &m->part_sectors))
		return;
	snprintf(path, sizeof(path), "%s/class/block/%s", src->sysfs, m->name);
	if (!realpath(path, real))
		return;
	snprintf(disk, sizeof(disk), "%s", basename(dirname(real)));
	if (attr_dev(src, disk, &m->disk_major, &m->disk_minor)) {
		m->disk_major = m->major;
		m->disk_minor = m->minor;
		m->part_start = m->part_sectors = 0;
	}
}

static int member_add(const struct devstack_source *src, const char *name,
		      const char *via, struct block_stack *out)
{
	struct stack_member *m;
	unsigned int i;

	for (i = 0; i < out->n; i++)
		if (!strcmp(out->member[i].name, name))
			return 0; /* reached twice (a stack that forks) */
	if (out->n == BLK_MEMBERS_MAX)
		return -E2BIG;
	m = &out->member[out->n];
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "%s", name);
	snprintf(m->via, sizeof(m->via), "%s", via);
	if (attr_dev(src, name, &m->major, &m->minor))
		return -ENOENT;
	member_partition(src, m);
	out->n++;
	return 0;
}

/* "dm-linear", "dm-striped", "dm-linear+striped"; "" when unreadable */
static void dm_kind(const struct devstack_source *src, const char *name,
		    char *buf, size_t len)
{
	struct dm_segment *seg = calloc(DM_MAX_SEGMENTS, sizeof(*seg));
	int n = seg && src->dm_table ?
			src->dm_table(src->arg, name, seg, DM_MAX_SEGMENTS) :
			-ENOMEM;
	size_t at;
	int i;

	snprintf(buf, len, "dm");
	for (i = 0; i < n; i++) {
		if (i && !strcmp(seg[i].type, seg[i - 1].type))
			continue;
		at = strlen(buf);
		snprintf(buf + at, len - at, "%c%s", i ? '+' : '-',
			 seg[i].type);
	}
	free(seg);
}

/* "md127 (md raid0, chunk 512 KiB)", "dm-0 (dm-linear)" */
static void layer_describe(const struct devstack_source *src, const char *name,
			   char *buf, size_t len)
{
	char level[32] = "", kind[64];
	uint64_t chunk = 0;

	if (is_dir(src, name, "md")) {
		attr_read(src, name, "md/level", level, sizeof(level));
		attr_u64(src, name, "md/chunk_size", &chunk);
		if (chunk && strcmp(level, "raid1"))
			snprintf(buf, len, "%s (md %s, chunk %" PRIu64 " KiB)",
				 name, level, chunk / 1024);
		else
			snprintf(buf, len, "%s (md %s)", name, level);
	} else if (is_dir(src, name, "dm")) {
		dm_kind(src, name, kind, sizeof(kind));
		snprintf(buf, len, "%s (%s)", name, kind);
	} else {
		snprintf(buf, len, "%s", name);
	}
}

static void layout_append(struct block_stack *out, const char *layer)
{
	size_t at = strlen(out->layout);

	snprintf(out->layout + at, sizeof(out->layout) - at, "%s%s",
		 at ? " on " : "", layer);
}

static int walk(const struct devstack_source *src, const char *name,
		const char *via, struct block_stack *out, int depth)
{
	struct name_list *slaves = malloc(sizeof(*slaves));
	char below[64], layer[96];
	unsigned int i;
	int err;

	if (!slaves)
		return -ENOMEM;
	err = list_dir(src, name, "slaves", "", slaves);
	if (err == -ENOENT || (!err && !slaves->n)) {
		/* no slaves: a disk that issues requests, or the top alone */
		err = depth ? member_add(src, name, via, out) : -ENOENT;
		goto out;
	}
	if (err)
		goto out;
	if (depth == DEVSTACK_MAX_DEPTH) {
		err = -ELOOP;
		goto out;
	}
	layer_describe(src, name, layer, sizeof(layer));
	layout_append(out, layer);
	snprintf(below, sizeof(below), "%s%s%s", via, *via ? " " : "", name);
	for (i = 0; !err && i < slaves->n; i++)
		err = walk(src, slaves->name[i], below, out, depth + 1);
out:
	free(slaves);
	return err;
}

int devstack_walk(const struct devstack_source *src, const char *top,
		  struct block_stack *out)
{
	int err;

	memset(out, 0, sizeof(*out));
	snprintf(out->top, sizeof(out->top), "%s", top);
	err = walk(src, top, "", out, 0);
	if (err)
		out->n = 0;
	return err;
}

void devstack_system(struct devstack_source *src)
{
	src->sysfs = "/sys";
	src->dm_table = dm_table_read;
	src->arg = NULL;
}
