#!/usr/bin/python3
"""Writes docs/results-schema.json, the JSON Schema (draft 2020-12) of the
results JSON fsprof run --json writes: scripts/results-schema.py
docs/results-schema.json. Edit the schema here, where its shared parts are
defined once, and regenerate; results_schema.bats checks that the two agree
and validates real runs against it."""
import json, sys

if len(sys.argv) != 2 or sys.argv[1].startswith("-"):
    sys.exit("usage: scripts/results-schema.py OUTPUT.json (e.g. docs/results-schema.json)")

def obj(props, required=None, desc=None, extra=False, **kw):
    o = {"type": "object", "properties": props,
         "required": sorted(props) if required is None else required,
         "additionalProperties": extra}
    if desc: o["description"] = desc
    o.update(kw)
    return o

def ref(name, desc=None):
    r = {"$ref": "#/$defs/" + name}
    if desc: r["description"] = desc
    return r

def i(desc, unit=None, minimum=0):
    o = {"type": "integer", "description": desc}
    if minimum is not None: o["minimum"] = minimum
    if unit: o["x-unit"] = unit
    return o

def n(desc, unit=None):
    o = {"type": "number", "description": desc}
    if unit: o["x-unit"] = unit
    return o

def s(desc, **kw):
    o = {"type": "string", "description": desc}
    o.update(kw)
    return o

def b(desc):
    return {"type": "boolean", "description": desc}

def nullable(schema):
    t = schema.get("type")
    if isinstance(t, str):
        schema = dict(schema); schema["type"] = [t, "null"]
        return schema
    return {"anyOf": [schema, {"type": "null"}], "description": schema.get("description", "")}

def arr(items, desc):
    return {"type": "array", "items": items, "description": desc}

def dict_of(values, desc, names=None):
    o = {"type": "object", "additionalProperties": values, "description": desc}
    if names: o["propertyNames"] = names
    return o

NS = "ns"
defs = {}

defs["hist"] = obj({
    "count": i("values counted"),
    "sum": i("sum of the values, in the histogram's unit (its name's suffix: _ns ns, _bytes bytes, _blocks filesystem blocks; block latency ns, block size bytes)"),
    "mean": i("sum / count, rounded down; 0 when empty"),
    "max": i("the largest value"),
    "percentile": dict_of(i("the value at that percentile, interpolated inside its slot (within 25% of the true value, never above max)"),
                          "fio's percentile list, keys printed with six decimals: \"1.000000\" ... \"99.990000\"",
                          {"pattern": "^[0-9]+\\.[0-9]{6}$"}),
    "histogram": arr(obj({"low": i("smallest value of the slot"),
                          "high": i("one past the largest value of the slot"),
                          "count": i("values in the slot", minimum=1)}),
                     "the non-empty log2 slots (4 linear sub-slots per power of two), ascending"),
}, desc="A log2-linear histogram.")

defs["inflight"] = obj({
    "time_ns": i("requests in flight integrated over time", NS),
    "avg": nullable(n("time_ns / the phase's wall_ns: average queue depth (null between phases)", "requests")),
    "max": i("most requests in flight at once", "requests"),
})

defs["class"] = obj({
    "ios": i("requests issued", "requests"),
    "bytes": i("bytes of those requests", "bytes"),
    "preflush": i("requests whose first bio asked for PREFLUSH", "requests"),
    "fua": i("requests whose first bio asked for FUA", "requests"),
    "completion_unseen": i("requests the kernel issued (block_rq_issue) but never reported complete "
                           "(block_rq_complete): their address was issued again while they were in flight, "
                           "or the disk had none in flight when their phase ended; their latency is not in "
                           "latency, so ios = latency.count + completion_unseen unless the phase's "
                           "inflight_at_end is not 0", "requests"),
    "size": ref("hist", "request sizes, bytes"),
    "latency": ref("hist", "issue -> complete, ns"),
}, desc="Block requests of one kind (CLASS in docs/results-json.md).")

io_class_props = dict(defs["class"]["properties"])
io_class_props.update({
    "busy_ns": i("time with >= 1 request of this class in flight", NS),
    "inflight": ref("inflight"),
    "issuers": dict_of(ref("class"), "who submitted the class's requests (only issuers that had some)",
                       ref("issuer_name")),
})
defs["io_class"] = obj(io_class_props, desc="One IO class: its requests, device time and issuers.")

defs["issuer_name"] = {"enum": ["workload", "jbd2", "xfs_log", "xfsaild", "writeback", "kworker", "other", "unseen"],
                       "description": "who submitted a request's first bio"}
IOC = ["data_read", "data_write", "meta_read", "meta_write", "log_read", "log_write", "flush", "discard", "other"]
OPC = ["read", "write", "flush", "discard", "other"]

