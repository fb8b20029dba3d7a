// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "target/kmsg.h"
#include "target/mount.h"
#include "target/mountopts.h"
#include "util/log.h"

static int mount_undo(void *arg)
{
	const char *dir = arg;
	int i;

	/* a just-finished writer or udev may still hold it for a moment */
	for (i = 0; i < 50; i++) {
		if (!umount2(dir, 0))
			return 0;
		if (errno != EBUSY)
			return -errno;
		usleep(100000);
	}
	log_warn("%s still busy after 5 s; detaching it lazily", dir);
	return umount2(dir, MNT_DETACH) ? -errno : 0;
}

static int mountdir_remove(void *arg)
{
	const char *dir = arg;

	return rmdir(dir) ? -errno : 0;
}

int mount_fs(const char *device, const char *dir, const char *fstype,
	     const char *options, struct teardown *td)
{
	struct mount_args args;
	int err, kmsg;

	if (mkdir(dir, 0755)) {
		err = errno;
		log_error("create mount point %s: %s", dir, strerror_safe(err));
		return -err;
	}
	err = teardown_push(td, mountdir_remove, (void *)dir, "remove %s", dir);
	if (err)
		return err;
	if (mountopts_split(options, &args)) {
		log_error("mount options '%s' are too long", options);
		return -E2BIG;
	}
	kmsg = kmsg_watch_begin();
	if (mount(device, dir, fstype, args.flags,
		  args.data[0] ? args.data : NULL)) {
		const char *words[] = { fstype, strrchr(device, '/') + 1, NULL };
		char why[1024];

		err = errno;
		kmsg_watch_end(kmsg, words, why, sizeof(why));
		log_error("mount %s on %s as %s with options '%s': %s%s%s",
			  device, dir, fstype, options ? options : "",
			  strerror_safe(err), why[0] ? "; the kernel says: " : "",
			  why);
		return -err;
	}
	kmsg_watch_end(kmsg, NULL, NULL, 0);
	return teardown_push(td, mount_undo, (void *)dir, "unmount %s", dir);
}

/* mountinfo escapes space, tab, newline and backslash as \ooo */
static void mountinfo_unescape(char *s)
{
	char *out = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '7' && s[2] &&
		    s[3]) {
			*out++ = (char)(((s[1] - '0') << 6) | ((s[2] - '0') << 3) |
					(s[3] - '0'));
			s += 4;
		} else {
			*out++ = *s++;
		}
	}
	*out = '\0';
}

int mount_read_options(const char *dir, char *mnt_opts, size_t mnt_len,
		       char *super_opts, size_t super_len)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL;
	size_t cap = 0;
	int found = -ENOENT;

	if (!f)
		return -errno;
	while (getline(&line, &cap, f) > 0) {
		char *fields[16], *save = NULL, *tok, *sep;
		int n = 0;

		sep = strstr(line, " - ");
		if (!sep)
			continue;
		*sep = '\0';
		for (tok = strtok_r(line, " ", &save); tok && n < 16;
		     tok = strtok_r(NULL, " ", &save))
			fields[n++] = tok;
		if (n < 6)
			continue;
		mountinfo_unescape(fields[4]);
		if (strcmp(fields[4], dir))
			continue;
		snprintf(mnt_opts, mnt_len, "%s", fields[5]);
		/* after the separator: fstype source super-options */
		save = NULL;
		tok = strtok_r(sep + 3, " \n", &save);
		tok = tok ? strtok_r(NULL, " \n", &save) : NULL;
		tok = tok ? strtok_r(NULL, " \n", &save) : NULL;
		snprintf(super_opts, super_len, "%s", tok ? tok : "");
		found = 0; /* keep going: the last mount on dir is the visible one */
	}
	free(line);
	fclose(f);
	return found;
}
