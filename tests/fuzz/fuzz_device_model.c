// SPDX-License-Identifier: GPL-2.0
/*
 * The --device-model parser (target/throttle.c): a preset, a custom model
 * with at least one limit, or an error that says why.
 */
#include <stdint.h>
#include <string.h>

#include "fuzz.h"
#include "target/throttle.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstring(data, size), err[256], desc[128];
	struct device_model m;

	err[0] = '\0';
	if (device_model_parse(text, &m, err, sizeof(err))) {
		FUZZ_ASSERT(err[0]);
	} else {
		FUZZ_ASSERT(memchr(m.name, '\0', sizeof(m.name)));
		if (!strcmp(m.name, "custom"))
			FUZZ_ASSERT(m.riops || m.wiops || m.rbps || m.wbps);
		device_model_format(&m, desc, sizeof(desc));
	}
	free(text);
	return 0;
}
