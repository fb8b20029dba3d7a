// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "target/stack_spec.h"

int stack_spec_parse_raid(const char *text, struct stack_spec *s, char *why,
			  size_t len)
{
	unsigned long n;
	char *end;

	if ((text[0] != '0' && text[0] != '1') || text[1] != ':' || !text[2] ||
	    text[2] == '-' || text[2] == '+') {
		snprintf(
			why, len,
			"--raid takes LEVEL:N, LEVEL 0 or 1 (e.g. 0:2), not '%s'",
			text);
		return -EINVAL;
	}
	errno = 0;
	n = strtoul(text + 2, &end, 10);
	if (errno || *end || n < 2 || n > STACK_SPEC_MAX_MEMBERS) {
		snprintf(
			why, len,
			"--raid %s: N, the number of loop members, is a whole number from 2 to %d",
			text, STACK_SPEC_MAX_MEMBERS);
		return -EINVAL;
	}
	s->raid_level = (unsigned int)(text[0] - '0');
	s->raid_members = (unsigned int)n;
	snprintf(s->raid_text, sizeof(s->raid_text), "%s", text);
	return 0;
}

int stack_spec_parse_dm(const char *text, struct stack_spec *s, char *why,
			size_t len)
{
	if (strcmp(text, "linear")) {
		snprintf(why, len,
			 "--dm takes linear (a dm-linear device), not '%s'",
			 text);
		return -EINVAL;
	}
	s->dm_linear = true;
	return 0;
}

bool stack_spec_active(const struct stack_spec *s)
{
	return s->raid_members || s->dm_linear;
}

void stack_spec_describe(const struct stack_spec *s, char *buf, size_t len)
{
	if (s->raid_members && s->dm_linear)
		snprintf(buf, len,
			 "md raid%u of %u loop members, dm-linear on it",
			 s->raid_level, s->raid_members);
	else if (s->raid_members)
		snprintf(buf, len, "md raid%u of %u loop members",
			 s->raid_level, s->raid_members);
	else if (s->dm_linear)
		snprintf(buf, len, "dm-linear on a loop device");
	else
		snprintf(buf, len, "no stack");
}

/* the n-th name of out is one of those before it */
static bool listed(const char *out, size_t len, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!strcmp(out + i * len, out + n * len))
			return true;
	return false;
}

int stack_devices_parse(const char *list, char *out, size_t len,
			unsigned int max, char *why, size_t whylen)
{
	unsigned int n = 0;
	const char *p = list;

	for (;;) {
		size_t l = strcspn(p, ",");

		if (!l || l >= len || n >= max) {
			if (n >= max)
				snprintf(why, whylen,
					 "--device %s: more than %u devices",
					 list, max);
			else
				snprintf(why, whylen,
					 "--device %s: a device name is %s",
					 list, l ? "too long" : "empty");
			return -EINVAL;
		}
		memcpy(out + n * len, p, l);
		out[n * len + l] = '\0';
		if (listed(out, len, n)) {
			snprintf(why, whylen, "--device %s: %s is given twice",
				 list, out + n * len);
			return -EINVAL;
		}
		n++;
		if (!p[l])
			return (int)n;
		p += l + 1;
	}
}

unsigned int stack_spec_devices(const struct stack_spec *s)
{
	return s && s->raid_members ? s->raid_members : 1;
}
