// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "report/trace_export.h"
#include "util/log.h"

#define COMMIT_LANES 4

/* the trace format's timestamps are microseconds */
static double trace_us(uint64_t ns)
{
	return (double)ns / 1e3;
}

static void trace_add(json_t *events, json_t *e)
{
	json_array_append_new(events, e);
}

static void trace_name_track(json_t *events, int pid, int tid, const char *name,
			     int order)
{
	trace_add(events, json_pack("{s:s, s:s, s:i, s:i, s:{s:s}}", "ph", "M",
				    "name", "thread_name", "pid", pid, "tid",
				    tid, "args", "name", name));
	trace_add(events, json_pack("{s:s, s:s, s:i, s:i, s:{s:i}}", "ph", "M",
				    "name", "thread_sort_index", "pid", pid,
				    "tid", tid, "args", "sort_index", order));
}

static void trace_process(json_t *events, const struct case_result *c, int pid)
{
	char name[256];

	snprintf(name, sizeof(name), "%s on %s (repeat %u)", c->workload,
		 case_target_name(c), c->repeat);
	trace_add(events, json_pack("{s:s, s:s, s:i, s:i, s:{s:s}}", "ph", "M",
				    "name", "process_name", "pid", pid, "tid",
				    0, "args", "name", name));
	trace_add(events, json_pack("{s:s, s:s, s:i, s:i, s:{s:s}}", "ph", "M",
				    "name", "process_labels", "pid", pid, "tid",
				    0, "args", "labels", c->target_label));
	trace_name_track(events, pid, TRACE_TRACK_PHASES, "phases", 0);
}

static void trace_phases(json_t *events, const struct case_result *c, int pid)
{
	unsigned int i;

	for (i = 0; i < c->n_phases; i++) {
		const struct phase_result *p = &c->phases[i];
		json_t *args = json_pack("{s:I, s:f, s:f}", "wall_ns",
					 (json_int_t)p->wall_ns, "mb_per_s",
					 phase_mb_per_s(p), "cpu_percent",
					 phase_cpu_percent(p));

		if (p->verdict.done)
			json_object_set_new(args, "verdict",
					    json_string(p->verdict.text));
		json_object_set_new(args, "findings",
				    json_integer(p->findings.n));
		trace_add(events,
			  json_pack("{s:s, s:s, s:s, s:i, s:i, s:f, s:f, s:o}",
				    "ph", "X", "name", p->name, "cat", "phase",
				    "pid", pid, "tid", TRACE_TRACK_PHASES, "ts",
				    trace_us(p->start_mono_ns), "dur",
				    trace_us(p->wall_ns), "args", args));
	}
}

/*
 * Journal commits as slices [end - commit_ns, end]; one that starts before
 * the previous one on a lane ended goes to the next lane, so the slices of
 * every track nest (they never partly overlap).
 */
static void trace_commits(json_t *events, const struct case_result *c, int pid)
{
	uint64_t lane_end[COMMIT_LANES] = { 0 };
	bool named[COMMIT_LANES] = { false };
	size_t i;

	for (i = 0; i < c->events.n; i++) {
		const struct event_record *e = &c->events.v[i];
		uint64_t dur = e->v[1], start;
		unsigned int lane = 0;
		char name[48];

		if (e->kind != FSPROF_EV_JBD2_COMMIT)
			continue;
		start = e->t_ns > dur ? e->t_ns - dur : 0;
		while (lane + 1 < COMMIT_LANES && lane_end[lane] > start)
			lane++;
		if (lane_end[lane] > start)
			continue; /* deeper than every lane: counted in JSON */
		lane_end[lane] = e->t_ns;
		if (!named[lane]) {
			snprintf(name, sizeof(name), "jbd2 commits%s",
				 lane ? " (overlapping)" : "");
			trace_name_track(events, pid,
					 TRACE_TRACK_COMMITS + (int)lane, name,
					 1 + (int)lane);
			named[lane] = true;
		}
		snprintf(name, sizeof(name), "commit %llu",
			 (unsigned long long)e->v[0]);
		trace_add(
			events,
			json_pack("{s:s, s:s, s:s, s:i, s:i, s:f, s:f,"
				  " s:{s:I, s:I, s:I, s:I, s:i}}",
				  "ph", "X", "name", name, "cat", "jbd2", "pid",
				  pid, "tid", TRACE_TRACK_COMMITS + (int)lane,
				  "ts", trace_us(start), "dur", trace_us(dur),
				  "args", "tid", (json_int_t)e->v[0], "handles",
				  (json_int_t)e->v[2], "blocks",
				  (json_int_t)e->v[3], "blocks_logged",
				  (json_int_t)e->v[4], "phase", (int)e->phase));
	}
}

/* the rare events of one kind as instants on their own track */
static void trace_instants(json_t *events, const struct case_result *c, int pid,
			   unsigned int kind, int tid)
{
	const struct event_kind_info *k = event_kind_info(kind);
	bool named = false;
	size_t i;

	for (i = 0; k && i < c->events.n; i++) {
		const struct event_record *e = &c->events.v[i];
		json_t *args;
		unsigned int j;

		if (e->kind != kind)
			continue;
		if (!named) {
			static const char *const names[] = {
				[FSPROF_EV_XFS_LOG_FORCE] = "xfs log forces",
				[FSPROF_EV_WB_WORK] = "writeback passes",
				[FSPROF_EV_BLK_SLOW_IO] = "slow IOs",
			};

			trace_name_track(events, pid, tid, names[kind], tid);
			named = true;
		}
		args = json_pack("{s:i}", "phase", (int)e->phase);
		for (j = 0; j < EVENT_NVALUES; j++)
			if (k->values[j])
				json_object_set_new(
					args, k->values[j],
					json_integer((json_int_t)e->v[j]));
		for (j = 0; j < EVENT_MAX_STRINGS; j++)
			if (k->strings[j])
				json_object_set_new(args, k->strings[j],
						    json_string(e->s[j]));
		trace_add(events,
			  json_pack("{s:s, s:s, s:s, s:s, s:i, s:i, s:f, s:o}",
				    "ph", "i", "s", "t", "name", k->name, "cat",
				    k->domain, "pid", pid, "tid", tid, "ts",
				    trace_us(e->t_ns), "args", args));
	}
}

