#!/usr/bin/env bats
# The original ext3 vs ext4 rm -rf, cold: files1m's remove runs cold by
# default (the target unmounted and mounted again before it, untimed), so
# ext3 must read every file's indirect block to free it - one random read
# per file on a seeking disk - while ext4 frees extents kept in the inode.
#
# One run, both targets, under the hdd model (a seeking 7200 rpm disk),
# --warm --cold remove: the remove cold as by default, the read phase
# warm. Its default cache drop made the read 7.2 s on ext3 and 1.8 s on
# ext4 of the run's 15.6 s, and no test judges it (the default's cache
# states are checked on a small run of 5 files); with the read warm the
# run takes 6.7 s, ext3's remove 1.08 s against ext4's 0.048 s (22x).
# 200 files of 1 MiB, as the original: 12 direct blocks and 244 in one
# indirect block each, the indirect blocks a megabyte apart: beyond the
# disk's 512 KiB read-ahead, so each is a read of its own, a short seek
# and on average half a revolution (~5 ms). Files of 64 KiB would put the
# next file's indirect block inside the read-ahead of the last (68 KiB
# apart): a real disk serves those from its buffer, and so does the model
# (ext3 0.22 s against ext4 0.05 s, 4.6x, measured). ext3's remove is ~200
# synchronous reads (~1 s), ext4's a handful of requests (~0.05 s): the
# ratio is the ratio of their media accesses, which a loaded machine slows
# alike.

load helpers

FILES=200
# ext3's remove against ext4's: the original's was 20-27x. On the seeking
# model it is 4.7-24x (three runs, the same 200 files): how many of ext3's
# indirect blocks a read finds in the disk's read-ahead of the last one
# depends on where ext3 put them, which changes from mkfs to mkfs (one
# run read 145 of its 207 in 40-130 us, another 8 of 208). 3 holds what
# the mechanism holds: one synchronous read a file against a handful
MIN_RATIO=3
# ext3 reads about one metadata block per file removed; ext4 far fewer
EXT3_MIN_READS_PER_FILE=0.9
EXT4_MAX_READS_PER_FILE=0.2

setup_file() {
	load helpers
	scratch_create
	"$FSPROF" run -q -w "files1m:files=$FILES,filesize=1M" --fs ext3,ext4 \
		--device-model hdd --warm --cold remove --scratch "$SCRATCH" \
		--json "$SCRATCH.json" >"$SCRATCH.out" 2>&1
	echo $? >"$SCRATCH.status"
	# the defaults' cache states, on both targets
	"$FSPROF" run -q --no-db -w files1m:files=5,filesize=64k --fs ext3,ext4 \
		--scratch "$SCRATCH" --json "$SCRATCH.default.json" \
		>"$SCRATCH.default.out" 2>&1
	echo $? >>"$SCRATCH.status"
	# --cold names exactly the cold phases; a --dir target, which fsprof
	# did not mount, drops caches for a phase cold by default instead
	mkdir -p "$SCRATCH.dirtarget"
	"$FSPROF" run -q --no-db -w files1m:files=5,filesize=64k --cold read \
		--scratch "$SCRATCH" --json "$SCRATCH.list.json" \
		>"$SCRATCH.list.out" 2>&1
	echo $? >>"$SCRATCH.status"
	"$FSPROF" run -q --no-db -w files1m:files=5,filesize=64k \
		--dir "$SCRATCH.dirtarget" --scratch "$SCRATCH" \
		--json "$SCRATCH.dir.json" >"$SCRATCH.dir.out" 2>&1
	echo $? >>"$SCRATCH.status"
}

teardown_file() {
	load helpers
	rm -f "$SCRATCH".{,default.,list.,dir.}{json,out} "$SCRATCH.status"
	rmdir "$SCRATCH.dirtarget" 2>/dev/null || true
	scratch_remove
}

