#!/usr/bin/env bash
# Wall-time overhead of fsprof's default probe set on the densest phases
# (issue 34: traced / untraced <= 1.02x on mdcreate create, <= 1.05x on
# fsync cycles and direct 4 KiB seqio write, whose every IO runs the block
# and sched programs; empty programs on the default set's tracepoints
# alone cost fsync cycles ~1.05x, scripts/bench/empty-programs.sh),
# measured so that the verdict is decided by the data and not by the
# machine's noise:
#   - the filesystem's image is in memory (tmpfs, a direct-IO loop device
#     over it): the host disk's latency, which varies by tens of percent
#     from one run to the next on a shared VM, is out of the measurement,
#     and the phases run as fast as this machine can run them, so tracing's
#     share of their time is the largest it can be (the worst case);
#   - each round runs the untraced and the traced run of a case back to
#     back (the order alternating from round to round, the cases taking
#     turns within a round): the ratio of a pair sees the same machine
#     load, and a drift in load cancels out of the median;
#   - the figure is the median of the pairs' ratios (untraced throughput /
#     traced throughput = traced wall / untraced wall for the same work)
#     with its distribution-free 95% confidence interval from the order
#     statistics (binomial: no assumption on the ratios' distribution).
#     Verdict: met when the interval's top is <= the case's target, not
#     met when its bottom is above it, otherwise undecided (more rounds).
# PEERS=1 adds two arms to each round, the yardsticks: the untraced run
# under libbpf-tools' biolatency -d on the image's disk ("bio"), and under
# biolatency plus offcputime ("biooff": what a user runs to learn what the
# default set tells, block latency and off-CPU time by stack); each is
# reported as arm / untraced wall, and fsprof against biooff, with the same
# intervals. A target below the peers' own cost cannot be met by a tool
# that sees every IO and every sleep.
# Rounds go on until SECONDS have passed (default 480: one hold of the
# timing lock under 10 minutes), each pair appended to FILE as it ends, so
# that several invocations, each under its own lock hold, add up:
#   wall-overhead.sh run FILE [SECONDS] [CASE...]
#   wall-overhead.sh summary FILE
# A CASE is "WORKLOAD PHASE"; the default three are the phases issue 21
# names. BACKING=disk puts the image on the host disk instead (the old
# way, to see the noise it brings).
set -euo pipefail
here=$(dirname "$0")

summary() {
	python3 - "$1" "$here" <<'EOF'
import statistics, sys
from collections import OrderedDict
sys.path.insert(0, sys.argv[2])
from median_ci import median_ci

# the issue's targets by workload; a case named on the command line
# otherwise is judged by the strictest
targets = {"mdcreate": 1.02, "fsync": 1.05, "seqio": 1.05}
pairs = OrderedDict()
for line in open(sys.argv[1]):
    f = dict(kv.split("=", 1) for kv in line.split())
    key = (f["backing"], f["case"], f["phase"])
    pairs.setdefault(key, []).append(f)

for (backing, case, phase), fs in pairs.items():
    target = targets.get(case.split(":")[0], 1.02)
    r = [float(f["none"]) / float(f["default"]) for f in fs]
    share = [float(f["bpf_ns"]) / float(f["wall_ns"]) for f in fs]
    lo, hi, conf = median_ci(r)
    med = statistics.median(r)
    if lo is None:
        verdict = "undecided (too few pairs for a 95% interval)"
        ci = "n/a"
    else:
        verdict = ("met" if hi <= target else
                   "not met" if lo > target else "undecided")
        ci = "%.3f-%.3f" % (lo, hi)
    print("%s %s (%s image): traced/untraced wall %.3f, 95%% CI %s "
          "(%.1f%%), n %d pairs, min %.3f max %.3f; BPF time %.1f%% of the "
          "traced phase's wall; target <= %.2f: %s" %
          (case, phase, backing, med, ci, 100 * conf, len(r), min(r),
           max(r), 100 * statistics.median(share), target, verdict))
    # the noise beside the effect: the untraced runs alone, the machine
    none = [float(f["none"]) for f in fs]
    q = statistics.quantiles(none, n=4) if len(none) > 1 else none * 3
    line = ("  noise: untraced runs alone max/min %.2f, interquartile "
            "%.0f%% of their median" % (max(none) / min(none),
                                        100 * (q[2] - q[0]) /
                                        statistics.median(none)))
    idle = [int(f[k]) for f in fs for k in ("idle_none", "idle_default")
            if k in f]
    steal = [int(f[k]) for f in fs for k in ("steal_none", "steal_default")
             if k in f]
    if idle:
        line += ("; machine idle over a run median %d%% (%d-%d), steal "
                 "median %d%% (max %d), of %d runs" %
                 (statistics.median(idle), min(idle), max(idle),
                  statistics.median(steal), max(steal), len(idle)))
    print(line)
    # the yardsticks (PEERS=1): each arm's wall against the untraced run's,
    # and fsprof's against the pair a user would run instead
    for arm, what in (("bio", "biolatency -d"),
                      ("biooff", "biolatency -d + offcputime")):
        have = [f for f in fs if arm in f]
        if not have:
            continue
        for name, r in (
                ("%s/untraced" % what,
                 [float(f["none"]) / float(f[arm]) for f in have]),
                ("fsprof/(%s)" % what,
                 [float(f[arm]) / float(f["default"]) for f in have])):
            lo, hi, conf = median_ci(r)
            ci = "n/a" if lo is None else "%.3f-%.3f" % (lo, hi)
            print("  %s wall %.3f, 95%% CI %s, n %d" %
                  (name, statistics.median(r), ci, len(r)))
EOF
}

