// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>

#include "history/history.h"
#include "run/run_history.h"
#include "util/log.h"

void run_history_record(const struct run_options *opt,
			const struct run_result *r)
{
	const char *db = opt->db_path ? opt->db_path : history_default_path();
	char err[1024];
	int64_t id;

	/* a case that failed before its first phase is recorded too */
	if (opt->no_db || !r->n_cases)
		return;
	if (history_record(db, r, opt->label, &id, err, sizeof(err))) {
		log_warn(
			"run not recorded: %s; the results%s%s are complete without the history (--no-db skips it)",
			err, opt->json_path ? " in " : " above",
			opt->json_path ? opt->json_path : "");
		return;
	}
	log_info("recorded as run %" PRId64 "%s%s in %s (fsprof report %" PRId64
		 ")",
		 id, opt->label ? ", label " : "", opt->label ? opt->label : "",
		 db, id);
}
