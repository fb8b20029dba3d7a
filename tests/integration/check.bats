#!/usr/bin/env bats
# fsprof check: the environment report, on this real machine (run as root).
# FSPROF overrides the binary under test.

bats_require_minimum_version 1.5.0

FAMILIES="ext4 jbd2 xfs block writeback"

setup() {
	FSPROF=${FSPROF:-$BATS_TEST_DIRNAME/../../build/fsprof}
	[ -x "$FSPROF" ] || skip "$FSPROF not built (make)"
	[ "$(id -u)" -eq 0 ] || skip "needs root"
	command -v jq >/dev/null || skip "needs jq"
}

# the tracepoint name prefixes fsprof counts for a family
family_prefixes() {
	case $1 in
	xfs) echo "xfs_ xlog_" ;;
	*) echo "$1_" ;;
	esac
}

# run fsprof check as nobody with no capabilities at all
as_nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		--inh-caps=-all "$@"
}

# JSON report field from $output
json() {
	jq -r "$1" <<<"$output"
}

@test "check exits 0 and reports BTF, privileges and block tracepoints as ok on this kernel" {
	run --separate-stderr "$FSPROF" check
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[[ "$output" =~ $'\n'btf\ +ok\ +/sys/kernel/btf/vmlinux ]]
	[[ "$output" =~ $'\n'privileges\ +ok\  ]]
	[[ "$output" =~ $'\n'tracepoints:block\ +ok\ +[1-9][0-9]*\ tracepoints ]]
	[ "${lines[-1]}" = "a run is possible" ]
}

