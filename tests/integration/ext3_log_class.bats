#!/usr/bin/env bats
# The log class on ext3, whose journal is an indirect-mapped file: an IND
# block sits after data blocks 0-11 and after every 1024 data blocks, so the
# journal's data runs alone are 9 (1 GiB image), 17 (5 GiB) or 33 (20 GiB)
# ranges, more than the block domain's 16 from 5 GiB on. With its IND/DIND
# blocks the journal is one contiguous range (two at 20 GiB, where it steps
# over the backup superblock of group 1).
#
# One small files1m run per image size (200 files of 64 KiB: one journal
# commit of ~220 blocks in create). In the create phase the block domain's
# log_write bytes must be what the jbd2 domain says was logged
# (blocks_logged x block size), within 5%.

load helpers

SIZES="1G 5G 20G"

setup_file() {
	load helpers
	scratch_create
	local s
	for s in $SIZES; do
		"$FSPROF" run -q -w files1m:files=200,filesize=64k --fs ext3 \
			--image-size "$s" --scratch "$SCRATCH" \
			--json "$SCRATCH.$s.json" >"$SCRATCH.$s.out" 2>&1
		echo $? >"$SCRATCH.$s.status"
	done
}

teardown_file() {
	load helpers
	local s
	for s in $SIZES; do
		rm -f "$SCRATCH.$s.json" "$SCRATCH.$s.out" "$SCRATCH.$s.status"
	done
	rm -f "$SCRATCH.img"
	scratch_remove
}

# the create phase's value of a jq path, e.g. create_value 5G .metrics.jbd2.commits
create_value() {
	jqr "$SCRATCH.$1.json" ".cases[0].phases[] | select(.name == \"create\") | $2"
}

@test "ext3 runs at 1, 5 and 20 GiB succeed with a log class and leave nothing behind" {
	local s
	for s in $SIZES; do
		echo "$s: $(jq -c .cases[0].target.log "$SCRATCH.$s.json")"
		[ "$(cat "$SCRATCH.$s.status")" -eq 0 ] ||
			{ cat "$SCRATCH.$s.out"; false; }
		! grep -q 'no log class' "$SCRATCH.$s.out" ||
			{ cat "$SCRATCH.$s.out"; false; }
		[ "$(jqr "$SCRATCH.$s.json" '.cases[0].target.log.ranges | length')" -ge 1 ]
	done
	run leftovers "$SCRATCH"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "the ext3 log ranges are the journal inode's data and indirect blocks (debugfs on an identical mkfs)" {
	local s r bs cmd want got
	for s in $SIZES; do
		r="$SCRATCH.$s.json"
		rm -f "$SCRATCH.img"
		truncate -s "$(jqr "$r" '.cases[0].target.image_size')" "$SCRATCH.img"
		cmd=$(jqr "$r" '.cases[0].target.mkfs_cmd')
		${cmd% *} "$SCRATCH.img" >/dev/null 2>&1
		bs=$(dumpe2fs -h "$SCRATCH.img" 2>/dev/null | awk '/^Block size:/ { print $3 }')
		# debugfs lists (IND)/(DIND) blocks too, in walk order
		want=$(debugfs -R 'blocks <8>' "$SCRATCH.img" 2>/dev/null |
			tr ' ' '\n' | grep . | sort -n |
			awk -v spb=$((bs / 512)) '{
				if (n && $1 == prev + 1) { len[n] += spb }
				else { n++; start[n] = $1 * spb; len[n] = spb }
				prev = $1 }
			END { for (i = 1; i <= n; i++) print start[i], len[i] }')
		got=$(jqr "$r" '.cases[0].target.log.ranges[] | "\(.start_sector) \(.sectors)"')
		echo "$s debugfs: $(echo $want)"
		echo "$s fsprof:  $(echo $got)"
		[ -n "$want" ]
		[ "$want" = "$got" ]
	done
	rm -f "$SCRATCH.img"
}

@test "ext3 create writes the log, and log_write bytes are jbd2's blocks_logged x block size within 5%" {
	local s r bs logged written
	for s in $SIZES; do
		r="$SCRATCH.$s.json"
		# "Creating filesystem with 262144 4k blocks"
		bs=$(jqr "$r" '.cases[0].target.mkfs_output |
			capture("with [0-9]+ (?<k>[0-9]+)k blocks").k | tonumber * 1024')
		logged=$(create_value "$s" .metrics.jbd2.blocks_logged)
		written=$(create_value "$s" .block.io_classes.log_write.bytes)
		echo "$s: log_write $written B; jbd2 blocks_logged $logged x $bs B = $((logged * bs)) B"
		[ -n "$bs" ]
		[ "$bs" -gt 0 ]
		[ "$logged" -gt 0 ]
		[ "$written" -gt 0 ]
		[ $((written * 100)) -ge $((logged * bs * 95)) ]
		[ $((written * 100)) -le $((logged * bs * 105)) ]
	done
}
