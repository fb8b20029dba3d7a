/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FSPROF_IMAGE_H
#define FSPROF_IMAGE_H

#include <stdint.h>

#include "util/teardown.h"

/* Create a new sparse file of size bytes (never an existing one). */
int image_create(const char *path, uint64_t size, struct teardown *td);

#endif
