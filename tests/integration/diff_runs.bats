#!/usr/bin/env bats
# fsprof diff on real runs (docs/diff.md):
# - A/A: one run of files1m create on ext4 twice per round, 5 rounds
#   (--fs ext4,ext4 --repeat 5: the two "targets" interleaved), split into
#   A and B. No headline metric may come out better or worse, and the
#   changed share of all tests stays near the false discovery rate.
# - ext4 vs ext4:mount=nodelalloc, 5 repeats each, interleaved: the create
#   phase is worse, the delayed-allocation metrics are among the top
#   mechanism metrics, --fail-above 5% exits 1 naming the metric.
# - one run a side: inconclusive with a repeat estimate, never a verdict.
# - Welch's interval and p of the diff checked against SciPy on the
#   per-repeat values in the two results files.

load helpers
bats_require_minimum_version 1.5.0

setup_file() {
	load helpers
	scratch_create
	local w=files1m:files=500
	"$FSPROF" run -q -w "$w" --fs ext4,ext4 --repeat 5 \
		--scratch "$SCRATCH" --json "$SCRATCH.aa.json" \
		>"$SCRATCH.aa.out" 2>&1
	echo $? >"$SCRATCH.aa.status"
	"$FSPROF" run -q -w "$w" --fs ext4,ext4:mount=nodelalloc --repeat 5 \
		--scratch "$SCRATCH" --json "$SCRATCH.ab.json" \
		>"$SCRATCH.ab.out" 2>&1
	echo $? >"$SCRATCH.ab.status"
	# the history round trip: a labelled baseline, then the latest run
	"$FSPROF" run -q -w fsync:files=30 --fs ext4 --repeat 2 --label diffbase \
		--scratch "$SCRATCH" --json "$SCRATCH.h1.json" >"$SCRATCH.h1.out" 2>&1
	"$FSPROF" run -q -w fsync:files=30 --fs ext4 --repeat 2 \
		--scratch "$SCRATCH" --json "$SCRATCH.h2.json" >"$SCRATCH.h2.out" 2>&1
	# A: the first target's cases, B: the second's (cases alternate)
	jq '.cases |= [.[range(0; length; 2)]]' "$SCRATCH.aa.json" >"$SCRATCH.a1.json"
	jq '.cases |= [.[range(1; length; 2)]]' "$SCRATCH.aa.json" >"$SCRATCH.a2.json"
	jq '.cases |= [.[range(0; length; 2)]]' "$SCRATCH.ab.json" >"$SCRATCH.base.json"
	jq '.cases |= [.[range(1; length; 2)]]' "$SCRATCH.ab.json" >"$SCRATCH.nodel.json"
	jq '.cases |= [.[0]]' "$SCRATCH.ab.json" >"$SCRATCH.one_a.json"
	jq '.cases |= [.[1]]' "$SCRATCH.ab.json" >"$SCRATCH.one_b.json"
}

teardown_file() {
	load helpers
	scratch_remove
	rm -f "$SCRATCH".*
}

setup() {
	[ "$(cat "$SCRATCH.aa.status")" -eq 0 ] && [ "$(cat "$SCRATCH.ab.status")" -eq 0 ] || {
		cat "$SCRATCH.aa.out" "$SCRATCH.ab.out"
		false
	}
}

# the verdict of metric $2 in phase $3 of diff JSON $1
verdict() {
	jq -r --arg m "$2" --arg p "$3" '.pairs[0].phases[] | select(.name == $p) |
		.metrics[] | select(.metric == $m) | .verdict' "$1"
}

