// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <unistd.h>

#include "report/colour.h"

bool colour_enabled(FILE *out)
{
	const char *no = getenv("NO_COLOR");

	return (!no || !*no) && isatty(fileno(out));
}

const char *colour_start(FILE *out, enum colour_role role)
{
	static const char *const seq[] = {
		[COLOUR_WARNING] = "\033[1;31m", /* bold red */
		[COLOUR_INFO] = "\033[34m", /* blue */
		[COLOUR_OK] = "\033[32m", /* green */
		[COLOUR_HEADING] = "\033[1m", /* bold */
	};

	return colour_enabled(out) ? seq[role] : "";
}

const char *colour_end(FILE *out)
{
	return colour_enabled(out) ? "\033[0m" : "";
}
