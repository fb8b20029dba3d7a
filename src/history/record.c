// SPDX-License-Identifier: GPL-2.0
/*
 * Recording a run: its manifest, its cases, every phase's values and the
 * whole results JSON, in one transaction.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "history/history.h"
#include "history/history_int.h"
#include "results/json.h"
#include "results/phase_values.h"

struct recorder {
	sqlite3 *db;
	const char *path;
	char *err;
	size_t errlen;
	sqlite3_stmt *value; /* INSERT INTO metrics */
	int64_t run_id;
	unsigned int case_no, phase_no;
	const char *phase;
};

/* "a,b": the distinct values of a case field, in case order */
static void distinct_join(const struct run_result *run, size_t offset,
			  char *out, size_t outlen)
{
	size_t used = 0;
	unsigned int i, j;

	out[0] = '\0';
	for (i = 0; i < run->n_cases; i++) {
		const char *v = (const char *)&run->cases[i] + offset;

		for (j = 0; j < i; j++)
			if (!strcmp(v, (const char *)&run->cases[j] + offset))
				break;
		if (j < i || used >= outlen)
			continue;
		used += snprintf(out + used, outlen - used, "%s%s",
				 used ? "," : "", v);
	}
}

static int recorder_fail(struct recorder *r, int rc, const char *what)
{
	return hdb_fail(r->db, rc, r->path, what, r->err, r->errlen);
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int record_run_row(struct recorder *r, const struct run_result *run,
			  const char *label, const struct packed_json *json)
{
	char workloads[1024], targets[1024];
	sqlite3_stmt *st;
	int rc;

	distinct_join(run, offsetof(struct case_result, workload), workloads,
		      sizeof(workloads));
	distinct_join(run, offsetof(struct case_result, target_name), targets,
		      sizeof(targets));
	rc = sqlite3_prepare_v2(
		r->db,
		"INSERT INTO runs (started_ns, recorded_ns, label, kernel,"
		" fsprof_version, complete, interrupted, workloads, targets,"
		" n_cases, results_schema, results_json_bytes, results_json_z)"
		" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
		-1, &st, NULL);
	if (rc != SQLITE_OK)
		return recorder_fail(r, rc, "cannot record the run");
	sqlite3_bind_int64(st, 1, (int64_t)run->started_real_ns);
	sqlite3_bind_int64(st, 2, now_ns());
	if (label)
		sqlite3_bind_text(st, 3, label, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, run->kernel_release, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, run->tool_version, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 6, run_result_complete(run));
	sqlite3_bind_int(st, 7, run->interrupted);
	sqlite3_bind_text(st, 8, workloads, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 9, targets, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 10, (int)run->n_cases);
	sqlite3_bind_int(st, 11, RESULTS_SCHEMA_VERSION);
	sqlite3_bind_int64(st, 12, (int64_t)json->len);
	sqlite3_bind_blob64(st, 13, json->z, json->z_len, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return recorder_fail(r, rc, "cannot record the run");
	r->run_id = sqlite3_last_insert_rowid(r->db);
	return 0;
}

static int record_case_row(struct recorder *r, sqlite3_stmt *st,
			   const struct case_result *c)
{
	const struct target_result *t = &c->target;
	char model[DEVICE_MODEL_TEXT_LEN];
	int rc;

	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, r->run_id);
	sqlite3_bind_int(st, 2, (int)r->case_no);
	sqlite3_bind_text(st, 3, c->workload, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, c->params, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, c->target_label, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, c->target_name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, t->kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 8, t->fstype, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 9, t->mkfs_cmd, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 10, t->mount_opts, -1, SQLITE_STATIC);
	device_model_format(&t->model.m, model, sizeof(model));
	sqlite3_bind_text(st, 11, model, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 12, (int64_t)t->image_size);
	sqlite3_bind_int(st, 13, (int)c->repeat);
	sqlite3_bind_int(st, 14, c->complete);
	sqlite3_bind_text(st, 15, c->age.on ? c->age.spec : "", -1,
			  SQLITE_STATIC);
	rc = sqlite3_step(st);
	return rc == SQLITE_DONE ? 0 :
				   recorder_fail(r, rc, "cannot record a case");
}

/* a count is stored as an integer, a derived value as a real */
static void bind_value(sqlite3_stmt *st, int col, double value)
{
	if (value == floor(value) && fabs(value) < 9007199254740992.0)
		sqlite3_bind_int64(st, col, (int64_t)value);
	else
		sqlite3_bind_double(st, col, value);
}

static int record_value(void *ctx, const char *name, double value)
{
	struct recorder *r = ctx;
	sqlite3_stmt *st = r->value;
	int rc;

	/* SQLite would store NaN as NULL */
	if (!isfinite(value))
		return 0;
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, r->run_id);
	sqlite3_bind_int(st, 2, (int)r->case_no);
	sqlite3_bind_int(st, 3, (int)r->phase_no);
	sqlite3_bind_text(st, 4, r->phase, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, name, -1, SQLITE_TRANSIENT);
	bind_value(st, 6, value);
	rc = sqlite3_step(st);
	return rc == SQLITE_DONE ?
		       0 :
		       recorder_fail(r, rc, "cannot record a metric");
}

