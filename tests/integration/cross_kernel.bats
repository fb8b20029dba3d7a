#!/usr/bin/env bats
# Kernel A/B, and CO-RE checked on other kernels: one
#   fsprof run --kernel 6.1,6.12 -w seqio:size=8M --fs ext4,xfs
# boots Debian's 6.1 and 6.12 kernels under QEMU once each and runs every
# case inside both (setup_file); the tests read its JSON, its history entry
# and fsprof diff --by kernel of it, and judge each guest's cases against
# the same fsprof on this host (scripts/vm/check-results.jq). The refusals
# (no BTF, a filesystem without its module, a package apt cannot fetch)
# come before any boot; the hung guest is one killed 3 s into its boot.
# Guests killed mid-case, and fsprof killed under its guests, are
# kernel_killed.bats's.
# Skipped, with the reason, where QEMU cannot be had.

load helpers

# the A/B's workload and repeats. A case costs ~20 s of a TCG guest (mkfs,
# loading the BPF programs under emulation): 2 repeats took this file from
# ~150 s to 330 s, so the suite runs one, and the intervals of the diff
# (two repeats a side) are unit tests' (test_diff_kernel.c);
# FSPROF_AB_REPEATS=2 checks them here too
AB_WORKLOAD=seqio:size=8M
AB_REPEATS=${FSPROF_AB_REPEATS:-1}

setup_file() {
	command -v qemu-system-x86_64 >/dev/null 2>&1 || {
		# bats 1.8 cannot skip from setup_file: every test's setup does
		export VM_SKIP="qemu-system-x86_64 is not installed"
		return 0
	}
	VM_OUT=$(mktemp -d /var/tmp/fsprof-vm-test.XXXXXX)
	export VM_OUT
	# the reference: what attaches on this host must attach in every guest
	"$FSPROF" run -q -w "$AB_WORKLOAD" --fs ext4,xfs --image-size 320M \
		--no-db --scratch "$VM_OUT" --json "$VM_OUT/host.json" \
		>"$VM_OUT/host.log" 2>&1 || true
	"$FSPROF" run --kernel 6.1,6.12 -w "$AB_WORKLOAD" --fs ext4,xfs \
		--repeat "$AB_REPEATS" --image-size 320M --scratch "$VM_OUT" \
		--kernel-timeout 7min \
		--db "$VM_OUT/history.db" --json "$VM_OUT/ab.json" \
		--html "$VM_OUT/ab.html" >"$VM_OUT/ab.log" 2>&1
	echo $? >"$VM_OUT/ab.rc"
	"$FSPROF" diff latest --by kernel --db "$VM_OUT/history.db" \
		--format json >"$VM_OUT/diff.json" 2>"$VM_OUT/diff.err" || true
	"$FSPROF" diff latest --by kernel --db "$VM_OUT/history.db" \
		>"$VM_OUT/diff.txt" 2>&1 || true
	"$FSPROF" diff latest --by kernel --db "$VM_OUT/history.db" \
		--format lkp >"$VM_OUT/diff.lkp" 2>&1 || true
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

show_log() {
	echo "fsprof run --kernel exited $(cat "$VM_OUT/ab.rc"):"
	tail -n 40 "$VM_OUT/ab.log"
}

# the cases of the kernel whose release starts with $1 ("6.1", "6.12")
kernel_cases() {
	jq --arg k "$1" '[.cases[] | select(.kernel.release |
		test("^" + ($k | gsub("[.]"; "[.]")) + "[.-]"))]' "$VM_OUT/ab.json"
}

# check-results.jq on the first repeat of each filesystem of one kernel
judge_kernel() {
	local fs expected
	expected=$(jq -c '[.cases[].programs[].domain] | unique' "$VM_OUT/host.json")
	for fs in ext4 xfs; do
		jq -n --arg fs "$fs" --argjson rc 0 --argjson expected "$expected" \
			--slurpfile run <(kernel_cases "$1" | jq --arg fs "$fs" \
				'{cases: [.[] | select(.target.fstype == $fs)][:1]}') \
			--slurpfile hostrun "$VM_OUT/host.json" \
			-f "$BATS_TEST_DIRNAME/../../scripts/vm/check-results.jq"
	done | jq -s '.'
}

