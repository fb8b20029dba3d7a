/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsprof check: can a run happen on this machine, and what will it see?
 * Collect the report once, then print it as a table or as JSON.
 */
#ifndef FSPROF_CHECK_H
#define FSPROF_CHECK_H

#include <stdbool.h>
#include <stdio.h>

/* exit code of `fsprof check` (and of a run) when the environment cannot run */
#define CHECK_EXIT_CANNOT_RUN 3

enum check_status {
	CHECK_OK, /* present */
	CHECK_WARN, /* absent or degraded, but a run can go on without it */
	CHECK_MISSING, /* absent; blocks a run when the item is required */
};

#define CHECK_DETAIL_LEN 256
#define CHECK_ITEMS_MAX 16

struct check_item {
	const char *name; /* static string: "btf", "mkfs.ext4", ... */
	enum check_status status;
	char detail[CHECK_DETAIL_LEN];
	bool required; /* a run is impossible unless status is CHECK_OK */
};

/* tracepoint families counted from the btf_trace_<family>_* typedefs */
enum check_tp_family {
	CHECK_TP_EXT4,
	CHECK_TP_JBD2,
	CHECK_TP_XFS, /* xfs_* and xlog_* */
	CHECK_TP_BLOCK,
	CHECK_TP_WRITEBACK,
	CHECK_TP_NR,
};

struct check_report {
	char kernel[65]; /* uname release */
	struct check_item items[CHECK_ITEMS_MAX];
	int nr_items;
	int tp_count[CHECK_TP_NR]; /* -1 when BTF could not be read */
};

/* Probe the machine and fill rep; returns 0 (every probe failure is an item). */
int check_collect(struct check_report *rep);

/* true when every required item is CHECK_OK */
bool check_run_possible(const struct check_report *rep);

/* "ext4", "jbd2", "xfs", "block", "writeback" */
const char *check_tp_family_name(enum check_tp_family family);

/* "ok", "warn", "missing" */
const char *check_status_name(enum check_status status);

/* Aligned table of item, status and detail, then the verdict line. */
void check_print_text(const struct check_report *rep, FILE *out);

/* The report as JSON; returns 0, or -ENOMEM / -EIO when it could not be written. */
int check_print_json(const struct check_report *rep, FILE *out);

/*
 * `fsprof check [--json]`: collect, print to stdout, and return the exit
 * code: 0 when a run is possible, CHECK_EXIT_CANNOT_RUN (3) when not (the
 * reasons also go to stderr in text mode), 1 when the report could not be
 * written.
 */
int check_command(int json);

#endif
