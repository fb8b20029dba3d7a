// SPDX-License-Identifier: GPL-2.0
/* A bundle's README and rerun.sh. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "repro/bundle_int.h"
#include "util/spawn.h"
#include "version.h"

#define COMMAND_LINE_MAX 8192

void bundle_command_line(char *const *argv, unsigned int n, char *buf,
			 size_t len)
{
	char **words = calloc(n + 2, sizeof(*words));
	unsigned int i;

	buf[0] = '\0';
	if (!words)
		return;
	words[0] = "fsprof";
	for (i = 0; i < n; i++)
		words[i + 1] = argv[i];
	spawn_format_argv(words, buf, len);
	free(words);
}

static void readme_kernels(const struct bundle_kernels *bk, FILE *f)
{
	unsigned int i;

	fprintf(f, "\nKernels\n");
	for (i = 0; i < bk->n; i++) {
		const struct kernel_config *k = &bk->k[i];

		if (k->guest)
			fprintf(f, "- Linux %s in a QEMU guest (%s), from %s",
				k->release, k->accel, k->source);
		else
			fprintf(f, "- Linux %s, the host's own kernel",
				k->release);
		if (bk->slot[i])
			fprintf(f, " (its guest #%u)", bk->slot[i]);
		if (bk->file[i][0])
			fprintf(f, "\n  config: %s (from %s)\n", bk->file[i],
				k->from);
		else if (bk->copy_error[i][0])
			fprintf(f, "\n  config: not available (%s)\n",
				bk->copy_error[i]);
		else
			fprintf(f, "\n  config: not available (%s)\n",
				k->looked);
	}
}

/* every target once: its mkfs and mount lines as the run made them */
static void readme_targets(const struct run_result *run, FILE *f)
{
	unsigned int i;

	fprintf(f, "\nTargets (also in targets)\n");
	for (i = 0; i < run->n_cases; i++) {
		const struct case_result *c = &run->cases[i];

		if (!case_target_first(run, i))
			continue;
		fprintf(f, "- %s (%s, %s)\n  mkfs:  %s\n  mount: %s\n",
			case_target_name(c), c->target_label, c->target.kind,
			c->target.mkfs_cmd[0] ? c->target.mkfs_cmd : "none",
			c->target.mount_cmd[0] ? c->target.mount_cmd : "none");
	}
	fprintf(f,
		"  (fsprof makes these itself on a fresh sparse image and loop device\n"
		"  for every case: the device and directory named were the run's own)\n");
}

void bundle_targets(const struct bundle_spec *b,
		    const struct bundle_kernels *bk, FILE *f)
{
	const struct run_result *run = b->run;
	unsigned int i;

	(void)bk;
	for (i = 0; i < run->n_cases; i++)
		if (case_target_first(run, i))
			fprintf(f, "# %s: %s\n%s\n%s\n",
				case_target_name(&run->cases[i]),
				run->cases[i].target_label,
				run->cases[i].target.mkfs_cmd,
				run->cases[i].target.mount_cmd);
}

