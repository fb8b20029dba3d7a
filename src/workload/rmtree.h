/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rm -rf, as a phase body does it: read a whole directory, unlink its
 * entries (descending into subdirectories first), then rmdir it. Every call
 * is timed into the phase's op histograms and counted as work.
 */
#ifndef FSPROF_RMTREE_H
#define FSPROF_RMTREE_H

#include <signal.h>
#include <stdint.h>

#include "workload/workload.h"

struct rmtree_result {
	uint64_t files; /* non-directories unlinked */
	uint64_t dirs; /* directories removed, the top one included */
	uint64_t left; /* entries a re-read of the top directory found
			* after its contents were removed (before its rmdir) */
};

/*
 * Remove name (a directory in env->dir, open as dirfd) and everything in it.
 * label prefixes error messages ("files1m"). The progress line, when there is
 * one, counts removed files against the caller's progress_total().
 */
int rmtree_at(const struct workload_env *env, struct phase_ctx *pc, int dirfd,
	      const char *name, const char *label, struct rmtree_result *out);

/*
 * A whole remove phase: rm -rf of subdir in env->dir, then syncfs, both
 * timed; "<label>.files_removed" and "<label>.files_left" are recorded, and
 * the progress line counts against the "files" parameter.
 */
int rmtree_phase(const struct workload_env *env, struct phase_ctx *pc,
		 const char *subdir, const char *label);

#endif
