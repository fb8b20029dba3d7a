// SPDX-License-Identifier: GPL-2.0
/* The runs fsprof runs lists, with the first matching case's phase times. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "history/history.h"
#include "history/history_int.h"

/* ?1 label, ?2 workload, ?3 filesystem; NULL matches everything */
#define CASE_MATCHES                                         \
	"(?2 IS NULL OR c.workload = ?2) AND (?3 IS NULL OR" \
	" c.fstype = ?3 OR c.target_name = ?3 OR c.target_label = ?3)"

static const char runs_sql[] =
	"SELECT r.id, r.started_ns, r.label, r.kernel, r.workloads,"
	" r.targets, r.complete, r.n_cases FROM runs r"
	" WHERE (?1 IS NULL OR r.label = ?1) AND EXISTS (SELECT 1 FROM cases c"
	" WHERE c.run_id = r.id AND " CASE_MATCHES ") ORDER BY r.id";

/* the first case of run ?4 that matches, and its phases' wall times */
static const char headline_sql[] =
	"SELECT c.workload, c.target_name, m.phase, m.value FROM cases c"
	" LEFT JOIN metrics m ON m.run_id = c.run_id AND m.case_no = c.case_no"
	" AND m.metric = 'wall_ns' WHERE c.run_id = ?4 AND c.case_no ="
	" (SELECT min(c.case_no) FROM cases c WHERE c.run_id = ?4 AND " CASE_MATCHES
	") ORDER BY m.phase_no";

static void bind_filter(sqlite3_stmt *st, const struct history_filter *f)
{
	if (f->label)
		sqlite3_bind_text(st, 1, f->label, -1, SQLITE_STATIC);
	if (f->workload)
		sqlite3_bind_text(st, 2, f->workload, -1, SQLITE_STATIC);
	if (f->fs)
		sqlite3_bind_text(st, 3, f->fs, -1, SQLITE_STATIC);
}

static void column_copy(sqlite3_stmt *st, int col, char *out, size_t len)
{
	const unsigned char *text = sqlite3_column_text(st, col);

	snprintf(out, len, "%s", text ? (const char *)text : "");
}

static int row_headline(sqlite3_stmt *st, struct history_row *row)
{
	int rc;

	sqlite3_reset(st);
	sqlite3_bind_int64(st, 4, row->id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (!row->first_case[0])
			snprintf(row->first_case, sizeof(row->first_case),
				 "%s/%s", sqlite3_column_text(st, 0),
				 sqlite3_column_text(st, 1));
		if (sqlite3_column_type(st, 2) == SQLITE_NULL ||
		    row->n_phases == HISTORY_HEADLINE_PHASES)
			continue;
		column_copy(st, 2, row->phase[row->n_phases].name,
			    sizeof(row->phase[0].name));
		row->phase[row->n_phases++].wall_s =
			sqlite3_column_double(st, 3) / 1e9;
	}
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static int rows_add(struct history_rows *rows, sqlite3_stmt *st)
{
	struct history_row *row, *v;

	v = realloc(rows->v, (rows->n + 1) * sizeof(*v));
	if (!v)
		return SQLITE_NOMEM;
	rows->v = v;
	row = memset(&v[rows->n++], 0, sizeof(*row));
	row->id = sqlite3_column_int64(st, 0);
	row->started_ns = sqlite3_column_int64(st, 1);
	column_copy(st, 2, row->label, sizeof(row->label));
	column_copy(st, 3, row->kernel, sizeof(row->kernel));
	column_copy(st, 4, row->workloads, sizeof(row->workloads));
	column_copy(st, 5, row->targets, sizeof(row->targets));
	row->complete = sqlite3_column_int(st, 6);
	row->n_cases = (unsigned int)sqlite3_column_int(st, 7);
	return SQLITE_OK;
}

static int list_from(sqlite3 *db, const struct history_filter *filter,
		     struct history_rows *rows)
{
	sqlite3_stmt *runs = NULL, *headline = NULL;
	int rc = sqlite3_prepare_v2(db, runs_sql, -1, &runs, NULL);

	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(db, headline_sql, -1, &headline, NULL);
	if (rc == SQLITE_OK) {
		bind_filter(runs, filter);
		bind_filter(headline, filter);
	}
	while (rc == SQLITE_OK && (rc = sqlite3_step(runs)) == SQLITE_ROW) {
		rc = rows_add(rows, runs);
		if (rc == SQLITE_OK)
			rc = row_headline(headline, &rows->v[rows->n - 1]);
	}
	sqlite3_finalize(runs);
	sqlite3_finalize(headline);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int history_list(const char *db_path, const struct history_filter *filter,
		 struct history_rows *rows, char *err, size_t errlen)
{
	sqlite3 *db;
	int code, rc;

	memset(rows, 0, sizeof(*rows));
	code = hdb_open_read(db_path, &db, err, errlen);
	if (!code) {
		rc = list_from(db, filter, rows);
		if (rc != SQLITE_OK)
			code = hdb_fail(db, rc, db_path, "cannot list the runs",
					err, errlen);
	}
	sqlite3_close(db);
	if (code)
		history_rows_free(rows);
	return code;
}

void history_rows_free(struct history_rows *rows)
{
	free(rows->v);
	rows->v = NULL;
	rows->n = 0;
}

/* "2026-12-02T14:27:59Z" */
static json_t *started_utc(int64_t started_ns)
{
	time_t t = (time_t)(started_ns / 1000000000LL);
	char when[32];
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return json_string(when);
}

static json_t *row_phases_json(const struct history_row *row)
{
	json_t *phases = json_array();
	unsigned int i;

	for (i = 0; phases && i < row->n_phases; i++)
		json_array_append_new(phases,
				      json_pack("{s:s, s:f}", "name",
						row->phase[i].name, "wall_s",
						row->phase[i].wall_s));
	return phases;
}

static json_t *row_json(const struct history_row *row)
{
	return json_pack(
		"{s:I, s:b, s:I, s:o, s:o, s:s, s:s, s:s, s:i, s:s, s:o}", "id",
		(json_int_t)row->id, "complete", row->complete, "started_ns",
		(json_int_t)row->started_ns, "started",
		started_utc(row->started_ns), "label",
		row->label[0] ? json_string(row->label) : json_null(),
		"kernel", row->kernel, "workloads", row->workloads, "targets",
		row->targets, "cases", (int)row->n_cases, "first_case",
		row->first_case, "phases", row_phases_json(row));
}

json_t *history_rows_json(const struct history_rows *rows)
{
	json_t *all = json_array();
	unsigned int i;

	for (i = 0; all && i < rows->n; i++) {
		json_t *row = row_json(&rows->v[i]);

		if (!row || json_array_append_new(all, row)) {
			json_decref(all);
			return NULL;
		}
	}
	return all;
}