defs["block"] = {
    "description": "Block IO of the target's device in a phase (BLOCK in docs/results-json.md); {\"traced\": false} when the block domain was not attached.",
    "oneOf": [
        obj({"traced": {"const": False}}),
        obj({
            "traced": {"const": True},
            "total": ref("class", "every request"),
            "classes": obj({k: ref("class") for k in OPC}, desc="by operation"),
            "busy_ns": i("time with >= 1 request in flight on the device", NS),
            "inflight": ref("inflight"),
            "io_classes": obj({k: ref("io_class") for k in IOC},
                              desc="by IO class: log if the first sector is inside target.log.ranges, else meta if REQ_META, else data; flush = REQ_OP_FLUSH or a write of no data"),
            "issuers": obj({k: obj({"ios": i("requests", "requests"), "bytes": i("bytes", "bytes"),
                                    "busy_ns": i("time with >= 1 of its requests in flight", NS),
                                    "inflight": ref("inflight")})
                            for k in defs["issuer_name"]["enum"]}, desc="by issuer, over every IO class"),
            "inflight_at_end": i("requests of the phase still in flight when it was collected (2 s after its end; the spill, collected last, is not waited for)", "requests"),
            "members": dict(arr(obj({
                "ios": i("requests on the member", "requests"),
                "bytes": i("their data bytes", "bytes"),
                "write_bytes": i("bytes written: data, metadata and log", "bytes"),
                "read_bytes": i("bytes read: data, metadata and log", "bytes"),
                "io_classes": obj({k: obj({"ios": i("requests", "requests"), "bytes": i("their data bytes", "bytes")})
                                   for k in IOC}, desc="by IO class"),
                "latency": obj({"count": i("completions timed", "requests"),
                                "sum_ns": i("their issue -> complete time", NS),
                                "mean_ns": i("sum_ns / count (0 when none)", NS),
                                "max_ns": i("the slowest", NS)},
                               desc="issue -> complete of the member's requests, every class: a slow member stands out"),
            }), "a stacked target (md, device-mapper): each member disk's requests of the phase, in the order of target.block_stack.members; absent when the target is not stacked"), maxItems=16),
        }, required=["busy_ns", "classes", "inflight", "inflight_at_end", "io_classes", "issuers", "total", "traced"]),
    ],
}

defs["metrics"] = dict_of(
    dict_of({"type": "integer", "minimum": 0}, "a domain's metrics by name; the unit is the name's suffix (_ns ns, _bytes bytes, _pages pages, _blocks filesystem blocks, _jiffies jiffies; none: a count). docs/metrics.md lists every one."),
    "named metrics by domain: metrics.jbd2.commits", {"pattern": "^[a-z0-9_]+$"})
defs["histograms"] = dict_of(dict_of(ref("hist"), "a domain's histograms by name, in the unit of the name's suffix"),
                             "named histograms by domain: histograms.jbd2.commit_ns", {"pattern": "^[a-z0-9_]+$"})

defs["stack"] = obj({
    "cause": s("the cause the sched domain named from the stack: journal_commit, xfs_log_force, ..."),
    "count": i("off-CPU waits with this stack"),
    "total_ns": i("their time", NS),
    "frames": arr(s("function+offset"), "innermost first, from the caller of __schedule (at most 24)"),
})

defs["sched"] = obj({
    "top_stacks": arr(ref("stack"), "the heaviest off-CPU stacks (at most 4)"),
    "share_of_wall": dict_of({"type": "number", "minimum": 0},
                             "each part of the time budget / wall: oncpu, offcpu, unaccounted, stolen and irq (the time taken from the workload on its CPUs, where the kernel keeps it apart) and one key per off-CPU cause (can pass 1 with several tasks)"),
}, required=[], desc="The sched domain's stacks and time budget, when it saw a sleep.")

