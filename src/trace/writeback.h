/* SPDX-License-Identifier: GPL-2.0 */
/* Writeback domain, user side: the naming it does before load. */
#ifndef FSPROF_TRACE_WRITEBACK_H
#define FSPROF_TRACE_WRITEBACK_H

#include <stddef.h>

#include "fsprof/writeback.h"

struct btf;

#define WB_REASON_NAME_LEN 24

/*
 * Name every reason slot from the kernel's enum wb_reason in btf:
 * WB_REASON_BACKGROUND -> "background". Slots the enum does not name (and
 * every slot when btf has no such enum) are "reason_<n>". Returns the number
 * of slots named from the enum.
 */
int wb_reason_names(const struct btf *btf,
		    char names[WB_REASON_SLOTS][WB_REASON_NAME_LEN]);

/*
 * The name of the bdi that writes back kernel_dev (major << 20 | minor):
 * "MAJ:MIN" of its disk. A partition is resolved to its disk through
 * <sysfs>/dev/block/MAJ:MIN/partition. Returns 0 or -errno.
 */
int wb_bdi_name(unsigned int kernel_dev, const char *sysfs, char *buf,
		size_t len);

#endif
