#!/bin/sh
# Regenerate vmlinux/<arch>/vmlinux.h from the running kernel's BTF.
# The header is checked in so that building never needs the build host's BTF;
# CO-RE relocations adapt the BPF objects to the kernel they load on.
set -eu
btf=${1:-/sys/kernel/btf/vmlinux}
arch=$(uname -m)
case "$arch" in
x86_64) arch=x86 ;;
aarch64) arch=arm64 ;;
esac
top=$(cd "$(dirname "$0")/.." && pwd)
out="$top/vmlinux/$arch/vmlinux.h"
if [ ! -r "$btf" ]; then
	echo "gen-vmlinux: no BTF at $btf (kernel built without CONFIG_DEBUG_INFO_BTF?)" >&2
	exit 3
fi
mkdir -p "$(dirname "$out")"
tmp="$out.tmp.$$"
trap 'rm -f "$tmp"' EXIT
bpftool btf dump file "$btf" format c >"$tmp"
mv "$tmp" "$out"
trap - EXIT
echo "wrote $out ($(wc -l <"$out") lines, from $btf on $(uname -r))"
