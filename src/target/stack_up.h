/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The stack of --raid and --dm, built for an image target: N images in
 * its run directory on N loop devices, an md array of them, a dm-linear
 * device on the array or on the one loop. Every step registers its undo
 * (and its state-file record) in the teardown registry: torn down in
 * reverse, dm before md before the loops.
 */
#ifndef FSPROF_STACK_UP_H
#define FSPROF_STACK_UP_H

#include <limits.h>
#include <stdint.h>
#include <sys/types.h>

#include "target/dmdev.h"
#include "target/loopdev.h"
#include "target/mdarray.h"
#include "target/stack_spec.h"
#include "util/teardown.h"

/* where the dm-linear device starts on the device below, in sectors: as a
 * partition would (1 MiB), so that the log's mapping has an offset */
#define STACK_DM_OFFSET 2048

struct stack_devs {
	char image[STACK_SPEC_MAX_MEMBERS][PATH_MAX];
	struct loopdev member[STACK_SPEC_MAX_MEMBERS];
	unsigned int n;
	struct mdarray md;
	struct dmdev dm;
	char devpath[PATH_MAX]; /* the filesystem's device: /dev/dm-N, /dev/mdN */
	dev_t dev;
};

/*
 * Build s in rundir for a filesystem of about fs_size bytes; the
 * filesystem's device into sd->devpath and sd->dev. 0 or -errno, said.
 */
int stack_up(struct stack_devs *sd, const struct stack_spec *s,
	     const char *rundir, uint64_t fs_size, struct teardown *td);

#endif
