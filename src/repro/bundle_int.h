/* SPDX-License-Identifier: GPL-2.0 */
/* The parts of a bundle (bundle*.c): its kernels, README and rerun.sh. */
#ifndef FSPROF_REPRO_BUNDLE_INT_H
#define FSPROF_REPRO_BUNDLE_INT_H

#include <stdio.h>

#include "repro/bundle_spec.h"
#include "repro/kernel_config.h"

#define BUNDLE_MAX_KERNELS 16

/* the distinct kernels of a run's cases, in the order they ran */
struct bundle_kernels {
	unsigned int n;
	struct kernel_config k[BUNDLE_MAX_KERNELS];
	unsigned int slot[BUNDLE_MAX_KERNELS]; /* an A/A's 1, 2; else 0 */
	char file[BUNDLE_MAX_KERNELS][160]; /* "kernels/REL.config", "" */
	char copy_error[BUNDLE_MAX_KERNELS][256]; /* found, not copied */
	/* the --kernel LIST that runs them again, "" for the host's */
	char rerun_list[2048];
};

/* run's kernels, their configs found and copied into DIR/kernels */
void bundle_kernels_collect(const struct run_result *run, const char *dir,
			    struct bundle_kernels *bk);

/* the README, rerun.sh and targets (each target's mkfs and mount
 * lines) into f */
void bundle_targets(const struct bundle_spec *b,
		    const struct bundle_kernels *bk, FILE *f);
void bundle_readme(const struct bundle_spec *b, const struct bundle_kernels *bk,
		   FILE *f);
void bundle_rerun_script(const struct bundle_spec *b,
			 const struct bundle_kernels *bk, FILE *f);

/* "fsprof WORD..." of argv, shell-quoted, into buf */
void bundle_command_line(char *const *argv, unsigned int n, char *buf,
			 size_t len);

#endif
