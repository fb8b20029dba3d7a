// SPDX-License-Identifier: GPL-2.0
/* A bundle's directory: refused when it holds anything, then its files. */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "repro/bundle_int.h"
#include "results/json.h"
#include "version.h"

/* the entries of dir besides . and .., -errno when it cannot be read */
static int dir_entries(const char *dir)
{
	struct dirent *e;
	int n = 0;
	DIR *d = opendir(dir);

	if (!d)
		return -errno;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

/* dir made, or there and empty (or force); nothing written when not */
static int bundle_dir_ready(const struct bundle_spec *b, char *err,
			    size_t errlen)
{
	struct stat st;
	int n;

	if (!mkdir(b->dir, 0755))
		return 0;
	if (errno != EEXIST || stat(b->dir, &st)) {
		snprintf(err, errlen, "--bundle %s: cannot make it: %s", b->dir,
			 strerror(errno));
		return -errno;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(
			err, errlen,
			"--bundle %s: exists and is not a directory; give a new or empty directory",
			b->dir);
		return -EEXIST;
	}
	n = dir_entries(b->dir);
	if (n < 0) {
		snprintf(err, errlen, "--bundle %s: cannot read it: %s", b->dir,
			 strerror(-n));
		return n;
	}
	if (n && !b->force) {
		snprintf(
			err, errlen,
			"--bundle %s: the directory is not empty (%d entr%s); nothing was written. Give a new or empty directory, or --force to write the bundle's files into it (files of the same names are replaced, others left alone)",
			b->dir, n, n == 1 ? "y" : "ies");
		return -EEXIST;
	}
	return 0;
}

typedef void (*bundle_text_fn)(const struct bundle_spec *b,
			       const struct bundle_kernels *bk, FILE *f);

static int bundle_file(const struct bundle_spec *b,
		       const struct bundle_kernels *bk, const char *name,
		       mode_t mode, bundle_text_fn text, char *err,
		       size_t errlen)
{
	char path[4400];
	bool bad;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", b->dir, name);
	f = fopen(path, "w");
	if (!f) {
		snprintf(err, errlen, "write %s: %s", path, strerror(errno));
		return -errno;
	}
	text(b, bk, f);
	bad = fchmod(fileno(f), mode) != 0;
	bad |= ferror(f) != 0;
	bad |= fclose(f) != 0;
	if (bad) {
		snprintf(err, errlen, "write %s: %s", path, strerror(errno));
		return -EIO;
	}
	return 0;
}

static void command_text(const struct bundle_spec *b,
			 const struct bundle_kernels *bk, FILE *f)
{
	char line[8192];

	(void)bk;
	fprintf(f, "fsprof %s\n",
		b->run->tool_version[0] ? b->run->tool_version : "unknown");
	if (!b->run->n_command) {
		fprintf(f, "# the command line was not recorded\n");
		return;
	}
	bundle_command_line(b->run->command, b->run->n_command, line,
			    sizeof(line));
	fprintf(f, "%s\n", line);
}

int bundle_write(const struct bundle_spec *b, char *err, size_t errlen)
{
	struct bundle_kernels *bk;
	char path[4400];
	int ret;

	ret = bundle_dir_ready(b, err, errlen);
	if (ret)
		return ret;
	bk = calloc(1, sizeof(*bk));
	if (!bk) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	bundle_kernels_collect(b->run, b->dir, bk);
	snprintf(path, sizeof(path), "%s/results.json", b->dir);
	ret = results_write_json(b->run, path);
	if (ret)
		snprintf(err, errlen, "write %s: %s", path, strerror(-ret));
	if (!ret)
		ret = bundle_file(b, bk, "command", 0644, command_text, err,
				  errlen);
	if (!ret)
		ret = bundle_file(b, bk, "targets", 0644, bundle_targets, err,
				  errlen);
	if (!ret)
		ret = bundle_file(b, bk, "README", 0644, bundle_readme, err,
				  errlen);
	if (!ret)
		ret = bundle_file(b, bk, "rerun.sh", 0755, bundle_rerun_script,
				  err, errlen);
	free(bk);
	return ret;
}
