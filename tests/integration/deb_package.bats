#!/usr/bin/env bats
# make deb: a Debian package of the tree (scripts/make-deb.sh, dpkg-deb)
# with the binary, the man page and the guest scripts; its Depends name the
# package of every library the binary links, apt resolves them on this
# system, and the packaged binary runs fsprof check.

load helpers
bats_require_minimum_version 1.5.0

TOP="$BATS_TEST_DIRNAME/../.."

setup_file() {
	load helpers
	scratch_create
	make -s -C "$TOP" deb >"$SCRATCH.make.out" 2>&1
	echo $? >"$SCRATCH.status"
}

teardown_file() {
	load helpers
	scratch_remove
	rm -rf "$SCRATCH".*
}

deb() {
	ls "$TOP"/build/fsprof_*_"$(dpkg --print-architecture)".deb
}

setup() {
	[ "$(cat "$SCRATCH.status")" -eq 0 ] || {
		cat "$SCRATCH.make.out"
		false
	}
}

@test "make deb packs the binary, the man page and the guest scripts" {
	run dpkg-deb --contents "$(deb)"
	[ "$status" -eq 0 ]
	[[ "$output" == *" ./usr/bin/fsprof"* ]]
	[[ "$output" == *" ./usr/share/man/man1/fsprof.1.gz"* ]]
	[[ "$output" == *" ./usr/lib/fsprof/vm/kernel-stage.sh"* ]]
	[ "$(dpkg-deb --field "$(deb)" Package)" = fsprof ]
}

@test "its Depends name the package of every library the binary links, and apt resolves them here" {
	local depends so path pkg missing=""
	depends=$(dpkg-deb --field "$(deb)" Depends)
	echo "Depends: $depends"
	for so in $(objdump -p "$TOP/build/fsprof" | awk '$1 == "NEEDED" { print $2 }'); do
		path=$(ldconfig -p | awk -v so="$so" '$1 == so { print $NF; exit }')
		pkg=$(dpkg -S "$path" 2>/dev/null || dpkg -S "$(realpath "$path")" 2>/dev/null ||
			dpkg -S "${path#/usr}")
		pkg=${pkg%%:*}
		[[ "$depends" == *"$pkg ("* ]] || missing+=" $so:$pkg"
	done
	echo "not in Depends:$missing"
	[ -z "$missing" ]
	[[ "$depends" == *"e2fsprogs"*"xfsprogs"* ]]
	# apt installs it with its dependencies (simulated: the machine stays)
	run apt-get install -s "$(realpath "$(deb)")"
	echo "$output" | tail -3
	[ "$status" -eq 0 ]
	[[ "$output" == *"Inst fsprof ("* ]]
}

@test "the packaged binary runs fsprof check, and its man page renders" {
	mkdir "$SCRATCH.root"
	dpkg-deb -x "$(deb)" "$SCRATCH.root"
	run --separate-stderr "$SCRATCH.root/usr/bin/fsprof" check --format json
	[ "$status" -eq 0 ]
	jq -e '.run_possible == true' <<<"$output"
	run --separate-stderr env MANWIDTH=80 man -l "$SCRATCH.root/usr/share/man/man1/fsprof.1.gz"
	[ "$status" -eq 0 ]
	[[ "$output" == *"fsprof check"* ]]
}
