// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <string.h>

#include "report/wrap.h"

/* the columns s takes on a terminal: colour escapes take none */
unsigned int visible_len(const char *s)
{
	unsigned int n = 0;

	while (*s) {
		if (*s == '\033') {
			s += strcspn(s, "m");
			s += *s != '\0';
			continue;
		}
		n++;
		s++;
	}
	return n;
}

/* text from column col on, continuation lines at column cont */
static void wrap_from(FILE *out, unsigned int col, unsigned int cont,
		      const char *p)
{
	unsigned int start = col;

	while (*p) {
		size_t word = strcspn(p, " ");

		/* a word longer than any line breaks after a comma that fits */
		if (col + word > TEXT_WIDTH && word > TEXT_WIDTH - cont) {
			size_t fit = col < TEXT_WIDTH ? TEXT_WIDTH - col : 0;

			while (fit && p[fit - 1] != ',')
				fit--;
			if (fit)
				word = fit;
		}
		if (col + word > TEXT_WIDTH && col > start) {
			fprintf(out, "\n%*s", (int)cont, "");
			col = start = cont;
		}
		fprintf(out, "%.*s", (int)word, p);
		col += (unsigned int)word;
		p += word;
		while (*p == ' ') {
			p++;
			if (*p && col + 1 <= TEXT_WIDTH) {
				fputc(' ', out);
				col++;
			}
		}
	}
	fputc('\n', out);
}

void text_wrapped(FILE *out, unsigned int indent, const char *lead,
		  const char *text)
{
	unsigned int col = indent + visible_len(lead);

	fprintf(out, "%*s%s", (int)indent, "", lead);
	wrap_from(out, col, col, text);
}

void text_hanging(FILE *out, unsigned int hang, const char *fmt, ...)
{
	char text[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	wrap_from(out, 0, hang, text);
}
