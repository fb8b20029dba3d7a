/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --fs LIST: the filesystems to compare, each with optional mkfs and mount
 * options.
 *
 *   LIST   := TARGET[,TARGET]...
 *   TARGET := FSTYPE[:KEY=VALUE]...      KEY is mkfs, mount, raid, dm or model
 *   VALUE  := text without , or :  |  'quoted'  |  "quoted"
 *
 * e.g. ext3,ext4,xfs:mount=logbsize=256k,ext4:mkfs='-E test_fs -m 0'
 *      ext4:mount='noatime,nodelalloc':mkfs='-J size=64'
 *      r0=ext4:raid='0:2',lin=ext4:dm=linear  (this target's --raid, --dm)
 *      h=ext4:raid='1:2':model=hdd  (this target's --device-model)
 * Quotes are part of fsprof's syntax, so they must reach fsprof: quote the
 * whole argument for the shell: --fs "ext4:mkfs='-E test_fs -m 0'".
 */
#ifndef FSPROF_FSSPEC_H
#define FSPROF_FSSPEC_H

#include <stddef.h>

#include "results/device_model.h"
#include "target/stack_spec.h"

#define FSSPEC_MAX 16

struct fsspec {
	char fstype[16];
	char mkfs_opts[512];
	char mount_opts[512];
	char label[160]; /* the full spec: "xfs:mount=logbsize=256k" */
	char name[32]; /* short: NAME= as given, else "xfs", "xfs#2" ... */
	/* raid=, dm=: this target's stack, in place of --raid and --dm */
	struct stack_spec stack;
	/* model=: this target's device model, in place of --device-model
	 * (name "" when not given); model_text as given */
	struct device_model model;
	char model_text[64];
};

/* the stack of target fs: its own, else the run's (--raid, --dm) */
const struct stack_spec *fsspec_stack(const struct fsspec *fs,
				      const struct stack_spec *run);

/* the device model of target fs: its own, else the run's (--device-model) */
const struct device_model *fsspec_model(const struct fsspec *fs,
					const struct device_model *run);

/* fstypes fsprof knows how to make */
int fsspec_fstype_known(const char *fstype);

/*
 * Parse text into specs (at most max). Returns the number parsed, or -EINVAL
 * with the reason in err.
 */
int fsspec_parse(const char *text, struct fsspec *specs, int max, char *err,
		 size_t errlen);

#endif
