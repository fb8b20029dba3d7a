// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/results.h"
#include "util/histogram.h"

const char *blk_opclass_name(enum blk_opclass c)
{
	static const char *const names[BLK_OPC_NR] = {
		[BLK_OPC_READ] = "read",   [BLK_OPC_WRITE] = "write",
		[BLK_OPC_FLUSH] = "flush", [BLK_OPC_DISCARD] = "discard",
		[BLK_OPC_OTHER] = "other",
	};

	return c < BLK_OPC_NR ? names[c] : "?";
}

const char *blk_ioclass_name(enum blk_ioclass c)
{
	static const char *const names[BLK_IOC_NR] = {
		[BLK_IOC_DATA_READ] = "data_read",
		[BLK_IOC_DATA_WRITE] = "data_write",
		[BLK_IOC_META_READ] = "meta_read",
		[BLK_IOC_META_WRITE] = "meta_write",
		[BLK_IOC_LOG_READ] = "log_read",
		[BLK_IOC_LOG_WRITE] = "log_write",
		[BLK_IOC_FLUSH] = "flush",
		[BLK_IOC_DISCARD] = "discard",
		[BLK_IOC_OTHER] = "other",
	};

	return c < BLK_IOC_NR ? names[c] : "?";
}

const char *blk_issuer_name(enum blk_issuer i)
{
	static const char *const names[BLK_ISS_NR] = {
		[BLK_ISS_WORKLOAD] = "workload",
		[BLK_ISS_JBD2] = "jbd2",
		[BLK_ISS_XFS_LOG] = "xfs_log",
		[BLK_ISS_XFS_AIL] = "xfsaild",
		[BLK_ISS_WRITEBACK] = "writeback",
		[BLK_ISS_KWORKER] = "kworker",
		[BLK_ISS_OTHER] = "other",
		[BLK_ISS_UNSEEN] = "unseen",
	};

	return i < BLK_ISS_NR ? names[i] : "?";
}

enum blk_opclass blk_ioclass_op(enum blk_ioclass c)
{
	switch (c) {
	case BLK_IOC_DATA_READ:
	case BLK_IOC_META_READ:
	case BLK_IOC_LOG_READ:
		return BLK_OPC_READ;
	case BLK_IOC_DATA_WRITE:
	case BLK_IOC_META_WRITE:
	case BLK_IOC_LOG_WRITE:
		return BLK_OPC_WRITE;
	case BLK_IOC_FLUSH:
		return BLK_OPC_FLUSH;
	case BLK_IOC_DISCARD:
		return BLK_OPC_DISCARD;
	default:
		return BLK_OPC_OTHER;
	}
}

const char *attach_state_name(enum attach_state s)
{
	switch (s) {
	case ATTACH_ATTACHED:
		return "attached";
	case ATTACH_MISSING:
		return "missing";
	case ATTACH_FAILED:
		return "failed";
	}
	return "?";
}

void block_result_total(const struct block_result *b,
			struct block_class_result *out)
{
	unsigned int c;

	memset(out, 0, sizeof(*out));
	for (c = 0; c < BLK_OPC_NR; c++)
		block_class_add(out, &b->cls[c]);
}

void block_class_add(struct block_class_result *into,
		     const struct block_class_result *c)
{
	into->ios += c->ios;
	into->bytes += c->bytes;
	into->preflush += c->preflush;
	into->fua += c->fua;
	into->unseen += c->unseen;
	latency_hist_add(&into->lat, &c->lat);
	latency_hist_add(&into->size, &c->size);
}

void block_result_free(struct block_result *b)
{
	free(b->io);
	b->io = NULL;
	b->n_io = 0;
}

static double phase_seconds(const struct phase_result *p)
{
	return (double)p->wall_ns / 1e9;
}

double phase_mb_per_s(const struct phase_result *p)
{
	return p->wall_ns ? (double)p->work.bytes / 1e6 / phase_seconds(p) : 0;
}

double phase_mib_per_s(const struct phase_result *p)
{
	return p->wall_ns ?
		       (double)p->work.bytes / 1048576.0 / phase_seconds(p) :
		       0;
}

double phase_cpu_percent(const struct phase_result *p)
{
	return p->wall_ns ? 100.0 * (double)(p->user_ns + p->sys_ns) /
				    (double)p->wall_ns :
			    0;
}

double phase_files_per_s(const struct phase_result *p)
{
	return p->wall_ns ? (double)p->work.files / phase_seconds(p) : 0;
}

const char *case_target_name(const struct case_result *c)
{
	return c->target_name[0] ? c->target_name : c->target_label;
}