@test "a run against the same configuration: no headline metric better or worse, few changes overall" {
	"$FSPROF" diff --format json "$SCRATCH.a1.json" "$SCRATCH.a2.json" >"$SCRATCH.aa.diff"
	jq '.verdicts, .tests' "$SCRATCH.aa.diff"
	jq -r '.pairs[0].phases[].metrics[] | select(.headline) |
		"\(.metric) \(.verdict) \(.note)"' "$SCRATCH.aa.diff"
	[ "$(jq '.pairs[0].a_repeats' "$SCRATCH.aa.diff")" -eq 5 ]
	[ "$(jq '.pairs[0].b_repeats' "$SCRATCH.aa.diff")" -eq 5 ]
	[ -z "$(jq -r '.pairs[0].phases[].metrics[] | select(.headline and
		(.verdict == "better" or .verdict == "worse")) | .metric' "$SCRATCH.aa.diff")" ]
	tests=$(jq '.tests' "$SCRATCH.aa.diff")
	changed=$(jq '.verdicts.changed' "$SCRATCH.aa.diff")
	[ "$tests" -ge 100 ]
	# the FDR bounds false discoveries among discoveries; with nothing
	# changed, at most a few percent of the tests may call a change
	[ $((changed * 100)) -le $((tests * 5)) ]
}

@test "nodelalloc on a files1m create is found worse, delayed allocation among the mechanisms" {
	run --separate-stderr "$FSPROF" diff --fail-above 5% "$SCRATCH.base.json" "$SCRATCH.nodel.json"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"mount options"*"nodelalloc"* ]]
	[[ "$output" == *"Benjamini-Hochberg"* ]]
	echo "$output" | grep -qE '^ +(wall_ns|mb_per_s) .* worse'
	echo "$output" | grep -qE '^  changed: ext4\.da_'
	echo "$output" | grep -A4 -E '^--fail-above 5%: [0-9]+ headline' |
		grep -qE 'files1m create: (wall_ns|mb_per_s) [-+]'
	"$FSPROF" diff --format json "$SCRATCH.base.json" "$SCRATCH.nodel.json" >"$SCRATCH.ab.diff"
	# the time and the rate of the create phase: worse, and never better
	wall=$(verdict "$SCRATCH.ab.diff" wall_ns create)
	rate=$(verdict "$SCRATCH.ab.diff" mb_per_s create)
	echo "create: wall_ns $wall, mb_per_s $rate"
	[ "$wall" = worse ] || [ "$rate" = worse ]
	[ "$wall" != better ]
	[ "$rate" != better ]
	[ "$(verdict "$SCRATCH.ab.diff" ext4.da_flushes create)" = lower ]
}

@test "without --fail-above the same diff exits 0" {
	run "$FSPROF" diff "$SCRATCH.base.json" "$SCRATCH.nodel.json"
	[ "$status" -eq 0 ]
}

@test "one run a side is inconclusive with a repeat estimate, never better or worse" {
	"$FSPROF" diff --format json "$SCRATCH.one_a.json" "$SCRATCH.one_b.json" >"$SCRATCH.one.diff"
	[ "$(jq '.verdicts.changed' "$SCRATCH.one.diff")" -eq 0 ]
	[ "$(verdict "$SCRATCH.one.diff" wall_ns create)" = inconclusive ]
	jq -r '.pairs[0].phases[0].metrics[] | select(.metric == "wall_ns") | .note' \
		"$SCRATCH.one.diff" | grep -q '2 a side'
	[ "$(jq '[.pairs[0].phases[0].metrics[] | select(.ci95 != null)] | length' "$SCRATCH.one.diff")" -eq 0 ]
}

@test "the diff's Welch interval and p agree with SciPy on the per-repeat values" {
	"$FSPROF" diff --format json "$SCRATCH.base.json" "$SCRATCH.nodel.json" >"$SCRATCH.ab.diff"
	/usr/bin/python3 - "$SCRATCH.base.json" "$SCRATCH.nodel.json" "$SCRATCH.ab.diff" <<'PY'
import json, sys
from scipy import stats
import numpy as np
a, b, d = (json.load(open(f)) for f in sys.argv[1:4])
def walls(run, ph):
    return [next(p['wall_ns'] for p in c['phases'] if p['name'] == ph)
            for c in run['cases']]
checked = 0
for phase in d['pairs'][0]['phases']:
    m = next(x for x in phase['metrics'] if x['metric'] == 'wall_ns')
    va, vb = np.array(walls(a, phase['name']), float), np.array(walls(b, phase['name']), float)
    t = stats.ttest_ind(vb, va, equal_var=False)
    se2 = va.var(ddof=1) / len(va) + vb.var(ddof=1) / len(vb)
    df = se2 ** 2 / ((va.var(ddof=1) / len(va)) ** 2 / (len(va) - 1) +
                     (vb.var(ddof=1) / len(vb)) ** 2 / (len(vb) - 1))
    half = stats.t.ppf(0.975, df) * se2 ** 0.5
    diff = vb.mean() - va.mean()
    assert abs(m['p'] - t.pvalue) < 1e-6 * max(1, t.pvalue), (phase['name'], m['p'], t.pvalue)
    assert abs(m['ci95'][0] - (diff - half)) < 1e-6 * abs(half), (m['ci95'], diff - half)
    assert abs(m['ci95'][1] - (diff + half)) < 1e-6 * abs(half), (m['ci95'], diff + half)
    checked += 1
assert checked == 3, checked
print('checked', checked, 'phases against scipy')
PY
}

