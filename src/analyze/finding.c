// SPDX-License-Identifier: GPL-2.0
/* Building a finding: title, evidence lines, advice, mechanism text. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "analyze/analyze_int.h"

void finding_title(struct finding *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f->title, sizeof(f->title), fmt, ap);
	va_end(ap);
}

void finding_evidence(struct finding *f, const char *metric, double value,
		      double share, double threshold, const char *fmt, ...)
{
	struct evidence *e;
	va_list ap;

	if (f->n_evidence == FINDING_MAX_EVIDENCE)
		return;
	e = &f->ev[f->n_evidence++];
	memset(e, 0, sizeof(*e));
	snprintf(e->metric, sizeof(e->metric), "%s", metric);
	e->value = value;
	e->share = share;
	e->threshold = threshold;
	va_start(ap, fmt);
	vsnprintf(e->text, sizeof(e->text), fmt, ap);
	va_end(ap);
}

void finding_advice(struct finding *f, enum advice_kind kind,
		    const char *option, const char *fmt, ...)
{
	va_list ap;

	f->advice.kind = kind;
	snprintf(f->advice.option, sizeof(f->advice.option), "%s",
		 option ? option : "");
	va_start(ap, fmt);
	vsnprintf(f->advice.text, sizeof(f->advice.text), fmt, ap);
	va_end(ap);
}

void finding_mechanism_append(struct finding *f, const char *fmt, ...)
{
	size_t len = strlen(f->mechanism);
	va_list ap;

	if (len + 2 >= sizeof(f->mechanism))
		return;
	if (len)
		f->mechanism[len++] = ' ';
	va_start(ap, fmt);
	vsnprintf(f->mechanism + len, sizeof(f->mechanism) - len, fmt, ap);
	va_end(ap);
}

void analyze_format_bytes(double bytes, char *buf, size_t len)
{
	if (bytes >= 1e9)
		snprintf(buf, len, "%.2f GB", bytes / 1e9);
	else if (bytes >= 1e6)
		snprintf(buf, len, "%.1f MB", bytes / 1e6);
	else if (bytes >= 1024)
		snprintf(buf, len, "%.1f KiB", bytes / 1024);
	else
		snprintf(buf, len, "%.0f B", bytes);
}
