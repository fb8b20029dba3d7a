// SPDX-License-Identifier: GPL-2.0
/*
 * The run history (src/history/) on a real SQLite file in a temporary
 * directory: a recorded run loads back to the same JSON by id, latest and
 * label; its values are rows; the schema is migrated once and logged; a
 * newer, damaged or foreign database is refused with the file named and
 * left as it was.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>
#include <zlib.h>

#include "analyze/analyze.h"
#include "analyze_fixture.h"
#include "history/history.h"
#include "history/history_int.h"
#include "results/json.h"

struct fixture {
	char dir[64];
	char db[128];
};

static int fixture_setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	snprintf(f->dir, sizeof(f->dir), "/tmp/fsprof-test-history.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	/* a directory the recorder has to make */
	snprintf(f->db, sizeof(f->db), "%s/sub/runs.db", f->dir);
	*state = f;
	return 0;
}

static int fixture_teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[160];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	if (system(cmd))
		return -1;
	free(f);
	return 0;
}

/* a run of workload wl on fstype, one phase "create" of wall_s seconds */
static void model_build(struct run_result *run, const char *wl,
			const char *fstype, double wall_s)
{
	struct case_result *c;
	struct phase_result *p;

	memset(run, 0, sizeof(*run));
	snprintf(run->tool_version, sizeof(run->tool_version), "test");
	snprintf(run->kernel_release, sizeof(run->kernel_release), "6.18.0");
	run->started_real_ns = 1764590000ULL * 1000000000ULL;
	c = fx_case(run, fstype, fstype, 2);
	snprintf(c->workload, sizeof(c->workload), "%s", wl);
	snprintf(c->target_name, sizeof(c->target_name), "%s", fstype);
	snprintf(c->target.kind, sizeof(c->target.kind), "image");
	p = fx_phase(c, "create", wall_s);
	fx_io(p, BLK_IOC_LOG_WRITE, BLK_ISS_JBD2, 100, 100 * 32768, 0.7);
	fx_cpu(p, 0.1);
	metric_add(&p->metrics, "jbd2.commits", 42);
	fx_phase(c, "remove", wall_s / 2);
}

static char *run_json_text(const struct run_result *run)
{
	json_t *root = results_to_json(run);
	char *text = json_dumps(root, JSON_SORT_KEYS | JSON_INDENT(1));

	json_decref(root);
	return text;
}

static int64_t record_or_fail(const char *db, const struct run_result *run,
			      const char *label)
{
	char err[1024] = "";
	int64_t id = 0;

	if (history_record(db, run, label, &id, err, sizeof(err)))
		fail_msg("history_record: %s", err);
	return id;
}

