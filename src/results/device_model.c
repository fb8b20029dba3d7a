// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "results/device_model.h"

bool device_model_active(const struct device_model *m)
{
	return m && m->name[0] && strcmp(m->name, "none");
}

bool model_engine_held(const struct model_engine *e)
{
	return !e->modelled_ns ||
	       (double)e->short_excess_ns <=
		       MODEL_NOT_HELD_SHARE * (double)e->modelled_ns;
}

#define SEEKING_FMT                                                        \
	"%s: rpm=%u seek_ns=%llu/%llu/%llu media_bps=%llu iface_bps=%llu " \
	"overhead_ns=%llu cache=%llu readahead=%llu"

const char *device_model_format(const struct device_model *m, char *buf,
				size_t len)
{
	if (!device_model_active(m)) {
		snprintf(buf, len, "none");
		return buf;
	}
	if (m->rpm) {
		snprintf(buf, len, SEEKING_FMT, m->name, m->rpm,
			 (unsigned long long)m->seek_track_ns,
			 (unsigned long long)m->seek_avg_ns,
			 (unsigned long long)m->seek_full_ns,
			 (unsigned long long)m->media_bps,
			 (unsigned long long)m->iface_bps,
			 (unsigned long long)m->overhead_ns,
			 (unsigned long long)m->cache_bytes,
			 (unsigned long long)m->readahead_bytes);
		return buf;
	}
	snprintf(buf, len, "%s: riops=%llu wiops=%llu rbps=%llu wbps=%llu",
		 m->name, (unsigned long long)m->riops,
		 (unsigned long long)m->wiops, (unsigned long long)m->rbps,
		 (unsigned long long)m->wbps);
	return buf;
}

static int unformat_seeking(const char *text, struct device_model *m)
{
	unsigned long long v[8];
	int end = 0;

	if (sscanf(text,
		   "%15[^:]: rpm=%u seek_ns=%llu/%llu/%llu media_bps=%llu iface_bps=%llu overhead_ns=%llu cache=%llu readahead=%llu%n",
		   m->name, &m->rpm, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
		   &v[6], &v[7], &end) != 10 ||
	    text[end] || !m->rpm)
		return -EINVAL;
	m->seek_track_ns = v[0];
	m->seek_avg_ns = v[1];
	m->seek_full_ns = v[2];
	m->media_bps = v[3];
	m->iface_bps = v[4];
	m->overhead_ns = v[5];
	m->cache_bytes = v[6];
	m->readahead_bytes = v[7];
	m->rotational = 1;
	return 0;
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
	if (strstr(text, " rpm="))
		return unformat_seeking(text, m);
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

const char *device_model_describe(const struct device_model *m, char *buf,
				  size_t len)
{
	if (!device_model_active(m) || !m->rpm)
		return device_model_format(m, buf, len);
	snprintf(
		buf, len,
		"%s (%u rpm, seeks %.1f/%.1f/%.1f ms, %.0f MB/s, %llu MiB write cache)",
		m->name, m->rpm, (double)m->seek_track_ns / 1e6,
		(double)m->seek_avg_ns / 1e6, (double)m->seek_full_ns / 1e6,
		(double)m->media_bps / 1e6,
		(unsigned long long)(m->cache_bytes >> 20));
	return buf;
}
