// SPDX-License-Identifier: GPL-2.0
/* Opening the history database, and what its errors mean to the user. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "history/history.h"
#include "history/history_int.h"
#include "util/log.h"
#include "util/parse.h"
#include "version.h"

const char *history_default_path(void)
{
	const char *env = getenv("FSPROF_DB");

	return env && *env ? env : HISTORY_DEFAULT_PATH;
}

int history_busy_ms(void)
{
	const char *env = getenv("FSPROF_DB_BUSY_TIMEOUT");
	static bool warned;
	uint64_t ns;
	char err[128];

	if (!env || !*env)
		return HISTORY_BUSY_MS;
	if (parse_duration(env, &ns, err, sizeof(err)) || ns < 1000000 ||
	    ns / 1000000 > HISTORY_BUSY_MAX_MS) {
		if (!warned)
			log_warn(
				"FSPROF_DB_BUSY_TIMEOUT=%s is not a duration from 1ms to 1h; the run history waits %d ms for a lock",
				env, HISTORY_BUSY_MS);
		warned = true;
		return HISTORY_BUSY_MS;
	}
	return (int)(ns / 1000000);
}

/* the errno of a SQLite result code, and the advice that goes with it */
static int hdb_errno(int rc, const char **advice)
{
	switch (rc & 0xff) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		*advice =
			"another process holds it locked; try again when it is done";
		return -EBUSY;
	case SQLITE_NOTADB:
	case SQLITE_CORRUPT:
	case SQLITE_FORMAT:
		*advice =
			"it is damaged or not a run history: move it away and fsprof starts a new one";
		return -EIO;
	case SQLITE_READONLY:
	case SQLITE_PERM:
	case SQLITE_CANTOPEN:
	case SQLITE_AUTH:
		*advice =
			"check the file's and its directory's permissions, or name another with --db";
		return -EACCES;
	case SQLITE_NOMEM:
		*advice = "out of memory";
		return -ENOMEM;
	case SQLITE_FULL:
		*advice = "its filesystem is full";
		return -ENOSPC;
	default:
		*advice = "name another file with --db";
		return -EIO;
	}
}

int hdb_fail(sqlite3 *db, int rc, const char *path, const char *what, char *err,
	     size_t errlen)
{
	const char *advice;
	int code = hdb_errno(rc, &advice);

	snprintf(err, errlen, "%s: %s: %s (%s)", path, what,
		 db ? sqlite3_errmsg(db) : sqlite3_errstr(rc), advice);
	return code;
}

int hdb_exec(sqlite3 *db, const char *sql, const char *path, const char *what,
	     char *err, size_t errlen)
{
	int rc = sqlite3_exec(db, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : hdb_fail(db, rc, path, what, err, errlen);
}

/* the database's directory, made 0755 when it does not exist */
static int hdb_make_dir(const char *path, char *err, size_t errlen)
{
	char dir[PATH_MAX];
	char *slash;

	if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir)) {
		snprintf(err, errlen, "%.200s...: path too long", path);
		return -ENAMETOOLONG;
	}
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	if (!mkdir(dir, 0755) || errno == EEXIST)
		return 0;
	snprintf(err, errlen, "%s: cannot make its directory %s: %s", path, dir,
		 strerror(errno));
	return -errno;
}

/*
 * sql, retried while another connection holds the lock it needs, up to
 * the busy timeout: a change of journal mode needs the database to itself,
 * and SQLite answers SQLITE_BUSY at once, without the busy handler, where
 * waiting could deadlock - two runs opening a new database at the same
 * time, one of them still reading its version (run_history.bats "two runs
 * at once": "cannot open the run history: database is locked", 1 run in 3)
 */
static int hdb_exec_locked(sqlite3 *db, const char *sql)
{
	int rc, waited, busy_ms = history_busy_ms();

	for (waited = 0;; waited += HISTORY_RETRY_MS) {
		rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
		if (((rc & 0xff) != SQLITE_BUSY &&
		     (rc & 0xff) != SQLITE_LOCKED) ||
		    waited >= busy_ms)
			return rc;
		sqlite3_sleep(HISTORY_RETRY_MS);
	}
}

