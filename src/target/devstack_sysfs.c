// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "target/devstack_sysfs.h"
#include "util/sysfile.h"

/* <sysfs>/class/block/<name>/<attr>'s first line; its length or -errno */
ssize_t attr_read(const struct devstack_source *src, const char *name,
		  const char *attr, char *buf, size_t len)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/class/block/%s/%s", src->sysfs, name,
		 attr);
	return sysfile_read_line(path, buf, len);
}

int attr_u64(const struct devstack_source *src, const char *name,
	     const char *attr, uint64_t *out)
{
	char buf[64], *end;

	if (attr_read(src, name, attr, buf, sizeof(buf)) <= 0)
		return -ENOENT;
	*out = strtoull(buf, &end, 10);
	return end == buf ? -EINVAL : 0;
}

int attr_dev(const struct devstack_source *src, const char *name,
	     unsigned int *major, unsigned int *minor)
{
	char buf[32];

	if (attr_read(src, name, "dev", buf, sizeof(buf)) <= 0 ||
	    sscanf(buf, "%u:%u", major, minor) != 2)
		return -ENOENT;
	return 0;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* the entries of <sysfs>/class/block/<name>/<sub> starting with prefix */
int list_dir(const struct devstack_source *src, const char *name,
	     const char *sub, const char *prefix, struct name_list *out)
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *d;

	out->n = 0;
	snprintf(path, sizeof(path), "%s/class/block/%s/%s", src->sysfs, name,
		 sub);
	d = opendir(path);
	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' ||
		    strncmp(e->d_name, prefix, strlen(prefix)))
			continue;
		if (out->n == NAMES_MAX) {
			closedir(d);
			return -E2BIG;
		}
		snprintf(out->name[out->n++], sizeof(out->name[0]), "%.31s",
			 e->d_name);
	}
	closedir(d);
	qsort(out->name, out->n, sizeof(out->name[0]), name_cmp);
	return 0;
}

int devstack_name_of(const struct devstack_source *src, unsigned int major,
		     unsigned int minor, char *name, size_t len)
{
	char path[PATH_MAX];
	unsigned int ma, mi;
	struct dirent *e;
	int err = -ENOENT;
	DIR *d;

	snprintf(path, sizeof(path), "%s/class/block", src->sysfs);
	d = opendir(path);
	if (!d)
		return -errno;
	while (err && (e = readdir(d)))
		if (e->d_name[0] != '.' &&
		    !attr_dev(src, e->d_name, &ma, &mi) && ma == major &&
		    mi == minor) {
			snprintf(name, len, "%s", e->d_name);
			err = 0;
		}
	closedir(d);
	return err;
}

bool is_dir(const struct devstack_source *src, const char *name,
	    const char *sub)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/class/block/%s/%s", src->sysfs, name,
		 sub);
	return !access(path, X_OK);
}
