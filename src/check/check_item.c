// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "check/check_item.h"
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

bool check_run_possible(const struct check_report *rep)
{
	int i;

	for (i = 0; i < rep->nr_items; i++)
		if (rep->items[i].required && rep->items[i].status != CHECK_OK)
			return false;
	return true;
}
