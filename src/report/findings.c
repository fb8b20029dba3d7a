// SPDX-License-Identifier: GPL-2.0
/*
 * The first screen of the text report: per phase, the bound verdict and
 * the findings (evidence, mechanism, advice, verification), then the
 * cross-target findings. The metric tables follow it.
 */
#include <stdio.h>
#include <string.h>

#include "report/colour.h"
#include "report/format.h"
#include "report/findings.h"
#include "report/wrap.h"

#define PHASE_COL 10 /* width of the phase name column */
#define SHORT_NS 500000000ULL /* the short-phase rule's SHORT_PHASE_NS */

/*
 * Said once for the whole block, so taken out of each line: where the
 * shares of "the workload's time" come from (the block's legend), and a
 * phase's "too short" caveat (the case's one caveat line, its * mark)
 */
static const char *const said_once[][2] = {
	{ " (sched time budget)", "" },
	{ ", sched time budget)", ")" },
	{ "; sched time budget)", ")" },
};

static void say_once(const char *in, char *out, size_t len)
{
	size_t n = 0, k;
	const char *p = in;

	while (*p && n + 1 < len) {
		const char *cut;

		for (k = 0; k < sizeof(said_once) / sizeof(said_once[0]); k++)
			if (!strncmp(p, said_once[k][0],
				     strlen(said_once[k][0])))
				break;
		if (k < sizeof(said_once) / sizeof(said_once[0])) {
			n += (size_t)snprintf(out + n, len - n, "%s",
					      said_once[k][1]);
			p += strlen(said_once[k][0]);
			continue;
		}
		/* " (phase of 83 ms: too short for the shares to be reliable)" */
		cut = !strncmp(p, " (phase of ", 11) ? strchr(p, ')') : NULL;
		if (cut && strstr(p, "too short") &&
		    strstr(p, "too short") < cut) {
			p = cut + 1;
			continue;
		}
		out[n++] = *p++;
	}
	out[n < len ? n : len - 1] = '\0';
}

/* the mechanisms already printed in this block: each once */
#define SAID_MAX 64

static struct {
	unsigned int n;
	const char *mechanism[SAID_MAX];
	const char *rule[SAID_MAX];
	const char *where[SAID_MAX];
} said;

#define TEXT_INDENT (2 + PHASE_COL + 1)
#define DETAIL_INDENT (TEXT_INDENT + 4)

/* "7.00x faster (3 rounds, 95% CI 5.10x-9.60x)" */
static void verification_speed(const struct verification *v, char *buf,
			       size_t len)
{
	int n;

	if (v->ratio >= 1)
		n = snprintf(buf, len, "%.2fx faster", v->ratio);
	else
		n = snprintf(buf, len, "%.2fx slower (speed-up %.2fx)",
			     1 / v->ratio, v->ratio);
	if (n < 0 || (size_t)n >= len)
		return;
	snprintf(buf + n, len - n, " (%u round%s%s, 95%% CI %.2fx-%.2fx)",
		 v->repeats, v->repeats == 1 ? "" : "s",
		 v->stopped[0] && !strcmp(v->stopped, "cap") ? ", the cap" : "",
		 v->ci_lo, v->ci_hi);
}

void verification_line(const struct verification *v, char *line, size_t len)
{
	char speed[128];

	if (v->ratio > 0) {
		verification_speed(v, speed, sizeof(speed));
		snprintf(line, len, "%s %.3f s -> %.3f s with %s: %s: %s%s%s",
			 v->phase, v->before_s, v->after_s, v->applied, speed,
			 v->verdict, v->note[0] ? "; " : "", v->note);
	} else
		snprintf(line, len, "%s with %s: %s%s%s", v->phase, v->applied,
			 v->verdict, v->note[0] ? ": " : "", v->note);
}

static void report_verification(const struct verification *v, FILE *out)
{
	char line[1024];

	if (!v->done)
		return;
	verification_line(v, line, sizeof(line));
	text_wrapped(out, DETAIL_INDENT, "verified: ", line);
}

