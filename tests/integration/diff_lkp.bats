#!/usr/bin/env bats
# fsprof diff --format lkp (docs/diff.md): lkp-tests' compare layout on
# real runs. One run, fsync:files=10 on --fs ext4,ext4,xfs --repeat 3,
# split into its three targets' cases: the two ext4 halves are two runs of
# one target (the compared axis is "run"), ext4 against xfs two targets
# ("target"); the kernel axis is cross_kernel.bats's. Each lkp line is
# parsed at lkp's fixed columns and rebuilt from the diff's JSON with
# lkp's formats (lib/lkp_check.py), and each phase's wall_ns summarised
# again from the runs' own repeats - mean, sd and lkp's criterion. No
# assertion rests on a verdict's value: what is checked is that the text
# says what the JSON says, whatever the machine's load made of the runs.

load helpers
bats_require_minimum_version 1.5.0

LKP_WORKLOAD=fsync:files=10
LKP_REPEATS=3

# the cases of target $2 (0-based) of the 3 of run $1, into $3
pick() {
	jq --argjson i "$2" '.cases |= [.[range($i; length; 3)]]' "$1" >"$3"
}

setup_file() {
	load helpers
	scratch_create
	"$FSPROF" run -q -w "$LKP_WORKLOAD" --fs ext4,ext4,xfs \
		--repeat "$LKP_REPEATS" --scratch "$SCRATCH" \
		--json "$SCRATCH.run.json" >"$SCRATCH.run.out" 2>&1
	echo $? >"$SCRATCH.status"
	pick "$SCRATCH.run.json" 0 "$SCRATCH.a1.json"
	pick "$SCRATCH.run.json" 1 "$SCRATCH.a2.json"
	pick "$SCRATCH.run.json" 2 "$SCRATCH.x.json"
}

teardown_file() {
	load helpers
	scratch_remove
	rm -f "$SCRATCH".*
}

setup() {
	[ "$(cat "$SCRATCH.status")" -eq 0 ] || {
		cat "$SCRATCH.run.out"
		false
	}
}

# fsprof diff of $1 and $2 as lkp text ($3.lkp, options $4...) and JSON ($3.json)
both() {
	local a=$1 b=$2 out=$3
	shift 3
	"$FSPROF" diff --format lkp "$@" "$a" "$b" >"$out.lkp"
	"$FSPROF" diff --format json "$a" "$b" >"$out.json"
}

@test "two runs of one target: lkp's header names the runs, every line is the JSON's" {
	both "$SCRATCH.a1.json" "$SCRATCH.a2.json" "$SCRATCH.aa"
	cat "$SCRATCH.aa.lkp"
	local params
	params=$(jq -r '.pairs[0].params' "$SCRATCH.aa.json")
	[ "$(sed -n 1p "$SCRATCH.aa.lkp")" = "$(printf '=%.0s' $(seq 89))" ]
	[ "$(sed -n 2,3p "$SCRATCH.aa.lkp")" = "workload/params/target:
  fsync/$params/ext4" ]
	[ "$(sed -n 5,7p "$SCRATCH.aa.lkp")" = "run:
  $SCRATCH.a1.json ($LKP_REPEATS repeats)
  $SCRATCH.a2.json ($LKP_REPEATS repeats)" ]
	[ "$(sed -n 10,12p "$SCRATCH.aa.lkp")" = "---------------- ---------------------------
         %stddev     %change         %stddev  fsprof       effect      lkp
             \\          |                \\    |            |           |" ]
	/usr/bin/python3 "$LIB/lkp_check.py" "$SCRATCH.aa.lkp" "$SCRATCH.aa.json" \
		"$SCRATCH.a1.json" "$SCRATCH.a2.json"
}

@test "two targets: the compared axis is the target; wall time, rates and fsync latency lead" {
	both "$SCRATCH.a1.json" "$SCRATCH.x.json" "$SCRATCH.ax"
	cat "$SCRATCH.ax.lkp"
	[ "$(sed -n 5,7p "$SCRATCH.ax.lkp")" = "target:
  ext4 ($LKP_REPEATS repeats)
  xfs ($LKP_REPEATS repeats)" ]
	/usr/bin/python3 "$LIB/lkp_check.py" "$SCRATCH.ax.lkp" "$SCRATCH.ax.json" \
		"$SCRATCH.a1.json" "$SCRATCH.x.json"
	# the first metric line is the first phase's wall time, a KPI
	sed -n 13p "$SCRATCH.ax.lkp" | grep -qE '  cycles\.wall_ns$'
	grep -qE '  cycles\.op\.fsync_ns\.p99$' "$SCRATCH.ax.lkp"
}

@test "-v lists every metric of the diff, still KPIs first" {
	both "$SCRATCH.a1.json" "$SCRATCH.x.json" "$SCRATCH.axv" -v
	/usr/bin/python3 "$LIB/lkp_check.py" "$SCRATCH.axv.lkp" "$SCRATCH.axv.json" \
		"$SCRATCH.a1.json" "$SCRATCH.x.json" --all
	[ "$(grep -cE '  (cycles|remove)\.[a-z_.0-9]+$' "$SCRATCH.axv.lkp")" -eq \
		"$(jq '[.pairs[].phases[].metrics[]] | length' "$SCRATCH.axv.json")" ]
}

@test "the last lines count both criteria's calls as the JSON does" {
	both "$SCRATCH.a1.json" "$SCRATCH.x.json" "$SCRATCH.ax"
	grep -qx "fsprof: $(jq -r '"\(.tests) tests, false discovery rate 5% (Benjamini-Hochberg): \(.verdicts.changed) changed, \(.verdicts.same) same, \(.verdicts.inconclusive) inconclusive"' "$SCRATCH.ax.json")" \
		"$SCRATCH.ax.lkp"
	grep -q "^lkp: $(jq '[.pairs[].phases[].metrics[] | select(.lkp.changed)] | length' "$SCRATCH.ax.json") changed " \
		"$SCRATCH.ax.lkp"
}

@test "a wrong --format names lkp among the formats, exit 2" {
	run --separate-stderr "$FSPROF" diff --format lkq "$SCRATCH.a1.json" "$SCRATCH.a2.json"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"text, json, csv or lkp"* ]]
	"$FSPROF" diff --help | grep -q 'text|json|csv|lkp'
}

# the KPI rows are listed by the noise floors' printer: every row of
# data/kpi.tsv in its order, its glob then its direction and KPI mark
@test "fsprof diff --help lists every row of data/kpi.tsv with its direction and KPI mark" {
	local help want got
	help=$("$FSPROF" diff --help)
	[[ "$help" == *"noise floors without --noise"*"which way is better, and the KPIs"*"exit codes"* ]]
	want=$(grep -v '^#' "$BATS_TEST_DIRNAME/../../data/kpi.tsv" |
		awk -F'\t' 'NF == 4 {
			w = $2 == "none" ? "neither way is better" : $2 " is better"
			print $1 "|" w ($3 == "yes" ? ", KPI" : "") }')
	got=$(sed -n '/^which way is better/,/^$/p' <<<"$help" |
		awk '/^  / { g = $1; sub(/^  [^ ]+ +/, ""); print g "|" $0 }')
	echo "want:"; echo "$want"; echo "got:"; echo "$got"
	[ "$(wc -l <<<"$want")" -ge 20 ]
	[ "$got" = "$want" ]
	# the KPIs among them, as the diff's JSON marks its headline metrics
	[[ "$got" == *"wall_ns|lower is better, KPI"* ]]
	[[ "$got" == *"per_op.*|neither way is better"* ]]
}
