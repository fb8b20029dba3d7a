// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "target/throttle.h"
#include "util/log.h"
#include "util/parse.h"
#include "util/sysfile.h"

/* the presets, documented in --help and the README */
static const struct device_model presets[] = {
	{ "none", 0, 0, 0, 0, -1 },
	/* a 7200 rpm disk: ~150 random IOPS, ~120 MB/s sequential */
	{ "hdd", 150, 150, 120000000, 120000000, 1 },
	/* a SATA SSD: ~50k IOPS, ~500 MB/s (the SATA 3 link limit) */
	{ "ssd-sata", 50000, 50000, 500000000, 500000000, 0 },
};

static const char *const throttle_files[] = {
	"blkio.throttle.read_iops_device", "blkio.throttle.write_iops_device",
	"blkio.throttle.read_bps_device", "blkio.throttle.write_bps_device"
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
	snprintf(
		err, errlen,
		"unknown device model '%s' (none, hdd, ssd-sata, custom:riops=N,wiops=N,rbps=N,wbps=N)",
		text);
	return -EINVAL;
}

int throttle_available(char *err, size_t errlen)
{
	char path[128];
	size_t i;

	for (i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/%s", THROTTLE_DIR,
			 throttle_files[i]);
		if (access(path, W_OK)) {
			snprintf(
				err, errlen,
				"the cgroup v1 blkio throttle is not available: %s: %s (--device-model needs the blkio controller mounted at %s)",
				path, strerror_safe(errno), THROTTLE_DIR);
			return -ENOTSUP;
		}
	}
	return 0;
}

static int throttle_write(const char *file, dev_t dev, uint64_t value)
{
	char path[128], line[64];

	snprintf(path, sizeof(path), "%s/%s", THROTTLE_DIR, file);
	snprintf(line, sizeof(line), "%u:%u %llu\n", major(dev), minor(dev),
		 (unsigned long long)value);
	return sysfile_write(path, line);
}

struct throttle_undo_arg {
	dev_t dev;
};

static int throttle_remove(void *arg)
{
	struct throttle_undo_arg *u = arg;
	int i, err = 0, e;

	/* writing 0 removes the rule */
	for (i = 0; i < 4; i++) {
		e = throttle_write(throttle_files[i], u->dev, 0);
		if (e && !err)
			err = e;
	}
	free(u);
	return err;
}

bool throttle_rule_present(dev_t dev)
{
	char path[128], prefix[32], line[128];
	bool found = false;
	size_t i;
	FILE *f;

	snprintf(prefix, sizeof(prefix), "%u:%u ", major(dev), minor(dev));
	for (i = 0; i < 4 && !found; i++) {
		snprintf(path, sizeof(path), "%s/%s", THROTTLE_DIR,
			 throttle_files[i]);
		f = fopen(path, "re");
		if (!f)
			continue;
		while (!found && fgets(line, sizeof(line), f))
			found = !strncmp(line, prefix, strlen(prefix));
		fclose(f);
	}
	return found;
}

int throttle_remove_rules(dev_t dev)
{
	struct throttle_undo_arg *u = malloc(sizeof(*u));

	if (!u)
		return -ENOMEM;
	u->dev = dev;
	return throttle_remove(u);
}

int throttle_apply(const struct device_model *m, dev_t dev, bool traced_disk,
		   struct teardown *td)
{
	const uint64_t limits[4] = { m->riops, m->wiops, m->rbps, m->wbps };
	struct throttle_undo_arg *undo;
	char why[256], devno[32];
	int i, err, rec;

	if (!device_model_active(m))
		return 0;
	if (throttle_available(why, sizeof(why))) {
		log_error("%s", why);
		return -ENOTSUP;
	}
	undo = malloc(sizeof(*undo));
	if (!undo)
		return -ENOMEM;
	undo->dev = dev;
	snprintf(devno, sizeof(devno), "%u:%u", major(dev), minor(dev));
	/* fsprof cleanup proves a loop of its own by its backing file, a
	 * traced disk by the record alone */
	rec = teardown_record(td, traced_disk ? "disk-throttle" : "throttle",
			      devno);
	if (rec < 0) {
		free(undo);
		return rec;
	}
	err = teardown_push_recorded(td, rec, throttle_remove, undo,
				     "remove the blkio throttle on %s", devno);
	if (err) {
		free(undo);
		return err;
	}
	for (i = 0; i < 4; i++) {
		if (!limits[i])
			continue;
		err = throttle_write(throttle_files[i], dev, limits[i]);
		if (err) {
			log_error("set %s/%s to %llu for %u:%u: %s",
				  THROTTLE_DIR, throttle_files[i],
				  (unsigned long long)limits[i], major(dev),
				  minor(dev), strerror_safe(-err));
			return err;
		}
	}
	return 0;
}
