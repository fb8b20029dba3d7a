// SPDX-License-Identifier: GPL-2.0
/* fsprof diff as CSV: one row per pair x phase x metric. */
#include <math.h>
#include <stdio.h>

#include "report/csv.h"
#include "report/diff_report.h"

static void csv_num(FILE *out, double v, bool last)
{
	char buf[40] = "";

	if (!isnan(v) && !isinf(v))
		snprintf(buf, sizeof(buf), "%.10g", v);
	csv_field(out, buf, last);
}

static void csv_uint(FILE *out, unsigned int v)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%u", v);
	csv_field(out, buf, false);
}

static void metric_row(FILE *out, const struct diff_pair *p,
		       const struct diff_phase *ph, const struct diff_metric *m)
{
	csv_field(out, p->workload, false);
	csv_field(out, p->params, false);
	csv_field(out, p->a_target, false);
	csv_field(out, p->b_target, false);
	csv_field(out, ph->name, false);
	csv_field(out, m->name, false);
	csv_uint(out, m->a.n);
	csv_num(out, m->a.mean, false);
	csv_num(out, m->a.sd, false);
	csv_uint(out, m->b.n);
	csv_num(out, m->b.mean, false);
	csv_num(out, m->b.sd, false);
	csv_num(out, m->diff, false);
	csv_num(out, m->ratio, false);
	csv_num(out, m->has_ci ? m->ci_lo : NAN, false);
	csv_num(out, m->has_ci ? m->ci_hi : NAN, false);
	csv_num(out, m->p, false);
	csv_num(out, m->q, false);
	csv_field(out, diff_verdict_name(m->verdict), false);
	csv_num(out, m->noise_floor, true);
}

void diff_report_csv(const struct diff_result *d, FILE *out)
{
	unsigned int i, j, k;

	fputs("workload,params,a_target,b_target,phase,metric,n_a,mean_a,sd_a,"
	      "n_b,mean_b,sd_b,diff,ratio,ci95_low,ci95_high,p,q,verdict,"
	      "noise_floor\n",
	      out);
	for (i = 0; i < d->n_pairs; i++)
		for (j = 0; j < d->pairs[i].n_phases; j++)
			for (k = 0; k < d->pairs[i].phases[j].n_metrics; k++)
				metric_row(out, &d->pairs[i],
					   &d->pairs[i].phases[j],
					   &d->pairs[i].phases[j].metrics[k]);
}
