// SPDX-License-Identifier: GPL-2.0
/* Loading a recorded run back: a run id, "latest" or "label:NAME". */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "history/history.h"
#include "history/history_int.h"
#include "results/json_read.h"

#define STORED_JSON "SELECT id, results_json_bytes, results_json_z FROM runs"

/* the statement that finds ref's results JSON, its parameter bound */
static int ref_statement(sqlite3 *db, const struct history_ref *ref,
			 sqlite3_stmt **st)
{
	const char *sql = STORED_JSON " ORDER BY id DESC LIMIT 1"; /* latest */
	int rc;

	if (ref->id)
		sql = STORED_JSON " WHERE id = ?";
	else if (ref->label)
		sql = STORED_JSON " WHERE label = ? ORDER BY id DESC LIMIT 1";
	rc = sqlite3_prepare_v2(db, sql, -1, st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	if (ref->id)
		sqlite3_bind_int64(*st, 1, ref->id);
	else if (ref->label)
		sqlite3_bind_text(*st, 1, ref->label, -1, SQLITE_STATIC);
	return SQLITE_OK;
}

static int parse_stored_json(const char *db_path, sqlite3_stmt *st,
			     struct run_result *out, char *err, size_t errlen)
{
	char *text = stored_json_unpack(sqlite3_column_blob(st, 2),
					(size_t)sqlite3_column_bytes(st, 2),
					sqlite3_column_int64(st, 1));
	json_error_t jerr;
	char name[4200];
	json_t *root;
	int code;

	snprintf(name, sizeof(name), "%s run %lld", db_path,
		 (long long)sqlite3_column_int64(st, 0));
	if (!text) {
		snprintf(err, errlen,
			 "%s: its stored results JSON does not decompress",
			 name);
		return -EIO;
	}
	root = json_loads(text, 0, &jerr);
	free(text);
	if (!root) {
		snprintf(
			err, errlen,
			"%s: its stored results JSON does not parse (%s at line %d)",
			name, jerr.text, jerr.line);
		return -EIO;
	}
	code = results_from_json(root, name, out, err, errlen);
	json_decref(root);
	return code;
}

static int load_from(sqlite3 *db, const char *db_path, const char *ref,
		     struct run_result *out, char *err, size_t errlen)
{
	struct history_ref parsed;
	sqlite3_stmt *st = NULL;
	int rc, code;

	history_ref_parse(ref, &parsed);
	rc = ref_statement(db, &parsed, &st);

	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		code = parse_stored_json(db_path, st, out, err, errlen);
	} else if (rc == SQLITE_DONE) {
		snprintf(err, errlen,
			 "%s: no run %s recorded (fsprof runs lists them)",
			 db_path, ref);
		code = -ENOENT;
	} else {
		code = hdb_fail(db, rc, db_path, "cannot read the run", err,
				errlen);
	}
	sqlite3_finalize(st);
	return code;
}

int history_load(const char *db_path, const char *ref, struct run_result *out,
		 char *err, size_t errlen)
{
	sqlite3 *db;
	int code;

	memset(out, 0, sizeof(*out));
	if (!history_ref_syntax(ref)) {
		snprintf(
			err, errlen,
			"'%s' is not a run: give a run id (17), latest or label:NAME",
			ref);
		return -EINVAL;
	}
	code = hdb_open_read(db_path, &db, err, errlen);
	if (!code)
		code = load_from(db, db_path, ref, out, err, errlen);
	sqlite3_close(db);
	return code;
}
