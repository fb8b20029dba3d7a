#!/usr/bin/env bats
# untar on ext4: the synthetic tree is extracted exactly as generated (same
# seed, same tree), a GNU tar tarball is extracted exactly as GNU tar does
# it, and archives that try to write outside the extraction directory are
# refused, naming the member.

load helpers

SMALL_FILES=3000
SMALL_BYTES=$((3000 * 16527))

setup_file() {
	load helpers
	scratch_create
	# the synthetic small tree, twice with the same seed
	local i
	for i in 1 2; do
		"$FSPROF" run -w untar:preset=small,seed=7 --fs ext4 \
			--scratch "$SCRATCH" --json "$SCRATCH.synth$i.json" \
			>"$SCRATCH.synth$i.out" 2>&1
		echo $? >"$SCRATCH.synth$i.status"
	done
	make_gnu_tarballs
}

teardown_file() {
	load helpers
	rm -rf "$SCRATCH".* "$SCRATCH-src" "$SCRATCH-ref" "$SCRATCH-evil"
	scratch_remove
}

# a small tree with what tar must get right, packed and unpacked by GNU tar
make_gnu_tarballs() {
	local src=$SCRATCH-src/tree long
	mkdir -p "$src/a/b/c" "$src/d" "$SCRATCH-ref"
	head -c 100000 /dev/urandom >"$src/a/big.bin" # spans 10 KiB records
	echo hi >"$src/a/b/small.txt"
	: >"$src/empty"
	chmod 0600 "$src/empty"
	head -c 20000 /dev/zero | tr '\0' x >"$src/d/x.sh"
	chmod 0755 "$src/d/x.sh"
	chmod 0700 "$src/a/b/c"
	ln -s ../a/big.bin "$src/d/link"
	ln "$src/a/b/small.txt" "$src/d/hard.txt"
	long=$(printf 'n%.0s' $(seq 60))/$(printf 'm%.0s' $(seq 60))
	mkdir -p "$src/$long" # a member name over tar's 100 characters
	echo long >"$src/$long/file"
	touch -d @1600000000 "$src/a/big.bin" "$src/d"
	tar -C "$SCRATCH-src" -czf "$SCRATCH.tree.tar.gz" tree
	tar -C "$SCRATCH-src" -cJf "$SCRATCH.tree.tar.xz" tree
	tar -C "$SCRATCH-ref" -xzf "$SCRATCH.tree.tar.gz"
}

# workload metric $3 of phase $2 in results $1
metric() {
	jqr "$1" ".cases[0].phases[] | select(.name==\"$2\") | .metrics.untar.$3"
}

@test "untar of the synthetic tree succeeds in four phases and leaves nothing behind" {
	cat "$SCRATCH.synth1.out"
	[ "$(cat "$SCRATCH.synth1.status")" -eq 0 ]
	[ "$(cat "$SCRATCH.synth2.status")" -eq 0 ]
	run jqr "$SCRATCH.synth1.json" '[.cases[0].phases[].name] | join(" ")'
	[ "$output" = "extract ex-sync remove rm-sync" ]
	run leftovers "$SCRATCH"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "untar extracts exactly the generator's manifest: file count, bytes and tree checksum" {
	r=$SCRATCH.synth1.json
	[ "$(metric "$r" extract manifest_files)" -eq $SMALL_FILES ]
	[ "$(metric "$r" extract manifest_bytes)" -eq $SMALL_BYTES ]
	[ "$(metric "$r" extract manifest_dirs)" -eq 195 ]
	# walked on disk after ex-sync, not taken from the generator
	for m in files bytes dirs symlinks checksum; do
		echo "$m: manifest $(metric "$r" extract manifest_$m), extracted $(metric "$r" remove extracted_$m)"
		[ "$(metric "$r" remove extracted_$m)" = "$(metric "$r" extract manifest_$m)" ]
	done
	[ "$(metric "$r" remove extracted_checksum)" -gt 0 ]
}

@test "untar extract writes every byte of the tree and ex-sync puts it on the device" {
	r=$SCRATCH.synth1.json
	[ "$(jqr "$r" '.cases[0].phases[] | select(.name=="extract") | .workload.bytes')" -eq $SMALL_BYTES ]
	[ "$(jqr "$r" '.cases[0].phases[] | select(.name=="extract") | .workload.files')" -eq $((SMALL_FILES + 2)) ]
	# what extract left dirty, ex-sync wrote: together at least the data
	wr=$(jqr "$r" '[.cases[0].phases[] | select(.name=="extract" or .name=="ex-sync") | .block.classes.write.bytes] | add')
	echo "device write bytes in extract + ex-sync: $wr"
	[ "$wr" -ge $SMALL_BYTES ]
	[ "$(jqr "$r" '.cases[0].phases[] | select(.name=="ex-sync") | .histograms.op.sync_ns.count')" -eq 1 ]
}

@test "untar remove deletes every file and directory it extracted, none left" {
	r=$SCRATCH.synth1.json
	[ "$(metric "$r" remove files_removed)" -eq $((SMALL_FILES + 2)) ]
	[ "$(metric "$r" remove dirs_removed)" -eq 196 ] # the tree and untar/
	[ "$(metric "$r" remove files_left)" -eq 0 ]
	[ "$(jqr "$r" '.cases[0].phases[] | select(.name=="rm-sync") | .histograms.op.sync_ns.count')" -eq 1 ]
}

@test "the same seed makes the same tree in two runs" {
	a=$(metric "$SCRATCH.synth1.json" remove extracted_checksum)
	b=$(metric "$SCRATCH.synth2.json" remove extracted_checksum)
	echo "run 1: $a, run 2: $b"
	[ "$a" = "$b" ]
}

@test "another seed makes another tree" {
	run "$FSPROF" run -q --no-trace -w untar:preset=small,files=300,seed=8 \
		--fs ext4 --scratch "$SCRATCH" --json "$SCRATCH.seed8.json"
	[ "$status" -eq 0 ]
	run "$FSPROF" run -q --no-trace -w untar:preset=small,files=300,seed=9 \
		--fs ext4 --scratch "$SCRATCH" --json "$SCRATCH.seed9.json"
	[ "$status" -eq 0 ]
	[ "$(metric "$SCRATCH.seed8.json" extract manifest_files)" -eq 300 ]
	[ "$(metric "$SCRATCH.seed8.json" remove extracted_checksum)" != \
		"$(metric "$SCRATCH.seed9.json" remove extracted_checksum)" ]
}

@test "every rate equals bytes or files / wall of the same phase in the JSON" {
	run jq -e '[.cases[0].phases[] | select(.wall_ns > 0) |
		((.workload.mb_per_s - .workload.bytes / 1e6 / (.wall_ns / 1e9)) | fabs) < 1e-6 and
		((.workload.files_per_s - .workload.files / (.wall_ns / 1e9)) | fabs) < 1e-6] | all' \
		"$SCRATCH.synth1.json"
	[ "$status" -eq 0 ]
}

