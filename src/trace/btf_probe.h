/* SPDX-License-Identifier: GPL-2.0 */
/* Feature probing of tracepoints from BTF, never from version numbers. */
#ifndef FSPROF_BTF_PROBE_H
#define FSPROF_BTF_PROBE_H

struct btf;

/*
 * Number of arguments the tracepoint passes (its btf_trace_<event> typedef,
 * minus the leading context pointer), or -ENOENT when the kernel has no such
 * tracepoint.
 */
int btf_tracepoint_nargs(const struct btf *btf, const char *event);

#endif
