/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SIGINT, SIGTERM, SIGHUP and SIGPIPE only set a flag; the workload stops at
 * its next operation and the teardown runs as after any other error. SIGPIPE
 * is one of them: `fsprof run -v ... 2>&1 | head` closes fsprof's output
 * mid-run, and its default action left the mount and loop device behind.
 */
#ifndef FSPROF_SIGNALS_H
#define FSPROF_SIGNALS_H

#include <signal.h>

/* install the handlers; *flag receives the signal number */
int signals_install(volatile sig_atomic_t *flag);

/*
 * The handlers from a command's start, before its preflight has a flag to
 * give them: a signal then is kept (signals_pending), and goes to the flag
 * signals_install is given. A preflight makes and removes probe files
 * (outfile_check): the default action could kill it in between.
 */
int signals_early(void);

/* the signal that asked the run to stop, 0 if none came */
int signals_pending(void);

#endif
