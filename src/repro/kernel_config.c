// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <zlib.h>

#include "repro/kernel_config.h"
#include "util/write_full.h"
#include "vm/kernel_cache.h"

#define RUNNING_PREFIX "running:"

/* this machine's config of release: /proc/config.gz when it runs it */
static bool host_config(const char *release, char *path, size_t len)
{
	struct utsname u;

	if (!uname(&u) && !strcmp(u.release, release) &&
	    !access("/proc/config.gz", R_OK)) {
		snprintf(path, len, "/proc/config.gz");
		return true;
	}
	snprintf(path, len, "/boot/config-%s", release);
	return !access(path, R_OK);
}

/* a kernel given by path: the .config of the build tree it is in (the
 * image is at its top, vmlinux, or under arch/x86/boot/bzImage) */
static bool build_tree_config(const char *image, char *path, size_t len)
{
	char dir[PATH_MAX];
	char *slash;
	int up;

	snprintf(dir, sizeof(dir), "%s", image);
	for (up = 0; up < 4; up++) {
		slash = strrchr(dir, '/');
		if (!slash)
			return false;
		*slash = '\0';
		snprintf(path, len, "%s/.config", dir[0] ? dir : "");
		if (!access(path, R_OK))
			return true;
	}
	return false;
}

static void locate_guest(struct kernel_config *kc)
{
	const char *src = kc->source;

	if (!strncmp(src, RUNNING_PREFIX, strlen(RUNNING_PREFIX))) {
		if (!host_config(kc->release, kc->from, sizeof(kc->from)))
			snprintf(
				kc->looked, sizeof(kc->looked),
				"no /proc/config.gz of it running here, no /boot/config-%s",
				kc->release);
		else
			return;
	} else if (src[0] == '/') {
		if (build_tree_config(src, kc->from, sizeof(kc->from)))
			return;
		snprintf(kc->looked, sizeof(kc->looked),
			 "no .config in the build tree of %.400s", src);
	} else {
		if (!vm_staged_config(src, kc->release, kc->from,
				      sizeof(kc->from)))
			return;
		snprintf(
			kc->looked, sizeof(kc->looked),
			"not staged in %.400s/staged (fsprof run --kernel stages it there)",
			vm_cache_dir());
	}
	kc->from[0] = '\0';
}

void kernel_config_locate(const struct case_result *c, struct kernel_config *kc)
{
	memset(kc, 0, sizeof(*kc));
	kc->guest = c->kernel.guest;
	if (kc->guest) {
		snprintf(kc->release, sizeof(kc->release), "%s",
			 c->kernel.release);
		snprintf(kc->source, sizeof(kc->source), "%s",
			 c->kernel.source);
		snprintf(kc->accel, sizeof(kc->accel), "%s", c->kernel.accel);
		locate_guest(kc);
		return;
	}
	snprintf(kc->release, sizeof(kc->release), "%s",
		 c->target.kernel_release);
	if (!host_config(kc->release, kc->from, sizeof(kc->from))) {
		kc->from[0] = '\0';
		snprintf(
			kc->looked, sizeof(kc->looked),
			"no /proc/config.gz of it running here, no /boot/config-%s",
			kc->release);
	}
}

bool kernel_config_same(const struct kernel_config *a,
			const struct kernel_config *b)
{
	return a->guest == b->guest && !strcmp(a->release, b->release) &&
	       !strcmp(a->source, b->source);
}

int kernel_config_copy(const char *from, const char *to, char *err,
		       size_t errlen)
{
	char buf[65536];
	int fd, n, ret = 0;
	gzFile in;

	/* gzread passes a file that is not gzip through as it is */
	in = gzopen(from, "rb");
	if (!in) {
		snprintf(err, errlen, "read %s: %s", from, strerror(errno));
		return errno ? -errno : -ENOMEM;
	}
	fd = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "write %s: %s", to, strerror(-ret));
		gzclose(in);
		return ret;
	}
	while ((n = gzread(in, buf, sizeof(buf))) > 0) {
		ret = write_full(fd, buf, (size_t)n, NULL);
		if (ret) {
			snprintf(err, errlen, "write %s: %s", to,
				 strerror(-ret));
			break;
		}
	}
	if (n < 0 && !ret) {
		ret = -EIO;
		snprintf(err, errlen, "read %s: not a whole gzip file", from);
	}
	if (close(fd) && !ret) {
		ret = -EIO;
		snprintf(err, errlen, "write %s: %s", to, strerror(errno));
	}
	gzclose(in);
	return ret;
}
