// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util/log.h"
#include "util/runstate.h"
#include "util/write_full.h"

int runstate_proc_start(pid_t pid, unsigned long long *start)
{
	char path[64], buf[1024], *p;
	unsigned int field;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = '\0';
	/* the command name may hold spaces and parentheses: skip to the last ) */
	p = strrchr(buf, ')');
	if (!p)
		return -EIO;
	/*
	 * field 3, the state: a zombie (or one being reaped) has exited, and
	 * holds nothing: no run of its is alive (fsprof cleanup took a run
	 * killed but not yet reaped by its parent for a live one)
	 */
	if (p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X'))
		return -ESRCH;
	/* field 3 follows ") "; starttime is field 22 */
	for (field = 2; field < 22 && p; field++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p + 1, "%llu", start) != 1)
		return -EIO;
	return 0;
}

void runstate_boot_id(char *buf, size_t len)
{
	ssize_t n = -1;
	int fd;

	buf[0] = '\0';
	fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, buf, len - 1);
		close(fd);
	}
	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

static int runstate_append(struct runstate *rs, const char *line, size_t len)
{
	int err = write_full(rs->fd, line, len, NULL);

	if (err)
		log_error("write the run's state file %s: %s", rs->path,
			  strerror_safe(-err));
	return err;
}

int runstate_create(struct runstate *rs, const char *dir)
{
	char line[3 * PATH_MAX], boot[64], cwd[PATH_MAX];
	unsigned long long start = 0;
	int n, err;

	rs->next_id = 1;
	n = snprintf(rs->path, sizeof(rs->path), "%s/" RUNSTATE_PREFIX "%d%s",
		     dir, (int)getpid(), RUNSTATE_SUFFIX);
	if (n < 0 || (size_t)n >= sizeof(rs->path)) {
		log_error("scratch directory path %s is too long", dir);
		return -ENAMETOOLONG;
	}
	runstate_proc_start(getpid(), &start);
	runstate_boot_id(boot, sizeof(boot));
	/* relative paths in the records are relative to it */
	if (!getcwd(cwd, sizeof(cwd)))
		snprintf(cwd, sizeof(cwd), "/");
	/* a file left by a dead process with our pid is that run's record */
	rs->fd = open(rs->path,
		      O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
	if (rs->fd < 0) {
		err = -errno;
		log_error(
			"create the run's state file %s: %s (fsprof cleanup --scratch %s removes what a dead run left)",
			rs->path, strerror_safe(-err), dir);
		return err;
	}
	n = snprintf(
		line, sizeof(line),
		"fsprof-state %d\npid %d\nstart %llu\nboot %s\ncwd %s\nscratch %s\n",
		RUNSTATE_VERSION, (int)getpid(), start, boot, cwd, dir);
	if (n < 0 || (size_t)n >= sizeof(line))
		err = -ENAMETOOLONG;
	else
		err = runstate_append(rs, line, (size_t)n);
	if (err) {
		close(rs->fd);
		unlink(rs->path);
		rs->fd = -1;
	}
	return err;
}

int runstate_add(struct runstate *rs, const char *kind, const char *arg)
{
	char line[PATH_MAX + 64];
	int n, err;

	if (strchr(arg, '\n')) {
		log_error("path '%s' holds a newline: fsprof cannot record it",
			  arg);
		return -EINVAL;
	}
	n = snprintf(line, sizeof(line), "+ %d %s %s\n", rs->next_id, kind,
		     arg);
	if (n < 0 || (size_t)n >= sizeof(line))
		return -ENAMETOOLONG;
	err = runstate_append(rs, line, (size_t)n);
	return err ? err : rs->next_id++;
}

int runstate_remove(struct runstate *rs, int id)
{
	char line[32];
	int n = snprintf(line, sizeof(line), "- %d\n", id);

	return runstate_append(rs, line, (size_t)n);
}

void runstate_close(struct runstate *rs, bool clean)
{
	if (rs->fd < 0)
		return;
	close(rs->fd);
	rs->fd = -1;
	if (clean)
		unlink(rs->path);
}
