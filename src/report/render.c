// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <jansson.h>
#include <string.h>

#include "report/bonnie.h"
#include "report/csv.h"
#include "report/html.h"
#include "report/openmetrics.h"
#include "report/render.h"
#include "report/text.h"
#include "report/trace_export.h"
#include "results/json.h"
#include "util/log.h"

static int render_text(const struct run_result *run, FILE *out)
{
	report_text(run, out);
	report_bonnie_tables(run, NULL, out);
	return 0;
}

static int render_json(const struct run_result *run, FILE *out)
{
	json_t *root = results_to_json(run);
	int err = 0;

	if (!root) {
		log_error("building the JSON results failed: out of memory");
		return -ENOMEM;
	}
	if (json_dumpf(root, out, JSON_INDENT(2) | JSON_SORT_KEYS) ||
	    fputc('\n', out) == EOF) {
		log_error("writing the JSON results failed");
		err = -EIO;
	}
	json_decref(root);
	return err;
}

static int render_csv(const struct run_result *run, FILE *out)
{
	report_csv(run, out);
	return 0;
}

static int render_html(const struct run_result *run, FILE *out)
{
	report_html(run, out);
	return 0;
}

static int render_openmetrics(const struct run_result *run, FILE *out)
{
	report_openmetrics(run, out);
	return 0;
}

static const struct {
	const char *name;
	int (*render)(const struct run_result *run, FILE *out);
} formats[] = {
	{ "text", render_text },
	{ "json", render_json },
	{ "csv", render_csv },
	{ "html", render_html },
	{ "trace", trace_export_stream }, /* gzip-compressed */
	{ "openmetrics", render_openmetrics },
};

#define N_FORMATS (sizeof(formats) / sizeof(formats[0]))

bool report_format_known(const char *name)
{
	unsigned int i;

	for (i = 0; i < N_FORMATS; i++)
		if (!strcmp(formats[i].name, name))
			return true;
	return false;
}

const char *report_format_list(void)
{
	static char list[128];
	unsigned int i;

	if (!list[0])
		for (i = 0; i < N_FORMATS; i++)
			snprintf(list + strlen(list),
				 sizeof(list) - strlen(list), "%s%s",
				 i ? "|" : "", formats[i].name);
	return list;
}

int report_render(const struct run_result *run, const char *format, FILE *out)
{
	unsigned int i;

	for (i = 0; i < N_FORMATS; i++)
		if (!strcmp(formats[i].name, format))
			return formats[i].render(run, out);
	log_error("unknown format '%s' (%s)", format, report_format_list());
	return -EINVAL;
}
