// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vm/kernel_cache.h"

const char *vm_cache_dir(void)
{
	const char *env = getenv("FSPROF_VM_CACHE");

	return env && *env ? env : VM_CACHE_DEFAULT;
}

/* the first line of DIR/name is want */
static int staged_line_is(const char *dir, const char *name, const char *want)
{
	char path[4200], line[600];
	int same = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		same = !strcmp(line, want);
	}
	fclose(f);
	return same;
}

int vm_staged_config(const char *source, const char *release, char *path,
		     size_t len)
{
	char staged[4096], dir[4400];
	struct dirent *e;
	int ret = -ENOENT;
	DIR *d;

	snprintf(staged, sizeof(staged), "%s/staged", vm_cache_dir());
	d = opendir(staged);
	if (!d)
		return -ENOENT;
	while (ret && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", staged, e->d_name);
		if (!staged_line_is(dir, "source", source) ||
		    !staged_line_is(dir, "release", release))
			continue;
		snprintf(path, len, "%s/config", dir);
		if (!access(path, R_OK))
			ret = 0;
	}
	closedir(d);
	return ret;
}
