// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "target/scratch.h"
#include "util/log.h"
#include "util/parse.h"

int scratch_check(const char *dir, uint64_t need_bytes)
{
	char need[32], have[32];
	struct statvfs vfs;
	struct stat st;
	uint64_t avail;

	if (stat(dir, &st)) {
		int err = errno;

		if (err == ENOENT && !strcmp(dir, SCRATCH_DEFAULT) &&
		    !mkdir(dir, 0755))
			return scratch_check(dir, need_bytes);
		log_error(
			"scratch directory %s: %s (create it, or pick another with --scratch)",
			dir, strerror_safe(err));
		return -err;
	}
	if (!S_ISDIR(st.st_mode)) {
		log_error(
			"scratch directory %s is not a directory (pick a directory with --scratch)",
			dir);
		return -ENOTDIR;
	}
	if (access(dir, W_OK | X_OK)) {
		int err = errno;

		log_error(
			"scratch directory %s is not writable: %s (pick another with --scratch)",
			dir, strerror_safe(err));
		return -err;
	}
	if (statvfs(dir, &vfs)) {
		int err = errno;

		log_error("scratch directory %s: statvfs: %s", dir,
			  strerror_safe(err));
		return -err;
	}
	if (vfs.f_flag & ST_RDONLY) {
		log_error(
			"scratch directory %s is not writable: it is on a read-only filesystem (pick another with --scratch)",
			dir);
		return -EROFS;
	}
	avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	if (avail < need_bytes) {
		format_bytes(need_bytes, need, sizeof(need));
		format_bytes(avail, have, sizeof(have));
		log_error(
			"scratch directory %s has %s free but the image needs %s; use a smaller --size or a --scratch on a larger filesystem",
			dir, have, need);
		return -ENOSPC;
	}
	return 0;
}

static int rundir_remove(void *arg)
{
	const char *path = arg;

	return rmdir(path) ? -errno : 0;
}

int scratch_make_rundir(const char *dir, char *out, size_t len,
			struct teardown *td)
{
	int n = snprintf(out, len, "%s/fsprof.XXXXXX", dir), rec;

	if (n < 0 || (size_t)n >= len) {
		log_error("scratch directory path %s is too long", dir);
		return -ENAMETOOLONG;
	}
	if (!mkdtemp(out)) {
		int err = errno;

		log_error(
			"cannot create a run directory in %s: %s (pick another with --scratch)",
			dir, strerror_safe(err));
		return -err;
	}
	/* recorded once it exists: mkdtemp picks the name */
	rec = teardown_record(td, "rundir", out);
	if (rec < 0) {
		rmdir(out);
		return rec;
	}
	return teardown_push_recorded(td, rec, rundir_remove, out, "remove %s",
				      out);
}
