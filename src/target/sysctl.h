/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel settings a result depends on: vm.dirty_* writeback knobs. */
#ifndef FSPROF_SYSCTL_H
#define FSPROF_SYSCTL_H

#include "results/results.h"

/* read the vm.dirty_* sysctls (those that exist) */
void sysctl_record_dirty(struct sysctl_record *rec);

#endif
