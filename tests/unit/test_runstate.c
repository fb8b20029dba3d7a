// SPDX-License-Identifier: GPL-2.0
/* The run state file (src/util/runstate.h) and the teardown that writes it */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "stderr_capture.h"
#include "util/runstate.h"
#include "util/teardown.h"

struct fixture {
	char dir[64];
	struct runstate rs;
};

static int fixture_setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	snprintf(f->dir, sizeof(f->dir), "/tmp/fsprof-runstate.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	*state = f;
	return 0;
}

static int fixture_teardown(void **state)
{
	struct fixture *f = *state;

	unlink(f->rs.path);
	rmdir(f->dir);
	free(f);
	return 0;
}

/* the state file's text */
static char *state_text(const struct fixture *f)
{
	static char text[8192];
	size_t n;
	FILE *in = fopen(f->rs.path, "re");

	assert_non_null(in);
	n = fread(text, 1, sizeof(text) - 1, in);
	fclose(in);
	text[n] = '\0';
	return text;
}

static int undo_ok(void *arg)
{
	(void)arg;
	return 0;
}

static int undo_fails(void *arg)
{
	(void)arg;
	return -EBUSY;
}

static void header_names_the_process_and_the_scratch_directory(void **state)
{
	struct fixture *f = *state;
	char want[128];
	const char *text;

	assert_int_equal(runstate_create(&f->rs, f->dir), 0);
	text = state_text(f);
	snprintf(want, sizeof(want), "fsprof-state 1\npid %d\nstart ",
		 (int)getpid());
	assert_memory_equal(text, want, strlen(want));
	snprintf(want, sizeof(want), "\nscratch %s\n", f->dir);
	assert_non_null(strstr(text, want));
	assert_non_null(strstr(text, "\nboot "));
	assert_non_null(strstr(text, "\ncwd /"));
	runstate_close(&f->rs, false);
}

/* recorded before it is made, marked removed after a successful undo only */
static void a_successful_undo_marks_its_record_removed(void **state)
{
	struct fixture *f = *state;
	struct teardown *td = calloc(1, sizeof(*td));
	struct stderr_capture err;
	int a, b;

	assert_non_null(td);
	assert_int_equal(runstate_create(&f->rs, f->dir), 0);
	td->state = &f->rs;
	a = teardown_record(td, "image", "/x/fsprof.1/image");
	assert_int_equal(a, 1);
	assert_int_equal(teardown_push_recorded(td, a, undo_ok, NULL, "a"), 0);
	b = teardown_record(td, "mount", "/x/fsprof.1/mnt");
	assert_int_equal(b, 2);
	assert_int_equal(teardown_push_recorded(td, b, undo_fails, NULL, "b"),
			 0);
	assert_int_equal(stderr_capture_begin(&err), 0);
	assert_int_equal(teardown_run(td), 1);
	stderr_capture_end(&err);
	assert_int_equal(td->failed, 1);
	assert_non_null(strstr(state_text(f), "+ 1 image /x/fsprof.1/image\n"
					      "+ 2 mount /x/fsprof.1/mnt\n"
					      "- 1\n"));
	assert_null(strstr(state_text(f), "- 2"));
	/* something is left: the file stays for fsprof cleanup */
	runstate_close(&f->rs, td->failed == 0);
	assert_int_equal(access(f->rs.path, F_OK), 0);
	free(td);
}

static void a_clean_run_removes_its_state_file(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(runstate_create(&f->rs, f->dir), 0);
	assert_int_equal(runstate_add(&f->rs, "rundir", "/x/fsprof.2"), 1);
	assert_int_equal(runstate_remove(&f->rs, 1), 0);
	runstate_close(&f->rs, true);
	assert_int_equal(access(f->rs.path, F_OK), -1);
}

/* a newline would make a second record of a path */
static void a_path_with_a_newline_is_refused(void **state)
{
	struct fixture *f = *state;
	struct stderr_capture err;

	assert_int_equal(runstate_create(&f->rs, f->dir), 0);
	assert_int_equal(stderr_capture_begin(&err), 0);
	assert_int_equal(runstate_add(&f->rs, "image", "/x/a\n+ 9 mount /"),
			 -EINVAL);
	stderr_capture_end(&err);
	assert_non_null(strstr(err.text, "newline"));
	assert_null(strstr(state_text(f), "+ 9"));
	runstate_close(&f->rs, true);
}

/* without a state file, recording is a no-op and undos run as before */
static void without_a_state_file_nothing_is_recorded(void **state)
{
	struct teardown *td = calloc(1, sizeof(*td));

	(void)state;
	assert_non_null(td);
	assert_int_equal(teardown_record(td, "image", "/x"), 0);
	assert_int_equal(teardown_push_recorded(td, 0, undo_ok, NULL, "x"), 0);
	assert_int_equal(teardown_run(td), 0);
	free(td);
}

static void proc_start_is_this_process_start_time(void **state)
{
	unsigned long long a = 0, b = 0;

	(void)state;
	assert_int_equal(runstate_proc_start(getpid(), &a), 0);
	assert_int_equal(runstate_proc_start(getpid(), &b), 0);
	assert_true(a > 0);
	assert_true(a == b);
	assert_int_equal(runstate_proc_start(-5, &a), -ENOENT);
}

/* killed, not yet reaped: no process of a live run */
static void proc_start_of_a_zombie_is_esrch(void **state)
{
	unsigned long long a = 0;
	siginfo_t si;
	pid_t pid;

	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (!pid)
		_exit(0);
	/* exited, left a zombie: waited for without reaping it */
	memset(&si, 0, sizeof(si));
	assert_int_equal(waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT), 0);
	assert_int_equal(runstate_proc_start(pid, &a), -ESRCH);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			header_names_the_process_and_the_scratch_directory,
			fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(
			a_successful_undo_marks_its_record_removed,
			fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(
			a_clean_run_removes_its_state_file, fixture_setup,
			fixture_teardown),
		cmocka_unit_test_setup_teardown(
			a_path_with_a_newline_is_refused, fixture_setup,
			fixture_teardown),
		cmocka_unit_test(without_a_state_file_nothing_is_recorded),
		cmocka_unit_test(proc_start_is_this_process_start_time),
		cmocka_unit_test(proc_start_of_a_zombie_is_esrch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
