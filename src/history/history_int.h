/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the history files: opening the database and its errors. */
#ifndef FSPROF_HISTORY_INT_H
#define FSPROF_HISTORY_INT_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* how long a writer waits for another run's transaction, unless
 * $FSPROF_DB_BUSY_TIMEOUT says otherwise (history_busy_ms) */
#define HISTORY_BUSY_MS 10000
/* the longest busy timeout $FSPROF_DB_BUSY_TIMEOUT may set: an hour */
#define HISTORY_BUSY_MAX_MS 3600000
/* the pause between tries of a statement SQLite refused as busy at once */
#define HISTORY_RETRY_MS 20

/*
 * The busy timeout in ms: $FSPROF_DB_BUSY_TIMEOUT, a duration with its
 * unit ("2s", "500ms") from 1 ms to HISTORY_BUSY_MAX_MS, else (unset, or
 * not such a duration: a warning) HISTORY_BUSY_MS.
 */
int history_busy_ms(void);

/*
 * Open path: for writing (created, with its directory, when missing; WAL
 * mode, busy timeout) or read-only (a missing file is -ENOENT). Returns 0
 * or a negative errno with err set; *db is NULL on failure.
 */
int hdb_open(const char *path, bool write, sqlite3 **db, char *err,
	     size_t errlen);

/*
 * A failed SQLite call rc while doing what: err = "PATH: what: SQLite's
 * message (what to do)"; returns the matching negative errno.
 */
int hdb_fail(sqlite3 *db, int rc, const char *path, const char *what, char *err,
	     size_t errlen);

/*
 * Inside a write transaction: bring the schema to HISTORY_SCHEMA_VERSION
 * by its migrations, or refuse a newer or foreign database.
 */
int hdb_schema_migrate(sqlite3 *db, const char *path, char *err, size_t errlen);

/*
 * The schema version of the database in *version; an error when it is
 * newer than this fsprof's or the database someone else's (tables, no
 * version)
 */
int hdb_version_check(sqlite3 *db, const char *path, int *version, char *err,
		      size_t errlen);

/* read-only: the database holds a history this fsprof can read */
int hdb_schema_check(sqlite3 *db, const char *path, char *err, size_t errlen);

/* run one statement text without results; 0 or hdb_fail's errno */
int hdb_exec(sqlite3 *db, const char *sql, const char *path, const char *what,
	     char *err, size_t errlen);

/* a parsed run reference: id, or label, or neither (latest) */
struct history_ref {
	int64_t id; /* 0: not an id */
	const char *label; /* points into the reference; NULL: not a label */
};

/* parse ref ("17", "latest", "label:X"); false when it is none of them */
bool history_ref_parse(const char *ref, struct history_ref *out);

/*
 * What takes a database from version v to v + 1: its SQL, then (when the
 * data itself changes) its code, then more SQL (migrations.c)
 */
struct migration {
	const char *sql;
	int (*code)(sqlite3 *db, const char *path, char *err, size_t errlen);
	const char *sql_after;
};

/* the migration from version v, or NULL past the last */
const struct migration *history_migration(int version);

/*
 * Open path read-only as an immutable file (no locks, no -wal or -shm):
 * only for a WAL database whose -wal file is gone, which a user who may
 * not write its directory cannot otherwise read
 */
int hdb_open_immutable(const char *path, sqlite3 **db, char *err,
		       size_t errlen);

/* open path read-only at the current schema: an older database is brought
 * up to date first when this user may write it */
int hdb_open_read(const char *path, sqlite3 **db, char *err, size_t errlen);

/* a results JSON compressed for runs.results_json_z */
struct packed_json {
	void *z; /* malloc'd */
	size_t z_len;
	size_t len; /* of the JSON text */
};

/* compress len bytes of json into out; 0 or -ENOMEM */
int stored_json_pack(const char *json, size_t len, struct packed_json *out);

/* the JSON text of z (len bytes once uncompressed), NUL-terminated and
 * malloc'd; NULL when it does not uncompress to len bytes */
char *stored_json_unpack(const void *z, size_t z_len, int64_t len);

#endif
