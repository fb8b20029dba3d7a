/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pieces of the HTML report's text and tables (html.c, html_classic.c):
 * every string escaped, every row made one way, styled by the report's
 * stylesheet (numbers right-aligned, text left, specs in <code>).
 */
#ifndef FSPROF_REPORT_HTML_TABLE_H
#define FSPROF_REPORT_HTML_TABLE_H

#include <stdio.h>

enum html_cell_kind {
	HTML_CELL_NUM, /* right-aligned, as numbers are */
	HTML_CELL_TEXT, /* left-aligned */
	HTML_CELL_CODE, /* left-aligned, in <code>: a spec, a command */
};

struct html_cell {
	const char *text;
	enum html_cell_kind kind;
	const char *cls; /* a class of its own ("differs"), or NULL */
};

/* the cells of most rows: no class of their own */
#define HTML_TEXT(s)                      \
	{                                 \
		(s), HTML_CELL_TEXT, NULL \
	}
#define HTML_NUM(s)                      \
	{                                \
		(s), HTML_CELL_NUM, NULL \
	}
#define HTML_CODE(s)                      \
	{                                 \
		(s), HTML_CELL_CODE, NULL \
	}

/* s, escaped */
void html_text(FILE *out, const char *s);

/* <tag>text</tag> with text escaped */
void html_el(FILE *out, const char *tag, const char *text);

/* <td> of v printed with fmt */
void html_cell_num(FILE *out, const char *fmt, double v);

/* a <tr> of n cells, each a <tag> ("td", or "th" for a header) */
void html_row(FILE *out, const char *tag, const struct html_cell *cells,
	      unsigned int n);

/* <table> and its header row of n heads */
void html_table_start(FILE *out, const struct html_cell *heads, unsigned int n);

#endif
