// SPDX-License-Identifier: GPL-2.0
/* What a command line names runs by: labels, and "17", "latest", "label:X". */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history/history.h"
#include "history/history_int.h"

#define LABEL_PREFIX "label:"

int history_label_check(const char *label, char *err, size_t errlen)
{
	size_t n = strlen(label), i;

	if (!n || n >= HISTORY_LABEL_MAX) {
		snprintf(err, errlen, "a label has 1 to %d characters, not %zu",
			 HISTORY_LABEL_MAX - 1, n);
		return -EINVAL;
	}
	for (i = 0; i < n; i++)
		if ((unsigned char)label[i] <= ' ' ||
		    (unsigned char)label[i] >= 0x7f) {
			snprintf(
				err, errlen,
				"label '%s': only printable characters without spaces",
				label);
			return -EINVAL;
		}
	return 0;
}

static bool ref_is_id(const char *ref, int64_t *id)
{
	char *end;
	long long v;

	if (ref[0] < '0' || ref[0] > '9')
		return false;
	errno = 0;
	v = strtoll(ref, &end, 10);
	if (errno || *end || v < 1)
		return false;
	*id = v;
	return true;
}

bool history_ref_parse(const char *ref, struct history_ref *out)
{
	memset(out, 0, sizeof(*out));
	if (ref_is_id(ref, &out->id) || !strcmp(ref, "latest"))
		return true;
	if (strncmp(ref, LABEL_PREFIX, strlen(LABEL_PREFIX)) ||
	    !ref[strlen(LABEL_PREFIX)])
		return false;
	out->label = ref + strlen(LABEL_PREFIX);
	return true;
}

bool history_ref_syntax(const char *ref)
{
	struct history_ref parsed;

	return history_ref_parse(ref, &parsed);
}
