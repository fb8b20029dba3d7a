/* SPDX-License-Identifier: GPL-2.0 */
/* Internal to src/check: the probes that fill a check_report, one per item. */
#ifndef FSPROF_CHECK_PROBE_H
#define FSPROF_CHECK_PROBE_H

#include "check/check_item.h"

void check_probe_kernel(struct check_report *rep);
void check_probe_privileges(struct check_report *rep);
void check_probe_tracefs(struct check_report *rep);
void check_probe_mkfs(struct check_report *rep, const char *tool,
		      bool required);
void check_probe_loop(struct check_report *rep);
void check_probe_fuse(struct check_report *rep);

/* the "btf" item, and rep->tp_count from vmlinux and module BTF */
void check_probe_btf(struct check_report *rep);
/* one item per tracepoint family, from rep->tp_count */
void check_probe_tracepoints(struct check_report *rep);

#endif
