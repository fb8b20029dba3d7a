// SPDX-License-Identifier: GPL-2.0
/* A results file or a recorded run, as a command line names it. */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "history/history.h"
#include "results/json_read.h"

int history_load_arg(const char *db_path, const char *arg,
		     struct run_result *out, char *err, size_t errlen)
{
	/* a file of that name wins: ./17 is read, not run 17 */
	if (access(arg, F_OK) && errno == ENOENT && history_ref_syntax(arg))
		return history_load(db_path ? db_path : history_default_path(),
				    arg, out, err, errlen);
	return results_read_json(arg, out, err, errlen);
}
