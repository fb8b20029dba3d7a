/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The check report's model: items with a status and a detail, and the
 * tracepoint families counted from BTF. The probes fill it, the printers
 * print it; neither knows the other.
 */
#ifndef FSPROF_CHECK_ITEM_H
#define FSPROF_CHECK_ITEM_H

#include <stdbool.h>

enum check_status {
	CHECK_OK, /* present */
	CHECK_WARN, /* absent or degraded, but a run can go on without it */
	CHECK_MISSING, /* absent; blocks a run when the item is required */
};

#define CHECK_DETAIL_LEN 256
#define CHECK_ITEMS_MAX 32

struct check_item {
	const char *name; /* static string: "btf", "mkfs.ext4", ... */
	enum check_status status;
	char detail[CHECK_DETAIL_LEN];
	bool required; /* a run is impossible unless status is CHECK_OK */
	/* when not ok: the command that installs it, or what to do; "" */
	char fix[CHECK_DETAIL_LEN];
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

/* true when every required item is CHECK_OK */
bool check_run_possible(const struct check_report *rep);

/* "ext4", "jbd2", "xfs", "block", "writeback" */
const char *check_tp_family_name(enum check_tp_family family);

/* "ok", "warn", "missing" */
const char *check_status_name(enum check_status status);

/* Append an item; NULL when rep->items is full (then the probe is skipped). */
struct check_item *check_add_item(struct check_report *rep, const char *name,
				  bool required);

void check_item_set(struct check_item *item, enum check_status status,
		    const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
