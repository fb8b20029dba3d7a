// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "target/image.h"
#include "util/log.h"

static int image_remove(void *arg)
{
	const char *path = arg;

	return unlink(path) ? -errno : 0;
}

int image_create(const char *path, uint64_t size, struct teardown *td)
{
	int fd, err, rec;

	rec = teardown_record(td, "image", path);
	if (rec < 0)
		return rec;
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		err = errno;
		log_error("create image %s: %s", path, strerror_safe(err));
		return -err;
	}
	err = teardown_push_recorded(td, rec, image_remove, (void *)path,
				     "remove image %s", path);
	if (err) {
		close(fd);
		unlink(path);
		return err;
	}
	if (ftruncate(fd, (off_t)size)) {
		err = errno;
		log_error("size image %s to %llu bytes: %s", path,
			  (unsigned long long)size, strerror_safe(err));
		close(fd);
		return -err;
	}
	close(fd);
	return 0;
}
