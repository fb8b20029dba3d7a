// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd_run.h"
#include "cli/cmd_usage.h"
#include "cli/rerun.h"
#include "util/log.h"

/* where results go, the history, how much is said: not the cases */
static const char *const not_cases[] = {
	"json", "openmetrics", "csv",	  "html",  "trace",     "db",
	"no-db", "label",	"scratch", "format", "verbose", "quiet",
	"case-gate", "kernel", "help",
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

/* every option parsed, kept as run keeps its guests' options */
static int rerun_keep(struct cli_values *v, const struct cli_option *o,
		      const char *arg)
{
	struct run_options *opt = v->run;

	if (opt->n_guest_args == GUEST_MAX_ARGS)
		return cmd_usage_error(v->cmd, "more than %d options",
				       GUEST_MAX_ARGS);
	opt->guest_args[opt->n_guest_args].name = o->name;
	opt->guest_args[opt->n_guest_args].value = arg;
	opt->n_guest_args++;
	return 0;
}

static int words_add(struct rerun_words *w, const struct guest_arg *a)
{
	int n;

	if (w->n == RERUN_MAX_WORDS)
		return -E2BIG;
	n = a->value ? asprintf(&w->v[w->n], "--%s=%s", a->name, a->value) :
		       asprintf(&w->v[w->n], "--%s", a->name);
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
			err = words_add(&rc->guest, a);
		else if (!LISTED(a->name, not_cases))
			err = words_add(&rc->cases, a);
	}
	return err;
}

int rerun_command_read(const struct run_result *run, struct rerun_command *rc,
		       char *err, size_t errlen)
{
	static const struct cli_command run_cmd = { .id = CLI_RUN,
						    .no_operands = true,
						    .parsed = rerun_keep };
	enum log_level level = log_get_level();
	struct run_options *opt;
	int ret;

	memset(rc, 0, sizeof(*rc));
	if (!run->n_command) {
		snprintf(err, errlen,
			 "its command line was not recorded (fsprof %s ran it, before results had \"command\")",
			 run->tool_version[0] ? run->tool_version : "unknown");
		return -ENOENT;
	}
	if (strcmp(run->command[0], "run")) {
		snprintf(err, errlen,
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
		snprintf(err, errlen,
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

static void words_free(struct rerun_words *w)
{
	unsigned int i;

	for (i = 0; i < w->n; i++)
		free(w->v[i]);
	w->n = 0;
}

void rerun_command_free(struct rerun_command *rc)
{
	words_free(&rc->cases);
	words_free(&rc->guest);
}