static int hdb_open_write(const char *path, sqlite3 *db, char *err,
			  size_t errlen)
{
	int rc, version, code;

	/* a newer or foreign database is not switched to WAL either */
	code = hdb_version_check(db, path, &version, err, errlen);
	if (code)
		return code;
	/* WAL: a reader never blocks the writer, writers queue on the lock */
	rc = hdb_exec_locked(db, "PRAGMA journal_mode=WAL");
	if (rc != SQLITE_OK)
		return hdb_fail(db, rc, path, "cannot open the run history",
				err, errlen);
	return hdb_exec(db, "PRAGMA foreign_keys=ON", path,
			"cannot open the run history", err, errlen);
}

int hdb_open(const char *path, bool write, sqlite3 **db, char *err,
	     size_t errlen)
{
	int flags = write ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE :
			    SQLITE_OPEN_READONLY;
	int rc, code, persist = 1;
	struct stat st;

	*db = NULL;
	if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
		snprintf(
			err, errlen,
			"%s is a directory: give the database file (e.g. %s/runs.db)",
			path, path);
		return -EISDIR;
	}
	if (!write && access(path, F_OK)) {
		snprintf(
			err, errlen,
			"%s: no run history there (fsprof run records every run in it; --db names another)",
			path);
		return -ENOENT;
	}
	if (write) {
		code = hdb_make_dir(path, err, errlen);
		if (code)
			return code;
	}
	rc = sqlite3_open_v2(path, db, flags, NULL);
	if (rc != SQLITE_OK) {
		code = hdb_fail(*db, rc, path, "cannot open the run history",
				err, errlen);
		sqlite3_close(*db);
		*db = NULL;
		return code;
	}
	sqlite3_extended_result_codes(*db, 1);
	/*
	 * The -wal and -shm files stay when the last connection closes, a
	 * reader's too: a user who may only read the database cannot make
	 * them, and SQLite cannot read a WAL database without them.
	 */
	sqlite3_file_control(*db, "main", SQLITE_FCNTL_PERSIST_WAL, &persist);
	sqlite3_busy_timeout(*db, history_busy_ms());
	if (!write)
		return 0;
	code = hdb_open_write(path, *db, err, errlen);
	if (code) {
		sqlite3_close(*db);
		*db = NULL;
	}
	return code;
}

/* path as a file: URI (RFC 3986 unreserved characters and / kept) */
static int hdb_uri(const char *path, const char *query, char *out, size_t len)
{
	static const char keep[] = "/-._~";
	size_t used = (size_t)snprintf(out, len, "file:");
	const unsigned char *c;

	for (c = (const unsigned char *)path; *c && used + 4 < len; c++) {
		if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		    (*c >= '0' && *c <= '9') || strchr(keep, *c))
			out[used++] = (char)*c;
		else
			used += (size_t)snprintf(out + used, len - used,
						 "%%%02X", *c);
	}
	if (*c || used + strlen(query) + 2 > len)
		return -ENAMETOOLONG;
	snprintf(out + used, len - used, "?%s", query);
	return 0;
}

int hdb_open_immutable(const char *path, sqlite3 **db, char *err, size_t errlen)
{
	char uri[3 * PATH_MAX + 32];
	int rc, code;

	*db = NULL;
	if (hdb_uri(path, "immutable=1", uri, sizeof(uri))) {
		snprintf(err, errlen, "%.200s...: path too long", path);
		return -ENAMETOOLONG;
	}
	rc = sqlite3_open_v2(uri, db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI,
			     NULL);
	if (rc == SQLITE_OK)
		return 0;
	code = hdb_fail(*db, rc, path, "cannot open the run history", err,
			errlen);
	sqlite3_close(*db);
	*db = NULL;
	return code;
}

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
int hdb_version_check(sqlite3 *db, const char *path, int *version, char *err,
		      size_t errlen)
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
