// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/dm-ioctl.h>

#include "target/dm_table.h"
#include "util/sysfile.h"

#define DM_TABLE_BUF 16384

static int dm_dev(const char *name, dev_t *dev)
{
	char path[PATH_MAX], buf[32];
	unsigned int ma, mi;

	snprintf(path, sizeof(path), "/sys/class/block/%s/dev", name);
	if (sysfile_read_line(path, buf, sizeof(buf)) <= 0 ||
	    sscanf(buf, "%u:%u", &ma, &mi) != 2)
		return -ENOENT;
	*dev = makedev(ma, mi);
	return 0;
}

/* the targets of a DM_TABLE_STATUS answer into seg */
static int dm_segments(const struct dm_ioctl *io, struct dm_segment *seg,
		       unsigned int max)
{
	const char *base = (const char *)io + io->data_start;
	const struct dm_target_spec *t = (const void *)base;
	unsigned int i;

	for (i = 0; i < io->target_count && i < max; i++) {
		struct dm_segment *s = &seg[i];

		memset(s, 0, sizeof(*s));
		s->start = t->sector_start;
		s->len = t->length;
		snprintf(s->type, sizeof(s->type), "%.15s", t->target_type);
		if (!strcmp(s->type, "linear") &&
		    dm_linear_params((const char *)(t + 1), s))
			return -EINVAL;
		/* next: from the first spec, in a table status answer */
		t = (const void *)(base + t->next);
	}
	return io->target_count > max ? -E2BIG : (int)i;
}

int dm_table_read(void *arg, const char *name, struct dm_segment *seg,
		  unsigned int max)
{
	struct dm_ioctl *io = calloc(1, DM_TABLE_BUF);
	dev_t dev;
	int fd, err;

	(void)arg;
	if (!io)
		return -ENOMEM;
	err = dm_dev(name, &dev);
	fd = err ? -1 : open("/dev/mapper/control", O_RDWR | O_CLOEXEC);
	if (!err && fd < 0)
		err = -errno;
	if (!err) {
		io->version[0] = DM_VERSION_MAJOR;
		io->data_size = DM_TABLE_BUF;
		io->data_start = sizeof(*io);
		io->flags = DM_STATUS_TABLE_FLAG;
		io->dev = dev;
		if (ioctl(fd, DM_TABLE_STATUS, io))
			err = -errno;
		else if (io->flags & DM_BUFFER_FULL_FLAG)
			err = -E2BIG;
		else
			err = dm_segments(io, seg, max);
	}
	if (fd >= 0)
		close(fd);
	free(io);
	return err;
}
