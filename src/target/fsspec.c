// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "target/fsspec.h"

static const char *const known_fstypes[] = { "ext2", "ext3", "ext4", "xfs",
					     "btrfs" };

int fsspec_fstype_known(const char *fstype)
{
	size_t i;

	for (i = 0; i < sizeof(known_fstypes) / sizeof(known_fstypes[0]); i++)
		if (!strcmp(fstype, known_fstypes[i]))
			return 1;
	return 0;
}

/*
 * Read one token up to a separator in seps (outside quotes) into out,
 * without its quotes. Returns the position after the token, or NULL with a
 * reason in err.
 */
static const char *token_read(const char *p, const char *seps, char *out,
			      size_t len, char *err, size_t errlen)
{
	size_t n = 0;
	char quote = 0;

	for (; *p; p++) {
		if (quote) {
			if (*p == quote) {
				quote = 0;
				continue;
			}
		} else if (*p == '\'' || *p == '"') {
			quote = *p;
			continue;
		} else if (strchr(seps, *p)) {
			break;
		}
		if (n + 1 >= len) {
			snprintf(err, errlen, "value too long near '%.20s'", p);
			return NULL;
		}
		out[n++] = *p;
	}
	out[n] = '\0';
	if (quote) {
		snprintf(err, errlen, "unbalanced %c quote", quote);
		return NULL;
	}
	return p;
}

static int fsspec_set(struct fsspec *spec, const char *setting, char *err,
		      size_t errlen)
{
	const char *eq = strchr(setting, '=');
	size_t keylen;

	if (!eq) {
		snprintf(err, errlen,
			 "'%s' after %s: is not mkfs=... or mount=...", setting,
			 spec->fstype);
		return -EINVAL;
	}
	keylen = (size_t)(eq - setting);
	if (keylen == 4 && !strncmp(setting, "mkfs", 4)) {
		snprintf(spec->mkfs_opts, sizeof(spec->mkfs_opts), "%s",
			 eq + 1);
	} else if (keylen == 5 && !strncmp(setting, "mount", 5)) {
		snprintf(spec->mount_opts, sizeof(spec->mount_opts), "%s",
			 eq + 1);
	} else {
		snprintf(err, errlen,
			 "unknown setting '%.*s' for %s (use mkfs= or mount=)",
			 (int)keylen, setting, spec->fstype);
		return -EINVAL;
	}
	return 0;
}

static void fsspec_label(struct fsspec *spec)
{
	size_t off;

	off = (size_t)snprintf(spec->label, sizeof(spec->label), "%s",
			       spec->fstype);
	if (spec->mkfs_opts[0] && off < sizeof(spec->label))
		off += (size_t)snprintf(spec->label + off,
					sizeof(spec->label) - off, ":mkfs='%s'",
					spec->mkfs_opts);
	if (spec->mount_opts[0] && off < sizeof(spec->label))
		snprintf(spec->label + off, sizeof(spec->label) - off,
			 ":mount=%s", spec->mount_opts);
}

int fsspec_parse(const char *text, struct fsspec *specs, int max, char *err,
		 size_t errlen)
{
	const char *p = text;
	int n = 0;

	if (!text || !*text) {
		snprintf(err, errlen, "empty filesystem list");
		return -EINVAL;
	}
	while (*p) {
		struct fsspec *spec;
		char setting[600];

		if (n == max) {
			snprintf(err, errlen, "more than %d filesystems", max);
			return -EINVAL;
		}
		spec = &specs[n];
		memset(spec, 0, sizeof(*spec));
		p = token_read(p, ":,", spec->fstype, sizeof(spec->fstype), err,
			       errlen);
		if (!p)
			return -EINVAL;
		if (!fsspec_fstype_known(spec->fstype)) {
			snprintf(
				err, errlen,
				"unknown filesystem '%s' (known: ext2, ext3, ext4, xfs, btrfs)%s",
				spec->fstype,
				n ? "; options with commas must be quoted: ext4:mount='noatime,nodelalloc'" :
				    "");
			return -EINVAL;
		}
		while (*p == ':') {
			p = token_read(p + 1, ":,", setting, sizeof(setting),
				       err, errlen);
			if (!p || fsspec_set(spec, setting, err, errlen))
				return -EINVAL;
		}
		fsspec_label(spec);
		n++;
		if (*p == ',') {
			p++;
			if (!*p) {
				snprintf(err, errlen,
					 "trailing comma in filesystem list");
				return -EINVAL;
			}
		}
	}
	return n;
}