static const char *const counter_series[] = {
	"block.data_read_bytes", "block.data_write_bytes",
	"block.meta_read_bytes", "block.meta_write_bytes",
	"block.log_read_bytes",	 "block.log_write_bytes",
};
#define N_COUNTER_SERIES (sizeof(counter_series) / sizeof(counter_series[0]))

/* one counter sample: bytes issued per class in the bin from ts on */
static void trace_counter(json_t *events, int pid, uint64_t ts_ns,
			  const struct series_set *set, unsigned int bin)
{
	json_t *args = json_object();
	unsigned int k;

	for (k = 0; k < N_COUNTER_SERIES; k++) {
		const struct series *s = series_find(set, counter_series[k]);
		const char *cls = counter_series[k] + strlen("block.");
		char key[24];

		/* "data_write_bytes" -> "data_write" */
		snprintf(key, sizeof(key), "%.*s",
			 (int)(strlen(cls) - strlen("_bytes")), cls);
		json_object_set_new(args, key,
				    json_integer(s && bin < s->n ?
							 (json_int_t)s->v[bin] :
							 0));
	}
	trace_add(events, json_pack("{s:s, s:s, s:i, s:f, s:o}", "ph", "C",
				    "name", "block bytes per bin", "pid", pid,
				    "ts", trace_us(ts_ns), "args", args));
}

static void trace_counters(json_t *events, const struct case_result *c, int pid)
{
	unsigned int i, b;

	for (i = 0; i < c->n_phases; i++) {
		const struct series_set *set = &c->phases[i].timeline;
		unsigned int bins = series_set_bins(set);

		if (!set->bin_ns || !bins)
			continue;
		for (b = 0; b < bins; b++)
			trace_counter(events, pid,
				      set->start_ns + b * set->bin_ns, set, b);
		/* back to zero after the phase */
		trace_counter(events, pid, set->start_ns + bins * set->bin_ns,
			      set, bins);
	}
}

json_t *trace_export_json(const struct run_result *run)
{
	json_t *events = json_array();
	unsigned int i;

	for (i = 0; i < run->n_cases; i++) {
		const struct case_result *c = &run->cases[i];
		int pid = (int)i + 1;

		trace_process(events, c, pid);
		trace_phases(events, c, pid);
		trace_commits(events, c, pid);
		trace_instants(events, c, pid, FSPROF_EV_XFS_LOG_FORCE,
			       TRACE_TRACK_LOG_FORCES);
		trace_instants(events, c, pid, FSPROF_EV_WB_WORK,
			       TRACE_TRACK_WRITEBACK);
		trace_instants(events, c, pid, FSPROF_EV_BLK_SLOW_IO,
			       TRACE_TRACK_SLOW_IO);
		trace_counters(events, c, pid);
	}
	return json_pack("{s:o, s:s, s:{s:s, s:s, s:s}}", "traceEvents", events,
			 "displayTimeUnit", "ms", "otherData", "tool", "fsprof",
			 "version", run->tool_version, "kernel",
			 run->kernel_release);
}

/* the trace's text, gzip-compressed, into gz; closes gz */
static int trace_gzip(gzFile gz, const char *text)
{
	size_t len = strlen(text), off = 0;

	if (!gz)
		return -ENOMEM;
	while (off < len) {
		size_t left = len - off;
		int n = gzwrite(gz, text + off,
				left > (1u << 30) ? 1u << 30 :
						    (unsigned int)left);

		if (n <= 0) {
			gzclose(gz);
			return -EIO;
		}
		off += (size_t)n;
	}
	return gzclose(gz) == Z_OK ? 0 : -EIO;
}

static char *trace_export_text(const struct run_result *run)
{
	json_t *root = trace_export_json(run);
	char *text = root ? json_dumps(root, JSON_COMPACT) : NULL;

	json_decref(root);
	if (!text)
		log_error("building the trace failed: out of memory");
	return text;
}

int trace_export_stream(const struct run_result *run, FILE *out)
{
	char *text;
	int fd, err;

	if (isatty(fileno(out))) {
		log_error(
			"the trace is gzip-compressed: redirect it to a file (> run.json.gz)");
		return -EINVAL;
	}
	text = trace_export_text(run);
	if (!text)
		return -ENOMEM;
	fflush(out);
	fd = dup(fileno(out));
	err = fd < 0 ? -errno : trace_gzip(gzdopen(fd, "wb6"), text);
	free(text);
	if (err)
		log_error("writing the trace failed: %s", strerror_safe(-err));
	return err;
}

int trace_export_write(const struct run_result *run, const char *path)
{
	char tmp[4096], *text = trace_export_text(run);
	int err;

	if (!text)
		return -ENOMEM;
	snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid());
	err = trace_gzip(gzopen(tmp, "wb6"), text);
	free(text);
	if (!err && rename(tmp, path))
		err = -errno;
	if (err) {
		log_error("--trace %s: %s", path, strerror_safe(-err));
		unlink(tmp);
	}
	return err;
}
