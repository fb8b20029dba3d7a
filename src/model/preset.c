// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "model/preset.h"
#include "util/parse.h"

#define MS 1000000ULL
#define MIB (1024ULL * 1024)

/*
 * The presets (docs/fsprof.1, "DEVICE MODELS", says the same):
 *
 * hdd, a 7200 rpm SATA desktop drive:
 *  - average read seek 8.5 ms: Hitachi Deskstar 7K1000.C specification,
 *    table 9 (the two-platter models);
 *  - one-track seek 1.0 ms and full stroke 20.0 ms (reads): Hitachi's
 *    7200 rpm 7K320 SATA OEM specification, tables 6 and 7;
 *  - 7200 rpm: 8.33 ms a revolution, 4.17 ms average rotational latency;
 *  - 120 MB/s media rate: the earlier hdd model's figure, a mid-disk
 *    sustained rate of such drives (one zone: the model has no zoning);
 *  - 300 MB/s interface: SATA 3 Gb/s after 8b/10b coding;
 *  - 32 MiB write cache: the 7K1000.C's buffer, all of it for writes;
 *  - 0.1 ms command overhead and 512 KiB read-ahead: assumed, of the
 *    order DiskSim's validated drives use.
 *
 * hdd-15k, a 15k rpm SCSI/SAS/FC drive (seed 001's kind of disk):
 *  - average read seek 3.1 ms: Hitachi Ultrastar 15K450 specification,
 *    table 7 (the 300 GB model);
 *  - one-track 0.2 ms and full stroke 6.5 ms: assumed, typical of 15k rpm
 *    drives' data sheets (the 15K450's are not among our references);
 *  - 15,000 rpm: 4 ms a revolution, 2 ms average rotational latency;
 *  - 150 MB/s media and 400 MB/s interface (4 Gb/s Fibre Channel);
 *  - no write cache: SCSI drives in servers run write-through (WCE=0 in
 *    the caching mode page), as arrays and databases set them, so every
 *    write waits for the media; the 15K450's 16 MiB buffer serves
 *    read-ahead only;
 *  - 0.05 ms overhead and 512 KiB read-ahead: assumed.
 *
 * ssd-sata: ~50k IOPS, ~500 MB/s (the SATA 3 link limit).
 */
static const struct device_model presets[] = {
	{ .name = "none", .rotational = -1 },
	{ .name = "hdd",
	  .rotational = 1,
	  .rpm = 7200,
	  .seek_track_ns = 1 * MS,
	  .seek_avg_ns = 8500000,
	  .seek_full_ns = 20 * MS,
	  .media_bps = 120000000,
	  .iface_bps = 300000000,
	  .overhead_ns = 100000,
	  .cache_bytes = 32 * MIB,
	  .readahead_bytes = 512 * 1024 },
	{ .name = "hdd-15k",
	  .rotational = 1,
	  .rpm = 15000,
	  .seek_track_ns = 200000,
	  .seek_avg_ns = 3100000,
	  .seek_full_ns = 6500000,
	  .media_bps = 150000000,
	  .iface_bps = 400000000,
	  .overhead_ns = 50000,
	  .cache_bytes = 0,
	  .readahead_bytes = 512 * 1024 },
	{ .name = "ssd-sata",
	  .riops = 50000,
	  .wiops = 50000,
	  .rbps = 500000000,
	  .wbps = 500000000,
	  .rotational = 0 },
};

static int custom_parse(const char *p, struct device_model *out, char *err,
			size_t errlen)
{
	while (*p) {
		const char *comma = strchr(p, ','), *eq;
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		char key[16], val[64], why[200];
		uint64_t v;

		eq = memchr(p, '=', len);
		if (!eq || (size_t)(eq - p) >= sizeof(key) ||
		    len - (size_t)(eq - p) - 1 >= sizeof(val)) {
			snprintf(err, errlen, "'%.*s' is not key=value",
				 (int)len, p);
			return -EINVAL;
		}
		snprintf(key, sizeof(key), "%.*s", (int)(eq - p), p);
		snprintf(val, sizeof(val), "%.*s",
			 (int)(len - (size_t)(eq - p) - 1), eq + 1);
		if (parse_size(val, &v, why, sizeof(why))) {
			snprintf(err, errlen, "%s: %s", key, why);
			return -EINVAL;
		}
		if (!strcmp(key, "riops"))
			out->riops = v;
		else if (!strcmp(key, "wiops"))
			out->wiops = v;
		else if (!strcmp(key, "rbps"))
			out->rbps = v;
		else if (!strcmp(key, "wbps"))
			out->wbps = v;
		else {
			snprintf(
				err, errlen,
				"unknown limit '%s' (use riops, wiops, rbps, wbps)",
				key);
			return -EINVAL;
		}
		p = comma ? comma + 1 : p + len;
	}
	return 0;
}

int device_model_parse(const char *text, struct device_model *out, char *err,
		       size_t errlen)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < sizeof(presets) / sizeof(presets[0]); i++) {
		if (!strcmp(text, presets[i].name)) {
			*out = presets[i];
			return 0;
		}
	}
	if (!strncmp(text, "custom:", 7)) {
		snprintf(out->name, sizeof(out->name), "custom");
		out->rotational = -1;
		if (custom_parse(text + 7, out, err, errlen))
			return -EINVAL;
		if (!out->riops && !out->wiops && !out->rbps && !out->wbps) {
			snprintf(
				err, errlen,
				"custom: give at least one of riops, wiops, rbps, wbps");
			return -EINVAL;
		}
		return 0;
	}
	snprintf(err, errlen, "unknown device model '%s' (%s)", text,
		 DEVICE_MODEL_NAMES);
	return -EINVAL;
}
