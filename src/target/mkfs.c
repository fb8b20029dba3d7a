// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wordexp.h>

#include "target/mkfs.h"
#include "util/log.h"
#include "util/spawn.h"

#define MKFS_MAX_ARGS 64

static bool fstype_is_ext(const char *fstype)
{
	return !strcmp(fstype, "ext2") || !strcmp(fstype, "ext3") ||
	       !strcmp(fstype, "ext4");
}

/* the options fsprof always passes, before the user's */
static int mkfs_default_args(const char *fstype, char **argv, int argc)
{
	if (fstype_is_ext(fstype)) {
		argv[argc++] = "-F";
		argv[argc++] = "-E";
		argv[argc++] = "lazy_itable_init=0,lazy_journal_init=0";
	} else if (!strcmp(fstype, "xfs")) {
		argv[argc++] = "-f";
	}
	return argc;
}

int mkfs_run(const char *fstype, const char *device, const char *extra_opts,
	     struct mkfs_record *rec)
{
	char *argv[MKFS_MAX_ARGS + 8];
	struct spawn_result res;
	char prog[32];
	wordexp_t words = { 0 };
	int argc = 0, err;
	size_t i;

	memset(rec, 0, sizeof(*rec));
	snprintf(prog, sizeof(prog), "mkfs.%s", fstype);
	argv[argc++] = prog;
	argc = mkfs_default_args(fstype, argv, argc);
	if (extra_opts && *extra_opts) {
		err = wordexp(extra_opts, &words, WRDE_NOCMD | WRDE_UNDEF);
		if (err) {
			log_error(
				"mkfs options '%s' cannot be split into arguments (unbalanced quotes or a $ or ` in them?)",
				extra_opts);
			return -EINVAL;
		}
		if (words.we_wordc > MKFS_MAX_ARGS) {
			log_error("too many mkfs options in '%s'", extra_opts);
			wordfree(&words);
			return -E2BIG;
		}
		for (i = 0; i < words.we_wordc; i++)
			argv[argc++] = words.we_wordv[i];
	}
	argv[argc++] = (char *)device;
	argv[argc] = NULL;
	spawn_format_argv(argv, rec->cmd, sizeof(rec->cmd));
	log_debug("running %s", rec->cmd);

	err = spawn_capture(argv, &res);
	if (extra_opts && *extra_opts)
		wordfree(&words);
	if (err == -ENOENT) {
		log_error("%s not found: install %s (make deps does)", prog,
			  fstype_is_ext(fstype)	 ? "e2fsprogs" :
			  !strcmp(fstype, "xfs") ? "xfsprogs" :
						   "the mkfs tool for it");
		free(res.output);
		return err;
	}
	if (err) {
		log_error("run %s: %s", rec->cmd, strerror_safe(-err));
		free(res.output);
		return err;
	}
	rec->output = res.output;
	if (res.exit_code) {
		log_error("%s failed (exit %d):\n%s", rec->cmd, res.exit_code,
			  res.output ? res.output : "");
		return -EIO;
	}
	return 0;
}
