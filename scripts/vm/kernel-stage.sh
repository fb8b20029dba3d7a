#!/usr/bin/env bash
# Stage one kernel for a QEMU guest, never installing it:
#   kernel-stage.sh [--modules DIR] [--cache DIR] KERNEL [MODULE...]
# KERNEL: "running" (this machine's /boot/vmlinuz-$(uname -r) and
# /lib/modules), a Debian version ("6.1", "6.12") or package name
# (linux-image-...), or a path to a bzImage or vmlinux (--modules DIR: its
# modules, a lib/modules/<release> or a build tree). MODULE: what the guest
# should load (virtio, loop, the filesystems); each one the kernel neither
# ships nor builds in is left out and named in the kernel dir's "absent".
#
# Prints the staged kernel directory: boot (the image QEMU boots), vmlinux
# (ELF, for the BTF check), release, source, config (when there is one),
# modules/*.ko, modules.order (load order), absent. Debian packages are
# fetched with apt-get download into CACHE/debs and unpacked with dpkg -x;
# a directory is staged once and reused. fsprof run --kernel and
# scripts/vm-test.sh both stage through here.
# Exit: 0 staged; 2 the kernel cannot be had (the reason on stderr, naming
# it); 3 a tool this needs is missing.
set -euo pipefail

vmdir=$(cd "$(dirname "$0")" && pwd)
cache=${FSPROF_VM_CACHE:-/var/cache/fsprof-vm}
moddir_given=
# what a staged directory was made with: a change restages it
STAGE_FORMAT=3

refuse() {
	echo "kernel $spec: $*" >&2
	exit 2
}

need_tool() {
	command -v "$1" >/dev/null 2>&1 || {
		echo "kernel-stage: $1 is missing (Debian package $2)" >&2
		exit 3
	}
}

# newest package matching an extended regex, by version sort
newest_package() {
	apt-cache search --names-only "$1" | cut -d' ' -f1 | sort -V | tail -n1
}

# 6.1 -> linux-image-6.1.0-N-amd64-unsigned (what linux-image-amd64 pulls
# in when it is a 6.1), 6.12 -> newest linux-image-6.12.N+debM-amd64-unsigned
resolve_package() {
	local want=$1 esc meta pkg="" re

	case "$want" in
	linux-image-*) echo "$want"; return 0 ;;
	esac
	[[ "$want" =~ ^[0-9]+\.[0-9]+(\.[0-9]+)?$ ]] ||
		refuse "not 'running', a Debian kernel version (6.1, 6.12), a linux-image package or an existing file"
	esc=${want//./\\.}
	re="^linux-image-${esc}(\.[0-9]+)?(-[0-9]+|\+deb[0-9]+)-amd64-unsigned$"
	meta=$(apt-cache depends linux-image-amd64 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[^ ]*-amd64\)$/\1/p' | head -n1)
	if [[ "$meta-unsigned" =~ $re ]]; then
		pkg=$meta-unsigned
	else
		pkg=$(newest_package "$re")
	fi
	if [ -z "$pkg" ]; then
		apt-get update -qq >/dev/null 2>&1 || true
		pkg=$(newest_package "$re")
	fi
	[ -n "$pkg" ] || refuse "apt knows no package for Linux $want (apt-cache search finds no linux-image-$want*-amd64-unsigned; apt-get update, or name the package)"
	echo "$pkg"
}

# the .deb of a package in $cache/debs, downloaded once
fetch_package() {
	local pkg=$1 deb

	mkdir -p "$cache/debs"
	deb=$(ls "$cache/debs/${pkg}_"*.deb 2>/dev/null | sort -V | tail -n1 || true)
	if [ -z "$deb" ]; then
		echo "kernel-stage: downloading $pkg" >&2
		(cd "$cache/debs" &&
			{ apt-get download -q -o APT::Sandbox::User=root "$pkg" >/dev/null 2>&1 ||
				{ apt-get update -qq >/dev/null 2>&1 &&
					apt-get download -q -o APT::Sandbox::User=root "$pkg" >/dev/null 2>&1; }; }) ||
			refuse "apt-get download $pkg failed (no such package in the configured archives, or no network)"
		deb=$(ls "$cache/debs/${pkg}_"*.deb | sort -V | tail -n1)
	fi
	echo "$deb"
}