# remove_value FS JQ: the remove phase's value of a jq path on target FS
remove_value() {
	jqr "$SCRATCH.json" ".cases[] | select(.target_label == \"$1\") |
		.phases[] | select(.name == \"remove\") | $2"
}

# "phase=cache,..." of the first case of a results file
caches() {
	jqr "$1" '[.cases[0].phases[] | .name + "=" + .cache] | join(",")'
}

@test "files1m's remove runs cold by default on both targets, and nothing is left behind" {
	cat "$SCRATCH.out" "$SCRATCH.default.out" "$SCRATCH.list.out" "$SCRATCH.dir.out"
	[ "$(sort -u "$SCRATCH.status")" = 0 ]
	run jqr "$SCRATCH.default.json" '[.cases[] | .target_label + ":" +
		([.phases[] | .name + "=" + .cache] | join(","))] | join(" ")'
	echo "$output"
	[ "$output" = "ext3:create=warm,read=dropped,remove=cold ext4:create=warm,read=dropped,remove=cold" ]
	run leftovers "$SCRATCH"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	run leftovers "$SCRATCH.dirtarget"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "cold rm -rf: ext3 reads an indirect block per file and takes at least 3x ext4's time" {
	local t3 t4 r3 r4
	t3=$(remove_value ext3 .wall_ns)
	t4=$(remove_value ext4 .wall_ns)
	r3=$(remove_value ext3 .block.io_classes.meta_read.ios)
	r4=$(remove_value ext4 .block.io_classes.meta_read.ios)
	echo "remove: ext3 $t3 ns, $r3 metadata reads; ext4 $t4 ns, $r4 metadata reads; $FILES files"
	[ "$(remove_value ext3 .workload.files)" -eq $FILES ]
	[ "$(remove_value ext4 .workload.files)" -eq $FILES ]
	awk -v r="$r3" -v f=$FILES -v m=$EXT3_MIN_READS_PER_FILE \
		'BEGIN { exit !(r / f >= m) }'
	awk -v r="$r4" -v f=$FILES -v m=$EXT4_MAX_READS_PER_FILE \
		'BEGIN { exit !(r / f <= m) }'
	[ "$t4" -gt 0 ]
	[ "$t3" -ge $((t4 * MIN_RATIO)) ]
}

# ext3's remove sleeps in read_io for its indirect blocks as long as the
# disk's read-ahead does not hold them: more than half of it in two runs
# of three (1.17 s, 0.38 s), less in the third (0.26 s, 145 of 207 reads
# from the read-ahead). The rule has two conditions, both at half
# (docs/rules.md): the workload's waits for metadata reads, and those
# reads' share of the device's busy time (once in CI, on a loaded
# machine, read_io was 0.69 of the phase and the rule silent: the test
# judged by the first alone; the second was not printed). With a margin on both sides
# of both: it fires, with ext4 as its advice, when both are 0.6 or more,
# and is silent when either is under 0.4; never on ext4.
@test "metadata-read-bound fires on ext3's cold remove when its reads are half of it, with ext4 as its advice, and not on ext4" {
	local rule='.findings[] | select(.rule == "metadata-read-bound")' share dev
	share=$(remove_value ext3 '.sched.share_of_wall.read_io // 0')
	dev=$(remove_value ext3 '(.block.io_classes.meta_read.busy_ns // 0) /
		(if (.block.busy_ns // 0) > 0 then .block.busy_ns else 1 end)')
	run remove_value ext3 "$rule | [.severity, .advice.kind, .advice.option] | join(\" \")"
	echo "ext3: read_io share $share, metadata reads' share of busy $dev: $output"
	if awk -v s="$share" -v d="$dev" 'BEGIN { exit !(s >= 0.6 && d >= 0.6) }'; then
		[ "$output" = "warning fstype ext4" ]
		run remove_value ext3 "$rule | .evidence[].text"
		echo "$output"
		[[ "$output" == *"metadata reads, the heaviest under ext4_free_branches"* ]]
	elif awk -v s="$share" -v d="$dev" 'BEGIN { exit !(s < 0.4 || d < 0.4) }'; then
		[ -z "$output" ]
	fi
	run remove_value ext4 "[$rule] | length"
	[ "$output" -eq 0 ]
	# silent for the mechanism's reason, not only for being short: ext4
	# slept a small part of its remove in read_io
	run remove_value ext4 '.sched.share_of_wall.read_io // 0'
	echo "ext4 read_io share: $output"
	awk -v s="$output" 'BEGIN { exit !(s < 0.5) }'
}

@test "--warm with --cold remove reads warm and runs the remove, alone, cold" {
	run jqr "$SCRATCH.json" '[.cases[] | .target_label + ":" +
		([.phases[] | .name + "=" + .cache] | join(","))] | join(" ")'
	echo "$output"
	[ "$output" = "ext3:create=warm,read=warm,remove=cold ext4:create=warm,read=warm,remove=cold" ]
}

@test "--cold names exactly the cold phases, whose files read back whole; a --dir target drops caches instead" {
	caches "$SCRATCH.list.json"
	[ "$(caches "$SCRATCH.list.json")" = "create=warm,read=cold,remove=warm" ]
	# the read after the mount again checked every block's stamp
	[ "$(jqr "$SCRATCH.list.json" '.cases[0].phases[1].metrics.files1m.files_verified')" -eq 5 ]
	caches "$SCRATCH.dir.json"
	[ "$(caches "$SCRATCH.dir.json")" = "create=warm,read=dropped,remove=dropped" ]
}
