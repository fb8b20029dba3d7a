// SPDX-License-Identifier: GPL-2.0
/*
 * fsprof report of a saved run (cli_report): the findings shown are the
 * saved ones, what was found when the run ran; --reanalyze re-runs this
 * fsprof's rules instead and says so.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "analyze_fixture.h"
#include "cli/commands.h"
#include "results/json.h"
#include "results/results.h"
#include "run/run.h"
#include "version.h"

/* a rule id no rule of fsprof has: only the saved file can hold it */
#define SAVED_RULE "rule-of-an-older-fsprof"

static char saved_path[64];
static char out_text[1 << 20];

/* a run of one quiet phase, saved with a finding no current rule makes */
static int saved_run_setup(void **state)
{
	struct run_result *run = calloc(1, sizeof(*run));
	struct case_result *c;
	struct phase_result *p;
	struct finding f;
	int fd;

	(void)state;
	if (!run)
		return -1;
	snprintf(run->tool_version, sizeof(run->tool_version), "0.1-saved");
	c = fx_case(run, "ext4", "ext4", 1);
	p = fx_phase(c, "write", 2.0);
	memset(&f, 0, sizeof(f));
	snprintf(f.rule, sizeof(f.rule), SAVED_RULE);
	snprintf(f.domain, sizeof(f.domain), "ext4");
	f.severity = FINDING_WARNING;
	snprintf(f.title, sizeof(f.title), "write was judged by an older rule");
	snprintf(f.mechanism, sizeof(f.mechanism), "saved with the run");
	if (finding_list_add(&p->findings, &f))
		return -1;
	snprintf(saved_path, sizeof(saved_path), "/tmp/fsprof-saved.XXXXXX");
	fd = mkstemp(saved_path);
	if (fd < 0)
		return -1;
	close(fd);
	fd = results_write_json(run, saved_path);
	run_result_free(run);
	free(run);
	return fd;
}

static int saved_run_teardown(void **state)
{
	(void)state;
	unlink(saved_path);
	return 0;
}

/* cli_report on argv; its stdout into out_text; its exit code */
static int report_run(const char **args)
{
	char *argv[8];
	FILE *tmp = tmpfile();
	int saved_fd, argc = 0, code;
	size_t n;

	assert_non_null(tmp);
	while (args[argc]) {
		argv[argc] = (char *)args[argc];
		argc++;
	}
	argv[argc] = NULL;
	fflush(stdout);
	saved_fd = dup(STDOUT_FILENO);
	assert_true(saved_fd >= 0);
	assert_true(dup2(fileno(tmp), STDOUT_FILENO) >= 0);
	code = cli_report(argc, argv);
	fflush(stdout);
	dup2(saved_fd, STDOUT_FILENO);
	close(saved_fd);
	rewind(tmp);
	n = fread(out_text, 1, sizeof(out_text) - 1, tmp);
	out_text[n] = '\0';
	fclose(tmp);
	return code;
}

static void report_shows_the_findings_the_run_was_saved_with(void **state)
{
	const char *text[] = { "report", saved_path, NULL };
	const char *json[] = { "report", saved_path, "--format", "json", NULL };

	(void)state;
	assert_int_equal(report_run(text), EXIT_OK);
	assert_non_null(strstr(out_text, "write was judged by an older rule"));
	assert_null(strstr(out_text, "re-analysed"));
	assert_int_equal(report_run(json), EXIT_OK);
	assert_non_null(strstr(out_text, "\"" SAVED_RULE "\""));
}

static void reanalyze_reruns_the_rules_and_says_by_which_fsprof(void **state)
{
	const char *text[] = { "report", "--reanalyze", saved_path, NULL };
	const char *json[] = { "report",   "--reanalyze", "-q", saved_path,
			       "--format", "json",	  NULL };
	char want[160];

	(void)state;
	snprintf(
		want, sizeof(want),
		"findings re-analysed by fsprof %s's rules (the run's own, found by fsprof 0.1-saved, are not shown",
		FSPROF_VERSION);
	assert_int_equal(report_run(text), EXIT_OK);
	assert_ptr_equal(strstr(out_text, want), out_text);
	assert_null(strstr(out_text, "write was judged by an older rule"));
	/* a file format holds no note, and no finding of the old rule */
	assert_int_equal(report_run(json), EXIT_OK);
	assert_null(strstr(out_text, "re-analysed"));
	assert_null(strstr(out_text, SAVED_RULE));
	assert_non_null(strstr(out_text, "\"findings\""));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			report_shows_the_findings_the_run_was_saved_with),
		cmocka_unit_test(
			reanalyze_reruns_the_rules_and_says_by_which_fsprof),
	};

	return cmocka_run_group_tests(tests, saved_run_setup,
				      saved_run_teardown);
}