# vmlinuz is a bzImage: its payload starts at an XZ (6.1), zstd (6.12) or
# gzip magic; the uncompressed ELF boots directly (PVH) and saves ~3.5 s
# of TCG, and it is what the BTF check reads
extract_vmlinux() {
	local vmlinuz=$1 dst=$2 magic off cmd

	if is_elf "$vmlinuz"; then
		cp "$vmlinuz" "$dst"
		return 0
	fi
	for magic in '\xfd\x37\x7a\x58\x5a\x00:xz -qdc --single-stream' \
		'\x28\xb5\x2f\xfd:zstd -qdc' '\x1f\x8b\x08:gzip -qdc'; do
		cmd=${magic#*:}
		for off in $(LC_ALL=C grep -obUaP "${magic%%:*}" "$vmlinuz" | cut -d: -f1); do
			tail -c +$((off + 1)) "$vmlinuz" | $cmd >"$dst" 2>/dev/null || true
			is_elf "$dst" && return 0
		done
	done
	rm -f "$dst"
	return 1
}

is_elf() {
	[ "$(head -c4 "$1" 2>/dev/null | od -An -tx1 | tr -d ' ')" = 7f454c46 ]
}

# a vmlinux QEMU can boot directly has the PVH entry note (CONFIG_PVH)
has_pvh_note() {
	readelf -n "$1" 2>/dev/null | grep -q 'Xen.*0x00000012\|PHYS32_ENTRY'
}

# modules: those the kernel ships or builds in are staged, the rest listed
# in absent; modules.sh orders them after their dependencies
stage_modules() {
	local moddir=$1 kdir=$2 m have=() name file
	shift 2

	: >"$kdir/absent"
	for m in "$@"; do
		# a module's name has _ where its file may have - (md_mod: md-mod.ko)
		name=${m//-/_}
		file=${m//_/-}
		if [ -n "$moddir" ] &&
			{ find "$moddir" -name "$m.ko*" -o -name "$name.ko*" -o -name "$file.ko*" | grep -q . ||
				grep -qE "/($m|$name|$file)\.ko" "$moddir/modules.builtin" 2>/dev/null; }; then
			have+=("$m")
		else
			echo "$m" >>"$kdir/absent"
		fi
	done
	: >"$kdir/modules.order"
	[ ${#have[@]} -eq 0 ] ||
		"$vmdir/modules.sh" "$moddir" "$kdir/modules" "${have[@]}" >"$kdir/modules.order"
}

# an image, its modules dir -> $cache/staged/$1 (a key unique to them)
stage_dir() {
	local key=$1 image=$2 moddir=$3 config=$4 source=$5 kdir release
	shift 5
	kdir=$cache/staged/$key
	if staged "$key" "$@"; then
		echo "$kdir"
		return 0
	fi

	rm -rf "$kdir"
	mkdir -p "$kdir/modules"
	extract_vmlinux "$image" "$kdir/vmlinux" ||
		refuse "no XZ, zstd or gzip payload in $image decompresses to an ELF vmlinux: give the vmlinux of its build"
	if has_pvh_note "$kdir/vmlinux"; then
		ln -s vmlinux "$kdir/boot"
	elif ! is_elf "$image"; then
		cp "$image" "$kdir/boot"
	elif [ -f "$(dirname "$image")/arch/x86/boot/bzImage" ]; then
		cp "$(dirname "$image")/arch/x86/boot/bzImage" "$kdir/boot"
	else
		refuse "$image has no PVH entry (CONFIG_PVH off) and no arch/x86/boot/bzImage beside it: give the bzImage"
	fi
	release=$(LC_ALL=C grep -aoP -m1 'Linux version \K[^ ]+' "$kdir/vmlinux" | head -n1 || true)
	[ -n "$moddir" ] && [ -d "$moddir" ] && [ -z "$release" ] && release=$(basename "$moddir")
	echo "$release" >"$kdir/release"
	echo "$source" >"$kdir/source"
	[ -z "$config" ] || [ ! -r "$config" ] || cp "$config" "$kdir/config"
	stage_modules "$moddir" "$kdir" "$@"
	echo "$STAGE_FORMAT $(module_set "$@")" >"$kdir/ready"
	echo "$kdir"
}

# the modules asked for, as the ready stamp names them: in any order
module_set() {
	printf '%s\n' "$@" | sort -u | tr '\n' ' '
}

# staged before with the same modules asked for
staged() {
	[ "$(cat "$cache/staged/$1/ready" 2>/dev/null)" = "$STAGE_FORMAT $(module_set "${@:2}")" ]
}

stage_package() {
	local pkg deb key unpack rel

	pkg=$(resolve_package "$spec")
	deb=$(fetch_package "$pkg")
	key=$(basename "$deb" .deb)
	if staged "$key" "$@"; then
		echo "$cache/staged/$key"
		return 0
	fi
	echo "kernel-stage: unpacking $(basename "$deb")" >&2
	unpack=$(mktemp -d "$cache/unpack.XXXXXX")
	dpkg -x "$deb" "$unpack"
	rel=$(ls "$unpack/lib/modules")
	stage_dir "$key" "$unpack/boot/vmlinuz-$rel" "$unpack/lib/modules/$rel" \
		"$unpack/boot/config-$rel" "$pkg" "$@"
	rm -rf "$unpack"
}

main() {
	local rel

	while [ $# -gt 0 ]; do
		case "$1" in
		--modules) moddir_given=$2; shift 2 ;;
		--cache) cache=$2; shift 2 ;;
		*) break ;;
		esac
	done
	spec=${1:?usage: kernel-stage.sh [--modules DIR] [--cache DIR] KERNEL [MODULE...]}
	shift
	for t in objcopy:binutils readelf:binutils cpio:cpio xz:xz-utils zstd:zstd; do
		need_tool "${t%%:*}" "${t#*:}"
	done
	mkdir -p "$cache/staged"
	# one stager at a time: another run may be unpacking the same kernel
	exec 9>"$cache/staged/.lock"
	flock 9
	if [ "$spec" = running ]; then
		rel=$(uname -r)
		[ -r "/boot/vmlinuz-$rel" ] ||
			refuse "this machine's kernel image /boot/vmlinuz-$rel is not here to boot in a guest (a container, or /boot not mounted): give its path instead"
		stage_dir "running-$rel-$(stat -c %Y "/boot/vmlinuz-$rel")" \
			"/boot/vmlinuz-$rel" \
			"${moddir_given:-/lib/modules/$rel}" "/boot/config-$rel" \
			"running:/boot/vmlinuz-$rel" "$@"
	elif [ -e "$spec" ] || [[ "$spec" == */* ]]; then
		[ -f "$spec" ] && [ -r "$spec" ] || refuse "no such file"
		spec=$(readlink -f "$spec")
		[ -z "$moddir_given" ] || [ -d "$moddir_given" ] ||
			refuse "--kernel-modules $moddir_given is not a directory"
		stage_dir "path-$(echo "$spec ${moddir_given:-} $(stat -c %Y "$spec")" |
			md5sum | cut -c1-16)" \
			"$spec" "${moddir_given:-}" "" "$spec" "$@"
	else
		command -v apt-get >/dev/null 2>&1 ||
			refuse "no apt-get on this machine to fetch a Debian kernel: give a path to a bzImage or vmlinux"
		need_tool dpkg dpkg
		stage_package "$@"
	fi
}

main "$@"
