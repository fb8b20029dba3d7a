#!/usr/bin/env bats
# fsprof report RUN --bundle DIR: a reproduction bundle of a real run (two
# targets, one with a mount option), read back from the run history: the
# results, the command line and version, the kernel's config, every
# target's mkfs and mount lines as the results JSON has them, a rerun.sh
# that reruns the same cases, and a directory that is not empty refused
# with nothing lost.

load helpers
bats_require_minimum_version 1.5.0

setup_file() {
	load helpers
	scratch_create
	export RUN_JSON="$SCRATCH.run.json"
	"$FSPROF" run -q -w files1m:files=10 \
		--fs "ext4,xfs:mount=logbsize=256k" --scratch "$SCRATCH" \
		--json "$RUN_JSON" >/dev/null 2>"$SCRATCH.err"
	echo $? >"$SCRATCH.status"
}

teardown_file() {
	load helpers
	teardown_file_scratch
}

setup() {
	setup_file_run_ok
}

# this machine's config of the running kernel, as the bundle must copy it
running_config() {
	if [ -r /proc/config.gz ]; then
		zcat /proc/config.gz
	elif [ -r "/boot/config-$(uname -r)" ]; then
		cat "/boot/config-$(uname -r)"
	else
		return 1
	fi
}

@test "report --bundle: results, command and version, the kernel's config" {
	B="$SCRATCH.b1"
	run --separate-stderr "$FSPROF" report latest --bundle "$B"
	echo "$output $stderr"
	[ "$status" -eq 0 ]
	# the recorded run's results, every case
	[ "$(jq '.cases | length' "$B/results.json")" -eq 2 ]
	[ "$(jq -c '.command' "$B/results.json")" = "$(jq -c '.command' "$RUN_JSON")" ]
	# the command line as given, and the fsprof that ran it
	[ "$(sed -n 1p "$B/command")" = "fsprof $("$FSPROF" version | cut -d' ' -f2)" ]
	grep -qxF "fsprof run -q -w files1m:files=10 --fs ext4,xfs:mount=logbsize=256k --scratch $SCRATCH --json $RUN_JSON" "$B/command"
	grep -qF "$(sed -n 2p "$B/command")" "$B/README"
	# the running kernel's config, uncompressed, or the README says why not
	rel=$(uname -r)
	if running_config >"$SCRATCH.config"; then
		cmp "$SCRATCH.config" "$B/kernels/$rel-host.config"
		grep -q "config: kernels/$rel-host.config (from " "$B/README"
	else
		grep -q "config: not available" "$B/README"
	fi
}

@test "report --bundle: each target's mkfs and mount lines are the run's own" {
	B="$SCRATCH.b2"
	"$FSPROF" report "$RUN_JSON" --bundle "$B"
	for i in 0 1; do
		mkfs=$(jq -r ".cases[$i].target.mkfs_cmd" "$RUN_JSON")
		mount=$(jq -r ".cases[$i].target.mount_cmd" "$RUN_JSON")
		dev=$(jq -r ".cases[$i].target.device" "$RUN_JSON")
		[ -n "$mkfs" ] && [ -n "$mount" ]
		grep -qxF "$mkfs" "$B/targets"
		grep -qxF "$mount" "$B/targets"
		grep -qF "mount: $mount" "$B/README"
		# mount(8)'s line of the device the case used
		[[ "$mount" == "mount -t "*" $dev "* ]]
	done
	[[ "$(jq -r '.cases[1].target.mount_cmd' "$RUN_JSON")" == "mount -t xfs -o logbsize=256k /dev/"* ]]
	[[ "$(jq -r '.cases[0].target.mount_cmd' "$RUN_JSON")" == "mount -t ext4 /dev/"* ]]
	[ "$(grep -c '^# ' "$B/targets")" -eq 2 ]
}

@test "report --bundle: rerun.sh is executable, parses, and reruns the same cases" {
	B="$SCRATCH.b3"
	"$FSPROF" report "$RUN_JSON" --bundle "$B"
	[ -x "$B/rerun.sh" ]
	bash -n "$B/rerun.sh"
	sh -n "$B/rerun.sh"
	# the options that make the cases, not where the results went
	grep -qF -- "--workload=files1m:files=10 --fs=ext4,xfs:mount=logbsize=256k" "$B/rerun.sh"
	! grep -qF -- "$RUN_JSON" "$B/rerun.sh"
	run env FSPROF="$FSPROF" OUT="$SCRATCH.rerun.json" "$B/rerun.sh" \
		-q --no-db --scratch "$SCRATCH"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(jq -c '[.cases[] | [.workload.params, .target_label]]' "$SCRATCH.rerun.json")" = \
		"$(jq -c '[.cases[] | [.workload.params, .target_label]]' "$RUN_JSON")" ]
	# and it diffed them with the bundle's
	[[ "$output" == *"files1m"* ]]
}

