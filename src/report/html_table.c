// SPDX-License-Identifier: GPL-2.0
#include <stdbool.h>

#include "report/html_table.h"
#include "report/svg.h"

void html_text(FILE *out, const char *s)
{
	xml_escape(out, s);
}

void html_el(FILE *out, const char *tag, const char *text)
{
	fprintf(out, "<%s>", tag);
	html_text(out, text);
	fprintf(out, "</%s>\n", tag);
}

void html_cell_num(FILE *out, const char *fmt, double v)
{
	fputs("<td>", out);
	fprintf(out, fmt, v);
	fputs("</td>", out);
}

static void html_cell(FILE *out, const char *tag, const struct html_cell *c)
{
	bool left = c->kind != HTML_CELL_NUM;

	fprintf(out, "<%s", tag);
	if (left || c->cls) {
		fprintf(out, " class=\"%s%s", left ? "l" : "",
			left && c->cls ? " " : "");
		html_text(out, c->cls ? c->cls : "");
		fputc('"', out);
	}
	fputc('>', out);
	if (c->kind == HTML_CELL_CODE)
		fputs("<code>", out);
	html_text(out, c->text);
	if (c->kind == HTML_CELL_CODE)
		fputs("</code>", out);
	fprintf(out, "</%s>", tag);
}

void html_row(FILE *out, const char *tag, const struct html_cell *cells,
	      unsigned int n)
{
	unsigned int i;

	fputs("<tr>", out);
	for (i = 0; i < n; i++)
		html_cell(out, tag, &cells[i]);
	fputs("</tr>\n", out);
}

void html_table_start(FILE *out, const struct html_cell *heads, unsigned int n)
{
	fputs("<table>\n", out);
	html_row(out, "th", heads, n);
}
