/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsprof's helper threads (ring readers, the progress ticker, start-up
 * work done beside the main thread) take no signal: every signal is the
 * main thread's, whose SIGINT interrupts the workload (run/signals.c).
 */
#ifndef FSPROF_QUIET_THREAD_H
#define FSPROF_QUIET_THREAD_H

#include <pthread.h>

/*
 * Start fn(arg) on a thread with every signal blocked, named name (top,
 * scripts/bench/self-threads.sh): 0, or the positive error pthread_create
 * gave (then no thread runs, and the caller does the work itself or goes
 * without)
 */
int quiet_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg,
		       const char *name);

#endif
