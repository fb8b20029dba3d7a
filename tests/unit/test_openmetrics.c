// SPDX-License-Identifier: GPL-2.0
/* OpenMetrics text (src/report/openmetrics.c) and the top-N process list */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/openmetrics.h"
#include "trace/block_procs.h"

static void label_values_are_escaped(void **state)
{
	char out[64];

	(void)state;
	openmetrics_escape("a\"b\\c\nd", out, sizeof(out));
	assert_string_equal(out, "a\\\"b\\\\c\\nd");
	openmetrics_escape("sh -c 'exit 3'", out, sizeof(out));
	assert_string_equal(out, "sh -c 'exit 3'");
	/* truncated, never cut inside an escape */
	openmetrics_escape("\"\"\"\"\"\"", out, 8);
	assert_string_equal(out, "\\\"\\\"\\\"");
}

static char *render(const struct run_result *run)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	report_openmetrics(run, f);
	fclose(f);
	return buf;
}

/* run with one case of workload, one repeat of one phase */
static struct case_result *one_phase(struct run_result *run,
				     const char *workload, const char *phase)
{
	struct case_result *c;

	memset(run, 0, sizeof(*run));
	c = run_result_add_case(run, 1);
	assert_non_null(c);
	snprintf(c->workload, sizeof(c->workload), "%s", workload);
	c->repeat = 1;
	c->n_phases = 1;
	snprintf(c->phases[0].name, sizeof(c->phases[0].name), "%s", phase);
	return c;
}

static void a_phase_gets_its_families_labels_and_eof(void **state)
{
	struct run_result run;
	struct case_result *c;
	char *text;

	(void)state;
	c = one_phase(&run, "trace", "fsync");
	snprintf(c->params, sizeof(c->params), "sh -c \"x\"");
	snprintf(c->target_label, sizeof(c->target_label), "ext4");
	snprintf(c->target.fstype, sizeof(c->target.fstype), "ext4");
	snprintf(c->target.device, sizeof(c->target.device), "/dev/loop7");
	c->phases[0].wall_ns = 1500000000ULL;
	text = render(&run);
	assert_non_null(strstr(text,
			       "# TYPE fsprof_phase_wall_seconds gauge\n"
			       "# UNIT fsprof_phase_wall_seconds seconds\n"));
	assert_non_null(strstr(
		text,
		"fsprof_phase_wall_seconds{host=\"") /* the machine's name */);
	assert_non_null(strstr(
		text,
		"\",fs=\"ext4\",device=\"loop7\",target=\"ext4\",workload=\"trace\",command=\"sh -c \\\"x\\\"\",phase=\"fsync\",repeat=\"1\"} 1.5\n"));
	/* no device metrics where the block domain did not trace */
	assert_null(strstr(text, "fsprof_phase_device_busy_ratio{"));
	assert_int_equal(strcmp(text + strlen(text) - 6, "# EOF\n"), 0);
	free(text);
	run_result_free(&run);
}

/* the value after a sample's labels: "NAME{...} VALUE" */
static const char *sample_value(const char *text, const char *name)
{
	const char *line = strstr(text, name);

	assert_non_null(line);
	line = strstr(line, "} ");
	assert_non_null(line);
	return line + 2;
}

static void values_keep_every_digit(void **state)
{
	struct run_result run;
	struct case_result *c;
	char *text;

	(void)state;
	c = one_phase(&run, "seqio", "write");
	/* ten digits, a whole number: %.9g printed 1.92309248e+09 */
	c->phases[0].work.bytes = 1923092481ULL;
	/* a fraction: ten digits, where %.9g kept nine */
	c->phases[0].wall_ns = 1234567891ULL;
	text = render(&run);
	assert_true(
		!strncmp(sample_value(text, "\nfsprof_phase_workload_bytes{"),
			 "1923092481\n", 11));
	assert_true(!strncmp(sample_value(text, "\nfsprof_phase_wall_seconds{"),
			     "1.234567891\n", 12));
	free(text);
	run_result_free(&run);
}

static void the_top_keeps_the_ten_largest_in_order(void **state)
{
	struct proc_top top;
	unsigned int i;

	(void)state;
	memset(&top, 0, sizeof(top));
	for (i = 1; i <= 15; i++) {
		struct proc_io_record r = { .tgid = i, .bytes = i * 100 };

		proc_top_offer(&top, &r);
	}
	assert_int_equal(top.n, PROC_TOP_MAX);
	for (i = 0; i < PROC_TOP_MAX; i++)
		assert_int_equal(top.v[i].tgid, 15 - i);
	assert_int_equal(top.others, 5);
	assert_int_equal(top.others_bytes, 100 + 200 + 300 + 400 + 500);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(label_values_are_escaped),
		cmocka_unit_test(a_phase_gets_its_families_labels_and_eof),
		cmocka_unit_test(values_keep_every_digit),
		cmocka_unit_test(the_top_keeps_the_ten_largest_in_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
