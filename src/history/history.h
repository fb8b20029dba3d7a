/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run history: every run's manifest, one row per (case, phase, metric)
 * value and the whole results JSON in a SQLite database (schema in
 * docs/history.md), so that any run can be listed, re-rendered and diffed.
 */
#ifndef FSPROF_HISTORY_H
#define FSPROF_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "results/results.h"

/* the schema this fsprof writes; a newer database is refused */
#define HISTORY_SCHEMA_VERSION 3
#define HISTORY_DEFAULT_PATH "/var/lib/fsprof/runs.db"
#define HISTORY_LABEL_MAX 64

/* $FSPROF_DB when set and not empty, else HISTORY_DEFAULT_PATH */
const char *history_default_path(void);

/* a --label: 1-63 printable characters, no space; else err says why */
int history_label_check(const char *label, char *err, size_t errlen);

/*
 * Record run (with its label, or NULL) in the database at db_path, created
 * with its directory (0755) when missing, in one transaction. *id gets the
 * run's id (id may be NULL). Returns 0, or a negative errno with err naming
 * the file and the problem: -EBUSY locked beyond the busy timeout,
 * -ENOTSUP written by a newer fsprof, -EIO not a database or damaged,
 * -EACCES not writable, -ENOMEM.
 */
int history_record(const char *db_path, const struct run_result *run,
		   const char *label, int64_t *id, char *err, size_t errlen);

/*
 * Load a recorded run into out (freed with run_result_free). ref is a run
 * id ("17"), "latest", or "label:NAME" (the latest run with that label).
 * An older schema is brought up to date first when this user may write
 * the file. Returns 0, -ENOENT (no such database or run), -EINVAL (ref is
 * none of these), -ESTALE (an older schema this user may not migrate), or
 * the errors of history_record; err says which.
 */
int history_load(const char *db_path, const char *ref, struct run_result *out,
		 char *err, size_t errlen);

/* is ref written like a run reference ("17", "latest", "label:X")? */
bool history_ref_syntax(const char *ref);

/*
 * What a command line names a run by: an existing file is a results JSON
 * (results_read_json); anything else a run reference loaded from db_path
 * (NULL: history_default_path()). Errors as those two return them.
 */
int history_load_arg(const char *db_path, const char *arg,
		     struct run_result *out, char *err, size_t errlen);

/* which runs fsprof runs lists; NULL fields match everything */
struct history_filter {
	const char *label;
	const char *workload; /* a case ran this workload */
	const char *fs; /* a case's fstype, target name or target label */
};

/* one listed run, with its first case's phases as the headline */
#define HISTORY_HEADLINE_PHASES 6
struct history_row {
	int64_t id;
	int64_t started_ns;
	char label[HISTORY_LABEL_MAX];
	char kernel[128];
	char workloads[256];
	char targets[256];
	bool complete;
	unsigned int n_cases;
	char first_case[96]; /* "fsync/ext4" */
	unsigned int n_phases;
	struct {
		char name[32];
		double wall_s;
	} phase[HISTORY_HEADLINE_PHASES];
};

struct history_rows {
	unsigned int n;
	struct history_row *v; /* oldest first */
};

/*
 * The runs matching filter, oldest first (freed with history_rows_free).
 * Returns 0 or the errors of history_load.
 */
int history_list(const char *db_path, const struct history_filter *filter,
		 struct history_rows *rows, char *err, size_t errlen);

void history_rows_free(struct history_rows *rows);

/*
 * rows as fsprof runs --format json prints them: an array of objects, one a
 * run, oldest first, with the text listing's fields uncut (docs/history.md);
 * NULL when out of memory
 */
json_t *history_rows_json(const struct history_rows *rows);

#endif
