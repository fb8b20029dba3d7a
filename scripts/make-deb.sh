#!/bin/sh
# make deb: a Debian package of fsprof built from this tree, with
# dpkg-deb: the binary, the man page and run --kernel's guest scripts as
# make install PREFIX=/usr puts them, the binary stripped as Debian's
# packages are (its debug sections 3 MB of the 4.5: a 0.5 MB package, not
# 1.5, and xz done in 0.6 s, not 2.6), and a control file whose Depends
# are the packages of the libraries the binary links (its NEEDED entries,
# as one dpkg -S finds them here: 0.14 s a call, and up to three a library
# took 1.5 s) and of the tools every run calls; the tools of single
# options (--fs btrfs, --raid, --dm, --kernel) are Suggests.
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
strip --strip-unneeded --remove-section=.comment --remove-section=.note \
	"$stage/usr/bin/fsprof"
gzip -9n "$stage/usr/share/man/man1/fsprof.1"

# each library the binary needs: its soname, its path in ldconfig's cache
# and the paths a package may own it by (the path, the file it links to,
# the path without /usr on a merged /usr), one line each
libs=$stage/libs
objdump -p "$bin" | awk '$1 == "NEEDED" { print $2 }' | while read -r so; do
	path=$(ldconfig -p | awk -v so="$so" '$1 == so { print $NF; exit }')
	[ -n "$path" ] || { echo "make-deb: no $so in ldconfig's cache" >&2; exit 1; }
	echo "$so $path $(realpath "$path") $(echo "$path" | sed 's|^/usr/lib/|/lib/|')"
done >"$libs"
# the owners of all those paths, "package[:arch]: path", from one dpkg -S
# (it names the paths no package owns on stderr, and exits 1 for them)
owners=$(cut -d' ' -f2- "$libs" | tr ' ' '\n' | sort -u | xargs dpkg -S 2>/dev/null || true)

# the package of each library, the first of its paths a package owns,
# with the version it has here
lib_package() {
	pkg=
	for p in "$@"; do
		pkg=$(echo "$owners" | awk -v p="$p" '!/^diversion by/ && $NF == p { sub(/[:,].*/, "", $1); print $1; exit }')
		[ -n "$pkg" ] && break
	done
	[ -n "$pkg" ] || { echo "make-deb: no package owns $1" >&2; exit 1; }
	echo "$pkg (>= $(dpkg-query -W -f='${Version}' "$pkg" | sed 's/-[^-]*$//'))"
}

deps=$(while read -r so path real nousr; do
	lib_package "$path" "$real" "$nousr"
done <"$libs" | sort -u | paste -sd, - | sed 's/,/, /g')
rm "$libs"
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