static void readme_head(const struct bundle_spec *b, FILE *f)
{
	const struct run_result *run = b->run;
	char when[64] = "unknown", cmd[COMMAND_LINE_MAX];
	time_t t = (time_t)(run->started_real_ns / 1000000000ULL);
	struct tm tm;

	if (run->started_real_ns && gmtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	fprintf(f,
		"fsprof reproduction bundle\n"
		"==========================\n\n"
		"Run %s, started %s by fsprof %s, %u case(s), %s.\n"
		"Bundle written by fsprof %s.\n\nCommand\n",
		b->run_name, when,
		run->tool_version[0] ? run->tool_version : "unknown",
		run->n_cases,
		run_result_complete(run) ? "complete" : "NOT complete",
		FSPROF_VERSION);
	if (run->n_command) {
		bundle_command_line(run->command, run->n_command, cmd,
				    sizeof(cmd));
		fprintf(f, "  %s\n", cmd);
	} else {
		fprintf(f,
			"  not recorded (an fsprof before results had \"command\")\n");
	}
}

void bundle_readme(const struct bundle_spec *b, const struct bundle_kernels *bk,
		   FILE *f)
{
	readme_head(b, f);
	readme_kernels(bk, f);
	readme_targets(b->run, f);
	fprintf(f,
		"\nFiles\n"
		"- results.json  the run's results: fsprof report results.json\n"
		"- command       its fsprof command line and version\n"
		"- kernels/      the config of each kernel it ran on, when found\n"
		"- targets       the mkfs and mount line of each target\n");
	if (b->n_case_words)
		fprintf(f,
			"- rerun.sh      runs the same cases again%s, then\n"
			"                fsprof diff results.json NEW.json%s:\n"
			"                  ./rerun.sh [more fsprof run options]\n"
			"                  (FSPROF=path/to/fsprof, OUT=NEW.json)\n",
			bk->rerun_list[0] ? " on the same kernels" : "",
			bk->n > 1 ? " and NEW.json --by kernel" : "");
	else
		fprintf(f,
			"- rerun.sh      says why this run cannot be rerun: %s\n",
			b->no_rerun);
}

static void rerun_host_check(const struct bundle_kernels *bk, FILE *f)
{
	if (!bk->n || bk->k[0].guest)
		return;
	fprintf(f,
		"if [ \"$(uname -r)\" != '%s' ]; then\n"
		"\techo \"rerun.sh: this machine runs Linux $(uname -r); the run's cases ran on %s\" >&2\n"
		"fi\n",
		bk->k[0].release, bk->k[0].release);
}

static void rerun_run_line(const struct bundle_spec *b,
			   const struct bundle_kernels *bk, FILE *f)
{
	char **words, line[COMMAND_LINE_MAX], kernel[2100];
	unsigned int i, n = 0;

	words = calloc(b->n_case_words + b->n_guest_words + 3, sizeof(*words));
	if (!words)
		return;
	words[n++] = "run";
	for (i = 0; i < b->n_case_words; i++)
		words[n++] = b->case_words[i];
	if (bk->rerun_list[0]) {
		snprintf(kernel, sizeof(kernel), "--kernel=%s", bk->rerun_list);
		words[n++] = kernel;
		for (i = 0; i < b->n_guest_words; i++)
			words[n++] = b->guest_words[i];
	}
	words[n] = NULL;
	spawn_format_argv(words, line, sizeof(line));
	free(words);
	fprintf(f, "\"$fsprof\" %s \\\n\t--json \"$out\" \"$@\" || status=$?\n",
		line);
}

void bundle_rerun_script(const struct bundle_spec *b,
			 const struct bundle_kernels *bk, FILE *f)
{
	char why[1024], line[2048];
	char *echo[] = { "echo", why, NULL };

	fprintf(f,
		"#!/bin/sh\n"
		"# Run the cases of this bundle's run again (README), then diff them\n"
		"# with its results. Written by fsprof %s.\n"
		"#   ./rerun.sh [more fsprof run options]\n"
		"# FSPROF: the fsprof to run (default: fsprof); OUT: the new\n"
		"# results file (default: rerun-DATE.json in this directory).\n"
		"set -u\n",
		FSPROF_VERSION);
	if (!b->n_case_words) {
		snprintf(why, sizeof(why), "rerun.sh: %s",
			 b->no_rerun ? b->no_rerun : "nothing to rerun");
		spawn_format_argv(echo, line, sizeof(line));
		fprintf(f, "%s >&2\nexit 2\n", line);
		return;
	}
	fprintf(f, "here=$(cd \"$(dirname \"$0\")\" && pwd)\n"
		   "fsprof=${FSPROF:-fsprof}\n"
		   "out=${OUT:-$here/rerun-$(date +%%Y%%m%%d-%%H%%M%%S).json}\n"
		   "status=0\n");
	rerun_host_check(bk, f);
	rerun_run_line(b, bk, f);
	fprintf(f, "[ -s \"$out\" ] || exit \"$status\"\n"
		   "\"$fsprof\" diff \"$here/results.json\" \"$out\" || :\n");
	if (bk->n > 1 && bk->rerun_list[0])
		fprintf(f, "\"$fsprof\" diff \"$out\" --by kernel || :\n");
	fprintf(f, "exit \"$status\"\n");
}
