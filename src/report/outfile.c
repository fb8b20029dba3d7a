// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/outfile.h"
#include "report/render.h"
#include "report/trace_export.h"
#include "util/log.h"

/*
 * Whether a file can be made in dir, by making the writer's own temporary
 * file and removing it: access() says yes to root anywhere, where /proc,
 * sysfs or a directory of another owner on NFS say no at the end of the
 * run, when the results would be lost.
 */
static int outfile_probe(const char *option, const char *path, const char *dir)
{
	char tmp[4200];
	int fd, err;

	snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0 && errno != EEXIST) {
		err = errno;
		log_error("--%s %s: cannot write in %s: %s", option, path, dir,
			  strerror_safe(err));
		return -err;
	}
	if (fd >= 0) {
		close(fd);
		unlink(tmp);
	}
	return 0;
}

int outfile_check(const char *option, const char *path)
{
	char dir[4096], *slash;
	struct stat st;
	int n;

	if (!path[0]) {
		log_error("--%s: needs a file name", option);
		return -EINVAL;
	}
	if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
		log_error("--%s %s: is a directory, not a file name", option,
			  path);
		return -EISDIR;
	}
	/* a truncated copy would check some other directory */
	n = snprintf(dir, sizeof(dir), "%s", path);
	if (n < 0 || (size_t)n >= sizeof(dir)) {
		log_error("--%s %.64s...: the path is too long", option, path);
		return -ENAMETOOLONG;
	}
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		log_error("--%s %s: directory %s does not exist", option, path,
			  dir);
		return -ENOENT;
	}
	return outfile_probe(option, path, dir);
}

int outfile_write(const struct run_result *run, const char *format,
		  const char *path)
{
	char tmp[4096];
	FILE *out;
	int err, n;

	if (!strcmp(format, "trace"))
		return trace_export_write(run, path);
	n = snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid());
	if (n < 0 || (size_t)n >= sizeof(tmp)) {
		log_error("--%s %.64s...: the path is too long", format, path);
		return -ENAMETOOLONG;
	}
	out = fopen(tmp, "w");
	if (!out) {
		err = -errno;
		log_error("--%s %s: %s", format, tmp, strerror_safe(-err));
		return err;
	}
	err = report_render(run, format, out);
	if (ferror(out))
		err = -EIO;
	if (fclose(out) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err) {
		log_error("--%s %s: %s", format, path, strerror_safe(-err));
		unlink(tmp);
	}
	return err;
}
