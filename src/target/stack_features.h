/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Can this kernel build the stack --raid and --dm ask for? Told by what the
 * kernel shows (/proc/mdstat and its personalities, /dev/mapper/control,
 * /proc/misc's device-mapper) or by the modules it ships (modules.dep,
 * modules.builtin: md_mod, raid0, raid1, dm_mod), never by its version.
 */
#ifndef FSPROF_STACK_FEATURES_H
#define FSPROF_STACK_FEATURES_H

#include <stddef.h>

#include "target/stack_spec.h"

/* where the facts are read: the running system's, or a test's tree */
struct kernel_places {
	const char *proc; /* "/proc" */
	const char *dev; /* "/dev" */
	const char *modules; /* "/lib/modules/<release>" */
};

/*
 * 0 when the kernel has, loaded or as modules, every driver s needs;
 * else -ENODEV with why naming the missing feature and its config option.
 */
int stack_features_check_at(const struct stack_spec *s,
			    const struct kernel_places *at, char *why,
			    size_t len);

/* the same for the running kernel */
int stack_features_check(const struct stack_spec *s, char *why, size_t len);

/*
 * 0 when the tools that build s (mdadm, dmsetup) are in PATH or an sbin
 * directory; else -ENOENT with why naming the one missing and its package
 */
int stack_tools_check(const struct stack_spec *s, char *why, size_t len);

#endif