@test "a GNU tar .tar.gz extracts exactly as GNU tar extracts it: types, modes, sizes, contents, links, mtimes" {
	run "$FSPROF" run -q --no-trace \
		-w "untar:tarball=$SCRATCH.tree.tar.gz,verify_dir=$SCRATCH-ref" \
		--fs ext4 --scratch "$SCRATCH" --json "$SCRATCH.gz.json"
	echo "$output"
	[ "$status" -eq 0 ]
	r=$SCRATCH.gz.json
	[ "$(metric "$r" extract manifest_files)" -eq 6 ] # hard link included
	[ "$(metric "$r" extract manifest_symlinks)" -eq 1 ]
	[ "$(metric "$r" remove extracted_checksum)" = "$(metric "$r" extract manifest_checksum)" ]
}

@test "a GNU tar .tar.xz extracts exactly as GNU tar extracts it" {
	run "$FSPROF" run -q --no-trace \
		-w "untar:tarball=$SCRATCH.tree.tar.xz,verify_dir=$SCRATCH-ref" \
		--fs ext4 --scratch "$SCRATCH"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "a difference from GNU tar's extraction fails the run and names the file" {
	cp -a "$SCRATCH-ref" "$SCRATCH-ref2"
	printf Z | dd of="$SCRATCH-ref2/tree/a/big.bin" bs=1 seek=5000 \
		conv=notrunc status=none
	touch -d @1600000000 "$SCRATCH-ref2/tree/a/big.bin"
	run "$FSPROF" run -q --no-trace \
		-w "untar:tarball=$SCRATCH.tree.tar.gz,verify_dir=$SCRATCH-ref2" \
		--fs ext4 --scratch "$SCRATCH"
	echo "$output"
	rm -rf "$SCRATCH-ref2"
	[ "$status" -eq 1 ]
	[[ "$output" == *"tree/a/big.bin: contents differ"* ]]
}

# run untar on a crafted archive; it must be refused naming $2, writing
# nothing: as a usage error before anything is made (exit 2), or, for what
# only the extraction can see, as a failed case (exit $4 = 1)
refuse() {
	local kind=$1 member=$2 why=$3
	python3 "$LIB/craft_tar.py" "$kind" "$SCRATCH.$kind.tar" "$SCRATCH-evil"
	run "$FSPROF" run -q --no-trace -w "untar:tarball=$SCRATCH.$kind.tar" \
		--fs ext4 --scratch "$SCRATCH"
	echo "$output"
	[ "$status" -eq "${4:-2}" ]
	[ -z "$(ls -A "$SCRATCH")" ]
	[[ "$output" == *"member '$member'"* ]]
	[[ "$output" == *"$why"* ]]
	[ ! -e "$SCRATCH-evil" ]
	[ ! -e "$SCRATCH/evil" ]
}

@test "untar refuses an absolute member path, naming the member" {
	refuse absolute "$SCRATCH-evil" "absolute path"
}

@test "untar refuses member paths with '..' components" {
	refuse dotdot "a/../../evil" "'..' component"
	refuse dotdot_leading "../evil" "'..' component"
}

@test "untar refuses symlinks that point outside the extraction directory" {
	refuse symlink_absolute "s' -> '/etc" "absolute path"
	refuse symlink_escape "a/s' -> '../../x" "outside the extraction directory"
}

@test "untar refuses hard links to paths outside the extraction directory" {
	refuse hardlink_absolute "h' -> '/etc/passwd" "absolute path"
	refuse hardlink_escape "h' -> '../x" "'..' component"
	refuse hardlink_through_symlink "h" "not a regular file of the archive" 1
}

@test "untar never writes through a symlink an earlier member made" {
	refuse through_symlink "d/file" "symlink or not a directory" 1
}

@test "untar extracts a safe archive with a symlink and a hard link (control)" {
	python3 "$LIB/craft_tar.py" safe "$SCRATCH.safe.tar"
	run "$FSPROF" run -q --no-trace -w "untar:tarball=$SCRATCH.safe.tar" \
		--fs ext4 --scratch "$SCRATCH" --json "$SCRATCH.safe.json"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(metric "$SCRATCH.safe.json" remove extracted_files)" -eq 2 ]
	[ "$(metric "$SCRATCH.safe.json" remove extracted_symlinks)" -eq 1 ]
}
