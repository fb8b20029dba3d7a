/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The stack of --raid and --dm, built for an image target: N images in
 * its run directory on N loop devices, an md array of them, a dm-linear
 * device on the array or on the one loop. With a device model every member
 * is a disk of the model with an engine of its own (image -> FUSE file,
 * the model -> lower loop -> member loop, traced -> md / dm); target.c
 * turns the models on after mkfs. Every step registers its undo
 * (and its state-file record) in the teardown registry: torn down in
 * reverse, dm before md before the loops. With --device the user's block
 * devices are the members: no image, no loop, and their md superblocks are
 * zeroed once the array is stopped.
 */
#ifndef FSPROF_STACK_UP_H
#define FSPROF_STACK_UP_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "results/device_model.h"
#include "target/dmdev.h"
#include "target/loopdev.h"
#include "target/mdarray.h"
#include "target/model_daemon.h"
#include "target/stack_spec.h"
#include "util/teardown.h"

/* where the dm-linear device starts on the device below, in sectors: as a
 * partition would (1 MiB), so that the log's mapping has an offset */
#define STACK_DM_OFFSET 2048

struct stack_devs {
	char image[STACK_SPEC_MAX_MEMBERS][PATH_MAX];
	/* with a device model: the loop under each member, and its engine */
	struct loopdev lower[STACK_SPEC_MAX_MEMBERS];
	struct model_daemon model[STACK_SPEC_MAX_MEMBERS];
	struct loopdev member[STACK_SPEC_MAX_MEMBERS];
	/* --device: the user's devices are the members, no image or loop */
	char device[STACK_SPEC_MAX_MEMBERS][PATH_MAX];
	bool on_devices;
	unsigned int n;
	struct mdarray md;
	struct dmdev dm;
	char devpath[PATH_MAX]; /* the filesystem's device: /dev/dm-N, /dev/mdN */
	dev_t dev;
};

/* what to build, and where */
struct stack_build {
	const struct stack_spec *spec;
	const char *rundir; /* the images go there */
	uint64_t fs_size; /* the filesystem's bytes, about */
	/* active: each member on a lower loop, its rotational flag set */
	const struct device_model *model;
	/* --device: the members (n of them, checked), instead of loops */
	const char *const *devices;
	unsigned int n_devices;
};

/*
 * A disk of the model m: the engine serving image (size bytes) at dir,
 * the lower loop on its file, the loop on the lower one with the model's
 * rotational flag, and the engine's round trip probed through it. The
 * model stays off until model_daemon_engage. 0 or -errno, said.
 */
int model_disk_up(struct model_daemon *md, const struct device_model *m,
		  const char *image, uint64_t size, const char *dir,
		  struct loopdev *lower, struct loopdev *loop,
		  struct teardown *td);

/*
 * Build b's stack; the filesystem's device into sd->devpath and sd->dev.
 * 0 or -errno, said.
 */
int stack_up(struct stack_devs *sd, const struct stack_build *b,
	     struct teardown *td);

#endif
