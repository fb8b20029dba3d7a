/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The slow-device model: IOPS and bandwidth limits via the cgroup v1 blkio
 * throttle of the root cgroup. For image targets the throttle sits on a
 * lower loop device under the traced one (see target.c), so that it charges
 * merged requests and holds every issuer; for --dir and --device it can only
 * sit on the traced disk itself. Removed again by teardown.
 */
#ifndef FSPROF_THROTTLE_H
#define FSPROF_THROTTLE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "results/device_model.h"
#include "util/teardown.h"

#define THROTTLE_DIR "/sys/fs/cgroup/blkio"

/*
 * none | hdd | ssd-sata | custom:riops=N,wiops=N,rbps=N,wbps=N
 * (bps values take size units: 120M). Returns 0 or -EINVAL with err set.
 */
int device_model_parse(const char *text, struct device_model *out, char *err,
		       size_t errlen);

/* is the throttle interface there and writable? reason in err if not */
int throttle_available(char *err, size_t errlen);

/*
 * Set the model's limits on dev (traced_disk: the traced disk of --dir or
 * --device, not a loop of fsprof's own); the removal goes onto td.
 */
int throttle_apply(const struct device_model *m, dev_t dev, bool traced_disk,
		   struct teardown *td);

/* a blkio throttle rule for dev is set (any of the four limits) */
bool throttle_rule_present(dev_t dev);

/* Remove every throttle rule of dev (fsprof cleanup). 0 or -errno. */
int throttle_remove_rules(dev_t dev);

#endif
