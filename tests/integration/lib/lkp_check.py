#!/usr/bin/env python3
"""fsprof diff --format lkp checked against the diff's JSON and the runs.

usage: lkp_check.py LKP_TEXT DIFF_JSON A_JSON B_JSON [--all]

Every metric line of the lkp text is parsed at lkp's fixed columns and
rebuilt here from the diff's JSON with lkp-tests' formats (a mean %.2f
below 1000, %.4g above 1e8, whole between; the sample sd as a whole
percent shown above 2%; the change against 1e-100 when A's mean is 0):
the two must be equal. Our columns must say the JSON's verdict and lkp's
call; the KPIs (the JSON's headline) come first in each pair; the lines
shown are the KPIs and what either criterion calls changed (--all: every
metric). Then each phase's wall_ns (of the diff's kernels' cases when it
set one run's kernels against each other) is summarised again from the runs'
own per-repeat values - mean, sd, and lkp's criterion (sorted, n >> 5 cut
from each end, min/middle/max, ranges apart, 3 samples on a side, 1% for
a KPI) - and must agree with the diff.
"""
import json
import math
import re
import sys

NAME_AT = 80
# the change's % is a blank when a side has no value (an unmeasured ratio)
LINE = re.compile(r'^(.{10})(.{6})(.{10})[% ] (.{10})(.{6})  (\S+) +(\S+) +(\S+) +(\S+)$')
VERDICT = {'same': 'same', 'inconclusive': 'inconclusive',
           'unmeasured': 'unmeasured'}
EFFECT = {'better': 'improvement', 'worse': 'regression',
          'higher': 'higher', 'lower': 'lower'}


def lkp_mean(v):
    if v is None:  # the side has no value: absent, not 0
        return '%10s' % '-'
    if abs(v) < 1000:
        return '%10.2f' % v
    if abs(v) > 1e8:
        return '%10.4g' % v
    return '%10d' % int(v)


def lkp_sd(side):
    if side['mean'] is None:
        return ' ' * 6
    pct = 100 * side['sd'] / side['mean'] if side['mean'] != 0 else side['sd']
    pct = min(pct, 999999)
    return ' \u00b1%3d%%' % int(pct) if pct > 2 else ' ' * 6


def lkp_change(a, b):
    if a is None or b is None:
        return '%10s' % '-'
    a = a if a != 0 else 1e-100
    pct = 100 * (b - a) / a
    return ('%+10.1f' if abs(pct) < 100000 else '%+10.2g') % pct


def blocks(text):
    """the metric lines of each pair: after the '\\ |' header, to a blank"""
    out, cur = [], None
    for line in text.split('\n'):
        if cur is None and line.strip().startswith('\\'):
            cur = []
        elif cur is not None and not line:
            out.append(cur)
            cur = None
        elif cur is not None:
            cur.append(line)
    return out


def check_line(line, m):
    g = LINE.match(line)
    assert g, 'not an lkp line: %r' % line
    assert line.index(g.group(9)) == NAME_AT, line
    assert g.group(1) == lkp_mean(m['a']['mean']), (line, m['a'])
    assert g.group(2) == lkp_sd(m['a']), (line, m['a'])
    assert g.group(3) == lkp_change(m['a']['mean'], m['b']['mean']), line
    assert g.group(4) == lkp_mean(m['b']['mean']), (line, m['b'])
    assert g.group(5) == lkp_sd(m['b']), (line, m['b'])
    verdict = 'emulated' if m['emulated_time'] else VERDICT.get(m['verdict'], 'changed')
    assert g.group(6) == verdict, (line, m)
    assert g.group(7) == EFFECT.get(m['verdict'], '-'), (line, m)
    lkp = m['lkp']
    want = ('changed' if lkp['changed'] else '-') if lkp['enough_samples'] else '<3'
    if m['verdict'] == 'unmeasured':  # not judged by either
        want = '-'
    assert g.group(8) == want, (line, lkp)


def shown(m, every):
    return every or m['headline'] or m['lkp']['changed'] or \
        m['verdict'] not in ('same', 'inconclusive', 'unmeasured')


def check_pair(lines, pair, every):
    metrics = {'%s.%s' % (ph['name'], m['metric']): m
               for ph in pair['phases'] for m in ph['metrics']}
    names = []
    for line in lines:
        name = line[NAME_AT:]
        assert name in metrics, name
        check_line(line, metrics[name])
        names.append(name)
    kpi = [metrics[n]['headline'] for n in names]
    assert kpi == sorted(kpi, reverse=True), 'a KPI after another metric'
    want = {n for n, m in metrics.items() if shown(m, every)}
    assert set(names) == want and len(names) == len(want), \
        (sorted(want - set(names)), sorted(set(names) - want))
    return len(names)


def lkp_summary(v):
    v = sorted(v)
    cut = min(len(v) >> 5, 3)
    v = v[cut:len(v) - cut]
    return v[0], v[len(v) // 2], v[-1]


def check_walls(pair, run_a, run_b, kernels):
    """wall_ns again from the runs: mean, sd, lkp's call"""
    def walls(run, target, kernel, phase):
        return [p['wall_ns'] for c in run['cases'] if c['complete'] and
                c['target_label'] == target and c['workload']['name'] ==
                pair['workload'] and (kernel is None or
                                      c['kernel']['release'] == kernel)
                for p in c['phases'] if p['name'] == phase]
    for ph in pair['phases']:
        m = next(x for x in ph['metrics'] if x['metric'] == 'wall_ns')
        va = walls(run_a, pair['a_target'], kernels[0], ph['name'])
        vb = walls(run_b, pair['b_target'], kernels[1], ph['name'])
        assert len(va) == pair['a_repeats'] and len(vb) == pair['b_repeats']
        for v, side in ((va, m['a']), (vb, m['b'])):
            mean = sum(v) / len(v)
            sd = math.sqrt(sum((x - mean) ** 2 for x in v) / (len(v) - 1)) \
                if len(v) > 1 else 0
            assert abs(mean - side['mean']) <= 1e-9 * mean, (mean, side)
            assert abs(sd - side['sd']) <= 1e-9 * max(sd, 1), (sd, side)
        (a0, am, a1), (b0, bm, b1) = lkp_summary(va), lkp_summary(vb)
        sep = (b0 > am and bm > a1) or (a0 > bm and am > b1)
        ratio = min(max(am, bm) / min(am, bm), 5)
        changed = (len(va) >= 3 or len(vb) >= 3) and sep and ratio > 1.01
        assert changed == m['lkp']['changed'], (ph['name'], va, vb, m['lkp'])


def main():
    text = open(sys.argv[1], encoding='utf-8').read()
    diff = json.load(open(sys.argv[2]))
    run_a, run_b = json.load(open(sys.argv[3])), json.load(open(sys.argv[4]))
    every = '--all' in sys.argv[5:]
    bl = blocks(text)
    assert len(bl) == len(diff['pairs']), (len(bl), len(diff['pairs']))
    n = sum(check_pair(lines, pair, every) for lines, pair in zip(bl, diff['pairs']))
    # one run split by kernel (--by kernel): each side its kernel's cases
    k = diff.get('kernel') or {}
    kernels = [k[s].split(' (')[0] if k.get(s) else None for s in 'ab']
    check_walls(diff['pairs'][0], run_a, run_b, kernels)
    print('%d lkp lines agree with the diff JSON and the runs' % n)


if __name__ == '__main__':
    main()
