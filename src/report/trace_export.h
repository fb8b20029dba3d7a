/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run as a Chrome trace-event file (JSON, gzip-compressed), which
 * Perfetto's UI, trace_processor and chrome://tracing open: a process per
 * case; phases and journal commits are slices, log forces, writeback passes
 * and slow IOs instant events on their own tracks, bytes per IO class
 * counter tracks.
 */
#ifndef FSPROF_REPORT_TRACE_EXPORT_H
#define FSPROF_REPORT_TRACE_EXPORT_H

#include <jansson.h>
#include <stdio.h>

#include "results/results.h"

/* the track (thread) ids inside a case's process */
enum trace_track {
	TRACE_TRACK_PHASES = 1,
	TRACE_TRACK_COMMITS = 2, /* 2, 3, ...: a lane per overlap depth */
	TRACE_TRACK_LOG_FORCES = 10,
	TRACE_TRACK_WRITEBACK = 11,
	TRACE_TRACK_SLOW_IO = 12,
};

json_t *trace_export_json(const struct run_result *run);

/*
 * Write the trace to path, gzip-compressed, atomically (a temporary file
 * renamed into place). Returns 0 or -errno after saying what failed.
 */
int trace_export_write(const struct run_result *run, const char *path);

/* the same, gzip-compressed, to out (fsprof report --format trace) */
int trace_export_stream(const struct run_result *run, FILE *out);

#endif
