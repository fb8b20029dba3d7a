// SPDX-License-Identifier: GPL-2.0
#include <time.h>

#include "util/clock.h"

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

uint64_t clock_mono_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

uint64_t clock_real_ns(void)
{
	return clock_ns(CLOCK_REALTIME);
}