/* a mechanism paragraph once: again, a pointer to where it was said */
static void report_mechanism(const struct finding *f, const char *where,
			     FILE *out)
{
	char again[256];
	unsigned int i;

	for (i = 0; i < said.n; i++)
		if (!strcmp(said.mechanism[i], f->mechanism))
			break;
	if (i < said.n) {
		snprintf(again, sizeof(again), "as for %s on %s above",
			 said.rule[i], said.where[i]);
		text_wrapped(out, DETAIL_INDENT, "why: ", again);
		return;
	}
	if (said.n < SAID_MAX) {
		said.mechanism[said.n] = f->mechanism;
		said.rule[said.n] = f->rule;
		said.where[said.n++] = where;
	}
	text_wrapped(out, DETAIL_INDENT, "why: ", f->mechanism);
}

static void report_finding(const struct finding *f, unsigned int seen,
			   unsigned int repeats, const char *where, FILE *out)
{
	static const char *const tags[] = { "ok", "info", "WARNING" };
	static const enum colour_role roles[] = { COLOUR_OK, COLOUR_INFO,
						  COLOUR_WARNING };
	char head[256], tag[48];
	unsigned int i;

	/* the tag coloured on a terminal, padded to 8 columns either way */
	snprintf(tag, sizeof(tag), "%s%s%s%*s",
		 colour_start(out, roles[f->severity]), tags[f->severity],
		 colour_end(out), 8 - (int)strlen(tags[f->severity]), "");
	snprintf(head, sizeof(head), "%s: %s", f->rule, f->title);
	if (repeats > 1) {
		size_t n = strlen(head);

		snprintf(head + n, sizeof(head) - n, " (in %u of %u repeats)",
			 seen, repeats);
	}
	text_wrapped(out, TEXT_INDENT, tag, head);
	for (i = 0; i < f->n_evidence; i++) {
		char ev[sizeof(f->ev[i].text)];

		say_once(f->ev[i].text, ev, sizeof(ev));
		text_wrapped(out, DETAIL_INDENT, "- ", ev);
	}
	if (f->severity == FINDING_WARNING)
		report_mechanism(f, where, out);
	/* an info's workload advice is in the JSON; a knob is worth a line */
	if (f->advice.text[0] &&
	    (f->severity == FINDING_WARNING || f->advice.option[0])) {
		char advice[640];

		if (f->advice.option[0])
			snprintf(advice, sizeof(advice), "%s [%s: %s]",
				 f->advice.text,
				 advice_kind_name(f->advice.kind),
				 f->advice.option);
		else
			snprintf(advice, sizeof(advice), "%s", f->advice.text);
		text_wrapped(out, DETAIL_INDENT, "advice: ", advice);
	}
	report_verification(&f->verified, out);
}

static bool same_group(const struct case_result *a, const struct case_result *b)
{
	return !strcmp(a->target_label, b->target_label) &&
	       !strcmp(a->workload, b->workload) &&
	       !strcmp(a->params, b->params) && case_same_kernel(a, b);
}

/* in how many complete cases of c's group phase ph has rule */
static unsigned int rule_seen(const struct run_result *run,
			      const struct case_result *c, unsigned int ph,
			      const char *rule, unsigned int *repeats)
{
	unsigned int i, seen = 0;

	*repeats = 0;
	for (i = 0; i < run->n_cases; i++) {
		const struct case_result *o = &run->cases[i];

		if (!o->complete || !same_group(o, c) || ph >= o->n_phases)
			continue;
		(*repeats)++;
		if (finding_list_find(&o->phases[ph].findings, rule))
			seen++;
	}
	return seen;
}

/* a finding beyond what the verdict says */
static bool has_notable(const struct finding_list *l)
{
	unsigned int i;

	for (i = 0; i < l->n; i++)
		if (l->v[i].severity != FINDING_OK)
			return true;
	return false;
}

