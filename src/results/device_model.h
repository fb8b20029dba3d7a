/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The slow-device model: one struct from --device-model's parse
 * (model/preset.c) through the engine (target/model_daemon.c) and the
 * results to the JSON and every text. A run's model is kept in its
 * target's results as this struct and where the model sat (struct
 * model_result); the JSON's device_model string and device_model_stack,
 * the history's device_model column and the reports' lines are all made
 * from it, none stored beside it.
 */
#ifndef FSPROF_DEVICE_MODEL_H
#define FSPROF_DEVICE_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct device_model {
	char name[16]; /* none, hdd, hdd-15k, ssd-sata, custom */
	/* a rate model (rpm 0): */
	uint64_t riops, wiops; /* IOs per second, 0 = no limit */
	uint64_t rbps, wbps; /* bytes per second, 0 = no limit */
	int rotational; /* the traced device's queue/rotational: 1, 0, -1 = as is */
	/* a seeking disk (rpm > 0), model/disk.h: */
	uint32_t rpm;
	/* seek times: one track, the average over all pairs, full stroke */
	uint64_t seek_track_ns, seek_avg_ns, seek_full_ns;
	uint64_t media_bps; /* media transfer rate */
	uint64_t iface_bps; /* host interface rate (cache hits) */
	uint64_t overhead_ns; /* command overhead */
	uint64_t cache_bytes; /* volatile write cache, 0 = write through */
	uint64_t readahead_bytes; /* read-ahead after a read */
};

/*
 * The engine that served the model (target/model_daemon.c), over the case:
 * its own round trip, the requests the model charged and their modelled
 * time, and those shorter than the round trip (run at the engine's speed,
 * not the model's), with the time they ran over.
 */
struct model_engine {
	uint64_t round_trip_ns;
	uint64_t charged, modelled_ns;
	uint64_t short_requests, short_excess_ns;
};

/* enough for device_model_format's longest text: eleven 20-digit values */
#define DEVICE_MODEL_TEXT_LEN 320

/*
 * The engine held the model unless the requests the model wanted shorter
 * than the engine's round trip ran over it by more than this share of all
 * the modelled time: a tenth, the calibration's tolerance (a model's
 * figures within 10%).
 */
#define MODEL_NOT_HELD_SHARE 0.10

/* e held its model (an engine that charged nothing held it) */
bool model_engine_held(const struct model_engine *e);

/* is m a model that limits anything (not NULL, not "none", not unnamed)? */
bool device_model_active(const struct device_model *m);

/*
 * "custom: riops=0 wiops=100 rbps=0 wbps=0" (a rate model), "hdd: rpm=7200
 * seek_ns=1000000/8500000/20000000 media_bps=... iface_bps=...
 * overhead_ns=... cache=... readahead=..." (a seeking disk), or "none"
 * when m is not active: the JSON's device_model, the history's column,
 * the text. Returns buf.
 */
const char *device_model_format(const struct device_model *m, char *buf,
				size_t len);

/*
 * For people: a seeking disk as "hdd (7200 rpm, seeks 1.0/8.5/20.0 ms,
 * 120 MB/s, 32 MiB write cache)", a rate model as device_model_format.
 * Returns buf.
 */
const char *device_model_describe(const struct device_model *m, char *buf,
				  size_t len);

/*
 * The text device_model_format made, read back into m (a results file
 * written before device_model_stack existed has only the text): 0, or
 * -EINVAL when text is neither "none" nor that shape.
 */
int device_model_unformat(const char *text, struct device_model *m);

#endif
