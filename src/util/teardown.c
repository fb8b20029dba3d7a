// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>

#include "util/log.h"
#include "util/teardown.h"

int teardown_push(struct teardown *td, teardown_fn undo, void *arg,
		  const char *fmt, ...)
{
	struct teardown_step *step;
	va_list ap;

	if (td->n >= TEARDOWN_MAX)
		return -ENOSPC;
	step = &td->steps[td->n];
	step->undo = undo;
	step->arg = arg;
	va_start(ap, fmt);
	vsnprintf(step->what, sizeof(step->what), fmt, ap);
	va_end(ap);
	td->n++;
	return 0;
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
	sigprocmask(SIG_BLOCK, &block, &old);

	while (td->n > mark) {
		struct teardown_step *step = &td->steps[--td->n];
		int err = step->undo(step->arg);

		if (err) {
			log_error("teardown: %s failed: %s", step->what,
				  strerror_safe(err < 0 ? -err : err));
			failed++;
		} else {
			log_debug("teardown: %s", step->what);
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return failed;
}

int teardown_run(struct teardown *td)
{
	return teardown_run_to(td, 0);
}