static void report_case_findings(const struct run_result *run,
				 const struct case_result *c, FILE *out)
{
	unsigned int ph, i, seen, repeats, short_n = 0;
	char verdict[sizeof(((struct phase_verdict *)0)->text) + 64], name[48];

	fprintf(out, "%s%s on %s%s", colour_start(out, COLOUR_HEADING),
		c->workload, case_target_name(c), colour_end(out));
	if (device_model_active(&c->target.model.m))
		fprintf(out, ", device model %s", c->target.model.m.name);
	if (c->kernel.guest)
		fprintf(out, ", Linux %s", c->kernel.release);
	fputc('\n', out);
	for (ph = 0; ph < c->n_phases; ph++) {
		const struct phase_result *p = &c->phases[ph];
		char text[sizeof(p->verdict.text)], wall[16], mark[4];

		say_once(p->verdict.done ? p->verdict.text : "not analysed",
			 text, sizeof(text));
		format_duration_ns((double)p->wall_ns, wall, sizeof(wall));
		snprintf(verdict, sizeof(verdict), "%s: %s%s", wall,
			 has_notable(&p->findings) ? "" : "nothing unusual; ",
			 text);
		snprintf(mark, sizeof(mark), "%s",
			 p->wall_ns < SHORT_NS ? "*" : "");
		short_n += p->wall_ns < SHORT_NS;
		snprintf(name, sizeof(name), "%s%-*s ", p->name,
			 PHASE_COL - (int)strlen(p->name), mark);
		text_wrapped(out, 2, name, verdict);
		for (i = 0; i < p->findings.n; i++) {
			/* an ok finding says what the verdict says: JSON only;
			 * a short phase is said once for the case, below */
			if (p->findings.v[i].severity == FINDING_OK ||
			    !strcmp(p->findings.v[i].rule, "short-phase"))
				continue;
			seen = rule_seen(run, c, ph, p->findings.v[i].rule,
					 &repeats);
			report_finding(&p->findings.v[i], seen, repeats,
				       case_target_name(c), out);
		}
	}
	if (short_n)
		text_wrapped(
			out, 2, "",
			"* under 0.5 s: too short to trust, its rates and shares move with a single request or scheduling delay (use more data or files)");
}

static void report_comparisons(const struct run_result *run, FILE *out)
{
	const struct comparison_list *l = &run->comparisons;
	char line[COMPARISON_MAX_TARGETS * 180], name[40];
	bool header = false;
	unsigned int i, t, j;

	for (i = 0; i < l->n; i++) {
		const struct comparison *cmp = &l->v[i];

		if (!cmp->findings.n)
			continue;
		if (!header)
			fprintf(out,
				"\ntargets compared (same workload and parameters)\n");
		header = true;
		snprintf(line, sizeof(line), "%s:", cmp->workload);
		for (t = 0; t < cmp->n_targets; t++) {
			size_t n = strlen(line);

			snprintf(line + n, sizeof(line) - n, "%s %s %.3f s",
				 t ? "," : "",
				 cmp->targets[t].name[0] ?
					 cmp->targets[t].name :
					 cmp->targets[t].label,
				 cmp->targets[t].wall_s);
		}
		snprintf(name, sizeof(name), "%-*s ", PHASE_COL, cmp->phase);
		text_wrapped(out, 2, name, line);
		for (j = 0; j < cmp->findings.n; j++)
			report_finding(&cmp->findings.v[j], 1, 1, cmp->phase,
				       out);
	}
}

void report_findings(const struct run_result *run, FILE *out)
{
	unsigned int i, j;
	bool any = false;

	for (i = 0; i < run->n_cases; i++) {
		const struct case_result *c = &run->cases[i];

		if (!c->complete && !c->n_phases)
			continue;
		/* one block per target, workload and parameters */
		for (j = 0; j < i; j++)
			if ((run->cases[j].complete ||
			     run->cases[j].n_phases) &&
			    same_group(&run->cases[j], c))
				break;
		if (j < i)
			continue;
		if (!any) {
			said.n = 0;
			fprintf(out,
				"why: each phase's wall time and bound verdict, then what fsprof found (details below\n"
				"and in the JSON); the shares of the workload's time are its sched time budget: on-CPU\n"
				"and off-CPU by kernel cause, over its threads\n\n");
		} else
			fputc('\n', out);
		any = true;
		report_case_findings(run, c, out);
	}
	report_comparisons(run, out);
	if (any)
		fprintf(out, "\n");
}
