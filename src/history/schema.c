// SPDX-License-Identifier: GPL-2.0
/*
 * The history's schema: PRAGMA user_version is its version, each migration
 * takes it one version up and is logged in schema_history (docs/history.md).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "history/history.h"
#include "history/history_int.h"
#include "version.h"

/* migrations[v] takes a database from version v to v + 1 */
static const char *const migrations[HISTORY_SCHEMA_VERSION] = {
	/* 0 -> 1: runs, their cases, one row per case, phase and metric */
	"CREATE TABLE schema_history ("
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
	"  results_json_bytes INTEGER NOT NULL,"
	"  results_json_z BLOB NOT NULL);"
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
	"    ON DELETE CASCADE) WITHOUT ROWID;",
};

/* one integer a query answers, e.g. PRAGMA user_version */
static int hdb_query_int(sqlite3 *db, const char *path, const char *sql,
			 int *out, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);

	if (rc == SQLITE_OK) {
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW) {
			*out = sqlite3_column_int(st, 0);
			rc = SQLITE_OK;
		}
	}
	sqlite3_finalize(st);
	return rc == SQLITE_OK ?
		       0 :
		       hdb_fail(db, rc, path, "cannot read the schema version",
				err, errlen);
}

/* the version, checked: not newer than ours, not a foreign database */
static int hdb_version_check(sqlite3 *db, const char *path, int *version,
			     char *err, size_t errlen)
{
	int code = hdb_query_int(db, path, "PRAGMA user_version", version, err,
				 errlen);
	int tables = 0;

	if (code)
		return code;
	if (*version > HISTORY_SCHEMA_VERSION) {
		snprintf(
			err, errlen,
			"%s: run history of schema version %d, newer than this fsprof's %d (fsprof %s): use a newer fsprof with it, or move the file away",
			path, *version, HISTORY_SCHEMA_VERSION, FSPROF_VERSION);
		return -ENOTSUP;
	}
	if (*version > 0)
		return 0;
	/* a version-0 database with tables in it is someone else's */
	code = hdb_query_int(db, path, "SELECT count(*) FROM sqlite_master",
			     &tables, err, errlen);
	if (code)
		return code;
	if (tables) {
		snprintf(
			err, errlen,
			"%s: a SQLite database, but not an fsprof run history (it has tables and no schema version): name another file with --db",
			path);
		return -EIO;
	}
	return 0;
}

/* a migration's row in schema_history, and the version it reached */
static int hdb_migration_log(sqlite3 *db, const char *path, int version,
			     char *err, size_t errlen)
{
	struct timespec now;
	char *sql;
	int code;

	clock_gettime(CLOCK_REALTIME, &now);
	sql = sqlite3_mprintf(
		"INSERT INTO schema_history VALUES (%d, %lld, %Q);"
		"PRAGMA user_version = %d",
		version, (long long)now.tv_sec * 1000000000LL + now.tv_nsec,
		FSPROF_VERSION, version);
	if (!sql) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	code = hdb_exec(db, sql, path, "cannot record the schema migration",
			err, errlen);
	sqlite3_free(sql);
	return code;
}

int hdb_schema_migrate(sqlite3 *db, const char *path, char *err, size_t errlen)
{
	int version, code = hdb_version_check(db, path, &version, err, errlen);

	for (; !code && version < HISTORY_SCHEMA_VERSION; version++) {
		code = hdb_exec(db, migrations[version], path,
				"cannot bring the schema up to date", err,
				errlen);
		if (!code)
			code = hdb_migration_log(db, path, version + 1, err,
						 errlen);
	}
	return code;
}

int hdb_schema_check(sqlite3 *db, const char *path, char *err, size_t errlen)
{
	int version, code = hdb_version_check(db, path, &version, err, errlen);

	if (code)
		return code;
	if (!version) {
		snprintf(
			err, errlen,
			"%s: holds no fsprof run history yet (fsprof run records every run in it)",
			path);
		return -ENOENT;
	}
	/* every version up to ours reads alike: migrations only add to it */
	return 0;
}