defs["evidence"] = obj({
    "metric": s("the JSON path or metric name the value comes from"),
    "value": nullable(n("in the metric's unit; null when not a number (no data)")),
    "share": nullable(n("the value's share of what text says (phase wall, device time), 0..1", "fraction")),
    "threshold": nullable(n("the share or value the rule compares with")),
    "text": s("one sentence for people"),
})
defs["verified"] = obj({
    "phase": s("the phase whose wall time was compared"),
    "applied": s("the knob as applied: \"mount logbsize=256k\""),
    "repeats": i("rounds run (before + after, interleaved A B B A), until the interval decided or the cap"),
    "max_repeats": i("the cap: --verify=N, else the larger of --repeat and 10"),
    "look_alpha": nullable(n("each look's two-sided level: 0.05 / the looks the cap allows (one after every round from the 3rd); the interval is at this level, so 95% over all looks", "fraction")),
    "stopped": nullable({"enum": ["decided", "cap", "failed", "interrupted", "not run"], "description": "why the rounds stopped: the interval decided the verdict, the cap was reached undecided, a re-run failed, a signal, or the case could not be re-run"}),
    "before_s": n("mean wall time of the phase as it was", "s"),
    "after_s": n("... with the advice applied", "s"),
    "ratio": nullable(n("speed-up: geometric mean of before / after; > 1 is faster", "ratio")),
    "ci95": nullable(arr(n("bound", "ratio"), "confidence interval of the ratio [low, high] (Welch, at look_alpha: 95% simultaneously over the looks)")),
    "verdict": {"enum": ["confirmed", "not confirmed", "inconclusive"], "description": "what the re-runs showed"},
    "before_samples_s": arr(n("one run", "s"), "the phase's wall time in each run as it was"),
    "after_samples_s": arr(n("one run", "s"), "... with the advice"),
    "note": nullable(s("why inconclusive, when a re-run failed")),
}, desc="What --verify measured with the advice applied.")
defs["finding"] = obj({
    "rule": s("the rule that fired (docs/rules.md): xfs-log-io-bound, jbd2-commit-bound, ..."),
    "domain": s("the domain it is about"),
    "severity": {"enum": ["warning", "info", "ok"], "description": "warning: a mechanism dominates the phase; info: a caveat or fact; ok: a check that passed"},
    "title": s("one line: \"rm-sync is log-IO bound\""),
    "evidence": arr(ref("evidence"), "the numbers behind it"),
    "mechanism": s("why it happens, for people"),
    "advice": nullable(obj({"text": s("what to do"),
                            "kind": {"enum": ["mount", "mkfs", "sysctl", "workload", "fstype", "none"], "description": "mount/mkfs/fstype advice can be re-run by --verify"},
                            "option": nullable(s("the option: \"logbsize=256k\", \"-O fast_commit\""))})),
    "verified": nullable(ref("verified")),
})
defs["verdict"] = nullable(obj({
    "bound": {"enum": ["device", "cpu", "cache", "journal", "log", "throttle", "lock", "mixed"], "description": "what bounds the phase"},
    "basis": {"enum": ["time_budget", "device_cpu_shares"], "description": "decided from the sched time budget, or from device/CPU shares without it"},
    "text": s("the verdict for people"),
    "shares": dict_of({"type": "number", "minimum": 0}, "what decided it: cpu, device_busy, oncpu, offcpu.<cause>, ... as shares of the phase's time (CPU can pass 1)"),
}, desc="What bounds the phase (docs/rules.md); null before analysis."))

defs["timeline"] = obj({
    "bin_ns": i("width of a bin (--bin); 0: no timeline", NS),
    "start_mono_ns": i("CLOCK_MONOTONIC of bin 0's start", NS),
    "bins": i("bins of the longest series"),
    "series": dict_of(arr({"type": "integer", "minimum": 0}, "a value per bin, adding up to the phase's count of the same thing"),
                      "by name, unit in the suffix: block.{data,meta,log}_{read,write}_bytes, block.ios, jbd2.commits, jbd2.blocks_logged, xfs.log_writes, xfs.log_force_events, writeback.pages_written, writeback.throttle_count, writeback.throttle_pause_ns"),
}, desc="Bin i covers [start_mono_ns + i * bin_ns, + bin_ns).")

