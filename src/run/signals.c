// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>

#include "run/signals.h"

static volatile sig_atomic_t *stop_flag;

static void on_stop_signal(int sig)
{
	if (stop_flag && !*stop_flag)
		*stop_flag = sig;
}

int signals_install(volatile sig_atomic_t *flag)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;
	unsigned int i;

	stop_flag = flag;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: a blocking wait returns EINTR and sees the flag */
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (sigaction(sigs[i], &sa, NULL))
			return -errno;
	return 0;
}
