// SPDX-License-Identifier: GPL-2.0
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/major.h>
#include <linux/raid/md_u.h>

#include "target/mdarray.h"
#include "util/ioctl_path.h"
#include "util/log.h"
#include "util/spawn.h"

/* where fsprof's arrays are numbered from: far from md0, md127 and down */
#define MD_FIRST 200
#define MD_LAST 299

int mdarray_stop_name(const char *name)
{
	char path[64];

	snprintf(path, sizeof(path), "/dev/%s", name);
	return ioctl_path(path, O_RDONLY, STOP_ARRAY, NULL);
}

static int mdarray_stop(void *arg)
{
	const struct mdarray *md = arg;
	int err = mdarray_stop_name(md->name);

	if (err)
		log_error("stop md array %s: %s", md->path, strerror(-err));
	return err;
}

/* a name no array has: /sys/block/mdN absent */
static int md_name_free(struct mdarray *md)
{
	char path[64];
	int i;

	for (i = MD_FIRST; i <= MD_LAST; i++) {
		snprintf(path, sizeof(path), "/sys/block/md%d", i);
		if (access(path, F_OK)) {
			snprintf(md->name, sizeof(md->name), "md%d", i);
			snprintf(md->path, sizeof(md->path), "/dev/md%d", i);
			return 0;
		}
	}
	log_error("no free md array name from md%d to md%d", MD_FIRST, MD_LAST);
	return -EBUSY;
}

/* mdadm --create, without udev (a guest has none): mdadm makes the node */
static int mdadm_create(const struct mdarray *md, unsigned int level,
			const char *const *devices, unsigned int n)
{
	char lvl[8], count[8];
	const char *argv[16 + 8];
	unsigned int i, k = 0;

	snprintf(lvl, sizeof(lvl), "%u", level);
	snprintf(count, sizeof(count), "%u", n);
	argv[k++] = "env";
	argv[k++] = "MDADM_NO_UDEV=1";
	argv[k++] = "mdadm";
	argv[k++] = "--create";
	argv[k++] = md->path;
	argv[k++] = "--run";
	argv[k++] = "--metadata=1.2";
	argv[k++] = "--level";
	argv[k++] = lvl;
	argv[k++] = "--raid-devices";
	argv[k++] = count;
	/* fresh zeroed members: no resync to write behind the workload */
	if (level == 1)
		argv[k++] = "--assume-clean";
	for (i = 0; i < n && i < 8; i++)
		argv[k++] = devices[i];
	argv[k] = NULL;
	return spawn_run_said((char *const *)argv);
}

int mdarray_create(struct mdarray *md, unsigned int level,
		   const char *const *devices, unsigned int n,
		   struct teardown *td)
{
	struct stat st;
	int err, rec;

	err = md_name_free(md);
	if (err)
		return err;
	/* `fsprof cleanup` stops it when its members are the run's loops */
	rec = teardown_record(td, "md", md->name);
	if (rec < 0)
		return rec;
	err = mdadm_create(md, level, devices, n);
	if (err) {
		mdarray_stop_name(md->name); /* half made: gone again */
		return err;
	}
	err = teardown_push_recorded(td, rec, mdarray_stop, md,
				     "stop md array %s", md->path);
	if (err) {
		mdarray_stop(md);
		return err;
	}
	if (stat(md->path, &st) || !S_ISBLK(st.st_mode)) {
		log_error("%s was created but is not a block device here",
			  md->path);
		return -ENODEV;
	}
	md->dev = st.st_rdev;
	return 0;
}

/* where metadata 1.2 (what mdarray_create makes) keeps its superblock */
#define MD_SB12_OFFSET 4096
#define MD_SB_MAGIC 0xa92b4efcU

/* an md 1.2 superblock on path: none when mdadm never got to write one */
static bool md_superblock_on(const char *path)
{
	uint32_t magic = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool on;

	if (fd < 0)
		return true; /* let mdadm say why */
	on = pread(fd, &magic, sizeof(magic), MD_SB12_OFFSET) !=
		     sizeof(magic) ||
	     le32toh(magic) == MD_SB_MAGIC;
	close(fd);
	return on;
}

int mdarray_zero_member(const char *path)
{
	const char *argv[] = { "mdadm", "--zero-superblock", path, NULL };

	if (!md_superblock_on(path))
		return 0;
	return spawn_run_said((char *const *)argv);
}

static int member_zero(void *arg)
{
	return mdarray_zero_member(arg);
}

int mdarray_members_claim(const char *const *devices, unsigned int n,
			  struct teardown *td)
{
	unsigned int i;
	int err = 0, rec;

	for (i = 0; !err && i < n; i++) {
		rec = teardown_record(td, "mdmember", devices[i]);
		if (rec < 0)
			return rec;
		err = teardown_push_recorded(td, rec, member_zero,
					     (void *)devices[i],
					     "zero the md superblock of %s",
					     devices[i]);
	}
	return err;
}
