// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "target/devlock.h"
#include "util/log.h"

/* open (creating) the lock file of dev, and try to lock it */
static int devlock_try(dev_t dev, const char *what, int *fdp)
{
	char path[128], holder[32] = "";
	ssize_t n;
	int fd;

	if (mkdir(DEVLOCK_DIR, 0755) && errno != EEXIST) {
		log_error("%s: cannot create %s for its lock: %s", what,
			  DEVLOCK_DIR, strerror_safe(errno));
		return -errno;
	}
	snprintf(path, sizeof(path), DEVLOCK_DIR "/dev-%u:%u.lock", major(dev),
		 minor(dev));
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		log_error("%s: open its lock %s: %s", what, path,
			  strerror_safe(errno));
		return -errno;
	}
	if (!flock(fd, LOCK_EX | LOCK_NB)) {
		*fdp = fd;
		return 0;
	}
	n = pread(fd, holder, sizeof(holder) - 1, 0);
	holder[n > 0 ? n : 0] = '\0';
	holder[strcspn(holder, "\n")] = '\0';
	close(fd);
	log_error(
		"%s (%u:%u) is in use by another fsprof run%s%s%s: wait for it to finish, or use another device",
		what, major(dev), minor(dev), holder[0] ? " (pid " : "", holder,
		holder[0] ? ")" : "");
	return -EBUSY;
}

int devlock_check(dev_t dev, const char *what)
{
	int fd, err = devlock_try(dev, what, &fd);

	if (!err)
		close(fd);
	return err;
}

static int devlock_release(void *arg)
{
	int *fd = arg;

	close(*fd);
	free(fd);
	return 0;
}

int devlock_take(dev_t dev, const char *what, struct teardown *td)
{
	char pid[32];
	int *fd = malloc(sizeof(*fd)), err, n;

	if (!fd)
		return -ENOMEM;
	err = devlock_try(dev, what, fd);
	if (err) {
		free(fd);
		return err;
	}
	n = snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	if (ftruncate(*fd, 0) || pwrite(*fd, pid, (size_t)n, 0) != n)
		log_debug("could not write our pid into the lock of %s", what);
	err = teardown_push(td, devlock_release, fd, "release the lock of %s",
			    what);
	if (err)
		devlock_release(fd);
	return err;
}
