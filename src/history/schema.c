// SPDX-License-Identifier: GPL-2.0
/*
 * The history's schema: PRAGMA user_version is its version, each migration
 * takes it one version up and is logged in schema_history (docs/history.md).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "history/history.h"
#include "history/history_int.h"
#include "version.h"

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
		const struct migration *m = history_migration(version);

		code = hdb_exec(db, m->sql, path,
				"cannot bring the schema up to date", err,
				errlen);
		if (!code && m->code)
			code = m->code(db, path, err, errlen);
		if (!code && m->sql_after)
			code = hdb_exec(db, m->sql_after, path,
					"cannot bring the schema up to date",
					err, errlen);
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
	if (version < HISTORY_SCHEMA_VERSION) {
		snprintf(
			err, errlen,
			"%s: run history of schema version %d, older than this fsprof's %d: the next fsprof run recording in it (as a user who may write it) brings it up to date",
			path, version, HISTORY_SCHEMA_VERSION);
		return -ESTALE;
	}
	return 0;
}

/* bring an older database up to date, in one transaction */
static int hdb_migrate_file(const char *path, char *err, size_t errlen)
{
	sqlite3 *db;
	int code = hdb_open(path, true, &db, err, errlen);

	if (!code)
		code = hdb_exec(db, "BEGIN IMMEDIATE", path,
				"cannot bring the schema up to date", err,
				errlen);
	if (!code) {
		code = hdb_schema_migrate(db, path, err, errlen);
		if (!code)
			code = hdb_exec(db, "COMMIT", path,
					"cannot bring the schema up to date",
					err, errlen);
		if (code)
			sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	}
	sqlite3_close(db);
	return code;
}

int hdb_open_read(const char *path, sqlite3 **db, char *err, size_t errlen)
{
	int code = hdb_open(path, false, db, err, errlen);
	char wal[PATH_MAX + 8];

	if (!code)
		code = hdb_schema_check(*db, path, err, errlen);
	/*
	 * A WAL database without its -wal and -shm files (the sqlite3 shell,
	 * closing last, removes them), in a directory this user may not
	 * write: SQLite cannot make them, so read it as an immutable file.
	 * With no -wal file every commit is in the database file; only a
	 * writer starting meanwhile could change it under the reader.
	 */
	snprintf(wal, sizeof(wal), "%s-wal", path);
	if (code == -EACCES && access(path, W_OK) && access(wal, F_OK)) {
		sqlite3_close(*db);
		code = hdb_open_immutable(path, db, err, errlen);
		if (!code)
			code = hdb_schema_check(*db, path, err, errlen);
	}
	if (code == -ESTALE && !access(path, W_OK)) {
		sqlite3_close(*db);
		*db = NULL;
		code = hdb_migrate_file(path, err, errlen);
		if (!code)
			code = hdb_open(path, false, db, err, errlen);
		if (!code)
			code = hdb_schema_check(*db, path, err, errlen);
	}
	if (code) {
		sqlite3_close(*db);
		*db = NULL;
	}
	return code;
}
