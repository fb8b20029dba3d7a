#!/usr/bin/env bats
# Guests killed under fsprof run --kernel: a guest whose QEMU is killed
# while its case runs (the error names its kernel and case with its
# console, the host is left clean, the other kernel's cases are kept in the
# JSON and the history), and fsprof itself killed with SIGKILL under its
# guest (QEMU dies with it; fsprof cleanup removes the guest's directory
# and that of the kernel given by path).
# Apart from cross_kernel.bats, whose one A/B run its 15 tests share: this
# file's A/B is a second one (two boots, ~30 s of QEMU at load 5), in the
# pairable pool (tests/run-all.sh) beside the other.
# Skipped, with the reason, where QEMU cannot be had.

load helpers

# The guest of 6.12 killed (SIGKILL to its QEMU) once the host has let it
# start its case: that run goes on with 6.1 alone. Untraced and small, so
# that a case costs a few seconds of the guest, not the ~20 s of loading
# the BPF programs under TCG; under the hdd model, which the guest sets up
# as the host does (the engine's FUSE file under a lower loop device, on a
# guest with cgroup2 alone). Its exit
# status into killed/rc.
killed_ab() {
	local out=$VM_OUT/killed pid i rc=0
	mkdir -p "$out"
	"$FSPROF" run --kernel 6.1,6.12 -w seqio:size=1M --fs ext4 --no-trace \
		--device-model hdd \
		--image-size 320M --scratch "$out/scratch" --kernel-timeout 5min \
		--db "$out/history.db" --json "$out/run.json" >"$out/log" 2>&1 &
	pid=$!
	for i in $(seq 1 3000); do
		grep -q 'kernel 6.12: case 2 of the run' "$out/log" && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	pkill -KILL -f "qemu-system-x86_64.*linux-image-6[.]12[.].*$out/scratch/" &&
		touch "$out/killed"
	wait "$pid" || rc=$?
	echo "$rc" >"$out/rc"
}

setup_file() {
	command -v qemu-system-x86_64 >/dev/null 2>&1 || {
		export VM_SKIP="qemu-system-x86_64 is not installed"
		return 0
	}
	VM_OUT=$(mktemp -d /var/tmp/fsprof-vm-killed.XXXXXX)
	export VM_OUT
	killed_ab
}

setup() {
	[ -z "${VM_SKIP:-}" ] || skip "$VM_SKIP"
}

teardown_file() {
	if [ -n "${VM_OUT:-}" ]; then
		rm -rf --one-file-system "$VM_OUT"
	fi
}

@test "a guest killed while a case runs: its kernel and case named with its console, the host clean, the other kernel's cases kept" {
	local out=$VM_OUT/killed
	[ -e "$out/killed" ] || { echo "6.12's QEMU was not found to kill"; cat "$out/log"; return 1; }
	[ "$(cat "$out/rc")" -eq 1 ] || { cat "$out/rc" "$out/log"; return 1; }
	# the error: the kernel, the case it ran, how it ended, its console
	grep -A3 'kernel 6.12 (6.12.*the guest ended: QEMU was killed by signal 9 (Killed) during seqio on ext4, repeat 1; its console ended:' \
		"$out/log" | grep -q '^    .*fsprof-vm: ' || { cat "$out/log"; return 1; }
	# 6.1's case is kept: in the JSON and the history
	jq -e '[.cases[] | {k: .kernel.release, order, complete}]
		| length == 1 and (.[0].k | startswith("6.1.")) and .[0].order == 1
		and .[0].complete' "$out/run.json" >/dev/null ||
		{ cat "$out/log"; return 1; }
	# the device model held in the guest as on the host: its engine
	# served the guest's lower loop (a case whose engine fails fails)
	jq -e '.cases[0].target.device_model | startswith("hdd: rpm=7200 ")' \
		"$out/run.json" >/dev/null || { cat "$out/log"; return 1; }
	jq -e '.cases[0].target.device_model_stack.engine.charged > 0' \
		"$out/run.json" >/dev/null || { cat "$out/log"; return 1; }
	run "$FSPROF" report latest --db "$out/history.db" --format json
	[ "$status" -eq 0 ]
	echo "$output" | jq -e '[.cases[].kernel.release] == [.cases[0].kernel.release]
		and (.cases[0].kernel.release | startswith("6.1."))' >/dev/null
	# the host is clean: no guest directory, QEMU, mount or loop device
	[ -z "$(ls -A "$out/scratch")" ] || { ls -laR "$out/scratch"; return 1; }
	! pgrep -f "qemu-system-x86_64.*$out/" >/dev/null
	! grep -q "$out" /proc/mounts
	! losetup -a | grep -q "$out"
}

# fsprof itself killed (SIGKILL) while its guest boots: nothing of fsprof
# runs to end the guest, so QEMU must die with it (PR_SET_PDEATHSIG), and
# fsprof cleanup must find the guest's directory in the run's state file,
# and the directory where a kernel given by path was staged for the run
# (6.1 as setup_file staged it: its vmlinux and the modules it needs)
@test "fsprof killed with SIGKILL mid-boot: its QEMU dies with it, fsprof cleanup removes the guest's and the staged kernel's directories" {
	local out=$VM_OUT/sigkill pid i k
	k=$(ls -d "${FSPROF_VM_CACHE:-/var/cache/fsprof-vm}"/staged/linux-image-6.1.*/ | head -n1)
	[ -f "$k/vmlinux" ] && [ -d "$k/modules" ] || { echo "6.1 not staged: $k"; return 1; }
	mkdir -p "$out"
	"$FSPROF" run --kernel "$k/vmlinux" --kernel-modules "$k/modules" \
		-w seqio:size=1M --fs ext4 --no-trace --no-db --scratch "$out" \
		>"$out.log" 2>&1 &
	pid=$!
	for i in $(seq 1 600); do
		pgrep -f "qemu-system-x86_64.*$out/" >/dev/null && break
		sleep 0.1
	done
	pgrep -f "qemu-system-x86_64.*$out/" >/dev/null || { cat "$out.log"; kill "$pid"; return 1; }
	kill -KILL "$pid"
	wait "$pid" || true
	for i in $(seq 1 50); do
		pgrep -f "qemu-system-x86_64.*$out/" >/dev/null || break
		sleep 0.1
	done
	! pgrep -f "qemu-system-x86_64.*$out/" >/dev/null
	ls -d "$out"/fsprof.guest-* "$out"/fsprof.kernels-* >/dev/null
	run "$FSPROF" cleanup --scratch "$out"
	echo "$output"
	[ "$status" -eq 0 ]
	echo "$output" | grep -q "removed directory $out/fsprof.guest-"
	echo "$output" | grep -q "removed directory $out/fsprof.kernels-"
	# the state file went with what it recorded
	[ -z "$(ls -A "$out")" ] || { ls -la "$out"; return 1; }
}
