// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "target/stack_features.h"

/* does a line of path contain word? false when path cannot be read */
static bool file_has(const char *dir, const char *name, const char *word)
{
	char path[PATH_MAX];
	char *line = NULL;
	size_t cap = 0;
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!found && getline(&line, &cap, f) > 0)
		found = strstr(line, word) != NULL;
	free(line);
	fclose(f);
	return found;
}

/* a module the kernel ships, built in or loadable: "/md-mod.ko" */
static bool module_shipped(const struct kernel_places *at, const char *file)
{
	char word[64];

	snprintf(word, sizeof(word), "/%s.ko", file);
	return file_has(at->modules, "modules.builtin", word) ||
	       file_has(at->modules, "modules.dep", word);
}

static bool path_exists(const char *dir, const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return !access(path, F_OK);
}

/* the md driver: loaded (/proc/mdstat) or shipped */
static bool md_present(const struct kernel_places *at)
{
	return path_exists(at->proc, "mdstat") || module_shipped(at, "md-mod");
}

/* the raidN personality: registered (mdstat's Personalities) or shipped */
static bool md_personality(const struct kernel_places *at, unsigned int level)
{
	char word[16], file[16];

	snprintf(word, sizeof(word), "[raid%u]", level);
	snprintf(file, sizeof(file), "raid%u", level);
	return file_has(at->proc, "mdstat", word) || module_shipped(at, file);
}

/* device-mapper: its control node, its misc device, or its module */
static bool dm_present(const struct kernel_places *at)
{
	return path_exists(at->dev, "mapper/control") ||
	       file_has(at->proc, "misc", "device-mapper") ||
	       module_shipped(at, "dm-mod");
}

static const char *const try_guest =
	"run it on a kernel that has it, e.g. in a guest of Debian's (--kernel 6.12), whose kernels ship it as a module";

int stack_features_check_at(const struct stack_spec *s,
			    const struct kernel_places *at, char *why,
			    size_t len)
{
	if (s->raid_members && !md_present(at)) {
		snprintf(
			why, len,
			"--raid %s needs the kernel's md (software RAID) driver, and this kernel has none: no %s/mdstat, and no md_mod module in %s (CONFIG_BLK_DEV_MD); %s",
			s->raid_text, at->proc, at->modules, try_guest);
		return -ENODEV;
	}
	if (s->raid_members && !md_personality(at, s->raid_level)) {
		snprintf(
			why, len,
			"--raid %s needs md's raid%u personality, and this kernel has none: not among %s/mdstat's personalities, and no raid%u module in %s (CONFIG_MD_RAID%u); %s",
			s->raid_text, s->raid_level, at->proc, s->raid_level,
			at->modules, s->raid_level, try_guest);
		return -ENODEV;
	}
	if (s->dm_linear && !dm_present(at)) {
		snprintf(
			why, len,
			"--dm linear needs the kernel's device-mapper, and this kernel has none: no %s/mapper/control, no device-mapper in %s/misc, and no dm_mod module in %s (CONFIG_BLK_DEV_DM); %s",
			at->dev, at->proc, at->modules, try_guest);
		return -ENODEV;
	}
	return 0;
}

int stack_features_check(const struct stack_spec *s, char *why, size_t len)
{
	char modules[PATH_MAX] = "/lib/modules/(unknown release)";
	struct kernel_places at = { "/proc", "/dev", modules };
	struct utsname u;

	if (!uname(&u))
		snprintf(modules, sizeof(modules), "/lib/modules/%s",
			 u.release);
	return stack_features_check_at(s, &at, why, len);
}

/* prog in PATH, or in an sbin directory PATH may lack (sudo, cron) */
static bool tool_found(const char *prog)
{
	static const char *const sbin[] = { "/usr/sbin", "/sbin" };
	const char *path = getenv("PATH");
	char file[PATH_MAX];
	size_t i, len;

	while (path && *path) {
		len = strcspn(path, ":");
		snprintf(file, sizeof(file), "%.*s/%s",
			 (int)(len < 4000 ? len : 4000), path, prog);
		if (len && !access(file, X_OK))
			return true;
		path += len + (path[len] == ':');
	}
	for (i = 0; i < sizeof(sbin) / sizeof(sbin[0]); i++) {
		snprintf(file, sizeof(file), "%s/%s", sbin[i], prog);
		if (!access(file, X_OK))
			return true;
	}
	return false;
}

int stack_tools_check(const struct stack_spec *s, char *why, size_t len)
{
	if (s->raid_members && !tool_found("mdadm")) {
		snprintf(
			why, len,
			"--raid %s makes its array with mdadm, which is not installed (Debian package mdadm; make deps-run)",
			s->raid_text);
		return -ENOENT;
	}
	if (s->dm_linear && !tool_found("dmsetup")) {
		snprintf(
			why, len,
			"--dm linear makes its device with dmsetup, which is not installed (Debian package dmsetup; make deps-run)");
		return -ENOENT;
	}
	return 0;
}