defs["phase"] = obj({
    "name": s("the workload's phase: write, read, rm-sync, ..."),
    "id": i("the phase id the BPF side saw (1-based; 0 is between phases)", minimum=1),
    "start_mono_ns": i("CLOCK_MONOTONIC = bpf_ktime_get_ns() at the start", NS),
    "end_mono_ns": i("... at the end", NS),
    "wall_ns": i("the phase's wall time, its sync included", NS),
    "cache": {"enum": ["warm", "dropped", "cold"], "description": "dropped: caches were dropped before the phase (syncfs, drop_caches); cold: the target was unmounted and mounted again before it (--cold, or the workload's default)"},
    "sync": s("what the timing includes: fdatasync, syncfs, none, ..."),
    "workload": obj({
        "bytes": i("bytes the workload read or wrote", "bytes"),
        "ops": i("read/write/unlink/sync calls"),
        "files": i("files created, read or removed"),
        "bw_bytes": n("bytes / wall", "bytes/s"),
        "mb_per_s": n("bytes / wall in 10^6 B/s, as dd", "MB/s"),
        "mib_per_s": n("bytes / wall in 2^20 B/s", "MiB/s"),
        "files_per_s": n("files / wall, as fs_mark", "files/s"),
    }, desc="What the workload itself did and measured."),
    "cpu": obj({
        "user_ns": i("user CPU of the workload and its children", NS),
        "sys_ns": i("system CPU", NS),
        "percent": n("(user + sys) / wall, bonnie's %CP", "%"),
        "voluntary_ctxsw": i("voluntary context switches"),
        "involuntary_ctxsw": i("involuntary context switches"),
    }),
    "block": ref("block"),
    "metrics": ref("metrics"),
    "histograms": ref("histograms"),
    "intervals": arr(obj({"t_ns": i("end of the interval since the phase started", NS),
                          "files": i("files in the interval"), "bytes": i("bytes in the interval", "bytes")}),
                     "per-interval samples (afd); empty for other workloads"),
    "timeline": ref("timeline"),
    "sched": ref("sched"),
    "verdict": ref("verdict"),
    "findings": arr(ref("finding"), "warnings first, then info, then ok"),
    "block_processes": obj({
        "top": arr(obj({"pid": i("process id (thread group)", minimum=None), "comm": s("its command name"),
                        "ios": i("requests whose first bio it submitted", "requests"),
                        "bytes": i("their bytes", "bytes"), "write_bytes": i("of them written", "bytes")}),
                   "at most 10 processes, most bytes first"),
        "others": i("processes beyond them"), "others_bytes": i("their bytes", "bytes"),
        "lost": i("requests not counted: the per-process map was full", "requests"),
    }, desc="fsprof record: who issued the phase's block IO (docs/trace-record.md)"),
}, required=["name", "id", "start_mono_ns", "end_mono_ns", "wall_ns", "cache", "sync", "workload", "cpu",
             "block", "metrics", "histograms", "intervals", "timeline", "verdict", "findings"])

defs["event"] = {
    "description": "One rare kernel event (EVENT in docs/results-json.md).",
    "type": "object",
    "required": ["t_ns", "phase", "kind"],
    "properties": {"t_ns": i("CLOCK_MONOTONIC when it happened", NS),
                   "phase": i("phase id it is charged to; 0 = between phases"),
                   "domain": s("jbd2, xfs, writeback, block"),
                   "kind": {"type": ["string", "integer"], "description": "commit, log_force, work, slow_io; a number for a kind this fsprof did not know"}},
    "oneOf": [
        obj({"t_ns": True, "phase": True, "domain": {"const": "jbd2"}, "kind": {"const": "commit"},
             "tid": i("transaction id"), "commit_ns": i("start_commit -> run_stats", NS),
             "handles": i("handles in the transaction"), "blocks": i("blocks in the transaction", "blocks"),
             "blocks_logged": i("blocks written to the journal", "blocks")}),
        obj({"t_ns": True, "phase": True, "domain": {"const": "xfs"}, "kind": {"const": "log_force"},
             "lsn": i("the log sequence number forced to (0: everything)"),
             "caller_ip": i("return address of the caller: a kernel address as a signed 64-bit integer (two's complement, so usually negative)", minimum=None),
             "caller_class": s("fsync, sync, cil, ...: who forced the log"), "caller": s("the calling function")}),
        obj({"t_ns": True, "phase": True, "domain": {"const": "writeback"}, "kind": {"const": "work"},
             "pages": i("pages written", "pages"), "duration_ns": i("the pass's time", NS), "reason": s("wb_reason")}),
        obj({"t_ns": True, "phase": True, "domain": {"const": "block"}, "kind": {"const": "slow_io"},
             "sector": i("first sector; -1 for a flush, which has none", "sectors", minimum=-1), "bytes": i("request bytes", "bytes"),
             "latency_ns": i("issue -> complete", NS), "class": s("its IO class"), "issuer": s("its issuer")}),
        obj({"t_ns": True, "phase": True, "kind": {"type": "integer"}}),
    ],
}

