/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A recorded run's command line (results "command") read back through
 * run's own parser, as the words that make the same cases again: every
 * option but those that only say where results go or how much is said
 * (--json, --db, --label, -q, ...), each as one --name[=value] word, and
 * the guest options (--kernel-modules, --kernel-cmdline, --kernel-timeout)
 * apart, for a rerun that chooses its own kernels. fsprof report --bundle
 * writes them into rerun.sh; fsprof bisect-step runs them.
 */
#ifndef FSPROF_CLI_RERUN_H
#define FSPROF_CLI_RERUN_H

#include "results/results.h"
#include "vm/guest.h"

#define RERUN_MAX_WORDS GUEST_MAX_ARGS

struct rerun_words {
	unsigned int n;
	char *v[RERUN_MAX_WORDS]; /* owned: "--workload=files1m:files=200" */
};

struct rerun_command {
	struct rerun_words cases; /* what makes the cases */
	struct rerun_words guest; /* --kernel-modules=DIR ... */
	char kernels[1024]; /* the recorded --kernel LIST, or "" */
};

/*
 * run's command as a rerun_command (freed with rerun_command_free): 0;
 * -ENOENT when the run has no recorded command (an older fsprof), -EINVAL
 * when it is not a fsprof run or does not parse with this fsprof,
 * -ENOMEM; err says which.
 */
int rerun_command_read(const struct run_result *run, struct rerun_command *rc,
		       char *err, size_t errlen);

void rerun_command_free(struct rerun_command *rc);

/* "--name=value" ("--name" without a value) added to w: 0, -E2BIG when
 * it is full, -ENOMEM */
int rerun_words_add(struct rerun_words *w, const char *name, const char *value);

void rerun_words_free(struct rerun_words *w);

#endif