@test "report --bundle: a directory that is not empty is refused, nothing lost; --force writes beside" {
	B="$SCRATCH.b4"
	mkdir "$B"
	echo mine >"$B/README"
	run --separate-stderr "$FSPROF" report "$RUN_JSON" --bundle "$B"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"not empty"*"nothing was written"*"--force"* ]]
	[ "$(cat "$B/README")" = mine ]
	[ "$(ls "$B")" = README ]
	# a file is no directory
	run --separate-stderr "$FSPROF" report "$RUN_JSON" --bundle "$B/README"
	[ "$status" -eq 2 ]
	[ "$(cat "$B/README")" = mine ]
	echo keep >"$B/notes"
	run "$FSPROF" report "$RUN_JSON" --bundle "$B" --force
	[ "$status" -eq 0 ]
	[ "$(cat "$B/notes")" = keep ]
	grep -q "fsprof reproduction bundle" "$B/README"
	# --force alone, and --bundle with a report's options, are usage errors
	run "$FSPROF" report "$RUN_JSON" --force
	[ "$status" -eq 2 ]
	run "$FSPROF" report "$RUN_JSON" --bundle "$SCRATCH.b5" --format json
	[ "$status" -eq 2 ]
	[ ! -e "$SCRATCH.b5" ]
}

@test "report --bundle: a kernel whose config is not here is named 'not available'" {
	# the same results as if copied from a machine running another kernel
	jq '.cases[].target.kernel_release = "0.0.1-elsewhere"' "$RUN_JSON" >"$SCRATCH.other.json"
	B="$SCRATCH.b6"
	"$FSPROF" report "$SCRATCH.other.json" --bundle "$B"
	grep -qF "Linux 0.0.1-elsewhere, the host's own kernel" "$B/README"
	grep -qF "config: not available (no /proc/config.gz of it running here, no /boot/config-0.0.1-elsewhere)" "$B/README"
	[ ! -e "$B/kernels" ]
	grep -qF "the run's cases ran on 0.0.1-elsewhere" "$B/rerun.sh"
}

@test "report --bundle: a guest kernel's config comes from the staging cache, its package pinned" {
	# the cases as fsprof run --kernel tags them, and the kernel's staged
	# directory as scripts/vm/kernel-stage.sh leaves it
	jq '.cases[].kernel = {release: "6.1.0-99-amd64", source: "linux-image-6.1.0-99-amd64-unsigned", btf_hash: "0123456789abcdef", accel: "tcg", emulated: true}' \
		"$RUN_JSON" >"$SCRATCH.guest.json"
	cache="$SCRATCH.cache"
	mkdir -p "$cache/staged/linux-image-6.1.0-99-amd64-unsigned_6.1.999-1_amd64"
	kdir="$cache/staged/linux-image-6.1.0-99-amd64-unsigned_6.1.999-1_amd64"
	echo linux-image-6.1.0-99-amd64-unsigned >"$kdir/source"
	echo 6.1.0-99-amd64 >"$kdir/release"
	printf 'CONFIG_EXT4_FS=m\nCONFIG_DEBUG_INFO_BTF=y\n' >"$kdir/config"
	B="$SCRATCH.b7"
	FSPROF_VM_CACHE="$cache" "$FSPROF" report "$SCRATCH.guest.json" --bundle "$B"
	cmp "$kdir/config" "$B/kernels/6.1.0-99-amd64.config"
	grep -qF "Linux 6.1.0-99-amd64 in a QEMU guest (tcg), from linux-image-6.1.0-99-amd64-unsigned" "$B/README"
	grep -qF -- "--kernel=linux-image-6.1.0-99-amd64-unsigned" "$B/rerun.sh"
	bash -n "$B/rerun.sh"
	# not staged: not available, and where it was looked for
	B="$SCRATCH.b8"
	FSPROF_VM_CACHE="$SCRATCH.nocache" "$FSPROF" report "$SCRATCH.guest.json" --bundle "$B"
	grep -qF "config: not available (not staged in $SCRATCH.nocache/staged" "$B/README"
}

@test "report --bundle: a run of an older fsprof, without its command line, gets a rerun.sh that says so" {
	jq 'del(.command)' "$RUN_JSON" >"$SCRATCH.old.json"
	B="$SCRATCH.b9"
	run --separate-stderr "$FSPROF" report "$SCRATCH.old.json" --bundle "$B"
	[ "$status" -eq 0 ]
	grep -q "not recorded" "$B/README"
	run "$B/rerun.sh"
	[ "$status" -eq 2 ]
	[[ "$output" == *"not recorded"* ]]
}
