// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>

#include "util/log.h"
#include "util/teardown.h"

static int teardown_vpush(struct teardown *td, int record, teardown_fn undo,
			  void *arg, const char *fmt, va_list ap)
{
	struct teardown_step *step;

	if (td->n >= TEARDOWN_MAX)
		return -ENOSPC;
	step = &td->steps[td->n];
	step->undo = undo;
	step->arg = arg;
	step->record = record > 0 ? record : 0;
	vsnprintf(step->what, sizeof(step->what), fmt, ap);
	td->n++;
	return 0;
}

int teardown_push(struct teardown *td, teardown_fn undo, void *arg,
		  const char *fmt, ...)
{
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = teardown_vpush(td, 0, undo, arg, fmt, ap);
	va_end(ap);
	return err;
}

int teardown_push_recorded(struct teardown *td, int record, teardown_fn undo,
			   void *arg, const char *fmt, ...)
{
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = teardown_vpush(td, record, undo, arg, fmt, ap);
	va_end(ap);
	return err;
}

int teardown_record(struct teardown *td, const char *kind, const char *arg)
{
	return td->state ? runstate_add(td->state, kind, arg) : 0;
}

int teardown_run_to(struct teardown *td, size_t mark)
{
	sigset_t block, old;
	int failed = 0;

	/* a second Ctrl-C must not cut the teardown short */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGPIPE); /* a log line to a closed pipe: EPIPE */
	sigprocmask(SIG_BLOCK, &block, &old);

	while (td->n > mark) {
		struct teardown_step *step = &td->steps[--td->n];
		int err = step->undo(step->arg);

		if (err) {
			log_error("teardown: %s failed: %s", step->what,
				  strerror_safe(err < 0 ? -err : err));
			failed++;
			td->failed++;
		} else {
			log_debug("teardown: %s", step->what);
			if (step->record && td->state)
				runstate_remove(td->state, step->record);
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return failed;
}

int teardown_run(struct teardown *td)
{
	return teardown_run_to(td, 0);
}
