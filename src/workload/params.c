// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/parse.h"
#include "workload/params.h"

static int param_set(struct param_value *v, const char *text, char *err,
		     size_t errlen)
{
	char why[200];
	char *end;

	snprintf(v->str, sizeof(v->str), "%s", text);
	switch (v->def->type) {
	case PARAM_SIZE:
		if (parse_size(text, &v->num, why, sizeof(why))) {
			snprintf(err, errlen, "%s: %s", v->def->key, why);
			return -EINVAL;
		}
		return 0;
	case PARAM_COUNT:
		errno = 0;
		v->num = strtoull(text, &end, 10);
		if (!*text || *end || errno || text[0] == '-' || !v->num) {
			snprintf(err, errlen,
				 "%s: '%s' is not a positive whole number",
				 v->def->key, text);
			return -EINVAL;
		}
		return 0;
	case PARAM_BOOL:
		if (!strcasecmp(text, "1") || !strcasecmp(text, "yes") ||
		    !strcasecmp(text, "true") || !strcasecmp(text, "on")) {
			v->num = 1;
		} else if (!strcasecmp(text, "0") || !strcasecmp(text, "no") ||
			   !strcasecmp(text, "false") ||
			   !strcasecmp(text, "off")) {
			v->num = 0;
		} else {
			snprintf(err, errlen, "%s: '%s' is not yes or no",
				 v->def->key, text);
			return -EINVAL;
		}
		return 0;
	case PARAM_STRING:
		return 0;
	}
	return -EINVAL;
}

static struct param_value *param_lookup(struct workload_params *p,
					const char *key, size_t keylen)
{
	unsigned int i;

	for (i = 0; i < p->n; i++)
		if (strlen(p->v[i].def->key) == keylen &&
		    !strncmp(p->v[i].def->key, key, keylen))
			return &p->v[i];
	return NULL;
}

static void params_known(const struct workload_params *p, char *buf, size_t len)
{
	size_t off = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < p->n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
					i ? ", " : "", p->v[i].def->key);
}

int params_parse(const struct param_def *defs, unsigned int n_defs,
		 const char *text, enum scale scale,
		 struct workload_params *out, char *err, size_t errlen)
{
	const char *p = text;
	unsigned int i;

	memset(out, 0, sizeof(*out));
	if (n_defs > WORKLOAD_MAX_PARAMS) {
		snprintf(err, errlen, "too many parameters");
		return -E2BIG;
	}
	for (i = 0; i < n_defs; i++) {
		out->v[i].def = &defs[i];
		if (param_set(&out->v[i],
			      scale == SCALE_FULL ? defs[i].full :
						    defs[i].quick,
			      err, errlen))
			return -EINVAL;
	}
	out->n = n_defs;
	while (p && *p) {
		const char *comma = strchr(p, ','), *eq;
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		struct param_value *v;
		char val[256], known[512];

		eq = memchr(p, '=', len);
		if (!eq || eq == p) {
			snprintf(err, errlen, "'%.*s' is not key=value",
				 (int)len, p);
			return -EINVAL;
		}
		v = param_lookup(out, p, (size_t)(eq - p));
		if (!v) {
			params_known(out, known, sizeof(known));
			snprintf(err, errlen,
				 "unknown parameter '%.*s' (known: %s)",
				 (int)(eq - p), p, n_defs ? known : "none");
			return -EINVAL;
		}
		snprintf(val, sizeof(val), "%.*s",
			 (int)(len - (size_t)(eq - p) - 1), eq + 1);
		if (param_set(v, val, err, errlen))
			return -EINVAL;
		p = comma ? comma + 1 : NULL;
	}
	return 0;
}

uint64_t param_num(const struct workload_params *p, const char *key)
{
	unsigned int i;

	for (i = 0; i < p->n; i++)
		if (!strcmp(p->v[i].def->key, key))
			return p->v[i].num;
	return 0;
}

const char *param_str(const struct workload_params *p, const char *key)
{
	unsigned int i;

	for (i = 0; i < p->n; i++)
		if (!strcmp(p->v[i].def->key, key))
			return p->v[i].str;
	return "";
}

void params_format(const struct workload_params *p, char *buf, size_t len)
{
	size_t off = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < p->n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s=%s",
					i ? "," : "", p->v[i].def->key,
					p->v[i].str);
}
