/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small SVG writer: an <svg> element with its <title>, and the shapes
 * charts are made of. Text is XML-escaped here; coordinates are pixels.
 */
#ifndef FSPROF_REPORT_SVG_H
#define FSPROF_REPORT_SVG_H

#include <stdio.h>

/* write s with &, <, >, " and ' escaped (for HTML too) */
void xml_escape(FILE *out, const char *s);

/* <svg ...><title>title</title><desc>desc</desc> */
void svg_begin(FILE *out, int width, int height, const char *title,
	       const char *desc);
void svg_end(FILE *out);

/* a filled rectangle; tooltip (may be NULL) shows on hover */
void svg_rect(FILE *out, double x, double y, double w, double h,
	      const char *fill, const char *tooltip);

/* dash: NULL for a solid line, else a stroke-dasharray ("4 3") */
void svg_line(FILE *out, double x1, double y1, double x2, double y2,
	      const char *stroke, double width, const char *dash);

enum svg_anchor { SVG_START, SVG_MIDDLE, SVG_END };

struct svg_text_style {
	enum svg_anchor anchor;
	int size; /* px */
	int rotate; /* degrees about (x, y), 0 = none */
	bool bold;
};

void svg_text(FILE *out, double x, double y, const struct svg_text_style *st,
	      const char *text);

/* an open polyline through n points */
void svg_polyline(FILE *out, const double *x, const double *y, unsigned int n,
		  const char *stroke, double width);

#endif
