// SPDX-License-Identifier: GPL-2.0
/* Typed field getters of the results JSON reader, and histograms. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "results/json_read_int.h"
#include "util/histogram.h"

int jread_fail(struct jread *r, const char *where, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	if (r->failed)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(r->err, r->errlen, "%s: %s", where, what);
	r->failed = true;
	return -EINVAL;
}

static int member_typed(struct jread *r, const char *where, json_t *obj,
			const char *key, json_type type, const char *type_name,
			json_t **out)
{
	json_t *v = json_object_get(obj, key);

	*out = NULL;
	if (!v || json_is_null(v))
		return 0;
	if (json_typeof(v) != type)
		return jread_fail(r, where, "'%s' is not %s", key, type_name);
	*out = v;
	return 0;
}

int jread_object(struct jread *r, const char *where, json_t *obj,
		 const char *key, json_t **out)
{
	return member_typed(r, where, obj, key, JSON_OBJECT, "an object", out);
}

int jread_array(struct jread *r, const char *where, json_t *obj,
		const char *key, json_t **out)
{
	return member_typed(r, where, obj, key, JSON_ARRAY, "an array", out);
}

static bool as_u64(json_t *v, uint64_t *out)
{
	if (json_is_integer(v) && json_integer_value(v) >= 0) {
		*out = (uint64_t)json_integer_value(v);
		return true;
	}
	if (json_is_real(v) && json_real_value(v) >= 0 &&
	    json_real_value(v) < 1.8e19 &&
	    json_real_value(v) == floor(json_real_value(v))) {
		*out = (uint64_t)json_real_value(v);
		return true;
	}
	return false;
}

int jread_value_u64(struct jread *r, const char *where, json_t *v,
		    uint64_t *out)
{
	if (as_u64(v, out))
		return 0;
	return jread_fail(r, where, "not a non-negative integer");
}

int jread_u64(struct jread *r, const char *where, json_t *obj, const char *key,
	      uint64_t *out)
{
	json_t *v = json_object_get(obj, key);

	if (!v || as_u64(v, out))
		return 0;
	return jread_fail(r, where, "'%s' is not a non-negative integer", key);
}

int jread_uint(struct jread *r, const char *where, json_t *obj, const char *key,
	       unsigned int *out)
{
	uint64_t v = *out;
	int err = jread_u64(r, where, obj, key, &v);

	if (err)
		return err;
	if (v > UINT32_MAX)
		return jread_fail(r, where, "'%s' is out of range (%llu)", key,
				  (unsigned long long)v);
	*out = (unsigned int)v;
	return 0;
}

int jread_bool(struct jread *r, const char *where, json_t *obj, const char *key,
	       bool *out)
{
	json_t *v = json_object_get(obj, key);

	if (!v)
		return 0;
	if (!json_is_boolean(v))
		return jread_fail(r, where, "'%s' is not true or false", key);
	*out = json_is_true(v);
	return 0;
}

int jread_double(struct jread *r, const char *where, json_t *obj,
		 const char *key, double *out)
{
	json_t *v = json_object_get(obj, key);

	if (!v)
		return 0;
	if (json_is_null(v)) {
		*out = NAN;
		return 0;
	}
	if (!json_is_number(v))
		return jread_fail(r, where, "'%s' is not a number", key);
	*out = json_number_value(v);
	return 0;
}

int jread_str(struct jread *r, const char *where, json_t *obj, const char *key,
	      char *buf, size_t size)
{
	json_t *v = json_object_get(obj, key);
	size_t len;

	if (!v)
		return 0;
	if (json_is_null(v)) {
		buf[0] = '\0';
		return 0;
	}
	if (!json_is_string(v))
		return jread_fail(r, where, "'%s' is not a string", key);
	len = json_string_length(v);
	if (len >= size || strlen(json_string_value(v)) != len)
		return jread_fail(
			r, where,
			"'%s' is %s (fsprof writes at most %zu bytes there)",
			key, len >= size ? "too long" : "a string with a NUL",
			size - 1);
	memcpy(buf, json_string_value(v), len + 1);
	return 0;
}

/* one bucket {"low", "high", "count"}: low must start a slot */
static int hist_bucket(struct jread *r, const char *where, json_t *b,
		       struct latency_hist *h)
{
	uint64_t low = 0, count = 0;
	unsigned int slot;

	if (!json_is_object(b) || !json_object_get(b, "low") ||
	    !json_object_get(b, "count"))
		return jread_fail(r, where,
				  "a histogram bucket needs low and count");
	if (jread_u64(r, where, b, "low", &low) ||
	    jread_u64(r, where, b, "count", &count))
		return -EINVAL;
	slot = hist_slot(low);
	if (slot >= HIST_NSLOTS || hist_slot_low(slot) != low)
		return jread_fail(
			r, where,
			"bucket low %llu is not where a histogram slot starts",
			(unsigned long long)low);
	h->slot[slot] += count;
	return 0;
}

int jread_hist(struct jread *r, const char *where, json_t *obj,
	       struct latency_hist *h)
{
	json_t *buckets, *b;
	size_t i;

	memset(h, 0, sizeof(*h));
	if (!json_is_object(obj))
		return jread_fail(r, where, "a histogram is not an object");
	if (jread_u64(r, where, obj, "count", &h->count) ||
	    jread_u64(r, where, obj, "sum", &h->sum_ns) ||
	    jread_u64(r, where, obj, "max", &h->max_ns) ||
	    jread_array(r, where, obj, "histogram", &buckets))
		return -EINVAL;
	json_array_foreach(buckets, i,
			   b) if (hist_bucket(r, where, b, h)) return -EINVAL;
	return 0;
}
