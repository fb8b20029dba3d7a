/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A kernel's build config, for a reproduction bundle: where it is for the
 * kernel a case ran on (this machine's: /proc/config.gz or
 * /boot/config-REL; a Debian guest kernel's: its package's, in the staging
 * cache; a kernel given by path: the .config of the build tree it is in),
 * and a copy of it, gzip or plain, as plain text.
 */
#ifndef FSPROF_REPRO_KERNEL_CONFIG_H
#define FSPROF_REPRO_KERNEL_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "results/results.h"

/* one kernel of a run, as the bundle names it */
struct kernel_config {
	char release[128];
	bool guest;
	char source[512]; /* a guest's package or path; "" for the host's */
	char accel[8]; /* a guest's kvm or tcg */
	char from[4200]; /* where its config was found; "" when nowhere */
	char looked[600]; /* when nowhere: where it was looked for */
};

/*
 * The kernel case c ran on, and where its config is (kc->from, or why not
 * in kc->looked)
 */
void kernel_config_locate(const struct case_result *c,
			  struct kernel_config *kc);

/* the same kernel: the release and where it came from */
bool kernel_config_same(const struct kernel_config *a,
			const struct kernel_config *b);

/*
 * from (gzip-compressed or plain) into the new file to, uncompressed: 0,
 * or -errno with err naming the file that failed
 */
int kernel_config_copy(const char *from, const char *to, char *err,
		       size_t errlen);

#endif
