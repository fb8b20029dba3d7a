/* SPDX-License-Identifier: GPL-2.0 */
/* Workload parameters: "-w files1m:files=4000,size=1M" and scale defaults. */
#ifndef FSPROF_PARAMS_H
#define FSPROF_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#define WORKLOAD_MAX_PARAMS 16

enum param_type {
	PARAM_SIZE, /* bytes with a unit: 4k, 1M */
	PARAM_COUNT, /* a plain positive integer */
	PARAM_STRING,
	PARAM_BOOL, /* 0/1, yes/no, true/false */
};

enum scale { SCALE_QUICK, SCALE_FULL };

struct param_def {
	const char *key;
	enum param_type type;
	const char *quick; /* default at --scale quick */
	const char *full; /* default at --scale full */
	const char *help;
};

struct param_value {
	const struct param_def *def;
	uint64_t num; /* PARAM_SIZE, PARAM_COUNT, PARAM_BOOL */
	char str[256]; /* as given (or the default's text) */
};

struct workload_params {
	unsigned int n;
	struct param_value v[WORKLOAD_MAX_PARAMS];
};

/*
 * Fill out with every parameter of defs: the scale's default, overridden by
 * "key=val,key=val" in text (may be NULL). Unknown keys and bad values are
 * errors with a reason in err.
 */
int params_parse(const struct param_def *defs, unsigned int n_defs,
		 const char *text, enum scale scale,
		 struct workload_params *out, char *err, size_t errlen);

/* the value of key (0 / "" when the workload has no such parameter) */
uint64_t param_num(const struct workload_params *p, const char *key);
const char *param_str(const struct workload_params *p, const char *key);

/* "files=4000,size=1M": every parameter, canonical order */
void params_format(const struct workload_params *p, char *buf, size_t len);

#endif