@test "the CSV has one row per phase and metric and reads back with Python's csv module" {
	"$FSPROF" diff --format csv "$SCRATCH.base.json" "$SCRATCH.nodel.json" >"$SCRATCH.ab.csv"
	"$FSPROF" diff --format json "$SCRATCH.base.json" "$SCRATCH.nodel.json" >"$SCRATCH.ab.diff"
	rows=$(/usr/bin/python3 -c '
import csv, json, sys
r = list(csv.DictReader(open(sys.argv[1], newline="")))
assert all(x["verdict"] for x in r)
d = json.load(open(sys.argv[2]))
want = {(p["name"], m["metric"]): m for p in d["pairs"][0]["phases"] for m in p["metrics"]}
for x in r:
    m = want[(x["phase"], x["metric"])]
    assert x["verdict"] == m["verdict"], (x, m)
    assert float(x["mean_a"]) == m["a"]["mean"] or abs(float(x["mean_a"]) / m["a"]["mean"] - 1) < 1e-9
print(len(r))' "$SCRATCH.ab.csv" "$SCRATCH.ab.diff")
	[ "$rows" -eq "$(jq '[.pairs[].phases[].metrics[]] | length' "$SCRATCH.ab.diff")" ]
}

@test "different workload parameters are refused, naming them; --allow-mismatch compares anyway" {
	jq '.cases[].workload.params = "files=999,filesize=1M,bs=4k"' "$SCRATCH.nodel.json" >"$SCRATCH.other.json"
	run --separate-stderr "$FSPROF" diff "$SCRATCH.base.json" "$SCRATCH.other.json"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"files1m parameters: A files=500"*"B files=999"* ]]
	[[ "$stderr" == *"--allow-mismatch"* ]]
	run "$FSPROF" diff --allow-mismatch "$SCRATCH.base.json" "$SCRATCH.other.json"
	[ "$status" -eq 0 ]
}

@test "diff --baseline LABEL latest gives what diffing the two results files gives" {
	[ -s "$SCRATCH.h1.json" ]
	[ -s "$SCRATCH.h2.json" ]
	"$FSPROF" diff --format json --baseline diffbase latest >"$SCRATCH.hist.diff"
	"$FSPROF" diff --format json "$SCRATCH.h1.json" "$SCRATCH.h2.json" >"$SCRATCH.files.diff"
	[ "$(jq -r .a "$SCRATCH.hist.diff")" = label:diffbase ]
	[ "$(jq '.tests' "$SCRATCH.hist.diff")" -gt 50 ]
	diff <(jq -S 'del(.a, .b)' "$SCRATCH.hist.diff") \
		<(jq -S 'del(.a, .b)' "$SCRATCH.files.diff")
}

@test "bad diff arguments get one line and a hint, exit 2" {
	run --separate-stderr "$FSPROF" diff "$SCRATCH.base.json"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"diff compares two runs"*"see 'fsprof diff --help'" ]]
	run --separate-stderr "$FSPROF" diff --alpha 2 "$SCRATCH.base.json" "$SCRATCH.nodel.json"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--alpha '2'"* ]]
	run --separate-stderr "$FSPROF" diff "$SCRATCH.base.json" /nonexistent.json
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"/nonexistent.json"* ]]
}
