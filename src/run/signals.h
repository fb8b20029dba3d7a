/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SIGINT, SIGTERM and SIGHUP only set a flag; the workload stops at its next
 * operation and the teardown runs as after any other error.
 */
#ifndef FSPROF_SIGNALS_H
#define FSPROF_SIGNALS_H

#include <signal.h>

/* install the handlers; *flag receives the signal number */
int signals_install(volatile sig_atomic_t *flag);

#endif
