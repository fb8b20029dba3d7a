// SPDX-License-Identifier: GPL-2.0
/*
 * The history's migrations, one per schema version: what each changes
 * (docs/history.md lists them). A new version adds an entry here and bumps
 * HISTORY_SCHEMA_VERSION; schema.c applies them.
 */
#include <stdlib.h>

#include "history/history.h"
#include "history/history_int.h"

/* 1 -> 2: the results JSON compressed (v1 stored it as text) */
static const char v2_add[] =
	"ALTER TABLE runs ADD COLUMN results_json_bytes INTEGER NOT NULL"
	"  DEFAULT 0;"
	"ALTER TABLE runs ADD COLUMN results_json_z BLOB NOT NULL DEFAULT x'';";

static int v2_compress_rows(sqlite3 *db, const char *path, char *err,
			    size_t errlen);

static const char v2_drop[] = "ALTER TABLE runs DROP COLUMN results_json;";

/* 2 -> 3: each case's --age ("" when not aged), a setup field to query by */
static const char v3_add[] =
	"ALTER TABLE cases ADD COLUMN age TEXT NOT NULL DEFAULT '';";

/* migrations[v] takes a database from version v to v + 1 */
static const struct migration migrations[HISTORY_SCHEMA_VERSION] = {
	/* 0 -> 1: runs, their cases, one row per case, phase and metric */
	{ .sql = "CREATE TABLE schema_history ("
		 "  version INTEGER PRIMARY KEY,"
		 "  applied_ns INTEGER NOT NULL,"
		 "  fsprof_version TEXT NOT NULL);"
		 "CREATE TABLE runs ("
		 "  id INTEGER PRIMARY KEY AUTOINCREMENT,"
		 "  started_ns INTEGER NOT NULL,"
		 "  recorded_ns INTEGER NOT NULL,"
		 "  label TEXT,"
		 "  kernel TEXT NOT NULL,"
		 "  fsprof_version TEXT NOT NULL,"
		 "  complete INTEGER NOT NULL,"
		 "  interrupted INTEGER NOT NULL,"
		 "  workloads TEXT NOT NULL,"
		 "  targets TEXT NOT NULL,"
		 "  n_cases INTEGER NOT NULL,"
		 "  results_schema INTEGER NOT NULL,"
		 "  results_json TEXT NOT NULL);"
		 "CREATE INDEX runs_by_label ON runs (label, id);"
		 "CREATE TABLE cases ("
		 "  run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,"
		 "  case_no INTEGER NOT NULL,"
		 "  workload TEXT NOT NULL,"
		 "  params TEXT NOT NULL,"
		 "  target_label TEXT NOT NULL,"
		 "  target_name TEXT NOT NULL,"
		 "  target_kind TEXT NOT NULL,"
		 "  fstype TEXT NOT NULL,"
		 "  mkfs_cmd TEXT NOT NULL,"
		 "  mount_opts TEXT NOT NULL,"
		 "  device_model TEXT NOT NULL,"
		 "  image_size INTEGER NOT NULL,"
		 "  repeat INTEGER NOT NULL,"
		 "  complete INTEGER NOT NULL,"
		 "  PRIMARY KEY (run_id, case_no));"
		 "CREATE INDEX cases_by_workload ON cases (workload);"
		 "CREATE TABLE metrics ("
		 "  run_id INTEGER NOT NULL,"
		 "  case_no INTEGER NOT NULL,"
		 "  phase_no INTEGER NOT NULL,"
		 "  phase TEXT NOT NULL,"
		 "  metric TEXT NOT NULL,"
		 "  value NOT NULL,"
		 "  PRIMARY KEY (run_id, case_no, phase_no, metric),"
		 "  FOREIGN KEY (run_id, case_no) REFERENCES cases (run_id, case_no)"
		 "    ON DELETE CASCADE) WITHOUT ROWID;" },
	{ .sql = v2_add, .code = v2_compress_rows, .sql_after = v2_drop },
	{ .sql = v3_add },
};

/* every v1 row's results_json into results_json_z */
static int v2_compress_rows(sqlite3 *db, const char *path, char *err,
			    size_t errlen)
{
	sqlite3_stmt *rows = NULL, *set = NULL;
	struct packed_json z;
	int rc, code = 0;

	rc = sqlite3_prepare_v2(db, "SELECT id, results_json FROM runs", -1,
				&rows, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(
			db,
			"UPDATE runs SET results_json_bytes = ?,"
			" results_json_z = ? WHERE id = ?",
			-1, &set, NULL);
	while (rc == SQLITE_OK && (rc = sqlite3_step(rows)) == SQLITE_ROW) {
		if (stored_json_pack((const char *)sqlite3_column_text(rows, 1),
				     (size_t)sqlite3_column_bytes(rows, 1),
				     &z)) {
			rc = SQLITE_NOMEM;
			break;
		}
		sqlite3_reset(set);
		sqlite3_bind_int64(set, 1, (int64_t)z.len);
		sqlite3_bind_blob64(set, 2, z.z, z.z_len, free);
		sqlite3_bind_int64(set, 3, sqlite3_column_int64(rows, 0));
		rc = sqlite3_step(set);
		rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
	}
	if (rc != SQLITE_DONE)
		code = hdb_fail(db, rc, path, "cannot compress the stored runs",
				err, errlen);
	sqlite3_finalize(rows);
	sqlite3_finalize(set);
	return code;
}

const struct migration *history_migration(int version)
{
	return version >= 0 && version < HISTORY_SCHEMA_VERSION ?
		       &migrations[version] :
		       NULL;
}
