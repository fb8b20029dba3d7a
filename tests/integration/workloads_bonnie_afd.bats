#!/usr/bin/env bats
# The bonnie and afd workloads on ext4: one bonnie run (CSV + JSON), one
# count-bounded and one time-bounded afd run, all under one bpftrace that
# counts the system calls of fsprof's worker processes (keyed by their
# parent, the fsprof process) as a second count of what the workloads did.
#
# Sizes: bonnie 128 MiB (256 before, 7.5 s of the file's 12): its putc and
# getc, one call a byte, take 0.8-0.9 s each, over the 0.5 s below which
# bonnie++ prints +++++ instead of a rate, so the CSV test still compares
# rates; its seeks are 8192 whatever the size. afd 5,000 files (10,000
# before): every count is per file. The time-bounded afd with a backlog of
# 100 files, not 2,000: what it produced in its second is copied and
# fsynced after it, one fsync a file (a 1.0 s phase, 3 s before).

load helpers
bats_require_minimum_version 1.5.0

setup_file() {
	load helpers
	scratch_create
	export BTLOG="$SCRATCH.bpftrace"
	tracefs_ensure
	# comm is inherited across fork: the workers are "fsprof" too
	bpftrace -e '
	tracepoint:syscalls:sys_enter_lseek /comm == "fsprof"/ {
		@lseek[curtask->real_parent->tgid, args->whence] = count(); }
	tracepoint:syscalls:sys_enter_read /comm == "fsprof" && args->count == 8192/ {
		@read8k[curtask->real_parent->tgid] = count(); }
	tracepoint:syscalls:sys_enter_write /comm == "fsprof" && args->count == 8192/ {
		@write8k[curtask->real_parent->tgid] = count(); }
	tracepoint:syscalls:sys_enter_unlinkat /comm == "fsprof"/ {
		@unlink[curtask->real_parent->tgid] = count(); }
	tracepoint:syscalls:sys_enter_rename* /comm == "fsprof"/ {
		@rename[curtask->real_parent->tgid] = count(); }' \
		>"$BTLOG" 2>&1 &
	BTPID=$!
	wait_for "grep -q '^Attaching' '$BTLOG'" 60

	"$FSPROF" run -q -w bonnie:size=128M --format bonnie-csv \
		--scratch "$SCRATCH" --json "$SCRATCH.bonnie.json" \
		>"$SCRATCH.bonnie.out" 2>"$SCRATCH.bonnie.err" &
	echo $! >"$SCRATCH.bonnie.pid"
	wait $!
	echo $? >"$SCRATCH.bonnie.status"

	"$FSPROF" run -w afd:files=5000,producers=3,copiers=2,outdirs=4,interval=50ms \
		--scratch "$SCRATCH" --json "$SCRATCH.afd.json" \
		>"$SCRATCH.afd.out" 2>"$SCRATCH.afd.err" &
	echo $! >"$SCRATCH.afd.pid"
	wait $!
	echo $? >"$SCRATCH.afd.status"

	"$FSPROF" run -q -w afd:files=100000000,duration=1s,fsync=1,backlog=100 \
		--scratch "$SCRATCH" --json "$SCRATCH.afdtime.json" \
		>"$SCRATCH.afdtime.out" 2>&1
	echo $? >"$SCRATCH.afdtime.status"

	bpftrace_end "$BTPID"
}

teardown_file() {
	load helpers
	rm -f "$BTLOG" "$SCRATCH".bonnie.* "$SCRATCH".afd.* "$SCRATCH".afdtime.*
	scratch_remove
}

# the count bpftrace printed for map $1 and key $2 ("pid" or "pid, n"), or 0
btcount() {
	local v
	v=$(grep -F "@$1[$2]: " "$BTLOG" | awk '{print $NF}')
	echo "${v:-0}"
}

bonnie_metric() {
	jqr "$SCRATCH.bonnie.json" ".cases[0].phases[] | select(.name==\"seeks\") | .metrics.bonnie.$1"
}

