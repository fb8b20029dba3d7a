// SPDX-License-Identifier: GPL-2.0
/* The bonnie++ 1.97 CSV line and text rules (src/report/bonnie.c) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/bonnie.h"
#include "results/results.h"
#include "version.h"

#define NS_PER_S 1000000000ULL
#define MS (1000000ULL)
#define US (1000ULL)

static const char *const test_phases[] = {
	"putc", "write", "rewrite", "getc", "read", "seeks",
};

#define NPHASES (sizeof(test_phases) / sizeof(test_phases[0]))

struct fixture {
	struct run_result run;
	struct case_result c;
	struct phase_result p[NPHASES];
};

/* one phase: bytes in wall_ns with cpu_ns of CPU, slowest op max_ns */
static void phase_set(struct phase_result *p, const char *name, uint64_t bytes,
		      uint64_t wall_ns, uint64_t cpu_ns, uint64_t max_ns)
{
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->work.bytes = bytes;
	p->wall_ns = wall_ns;
	p->user_ns = cpu_ns / 2;
	p->sys_ns = cpu_ns - cpu_ns / 2;
	if (max_ns)
		latency_hist_record(
			metric_hist(&p->metrics, "bonnie.latency_ns"), max_ns);
}

/* a complete 512 MiB run whose every number is exact in binary */
static int fixture_setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	uint64_t size = 512ULL << 20;

	if (!f)
		return -1;
	f->run.cases = &f->c;
	f->run.n_cases = 1;
	snprintf(f->c.workload, sizeof(f->c.workload), "bonnie");
	snprintf(f->c.params, sizeof(f->c.params),
		 "size=536870912,chunk=8k,seeks=8192,seekers=3,seed=7");
	f->c.size = size;
	f->c.phases = f->p;
	f->c.n_phases = NPHASES;
	phase_set(&f->p[0], "putc", size, 2 * NS_PER_S, 1500 * MS, 1481 * US);
	phase_set(&f->p[1], "write", size, NS_PER_S, 500 * MS, 310 * MS);
	phase_set(&f->p[2], "rewrite", size, 4 * NS_PER_S, 400 * MS,
		  69689 * US);
	phase_set(&f->p[3], "getc", size, 2500 * MS, 2400 * MS, 150 * NS_PER_S);
	phase_set(&f->p[4], "read", size, 800 * MS, 200 * MS, 0);
	phase_set(&f->p[5], "seeks", 8192ULL * 8192, 4 * NS_PER_S, 400 * MS,
		  70369 * US);
	metric_add(&f->p[5].metrics, "bonnie.seeks", 8192);
	*state = f;
	return 0;
}

static int fixture_teardown(void **state)
{
	struct fixture *f = *state;
	unsigned int i;

	for (i = 0; i < NPHASES; i++)
		metric_set_free(&f->p[i].metrics);
	free(f);
	return 0;
}

/* the CSV output of run, in a malloc'd string */
static char *csv_of(const struct run_result *run, unsigned int want_lines)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	assert_int_equal(report_bonnie_csv(run, "testhost", out), want_lines);
	fclose(out);
	return buf;
}

static unsigned int csv_fields(const char *line)
{
	unsigned int n = 1;

	for (; *line && *line != '\n'; line++)
		n += *line == ',';
	return n;
}

/* field i (0-based) of line into buf */
static const char *csv_field(const char *line, unsigned int i, char *buf,
			     size_t len)
{
	const char *comma;
	size_t n;

	for (; i; i--) {
		comma = strchr(line, ',');
		if (!comma)
			fail_msg("the line has no field %u", i);
		line = comma + 1;
	}
	n = strcspn(line, ",\n");
	if (n >= len)
		n = len - 1;
	memcpy(buf, line, n);
	buf[n] = '\0';
	return buf;
}

static void complete_run_gives_the_1_98_line(void **state)
{
	struct fixture *f = *state;
	char *line = csv_of(&f->run, 1);
	const char *want =
		"1.98,fsprof-" FSPROF_VERSION ",testhost,1,7,512M,,8192,3"
		",262144,75,524288,50,131072,10,209715,96,655360,25,2048,10"
		",,,,,,,,,,,,,,,,,"
		",1481us,310ms,69689us,150s,,70369us"
		",,,,,,\n";

	assert_string_equal(line, want);
	assert_int_equal(csv_fields(line), BONNIE_CSV_FIELDS);
	free(line);
}

static void phase_shorter_than_half_a_second_prints_plus_signs(void **state)
{
	struct fixture *f = *state;
	char field[32], *line;

	f->p[1].wall_ns = 499 * MS;
	line = csv_of(&f->run, 1);
	assert_string_equal(csv_field(line, 11, field, sizeof(field)), "+++++");
	assert_string_equal(csv_field(line, 12, field, sizeof(field)), "+++");
	/* its latency is still reported, as bonnie++ does */
	assert_string_equal(csv_field(line, 39, field, sizeof(field)), "310ms");
	assert_int_equal(csv_fields(line), BONNIE_CSV_FIELDS);
	free(line);
}

