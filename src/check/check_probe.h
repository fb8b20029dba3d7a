/* SPDX-License-Identifier: GPL-2.0 */
/* Internal to src/check: the probes that fill a check_report, one per item. */
#ifndef FSPROF_CHECK_PROBE_H
#define FSPROF_CHECK_PROBE_H

#include <stddef.h>

#include "check/check_item.h"

void check_probe_kernel(struct check_report *rep);
void check_probe_privileges(struct check_report *rep);
void check_probe_tracefs(struct check_report *rep);
void check_probe_mkfs(struct check_report *rep, const char *tool,
		      bool required);
void check_probe_loop(struct check_report *rep);
/* the tools of a run's options, each missing one with its install command */
void check_probe_tools(struct check_report *rep);
/*
 * the command that installs tool (one of check_probe_tools') on the
 * distribution os_release describes; 0, or -ENOENT for another tool
 */
int check_install_command(const char *os_release, const char *tool, char *buf,
			  size_t len);
/* room and direct IO in the scratch directory (NULL: the default) */
void check_probe_scratch(struct check_report *rep, const char *scratch);
void check_probe_fuse(struct check_report *rep);

/* the "btf" item, and rep->tp_count from vmlinux and module BTF */
void check_probe_btf(struct check_report *rep);
/* one item per tracepoint family, from rep->tp_count */
void check_probe_tracepoints(struct check_report *rep);

#endif