guest_runs_every_case() {
	local cases
	cases=$(kernel_cases "$1")
	echo "$cases" | jq -e --argjson n $((2 * AB_REPEATS)) \
		'length == $n and all(.complete) and
		 ([.[].target.fstype] | unique) == ["ext4", "xfs"]' >/dev/null ||
		{ show_log; return 1; }
}

every_domain_attaches() {
	judge_kernel "$1" | jq -e '[.[] | .absent[], (.domains[].failed[])] == []' \
		>/dev/null || {
		show_log
		judge_kernel "$1" | jq -c '.[] | {fs, absent, problems}'
		return 1
	}
}

block_and_fs_domains_count() {
	local j
	j=$(judge_kernel "$1")
	echo "$j" | jq -e 'length == 2 and all(.[]; .domains.block.nonzero == true)
		and ([.[].domains[] | select(.checked and (.nonzero | not))] == [])
		and ([.[].problems[] | select(startswith("block:"))] == [])' \
		>/dev/null || {
		show_log
		echo "$j" | jq -c '.[] | {fs, problems}'
		return 1
	}
}

# the report's kernels list, a line a kernel (wrapped lines joined)
kernel_lines() {
	awk '/^kernels \(QEMU guests\):$/ { on = 1; next }
		!on { next }
		{ sub(/ +$/, "") }
		/^    / { sub(/^ +/, " "); printf "%s", $0; next }
		/^  / { if (n++) print ""; printf "%s", $0; next }
		{ exit }
		END { if (n) print "" }' "$VM_OUT/ab.log"
}

@test "Linux 6.1 guest runs every case of the run on ext4 and xfs" {
	guest_runs_every_case 6.1
}

@test "Linux 6.1: every domain the host attaches loads, no program fails" {
	every_domain_attaches 6.1
}

@test "Linux 6.1: block IO covers seqio and every attached domain counts, ext4 and xfs" {
	block_and_fs_domains_count 6.1
}

@test "Linux 6.12 guest runs every case of the run on ext4 and xfs" {
	guest_runs_every_case 6.12
}

@test "Linux 6.12: every domain the host attaches loads, no program fails" {
	every_domain_attaches 6.12
}

@test "Linux 6.12: block IO covers seqio and every attached domain counts, ext4 and xfs" {
	block_and_fs_domains_count 6.12
}

@test "run --kernel: one run, each case tagged with its kernel: release, package, BTF hash, accelerator" {
	[ "$(cat "$VM_OUT/ab.rc")" -eq 0 ] || { show_log; return 1; }
	jq -e --argjson n $((4 * AB_REPEATS)) '(.cases | length) == $n and all(.cases[]; .kernel != null
		and (.kernel.source | startswith("linux-image-"))
		and (.kernel.btf_hash | test("^[0-9a-f]{16}$"))
		and (.kernel.accel == "tcg" or .kernel.accel == "kvm")
		and .kernel.emulated == (.kernel.accel == "tcg"))
		and ([.cases[].kernel.btf_hash] | unique | length) == 2' \
		"$VM_OUT/ab.json" >/dev/null || { show_log; return 1; }
	# one boot each
	[ "$(grep -c 'booting Linux' "$VM_OUT/ab.log")" -eq 2 ] || { show_log; return 1; }
}

