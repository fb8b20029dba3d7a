/* SPDX-License-Identifier: GPL-2.0 */
/* Whether this process may load and attach fsprof's tracing programs. */
#ifndef FSPROF_PRIVILEGES_H
#define FSPROF_PRIVILEGES_H

#include <stddef.h>

/*
 * Returns 1 when the effective capability set holds CAP_BPF, CAP_PERFMON and
 * CAP_SYS_ADMIN (on kernels older than CAP_BPF/CAP_PERFMON, CAP_SYS_ADMIN
 * alone), which is what root normally has; why then says what grants it.
 * Returns 0 otherwise, with why naming what is missing, e.g. "needs root, or
 * CAP_BPF + CAP_PERFMON + CAP_SYS_ADMIN (missing: CAP_BPF, CAP_PERFMON)".
 * The capability set decides, not the uid: root whose capabilities were
 * dropped (a container, capsh) cannot load BPF programs either.
 */
int privileges_ok(char *why, size_t len);

#endif
