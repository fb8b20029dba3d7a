#!/usr/bin/env bats
# --repeat makes a fresh filesystem every time and summarises every metric
# with mean, stddev and a 95% confidence interval.

load helpers

setup_file() {
	load helpers
	scratch_create
	export RESULTS="$SCRATCH.json"
	"$FSPROF" run -q -w seqio:size=4M --fs ext4,xfs --repeat 3 \
		--scratch "$SCRATCH" --json "$RESULTS" >"$SCRATCH.out" 2>&1
	echo $? >"$SCRATCH.status"
}

teardown_file() {
	load helpers
	rm -f "$RESULTS" "$SCRATCH.out" "$SCRATCH.status"
	scratch_remove
}

@test "--repeat 3 on two filesystems runs six cases, targets interleaved" {
	cat "$SCRATCH.out"
	[ "$(cat "$SCRATCH.status")" -eq 0 ]
	[ "$(jqr "$RESULTS" '[.cases[].target_label] | join(",")')" = \
		"ext4,xfs,ext4,xfs,ext4,xfs" ]
	[ "$(jqr "$RESULTS" '[.cases[].repeat] | join(",")')" = "1,1,2,2,3,3" ]
}

@test "every repeat gets a fresh mkfs: three different filesystem UUIDs per target" {
	n=$(jqr "$RESULTS" '[.cases[].target.fs_uuid | select(test("^[0-9a-f-]{36}$"))] | unique | length')
	[ "$n" -eq 6 ]
	# the ext4 UUID libblkid read is the one mkfs announced
	run jq -e '[.cases[] | select(.target.fstype=="ext4") |
		.target as $t | $t.mkfs_output | contains($t.fs_uuid)] | all' "$RESULTS"
	[ "$status" -eq 0 ]
}

@test "the summary's mean, stddev and 95% interval agree with the three cases" {
	run python3 - "$RESULTS" <<'PY'
import json, math, statistics, sys
r = json.load(open(sys.argv[1]))
t975_df2 = 4.303
bad = 0
for g in r["summary"]["groups"]:
    cases = [c for c in r["cases"] if c["target_label"] == g["target"]]
    assert g["repeats"] == 3 == len(cases), g["repeats"]
    for i, ph in enumerate(g["phases"]):
        for name, key in (("wall_ns", lambda p: p["wall_ns"]),
                          ("block.bytes", lambda p: p["block"]["total"]["bytes"]),
                          ("mb_per_s", lambda p: p["workload"]["mb_per_s"])):
            v = [key(c["phases"][i]) for c in cases]
            st = ph["metrics"][name]
            mean, sd = statistics.mean(v), statistics.stdev(v)
            half = t975_df2 * sd / math.sqrt(3)
            ok = (math.isclose(st["mean"], mean, rel_tol=1e-9, abs_tol=1e-9)
                  and math.isclose(st["stddev"], sd, rel_tol=1e-9, abs_tol=1e-9)
                  and math.isclose(st["ci95_high"] - st["mean"], half, rel_tol=1e-6, abs_tol=1e-9))
            print(g["target"], ph["name"], name, "ok" if ok else "MISMATCH", st, v)
            bad += not ok
sys.exit(1 if bad else 0)
PY
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "the text report shows the targets side by side with mean ± interval" {
	# the run was -q (its summary alone): the saved run's full report
	"$FSPROF" report "$RESULTS" >"$SCRATCH.out"
	# the line wraps where the parameters are long: read it joined
	tr '\n' ' ' <"$SCRATCH.out" | tr -s ' ' |
		grep -q "3 repeats per target: mean ± half the 95% confidence interval"
	grep -qE "^write +ext4 " "$SCRATCH.out"
	grep -qE "^ +xfs " "$SCRATCH.out"
}
