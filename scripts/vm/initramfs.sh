#!/usr/bin/env bash
# The initramfs of an fsprof guest:
#   initramfs.sh KDIR FSPROF GUEST_SCRIPT OUT [--kconfig] [--program P]...
#                [--file SRC:DEST]... [--modules "M..."]
# KDIR is a kernel-stage.sh directory (its modules and their load order);
# FSPROF the binary the guest runs, with the libraries ldd names; GUEST_SCRIPT
# becomes /guest-run.sh, which /init (scripts/vm/init) runs with the scratch
# disk mounted and whose /out reaches the host as a tar on the second disk.
# --program copies a program found in PATH (mkfs.xfs) with its libraries,
# --file a file, --kconfig the kernel's config as /boot/config-<release>
# (libbpf reads it for __kconfig), --modules only those of KDIR's modules
# (and what they depend on) that are named, not all it staged: a module
# costs its load under emulation. Uncompressed: unpacking is cheaper than
# decompressing under TCG.
set -euo pipefail

vmdir=$(cd "$(dirname "$0")" && pwd)
kdir=$1 fsprof=$2 guest=$3 dst=$4
shift 4

# copy the libraries ldd names for a program (none for a static one)
copy_libraries() {
	local root=$1 prog=$2 lib

	for lib in $(ldd "$prog" 2>/dev/null | grep -o '/[^ ]*'); do
		mkdir -p "$root$(dirname "$lib")"
		cp -Ln "$lib" "$root$lib"
	done
}

# copy a program found in PATH to the same path, and its libraries
copy_program() {
	local root=$1 prog=$2 path

	path=$(command -v "$prog") || { echo "initramfs: $prog not found" >&2; return 1; }
	mkdir -p "$root$(dirname "$path")"
	cp -L "$path" "$root$path"
	copy_libraries "$root" "$path"
}

root=$(mktemp -d "$(dirname "$dst")/initramfs.XXXXXX")
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/{bin,sbin,etc,proc,sys,dev,tmp,lib/modules,scratch,out}
cp /bin/busybox "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
cp "$fsprof" "$root/fsprof"
copy_libraries "$root" "$fsprof"
[ -r /etc/mke2fs.conf ] && cp /etc/mke2fs.conf "$root/etc/"
install -m 755 "$vmdir/init" "$root/init"
install -m 755 "$guest" "$root/guest-run.sh"
while [ $# -gt 0 ]; do
	case "$1" in
	--kconfig)
		if [ -r "$kdir/config" ]; then
			mkdir -p "$root/boot"
			cp "$kdir/config" "$root/boot/config-$(cat "$kdir/release")"
		fi
		;;
	--program) copy_program "$root" "$2"; shift ;;
	--file) mkdir -p "$root$(dirname "${2#*:}")"; cp "${2%%:*}" "$root${2#*:}"; shift ;;
	--modules) only=$2; only_given=1; shift ;;
	*) echo "initramfs: unknown option $1" >&2; exit 2 ;;
	esac
	shift
done
# the modules: all KDIR staged, or those named that it staged (the others
# are built in) with what they depend on, in their load order
if [ -n "${only_given:-}" ]; then
	want=()
	for m in $only; do
		[ ! -e "$kdir/modules/$m.ko" ] || want+=("$m")
	done
	: >"$root/modules.order"
	[ ${#want[@]} -eq 0 ] ||
		"$vmdir/modules.sh" "$kdir/modules" "$root/lib/modules" "${want[@]}" \
			>"$root/modules.order"
else
	cp "$kdir"/modules/*.ko "$root/lib/modules/" 2>/dev/null || true
	cp "$kdir/modules.order" "$root/modules.order"
fi
(cd "$root" && find . | cpio -o -H newc --quiet -R 0:0) >"$dst"
