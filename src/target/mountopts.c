// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>

#include "target/mountopts.h"

struct vfs_option {
	const char *name;
	unsigned long set, clear;
};

static const struct vfs_option vfs_options[] = {
	{ "ro", MS_RDONLY, 0 },
	{ "rw", 0, MS_RDONLY },
	{ "nosuid", MS_NOSUID, 0 },
	{ "suid", 0, MS_NOSUID },
	{ "nodev", MS_NODEV, 0 },
	{ "dev", 0, MS_NODEV },
	{ "noexec", MS_NOEXEC, 0 },
	{ "exec", 0, MS_NOEXEC },
	{ "sync", MS_SYNCHRONOUS, 0 },
	{ "async", 0, MS_SYNCHRONOUS },
	{ "dirsync", MS_DIRSYNC, 0 },
	{ "noatime", MS_NOATIME, MS_RELATIME | MS_STRICTATIME },
	{ "atime", 0, MS_NOATIME },
	{ "nodiratime", MS_NODIRATIME, 0 },
	{ "diratime", 0, MS_NODIRATIME },
	{ "relatime", MS_RELATIME, MS_NOATIME | MS_STRICTATIME },
	{ "norelatime", 0, MS_RELATIME },
	{ "strictatime", MS_STRICTATIME, MS_NOATIME | MS_RELATIME },
	{ "lazytime", MS_LAZYTIME, 0 },
	{ "nolazytime", 0, MS_LAZYTIME },
	{ "silent", MS_SILENT, 0 },
	{ "loud", 0, MS_SILENT },
};

static const struct vfs_option *vfs_option_find(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(vfs_options) / sizeof(vfs_options[0]); i++)
		if (strlen(vfs_options[i].name) == len &&
		    !strncmp(vfs_options[i].name, name, len))
			return &vfs_options[i];
	return NULL;
}

int mountopts_split(const char *options, struct mount_args *out)
{
	const char *p = options;
	size_t off = 0;

	memset(out, 0, sizeof(*out));
	while (p && *p) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		const struct vfs_option *vfs = vfs_option_find(p, len);

		if (vfs) {
			out->flags = (out->flags & ~vfs->clear) | vfs->set;
		} else if (len) {
			if (off + len + 2 > sizeof(out->data))
				return -E2BIG;
			if (off)
				out->data[off++] = ',';
			memcpy(out->data + off, p, len);
			off += len;
			out->data[off] = '\0';
		}
		p = comma ? comma + 1 : NULL;
	}
	return 0;
}
