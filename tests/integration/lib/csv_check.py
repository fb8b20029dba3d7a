#!/usr/bin/python3
"""Read fsprof's CSV (--csv) back with Python's csv module and check every
row against the results JSON of the same run.

usage: csv_check.py RESULTS.csv RESULTS.json

Every row's metric is a path inside cases[case-1].phases[phase]: dotted,
with keys that may hold dots themselves (metrics.sched.offcpu_ns.read_io is
metrics["sched"]["offcpu_ns.read_io"]); a trailing .pNN of a histogram is
its percentile "NN.000000". Also checked: the header, the units, that every
case and phase has rows, and that every metric of the JSON has its row.
Exits 1 on any difference.
"""
import csv
import json
import math
import sys

HEADER = ["case", "repeat", "workload", "params", "target", "target_spec",
          "fstype", "phase", "metric", "value", "unit"]


def resolve(node, path):
    """node[path], matching the longest key at each step"""
    if path == "":
        return node
    if not isinstance(node, dict):
        raise KeyError(path)
    parts = path.split(".")
    for n in range(len(parts), 0, -1):
        key = ".".join(parts[:n])
        rest = ".".join(parts[n:])
        if key in node:
            try:
                return resolve(node[key], rest)
            except KeyError:
                continue
        if n == 1 and key.startswith("p") and "percentile" in node and not rest:
            return node["percentile"]["%f" % float(key[1:])]
    raise KeyError(path)


def close(a, b):
    return a == b or math.isclose(a, b, rel_tol=1e-8, abs_tol=1e-9)


def main():
    doc = json.load(open(sys.argv[2]))
    rows = list(csv.reader(open(sys.argv[1], newline="")))
    bad = []
    if rows[0] != HEADER:
        bad.append(f"header {rows[0]}")
    seen = {}
    for r in rows[1:]:
        rec = dict(zip(HEADER, r))
        if len(r) != len(HEADER):
            bad.append(f"row of {len(r)} fields: {r}")
            continue
        c = doc["cases"][int(rec["case"]) - 1]
        phases = [p for p in c["phases"] if p["name"] == rec["phase"]]
        if not phases:
            bad.append(f"case {rec['case']}: no phase {rec['phase']}")
            continue
        p = phases[0]
        for key, want in (("workload", c["workload"]["name"]),
                          ("params", c["workload"]["params"]),
                          ("target", c["target_name"]),
                          ("target_spec", c["target_label"]),
                          ("fstype", c["target"]["fstype"]),
                          ("repeat", str(c["repeat"]))):
            if rec[key] != want:
                bad.append(f"{rec['metric']}: {key} {rec[key]!r} != {want!r}")
        try:
            want = resolve(p, rec["metric"])
        except KeyError:
            bad.append(f"case {rec['case']} {rec['phase']}: {rec['metric']} not in the JSON")
            continue
        if not close(float(rec["value"]), float(want)):
            bad.append(f"{rec['metric']}: {rec['value']} != {want}")
        seen.setdefault((rec["case"], rec["phase"]), set()).add(rec["metric"])
        unit = rec["unit"]
        m = rec["metric"]
        expect = None
        if m.endswith(".count"):
            expect = "count"
        elif m.endswith("_ns") or ".latency." in m:
            expect = "ns"
        elif m.endswith("_bytes") or m.endswith(".bytes"):
            expect = "bytes"
        elif m.endswith("mb_per_s"):
            expect = "MB/s"
        elif m.endswith(".ios"):
            expect = "requests"
        if expect and unit != expect:
            bad.append(f"{m}: unit {unit}, expected {expect}")
    for ci, c in enumerate(doc["cases"], 1):
        for p in c["phases"]:
            got = seen.get((str(ci), p["name"]), set())
            for dom, ms in p["metrics"].items():
                for name in ms:
                    if f"metrics.{dom}.{name}" not in got:
                        bad.append(f"case {ci} {p['name']}: no row for metrics.{dom}.{name}")
            if "wall_ns" not in got:
                bad.append(f"case {ci} {p['name']}: no wall_ns row")
    for b in bad[:30]:
        print(b)
    print(f"{len(rows) - 1} rows, {len(bad)} problem(s)")
    return 1 if bad else 0


sys.exit(main())