@test "run --kernel: the kernels take turns, A, B, A, B, each case's order in the JSON" {
	# sorted by order: 1..n, the kernels alternate, and each pair of
	# neighbours (A then B) is the same workload, target and repeat
	jq -e '[.cases[] | {order, k: .kernel.release,
			c: [.workload.name, .target_label, .repeat]}] | sort_by(.order)
		| ([.[].order] == [range(1; length + 1)])
		and .[0].k != .[1].k
		and (. as $s | all(range(0; length); $s[.].k == $s[. % 2].k))
		and (. as $s | all(range(0; length; 2); $s[.].c == $s[. + 1].c))' \
		"$VM_OUT/ab.json" >/dev/null || {
		show_log
		jq -c '.cases[] | [.order, .kernel.release, .target_label]' "$VM_OUT/ab.json"
		return 1
	}
	# the report says it too
	grep -Eq '^  6\.1\.[^ ]* .*, cases 1 3 of the run$' <<<"$(kernel_lines)"
	grep -Eq '^  6\.12\.[^ ]* .*, cases 2 4 of the run$' <<<"$(kernel_lines)"
}

@test "run --kernel: the HTML report lists the kernels (release, source, BTF id, guest) and loads in chromium" {
	command -v chromium >/dev/null || skip "chromium is not installed"
	timeout 120 chromium --headless --no-sandbox --disable-gpu \
		--hide-scrollbars --enable-logging=stderr --v=0 \
		--user-data-dir="$VM_OUT/chromium" --dump-dom \
		"file://$VM_OUT/ab.html" >"$VM_OUT/dom.html" 2>"$VM_OUT/dom.log"
	run grep 'CONSOLE' "$VM_OUT/dom.log"
	[ "$status" -eq 1 ] || { echo "$output"; return 1; }
	# the Kernels table against the JSON: a row a kernel, with its cases
	run python3 "$BATS_TEST_DIRNAME/lib/html_check.py" "$VM_OUT/dom.html" \
		"$VM_OUT/ab.json"
	echo "$output"
	[ "$status" -eq 0 ]
	grep -q '<h2 id="kernels">Kernels</h2>' "$VM_OUT/dom.html"
}

@test "run --kernel: the text report names each kernel, that its times are emulated, and each group's kernel" {
	grep -Eq '^  6\.1\.[^ ]*  linux-image-6\.1\.[^ ]*, (tcg|kvm) guest, BTF [0-9a-f]{16}' <<<"$(kernel_lines)" ||
		{ show_log; return 1; }
	grep -Eq '^  6\.12\.[^ ]*  linux-image-6\.12\.[^ ]*, (tcg|kvm) guest, BTF [0-9a-f]{16}' <<<"$(kernel_lines)" ||
		{ show_log; return 1; }
	if grep -q 'tcg guest' <<<"$(kernel_lines)"; then
		grep -q "^  tcg: emulated, the guests' times are the emulator's" "$VM_OUT/ab.log"
	fi
	# the report within 100 columns (wc -L: characters, the tables' ±
	# are two bytes each), the progress lines on stderr aside
	[ "$(grep -v '^fsprof: ' "$VM_OUT/ab.log" | wc -L)" -le 100 ] ||
		{ grep -v '^fsprof: ' "$VM_OUT/ab.log" | awk 'length > 100'; return 1; }
	# findings and the repeat table per kernel: seqio on ext4, Linux 6.1...
	grep -q '^seqio on ext4, Linux 6\.1\.' "$VM_OUT/ab.log"
	grep -q '^seqio on xfs, Linux 6\.12\.' "$VM_OUT/ab.log"
	grep -Eq '^ +xfs@6\.12\.[0-9]+ ' "$VM_OUT/ab.log"
}

@test "run --kernel: the history keeps the run with both kernels, and its cases' kernels" {
	run "$FSPROF" runs --db "$VM_OUT/history.db" --format json
	[ "$status" -eq 0 ]
	echo "$output" | jq -e '.[0].kernel | test("^6[.]1[.][^,]*,6[.]12[.]")' >/dev/null ||
		{ echo "$output"; return 1; }
	run "$FSPROF" report latest --db "$VM_OUT/history.db" --format json
	[ "$status" -eq 0 ]
	echo "$output" | jq -e '[.cases[].kernel.release] | unique | length == 2' >/dev/null
}