void case_kernel_target_name(const struct case_result *c, char *buf, size_t len)
{
	const char *rel = c->kernel.release;
	int n;

	if (!c->kernel.guest) {
		snprintf(buf, len, "%s", case_target_name(c));
		return;
	}
	n = snprintf(buf, len, "%.31s@%.*s", case_target_name(c),
		     (int)strcspn(rel, "-+"), rel);
	if (c->kernel.slot && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "#%u", c->kernel.slot);
}

bool case_fits_in_ram(const struct case_result *c)
{
	return c->ram_bytes && c->data_bytes < 2 * c->ram_bytes;
}

struct attach_record *attach_list_add(struct attach_list *list)
{
	struct attach_record *rec;

	if (list->n >= RESULTS_MAX_PROGRAMS)
		return NULL;
	rec = &list->v[list->n++];
	memset(rec, 0, sizeof(*rec));
	return rec;
}

struct case_result *run_result_add_case(struct run_result *run,
					unsigned int n_phases)
{
	struct case_result *c;

	if (run->n_cases == run->cases_cap) {
		unsigned int cap = run->cases_cap ? run->cases_cap * 2 : 4;
		struct case_result *bigger =
			realloc(run->cases, cap * sizeof(*bigger));

		if (!bigger)
			return NULL;
		run->cases = bigger;
		run->cases_cap = cap;
	}
	c = &run->cases[run->n_cases];
	memset(c, 0, sizeof(*c));
	c->phases = calloc(n_phases ? n_phases : 1, sizeof(*c->phases));
	if (!c->phases)
		return NULL;
	c->phases_cap = n_phases;
	run->n_cases++;
	return c;
}

bool case_same_kernel(const struct case_result *a, const struct case_result *b)
{
	return a->kernel.guest == b->kernel.guest &&
	       !strcmp(a->kernel.source, b->kernel.source) &&
	       !strcmp(a->kernel.btf_hash, b->kernel.btf_hash) &&
	       a->kernel.slot == b->kernel.slot;
}

int run_result_move_cases(struct run_result *dst, struct run_result *src)
{
	unsigned int i;

	for (i = 0; i < src->n_cases; i++) {
		struct case_result *c = run_result_add_case(dst, 0);

		if (!c)
			return -ENOMEM;
		free(c->phases);
		*c = src->cases[i];
	}
	src->n_cases = 0;
	return 0;
}

bool run_result_complete(const struct run_result *run)
{
	unsigned int i;

	if (run->interrupted || !run->n_cases)
		return false;
	for (i = 0; i < run->n_cases; i++)
		if (!run->cases[i].complete)
			return false;
	return true;
}

static void case_result_free(struct case_result *c)
{
	unsigned int i;

	for (i = 0; i < c->phases_cap; i++) {
		metric_set_free(&c->phases[i].metrics);
		block_result_free(&c->phases[i].block);
		free(c->phases[i].intervals);
		series_set_free(&c->phases[i].timeline);
		finding_list_free(&c->phases[i].findings);
	}
	free(c->phases);
	metric_set_free(&c->spill.metrics);
	block_result_free(&c->spill.block);
	series_set_free(&c->spill.timeline);
	event_list_free(&c->events);
	free(c->target.mkfs_output);
}

bool case_target_first(const struct run_result *run, unsigned int i)
{
	unsigned int j;

	for (j = 0; j < i; j++)
		if (!strcmp(run->cases[j].target_label,
			    run->cases[i].target_label))
			return false;
	return true;
}

static void run_command_free(struct run_result *run)
{
	unsigned int i;

	for (i = 0; i < run->n_command; i++)
		free(run->command[i]);
	free(run->command);
	run->command = NULL;
	run->n_command = 0;
}

int run_result_set_command(struct run_result *run, int argc, char *const *argv)
{
	int i;

	run_command_free(run);
	if (argc <= 0)
		return 0;
	run->command = calloc((size_t)argc, sizeof(*run->command));
	if (!run->command)
		return -ENOMEM;
	for (i = 0; i < argc; i++) {
		run->command[i] = strdup(argv[i]);
		if (!run->command[i]) {
			run->n_command = (unsigned int)i;
			run_command_free(run);
			return -ENOMEM;
		}
	}
	run->n_command = (unsigned int)argc;
	return 0;
}

void run_result_free(struct run_result *run)
{
	unsigned int i;

	for (i = 0; i < run->n_cases; i++)
		case_result_free(&run->cases[i]);
	free(run->cases);
	run->cases = NULL;
	run->n_cases = 0;
	comparison_list_free(&run->comparisons);
	classic_list_free(&run->classic);
	run_command_free(run);
}
