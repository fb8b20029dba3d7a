// SPDX-License-Identifier: GPL-2.0
/*
 * Every kernel domain, and the phase marker, in one BPF object, so that a
 * run's load is one libbpf load: libbpf parses the kernel's BTF (5.5 MB,
 * ~10 ms and ~11 MB at its peak on 6.18) and searches it for CO-RE
 * candidates once per object, and one object per domain paid that five to
 * seven times a run. One
 * translation unit, not objects linked by `bpftool gen object`: libbpf
 * 1.1's linker refuses a kfunc extern (bpf_rdonly_cast) declared in two
 * objects. So each domain's globals and maps have names of their own
 * (<domain>_targ_dev, <domain>_timeline, <domain>_rare_events); a static
 * name is one per file here. Which domains a load takes is userspace's
 * choice (autoload, src/trace/bpf_group.c); the phase marker's
 * (marker.bpf.c) is fsprof trace's (src/trace/marker.c).
 */
#include "block.bpf.c"
#include "jbd2.bpf.c"
#include "ext4.bpf.c"
#include "writeback.bpf.c"
#include "xfs.bpf.c"
#include "btrfs.bpf.c"
#include "sched.bpf.c"
#include "marker.bpf.c"

char LICENSE[] SEC("license") = "GPL";
