// SPDX-License-Identifier: GPL-2.0
/*
 * What a run or one of its options needs beyond the kernel: the tools it
 * calls (mkfs.btrfs for --fs btrfs, mdadm for --raid, dmsetup for --dm,
 * QEMU and the initramfs tools for --kernel, tar and xz for untar), room
 * in the scratch directory, and direct IO there (the loop device under
 * an image target). Each missing one is named with what needs it and the
 * command that installs it on this distribution (/etc/os-release).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "check/check_probe.h"
#include "target/scratch.h"

/*
 * The room a run's images take at most at once: one case's image at a
 * time, the largest the default workloads make (untar's 418 MB tree and
 * bonnie's data in an image twice their size, rounded up)
 */
#define CHECK_SCRATCH_MIN (2ULL << 30)

enum distro { DISTRO_DEBIAN, DISTRO_FEDORA, DISTRO_ARCH, DISTRO_OTHER };

/* the package of each tool on each family of distributions */
static const struct {
	const char *tool;
	const char *needed_by;
	const char *pkg[DISTRO_OTHER];
} tools[] = {
	{ "mkfs.btrfs",
	  "--fs btrfs",
	  { "btrfs-progs", "btrfs-progs", "btrfs-progs" } },
	{ "mdadm", "--raid", { "mdadm", "mdadm", "mdadm" } },
	{ "dmsetup", "--dm", { "dmsetup", "device-mapper", "device-mapper" } },
	{ "qemu-system-x86_64",
	  "--kernel",
	  { "qemu-system-x86", "qemu-system-x86-core", "qemu-system-x86" } },
	{ "busybox",
	  "--kernel (the guest's initramfs)",
	  { "busybox-static", "busybox", "busybox" } },
	{ "cpio",
	  "--kernel (the guest's initramfs)",
	  { "cpio", "cpio", "cpio" } },
	{ "tar", "-w untar (a tarball= given)", { "tar", "tar", "tar" } },
	{ "xz", "-w untar (a .tar.xz tarball=)", { "xz-utils", "xz", "xz" } },
};

/* ID and ID_LIKE of an os-release file: which package manager */
static enum distro distro_detect(const char *os_release)
{
	char line[256];
	enum distro d = DISTRO_OTHER;
	FILE *f = fopen(os_release, "r");

	if (!f)
		return d;
	while (d == DISTRO_OTHER && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "ID=", 3) && strncmp(line, "ID_LIKE=", 8))
			continue;
		if (strstr(line, "debian") || strstr(line, "ubuntu"))
			d = DISTRO_DEBIAN;
		else if (strstr(line, "fedora") || strstr(line, "rhel") ||
			 strstr(line, "centos"))
			d = DISTRO_FEDORA;
		else if (strstr(line, "arch"))
			d = DISTRO_ARCH;
	}
	fclose(f);
	return d;
}

static void install_command(enum distro d, const char *const pkg[], char *buf,
			    size_t len)
{
	switch (d) {
	case DISTRO_DEBIAN:
		snprintf(buf, len, "apt-get install --no-install-recommends %s",
			 pkg[DISTRO_DEBIAN]);
		break;
	case DISTRO_FEDORA:
		snprintf(buf, len, "dnf install %s", pkg[DISTRO_FEDORA]);
		break;
	case DISTRO_ARCH:
		snprintf(buf, len, "pacman -S %s", pkg[DISTRO_ARCH]);
		break;
	default:
		snprintf(buf, len,
			 "install its package (Debian %s, Fedora %s, Arch %s)",
			 pkg[DISTRO_DEBIAN], pkg[DISTRO_FEDORA],
			 pkg[DISTRO_ARCH]);
	}
}

/* tool in $PATH, as fsprof runs it; else where an sbin directory has it */
static bool tool_found(const char *tool, char *path, size_t len, bool *in_path)
{
	static const char *const sbin[] = { "/usr/sbin", "/sbin",
					    "/usr/local/sbin" };
	const char *env = getenv("PATH"), *p, *end;
	size_t i;

	*in_path = true;
	for (p = env ? env : ""; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ':');
		snprintf(path, len, "%.*s/%s", (int)(end - p), p, tool);
		if (!access(path, X_OK))
			return true;
	}
	*in_path = false;
	for (i = 0; i < sizeof(sbin) / sizeof(sbin[0]); i++) {
		snprintf(path, len, "%s/%s", sbin[i], tool);
		if (!access(path, X_OK))
			return true;
	}
	return false;
}

