#!/usr/bin/env bash
# A clean Debian root for the package tests (tests/integration/
# deb_package.bats): this machine's release (/etc/os-release's
# VERSION_CODENAME) and architecture, from this machine's own apt sources,
# with the Essential packages and apt only (mmdebstrap --variant=apt), its
# package lists kept so that apt can install into it without an update.
#
#   chroot-base.sh     prints the path of the root's tarball
#
# The tarball is kept in $FSPROF_CHROOT_CACHE (default
# /var/cache/fsprof-chroot), as the kernels are in /var/cache/fsprof-vm,
# and made again when missing or older than MAX_AGE_DAYS (a test runs apt-
# get update in its copy, 1 s, so that a package updated since is fetched
# in its new version; a root much older would have most of its own
# packages updated). Making it took 14-30 s here on a quiet machine, up to
# 70 s at load 6 (218 MB of tarball); a test extracts it in 0.3-1 s.
# Exit: 0 made or kept; 1 mmdebstrap failed; 3 mmdebstrap is missing.
set -euo pipefail

cache=${FSPROF_CHROOT_CACHE:-/var/cache/fsprof-chroot}
# days a root is kept
MAX_AGE_DAYS=30

command -v mmdebstrap >/dev/null || {
	echo "chroot-base: mmdebstrap is missing (apt-get install --no-install-recommends mmdebstrap)" >&2
	exit 3
}
suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
[ -n "$suite" ] || { echo "chroot-base: no VERSION_CODENAME in /etc/os-release" >&2; exit 1; }
arch=$(dpkg --print-architecture)
tar=$cache/$suite-$arch.tar

mkdir -p "$cache"
# one maker at a time: another test may be making the same root
exec 9>"$cache/.lock"
flock 9
if [ -s "$tar" ] && [ -z "$(find "$tar" -mtime +$((MAX_AGE_DAYS - 1)))" ]; then
	echo "$tar"
	exit 0
fi

# the sources apt reads here (a file named as a mirror is used as it is)
set --
[ -s /etc/apt/sources.list ] && set -- "$@" /etc/apt/sources.list
for f in /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
	[ -s "$f" ] && set -- "$@" "$f"
done
[ $# -gt 0 ] || { echo "chroot-base: no apt sources in /etc/apt" >&2; exit 1; }

log=$cache/$suite-$arch.log
# stdin closed: mmdebstrap reads sources from a stdin that is no terminal
tmp=$cache/.$suite-$arch.tmp.tar
# mmdebstrap hands apt the lowest free descriptor for dpkg's package list
# and has dash write to it: dash takes no descriptor above 9 ("Bad fd
# number"), and under bats the lowest free one was 11. So it starts with
# none open but 0-2.
close_fds() {
	local fd
	for fd in $(ls /proc/$BASHPID/fd); do
		[ "$fd" -gt 2 ] && eval "exec $fd>&-" 2>/dev/null
	done
	return 0
}
if ! (close_fds && exec mmdebstrap --mode=root --variant=apt --format=tar --architectures="$arch" \
	--skip=cleanup/apt/lists "$suite" "$tmp" "$@") </dev/null >"$log" 2>&1; then
	rm -f "$tmp"
	tail -n 20 "$log" >&2
	echo "chroot-base: mmdebstrap $suite failed (its log: $log)" >&2
	exit 1
fi
mv "$tmp" "$tar"
echo "$tar"
