// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "target/fsspec.h"
#include "model/preset.h"

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

/* model=NAME: --device-model's values, for this target alone */
static int fsspec_set_model(struct fsspec *spec, const char *text, char *err,
			    size_t errlen)
{
	char why[256];

	if (strlen(text) >= sizeof(spec->model_text)) {
		snprintf(err, errlen, "model='%.20s...' is too long", text);
		return -EINVAL;
	}
	if (device_model_parse(text, &spec->model, why, sizeof(why))) {
		snprintf(err, errlen, "model= of %s: %s", spec->fstype, why);
		return -EINVAL;
	}
	snprintf(spec->model_text, sizeof(spec->model_text), "%s", text);
	return 0;
}

static int fsspec_set(struct fsspec *spec, const char *setting, char *err,
		      size_t errlen)
{
	const char *eq = strchr(setting, '=');
	size_t keylen;

	if (!eq) {
		snprintf(
			err, errlen,
			"'%s' after %s: is not mkfs=, mount=, raid=, dm= or model=...",
			setting, spec->fstype);
		return -EINVAL;
	}
	keylen = (size_t)(eq - setting);
	if (keylen == 4 && !strncmp(setting, "mkfs", 4)) {
		snprintf(spec->mkfs_opts, sizeof(spec->mkfs_opts), "%s",
			 eq + 1);
	} else if (keylen == 5 && !strncmp(setting, "mount", 5)) {
		snprintf(spec->mount_opts, sizeof(spec->mount_opts), "%s",
			 eq + 1);
	} else if (keylen == 4 && !strncmp(setting, "raid", 4)) {
		return stack_spec_parse_raid(eq + 1, &spec->stack, err, errlen);
	} else if (keylen == 2 && !strncmp(setting, "dm", 2)) {
		return stack_spec_parse_dm(eq + 1, &spec->stack, err, errlen);
	} else if (keylen == 5 && !strncmp(setting, "model", 5)) {
		return fsspec_set_model(spec, eq + 1, err, errlen);
	} else {
		snprintf(
			err, errlen,
			"unknown setting '%.*s' for %s (use mkfs=, mount=, raid=, dm= or model=)",
			(int)keylen, setting, spec->fstype);
		return -EINVAL;
	}
	return 0;
}

const struct stack_spec *fsspec_stack(const struct fsspec *fs,
				      const struct stack_spec *run)
{
	return stack_spec_active(&fs->stack) ? &fs->stack : run;
}

const struct device_model *fsspec_model(const struct fsspec *fs,
					const struct device_model *run)
{
	return fs->model.name[0] ? &fs->model : run;
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
		off += (size_t)snprintf(spec->label + off,
					sizeof(spec->label) - off, ":mount=%s",
					spec->mount_opts);
	if (spec->stack.raid_members && off < sizeof(spec->label))
		off += (size_t)snprintf(spec->label + off,
					sizeof(spec->label) - off, ":raid='%s'",
					spec->stack.raid_text);
	if (spec->stack.dm_linear && off < sizeof(spec->label))
		off += (size_t)snprintf(spec->label + off,
					sizeof(spec->label) - off,
					":dm=linear");
	if (spec->model_text[0] && off < sizeof(spec->label))
		snprintf(spec->label + off, sizeof(spec->label) - off,
			 ":model='%s'", spec->model_text);
}

/* "old=ext3" names the target old; a plain "ext3" is named later */
static int fsspec_head(struct fsspec *spec, const char *head, char *err,
		       size_t errlen)
{
	const char *eq = strchr(head, '=');
	size_t i, n = eq ? (size_t)(eq - head) : 0;

	if (n >= sizeof(spec->name)) {
		snprintf(err, errlen, "target name '%.*s' is longer than %zu",
			 (int)n, head, sizeof(spec->name) - 1);
		return -EINVAL;
	}
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)head[i]) &&
		    !strchr("_-.+#", head[i])) {
			snprintf(
				err, errlen,
				"target name '%.*s': use letters, digits and _-.+# only",
				(int)n, head);
			return -EINVAL;
		}
	if (eq && !n) {
		snprintf(err, errlen, "empty target name before '=' in '%s'",
			 head);
		return -EINVAL;
	}
	snprintf(spec->name, sizeof(spec->name), "%.*s", (int)n, head);
	/* too long for any fstype: the caller refuses it as unknown */
	snprintf(spec->fstype, sizeof(spec->fstype), "%.15s",
		 eq ? eq + 1 : head);
	return 0;
}

/* is name used by a target other than skip? */
static int fsspec_name_used(const struct fsspec *specs, int n, int skip,
			    const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (i != skip && !strcmp(specs[i].name, name))
			return 1;
	return 0;
}

/* unnamed targets are named by fstype: ext4, then ext4#2, ext4#3 ... */
static void fsspec_names_default(struct fsspec *specs, int n)
{
	int i, k;

	for (i = 0; i < n; i++) {
		if (specs[i].name[0])
			continue;
		snprintf(specs[i].name, sizeof(specs[i].name), "%s",
			 specs[i].fstype);
		for (k = 2; fsspec_name_used(specs, n, i, specs[i].name); k++)
			snprintf(specs[i].name, sizeof(specs[i].name), "%s#%d",
				 specs[i].fstype, k);
	}
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
		char setting[600], head[64];

		if (n == max) {
			snprintf(err, errlen, "more than %d filesystems", max);
			return -EINVAL;
		}
		spec = &specs[n];
		memset(spec, 0, sizeof(*spec));
		p = token_read(p, ":,", head, sizeof(head), err, errlen);
		if (!p || fsspec_head(spec, head, err, errlen))
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
		if (spec->name[0] &&
		    fsspec_name_used(specs, n, -1, spec->name)) {
			snprintf(
				err, errlen,
				"two filesystems are named '%s': give each its own NAME=",
				spec->name);
			return -EINVAL;
		}
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
	fsspec_names_default(specs, n);
	return n;
}