if [ "${1:-}" = summary ]; then
	summary "$2"
	exit 0
fi
[ "${1:-}" = run ] || {
	sed -n '2,/^set -eu/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
	exit 2
}
out=$(realpath "$2")
budget=${3:-480}
shift 3 || shift $#
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=("mdcreate:files=100000,dirs=4 create"
	"fsync:files=4000 cycles" "seqio:size=256M,bs=4k,direct=yes write")
backing=${BACKING:-memory}

source "$here/lib.sh"
# the peers never outlive the script: they hold the timing lock's file
# descriptor, inherited, as long as they run. They start in one's
# subshell: their pids are kept in a file the EXIT trap reads
PEER_PIDS=$BENCH_DIR/peer.pids
trap 'peers_stop; bench_cleanup' EXIT
if [ "$backing" = memory ]; then bench_fs 4G memory; else bench_fs 4G; fi

# "rate wall_ns bpf_run_ns" of phase $1 in the run's JSON (files/s, or
# bytes/s when the phase moves no files)
phase_rate() {
	jq -r --arg p "$1" '.cases[0].phases[] | select(.name==$p) |
		[(if .workload.files > 0 then .workload.files
		  else .workload.bytes end) / (.wall_ns / 1e9), .wall_ns,
		 .metrics.self.bpf_run_ns // 0] | map(tostring) | join(" ")' \
		"$BENCH_DIR/r.json"
}

# the machine's CPU time since boot (/proc/stat, in ticks): "idle steal total"
cpu_ticks() {
	awk '/^cpu / { print $5 + $6, $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' \
		/proc/stat
}

# the BPF links process $1 holds, counted by their file descriptors;
# nothing when it holds none
links_held() {
	local n
	n=$(grep -l '^link_id:' /proc/"$1"/fdinfo/* 2>/dev/null | wc -l)
	[ "$n" -eq 0 ] || echo "$n"
}

# the peers of an arm (bio, biooff) started, each attached before this
# returns: its links, once their count has stayed the same for 0.5 s (not
# every peer says when it is attached: offcputime prints nothing)
peers_start() {
	local tools=("biolatency -d ${BENCH_LOOP##*/}") t
	[ "$1" = biooff ] && tools+=(offcputime)
	for t in "${tools[@]}"; do
		# shellcheck disable=SC2086 # one command line, split into words
		$t >/dev/null 2>&1 &
		echo $! >>"$PEER_PIDS"
		settled "links_held $!" >/dev/null || {
			echo "wall-overhead: $t did not attach in 60 s" >&2
			peers_stop
			exit 1
		}
	done
}

# their output is not wanted: ended at once, their programs with them
peers_stop() {
	local pid
	[ -s "$PEER_PIDS" ] || return 0
	while read -r pid; do
		kill -KILL "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true # reaped when it is this shell's
		# exited before the next starts: its programs went with its
		# files (a zombie, its parent's to reap, holds none)
		while [ -e "/proc/$pid" ] &&
			[ "$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)" != Z ]; do
			sleep 0.05
		done
	done <"$PEER_PIDS"
	: >"$PEER_PIDS"
}

# one run of workload $1 traced ($2 = default), not (none), or untraced
# under the peers (bio, biooff), phase $3: "rate wall_ns bpf_ns idle%
# steal%", the last two of the machine's CPU time over the whole run (the
# load beside the workload: what makes the noise)
one() {
	local args=(--no-trace) i0 s0 t0 i1 s1 t1
	[ "$2" = default ] && args=()
	case $2 in bio | biooff) peers_start "$2" ;; esac
	read -r i0 s0 t0 <<<"$(cpu_ticks)"
	"$FSPROF" run -q --no-db "${args[@]}" --dir "$BENCH_MNT" -w "$1" \
		--json "$BENCH_DIR/r.json" >/dev/null
	read -r i1 s1 t1 <<<"$(cpu_ticks)"
	case $2 in bio | biooff) peers_stop ;; esac
	echo "$(phase_rate "$3") $(((i1 - i0) * 100 / (t1 - t0 + 1)))" \
		"$(((s1 - s0) * 100 / (t1 - t0 + 1)))"
}

t_end=$(($(date +%s) + budget))
lines=0
[ -f "$out" ] && lines=$(wc -l <"$out")
round=$((lines / ${#cases[@]}))
while [ "$(date +%s)" -lt "$t_end" ]; do
	for c in "${cases[@]}"; do
		read -r w phase <<<"$c"
		# each arm first in turn: an arm's place in the round is no bias
		arms=(none default)
		[ "${PEERS:-0}" = 1 ] && arms+=(bio biooff)
		order=()
		for ((i = 0; i < ${#arms[@]}; i++)); do
			order+=("${arms[(i + round) % ${#arms[@]}]}")
		done
		declare -A rate=() idle=() steal=()
		for m in "${order[@]}"; do
			read -r rate[$m] wall bpf idle[$m] steal[$m] \
				<<<"$(one "$w" "$m" "$phase")"
			[ "$m" = default ] && { twall=$wall; tbpf=$bpf; }
		done
		peers=""
		[ "${PEERS:-0}" = 1 ] && peers=" bio=${rate[bio]} biooff=${rate[biooff]}"
		echo "backing=$backing case=$w phase=$phase first=${order[0]}" \
			"none=${rate[none]} default=${rate[default]}$peers" \
			"wall_ns=$twall bpf_ns=$tbpf" \
			"idle_none=${idle[none]} idle_default=${idle[default]}" \
			"steal_none=${steal[none]} steal_default=${steal[default]}" \
			>>"$out"
	done
	round=$((round + 1))
done
summary "$out"