/* one integer from a query on the database */
static long long query_int(const char *db_path, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	long long v = -1;

	assert_int_equal(sqlite3_open(db_path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

static void exec_sql(const char *db_path, const char *sql)
{
	sqlite3 *db;

	assert_int_equal(sqlite3_open(db_path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

/* what --age fill=90,sizes=small records, with two rows of its table */
static void case_aged(struct case_result *c)
{
	struct age_result *a = &c->age;
	struct freespace_table *t = &a->free;

	a->on = true;
	snprintf(a->spec, sizeof(a->spec), "%s",
		 "fill=90,pattern=every-other,sizes=small,seed=1");
	a->fill_pct = 90, a->delete_pct = 50, a->seed = 1;
	snprintf(a->pattern, sizeof(a->pattern), "every-other");
	snprintf(a->sizes, sizeof(a->sizes), "small");
	a->size_min = 4096, a->size_max = 65536;
	a->files_written = 20382, a->bytes_written = 490717184;
	a->files_deleted = 10191, a->bytes_deleted = 245309440;
	a->used_filled = 0.9, a->used_aged = 0.45, a->wall_ns = 1751577240;
	snprintf(t->tool, sizeof(t->tool), "e2freefrag");
	t->block_size = 4096, t->free_blocks = 39373, t->free_extents = 6669;
	t->n = 2;
	t->b[0] = (struct freespace_bucket){ 8192, 16383, 3944, 9363, 23.78 };
	t->b[1] = (struct freespace_bucket){ 32768, 65535, 2725, 30010,
					     76.22 };
}

static void test_a_recorded_run_loads_back_to_the_same_json(void **state)
{
	struct fixture *f = *state;
	struct run_result run, back;
	char err[1024] = "", *a, *b;
	char ref[32];
	int64_t id;

	model_build(&run, "fsync", "ext4", 2.0);
	case_aged(&run.cases[0]);
	assert_int_equal(analyze_run(&run), 0);
	id = record_or_fail(f->db, &run, "base");
	assert_true(id > 0);
	/* the aging, a setup field, is a column too */
	assert_int_equal(query_int(f->db, "SELECT count(*) FROM cases WHERE"
					  " age = 'fill=90,pattern=every-other,"
					  "sizes=small,seed=1'"),
			 1);
	snprintf(ref, sizeof(ref), "%lld", (long long)id);
	if (history_load(f->db, ref, &back, err, sizeof(err)))
		fail_msg("history_load: %s", err);
	assert_int_equal(analyze_saved_run(&back), 0);
	a = run_json_text(&run);
	b = run_json_text(&back);
	assert_string_equal(a, b);
	free(a);
	free(b);
	run_result_free(&run);
	run_result_free(&back);
}

static void test_latest_and_label_name_the_newest_matching_run(void **state)
{
	struct fixture *f = *state;
	struct run_result run, back;
	char err[1024] = "";
	int64_t first, second, third;

	model_build(&run, "fsync", "ext4", 1.0);
	first = record_or_fail(f->db, &run, "base");
	run_result_free(&run);
	model_build(&run, "fsync", "ext4", 2.0);
	second = record_or_fail(f->db, &run, "base");
	run_result_free(&run);
	model_build(&run, "mdcreate", "xfs", 3.0);
	third = record_or_fail(f->db, &run, NULL);
	run_result_free(&run);
	assert_true(first < second && second < third);

	assert_int_equal(history_load(f->db, "latest", &back, err, sizeof(err)),
			 0);
	assert_string_equal(back.cases[0].workload, "mdcreate");
	run_result_free(&back);
	/* the newer of the two labelled base: its create took 2 s */
	assert_int_equal(
		history_load(f->db, "label:base", &back, err, sizeof(err)), 0);
	assert_string_equal(back.cases[0].workload, "fsync");
	assert_int_equal(back.cases[0].phases[0].wall_ns, 2000000000ULL);
	run_result_free(&back);
}

static void test_an_unknown_run_or_bad_reference_is_refused(void **state)
{
	struct fixture *f = *state;
	struct run_result run, back;
	char err[1024] = "";

	model_build(&run, "fsync", "ext4", 1.0);
	record_or_fail(f->db, &run, NULL);
	run_result_free(&run);
	assert_int_equal(history_load(f->db, "999", &back, err, sizeof(err)),
			 -ENOENT);
	assert_non_null(strstr(err, f->db));
	assert_non_null(strstr(err, "no run 999"));
	assert_int_equal(history_load(f->db, "label:none", &back, err,
				      sizeof(err)),
			 -ENOENT);
	assert_int_equal(history_load(f->db, "17x", &back, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "label:NAME"));
	assert_int_equal(history_load(f->db, "label:", &back, err, sizeof(err)),
			 -EINVAL);
}

static void test_every_phase_value_is_a_row(void **state)
{
	struct fixture *f = *state;
	struct run_result run;

	model_build(&run, "fsync", "ext4", 2.0);
	record_or_fail(f->db, &run, NULL);
	run_result_free(&run);
	assert_int_equal(
		query_int(f->db,
			  "SELECT value FROM metrics WHERE phase = 'create'"
			  " AND metric = 'jbd2.commits'"),
		42);
	assert_int_equal(query_int(f->db,
				   "SELECT value FROM metrics WHERE"
				   " phase = 'remove' AND metric = 'wall_ns'"),
			 1000000000);
	assert_int_equal(query_int(f->db,
				   "SELECT value FROM metrics WHERE phase ="
				   " 'create' AND metric = 'block.write_ios'"),
			 100);
	assert_int_equal(
		query_int(f->db, "SELECT count(*) FROM cases WHERE workload ="
				 " 'fsync' AND fstype = 'ext4' AND repeat = 1"),
		1);
}

static void test_the_schema_is_migrated_once_and_logged(void **state)
{
	struct fixture *f = *state;
	struct run_result run;

	model_build(&run, "fsync", "ext4", 1.0);
	record_or_fail(f->db, &run, NULL);
	record_or_fail(f->db, &run, NULL);
	run_result_free(&run);
	assert_int_equal(query_int(f->db, "PRAGMA user_version"),
			 HISTORY_SCHEMA_VERSION);
	assert_int_equal(query_int(f->db,
				   "SELECT count(*) FROM schema_history"),
			 HISTORY_SCHEMA_VERSION);
	assert_int_equal(query_int(f->db,
				   "SELECT max(version) FROM schema_history"),
			 HISTORY_SCHEMA_VERSION);
	assert_int_equal(query_int(f->db, "SELECT count(*) FROM runs"), 2);
	/* two writers can share it */
	assert_int_equal(query_int(f->db,
				   "SELECT count(*) FROM pragma_journal_mode"
				   " WHERE journal_mode = 'wal'"),
			 1);
}

/* turn a database of this fsprof into what version 1 wrote: the JSON as
 * text in results_json, no compressed columns, no cases.age */
static void downgrade_to_v1(const char *db_path)
{
	sqlite3_stmt *st;
	sqlite3 *db;

	assert_int_equal(sqlite3_open(db_path, &db), SQLITE_OK);
	assert_int_equal(
		sqlite3_exec(db,
			     "ALTER TABLE runs ADD COLUMN results_json TEXT;"
			     "ALTER TABLE cases DROP COLUMN age;"
			     "DELETE FROM schema_history WHERE version >= 2;",
			     NULL, NULL, NULL),
		SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(
				 db,
				 "SELECT id, results_json_bytes, results_json_z"
				 " FROM runs",
				 -1, &st, NULL),
			 SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW) {
		uLongf len = (uLongf)sqlite3_column_int64(st, 1);
		char *text = calloc(1, len + 1), *sql;

		assert_int_equal(uncompress((Bytef *)text, &len,
					    sqlite3_column_blob(st, 2),
					    (uLong)sqlite3_column_bytes(st, 2)),
				 Z_OK);
		sql = sqlite3_mprintf(
			"UPDATE runs SET results_json = %Q WHERE id = %lld",
			text, (long long)sqlite3_column_int64(st, 0));
		assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL),
				 SQLITE_OK);
		sqlite3_free(sql);
		free(text);
	}
	sqlite3_finalize(st);
	assert_int_equal(
		sqlite3_exec(db,
			     "ALTER TABLE runs DROP COLUMN results_json_z;"
			     "ALTER TABLE runs DROP COLUMN results_json_bytes;"
			     "PRAGMA user_version = 1;",
			     NULL, NULL, NULL),
		SQLITE_OK);
	sqlite3_close(db);
}

static void
test_a_version_1_database_is_migrated_and_keeps_its_runs(void **state)
{
	struct fixture *f = *state;
	struct run_result run, back;
	char err[1024] = "", *a, *b;

	model_build(&run, "fsync", "ext4", 2.0);
	record_or_fail(f->db, &run, "old");
	downgrade_to_v1(f->db);
	assert_int_equal(query_int(f->db, "PRAGMA user_version"), 1);
	assert_int_equal(
		query_int(f->db,
			  "SELECT count(*) FROM pragma_table_info('runs')"
			  " WHERE name = 'results_json'"),
		1);
	/* reading it brings it up to date (this user may write it) */
	if (history_load(f->db, "label:old", &back, err, sizeof(err)))
		fail_msg("history_load: %s", err);
	a = run_json_text(&run);
	b = run_json_text(&back);
	assert_string_equal(a, b);
	free(a);
	free(b);
	run_result_free(&back);
	assert_int_equal(query_int(f->db, "PRAGMA user_version"),
			 HISTORY_SCHEMA_VERSION);
	assert_int_equal(
		query_int(f->db,
			  "SELECT count(*) FROM pragma_table_info('runs')"
			  " WHERE name = 'results_json'"),
		0);
	assert_int_equal(
		query_int(f->db, "SELECT max(version) FROM schema_history"),
		HISTORY_SCHEMA_VERSION);
	/* version 3's cases.age: '' for the cases recorded before it */
	assert_int_equal(query_int(f->db, "SELECT count(*) FROM cases"
					  " WHERE age = ''"),
			 1);
	/* and a run recorded into a version 1 database migrates it too */
	downgrade_to_v1(f->db);
	record_or_fail(f->db, &run, NULL);
	assert_int_equal(query_int(f->db, "PRAGMA user_version"),
			 HISTORY_SCHEMA_VERSION);
	assert_int_equal(query_int(f->db, "SELECT count(*) FROM runs WHERE"
					  " results_json_bytes > 0"),
			 2);
	run_result_free(&run);
}

static void test_a_newer_schema_is_refused_and_left_alone(void **state)
{
	struct fixture *f = *state;
	struct run_result run, back;
	struct history_rows rows;
	struct history_filter all = { 0 };
	char err[1024] = "";

	model_build(&run, "fsync", "ext4", 1.0);
	record_or_fail(f->db, &run, NULL);
	exec_sql(f->db, "PRAGMA user_version = 99");
	assert_int_equal(history_record(f->db, &run, NULL, NULL, err,
					sizeof(err)),
			 -ENOTSUP);
	assert_non_null(strstr(err, f->db));
	assert_non_null(strstr(err, "schema version 99, newer"));
	assert_int_equal(history_load(f->db, "latest", &back, err, sizeof(err)),
			 -ENOTSUP);
	assert_int_equal(history_list(f->db, &all, &rows, err, sizeof(err)),
			 -ENOTSUP);
	assert_int_equal(query_int(f->db, "SELECT count(*) FROM runs"), 1);
	assert_int_equal(query_int(f->db, "PRAGMA user_version"), 99);
	run_result_free(&run);
}

static void test_a_damaged_file_is_refused_and_not_overwritten(void **state)
{
	struct fixture *f = *state;
	char path[160], err[1024] = "", junk[8192], again[8192];
	struct run_result run;
	FILE *fp;
	size_t i;

	snprintf(path, sizeof(path), "%s/junk.db", f->dir);
	for (i = 0; i < sizeof(junk); i++)
		junk[i] = (char)(i * 7 + 3);
	fp = fopen(path, "w");
	assert_non_null(fp);
	assert_int_equal(fwrite(junk, 1, sizeof(junk), fp), sizeof(junk));
	fclose(fp);
	model_build(&run, "fsync", "ext4", 1.0);
	assert_int_equal(
		history_record(path, &run, NULL, NULL, err, sizeof(err)), -EIO);
	assert_non_null(strstr(err, path));
	assert_non_null(strstr(err, "not a database"));
	assert_non_null(strstr(err, "move it away"));
	run_result_free(&run);
	fp = fopen(path, "r");
	assert_non_null(fp);
	assert_int_equal(fread(again, 1, sizeof(again), fp), sizeof(again));
	fclose(fp);
	assert_memory_equal(junk, again, sizeof(junk));
}

static void test_a_foreign_database_is_refused(void **state)
{
	struct fixture *f = *state;
	char path[160], err[1024] = "";
	struct run_result run;

	snprintf(path, sizeof(path), "%s/other.db", f->dir);
	exec_sql(path, "CREATE TABLE customers (name TEXT)");
	model_build(&run, "fsync", "ext4", 1.0);
	assert_int_equal(
		history_record(path, &run, NULL, NULL, err, sizeof(err)), -EIO);
	assert_non_null(strstr(err, "not an fsprof run history"));
	assert_int_equal(query_int(path, "SELECT count(*) FROM sqlite_master"),
			 1);
	/* not even switched to WAL */
	assert_int_equal(query_int(path,
				   "SELECT count(*) FROM pragma_journal_mode"
				   " WHERE journal_mode = 'delete'"),
			 1);
	run_result_free(&run);
}

static void test_a_missing_database_is_not_created_by_reading(void **state)
{
	struct fixture *f = *state;
	struct history_filter all = { 0 };
	struct history_rows rows;
	struct run_result back;
	char err[1024] = "";

	assert_int_equal(history_list(f->db, &all, &rows, err, sizeof(err)),
			 -ENOENT);
	assert_non_null(strstr(err, f->db));
	assert_int_equal(history_load(f->db, "latest", &back, err, sizeof(err)),
			 -ENOENT);
	assert_int_equal(access(f->db, F_OK), -1);
}

static void test_the_list_filters_by_label_workload_and_fs(void **state)
{
	struct fixture *f = *state;
	struct history_filter filter = { 0 };
	struct history_rows rows;
	struct run_result run;
	char err[1024] = "";

	model_build(&run, "fsync", "ext4", 1.5);
	record_or_fail(f->db, &run, "base");
	run_result_free(&run);
	model_build(&run, "mdcreate", "xfs", 3.0);
	record_or_fail(f->db, &run, NULL);
	run_result_free(&run);

	assert_int_equal(history_list(f->db, &filter, &rows, err, sizeof(err)),
			 0);
	assert_int_equal(rows.n, 2);
	assert_string_equal(rows.v[0].label, "base");
	assert_string_equal(rows.v[0].first_case, "fsync/ext4");
	assert_int_equal(rows.v[0].n_phases, 2);
	assert_string_equal(rows.v[0].phase[0].name, "create");
	assert_true(rows.v[0].phase[0].wall_s == 1.5);
	assert_string_equal(rows.v[1].targets, "xfs");
	history_rows_free(&rows);

	filter.fs = "xfs";
	assert_int_equal(history_list(f->db, &filter, &rows, err, sizeof(err)),
			 0);
	assert_int_equal(rows.n, 1);
	assert_string_equal(rows.v[0].workloads, "mdcreate");
	history_rows_free(&rows);
	filter.fs = NULL;
	filter.workload = "fsync";
	filter.label = "base";
	assert_int_equal(history_list(f->db, &filter, &rows, err, sizeof(err)),
			 0);
	assert_int_equal(rows.n, 1);
	history_rows_free(&rows);
	filter.workload = "mdcreate";
	assert_int_equal(history_list(f->db, &filter, &rows, err, sizeof(err)),
			 0);
	assert_int_equal(rows.n, 0);
	history_rows_free(&rows);
}

static void test_a_label_is_short_and_printable(void **state)
{
	char err[256];

	(void)state;
	assert_int_equal(
		history_label_check("6.18-rc1+mballoc", err, sizeof(err)), 0);
	assert_int_equal(history_label_check("", err, sizeof(err)), -EINVAL);
	assert_int_equal(history_label_check("two words", err, sizeof(err)),
			 -EINVAL);
	assert_int_equal(history_label_check("x\ny", err, sizeof(err)),
			 -EINVAL);
	assert_int_equal(
		history_label_check(
			"0123456789012345678901234567890123456789012345678901234567890123",
			err, sizeof(err)),
		-EINVAL);
}

#define T(fn) \
	cmocka_unit_test_setup_teardown(fn, fixture_setup, fixture_teardown)

/* a writer waits 10 s for another's lock unless FSPROF_DB_BUSY_TIMEOUT,
 * a duration from 1 ms to an hour, says otherwise (run_history.bats waits
 * the 1 s it sets) */
static void test_the_busy_timeout_is_10_s_unless_fsprof_db_busy_timeout_sets_it(
	void **state)
{
	(void)state;
	unsetenv("FSPROF_DB_BUSY_TIMEOUT");
	assert_int_equal(history_busy_ms(), 10000);
	setenv("FSPROF_DB_BUSY_TIMEOUT", "1s", 1);
	assert_int_equal(history_busy_ms(), 1000);
	setenv("FSPROF_DB_BUSY_TIMEOUT", "250ms", 1);
	assert_int_equal(history_busy_ms(), 250);
	/* no unit, under a millisecond, over an hour: the default */
	setenv("FSPROF_DB_BUSY_TIMEOUT", "5", 1);
	assert_int_equal(history_busy_ms(), 10000);
	setenv("FSPROF_DB_BUSY_TIMEOUT", "500us", 1);
	assert_int_equal(history_busy_ms(), 10000);
	setenv("FSPROF_DB_BUSY_TIMEOUT", "2h", 1);
	assert_int_equal(history_busy_ms(), 10000);
	unsetenv("FSPROF_DB_BUSY_TIMEOUT");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_a_recorded_run_loads_back_to_the_same_json),
		T(test_latest_and_label_name_the_newest_matching_run),
		T(test_an_unknown_run_or_bad_reference_is_refused),
		T(test_every_phase_value_is_a_row),
		T(test_the_schema_is_migrated_once_and_logged),
		T(test_a_version_1_database_is_migrated_and_keeps_its_runs),
		T(test_a_newer_schema_is_refused_and_left_alone),
		T(test_a_damaged_file_is_refused_and_not_overwritten),
		T(test_a_foreign_database_is_refused),
		T(test_a_missing_database_is_not_created_by_reading),
		T(test_the_list_filters_by_label_workload_and_fs),
		cmocka_unit_test(test_a_label_is_short_and_printable),
		cmocka_unit_test(
			test_the_busy_timeout_is_10_s_unless_fsprof_db_busy_timeout_sets_it),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
