/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The skeleton of bpf/fsprof.bpf.c (every domain's programs, one object)
 * with the types its globals are declared with: a domain's shared header
 * (include/fsprof/<domain>.h) declares them, and the skeleton shows every
 * domain's globals. Include this, not the generated fsprof.skel.h.
 */
#ifndef FSPROF_FSPROF_SKEL_H
#define FSPROF_FSPROF_SKEL_H

#include "fsprof/block.h"
#include "fsprof/btrfs.h"
#include "fsprof/ext4.h"
#include "fsprof/jbd2.h"
#include "fsprof/marker.h"
#include "fsprof/sched.h"
#include "fsprof/writeback.h"
#include "fsprof/xfs.h"

#include "fsprof.skel.h"

#endif