_stack_props = {
    "model": s("hdd, hdd-15k, ssd-sata, custom"),
    "limits": obj({k: i(d, u) for k, d, u in [("riops", "read IOPS limit, 0 = none", "requests/s"),
                                                ("wiops", "write IOPS limit, 0 = none", "requests/s"),
                                                ("rbps", "read bandwidth limit, 0 = none", "bytes/s"),
                                                ("wbps", "write bandwidth limit, 0 = none", "bytes/s")]}),
    "placement": {"enum": ["lower-loop", "traced-disk"],
                  "description": "lower-loop: the model's engine below the traced loop; traced-disk: an older "
                                 "fsprof's throttle on the traced disk itself"},
    "throttled_device": s("the lower loop the model's engine serves (the key named when a throttle sat there): /dev/loop3"),
    "throttled_dev": s("its major:minor", pattern="^[0-9]+:[0-9]+$"),
    "throttled_dio": b("the lower loop's direct IO"),
    "engine": obj({
        "round_trip_ns": i("the engine's round trip for a 4 KiB direct read with the model off (the probe's "
                           "median), the longest of the members'", NS),
        "charged": i("requests served with the model on"),
        "modelled_ns": i("their modelled service time, summed", NS),
        "short_requests": i("requests the model wanted shorter than the engine's round trip for their kind"),
        "short_excess_ns": i("the time those ran over the model, summed", NS),
    }, desc="the model's engine over the case (absent in an older fsprof's files)"),
    "members": nullable(arr(obj({
        "member": s("the member disk, as in target.block_stack.members: loop5"),
        "throttled_device": s("its lower loop: /dev/loop4"),
        "throttled_dev": s("its major:minor", pattern="^[0-9]+:[0-9]+$"),
        "throttled_dio": b("the lower loop's direct IO"),
    }), "a stacked target (--raid, --dm) under a device model: each member disk a disk of the model with "
        "an engine and a lower loop of its own; null when the target is not stacked. "
        "The first is throttled_device")),
    "traced_rotational": nullable(b("queue/rotational set on the traced device (null: left as is)")),
    "faithful": b("false for traced-disk: busy time, latency and issuers were not measured faithfully"),
    "caveat": nullable(s("what was not faithful (an older fsprof's throttle on the traced disk)")),
}
defs["device_model_stack"] = nullable(obj(
    _stack_props, required=sorted(k for k in _stack_props if k not in ("engine", "caveat")),
    desc="The device model as built; null when there is none."))

defs["target"] = obj({
    "kind": {"enum": ["image", "device", "dir"], "description": "an image on a loop device, a block device, or an existing directory"},
    "fstype": s("ext2, ext3, ext4, xfs, btrfs, or what the directory holds"),
    "image": s("the image file; \"\" unless an image"),
    "image_size": i("bytes of the image", "bytes"),
    "device": s("/dev/loopN, /dev/sdb; \"\" without a block device"),
    "workdir": s("where the workload ran"),
    "dev_major": i("the traced device's major"), "dev_minor": i("... minor"),
    "loop_dio": b("the loop device does direct IO on its image"),
    "mkfs_cmd": s("the mkfs command as run"),
    "mkfs_output": nullable(s("what mkfs printed")),
    "fs_uuid": s("the filesystem's UUID"),
    "mount_options": s("as /proc/self/mountinfo shows them"),
    "super_options": s("the superblock options mountinfo shows"),
    "mount_cmd": s("mount(8)'s equivalent of the mount fsprof made (mount -t FSTYPE [-o OPTS] DEV DIR, shell-quoted); \"\" when it made none (a --dir target)"),
    "device_model": s("\"hdd: riops=150 ...\" or \"none\""),
    "device_model_stack": ref("device_model_stack"),
    "log": obj({"source": s("where the log's location was read from, or why there is none"),
                "ranges": arr(obj({"start_sector": i("first sector", "sectors"), "sectors": i("length", "sectors")}),
                              "the log's LBA ranges (512-byte sectors), at most 16")},
               desc="the IO class log's region on the device"),
    "block_stack": nullable(obj({
        "top": s("the filesystem's device: md127, dm-0"),
        "layout": s("its layers, top first: \"dm-0 (dm-linear) on md127 (md raid0, chunk 512 KiB)\""),
        "members": dict(arr(obj({
            "name": s("the member's name in sysfs: loop3, sdb1"),
            "dev": s("its MAJ:MIN", pattern="^[0-9]+:[0-9]+$"),
            "disk": s("the MAJ:MIN its requests carry: its own, or a partition's disk's", pattern="^[0-9]+:[0-9]+$"),
            "part_start": i("a partition's first sector on its disk; 0 for a whole disk", "sectors"),
            "part_sectors": i("a partition's length; 0 for a whole disk", "sectors"),
            "via": s("the devices above it, top first: \"dm-0 md127\""),
        }), "the disks (or partitions) under it that issue the requests"), maxItems=16),
        "log_class": obj({
            "mapped": b("the log's ranges were mapped onto the members: requests there have the log class"),
            "note": s("how they were mapped, or why the log class is not mapped on this stack"),
            "ranges": dict(arr(obj({"member": i("index into members"),
                                    "start_sector": i("first sector on the member's disk", "sectors"),
                                    "sectors": i("length", "sectors")}),
                               "the log's ranges on the members' disks"), maxItems=16),
        }),
    }, desc="the target is a stacked device (md, device-mapper) that issues no requests of its own: the disks found under it in /sys/block/DEV/slaves/ (recursively) are traced instead; null when it is not")),
    "kernel_release": s("uname -r when the case ran"),
    "sysctls": dict_of({"type": "string"}, "vm.dirty_* when the case ran"),
    "block_untraced": nullable(s("why block IO is not seen (a bio-based device)")),
    "tracing_unavailable": nullable(s("why kernel tracing was unavailable")),
})

