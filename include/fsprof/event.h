/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rare events: what each domain sends to userspace one by one through its
 * BPF ring buffer (bpf/events.bpf.h), for the events of a case. Everything
 * frequent is aggregated in the kernel instead; a full ring drops the event
 * and counts the drop in the phase it happened in.
 */
#ifndef FSPROF_EVENT_H
#define FSPROF_EVENT_H

/* bytes of each domain's ring: 4096 events of 64 bytes with header */
#define EVENT_RING_BYTES (256 * 1024)
#define EVENT_NVALUES 5
/* how often userspace reads the rings (BPF wakes it only when half full) */
#define EVENT_POLL_MS 50

/* what v[] holds is listed per kind in src/results/events.c */
enum fsprof_event_kind {
	FSPROF_EV_JBD2_COMMIT, /* tid, commit_ns, handles, blocks, logged */
	FSPROF_EV_XFS_LOG_FORCE, /* lsn, caller_ip */
	FSPROF_EV_WB_WORK, /* pages, duration_ns; aux = wb_reason */
	FSPROF_EV_BLK_SLOW_IO, /* sector, bytes, latency_ns; aux = class */
	FSPROF_EV_NR,
};

struct fsprof_event {
	unsigned long long ts_ns; /* bpf_ktime_get_ns(): CLOCK_MONOTONIC */
	unsigned int phase;
	unsigned short kind;
	unsigned short aux; /* a small enum the domain names in userspace */
	unsigned long long v[EVENT_NVALUES];
};

/* FSPROF_EV_BLK_SLOW_IO: aux = ioclass | issuer << 8 */
#define EVENT_AUX_BLK(ioclass, issuer) ((ioclass) | ((issuer) << 8))

#endif