@test "bonnie runs its six phases and leaves nothing behind" {
	cat "$SCRATCH.bonnie.err"
	[ "$(cat "$SCRATCH.bonnie.status")" -eq 0 ]
	[ "$(jqr "$SCRATCH.bonnie.json" '[.cases[0].phases[].name] | join(" ")')" = "putc write rewrite getc read seeks" ]
	[ "$(jqr "$SCRATCH.bonnie.json" '[.cases[0].phases[] | select(.cache=="dropped")] | length')" -eq 4 ]
	run leftovers "$SCRATCH"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "bonnie seeks phase performs exactly 8192 seeks, about 10% of them with a rewrite" {
	seeks=$(bonnie_metric seeks)
	rewrites=$(bonnie_metric seek_rewrites)
	echo "seeks $seeks, rewrites $rewrites"
	[ "$seeks" -eq 8192 ]
	# one ticket in ten from a seeded generator: 819 expected, binomial
	# sd 27; allow 7%..13% (the default seed=1 gives 896)
	[ "$rewrites" -ge 573 ]
	[ "$rewrites" -le 1065 ]
}

@test "bonnie seekers' lseek, 8 KiB read and write calls counted by bpftrace match the metrics" {
	pid=$(cat "$SCRATCH.bonnie.pid")
	seeks=$(bonnie_metric seeks)
	rewrites=$(bonnie_metric seek_rewrites)
	lseeks=$(btcount lseek "$pid, 0")
	reads=$(btcount read8k "$pid")
	writes=$(btcount write8k "$pid")
	echo "bpftrace: lseek(SEEK_SET) $lseeks, read 8k $reads, write 8k $writes"
	[ "$reads" -eq "$seeks" ]
	[ "$writes" -eq "$rewrites" ]
	[ "$lseeks" -eq $((seeks + rewrites)) ]
}

@test "bonnie CSV line has bonnie++'s 1.98 layout and its rates equal bytes / wall from the JSON" {
	cat "$SCRATCH.bonnie.out"
	[ "$(wc -l <"$SCRATCH.bonnie.out")" -eq 1 ]
	run python3 - "$SCRATCH.bonnie.out" "$SCRATCH.bonnie.json" <<'EOF'
import csv, json, sys
row = next(csv.reader(open(sys.argv[1])))
res = json.load(open(sys.argv[2]))["cases"][0]
assert len(row) == 50, f"{len(row)} fields, want 50"
assert row[0] == "1.98", row[0]
assert row[3] == "1", "concurrency"
assert row[4] == "1", "seed"
assert row[5] == "128M" and row[6] == "", "file_size, io_chunk_size"
assert row[7] == "8192" and row[8] == "3", "seeks, seek_proc_count"
assert all(f == "" for f in row[21:38]), "file creation tests are empty"
assert all(f == "" for f in row[44:50]), "file creation latencies are empty"
phases = {p["name"]: p for p in res["phases"]}
compared = 0
for i, name in enumerate(["putc", "write", "rewrite", "getc", "read", "seeks"]):
    p = phases[name]
    rate, cpu, lat = row[9 + 2 * i], row[10 + 2 * i], row[38 + i]
    s = p["wall_ns"] / 1e9
    assert lat.endswith(("us", "ms", "s")), f"{name} latency {lat!r}"
    if s < 0.5:
        assert (rate, cpu) == ("+++++", "+++"), f"{name} {rate} {cpu}"
        print(f"{name}: {s:.3f} s, too short: +++++")
        continue
    if name == "seeks":
        v = p["metrics"]["bonnie"]["seeks"] / s
        want = f"{v:.0f}" if v >= 1000 else f"{v:.1f}"
    else:
        want = str(int(p["workload"]["bytes"] / 1024 / s))
    assert rate == want, f"{name}: CSV {rate}, JSON {want}"
    assert int(cpu) == int(p["cpu"]["percent"]), f"{name} cpu {cpu}"
    print(f"{name}: {rate} {cpu} == JSON")
    compared += 1
with open(3, "w") as tap:
    print("# bonnie phases compared (0.5 s or more):", compared, "of 6;",
          ", ".join(f"{n} {phases[n]['wall_ns'] / 1e9:.2f} s" for n in ("putc", "getc")),
          "(line 0.5 s)", file=tap)
assert compared, "every phase was shorter than 0.5 s: nothing compared"
EOF
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "bonnie++'s own bon_csv2txt and bon_csv2html read fsprof's bonnie CSV line" {
	run --separate-stderr bon_csv2txt <"$SCRATCH.bonnie.out"
	echo "$output"
	echo "$stderr"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	# the line's machine and size made it into bonnie++'s table
	name=$(cut -d, -f3 "$SCRATCH.bonnie.out")
	grep -Eq "^$name +128M" <<<"$output"
	grep -q '^Latency' <<<"$output"
	run --separate-stderr bon_csv2html <"$SCRATCH.bonnie.out"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	grep -q ">$name<" <<<"$output"
	grep -q '>128M<' <<<"$output"
}

@test "afd delivers every file it produced and the sink leaves no file behind" {
	cat "$SCRATCH.afd.err"
	[ "$(cat "$SCRATCH.afd.status")" -eq 0 ]
	m=".cases[0].phases[0].metrics.afd"
	[ "$(jqr "$SCRATCH.afd.json" "$m.produced")" -eq 5000 ]
	[ "$(jqr "$SCRATCH.afd.json" "$m.copied")" -eq 5000 ]
	[ "$(jqr "$SCRATCH.afd.json" "$m.delivered")" -eq 5000 ]
	[ "$(jqr "$SCRATCH.afd.json" "$m.leftover_files")" -eq 0 ]
	[ "$(jqr "$SCRATCH.afd.json" '.cases[0].phases[0].workload.files')" -eq 5000 ]
	run leftovers "$SCRATCH"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "afd: bpftrace sees two unlinks and two renames per file (copier and sink; producer and copier)" {
	pid=$(cat "$SCRATCH.afd.pid")
	echo "unlinkat $(btcount unlink "$pid"), rename $(btcount rename "$pid")"
	[ "$(btcount unlink "$pid")" -eq 10000 ]
	[ "$(btcount rename "$pid")" -eq 10000 ]
}

@test "afd per-interval samples sum to the phase totals and rates are files / wall" {
	run jq -e '.cases[0].phases[0] |
		([.intervals[].files] | add) == .workload.files and
		([.intervals[].bytes] | add) == .workload.bytes and
		(.intervals | length) >= 2 and
		((.workload.files_per_s - .workload.files / (.wall_ns / 1e9)) | fabs) < 1e-6 and
		((.workload.mib_per_s - .workload.bytes / 1048576 / (.wall_ns / 1e9)) | fabs) < 1e-6' \
		"$SCRATCH.afd.json"
	[ "$status" -eq 0 ]
}

@test "afd prints one 'files bytes => files/s MiB/s' line per interval and a total" {
	cat "$SCRATCH.afd.out" | head -20
	n=$(jqr "$SCRATCH.afd.json" '.cases[0].phases[0].intervals | length')
	[ "$(grep -cE '^ *[0-9]+ +[0-9]+ => +[0-9.]+ files/s +[0-9.]+ MiB/s$' "$SCRATCH.afd.out")" -eq "$n" ]
	grep -qE '^total +5000 +20480000 => ' "$SCRATCH.afd.out"
}

@test "afd with duration=1s stops producing after a second and still delivers all it produced" {
	cat "$SCRATCH.afdtime.out" | tail -5
	[ "$(cat "$SCRATCH.afdtime.status")" -eq 0 ]
	run jq -e '.cases[0].phases[0] |
		.metrics.afd.produced > 0 and .metrics.afd.produced < 100000000 and
		.metrics.afd.delivered == .metrics.afd.produced and
		.metrics.afd.leftover_files == 0 and .wall_ns >= 1000000000 and
		([.intervals[].files] | add) == .workload.files' "$SCRATCH.afdtime.json"
	[ "$status" -eq 0 ]
	# -q: no interval lines
	if grep -q ' => ' "$SCRATCH.afdtime.out"; then
		false
	fi
}
