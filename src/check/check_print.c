// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "check/check_print.h"
#include "util/log.h"

void check_print_text(const struct check_report *rep, FILE *out)
{
	int name_width = (int)strlen("ITEM");
	int status_width = (int)strlen("STATUS");
	const char *sep = "";
	int i;

	for (i = 0; i < rep->nr_items; i++) {
		const struct check_item *item = &rep->items[i];
		int status_len = (int)strlen(check_status_name(item->status));

		if ((int)strlen(item->name) > name_width)
			name_width = (int)strlen(item->name);
		if (status_len > status_width)
			status_width = status_len;
	}

	fprintf(out, "%-*s  %-*s  %s\n", name_width, "ITEM", status_width,
		"STATUS", "DETAIL");
	for (i = 0; i < rep->nr_items; i++) {
		const struct check_item *item = &rep->items[i];

		fprintf(out, "%-*s  %-*s  %s\n", name_width, item->name,
			status_width, check_status_name(item->status),
			item->detail);
	}

	for (i = 0, sep = ""; i < rep->nr_items; i++) {
		const struct check_item *item = &rep->items[i];

		if (item->status == CHECK_OK || !item->fix[0])
			continue;
		if (!*sep)
			fprintf(out,
				"\nto add what is missing (a run goes on without it; the option\n"
				"named needs it):\n");
		sep = "  ";
		fprintf(out, "  %-*s  %s\n", name_width, item->name, item->fix);
	}
	sep = "";
	if (check_run_possible(rep)) {
		fprintf(out, "a run is possible\n");
		return;
	}
	fprintf(out, "a run is NOT possible: ");
	for (i = 0; i < rep->nr_items; i++) {
		const struct check_item *item = &rep->items[i];

		if (!item->required || item->status == CHECK_OK)
			continue;
		fprintf(out, "%s%s: %s", sep, item->name, item->detail);
		sep = "; ";
	}
	fputc('\n', out);
}

/* Each json_*_set_new / append_new takes its value even when it fails. */
static int add_items(const struct check_report *rep, json_t *items,
		     json_t *reasons)
{
	int i, err = 0;

	for (i = 0; i < rep->nr_items; i++) {
		const struct check_item *item = &rep->items[i];
		json_t *obj;

		obj = json_pack("{s:s, s:s, s:s, s:b, s:s?}", "name",
				item->name, "status",
				check_status_name(item->status), "detail",
				item->detail, "required", item->required, "fix",
				item->fix[0] ? item->fix : NULL);
		err |= json_array_append_new(items, obj);
		if (item->required && item->status != CHECK_OK)
			err |= json_array_append_new(
				reasons, json_sprintf("%s: %s", item->name,
						      item->detail));
	}
	return err;
}

static int add_tracepoints(const struct check_report *rep, json_t *tps)
{
	int family, err = 0;

	for (family = 0; family < CHECK_TP_NR; family++) {
		int count = rep->tp_count[family];

		err |= json_object_set_new(tps, check_tp_family_name(family),
					   count < 0 ? json_null() :
						       json_integer(count));
	}
	return err;
}

int check_print_json(const struct check_report *rep, FILE *out)
{
	json_t *root = json_object();
	json_t *items = json_array();
	json_t *reasons = json_array();
	json_t *tps = json_object();
	int err = 0;

	if (!root || !items || !reasons || !tps) {
		json_decref(items);
		json_decref(reasons);
		json_decref(tps);
		err = -ENOMEM;
		goto cleanup;
	}
	err |= add_items(rep, items, reasons);
	err |= add_tracepoints(rep, tps);
	err |= json_object_set_new(root, "kernel", json_string(rep->kernel));
	err |= json_object_set_new(root, "run_possible",
				   json_boolean(check_run_possible(rep)));
	err |= json_object_set_new(root, "reasons", reasons);
	err |= json_object_set_new(root, "items", items);
	err |= json_object_set_new(root, "tracepoints", tps);
	if (err) {
		err = -ENOMEM;
		goto cleanup;
	}

	if (json_dumpf(root, out, JSON_INDENT(2)) || fputc('\n', out) == EOF ||
	    fflush(out)) {
		err = -EIO;
		log_error("check: writing the JSON report: %m");
	}

cleanup:
	if (err == -ENOMEM)
		log_error("check: building the JSON report: out of memory");
	json_decref(root);
	return err;
}
