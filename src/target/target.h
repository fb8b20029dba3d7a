/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A target is the filesystem a workload runs on. For now: a sparse image in
 * a per-run scratch directory, on a direct-IO loop device, made with mkfs and
 * mounted. Every step registers its undo in the teardown registry.
 */
#ifndef FSPROF_TARGET_H
#define FSPROF_TARGET_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "target/loopdev.h"
#include "target/mkfs.h"
#include "target/throttle.h"
#include "util/teardown.h"

struct target_spec {
	const char *fstype; /* "ext4" */
	const char *mkfs_opts; /* extra mkfs arguments, or NULL */
	const char *mount_opts; /* mount data options, or NULL */
	const char *scratch; /* directory that holds the run directory */
	uint64_t image_size; /* bytes */
	const struct device_model *model; /* throttle; NULL = none */
};

struct target {
	struct target_spec spec;
	char rundir[PATH_MAX]; /* <scratch>/fsprof.XXXXXX */
	char image[PATH_MAX]; /* <rundir>/image */
	char mnt[PATH_MAX]; /* <rundir>/mnt */
	struct loopdev loop;
	unsigned int kernel_dev; /* loop.dev in the kernel's encoding */
	struct mkfs_record mkfs;
	char mount_opts[1024]; /* per-mount options, from mountinfo */
	char super_opts[1024]; /* superblock options, from mountinfo */
};

/*
 * Check what can be checked before anything is created: the scratch
 * directory exists, is a directory, and has room for the image.
 */
int target_preflight(const struct target_spec *spec);

/* Create, attach, format and mount; undo steps go onto td. */
int target_up(struct target *t, const struct target_spec *spec,
	      struct teardown *td);

/* Release what target_up allocated (not the setup: teardown does that). */
void target_free(struct target *t);

/* kernel dev_t encoding (major << 20 | minor), as BPF sees it */
unsigned int target_kernel_dev(dev_t dev);

#endif
