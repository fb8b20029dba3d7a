#!/bin/sh
# make deb: a Debian package of fsprof built from this tree, with
# dpkg-deb: the binary, the man page and run --kernel's guest scripts as
# make install PREFIX=/usr puts them, and a control file whose Depends are
# the packages of the libraries the binary links (its NEEDED entries, as
# dpkg -S finds them here) and of the tools every run calls; the tools of
# single options (--fs btrfs, --raid, --dm, --kernel) are Suggests.
#
# usage: scripts/make-deb.sh BUILD_DIR OUT_DIR   (writes OUT_DIR/fsprof_VERSION_ARCH.deb)
set -eu

[ $# -eq 2 ] || { echo "usage: $0 BUILD_DIR OUT_DIR" >&2; exit 2; }
build=$1
out=$2
bin=$build/fsprof
[ -x "$bin" ] || { echo "make-deb: $bin is not built (make all)" >&2; exit 1; }
command -v dpkg-deb >/dev/null || { echo "make-deb: dpkg-deb is missing (apt-get install dpkg)" >&2; exit 1; }

version=$(sed -n 's/^#define FSPROF_VERSION "\(.*\)"$/\1/p' src/version.h)
arch=$(dpkg --print-architecture)
stage=$(mktemp -d)
chmod 755 "$stage"
trap 'rm -rf "$stage"' EXIT

make -s install DESTDIR="$stage" PREFIX=/usr >/dev/null
gzip -9n "$stage/usr/share/man/man1/fsprof.1"

# the package of each library the binary needs, with the version it has here
lib_package() {
	path=$(ldconfig -p | awk -v so="$1" '$1 == so { print $NF; exit }')
	[ -n "$path" ] || { echo "make-deb: no $1 in ldconfig's cache" >&2; exit 1; }
	for p in "$path" "$(realpath "$path")" "$(echo "$path" | sed 's|^/usr/lib/|/lib/|')"; do
		pkg=$(dpkg -S "$p" 2>/dev/null | head -1 | cut -d: -f1) && [ -n "$pkg" ] && break
	done
	[ -n "$pkg" ] || { echo "make-deb: no package owns $path" >&2; exit 1; }
	echo "$pkg (>= $(dpkg-query -W -f='${Version}' "$pkg" | sed 's/-[^-]*$//'))"
}

deps=$(objdump -p "$bin" | awk '$1 == "NEEDED" { print $2 }' | while read -r so; do
	lib_package "$so"
done | sort -u | paste -sd, - | sed 's/,/, /g')
# what every run calls: mkfs, mount, losetup, modprobe, tar and xz
deps="$deps, e2fsprogs, xfsprogs, util-linux, mount, kmod, tar, xz-utils"
size=$(du -sk "$stage" | cut -f1)

mkdir -p "$stage/DEBIAN"
cat >"$stage/DEBIAN/control" <<CONTROL
Package: fsprof
Version: $version
Architecture: $arch
Maintainer: fsprof maintainers <fsprof@localhost>
Installed-Size: $size
Depends: $deps
Suggests: btrfs-progs, mdadm, dmsetup, qemu-system-x86, busybox-static, cpio
Section: admin
Priority: optional
Description: filesystem profiler: why is this filesystem slow on this workload
 fsprof runs a workload in named phases on a filesystem it makes fresh (or
 on an existing one), traces the kernel with eBPF while each phase runs,
 and says which phase took the time, what bounds it and why, with advice
 it can verify by re-running the phase. fsprof check says what a run needs.
CONTROL

mkdir -p "$out"
deb="$out/fsprof_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >/dev/null
echo "$deb"
