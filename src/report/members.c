// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>

#include "report/members.h"
#include "report/wrap.h"
#include "results/block_stack_json.h"

void report_stack_header(const struct target_result *t, FILE *out)
{
	const struct block_stack *st = &t->stack;
	char names[BLK_MEMBERS_MAX * 34] = "";
	size_t at = 0;
	unsigned int i;

	if (!st->n)
		return;
	for (i = 0; i < st->n && at < sizeof(names); i++)
		at += (size_t)snprintf(names + at, sizeof(names) - at, "%s%s",
				       i ? ", " : "", st->member[i].name);
	text_hanging(out, 2,
		     "stack: %s; block IO traced on its %u member disk(s): %s",
		     st->layout, st->n, names);
	text_hanging(out, 2, "log class: %s",
		     st->log_note[0] ? st->log_note : "not mapped");
}

static bool members_logged(const struct case_result *c)
{
	unsigned int j, m;

	for (j = 0; j < c->n_phases; j++)
		for (m = 0; m < c->phases[j].block.n_members; m++)
			if (c->phases[j].block.member[m].ios[BLK_IOC_LOG_WRITE])
				return true;
	return false;
}

static void member_row(const struct case_result *c, unsigned int m, bool log,
		       unsigned int from, unsigned int to, int label, int width,
		       FILE *out)
{
	char row[64], cell[40];
	unsigned int j;

	snprintf(row, sizeof(row), "%s %s", c->target.stack.member[m].name,
		 log ? "log wr (MB / IOs)" : "(MB wr / rd)");
	fprintf(out, "%-*s", label, row);
	for (j = from; j < to; j++) {
		const struct block_result *b = &c->phases[j].block;
		const struct block_member_result *r = &b->member[m];

		if (m >= b->n_members)
			snprintf(cell, sizeof(cell), "-");
		else if (log)
			snprintf(cell, sizeof(cell), "%.1f / %llu",
				 (double)r->bytes[BLK_IOC_LOG_WRITE] / 1e6,
				 (unsigned long long)r->ios[BLK_IOC_LOG_WRITE]);
		else
			snprintf(cell, sizeof(cell), "%.1f / %.1f",
				 (double)block_member_write_bytes(r) / 1e6,
				 (double)block_member_read_bytes(r) / 1e6);
		fprintf(out, " %*s", width, cell);
	}
	fputc('\n', out);
}

void report_member_rows(const struct case_result *c, unsigned int from,
			unsigned int to, int label, int width, FILE *out)
{
	bool log = members_logged(c);
	unsigned int m;

	for (m = 0; m < c->target.stack.n; m++) {
		member_row(c, m, false, from, to, label, width, out);
		if (log)
			member_row(c, m, true, from, to, label, width, out);
	}
}

/* "write: loop0 4.2 / 0.0 3.1 ms, loop1 4.2 / 0.0 2.9 ms" */
static void phase_members_line(const struct case_result *c,
			       const struct phase_result *p, FILE *out)
{
	const struct block_member_result *r;
	char line[1024];
	size_t at;
	unsigned int m;

	at = (size_t)snprintf(line, sizeof(line), "%s:", p->name);
	for (m = 0; m < p->block.n_members && m < c->target.stack.n &&
		    at < sizeof(line);
	     m++) {
		r = &p->block.member[m];
		at += (size_t)snprintf(
			line + at, sizeof(line) - at,
			"%s %s %.1f / %.1f %.1f ms", m ? "," : "",
			c->target.stack.member[m].name,
			(double)block_member_write_bytes(r) / 1e6,
			(double)block_member_read_bytes(r) / 1e6,
			r->lat.count ?
				(double)r->lat.sum_ns / r->lat.count / 1e6 :
				0.0);
	}
	text_hanging(out, 6, "    %s", line);
}

void report_model_members(const struct model_result *mr, unsigned int indent,
			  FILE *out)
{
	char list[BLK_MEMBERS_MAX * 64] = "", model[DEVICE_MODEL_TEXT_LEN];
	size_t used = 0;
	unsigned int i;

	if (!mr->n_members)
		return;
	for (i = 0; i < mr->n_members && used < sizeof(list); i++)
		used += (size_t)snprintf(list + used, sizeof(list) - used,
					 "%s%s (%u:%u) below %s", i ? ", " : "",
					 mr->member[i].device,
					 mr->member[i].major,
					 mr->member[i].minor,
					 mr->member[i].member);
	text_hanging(
		out, indent + 2,
		"%*sdevice model: %s, each member a disk of the model of its own: %s",
		(int)indent, "",
		device_model_describe(&mr->m, model, sizeof(model)), list);
}

void report_stacks(const struct run_result *run, FILE *out)
{
	const struct case_result *c;
	unsigned int i, j;
	bool first = true;

	for (i = 0; i < run->n_cases; i++) {
		c = &run->cases[i];
		if (!c->target.stack.n)
			continue;
		if (first)
			fprintf(out,
				"\nstacked targets: block IO of the member disks (MB written / read, mean latency)\n");
		first = false;
		text_hanging(out, 4, "  %s (repeat %u): %s; log class: %s",
			     case_target_name(c), c->repeat,
			     c->target.stack.layout, c->target.stack.log_note);
		report_model_members(&c->target.model, 4, out);
		for (j = 0; j < c->n_phases; j++)
			phase_members_line(c, &c->phases[j], out);
	}
}
