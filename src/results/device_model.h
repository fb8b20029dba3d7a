/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The slow-device model: one struct from --device-model's parse
 * (target/throttle.c) through the throttle and the results to the JSON and
 * every text. A run's model is kept in its target's results as this struct
 * and where its throttle sat (struct model_result); the JSON's device_model
 * string and device_model_stack, the history's device_model column and the
 * reports' lines are all made from it, none stored beside it.
 */
#ifndef FSPROF_DEVICE_MODEL_H
#define FSPROF_DEVICE_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct device_model {
	char name[16]; /* none, hdd, ssd-sata, custom */
	uint64_t riops, wiops; /* IOs per second, 0 = no limit */
	uint64_t rbps, wbps; /* bytes per second, 0 = no limit */
	int rotational; /* the traced device's queue/rotational: 1, 0, -1 = as is */
};

/* enough for device_model_format's longest text: four 20-digit limits */
#define DEVICE_MODEL_TEXT_LEN 128

/* is m a model that limits anything (not NULL, not "none", not unnamed)? */
bool device_model_active(const struct device_model *m);

/*
 * "hdd: riops=150 wiops=150 rbps=120000000 wbps=120000000", or "none" when
 * m is not active: the JSON's device_model, the history's column, the
 * text. Returns buf.
 */
const char *device_model_format(const struct device_model *m, char *buf,
				size_t len);

/*
 * The text device_model_format made, read back into m (a results file
 * written before device_model_stack existed has only the text): 0, or
 * -EINVAL when text is neither "none" nor that shape.
 */
int device_model_unformat(const char *text, struct device_model *m);

#endif
