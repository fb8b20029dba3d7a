/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The report files `fsprof run` writes besides its text (--json, --csv,
 * --html, --trace): checked before the run starts, so that a run is never
 * wasted on a path it cannot write, and written atomically at the end (a
 * temporary file renamed into place: a file that exists is complete).
 */
#ifndef FSPROF_REPORT_OUTFILE_H
#define FSPROF_REPORT_OUTFILE_H

#include "results/results.h"

/*
 * Can path be written? Its directory must exist and be writable, and path
 * must not be a directory. Says why not as "--OPTION PATH: ..." and
 * returns -errno.
 */
int outfile_check(const char *option, const char *path);

/* write run in format (csv, html, trace) to path; 0 or -errno, said */
int outfile_write(const struct run_result *run, const char *format,
		  const char *path);

#endif
