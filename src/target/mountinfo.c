// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "target/mountinfo.h"

/* mountinfo escapes space, tab, newline and backslash as \ooo */
static void mountinfo_unescape(char *s)
{
	char *out = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '7' && s[2] &&
		    s[3]) {
			*out++ = (char)(((s[1] - '0') << 6) |
					((s[2] - '0') << 3) | (s[3] - '0'));
			s += 4;
		} else {
			*out++ = *s++;
		}
	}
	*out = '\0';
}

/* "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue" */
static int mountinfo_parse_line(char *line, struct mountinfo_entry *e)
{
	char *fields[16], *save = NULL, *tok, *sep;
	int n = 0;

	sep = strstr(line, " - ");
	if (!sep)
		return -EINVAL;
	*sep = '\0';
	for (tok = strtok_r(line, " ", &save); tok && n < 16;
	     tok = strtok_r(NULL, " ", &save))
		fields[n++] = tok;
	if (n < 6 || sscanf(fields[2], "%u:%u", &e->major, &e->minor) != 2)
		return -EINVAL;
	mountinfo_unescape(fields[4]);
	snprintf(e->mountpoint, sizeof(e->mountpoint), "%s", fields[4]);
	snprintf(e->mnt_opts, sizeof(e->mnt_opts), "%s", fields[5]);
	save = NULL;
	tok = strtok_r(sep + 3, " \n", &save);
	snprintf(e->fstype, sizeof(e->fstype), "%s", tok ? tok : "");
	tok = tok ? strtok_r(NULL, " \n", &save) : NULL;
	if (tok)
		mountinfo_unescape(tok);
	snprintf(e->source, sizeof(e->source), "%s", tok ? tok : "");
	tok = tok ? strtok_r(NULL, " \n", &save) : NULL;
	snprintf(e->super_opts, sizeof(e->super_opts), "%s", tok ? tok : "");
	return 0;
}

int mountinfo_find(mountinfo_match match, const void *arg,
		   struct mountinfo_entry *out)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	struct mountinfo_entry *e = malloc(sizeof(*e));
	char *line = NULL;
	size_t cap = 0;
	int found = -ENOENT;

	if (!f || !e) {
		found = f ? -ENOMEM : -errno;
		goto out;
	}
	while (getline(&line, &cap, f) > 0) {
		if (mountinfo_parse_line(line, e) || !match(e, arg))
			continue;
		*out = *e;
		found = 0;
	}
out:
	free(line);
	free(e);
	if (f)
		fclose(f);
	return found;
}

static bool match_dir(const struct mountinfo_entry *e, const void *arg)
{
	return !strcmp(e->mountpoint, arg);
}

int mountinfo_find_by_dir(const char *dir, struct mountinfo_entry *out)
{
	return mountinfo_find(match_dir, dir, out);
}

static bool match_dev(const struct mountinfo_entry *e, const void *arg)
{
	const dev_t *dev = arg;

	return e->major == major(*dev) && e->minor == minor(*dev);
}

int mountinfo_find_by_dev(unsigned int maj, unsigned int min,
			  struct mountinfo_entry *out)
{
	dev_t dev = makedev(maj, min);

	return mountinfo_find(match_dev, &dev, out);
}