defs["case"] = obj({
    "target": ref("target"),
    "target_label": s("the target's full spec: \"xfs:mount=logbsize=256k\""),
    "target_name": s("its short name for tables: NAME= of --fs, else the fstype (ext4#2 for a second ext4)"),
    "workload": obj({"name": s("seqio, files1m, mdcreate, fsync, untar, bonnie, afd, ..."),
                     "params": s("every parameter, key=val,..."),
                     "size_bytes": i("the size= parameter, 0 if none", "bytes"),
                     "data_bytes": i("what the workload stores at its peak", "bytes"),
                     "ram_bytes": i("the machine's RAM", "bytes"),
                     "size_lt_2x_ram": b("the data could sit in the page cache")}),
    "repeat": i("1-based repeat of the (target, workload)", minimum=1),
    "order": i("the case's place in the order the run ran its cases, 1-based; with --kernel counted across the kernels, whose cases alternate (A, B, A, B). Absent in runs before it was recorded", minimum=1),
    "complete": b("every phase ran"),
    "error": s("why not, when the case failed"),
    "failed_phase": s("the phase that failed (ENOSPC, EROFS, EIO ...), when one did"),
    "programs": arr(obj({"domain": s("block, ext4, jbd2, xfs, writeback, sched, ..."), "program": s("BPF program"),
                         "event": s("tracepoint"), "state": {"enum": ["attached", "missing", "failed"]},
                         "reason": s("why missing or failed")}), "the attach report"),
    "charging": dict_of({"type": "string"}, "per loaded domain: which phase its work is charged to"),
    "phases": arr(ref("phase"), "the phases that finished, in order"),
    "spill": obj({"block": ref("block"), "metrics": ref("metrics"), "histograms": ref("histograms"),
                  "sched": ref("sched")}, required=["block", "metrics", "histograms"],
                 desc="what the kernel did between phases (phase id 0)"),
    "events": arr(ref("event"), "the rare kernel events, in arrival order"),
    "events_not_stored": i("events beyond 262144 per case, counted only"),
    "age": nullable(obj({
        "spec": s("the canonical --age: fill=PCT,pattern=P[,delete=PCT],sizes=S,seed=N"),
        "fill_percent": i("the used share the fill aimed at, 1-95", "percent"),
        "pattern": {"enum": ["every-other", "random", "none"], "description": "which files the aging deleted"},
        "delete_percent": i("the share of files deleted: 50 for every-other, delete= for random, 0 for none", "percent"),
        "sizes": {"enum": ["small", "mixed", "large"], "description": "the size mix the files were drawn from"},
        "size_min_bytes": i("the smallest file size of the mix", "bytes"),
        "size_max_bytes": i("the largest", "bytes"),
        "seed": i("the seed the sizes (and random's deletes) came from"),
        "outcome": obj({
            "files_written": i("files the fill wrote"),
            "bytes_written": i("their bytes", "bytes"),
            "files_deleted": i("files the pattern deleted"),
            "bytes_deleted": i("their bytes", "bytes"),
            "used_after_fill": n("used share of the filesystem after the fill and a sync (statvfs)"),
            "used_after_age": n("used share after the deletes and a sync"),
            "wall_ns": i("the aging's own time: no phase includes it", NS)}),
        "free_space": obj({
            "tool": s("e2freefrag (ext2/3/4) or xfs_db freesp (xfs)"),
            "error": s("why no histogram was taken (then nothing else is here)"),
            "block_size": i("the filesystem block size", "bytes"),
            "free_blocks": i("free blocks, as the tool counted them", "blocks"),
            "free_extents": i("free extents, as the tool counted them"),
            "buckets": arr(obj({"min_bytes": i("the smallest free extent of the row", "bytes"),
                                "max_bytes": i("the largest (inclusive)", "bytes"),
                                "extents": i("free extents in this size range"),
                                "blocks": i("blocks they hold", "blocks"),
                                "percent": n("of all free blocks, as the tool printed it", "percent")}),
                           "the tool's histogram rows, ascending")},
            required=["tool"], desc="the free-extent histogram after the aging (after a freeze and thaw)")},
        desc="--age: what the untimed, untraced aging before the first phase did; null when the case was not aged")),
    "kernel": obj({"release": s("uname -r in the guest"),
                   "source": s("the Debian package, or the path of the image, the kernel came from"),
                   "btf_hash": s("FNV-1a 64 of its vmlinux .BTF section, hex: tells two builds of one release apart"),
                   "accel": {"enum": ["kvm", "tcg"], "description": "how QEMU ran the guest"},
                   "emulated": b("TCG: the guest's times are the emulator's"),
                   "slot": i("a kernel --kernel names more than once (6.1,6.1: an A/A): which of its guests, 1-based; absent for a kernel named once", minimum=1)},
                  required=["accel", "btf_hash", "emulated", "release", "source"],
                  desc="only when the case ran in a QEMU guest of fsprof run --kernel"),
}, required=["target", "target_label", "workload", "repeat", "complete", "programs", "charging",
             "phases", "spill", "events", "events_not_stored"], desc="One workload run once on one freshly made target.")

