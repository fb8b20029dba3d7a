// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/log.h"
#include "workload/syncmode.h"

static const char *const mode_names[SYNC_MODE_NR] = {
	[SYNC_MODE_NONE] = "none",	     [SYNC_MODE_OSYNC] = "osync",
	[SYNC_MODE_ODSYNC] = "odsync",	     [SYNC_MODE_FSYNC] = "fsync",
	[SYNC_MODE_FDATASYNC] = "fdatasync",
};

enum sync_mode sync_mode_of(const struct workload_params *params)
{
	const char *s = param_str(params, "sync");
	unsigned int m;

	for (m = 0; m < SYNC_MODE_NR; m++)
		if (!strcmp(s, mode_names[m]))
			return (enum sync_mode)m;
	return SYNC_MODE_NR;
}

int sync_mode_check(const char *workload, const struct workload_params *params)
{
	if (sync_mode_of(params) < SYNC_MODE_NR)
		return 0;
	log_error(
		"%s: sync=%s is not a sync mode: use none, osync, odsync, fsync or fdatasync",
		workload, param_str(params, "sync"));
	return -EINVAL;
}

int sync_mode_open_flags(enum sync_mode m)
{
	return m == SYNC_MODE_OSYNC  ? O_SYNC :
	       m == SYNC_MODE_ODSYNC ? O_DSYNC :
				       0;
}

int sync_mode_after_write(enum sync_mode m, struct phase_ctx *pc, int fd)
{
	uint64_t t0;
	int rc;

	if (m != SYNC_MODE_FSYNC && m != SYNC_MODE_FDATASYNC)
		return 0;
	t0 = clock_mono_ns();
	rc = m == SYNC_MODE_FSYNC ? fsync(fd) : fdatasync(fd);
	if (rc)
		return -errno;
	op_record(pc, OP_FSYNC, t0);
	return 0;
}
