#!/usr/bin/env bats
# make deb: a Debian package of the tree (scripts/make-deb.sh, dpkg-deb)
# with the binary (stripped), the man page and the guest scripts; its
# Depends name the package of every library the binary links. Installed
# with apt into a clean Debian root (scripts/chroot-base.sh: this
# machine's release, the Essential packages and apt, nothing else), its
# Depends come from the archive and the installed fsprof check says a run
# is possible there. In the same clean root, the Makefile's own apt-get
# install of make run's and make test's lists brings no mail server.

load helpers
bats_require_minimum_version 1.5.0

TOP="$BATS_TEST_DIRNAME/../.."

setup_file() {
	load helpers
	scratch_create
	{
		# make deb and its make install build nothing: build/ is
		# current (make test builds it first), so no make here links
		# build/fsprof while another test file may be running it
		if ! make -q -C "$TOP" all; then
			echo "build/ is not current: make all first"
			false
		fi &&
			make -s -C "$TOP" deb &&
			base=$("$TOP/scripts/chroot-base.sh") &&
			mkdir "$SCRATCH/root" &&
			tar -C "$SCRATCH/root" -xf "$base" &&
			cp "$(ls "$TOP"/build/fsprof_*_"$(dpkg --print-architecture)".deb)" \
				"$SCRATCH/root/tmp/" &&
			# the archive as it is now: a package updated since the
			# root was made is fetched in its new version (1 s)
			in_root apt-get update -q
	} >"$SCRATCH.make.out" 2>&1
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

# a command in the clean root, with /proc, /sys (tracefs, BTF) and /dev
# (loop, fuse) bound in a mount namespace of its own: the binds end with it
in_root() {
	unshare --mount --propagation private sh -c '
		root=$1; shift
		for d in proc sys dev; do mount --rbind "/$d" "$root/$d" || exit 1; done
		exec chroot "$root" env DEBIAN_FRONTEND=noninteractive "$@"' sh "$SCRATCH/root" "$@"
}

# the packages of make's deps lists ($1: DEPS_RUN or DEPS)
make_list() {
	make -s -C "$TOP" --eval 'print-%: ; @echo $($*)' "print-$1"
}

# the Makefile's apt-get install, as its deps recipe runs it (its options;
# its -qq left out: it keeps a simulation from listing what it installs)
make_apt_install() {
	make -s -n -C "$TOP" deps | grep -oE 'apt-get install [^$]*' | head -1 |
		sed -E 's/ -q+( |$)/ /'
}

setup() {
	[ "$(cat "$SCRATCH.status")" -eq 0 ] || {
		cat "$SCRATCH.make.out"
		false
	}
}

@test "make deb packs the binary, stripped, the man page and the guest scripts" {
	run dpkg-deb --contents "$(deb)"
	[ "$status" -eq 0 ]
	[[ "$output" == *" ./usr/bin/fsprof"* ]]
	[[ "$output" == *" ./usr/share/man/man1/fsprof.1.gz"* ]]
	[[ "$output" == *" ./usr/lib/fsprof/vm/kernel-stage.sh"* ]]
	[ "$(dpkg-deb --field "$(deb)" Package)" = fsprof ]
	# the binary as Debian packs one: no symbol table, no debug sections
	# (the build's has both)
	dpkg-deb --fsys-tarfile "$(deb)" | tar -xO ./usr/bin/fsprof >"$SCRATCH.bin"
	readelf -S "$TOP/build/fsprof" | grep -q ' \.debug_info '
	readelf -S "$TOP/build/fsprof" | grep -q ' \.symtab '
	run readelf -S "$SCRATCH.bin"
	[ "$status" -eq 0 ]
	[[ "$output" == *" .dynsym "* ]]
	[[ "$output" != *" .debug_"* ]]
	[[ "$output" != *" .symtab "* ]]
	# (it runs: the installed package's fsprof check below)
}

@test "its Depends name the package of every library the binary links" {
	local depends so path paths p pkg owners missing=""
	depends=$(dpkg-deb --field "$(deb)" Depends)
	echo "Depends: $depends"
	# each library's path, the file it links to and the path without
	# /usr, their owners from one dpkg -S (0.14 s a call: 1.5 s one a path)
	for so in $(objdump -p "$TOP/build/fsprof" | awk '$1 == "NEEDED" { print $2 }'); do
		path=$(ldconfig -p | awk -v so="$so" '$1 == so { print $NF; exit }')
		paths+="$so $path $(realpath "$path") ${path#/usr}"$'\n'
	done
	owners=$(dpkg -S $(cut -d' ' -f2- <<<"$paths") 2>/dev/null || true)
	echo "$owners"
	while read -r so path; do
		[ -n "$so" ] || continue
		pkg=
		for p in $path; do
			pkg=$(awk -v p="$p" '$NF == p { print $1; exit }' <<<"$owners")
			[ -n "$pkg" ] && break
		done
		pkg=${pkg%%:*}
		[[ -n "$pkg" && "$depends" == *"$pkg ("* ]] || missing+=" $so:$pkg"
	done <<<"$paths"
	echo "not in Depends:$missing"
	[ -z "$missing" ]
	[[ "$depends" == *"e2fsprogs"*"xfsprogs"* ]]
}

@test "make run's and make test's installs on a clean Debian bring no mail server" {
	local apt_install list mta inst with_recommends sims pid status=0
	apt_install=$(make_apt_install)
	echo "the Makefile's: $apt_install"
	[[ "$apt_install" == "apt-get install "* ]]
	# the packages that are a mail server: what provides mail-transport-agent
	# the three simulations at once, each in its own namespace on the same
	# root (apt -s writes nothing; each is ~1.9 s of one CPU resolving,
	# 5.6 s one after another)
	in_root $apt_install -s $(make_list DEPS_RUN) >"$SCRATCH.DEPS_RUN.sim" 2>&1 &
	sims=$!
	in_root $apt_install -s $(make_list DEPS) >"$SCRATCH.DEPS.sim" 2>&1 &
	sims+=" $!"
	# with recommends, the same list as the first
	in_root apt-get install -s $(make_list DEPS_RUN) >"$SCRATCH.recommends.sim" 2>&1 &
	sims+=" $!"
	mta=$(in_root apt-cache showpkg mail-transport-agent |
		sed -n '/^Reverse Provides:/,$p' | awk 'NR > 1 { print $1 }' | sort -u)
	for pid in $sims; do
		wait "$pid" || status=$?
	done
	echo "mail servers: $(echo $mta)"
	[[ "$mta" == *exim4-daemon-light* ]]
	tail -n 3 "$SCRATCH".*.sim
	[ "$status" -eq 0 ]
	for list in DEPS_RUN DEPS; do
		inst=$(awk '$1 == "Inst" { print $2 }' "$SCRATCH.$list.sim")
		echo "$list: $(wc -l <<<"$inst") packages"
		[ "$(wc -l <<<"$inst")" -ge 20 ]
		[ -z "$(comm -12 <(sort -u <<<"$inst") <(echo "$mta"))" ]
	done
	# with recommends the same list brings one: the check sees a mail server
	with_recommends=$(awk '$1 == "Inst" { print $2 }' "$SCRATCH.recommends.sim" | sort -u)
	[ -n "$(comm -12 <(echo "$with_recommends") <(echo "$mta"))" ]
}

@test "apt installs the package into a clean Debian root, and there fsprof check says a run is possible" {
	local deb_name
	deb_name=$(basename "$(deb)")
	# the clean root has none of it before
	[ ! -e "$SCRATCH/root/usr/sbin/mkfs.xfs" ]
	run in_root apt-get install -y -q --no-install-recommends "/tmp/$deb_name"
	echo "$output" | tail -5
	[ "$status" -eq 0 ]
	[[ "$output" == *"Setting up fsprof ("* ]]
	[[ "$output" == *"Setting up xfsprogs ("* ]]
	run in_root dpkg-query -W -f='${Status}' fsprof
	[ "$output" = "install ok installed" ]

	run --separate-stderr in_root fsprof check --format json
	echo "$output" | jq -c '.items[] | [.name, .status, .detail]'
	[ "$status" -eq 0 ]
	jq -e '.run_possible == true' <<<"$output"
	# what the Depends brought, found in the root
	jq -e '[.items[] | select(.name == "mkfs.ext4" or .name == "mkfs.xfs" or
		.name == "tar" or .name == "xz") | select(.status == "ok")] | length == 4' <<<"$output"
	# a Suggests only (the host has it): missing there, with its install command
	jq -e '.items[] | select(.name == "mkfs.btrfs") | .status == "warn" and
		.fix == "apt-get install --no-install-recommends btrfs-progs"' <<<"$output"
	# which works, and check then finds it
	run in_root apt-get install -y -q --no-install-recommends btrfs-progs
	[ "$status" -eq 0 ]
	run --separate-stderr in_root fsprof check --format json
	jq -e '.items[] | select(.name == "mkfs.btrfs") | .status == "ok"' <<<"$output"
}

@test "the package's man page renders" {
	mkdir "$SCRATCH.root"
	dpkg-deb -x "$(deb)" "$SCRATCH.root"
	run --separate-stderr env MANWIDTH=80 man -l "$SCRATCH.root/usr/share/man/man1/fsprof.1.gz"
	[ "$status" -eq 0 ]
	[[ "$output" == *"fsprof check"* ]]
}
