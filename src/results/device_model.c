// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "results/device_model.h"

bool device_model_active(const struct device_model *m)
{
	return m && m->name[0] && strcmp(m->name, "none");
}

const char *device_model_format(const struct device_model *m, char *buf,
				size_t len)
{
	if (!device_model_active(m)) {
		snprintf(buf, len, "none");
		return buf;
	}
	snprintf(buf, len, "%s: riops=%llu wiops=%llu rbps=%llu wbps=%llu",
		 m->name, (unsigned long long)m->riops,
		 (unsigned long long)m->wiops, (unsigned long long)m->rbps,
		 (unsigned long long)m->wbps);
	return buf;
}

int device_model_unformat(const char *text, struct device_model *m)
{
	unsigned long long riops, wiops, rbps, wbps;
	int end = 0;

	memset(m, 0, sizeof(*m));
	m->rotational = -1;
	if (!text[0] || !strcmp(text, "none")) {
		snprintf(m->name, sizeof(m->name), "none");
		return 0;
	}
	if (sscanf(text, "%15[^:]: riops=%llu wiops=%llu rbps=%llu wbps=%llu%n",
		   m->name, &riops, &wiops, &rbps, &wbps, &end) != 5 ||
	    text[end])
		return -EINVAL;
	m->riops = riops;
	m->wiops = wiops;
	m->rbps = rbps;
	m->wbps = wbps;
	return 0;
}