defs["stats"] = obj({"n": i("samples (complete repeats)"), "mean": n("mean"), "stddev": n("sample standard deviation"),
                     "ci95_low": n("95% confidence interval of the mean, low (Student's t)"), "ci95_high": n("... high"),
                     "min": n("smallest sample"), "max": n("largest sample")},
                    desc="Statistics of one metric over repeats, in the metric's unit.")
defs["summary_group"] = obj({
    "target": s("target_label of the group"), "workload": s("workload name"), "params": s("its parameters"),
    "repeats": i("complete cases in the group"),
    "kernel": s("the guest kernel's release (fsprof run --kernel), when the cases ran in one"),
    "phases": arr(obj({"name": s("phase"), "metrics": dict_of(ref("stats"), "by metric name: wall_ns, mb_per_s, block.write_bytes, jbd2.commits, op.write_ns.p99, ...")}), "the group's phases"),
}, required=["target", "workload", "params", "repeats", "phases"],
   desc="The cases of one (target, workload, parameters[, guest kernel]).")
defs["headline_row"] = obj({
    "target": s("the target's short name (with @release under --kernel)"), "workload": s("workload name"),
    "phase": s("phase"), "repeats": i("complete cases its wall time is the mean of"),
    "wall_s": n("mean wall time of the phase", "s"), "share": n("its share of summary.phases_s over all repeats, 0..1"),
    "bound": nullable(s("the phase's bound verdict (bound_kind), null when it was not analysed")),
    "rule": nullable(s("the rule of the one finding that explains the phase: verified advice first, then a warning, then an info with a knob; null when none")),
    "title": nullable(s("that finding's title")), "severity": {"enum": ["ok", "info", "warning", None], "description": "that finding's severity, null when none"},
    "advice": nullable(s("that finding's advice")),
    "verified": nullable(obj({"speedup": n("before / after wall time of the phase: > 1 is faster"),
                              "ci_low": n("95% confidence interval of the speed-up, low"), "ci_high": n("... high"),
                              "applied": s("the knob as --verify applied it"),
                              "verdict": s("confirmed | not confirmed | inconclusive")},
                             desc="what --verify measured re-running the phase with the advice; null when it did not")),
}, desc="One row of the summary: a phase of one (target, workload), its time, its bound and what explains it.")
defs["headline_differ"] = obj({
    "workload": s("workload name"), "phase": s("the phase compared"), "diff_s": n("slowest minus fastest target's mean wall time", "s"),
    "title": s("the target-difference finding's title"),
    "targets": arr(obj({"target": s("short name"), "wall_s": n("mean wall time", "s")}), "every target that ran it"),
    "evidence": arr(s("one line of the finding's evidence"), "the finding's evidence, as the text says it"),
}, desc="A difference between targets the summary names.")
defs["comparison"] = obj({
    "workload": s("workload name"), "params": s("its parameters"), "phase": s("the phase compared"),
    "targets": arr(obj({"target": s("target_label"), "repeats": i("samples"), "wall_s": n("mean wall time", "s"),
                        "ci95_low_s": n("95% CI low", "s"), "ci95_high_s": n("95% CI high", "s")}), "every target that ran it"),
    "findings": arr(ref("finding"), "rule target-difference"),
}, desc="One phase of one workload compared across targets.")
defs["classic_value"] = obj({"low": nullable(n("the published value, or the low end of its range")),
                             "high": nullable(n("... the high end (= low for one value)")),
                             "approx": b("the original said \"about\" (~N)")},
                            desc="A published number of an original experiment, or a ratio of two.")
