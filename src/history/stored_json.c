// SPDX-License-Identifier: GPL-2.0
/*
 * The stored results JSON: zlib's compress() format, which the sqlite3
 * shell's sqlar_uncompress(data, size) reads back.
 */
#include <errno.h>
#include <stdlib.h>

#include <zlib.h>

#include "history/history_int.h"

int stored_json_pack(const char *json, size_t len, struct packed_json *out)
{
	uLongf z_len = compressBound(len);

	out->len = len;
	out->z = malloc(z_len);
	if (!out->z)
		return -ENOMEM;
	if (compress2(out->z, &z_len, (const Bytef *)json, len, 6) != Z_OK) {
		free(out->z);
		out->z = NULL;
		return -ENOMEM;
	}
	out->z_len = z_len;
	return 0;
}

char *stored_json_unpack(const void *z, size_t z_len, int64_t len)
{
	uLongf got = (uLongf)len;
	char *text;

	if (len < 0 || len > (1LL << 32) || !z)
		return NULL;
	text = malloc((size_t)len + 1);
	if (!text)
		return NULL;
	if (uncompress((Bytef *)text, &got, z, (uLong)z_len) != Z_OK ||
	    got != (uLongf)len) {
		free(text);
		return NULL;
	}
	text[len] = '\0';
	return text;
}
