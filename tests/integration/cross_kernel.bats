#!/usr/bin/env bats
# CO-RE checked on other kernels: scripts/vm-test.sh boots Debian's 6.1 and
# 6.12 kernels under QEMU, runs a tiny fsprof seqio on ext4 and xfs in each
# and judges the results JSON. One VM run per file (setup_file); the tests
# read its summary. Skipped, with the reason, where QEMU or the kernel
# packages cannot be had.

load helpers

setup_file() {
	local top prep prep_status
	top=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	# packages, kernel download and unpack; 3: this machine cannot
	prep=$("$top/scripts/vm-test.sh" --prepare 2>&1) && prep_status=0 || prep_status=$?
	if [ "$prep_status" -eq 3 ]; then
		# bats 1.8 cannot skip from setup_file: every test's setup does
		export VM_SKIP="${prep##*cannot run here: }"
		return 0
	fi
	[ "$prep_status" -eq 0 ] || {
		echo "$prep" >&2
		return 1
	}
	VM_OUT=$(mktemp -d /var/tmp/fsprof-vm-test.XXXXXX)
	export VM_OUT
	# the binary under test, as it is: vm-test.sh's own make would build
	# build/fsprof again in the middle of the suite
	"$top/scripts/vm-test.sh" --fsprof "$FSPROF" --out "$VM_OUT" \
		>"$VM_OUT/vm-test.log" 2>&1 || true
}

setup() {
	[ -z "${VM_SKIP:-}" ] || skip "$VM_SKIP"
}

# (an if, not &&: with no VM run, a false test would fail teardown_file)
teardown_file() {
	if [ -n "${VM_OUT:-}" ]; then
		rm -rf --one-file-system "$VM_OUT"
	fi
}

# the summary of the kernel whose release starts with $1 ("6.1", "6.12")
kernel_summary() {
	[ -s "$VM_OUT/summary.json" ] || {
		echo "vm-test.sh wrote no summary:" >&2
		show_log >&2
		return 1
	}
	jq --arg k "$1" '.kernels[] | select(.release | test("^" + ($k | gsub("[.]"; "[.]")) + "[.-]"))' \
		"$VM_OUT/summary.json"
}

show_log() {
	cat "$VM_OUT/vm-test.log"
}

guest_runs_fsprof() {
	local s
	s=$(kernel_summary "$1")
	[ -n "$s" ] || { show_log; return 1; }
	echo "$s" | jq -e '.runs | length == 2 and all(.rc == 0)' >/dev/null ||
		{ show_log; return 1; }
}

every_domain_attaches() {
	local s
	s=$(kernel_summary "$1")
	[ -n "$s" ] || { show_log; return 1; }
	echo "$s" | jq -e '[.runs[] | .absent[], (.domains[].failed[])] == []' >/dev/null ||
		{ show_log; return 1; }
}

block_and_fs_domains_count() {
	local s
	s=$(kernel_summary "$1")
	[ -n "$s" ] || { show_log; return 1; }
	echo "$s" | jq -e 'all(.runs[]; .domains.block.nonzero == true)' >/dev/null ||
		{ show_log; return 1; }
	echo "$s" | jq -e '[.runs[].domains[] | select(.checked and (.nonzero | not))] == []' \
		>/dev/null || { show_log; return 1; }
	# the write phase wrote and the cold read read at least seqio's bytes
	echo "$s" | jq -e '[.runs[].problems[] | select(startswith("block:"))] == []' \
		>/dev/null || { show_log; return 1; }
}

@test "Linux 6.1 guest boots and runs fsprof on ext4 and xfs" {
	guest_runs_fsprof 6.1
}

@test "Linux 6.1: every domain the host attaches loads, no program fails" {
	every_domain_attaches 6.1
}

@test "Linux 6.1: block IO covers seqio and every attached domain counts, ext4 and xfs" {
	block_and_fs_domains_count 6.1
}

@test "Linux 6.12 guest boots and runs fsprof on ext4 and xfs" {
	guest_runs_fsprof 6.12
}

@test "Linux 6.12: every domain the host attaches loads, no program fails" {
	every_domain_attaches 6.12
}

@test "Linux 6.12: block IO covers seqio and every attached domain counts, ext4 and xfs" {
	block_and_fs_domains_count 6.12
}
