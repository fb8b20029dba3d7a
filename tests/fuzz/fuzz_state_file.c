// SPDX-License-Identifier: GPL-2.0
/*
 * The run state files fsprof cleanup reads (target/leftovers.c): any file
 * named fsprof-PID.state in a scratch directory is read, refused or acted
 * on without a crash. Runs with --dry-run, so that whatever a record names
 * is only ever said, never removed.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "target/leftovers.h"
#include "util/log.h"

static char dir[] = "/tmp/fsprof-fuzz-state.XXXXXX";
static char path[sizeof(dir) + 32];

static void state_dir_remove(void)
{
	unlink(path);
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (!mkdtemp(dir))
		abort();
	atexit(state_dir_remove);
	snprintf(path, sizeof(path), "%s/fsprof-1.state", dir);
	/* "would remove ..." lines and warnings are not what is tested */
	if (!freopen("/dev/null", "w", stdout))
		abort();
	log_set_level(LOG_QUIET);
	return 0;
}

/* the input, with every "@D" the fuzzing directory (its records must be
 * below it to be looked at) */
static void state_write(int fd, const uint8_t *data, size_t size)
{
	size_t i, from = 0;

	for (i = 0; i + 1 < size; i++) {
		if (data[i] != '@' || data[i + 1] != 'D')
			continue;
		if (write(fd, data + from, i - from) < 0 ||
		    write(fd, dir, strlen(dir)) < 0)
			abort();
		from = i + 2;
	}
	if (write(fd, data + from, size - from) < 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0)
		abort();
	state_write(fd, data, size);
	close(fd);
	FUZZ_ASSERT(leftovers_cleanup(dir, true) >= 0);
	return 0;
}
