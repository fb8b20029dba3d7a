#!/usr/bin/env python3
"""Write data/noise-floors.tsv from an A/A diff (fsprof diff --noise 0
--format json A B): each row's floor is the QUANTILE, over the metrics it
is the first match for, of the A/A gap that Welch's 95% interval does not
explain: the distance of the interval of mean_B - mean_A from 0 (0 when it
holds 0), over max(|mean_A|, |mean_B|); rounded up (whole percents, tenths
below 1%, 0.1% at least). A gap of means inside its interval is sampling
noise, which the interval already shows; the floor is for the rest (the
drift between two runs of the same thing). The note also gives the QUANTILE
of the plain gaps |mean_A - mean_B| / max(|mean_A|, |mean_B|).
Only phases fsprof trusts (wall time at least SHORT_PHASE_NS on both
sides, src/analyze/thresholds.h) and metrics every repeat of both runs
measured (min > 0 in both results' summaries) count: a rare event's mean
over 5 repeats moves with how many times it happened (0 vs 0.2), which
Welch's interval already shows, and would set the floor of every steady
metric of its kind.
usage: noise_floors.py DIFF.json A.json B.json TSV QUANTILE MACHINE"""
import datetime
import fnmatch
import json
import math
import os
import re
import sys


def rows_of(tsv):
    """the comment lines and the (glob, floor, note) rows of the TSV"""
    comments, rows = [], []
    for line in open(tsv):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            comments.append(line)
        else:
            rows.append(line.split("\t"))
    return comments, rows


def short_phase_ns():
    """SHORT_PHASE_NS of src/analyze/thresholds.h"""
    top = os.path.join(os.path.dirname(__file__), "..", "..")
    h = open(os.path.join(top, "src", "analyze", "thresholds.h")).read()
    return float(re.search(r"#define SHORT_PHASE_NS (\d+)", h).group(1))


def steady_of(results):
    """{(workload, target, phase, metric)} measured in every repeat, and
    every name the summary lists"""
    out, listed = set(), set()
    for s in results["summary"]["groups"]:
        for ph in s["phases"]:
            for name, v in ph["metrics"].items():
                listed.add(name)
                if v.get("min") is not None and v["min"] > 0:
                    out.add((s["workload"], s["target"], ph["name"], name))
    return out, listed


def gaps_of(diff, steady, listed, globs):
    """the relative A/A gaps of every (pair, phase, metric), by row"""
    gaps = [[] for _ in globs]
    short = short_phase_ns()
    for pair in diff["pairs"]:
        for phase in pair["phases"]:
            wall = [m for m in phase["metrics"] if m["metric"] == "wall_ns"]
            if not wall or min(wall[0]["a"]["mean"],
                               wall[0]["b"]["mean"]) < short:
                continue
            for m in phase["metrics"]:
                a, b = m["a"]["mean"], m["b"]["mean"]
                if a is None or b is None:
                    continue  # a ratio one side could not form: no gap
                key = (pair["workload"], pair["a_target"], phase["name"],
                       m["metric"])
                # a value the diff derives from the saved counts (per_op.*)
                # is in no summary: steady when both means are above 0
                derived = m["metric"] not in listed and min(a, b) > 0
                if (key not in steady and not derived) or not m["ci95"]:
                    continue
                top = max(abs(a), abs(b))
                lo, hi = m["ci95"]
                gap = (max(0, lo, -hi) / top, abs(a - b) / top)
                for i, glob in enumerate(globs):
                    # fnmatch(3) without flags: * matches any character
                    if fnmatch.fnmatchcase(m["metric"], glob):
                        gaps[i].append(gap)
                        break
    return gaps


def quantile(v, q):
    """nearest-rank quantile: the smallest value with q of v at or below"""
    v = sorted(v)
    return v[max(0, math.ceil(q * len(v)) - 1)]


def round_up(x):
    """to a whole percent, a tenth below 1%, and 0.1% at least"""
    pct = x * 100
    step = 1 if pct > 1 else 0.1
    return max(0.1, math.ceil(round(pct / step, 9)) * step)


def main():
    diff_path, a_path, b_path, tsv, q, machine = sys.argv[1:7]
    q = float(q)
    diff = json.load(open(diff_path))
    sa, la = steady_of(json.load(open(a_path)))
    sb, lb = steady_of(json.load(open(b_path)))
    comments, rows = rows_of(tsv)
    gaps = gaps_of(diff, sa & sb, la | lb, [r[0] for r in rows])
    empty = [r[0] for r, g in zip(rows, gaps) if not g]
    if empty:
        sys.exit("noise_floors.py: no metric of the A/A runs is first "
                 "matched by %s: the workloads do not cover that row, or "
                 "a row above it takes its metrics" % ", ".join(empty))
    pairs = diff["pairs"]
    work = sorted({p["workload"] for p in pairs})
    targets = sorted({p["a_target"] for p in pairs})
    reps = min(min(p["a_repeats"], p["b_repeats"]) for p in pairs)
    date = datetime.date.today().isoformat()
    with open(tsv, "w") as out:
        for line in comments:
            out.write(line + "\n")
        for r, g in zip(rows, gaps):
            beyond = [x[0] for x in g]
            plain = [x[1] for x in g]
            floor = round_up(quantile(beyond, q))
            note = ("p%g of %d steady A/A gaps beyond the 95%% interval "
                    "%.2f%% (max %.1f%%), of the plain gaps of means "
                    "%.1f%% (median %.1f%%); %s on %s, %d repeats a side, "
                    "two runs; %s, %s" %
                    (q * 100, len(g), quantile(beyond, q) * 100,
                     max(beyond) * 100, quantile(plain, q) * 100,
                     quantile(plain, 0.5) * 100, " ".join(work),
                     ",".join(targets), reps, date, machine))
            out.write("%s\t%g%%\t%s\n" % (r[0], floor, note))


if __name__ == "__main__":
    main()
