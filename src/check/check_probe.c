// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "check/check_probe.h"
#include "check/privileges.h"
#include "target/model_daemon.h"
#include "target/mountinfo.h"
#include "util/log.h"

void check_probe_kernel(struct check_report *rep)
{
	struct check_item *item = check_add_item(rep, "kernel", false);
	struct utsname uts;

	if (!item)
		return;
	if (uname(&uts)) {
		snprintf(rep->kernel, sizeof(rep->kernel), "unknown");
		check_item_set(item, CHECK_WARN, "uname: %s",
			       strerror_safe(errno));
		return;
	}
	snprintf(rep->kernel, sizeof(rep->kernel), "%s", uts.release);
	check_item_set(item, CHECK_OK, "%s (%s)", uts.release, uts.machine);
}

void check_probe_privileges(struct check_report *rep)
{
	struct check_item *item = check_add_item(rep, "privileges", true);
	char why[CHECK_DETAIL_LEN];

	if (!item)
		return;
	if (privileges_ok(why, sizeof(why)))
		check_item_set(item, CHECK_OK, "%s", why);
	else
		check_item_set(item, CHECK_MISSING, "%s", why);
}

/* Is a filesystem of type fstype mounted at dir? (target/mountinfo.c) */
static bool fs_mounted_at(const char *dir, const char *fstype)
{
	struct mountinfo_entry *e = malloc(sizeof(*e));
	bool found;

	found = e && !mountinfo_find_by_dir(dir, e) &&
		!strcmp(e->fstype, fstype);
	free(e);
	return found;
}

/* Does a whitespace-separated field of some line in path equal word? */
static bool file_has_word(const char *path, const char *word)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;
	bool found = false;

	if (!f)
		return false;
	while (!found && getline(&line, &cap, f) > 0) {
		char *save = NULL, *tok;

		for (tok = strtok_r(line, " \t\n", &save); tok && !found;
		     tok = strtok_r(NULL, " \t\n", &save))
			found = !strcmp(tok, word);
	}
	free(line);
	fclose(f);
	return found;
}

void check_probe_tracefs(struct check_report *rep)
{
	static const char *const dirs[] = { "/sys/kernel/tracing",
					    "/sys/kernel/debug/tracing" };
	struct check_item *item = check_add_item(rep, "tracefs", false);
	size_t i;

	if (!item)
		return;
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		if (fs_mounted_at(dirs[i], "tracefs")) {
			check_item_set(item, CHECK_OK, "mounted at %s",
				       dirs[i]);
			return;
		}
	}
	if (file_has_word("/proc/filesystems", "tracefs")) {
		check_item_set(
			item, CHECK_OK,
			"mountable (not mounted; tracefs is in /proc/filesystems)");
		return;
	}
	check_item_set(
		item, CHECK_MISSING,
		"not supported by this kernel (not needed: tp_btf programs attach without it)");
}

static bool is_executable_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK);
}

/* Search PATH the way execvp does; returns true and fills found. */
static bool find_in_path(const char *tool, char *found, size_t len)
{
	const char *path = getenv("PATH");
	const char *dir, *end;

	if (!path)
		path = "/bin:/usr/bin"; /* glibc execvp's default */
	for (dir = path;; dir = end + 1) {
		int dir_len;

		end = strchrnul(dir, ':');
		dir_len = (int)(end - dir);
		snprintf(found, len, "%.*s/%s", dir_len ? dir_len : 1,
			 dir_len ? dir : ".", tool);
		if (is_executable_file(found))
			return true;
		if (!*end)
			return false;
	}
}

void check_probe_mkfs(struct check_report *rep, const char *tool, bool required)
{
	static const char *const sbin_dirs[] = { "/usr/sbin", "/sbin",
						 "/usr/local/sbin" };
	struct check_item *item = check_add_item(rep, tool, required);
	enum check_status absent = required ? CHECK_MISSING : CHECK_WARN;
	const char *package = strstr(tool, "xfs") ? "xfsprogs" : "e2fsprogs";
	char path[PATH_MAX];
	size_t i;

	if (!item)
		return;
	if (find_in_path(tool, path, sizeof(path))) {
		check_item_set(item, CHECK_OK, "%s", path);
		return;
	}
	/* a root shell usually has sbin in PATH, sudo and su may not */
	for (i = 0; i < sizeof(sbin_dirs) / sizeof(sbin_dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", sbin_dirs[i], tool);
		if (is_executable_file(path)) {
			check_item_set(
				item, absent,
				"not in PATH, but %s exists: add %s to PATH",
				path, sbin_dirs[i]);
			return;
		}
	}
	check_item_set(item, absent, "not found in PATH (install %s)%s",
		       package, required ? "" : "; only --fs xfs needs it");
}

/* Is the loop driver built into the running kernel? */
static bool loop_builtin(void)
{
	char path[PATH_MAX];
	struct utsname uts;
	FILE *f;
	char *line = NULL;
	size_t cap = 0;
	bool found = false;

	if (uname(&uts))
		return false;
	snprintf(path, sizeof(path), "/lib/modules/%s/modules.builtin",
		 uts.release);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!found && getline(&line, &cap, f) > 0)
		found = strstr(line, "/loop.ko") != NULL;
	free(line);
	fclose(f);
	return found;
}

void check_probe_loop(struct check_report *rep)
{
	struct check_item *item = check_add_item(rep, "loop", true);

	if (!item)
		return;
	if (!access("/dev/loop-control", F_OK))
		check_item_set(item, CHECK_OK, "/dev/loop-control");
	else if (file_has_word("/proc/devices", "loop"))
		check_item_set(
			item, CHECK_OK,
			"loop driver registered (/proc/devices), but no /dev/loop-control");
	else if (file_has_word("/proc/modules", "loop"))
		check_item_set(item, CHECK_OK, "loop module loaded");
	else if (loop_builtin())
		check_item_set(item, CHECK_OK, "loop driver built in");
	else
		check_item_set(
			item, CHECK_MISSING,
			"no /dev/loop-control and no loop driver (try: modprobe loop)");
}

void check_probe_fuse(struct check_report *rep)
{
	struct check_item *item = check_add_item(rep, "fuse", false);
	char why[256];

	if (!item)
		return;
	if (!model_daemon_available(why, sizeof(why)))
		check_item_set(item, CHECK_OK,
			       "/dev/fuse (the --device-model engine)");
	else
		check_item_set(item, CHECK_WARN,
			       "%s; only --device-model needs it", why);
}
