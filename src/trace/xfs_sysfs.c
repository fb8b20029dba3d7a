// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace/xfs_sysfs.h"
#include "util/kdev.h"

/* the numbers after "<name> " at the start of a line of text */
static int stats_line(const char *text, const char *name, uint32_t *v, int n)
{
	size_t len = strlen(name);
	const char *p = text;
	int got;

	while (p) {
		if (!strncmp(p, name, len) && p[len] == ' ')
			break;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	if (!p)
		return -EINVAL;
	p += len;
	for (got = 0; got < n; got++) {
		unsigned int value;
		int used;

		if (sscanf(p, " %u%n", &value, &used) != 1)
			return -EINVAL;
		v[got] = value;
		p += used;
	}
	return 0;
}

int xfs_sysfs_stats_parse(const char *text, struct xfs_sysfs_stats *out)
{
	uint32_t log[5], ail[2];

	if (stats_line(text, "log", log, 5) ||
	    stats_line(text, "push_ail", ail, 2))
		return -EINVAL;
	out->log_writes = log[0];
	out->log_blocks = log[1];
	out->log_forces = log[3];
	out->sleep_logspace = ail[1];
	return 0;
}

int xfs_sysfs_stats_path(unsigned int kernel_dev, char *path, size_t len)
{
	char link[64], target[256];
	ssize_t n;

	int w;

	/* /sys/dev/block/7:0 -> ../../devices/virtual/block/loop0 */
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u",
		 kdev_major(kernel_dev), kdev_minor(kernel_dev));
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	if ((size_t)n == sizeof(target) - 1)
		return -ENAMETOOLONG;
	target[n] = '\0';
	w = snprintf(path, len, "/sys/fs/xfs/%s/stats/stats", basename(target));
	if (w < 0 || (size_t)w >= len)
		return -ENAMETOOLONG;
	return access(path, R_OK) ? -errno : 0;
}

int xfs_sysfs_stats_read(const char *path, struct xfs_sysfs_stats *out)
{
	size_t cap = 0, n = 0;
	char *text = NULL;
	int err = 0;
	FILE *f;

	f = fopen(path, "re");
	if (!f)
		return -errno;
	/* the whole file, however long a kernel makes it */
	while (!err) {
		char *p;

		if (cap - n < 2) {
			p = realloc(text, cap ? cap * 2 : 4096);
			if (!p) {
				err = -ENOMEM;
				break;
			}
			text = p;
			cap = cap ? cap * 2 : 4096;
		}
		n += fread(text + n, 1, cap - n - 1, f);
		if (ferror(f))
			err = -EIO;
		else if (feof(f))
			break;
	}
	fclose(f);
	if (!err) {
		text[n] = '\0';
		err = xfs_sysfs_stats_parse(text, out);
	}
	free(text);
	return err;
}

void xfs_sysfs_stats_delta(const struct xfs_sysfs_stats *a,
			   const struct xfs_sysfs_stats *b,
			   struct xfs_sysfs_stats *out)
{
	out->log_writes = b->log_writes - a->log_writes;
	out->log_blocks = b->log_blocks - a->log_blocks;
	out->log_forces = b->log_forces - a->log_forces;
	out->sleep_logspace = b->sleep_logspace - a->sleep_logspace;
}
