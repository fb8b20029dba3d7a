/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What dead runs left behind: the state files (util/runstate.h) in a scratch
 * directory whose process is gone. `fsprof cleanup` undoes what each records
 * and can prove is its own, newest first:
 * - a throttle rule on the run's lower loop, only while that loop is still
 *   backed by the run's image (a loop number is reused); on the traced disk
 *   of --dir/--device (disk-throttle), on the disk recorded;
 * - a mount on a directory below the recorded scratch directory;
 * - a loop device whose backing file is the run's image (the lower loop of
 *   the device model), or the run's lower loop (the traced loop above it);
 * - the image, mount points and run directories below the scratch
 *   directory, and --dir's work directory (fsprof.XXXXXX).
 * A run still alive (same pid, same start time, same boot) is left alone.
 */
#ifndef FSPROF_LEFTOVERS_H
#define FSPROF_LEFTOVERS_H

#include <stdbool.h>

#include "util/runstate.h"
#include "util/teardown.h"

/*
 * A run begins: warn about dead runs' leftovers in scratch, then create the
 * run's own state file there and record into it through td. Returns 0 or
 * -errno (logged).
 */
int leftovers_begin(struct runstate *rs, struct teardown *td,
		    const char *scratch);

/*
 * The run ends: its state file goes when every teardown step succeeded,
 * and stays for `fsprof cleanup` otherwise (said).
 */
void leftovers_end(struct runstate *rs, struct teardown *td,
		   const char *scratch);

/*
 * Warn about every dead run in scratch that left something, naming the
 * command that removes it. Returns the number of such runs.
 */
int leftovers_warn(const char *scratch);

/*
 * Remove what dead runs in scratch left (dry_run: only say what). Returns
 * the number of things that could not be removed, or -errno when scratch
 * cannot be read.
 */
int leftovers_cleanup(const char *scratch, bool dry_run);

#endif
