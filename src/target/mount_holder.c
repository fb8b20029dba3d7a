// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "target/mount_holder.h"

/*
 * /proc/PID/NAME leads to dir or below it: by its path, read with
 * readlink, never followed (a stat through it could wait on a FUSE file)
 */
static bool link_on(const char *pid, const char *name, const char *dir)
{
	char path[320], to[PATH_MAX];
	size_t n = strlen(dir);
	ssize_t len;

	snprintf(path, sizeof(path), "/proc/%s/%s", pid, name);
	len = readlink(path, to, sizeof(to) - 1);
	if (len < 0)
		return false;
	to[len] = '\0';
	return !strncmp(to, dir, n) && (to[n] == '/' || to[n] == '\0');
}

/* one of the open files of /proc/PID/fd is below dir */
static bool fd_on(const char *pid, const char *dir)
{
	char path[300], name[320];
	struct dirent *e;
	bool on = false;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%s/fd", pid);
	d = opendir(path);
	if (!d)
		return false;
	while (!on && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(name, sizeof(name), "fd/%s", e->d_name);
		on = link_on(pid, name, dir);
	}
	closedir(d);
	return on;
}

static void comm_read(const char *pid, char *comm, size_t len)
{
	char path[300];
	size_t n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/comm", pid);
	f = fopen(path, "re");
	if (f) {
		n = fread(comm, 1, len - 1, f);
		fclose(f);
	}
	comm[n] = '\0';
	comm[strcspn(comm, "\n")] = '\0';
}

/*
 * dir as /proc gives it: its parent resolved, its own name kept. realpath
 * of dir itself would stat the mounted filesystem's root, which waits on
 * a FUSE daemon that no longer answers.
 */
static int mount_point_path(const char *dir, char *real, size_t size)
{
	char parent[PATH_MAX], resolved[PATH_MAX];
	const char *slash = strrchr(dir, '/'), *name;
	size_t n;

	if (slash && !slash[1])
		return -EINVAL; /* a trailing slash: no name of its own */
	if (!slash) {
		strcpy(parent, ".");
		name = dir;
	} else {
		n = slash == dir ? 1 : (size_t)(slash - dir);
		if (n >= sizeof(parent))
			return -ENAMETOOLONG;
		memcpy(parent, dir, n);
		parent[n] = '\0';
		name = slash + 1;
	}
	if (!realpath(parent, resolved))
		return -errno;
	if ((size_t)snprintf(real, size, "%s/%s",
			     strcmp(resolved, "/") ? resolved : "",
			     name) >= size)
		return -ENAMETOOLONG;
	return 0;
}

pid_t mount_holder(const char *dir, char *comm, size_t len)
{
	pid_t self = getpid(), found = 0;
	char real[PATH_MAX];
	struct dirent *e;
	int err;
	DIR *d;

	err = mount_point_path(dir, real, sizeof(real));
	if (err)
		return err;
	d = opendir("/proc");
	if (!d)
		return 0;
	while (!found && (e = readdir(d))) {
		const char *pid = e->d_name;

		if (!isdigit((unsigned char)pid[0]) || atoi(pid) == self)
			continue;
		if (link_on(pid, "cwd", real) || link_on(pid, "root", real) ||
		    link_on(pid, "exe", real) || fd_on(pid, real))
			found = atoi(pid);
		if (found)
			comm_read(pid, comm, len);
	}
	closedir(d);
	return found;
}
