// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "check/check.h"
#include "check/check_probe.h"
#include "util/log.h"

static const char *const tp_family_names[CHECK_TP_NR] = {
	[CHECK_TP_EXT4] = "ext4",
	[CHECK_TP_JBD2] = "jbd2",
	[CHECK_TP_XFS] = "xfs",
	[CHECK_TP_BLOCK] = "block",
	[CHECK_TP_WRITEBACK] = "writeback",
};

const char *check_tp_family_name(enum check_tp_family family)
{
	if (family < 0 || family >= CHECK_TP_NR)
		return "?";
	return tp_family_names[family];
}

const char *check_status_name(enum check_status status)
{
	switch (status) {
	case CHECK_OK:
		return "ok";
	case CHECK_WARN:
		return "warn";
	case CHECK_MISSING:
		return "missing";
	}
	return "?";
}

struct check_item *check_add_item(struct check_report *rep, const char *name,
				  bool required)
{
	struct check_item *item;

	if (rep->nr_items >= CHECK_ITEMS_MAX) {
		log_error(
			"check: no room for item '%s' (raise CHECK_ITEMS_MAX)",
			name);
		return NULL;
	}
	item = &rep->items[rep->nr_items++];
	memset(item, 0, sizeof(*item));
	item->name = name;
	item->required = required;
	item->status = CHECK_MISSING;
	return item;
}

void check_item_set(struct check_item *item, enum check_status status,
		    const char *fmt, ...)
{
	va_list ap;

	item->status = status;
	va_start(ap, fmt);
	vsnprintf(item->detail, sizeof(item->detail), fmt, ap);
	va_end(ap);
}

int check_collect(struct check_report *rep)
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
	check_probe_blkio_throttle(rep);
	return 0;
}

bool check_run_possible(const struct check_report *rep)
{
	int i;

	for (i = 0; i < rep->nr_items; i++)
		if (rep->items[i].required && rep->items[i].status != CHECK_OK)
			return false;
	return true;
}

int check_command(int json)
{
	struct check_report rep;
	bool possible;
	int i;

	check_collect(&rep);
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