static void phases_that_did_not_run_leave_their_fields_empty(void **state)
{
	struct fixture *f = *state;
	char field[32], *line;
	unsigned int i;

	f->c.n_phases = 2; /* interrupted after the block write */
	line = csv_of(&f->run, 1);
	assert_int_equal(csv_fields(line), BONNIE_CSV_FIELDS);
	assert_string_equal(csv_field(line, 11, field, sizeof(field)), "524288");
	for (i = 13; i <= 20; i++)
		assert_string_equal(csv_field(line, i, field, sizeof(field)),
				    "");
	assert_string_equal(csv_field(line, 40, field, sizeof(field)), "");
	free(line);
}

static void seeks_below_1000_per_second_keep_one_decimal(void **state)
{
	struct fixture *f = *state;
	char field[32], *line;

	f->p[5].wall_ns = 10 * NS_PER_S; /* 819.2 seeks/s */
	line = csv_of(&f->run, 1);
	assert_string_equal(csv_field(line, 19, field, sizeof(field)), "819.2");
	free(line);
}

static void non_default_chunk_fills_io_chunk_size(void **state)
{
	struct fixture *f = *state;
	char field[32], *line;

	snprintf(f->c.params, sizeof(f->c.params),
		 "size=536870912,chunk=4k,seeks=8192,seekers=3,seed=7");
	line = csv_of(&f->run, 1);
	assert_string_equal(csv_field(line, 5, field, sizeof(field)), "512M");
	assert_string_equal(csv_field(line, 6, field, sizeof(field)), "4k");
	free(line);
}

static void other_workloads_get_no_line(void **state)
{
	struct fixture *f = *state;
	char *line;

	snprintf(f->c.workload, sizeof(f->c.workload), "seqio");
	line = csv_of(&f->run, 0);
	assert_string_equal(line, "");
	free(line);
}

static void table_row_has_bonnie_columns(void **state)
{
	struct fixture *f = *state;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	const char *row = "testhost       512M 262144  75 524288  50 131072  10"
			  " 209715  96 655360  25  2048  10\n";
	const char *latency = "Latency          "
			      "    1481us     310ms   69689us      150s"
			      "             70369us\n";

	assert_non_null(out);
	report_bonnie_tables(&f->run, "testhost", out);
	fclose(out);
	assert_non_null(strstr(buf,
			       "Machine        Size K/sec %CP K/sec %CP"
			       " K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n"));
	if (!strstr(buf, row) || !strstr(buf, latency))
		fail_msg("table:\n%s", buf);
	free(buf);
}

static void sizes_use_bonnie_units(void **state)
{
	char buf[32];

	(void)state;
	bonnie_size_text(512, buf, sizeof(buf));
	assert_string_equal(buf, "512M");
	bonnie_size_text(4096, buf, sizeof(buf));
	assert_string_equal(buf, "4G");
	bonnie_size_text(4128, buf, sizeof(buf));
	assert_string_equal(buf, "4128M");
	bonnie_chunk_text(8192, buf, sizeof(buf));
	assert_string_equal(buf, "8k");
	bonnie_chunk_text(512, buf, sizeof(buf));
	assert_string_equal(buf, "512");
	bonnie_chunk_text(1 << 20, buf, sizeof(buf));
	assert_string_equal(buf, "1m");
}

static void latencies_use_us_ms_and_s(void **state)
{
	char buf[32];

	(void)state;
	bonnie_latency_text(0, buf, sizeof(buf));
	assert_string_equal(buf, "");
	bonnie_latency_text(812 * US, buf, sizeof(buf));
	assert_string_equal(buf, "812us");
	bonnie_latency_text(99 * MS, buf, sizeof(buf));
	assert_string_equal(buf, "99000us");
	bonnie_latency_text(100 * MS, buf, sizeof(buf));
	assert_string_equal(buf, "100ms");
	bonnie_latency_text(99 * NS_PER_S, buf, sizeof(buf));
	assert_string_equal(buf, "99000ms");
	bonnie_latency_text(100 * NS_PER_S, buf, sizeof(buf));
	assert_string_equal(buf, "100s");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			complete_run_gives_the_1_98_line, fixture_setup,
			fixture_teardown),
		cmocka_unit_test_setup_teardown(
			phase_shorter_than_half_a_second_prints_plus_signs,
			fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(
			phases_that_did_not_run_leave_their_fields_empty,
			fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(
			seeks_below_1000_per_second_keep_one_decimal,
			fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(
			non_default_chunk_fills_io_chunk_size, fixture_setup,
			fixture_teardown),
		cmocka_unit_test_setup_teardown(other_workloads_get_no_line,
						fixture_setup,
						fixture_teardown),
		cmocka_unit_test_setup_teardown(table_row_has_bonnie_columns,
						fixture_setup,
						fixture_teardown),
		cmocka_unit_test(sizes_use_bonnie_units),
		cmocka_unit_test(latencies_use_us_ms_and_s),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
