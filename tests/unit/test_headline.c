// SPDX-License-Identifier: GPL-2.0
/* The summary first (results/headline.c, report/headline_text.c): which
 * phases it names, the verified advice and the differences it keeps, and
 * that its text stays within 15 lines of 100 columns whatever the run. */
#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analyze_fixture.h"
#include "report/headline_text.h"
#include "results/headline.h"
#include "results/json.h"
#include "written_text.h"

static void add_finding(struct phase_result *p, const char *rule,
			enum finding_severity sev, double speedup,
			const char *verdict)
{
	struct finding f;

	memset(&f, 0, sizeof(f));
	snprintf(f.rule, sizeof(f.rule), "%s", rule);
	snprintf(f.title, sizeof(f.title), "%s is %s", p->name, rule);
	snprintf(f.mechanism, sizeof(f.mechanism), "because");
	f.severity = sev;
	if (speedup > 0) {
		f.verified.done = true;
		f.verified.ratio = speedup;
		f.verified.ci_lo = speedup * 0.9;
		f.verified.ci_hi = speedup * 1.1;
		snprintf(f.verified.verdict, sizeof(f.verified.verdict), "%s",
			 verdict);
		snprintf(f.verified.applied, sizeof(f.verified.applied),
			 "mount logbsize=256k");
		f.verified.after_s = (double)p->wall_ns / 1e9 / speedup;
	}
	assert_int_equal(finding_list_add(&p->findings, &f), 0);
}

static void verdict(struct phase_result *p, enum bound_kind b)
{
	p->verdict.done = true;
	p->verdict.bound = b;
	p->verdict.n_shares = 1;
	snprintf(p->verdict.shares[0].name, sizeof(p->verdict.shares[0].name),
		 "device_busy");
	p->verdict.shares[0].value = 0.9;
}

/* make run's shape: untar (4 phases) on three targets */
static void untar_on(struct run_result *run, const char *name, double ex,
		     double ex_sync, double rm, double rm_sync)
{
	struct case_result *c = fx_case(run, "xfs", name, 4);

	snprintf(c->workload, sizeof(c->workload), "untar");
	snprintf(c->target_name, sizeof(c->target_name), "%s", name);
	verdict(fx_phase(c, "extract", ex), BOUND_CPU);
	verdict(fx_phase(c, "ex-sync", ex_sync), BOUND_DEVICE);
	verdict(fx_phase(c, "remove", rm), BOUND_CPU);
	verdict(fx_phase(c, "rm-sync", rm_sync), BOUND_LOG);
}

static unsigned int count_lines(const char *s, unsigned int *widest)
{
	unsigned int n = 0, w = 0;

	*widest = 0;
	for (; *s; s++) {
		if (*s == '\n') {
			n++;
			w = 0;
			continue;
		}
		if (++w > *widest)
			*widest = w;
	}
	return n;
}

static char *headline_text(const struct run_result *run)
{
	FILE *f = written_begin();

	report_headline(run, f);
	return written_text(f);
}

static void the_phases_that_took_the_time_and_the_explained_ones(void **state)
{
	struct run_result run = { 0 };
	struct headline h;
	unsigned int i;
	bool rm_sync = false;

	(void)state;
	untar_on(&run, "ext4", 1.2, 18.5, 0.35, 0.08);
	untar_on(&run, "xfs", 0.6, 16.4, 0.35, 1.16);
	untar_on(&run, "xfs#2", 0.6, 15.1, 0.34, 0.15);
	/* the short phase's warning, verified: 7.9x */
	add_finding(&run.cases[1].phases[3], "xfs-log-io-bound",
		    FINDING_WARNING, 7.9, "confirmed");
	assert_int_equal(headline_build(&run, &h), 0);
	/* the three ex-syncs hold 90% of the time: they and the warning */
	assert_true(h.n_rows >= 4);
	for (i = 0; i < h.n_rows; i++) {
		rm_sync |= !strcmp(h.rows[i].phase, "rm-sync") &&
			   !strcmp(h.rows[i].target, "xfs");
		assert_true(h.rows[i].share > 0 && h.rows[i].share <= 1);
	}
	assert_true(rm_sync);
	assert_string_equal(h.rows[0].phase, "ex-sync");
	assert_string_equal(h.rows[0].bound, "device");
	assert_int_equal(h.n_verified, 1);
	assert_string_equal(h.rows[h.verified[0]].finding->rule,
			    "xfs-log-io-bound");
	/* what it left out is counted, with its share */
	assert_int_equal(h.left_out + h.n_rows, 12);
	assert_true(h.left_out_s > 0 && h.left_out_s < 0.2 * h.total_s);
	run_result_free(&run);
}