int check_install_command(const char *os_release, const char *tool, char *buf,
			  size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(tools) / sizeof(tools[0]); i++)
		if (!strcmp(tools[i].tool, tool)) {
			install_command(distro_detect(os_release), tools[i].pkg,
					buf, len);
			return 0;
		}
	return -ENOENT;
}

void check_probe_tools(struct check_report *rep)
{
	char path[PATH_MAX];
	bool in_path;
	size_t i;

	for (i = 0; i < sizeof(tools) / sizeof(tools[0]); i++) {
		struct check_item *item =
			check_add_item(rep, tools[i].tool, false);

		if (!item)
			return;
		if (tool_found(tools[i].tool, path, sizeof(path), &in_path) &&
		    in_path) {
			check_item_set(item, CHECK_OK, "%s", path);
			continue;
		}
		if (!in_path && !access(path, X_OK)) {
			check_item_set(
				item, CHECK_WARN,
				"not in PATH, but %s exists: %s needs it", path,
				tools[i].needed_by);
			snprintf(item->fix, sizeof(item->fix),
				 "add %.*s to PATH",
				 (int)(strrchr(path, '/') - path), path);
			continue;
		}
		check_item_set(item, CHECK_WARN, "not found: %s needs it",
			       tools[i].needed_by);
		check_install_command("/etc/os-release", tools[i].tool,
				      item->fix, sizeof(item->fix));
	}
}

/* the scratch directory, or the nearest of its parents that exists */
static void scratch_existing(const char *scratch, char *dir, size_t len)
{
	char *slash;

	snprintf(dir, len, "%s", scratch ? scratch : SCRATCH_DEFAULT);
	while (access(dir, F_OK) && (slash = strrchr(dir, '/')) && slash != dir)
		*slash = '\0';
	if (access(dir, F_OK))
		snprintf(dir, len, "/");
}

void check_probe_scratch(struct check_report *rep, const char *scratch)
{
	struct check_item *space = check_add_item(rep, "scratch-space", false);
	struct check_item *dio = check_add_item(rep, "loop-direct-io", false);
	char dir[PATH_MAX], file[PATH_MAX + 32];
	unsigned long long avail;
	struct statvfs st;
	int fd;

	if (!space || !dio)
		return;
	scratch_existing(scratch, dir, sizeof(dir));
	if (statvfs(dir, &st)) {
		check_item_set(space, CHECK_WARN, "%s: statvfs: %s", dir,
			       strerror(errno));
	} else {
		avail = (unsigned long long)st.f_bavail * st.f_frsize;
		check_item_set(
			space,
			avail >= CHECK_SCRATCH_MIN ? CHECK_OK : CHECK_WARN,
			"%.1f GiB free in %s%s", (double)avail / (1 << 30), dir,
			avail >= CHECK_SCRATCH_MIN ?
				"" :
				": the default workloads' images need up to 2 GiB (--scratch DIR elsewhere, or a smaller --image-size)");
		if (avail < CHECK_SCRATCH_MIN)
			snprintf(
				space->fix, sizeof(space->fix),
				"fsprof run --scratch DIR, DIR on a filesystem with 2 GiB free");
	}
	/* a loop device does direct IO only on a backing file that can */
	snprintf(file, sizeof(file), "%s/.fsprof-check-XXXXXX", dir);
	fd = mkstemp(file);
	if (fd < 0) {
		check_item_set(dio, CHECK_WARN, "%s: cannot make a file: %s",
			       dir, strerror(errno));
		return;
	}
	close(fd);
	fd = open(file, O_RDWR | O_DIRECT);
	if (fd >= 0) {
		check_item_set(dio, CHECK_OK, "O_DIRECT works in %s", dir);
		close(fd);
	} else {
		check_item_set(
			dio, CHECK_WARN,
			"no O_DIRECT in %s (%s): an image's IO would go through the page cache twice",
			dir, strerror(errno));
		snprintf(
			dio->fix, sizeof(dio->fix),
			"fsprof run --scratch DIR, DIR on a filesystem that takes O_DIRECT (ext4, xfs)");
	}
	unlink(file);
}