@test "diff --by kernel: the kernel is the variable, seqio paired on ext4 and on xfs" {
	jq -e --argjson r "$AB_REPEATS" '(.kernel.a | startswith("6.1."))
		and (.kernel.b | startswith("6.12."))
		and ([.pairs[] | .a_target] | sort) == ["ext4", "xfs"]
		and all(.pairs[]; .a_repeats == $r and .b_repeats == $r)' \
		"$VM_OUT/diff.json" >/dev/null || { cat "$VM_OUT/diff.err" "$VM_OUT/diff.txt"; return 1; }
	head -n 3 "$VM_OUT/diff.txt" | grep -q 'the kernel is the variable under test'
}

@test "diff --by kernel: mechanisms per operation with intervals; emulated times not judged" {
	# per operation: bytes per IO of both kernels, on both filesystems;
	# with two repeats a side, with their intervals
	jq -e --argjson r "$AB_REPEATS" '[.pairs[].phases[]
		| select(.name == "write") | .metrics[]
		| select(.metric == "per_op.block.bytes_per_io")
		| select(.a.n == $r and .b.n == $r and .a.mean > 0 and .b.mean > 0
			and ((.ci95 != null) == ($r >= 2)))] | length == 2' \
		"$VM_OUT/diff.json" >/dev/null || { cat "$VM_OUT/diff.txt"; return 1; }
	if jq -e '.kernel.emulated' "$VM_OUT/diff.json" >/dev/null; then
		jq -e '[.pairs[].phases[].metrics[] | select(.metric == "wall_ns")]
			| length > 0 and all(.p == null and (.note | test("emulated")))' \
			"$VM_OUT/diff.json" >/dev/null || { cat "$VM_OUT/diff.txt"; return 1; }
		grep -q 'emulated (TCG)' "$VM_OUT/diff.txt"
		grep -q 'per op:' "$VM_OUT/diff.txt"
	fi
}

@test "diff --by kernel --format lkp: the kernel the compared axis, every line the JSON's" {
	cat "$VM_OUT/diff.lkp"
	[ "$(grep -c '^kernel:$' "$VM_OUT/diff.lkp")" -eq 2 ]
	grep -A2 '^kernel:$' "$VM_OUT/diff.lkp" | grep -q '^  6\.1\.[^ ]* (.*) ('"$AB_REPEATS"' repeats)$'
	grep -A2 '^kernel:$' "$VM_OUT/diff.lkp" | grep -q '^  6\.12\.[^ ]* (.*) ('"$AB_REPEATS"' repeats)$'
	/usr/bin/python3 "$LIB/lkp_check.py" "$VM_OUT/diff.lkp" "$VM_OUT/diff.json" \
		"$VM_OUT/ab.json" "$VM_OUT/ab.json"
}

@test "report --bundle of the A/B: each kernel's config from its package, rerun.sh pins both packages" {
	[ "$(cat "$VM_OUT/ab.rc")" -eq 0 ] || { show_log; return 1; }
	B="$VM_OUT/bundle"
	"$FSPROF" report "$VM_OUT/ab.json" --bundle "$B"
	pkgs=$(jq -r '[.cases[].kernel.source] | unique | join(",")' "$VM_OUT/ab.json")
	[[ "$pkgs" == linux-image-6.1.*,linux-image-6.12.* ]]
	for rel in $(jq -r '[.cases[].kernel.release] | unique | .[]' "$VM_OUT/ab.json"); do
		# the config the package shipped, as the run staged it
		from=$(sed -n "s|^  config: kernels/$rel.config (from \(.*\))\$|\1|p" "$B/README")
		[[ "$from" == "${FSPROF_VM_CACHE:-/var/cache/fsprof-vm}/staged/"*/config ]] ||
			{ cat "$B/README"; return 1; }
		cmp "$from" "$B/kernels/$rel.config"
		grep -qx 'CONFIG_DEBUG_INFO_BTF=y' "$B/kernels/$rel.config"
	done
	# the same kernels in the same order, pinned to the packages that ran
	grep -qF -- "--kernel=$(jq -r '[.cases[] | .kernel.source] | reduce .[] as $k ([]; if index([$k]) then . else . + [$k] end) | join(",")' "$VM_OUT/ab.json")" "$B/rerun.sh"
	grep -qF -- "--kernel-timeout=7min" "$B/rerun.sh"
	grep -qF 'diff "$out" --by kernel' "$B/rerun.sh"
	bash -n "$B/rerun.sh"
	grep -qxF "$(jq -r '.cases[0].target.mkfs_cmd' "$VM_OUT/ab.json")" "$B/targets"
}

