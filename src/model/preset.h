/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --device-model's names: the presets (hdd, hdd-15k: seeking disks;
 * ssd-sata: a rate model) and custom:riops=N,wiops=N,rbps=N,wbps=N. Every
 * constant of a preset names its source in preset.c and in the man page.
 */
#ifndef FSPROF_MODEL_PRESET_H
#define FSPROF_MODEL_PRESET_H

#include <stddef.h>

#include "results/device_model.h"

/* the names --help lists: "none, hdd, hdd-15k, ssd-sata, custom:..." */
#define DEVICE_MODEL_NAMES \
	"none, hdd, hdd-15k, ssd-sata, custom:riops=N,wiops=N,rbps=N,wbps=N"

/* text into out: 0, or -EINVAL with the reason in err */
int device_model_parse(const char *text, struct device_model *out, char *err,
		       size_t errlen);

#endif
