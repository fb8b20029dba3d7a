// SPDX-License-Identifier: GPL-2.0
/* The teardown registry, src/util/teardown.h */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stderr_capture.h"
#include "util/teardown.h"

/* what the undos did, in the order they ran */
struct undo_log {
	int ran[TEARDOWN_MAX + 1];
	size_t n;
};

/* one registered undo: which step it is, whether it fails, where it logs */
struct undo_step {
	int id;
	int result;
	struct undo_log *log;
};

static int record_undo(void *arg)
{
	struct undo_step *step = arg;

	step->log->ran[step->log->n++] = step->id;
	return step->result;
}

struct fixture {
	struct teardown td;
	struct undo_log log;
	struct undo_step steps[TEARDOWN_MAX + 1];
};

static int fixture_setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	size_t i;

	if (!f)
		return -1;
	for (i = 0; i < TEARDOWN_MAX + 1; i++) {
		f->steps[i].id = (int)i;
		f->steps[i].log = &f->log;
	}
	*state = f;
	return 0;
}

static int fixture_teardown(void **state)
{
	free(*state);
	return 0;
}

/* register steps[0..n) in order */
static void push_steps(struct fixture *f, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		assert_int_equal(teardown_push(&f->td, record_undo,
					       &f->steps[i], "step %zu", i),
				 0);
}

static void undos_run_newest_first(void **state)
{
	struct fixture *f = *state;

	push_steps(f, 4);
	assert_int_equal(teardown_run(&f->td), 0);
	assert_int_equal(f->log.n, 4);
	assert_int_equal(f->log.ran[0], 3);
	assert_int_equal(f->log.ran[1], 2);
	assert_int_equal(f->log.ran[2], 1);
	assert_int_equal(f->log.ran[3], 0);
}

static void run_forgets_the_undos_it_ran(void **state)
{
	struct fixture *f = *state;

	push_steps(f, 3);
	teardown_run(&f->td);
	assert_int_equal(f->td.n, 0);
	assert_int_equal(teardown_run(&f->td), 0);
	assert_int_equal(f->log.n, 3);
}

static void run_to_mark_undoes_only_steps_after_the_mark(void **state)
{
	struct fixture *f = *state;
	size_t mark;

	push_steps(f, 2);
	mark = f->td.n;
	assert_int_equal(
		teardown_push(&f->td, record_undo, &f->steps[2], "step 2"), 0);
	assert_int_equal(
		teardown_push(&f->td, record_undo, &f->steps[3], "step 3"), 0);

	assert_int_equal(teardown_run_to(&f->td, mark), 0);
	assert_int_equal(f->log.n, 2);
	assert_int_equal(f->log.ran[0], 3);
	assert_int_equal(f->log.ran[1], 2);
	assert_int_equal(f->td.n, mark);

	/* the steps before the mark are still registered, and run later */
	assert_int_equal(teardown_run(&f->td), 0);
	assert_int_equal(f->log.n, 4);
	assert_int_equal(f->log.ran[2], 1);
	assert_int_equal(f->log.ran[3], 0);
}

static void failing_undo_is_counted_and_the_others_still_run(void **state)
{
	struct fixture *f = *state;
	struct stderr_capture cap;
	const char *said;
	int failed;

	f->steps[1].result = -EBUSY;
	f->steps[3].result = -EIO;
	push_steps(f, 5);

	assert_int_equal(stderr_capture_begin(&cap), 0);
	failed = teardown_run(&f->td);
	said = stderr_capture_end(&cap);

	assert_int_equal(failed, 2);
	assert_int_equal(f->log.n, 5);
	assert_int_equal(f->log.ran[4], 0);
	assert_int_equal(f->td.n, 0);
	/* each failure is reported by its description */
	assert_non_null(strstr(said, "step 1"));
	assert_non_null(strstr(said, "step 3"));
	assert_null(strstr(said, "step 2"));
}

static void full_registry_refuses_a_push_with_enospc(void **state)
{
	struct fixture *f = *state;

	push_steps(f, TEARDOWN_MAX);
	assert_int_equal(teardown_push(&f->td, record_undo,
				       &f->steps[TEARDOWN_MAX], "one too many"),
			 -ENOSPC);
	assert_int_equal(f->td.n, TEARDOWN_MAX);

	/* the refused undo is not run; all registered ones are */
	assert_int_equal(teardown_run(&f->td), 0);
	assert_int_equal(f->log.n, TEARDOWN_MAX);
	assert_int_equal(f->log.ran[0], TEARDOWN_MAX - 1);
}

static void description_is_formatted_from_its_arguments(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(teardown_push(&f->td, record_undo, &f->steps[0],
				       "unmount %s (%d)", "/var/tmp/x/mnt", 7),
			 0);
	assert_string_equal(f->td.steps[0].what, "unmount /var/tmp/x/mnt (7)");
	assert_ptr_equal(f->td.steps[0].arg, &f->steps[0]);
}

static int record_sigint_blocked(void *arg)
{
	int *blocked = arg;
	sigset_t now;

	sigprocmask(SIG_BLOCK, NULL, &now);
	*blocked = sigismember(&now, SIGINT);
	return 0;
}

static void undo_runs_with_sigint_blocked_and_the_mask_is_restored(void **state)
{
	struct fixture *f = *state;
	sigset_t before, after;
	int blocked = -1;

	sigprocmask(SIG_BLOCK, NULL, &before);
	assert_int_equal(sigismember(&before, SIGINT), 0);
	assert_int_equal(teardown_push(&f->td, record_sigint_blocked, &blocked,
				       "check the mask"),
			 0);
	assert_int_equal(teardown_run(&f->td), 0);
	assert_int_equal(blocked, 1);
	sigprocmask(SIG_BLOCK, NULL, &after);
	assert_int_equal(sigismember(&after, SIGINT), 0);
	assert_int_equal(sigismember(&after, SIGTERM),
			 sigismember(&before, SIGTERM));
}

static void long_description_is_truncated_and_terminated(void **state)
{
	struct fixture *f = *state;
	char longer[512];

	memset(longer, 'a', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	assert_int_equal(teardown_push(&f->td, record_undo, &f->steps[0],
				       "remove %s", longer),
			 0);
	assert_int_equal(strlen(f->td.steps[0].what),
			 sizeof(f->td.steps[0].what) - 1);
	assert_memory_equal(f->td.steps[0].what, "remove aaa", 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(undos_run_newest_first,
						fixture_setup,
						fixture_teardown),
		cmocka_unit_test_setup_teardown(run_forgets_the_undos_it_ran,
						fixture_setup,
						fixture_teardown),
		cmocka_unit_test_setup_teardown(
			run_to_mark_undoes_only_steps_after_the_mark,
			fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(
			failing_undo_is_counted_and_the_others_still_run,
			fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(
			full_registry_refuses_a_push_with_enospc, fixture_setup,
			fixture_teardown),
		cmocka_unit_test_setup_teardown(
			description_is_formatted_from_its_arguments,
			fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(
			undo_runs_with_sigint_blocked_and_the_mask_is_restored,
			fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(
			long_description_is_truncated_and_terminated,
			fixture_setup, fixture_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