defs["classic_experiment"] = obj({
    "workload": s("the fsprof workload that reproduces it"), "params": s("the parameters of our cases compared"),
    "source": s("the original, named in words (data/classic.tsv)"), "conditions": s("what the original ran on"),
    "original_targets": s("the original's targets as an --fs LIST (data/classic.tsv): what fsprof run --suite classic runs the workload on without --fs"),
    "figures": arr(obj({"phase": s("an fsprof phase, or phases joined by + (wall times added)"),
                        "metric": s("wall_s, mb_per_s, mib_per_s or files_per_s", enum=["wall_s", "mb_per_s", "mib_per_s", "files_per_s"]),
                        "unit": s("the metric's unit: s, MB/s, MiB/s, files/s"),
                        "target": s("the --fs spec the original's figure is of; a|b: either spelling"),
                        "original": ref("classic_value"),
                        "ours": nullable(obj({"target": s("the target_label that matched"), "n": i("our complete repeats"),
                                              "mean": n("our mean, in the unit"), "stddev": n("sample standard deviation"),
                                              "ci95_low": nullable(n("95% CI of the mean, low; null for one repeat")),
                                              "ci95_high": nullable(n("... high"))}))}),
                   "the original's published figures, ours beside each (null: not run)"),
    "ratios": arr(obj({"label": s("the shape: \"ext4/ext3 rm time\""), "phase": s("as in figures"),
                       "metric": s("as in figures"), "numerator": s("target spec"), "denominator": s("target spec"),
                       "original": ref("classic_value"),
                       "ours": nullable(obj({"ratio": nullable(n("geometric mean of the numerator's repeats over the denominator's")),
                                             "n_numerator": i("repeats"), "n_denominator": i("repeats"),
                                             "ci95_low": nullable(n("95% CI (Welch's t on the logarithms); null with fewer than 2 repeats a side")),
                                             "ci95_high": nullable(n("... high"))})),
                       "verdict": s("agrees: our CI meets the original's value or range; differs: it excludes it; inconclusive: it meets it but spans more than 4x",
                                    enum=["agrees", "differs", "inconclusive", "no interval", "not run"]),
                       "note": s("not run: which target; no interval, inconclusive: why; else empty"),
                       "explanation": arr(s("one line"), "differs only: what our measurements say differs, a line each (\"not explained: ...\" when no measured resource does)")}),
                  "the shapes the original reported, ours beside each"),
}, desc="One classic experiment the run reproduced: the original's figures and shapes beside ours.")

schema = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://github.com/fsprof/fsprof/docs/results-schema.json",
    "title": "fsprof results",
    "description": "What `fsprof run --json FILE` writes (docs/results-json.md walks through it). Units: bytes are bytes, times are nanoseconds unless the name says _s (seconds); a metric's unit is its name's suffix; x-unit on a field names its unit. schema_version is bumped on any incompatible change.",
    "type": "object",
    "properties": {
        "schema_version": {"const": 1, "description": "bumped on any incompatible change"},
        "tool": obj({"name": {"const": "fsprof"}, "version": s("fsprof's version")}),
        "started": s("when the run started, UTC", format="date-time"),
        "kernel": obj({"release": s("uname -r")}),
        "complete": b("the run was not interrupted and every case is complete"),
        "interrupted": b("stopped by SIGINT, SIGTERM or SIGHUP"),
        "signal": i("which signal; 0 when none"),
        "self": obj({"max_rss_kib": i("fsprof's own peak RSS", "KiB")}),
        "cases": arr(ref("case"), "one per (target, workload, repeat), in the order they ran"),
        "summary": obj({
            "groups": arr(ref("summary_group"), "statistics over repeats per (target, workload, params)"),
            "phases_s": n("the wall time of every phase of every case, summed: what a headline row's share is of", "s"),
            "headline": arr(ref("headline_row"), "the answer first, as the text report's summary block says it: the phases that took the run's time (the largest until they cover 80% of it) and every phase a warning or verified advice explains, largest first; at most 8"),
            "differs": arr(ref("headline_differ"), "the largest differences between targets (rule target-difference), largest first; at most 2"),
        }, desc="statistics over repeats and the summary built from them, the findings and the comparisons"),
        "comparisons": arr(ref("comparison"), "the same workload on several targets, phase by phase"),
        "suite": nullable(s("the --suite the run was made with (classic), null when none")),
        "classic": arr(ref("classic_experiment"), "the originals' published figures beside ours: a --suite classic run, or a run with both targets of an original's ratio"),
        "command": arr(s("one word"), "the command line after the program's name, word by word as given: [\"run\", \"-w\", \"files1m:files=200\", ...]; what fsprof report --bundle and fsprof bisect-step run again. Absent in the results of an fsprof before it was recorded"),
    },
    "required": ["schema_version", "tool", "started", "kernel", "complete", "interrupted", "signal", "self",
                 "cases", "summary", "comparisons", "suite", "classic", "command"],
    "additionalProperties": False,
    "$defs": defs,
}
json.dump(schema, open(sys.argv[1], "w"), indent=2)
open(sys.argv[1], "a").write("\n")
