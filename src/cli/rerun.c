// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd_run.h"
#include "cli/run_options.h"
#include "cli/rerun.h"
#include "util/log.h"

/* where results go, the history, how much is said: not the cases */
static const char *const not_cases[] = {
	"json",	   "openmetrics", "csv",       "html",	  "trace",
	"db",	   "no-db",	  "label",     "scratch", "format",
	"verbose", "quiet",	  "case-gate", "kernel",  "help",
};

/* what a guest needs besides its kernel */
static const char *const guest_only[] = { "kernel-modules", "kernel-cmdline",
					  "kernel-timeout" };

static bool listed(const char *name, const char *const *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(name, list[i]))
			return true;
	return false;
}

#define LISTED(name, list) listed(name, list, sizeof(list) / sizeof(list[0]))

int rerun_words_add(struct rerun_words *w, const char *name, const char *value)
{
	int n;

	if (w->n == RERUN_MAX_WORDS)
		return -E2BIG;
	n = value ? asprintf(&w->v[w->n], "--%s=%s", name, value) :
		    asprintf(&w->v[w->n], "--%s", name);
	if (n < 0)
		return -ENOMEM;
	w->n++;
	return 0;
}

/* opt's kept options into rc; 0 or -ENOMEM */
static int rerun_sort(const struct run_options *opt, struct rerun_command *rc)
{
	unsigned int i;
	int err = 0;

	if (opt->kernels)
		snprintf(rc->kernels, sizeof(rc->kernels), "%s", opt->kernels);
	for (i = 0; i < opt->n_guest_args && !err; i++) {
		const struct guest_arg *a = &opt->guest_args[i];

		if (LISTED(a->name, guest_only))
			err = rerun_words_add(&rc->guest, a->name, a->value);
		else if (!LISTED(a->name, not_cases))
			err = rerun_words_add(&rc->cases, a->name, a->value);
	}
	return err;
}

int rerun_command_read(const struct run_result *run, struct rerun_command *rc,
		       char *err, size_t errlen)
{
	static const struct cli_command run_cmd = { .id = CLI_RUN,
						    .no_operands = true,
						    .parsed = cli_option_keep };
	enum log_level level = log_get_level();
	struct run_options *opt;
	int ret;

	memset(rc, 0, sizeof(*rc));
	if (!run->n_command) {
		snprintf(
			err, errlen,
			"its command line was not recorded (fsprof %s ran it, before results had \"command\")",
			run->tool_version[0] ? run->tool_version : "unknown");
		return -ENOENT;
	}
	if (strcmp(run->command[0], "run")) {
		snprintf(
			err, errlen,
			"it was made by fsprof %s, not fsprof run: only a run's cases can be made again",
			run->command[0]);
		return -EINVAL;
	}
	opt = calloc(1, sizeof(*opt));
	if (!opt)
		return -ENOMEM;
	/* its -v or -q is the run's, not this command's */
	ret = cli_parse_options(&run_cmd, (int)run->n_command, run->command,
				opt);
	log_set_level(level);
	if (ret) {
		snprintf(
			err, errlen,
			"its recorded command does not parse with this fsprof (said above)");
		ret = -EINVAL;
	} else if (rerun_sort(opt, rc)) {
		snprintf(err, errlen, "out of memory");
		rerun_command_free(rc);
		ret = -ENOMEM;
	}
	free(opt);
	return ret;
}

void rerun_words_free(struct rerun_words *w)
{
	unsigned int i;

	for (i = 0; i < w->n; i++)
		free(w->v[i]);
	w->n = 0;
}

void rerun_command_free(struct rerun_command *rc)
{
	rerun_words_free(&rc->cases);
	rerun_words_free(&rc->guest);
}