static void many_targets_and_warnings_stay_within_15_lines(void **state)
{
	struct run_result run = { 0 };
	unsigned int t, lines, widest;
	char name[16], *text;

	(void)state;
	/* 12 targets, a different warning on every phase, half verified */
	for (t = 0; t < 12; t++) {
		snprintf(name, sizeof(name), "t%u", t);
		untar_on(&run, name, 1 + t, 10 + t, 0.3, 1 + 0.1 * t);
		add_finding(&run.cases[t].phases[t % 4], name, FINDING_WARNING,
			    t % 2 ? 1.5 + t : 0, "confirmed");
		add_finding(&run.cases[t].phases[(t + 1) % 4], "common-rule",
			    FINDING_WARNING, 0, "");
	}
	text = headline_text(&run);
	lines = count_lines(text, &widest);
	print_message("%s", text);
	assert_true(lines >= 5 && lines <= HEADLINE_MAX_LINES);
	assert_true(widest <= 100);
	/* the verified advice is there, the best confirmed first */
	assert_non_null(strstr(text, "verified: t11 untar"));
	free(text);
	run_result_free(&run);
}

/* --kernel's targets, ext4@6.12.118 and the like, are long: a merged
 * row's go on in their own column, the share and bound stay in theirs */
static void guest_targets_go_on_in_their_column(void **state)
{
	struct run_result run = { 0 };
	const char *rel[] = { "6.1.0-57-amd64", "6.12.118+deb12-amd64" };
	const char *fs[] = { "ext4", "xfs" };
	unsigned int k, t, lines, widest;
	char *text, *row, *next;
	size_t share_col;

	(void)state;
	for (k = 0; k < 2; k++)
		for (t = 0; t < 2; t++) {
			untar_on(&run, fs[t], 1, 10 + k + t, 0.3, 0.2);
			run.cases[run.n_cases - 1].kernel.guest = true;
			snprintf(run.cases[run.n_cases - 1].kernel.release,
				 sizeof(run.cases[0].kernel.release), "%s",
				 rel[k]);
			snprintf(run.cases[run.n_cases - 1].kernel.source,
				 sizeof(run.cases[0].kernel.source),
				 "linux-image-%s", rel[k]);
		}
	text = headline_text(&run);
	print_message("%s", text);
	lines = count_lines(text, &widest);
	assert_true(lines <= HEADLINE_MAX_LINES);
	assert_true(widest <= 100);
	/* named as the tables name them */
	assert_non_null(strstr(text, "ext4@6.12.118"));
	assert_null(strstr(text, "+deb12"));
	/* the ex-sync row: its share where the header has it, its other
	 * targets on the next line, under the first */
	share_col = (size_t)(strstr(text, "share") - strchr(text, '\n') - 1) +
		    strlen("share");
	row = strstr(text, "\nuntar ex-sync ");
	assert_non_null(row);
	row++;
	next = strchr(row, '\n') + 1;
	assert_int_equal(row[share_col - 1], '%');
	assert_int_equal(next[0], ' ');
	assert_int_equal(strspn(next, " "),
			 strstr(text, "targets") - strchr(text, '\n') - 1);
	assert_non_null(strstr(next, "@6.1"));
	free(text);
	run_result_free(&run);
}

static void the_json_says_what_the_text_says(void **state)
{
	struct run_result run = { 0 };
	json_t *root, *rows, *row;
	struct headline h;
	size_t i;

	(void)state;
	untar_on(&run, "ext4", 1.2, 18.5, 0.35, 0.08);
	untar_on(&run, "xfs", 0.6, 16.4, 0.35, 1.16);
	add_finding(&run.cases[1].phases[3], "xfs-log-io-bound",
		    FINDING_WARNING, 7.9, "confirmed");
	assert_int_equal(headline_build(&run, &h), 0);
	root = results_to_json(&run);
	rows = json_object_get(json_object_get(root, "summary"), "headline");
	assert_int_equal(json_array_size(rows), h.n_rows);
	json_array_foreach(rows, i, row)
	{
		assert_string_equal(
			json_string_value(json_object_get(row, "phase")),
			h.rows[i].phase);
		assert_true(json_real_value(json_object_get(row, "wall_s")) ==
			    h.rows[i].wall_s);
		if (!strcmp(h.rows[i].phase, "rm-sync") &&
		    !strcmp(h.rows[i].target, "xfs")) {
			json_t *v = json_object_get(row, "verified");

			assert_string_equal(
				json_string_value(json_object_get(row, "rule")),
				"xfs-log-io-bound");
			assert_true(json_real_value(json_object_get(
					    v, "speedup")) == 7.9);
		}
	}
	json_decref(root);
	run_result_free(&run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			the_phases_that_took_the_time_and_the_explained_ones),
		cmocka_unit_test(
			many_targets_and_warnings_stay_within_15_lines),
		cmocka_unit_test(guest_targets_go_on_in_their_column),
		cmocka_unit_test(the_json_says_what_the_text_says),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
