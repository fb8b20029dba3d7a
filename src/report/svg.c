// SPDX-License-Identifier: GPL-2.0
#include <stdbool.h>

#include "report/svg.h"

void xml_escape(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		case '\'':
			fputs("&#39;", out);
			break;
		default:
			fputc(*s, out);
		}
	}
}

void svg_begin(FILE *out, int width, int height, const char *title,
	       const char *desc)
{
	fprintf(out,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" font-family=\"sans-serif\">\n<title>",
		width, height, width, height);
	xml_escape(out, title);
	fputs("</title>\n", out);
	if (desc) {
		fputs("<desc>", out);
		xml_escape(out, desc);
		fputs("</desc>\n", out);
	}
}

void svg_end(FILE *out)
{
	fputs("</svg>\n", out);
}

void svg_rect(FILE *out, double x, double y, double w, double h,
	      const char *fill, const char *tooltip)
{
	fprintf(out,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"",
		x, y, w, h, fill);
	if (!tooltip) {
		fputs("/>\n", out);
		return;
	}
	fputs("><title>", out);
	xml_escape(out, tooltip);
	fputs("</title></rect>\n", out);
}

void svg_line(FILE *out, double x1, double y1, double x2, double y2,
	      const char *stroke, double width, const char *dash)
{
	fprintf(out,
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%.1f\"",
		x1, y1, x2, y2, stroke, width);
	if (dash)
		fprintf(out, " stroke-dasharray=\"%s\"", dash);
	fputs("/>\n", out);
}

void svg_text(FILE *out, double x, double y, const struct svg_text_style *st,
	      const char *text)
{
	static const char *const anchors[] = { "start", "middle", "end" };

	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\"", x, y,
		st->size);
	if (st->anchor != SVG_START)
		fprintf(out, " text-anchor=\"%s\"", anchors[st->anchor]);
	if (st->bold)
		fputs(" font-weight=\"bold\"", out);
	if (st->rotate)
		fprintf(out, " transform=\"rotate(%d %.1f %.1f)\"", st->rotate,
			x, y);
	fputc('>', out);
	xml_escape(out, text);
	fputs("</text>\n", out);
}

void svg_polyline(FILE *out, const double *x, const double *y, unsigned int n,
		  const char *stroke, double width)
{
	unsigned int i;

	fprintf(out,
		"<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\" points=\"",
		stroke, width);
	for (i = 0; i < n; i++)
		fprintf(out, "%s%.1f,%.1f", i ? " " : "", x[i], y[i]);
	fputs("\"/>\n", out);
}
