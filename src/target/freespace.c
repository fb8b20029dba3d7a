// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "target/freespace.h"
#include "target/freespace_parse.h"
#include "util/log.h"
#include "util/spawn.h"

/*
 * Freeze and thaw at once: the freeze writes every dirty block home and
 * checkpoints the journal (or covers the XFS log), so the tools, which
 * read the device, see the allocation state the kernel has.
 */
static int settle(const char *mnt)
{
	int fd = open(mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return -errno;
	if (ioctl(fd, FIFREEZE, 0))
		err = -errno;
	else if (ioctl(fd, FITHAW, 0))
		err = -errno;
	close(fd);
	return err;
}

static int run_tool(char *const argv[], struct freespace_table *out,
		    int (*parse)(const char *, struct freespace_table *))
{
	struct spawn_result res = { 0 };
	char cmd[256];
	int err;

	spawn_format_argv(argv, cmd, sizeof(cmd));
	err = spawn_capture(argv, &res);
	if (!err && res.exit_code)
		err = -EIO;
	if (!err)
		err = parse(res.output ? res.output : "", out);
	else
		snprintf(out->error, sizeof(out->error), "%.60s: %s%.170s", cmd,
			 err == -EIO ? "failed: " : "could not run: ",
			 res.output && res.output[0] ? res.output :
						       strerror_safe(-err));
	free(res.output);
	return err;
}

int freespace_histogram(const char *fstype, const char *dev, const char *mnt,
			struct freespace_table *out)
{
	int err;

	memset(out, 0, sizeof(*out));
	if (strncmp(fstype, "ext", 3) && strcmp(fstype, "xfs")) {
		snprintf(
			out->error, sizeof(out->error),
			"no free-space histogram for %s (e2freefrag reads ext2/3/4, xfs_db xfs)",
			fstype);
		return -EOPNOTSUPP;
	}
	err = settle(mnt);
	if (err) {
		snprintf(out->error, sizeof(out->error),
			 "freeze/thaw %s to write its metadata home: %s", mnt,
			 strerror_safe(-err));
		return err;
	}
	if (!strcmp(fstype, "xfs")) {
		char *argv[] = { "xfs_db",    "-r",	     "-c", "sb 0",
				 "-c",	      "p blocksize", "-c", "freesp -s",
				 (char *)dev, NULL };

		return run_tool(argv, out, freespace_parse_xfs_db);
	} else {
		char *argv[] = { "e2freefrag", (char *)dev, NULL };

		return run_tool(argv, out, freespace_parse_e2freefrag);
	}
}