@test "check prints an aligned table: every row's status starts in the STATUS column" {
	run "$FSPROF" check
	[ "$status" -eq 0 ]
	header=${lines[0]}
	[[ "$header" =~ ^ITEM\ +STATUS\ +DETAIL$ ]]
	prefix=${header%%STATUS*}
	col=${#prefix}
	rows=0
	for line in "${lines[@]:1:${#lines[@]}-2}"; do
		status_word=${line:$col}
		status_word=${status_word%% *}
		[[ "$status_word" =~ ^(ok|warn|missing)$ ]] ||
			{ echo "misaligned: '$line'"; return 1; }
		[ "${line:$col-1:1}" = " " ]
		rows=$((rows + 1))
	done
	# kernel, btf, privileges, tracefs, 5 families, 2 mkfs, loop, the 8
	# tools of the options, scratch space and direct IO, fuse
	[ "$rows" -eq 23 ]
}

@test "check --format json is valid JSON: run_possible true, no reasons, every required item ok" {
	run --separate-stderr "$FSPROF" check --format json
	[ "$status" -eq 0 ]
	jq -e . <<<"$output" >/dev/null
	[ "$(json .run_possible)" = true ]
	[ "$(json '.reasons | length')" -eq 0 ]
	[ "$(json .kernel)" = "$(uname -r)" ]
	[ "$(json '[.items[] | select(.required and .status != "ok")] | length')" -eq 0 ]
	for name in btf privileges tracepoints:block mkfs.ext4 loop; do
		[ "$(json ".items[] | select(.name == \"$name\") | .required")" = true ]
	done
}

@test "check --format json tracepoint counts equal the btf_trace_ typedefs bpftool finds in vmlinux and module BTF" {
	command -v bpftool >/dev/null || skip "needs bpftool"
	run --separate-stderr "$FSPROF" check --format json
	[ "$status" -eq 0 ]
	dump=$BATS_TEST_TMPDIR/btf.txt
	bpftool btf dump file /sys/kernel/btf/vmlinux >"$dump"
	for f in /sys/kernel/btf/*; do
		[ "$f" = /sys/kernel/btf/vmlinux ] && continue
		bpftool -B /sys/kernel/btf/vmlinux btf dump file "$f" >>"$dump"
	done
	for family in $FAMILIES; do
		want=0
		for prefix in $(family_prefixes "$family"); do
			n=$(grep -c "^\[[0-9]*\] TYPEDEF 'btf_trace_$prefix" "$dump" || true)
			want=$((want + n))
		done
		got=$(json ".tracepoints.$family")
		echo "$family: fsprof $got, bpftool $want"
		[ "$got" -eq "$want" ]
	done
	[ "$(json .tracepoints.block)" -gt 0 ]
}

# Every tracepoint with a tracefs event also has a btf_trace_<name> typedef;
# a raw-only tracepoint (DECLARE_TRACE, no event) would make BTF count one more.
# None of these five families has one, so the counts must be equal.
@test "check --format json tracepoint counts match the tracefs events of each family, and tracefs is reported mounted" {
	out=$BATS_TEST_TMPDIR/in-ns
	# a private mount namespace: the host's mounts stay as they are
	unshare --mount sh -c '
		mountpoint -q /sys/kernel/tracing ||
			mount -t tracefs nodev /sys/kernel/tracing || exit 90
		"$1" check --format json >"$2.json" || exit 91
		cd /sys/kernel/tracing/events || exit 92
		for p in ext4_ jbd2_ xfs_ xlog_ block_ writeback_; do
			echo "$p $(find . -mindepth 2 -maxdepth 2 -type d -name "$p*" | wc -l)"
		done >"$2.events"
	' sh "$FSPROF" "$out"
	output=$(cat "$out.json")
	[ "$(json '.items[] | select(.name == "tracefs") | .status')" = ok ]
	[ "$(json '.items[] | select(.name == "tracefs") | .detail')" = "mounted at /sys/kernel/tracing" ]
	for family in $FAMILIES; do
		want=0
		for prefix in $(family_prefixes "$family"); do
			n=$(awk -v p="$prefix" '$1 == p { print $2 }' "$out.events")
			want=$((want + n))
		done
		got=$(json ".tracepoints.$family")
		echo "$family: fsprof $got, tracefs events $want"
		[ "$got" -eq "$want" ]
	done
	[ "$(json .tracepoints.block)" -gt 0 ]
}

@test "check reports tracefs as mountable, and a run as possible, when tracefs is not mounted" {
	run --separate-stderr unshare --mount sh -c '
		umount /sys/kernel/debug/tracing 2>/dev/null
		umount /sys/kernel/debug 2>/dev/null
		umount /sys/kernel/tracing 2>/dev/null
		grep -q " - tracefs " /proc/self/mountinfo && exit 90
		exec "$1" check --format json
	' sh "$FSPROF"
	[ "$status" -eq 0 ]
	[ "$(json '.items[] | select(.name == "tracefs") | .status')" = ok ]
	[[ "$(json '.items[] | select(.name == "tracefs") | .detail')" == mountable* ]]
	[ "$(json .run_possible)" = true ]
}

@test "check as a non-root user without capabilities exits 3 and names CAP_BPF" {
	run --separate-stderr as_nobody "$FSPROF" check
	[ "$status" -eq 3 ]
	[[ "$output" =~ $'\n'privileges\ +missing\ +needs\ root,\ or\ CAP_BPF ]]
	[[ "${lines[-1]}" == "a run is NOT possible: privileges: "*"missing: CAP_BPF, CAP_PERFMON, CAP_SYS_ADMIN"* ]]
	[[ "$stderr" == "fsprof: cannot run: privileges: "*CAP_BPF* ]]
}

@test "check --format json run_possible is false, with privileges the only reason, when not privileged" {
	run --separate-stderr as_nobody "$FSPROF" check --format json
	[ "$status" -eq 3 ]
	[ -z "$stderr" ]
	[ "$(json .run_possible)" = false ]
	[ "$(json '.reasons | length')" -eq 1 ]
	[[ "$(json '.reasons[0]')" == "privileges: "*CAP_BPF* ]]
	[ "$(json '.items[] | select(.name == "privileges") | .status')" = missing ]
	# BTF is world-readable: the tracepoint counts are still there
	[ "$(json .tracepoints.block)" -gt 0 ]
}

@test "check as a non-root user holding CAP_BPF, CAP_PERFMON and CAP_SYS_ADMIN reports privileges ok" {
	caps=+bpf,+perfmon,+sys_admin
	run --separate-stderr setpriv --reuid=nobody --regid=nogroup \
		--clear-groups --inh-caps=$caps --ambient-caps=$caps \
		"$FSPROF" check --format json
	[ "$(json '.items[] | select(.name == "privileges") | .status')" = ok ]
	[ "$(json '.items[] | select(.name == "privileges") | .detail')" = "CAP_BPF + CAP_PERFMON + CAP_SYS_ADMIN" ]
}

@test "check as root with CAP_BPF dropped exits 3 and names CAP_BPF as missing" {
	run --separate-stderr setpriv --bounding-set=-bpf --inh-caps=-all \
		"$FSPROF" check --format json
	[ "$status" -eq 3 ]
	[ "$(json .run_possible)" = false ]
	detail=$(json '.items[] | select(.name == "privileges") | .detail')
	[[ "$detail" == *"(missing: CAP_BPF;"* ]]
}

@test "check exits 3 and names mkfs.ext4 when it is not in PATH; missing mkfs.xfs is only a warning" {
	run --separate-stderr env PATH=/nonexistent "$FSPROF" check --format json
	[ "$status" -eq 3 ]
	[ "$(json .run_possible)" = false ]
	[ "$(json '.reasons | length')" -eq 1 ]
	[[ "$(json '.reasons[0]')" == "mkfs.ext4: "* ]]
	[ "$(json '.items[] | select(.name == "mkfs.ext4") | .status')" = missing ]
	[ "$(json '.items[] | select(.name == "mkfs.xfs") | .status')" = warn ]
}

@test "check reports the path of mkfs.ext4 that PATH resolves to" {
	run --separate-stderr "$FSPROF" check --format json
	[ "$status" -eq 0 ]
	[ "$(json '.items[] | select(.name == "mkfs.ext4") | .detail')" = "$(command -v mkfs.ext4)" ]
}

@test "check reports FUSE, the device model's engine, as ok and not required, and asks nothing of cgroup v1" {
	run --separate-stderr "$FSPROF" check --format json
	[ "$status" -eq 0 ]
	[ "$(json '.items[] | select(.name == "fuse") | .status')" = ok ]
	[ "$(json '.items[] | select(.name == "fuse") | .required')" = false ]
	[[ "$(json '.items[] | select(.name == "fuse") | .detail')" == /dev/fuse* ]]
	[ "$(json '[.items[] | select(.name | test("blkio|cgroup"))] | length')" -eq 0 ]
}

@test "check names each missing part an option needs, with the command that installs it" {
	# a PATH without /usr/bin: QEMU, busybox, cpio, tar and xz are missing
	run --separate-stderr env PATH=/nonexistent "$FSPROF" check
	echo "$output"
	# mkfs.ext4 (in /usr/sbin, not in PATH) is required: no run
	[ "$status" -eq 3 ]
	grep -Eq '^qemu-system-x86_64 +warn +not found: --kernel needs it$' <<<"$output"
	grep -Eq '^xz +warn +not found: -w untar' <<<"$output"
	# each with its install command, this distribution's
	. /etc/os-release
	case " $ID $ID_LIKE " in
	*" debian "* | *" ubuntu "*) cmd="apt-get install --no-install-recommends" ;;
	*) cmd="" ;;
	esac
	sed -n '/^to add what is missing/,$p' <<<"$output" |
		grep -Eq "^  qemu-system-x86_64 +$cmd.*qemu-system-x86"
	# one in an sbin directory but not in PATH: add it to PATH
	sed -n '/^to add what is missing/,$p' <<<"$output" | grep -Eq '^  mdadm +add /(usr/)?sbin to PATH$'
	# the JSON says the same
	run --separate-stderr env PATH=/nonexistent "$FSPROF" check --format json
	jq -e '.items[] | select(.name == "qemu-system-x86_64") | .status == "warn" and (.fix | test("qemu"))' <<<"$output"
	# with the tools in PATH they are ok, and no fix is listed for them
	run --separate-stderr "$FSPROF" check --format json
	jq -e '[.items[] | select(.name == "tar" or .name == "mdadm")] | all(.status == "ok" and .fix == null)' <<<"$output"
}

@test "check says whether the scratch directory has room and direct IO for the loop device" {
	run --separate-stderr "$FSPROF" check --format json
	jq -e '.items[] | select(.name == "scratch-space") | .detail | test("GiB free in /")' <<<"$output"
	jq -e '.items[] | select(.name == "loop-direct-io") | .status == "ok"' <<<"$output"
	# --scratch DIR: that directory's (one of this test's, on /var/tmp)
	local d
	d=$(mktemp -d /var/tmp/fsprof-check-test.XXXXXX)
	run --separate-stderr "$FSPROF" check --format json --scratch "$d"
	jq -e --arg d "$d" '.items[] | select(.name == "scratch-space") | .detail | endswith("free in " + $d)' <<<"$output"
	jq -e --arg d "$d" '.items[] | select(.name == "loop-direct-io") | .detail == "O_DIRECT works in " + $d' <<<"$output"
	# the probe's file is gone: the directory is empty
	rmdir "$d"
}
