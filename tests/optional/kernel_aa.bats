#!/usr/bin/env bats
# The same kernel twice (an A/A): fsprof run --kernel 6.1,6.1 boots two
# guests of Debian's 6.1, which take turns on seqio on ext4, two repeats a
# side; fsprof diff --by kernel must then call no mechanism per operation
# changed: no false alarm. The per_op.* metrics are ratios of counts the
# kernel made (groups scanned per allocation, journal blocks per commit,
# IOs per MB...), which do not move with the emulator's speed. A change is
# called when its Benjamini-Hochberg-adjusted p is under 5% and it is
# beyond its metric's noise floor; with no real change anywhere, BH holds
# the chance of any such call to 5% over the whole family, so one would
# fail this file about one run in twenty at worst, and a per_op metric
# whose repeats agree on each side but differ across the two guests (a
# count that depends on the guest, not the kernel) fails it every time.
# ~60 s of QEMU under TCG on this machine (61 s at load 5): not part of
# make test (it is outside tests/integration); make test-kernel-aa runs it.

load ../integration/helpers

AA_WORKLOAD=seqio:size=8M

setup_file() {
	AA_OUT=$(mktemp -d /var/tmp/fsprof-aa-test.XXXXXX)
	export AA_OUT
	"$FSPROF" run --kernel 6.1,6.1 -w "$AA_WORKLOAD" --fs ext4 --repeat 2 \
		--image-size 320M --scratch "$AA_OUT" --kernel-timeout 7min \
		--db "$AA_OUT/history.db" --json "$AA_OUT/aa.json" \
		>"$AA_OUT/aa.log" 2>&1
	echo $? >"$AA_OUT/aa.rc"
	"$FSPROF" diff latest --by kernel --db "$AA_OUT/history.db" \
		--format json >"$AA_OUT/diff.json" 2>"$AA_OUT/diff.err" || true
	"$FSPROF" diff latest --by kernel --db "$AA_OUT/history.db" \
		>"$AA_OUT/diff.txt" 2>&1 || true
}

teardown_file() {
	if [ -n "${AA_OUT:-}" ]; then
		rm -rf --one-file-system "$AA_OUT"
	fi
}

@test "A/A: the same kernel named twice is two guests, taking turns, each its own kernel (slot 1, 2)" {
	[ "$(cat "$AA_OUT/aa.rc")" -eq 0 ] || { tail -n 30 "$AA_OUT/aa.log"; return 1; }
	jq -e '[.cases[] | {order, slot: .kernel.slot, k: .kernel.btf_hash}]
		| sort_by(.order) | length == 4
		and ([.[].order] == [1, 2, 3, 4])
		and ([.[].slot] == [1, 2, 1, 2])
		and ([.[].k] | unique | length) == 1' "$AA_OUT/aa.json" >/dev/null ||
		{ jq -c '.cases[] | [.order, .kernel]' "$AA_OUT/aa.json"; return 1; }
	[ "$(grep -c 'booting Linux' "$AA_OUT/aa.log")" -eq 2 ]
	grep -Eq '^ +ext4@6\.1\.[0-9]+#2 ' "$AA_OUT/aa.log"
}

@test "A/A: diff --by kernel says the same kernel twice and calls no mechanism per operation changed" {
	jq -e '.kernel.same_twice == true' "$AA_OUT/diff.json" >/dev/null ||
		{ cat "$AA_OUT/diff.err" "$AA_OUT/diff.txt"; return 1; }
	head -n 3 "$AA_OUT/diff.txt" | grep -q 'the same kernel twice (A/A)'
	# the mechanisms are there, with intervals over the two repeats
	jq -e '[.pairs[].phases[].metrics[] | select(.metric | startswith("per_op."))
		| select(.a.n == 2 and .b.n == 2 and .ci95 != null)] | length >= 5' \
		"$AA_OUT/diff.json" >/dev/null || { cat "$AA_OUT/diff.txt"; return 1; }
	# and none is called changed
	run jq -c '[.pairs[].phases[] | .name as $ph | .metrics[]
		| select(.metric | startswith("per_op."))
		| select(.verdict | IN("same", "inconclusive") | not)
		| {phase: $ph, metric, verdict, a: .a.mean, b: .b.mean}]' "$AA_OUT/diff.json"
	echo "$output"
	[ "$output" = "[]" ] || { cat "$AA_OUT/diff.txt"; return 1; }
}
