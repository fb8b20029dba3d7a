// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>

#include "run/signals.h"

static volatile sig_atomic_t *stop_flag;
/* a signal that came before the run's flag was given (its preflight) */
static volatile sig_atomic_t early_stop;

static void on_stop_signal(int sig)
{
	volatile sig_atomic_t *f = stop_flag ? stop_flag : &early_stop;

	if (!*f)
		*f = sig;
}

static int handlers_install(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
	struct sigaction sa;
	unsigned int i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: a blocking wait returns EINTR and sees the flag */
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (sigaction(sigs[i], &sa, NULL))
			return -errno;
	return 0;
}

int signals_early(void)
{
	stop_flag = NULL;
	return handlers_install();
}

int signals_pending(void)
{
	return stop_flag ? *stop_flag : early_stop;
}

int signals_install(volatile sig_atomic_t *flag)
{
	if (early_stop && !*flag)
		*flag = early_stop;
	stop_flag = flag;
	return handlers_install();
}
