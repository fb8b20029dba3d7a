/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A target is the filesystem a workload runs on:
 * - an image: a sparse file in a per-run scratch directory, on a direct-IO
 *   loop device, made with mkfs and mounted (the default);
 * - a device: a real block device, checked, made with mkfs and mounted;
 * - a dir: a directory on a filesystem that is already mounted; fsprof works
 *   in a new subdirectory of it and removes only that.
 * Every step registers its undo in the teardown registry.
 */
#ifndef FSPROF_TARGET_H
#define FSPROF_TARGET_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "target/loopdev.h"
#include "target/mkfs.h"
#include "target/stack_up.h"
#include "target/model_daemon.h"
#include "util/teardown.h"

enum target_kind { TARGET_IMAGE, TARGET_DEVICE, TARGET_DIR };

/*
 * Where the device model sits: below the traced device (image targets:
 * image -> FUSE file, the model's engine -> lower loop -> loop, traced),
 * where it charges merged requests, holds every issuer, and the traced
 * latency includes the wait. --dir and --device have no model: nothing can
 * be stacked under an existing filesystem or device.
 */
enum model_placement { MODEL_NOWHERE, MODEL_LOWER_LOOP };

struct target_spec {
	enum target_kind kind;
	const char *fstype; /* "ext4" (image, device) */
	const char *mkfs_opts; /* extra mkfs arguments, or NULL */
	const char *mount_opts; /* mount options, or NULL */
	const char *scratch; /* image: the directory for the run directory */
	uint64_t image_size; /* image: bytes */
	const char *device; /* device: /dev/X */
	bool force; /* device: format even when it holds a signature */
	const char *dir; /* dir: an existing directory */
	uint64_t space_needed; /* dir: data bytes the workload needs */
	uint64_t files_needed; /* dir: inodes the workload needs */
	const struct device_model *model; /* NULL = none */
	/* image: --raid / --dm, the stack under the filesystem; NULL = none */
	const struct stack_spec *stack;
};

struct target {
	struct target_spec spec;
	char rundir[PATH_MAX]; /* image: <scratch>/fsprof.XXXXXX */
	char image[PATH_MAX]; /* image: <rundir>/image */
	char mnt[PATH_MAX]; /* image, device: where it is mounted */
	char workdir[PATH_MAX]; /* where the workload works */
	char devpath[PATH_MAX]; /* the block device, "" when none */
	struct loopdev loop; /* image: the traced loop device */
	struct loopdev lower; /* image with a model: the loop under it */
	struct model_daemon model; /* image with a model: its engine */
	struct stack_devs stack; /* image with --raid / --dm: its devices */
	enum model_placement model_at;
	dev_t model_dev; /* the lower loop the model serves, 0 when none */
	dev_t fs_dev; /* the filesystem's block device, 0 when none */
	dev_t disk_dev; /* the whole disk it is on */
	char fstype[32]; /* as mounted */
	char untraced[256]; /* why kernel tracing is unavailable, or "" */
	struct mkfs_record mkfs;
	char fs_uuid[64]; /* of the filesystem made (libblkid) */
	char mount_opts[1024]; /* per-mount options, from mountinfo */
	char super_opts[1024]; /* superblock options, from mountinfo */
};

/*
 * Check what can be checked before anything is created: the scratch
 * directory or the dir exists and has room, the device is safe to format.
 */
int target_preflight(const struct target_spec *spec);

/* Set the target up; undo steps go onto td. */
int target_up(struct target *t, const struct target_spec *spec,
	      struct teardown *td);

/*
 * Unmount the target and mount it again as target_up did (image and
 * device targets; a --dir target: -EOPNOTSUPP, said): only its own caches
 * are emptied, and the device model stays in place.
 */
int target_mount_again(struct target *t);

/*
 * 0 while the device model's engine of t (every member's) runs; -EPIPE,
 * said, when one died: the case's figures are not valid.
 */
int target_model_check(struct target *t);

/* the engines' counters summed over the members; the longest round trip */
void target_model_stats(const struct target *t, struct model_stats *sum,
			uint64_t *round_trip_ns);

/* Release what target_up allocated (not the setup: teardown does that). */
void target_free(struct target *t);

/* kernel dev_t encoding (major << 20 | minor), as BPF sees it */
unsigned int target_kernel_dev(dev_t dev);

#endif
