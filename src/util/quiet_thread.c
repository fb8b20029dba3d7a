// SPDX-License-Identifier: GPL-2.0
/* Helper threads that take no signal: see quiet_thread.h. */
#include <signal.h>

#include "util/quiet_thread.h"

int quiet_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg,
		       const char *name)
{
	sigset_t all, old;
	int err;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(thread, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!err)
		pthread_setname_np(*thread, name);
	return err;
}