static int record_cases(struct recorder *r, const struct run_result *run)
{
	sqlite3_stmt *cs = NULL;
	int rc, code = 0;

	rc = sqlite3_prepare_v2(
		r->db,
		"INSERT INTO cases VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
		-1, &cs, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(
			r->db, "INSERT INTO metrics VALUES (?, ?, ?, ?, ?, ?)",
			-1, &r->value, NULL);
	if (rc != SQLITE_OK)
		code = recorder_fail(r, rc, "cannot record the cases");
	for (r->case_no = 0; !code && r->case_no < run->n_cases; r->case_no++) {
		const struct case_result *c = &run->cases[r->case_no];

		code = record_case_row(r, cs, c);
		for (r->phase_no = 0; !code && r->phase_no < c->n_phases;
		     r->phase_no++) {
			r->phase = c->phases[r->phase_no].name;
			code = phase_values(&c->phases[r->phase_no],
					    record_value, r);
		}
	}
	sqlite3_finalize(cs);
	sqlite3_finalize(r->value);
	return code;
}

static int record_transaction(struct recorder *r, const struct run_result *run,
			      const char *label, const struct packed_json *json)
{
	/* IMMEDIATE: take the write lock now, waiting for another writer */
	int code = hdb_exec(r->db, "BEGIN IMMEDIATE", r->path,
			    "cannot record the run", r->err, r->errlen);

	if (code)
		return code;
	code = hdb_schema_migrate(r->db, r->path, r->err, r->errlen);
	if (!code)
		code = record_run_row(r, run, label, json);
	if (!code)
		code = record_cases(r, run);
	if (!code)
		code = hdb_exec(r->db, "COMMIT", r->path,
				"cannot record the run", r->err, r->errlen);
	if (code)
		sqlite3_exec(r->db, "ROLLBACK", NULL, NULL, NULL);
	else /* keep the WAL small; busy when another run is at it: fine */
		sqlite3_exec(r->db, "PRAGMA wal_checkpoint(TRUNCATE)", NULL,
			     NULL, NULL);
	return code;
}

int history_record(const char *db_path, const struct run_result *run,
		   const char *label, int64_t *id, char *err, size_t errlen)
{
	struct recorder r = { .path = db_path, .err = err, .errlen = errlen };
	json_t *root = results_to_json(run);
	char *json = root ? json_dumps(root, JSON_COMPACT | JSON_SORT_KEYS) :
			    NULL;
	struct packed_json packed = { 0 };
	int code;

	json_decref(root);
	if (!json || stored_json_pack(json, strlen(json), &packed)) {
		free(json);
		snprintf(err, errlen, "%s: building the results JSON failed",
			 db_path);
		return -ENOMEM;
	}
	free(json);
	code = hdb_open(db_path, true, &r.db, err, errlen);
	if (!code)
		code = record_transaction(&r, run, label, &packed);
	sqlite3_close(r.db);
	free(packed.z);
	if (!code && id)
		*id = r.run_id;
	return code;
}
