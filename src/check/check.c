// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>

#include "check/check.h"
#include "check/check_probe.h"
#include "util/log.h"

int check_collect(struct check_report *rep, const char *scratch)
{
	memset(rep, 0, sizeof(*rep));
	check_probe_kernel(rep);
	check_probe_btf(rep);
	check_probe_privileges(rep);
	check_probe_tracefs(rep);
	check_probe_tracepoints(rep);
	check_probe_mkfs(rep, "mkfs.ext4", true);
	check_probe_mkfs(rep, "mkfs.xfs", false);
	check_probe_loop(rep);
	check_probe_tools(rep);
	check_probe_scratch(rep, scratch);
	check_probe_fuse(rep);
	return 0;
}

int check_command(int json, const char *scratch)
{
	struct check_report rep;
	bool possible;
	int i;

	check_collect(&rep, scratch);
	possible = check_run_possible(&rep);

	if (json) {
		if (check_print_json(&rep, stdout))
			return 1;
	} else {
		check_print_text(&rep, stdout);
		if (fflush(stdout)) {
			log_error("check: writing the report: %m");
			return 1;
		}
		for (i = 0; i < rep.nr_items; i++) {
			const struct check_item *item = &rep.items[i];

			if (item->required && item->status != CHECK_OK)
				log_error("cannot run: %s: %s", item->name,
					  item->detail);
		}
	}
	return possible ? 0 : CHECK_EXIT_CANNOT_RUN;
}