# a copy of Debian's 6.1 vmlinux, staged by the run above, without .BTF
@test "a kernel without BTF is refused before any boot, naming it and the config fix" {
	local v
	v=$(ls -d /var/cache/fsprof-vm/staged/linux-image-6.1.*/vmlinux | head -n1)
	objcopy --remove-section .BTF "$v" "$VM_OUT/vmlinux-nobtf"
	run "$FSPROF" run --kernel "$VM_OUT/vmlinux-nobtf" -w "$AB_WORKLOAD" \
		--no-db --scratch "$VM_OUT"
	[ "$status" -eq 2 ] || { echo "$output"; return 1; }
	echo "$output" | grep -q "kernel $VM_OUT/vmlinux-nobtf (6.1.*no BTF"
	echo "$output" | grep -q 'CONFIG_DEBUG_INFO_BTF=y.*DEBUG_INFO_REDUCED off'
	! echo "$output" | grep -q booting
}

# Debian's vmlinux alone, without its modules: ext4 (=m there) is missing,
# which every guest needs for its disks whatever --fs says (an xfs-only
# run's guest could not mount its ext4 scratch disk before it was asked
# for), then xfs
@test "a filesystem the kernel has neither built in nor among its modules is refused before any boot" {
	local v
	v=$(ls -d /var/cache/fsprof-vm/staged/linux-image-6.1.*/vmlinux | head -n1)
	run "$FSPROF" run --kernel "$v" --fs xfs -w "$AB_WORKLOAD" --no-db \
		--scratch "$VM_OUT"
	[ "$status" -eq 2 ] || { echo "$output"; return 1; }
	echo "$output" | grep -q 'ext4 is neither built in nor a module it ships (a guest needs it for its disks).*CONFIG_EXT4_FS.*--kernel-modules'
	! echo "$output" | grep -q booting
}

@test "a kernel package apt cannot fetch is refused before any boot" {
	run "$FSPROF" run --kernel 6.1,linux-image-0.0.0-fsprof-absent \
		-w "$AB_WORKLOAD" --no-db --scratch "$VM_OUT"
	[ "$status" -eq 2 ] || { echo "$output"; return 1; }
	echo "$output" | grep -q 'kernel linux-image-0.0.0-fsprof-absent: apt-get download'
	! echo "$output" | grep -q booting
}

@test "a guest past --kernel-timeout is killed: its console in the error, nothing left behind" {
	run "$FSPROF" run --kernel 6.1 --kernel-timeout 3s -w "$AB_WORKLOAD" \
		--no-db --scratch "$VM_OUT/hung"
	[ "$status" -eq 1 ] || { echo "$output"; return 1; }
	echo "$output" | grep -q 'kernel 6.1 (6.1.*did not finish within 3 s (--kernel-timeout) and was killed; its console ended'
	[ -z "$(ls "$VM_OUT/hung")" ] || { ls -la "$VM_OUT/hung"; return 1; }
	! pgrep -f "qemu-system-x86_64.*$VM_OUT/hung" >/dev/null
}
