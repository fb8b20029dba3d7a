#!/usr/bin/python3
"""Check the DOM of fsprof's HTML report as headless chromium built it
(--dump-dom) against the results JSON of the same run.

usage: html_check.py DOM.html RESULTS.json

Every <svg> must have a <title> as its first child, a y-axis label with a
unit (rotated text with "(unit)", or "requests") and a legend entry. The
charts expected from the JSON must be there, by title:
  per workload with several targets: "W: wall time per phase" and its
  throughput ("W: workload throughput per phase", MB/s, or files/s);
  per case: "W on T: device IO by class" when the device saw bytes,
  "W on T: block IO latency (issue to complete)" when it saw requests,
  "W on T: where the time went (time budget)" when the sched domain
  measured a phase, and "W on T, phase P: device IO over time" for each
  phase with 2 or more bins and bytes in its timeline.
A run with classic experiments (the JSON's classic[]: --suite classic, or
both targets of an original's ratio) has "The originals beside ours": per
experiment a heading "W (PARAMS): the original beside ours", its source and
targets, a row per published figure (the original as published, ours with
its interval) and a row per shape whose original, ours (95% CI) and verdict
are the JSON's, printed as the text report prints them; under a shape that
differs, each line of what differs today. Without classic[], no section.
A run of guest kernels (--kernel) has a "Kernels" table with a row per
kernel: its release, source, BTF id, accelerator (tcg marked emulated) and
the orders of its cases; and each case's heading names its kernel.
The summary comes first: its "Summary" heading precedes every chart and
its charts (horizontal bars, a phase's wall time by target, each on an
axis of its own labelled "wall time (s)", no legend: the bars are
labelled) are one for the first JSON summary.headline row and at most
three more of the other phases it names; then the "Findings and verdicts"
heading precedes every other chart, and every warning's title is on the
page. Nothing may be
loaded from elsewhere (no src/href attribute but in-page anchors, no url()).
Exits 1 on any problem.
"""
import json
import re
import sys
from html.parser import HTMLParser


class Dom(HTMLParser):
    def __init__(self):
        super().__init__()
        self.svgs = []  # {"title", "ylabel", "legend"}
        self.stack = []
        self.text_attrs = None
        self.refs = []
        self.order = []  # ("h2", text) / ("svg", title) in order
        self.cur_h2 = None
        self.last_h2 = None
        self.rows = {}  # the last h2's text: its tables' rows of cell texts
        self.cur_h3 = None
        self.last_h3 = None
        self.rows_h3 = {}  # the same by the last h3's text
        self.row = None
        self.cell = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for k in ("src", "href"):
            if k in a and not a[k].startswith("#") and tag != "svg":
                self.refs.append((tag, k, a[k]))
        if "style" in a and "url(" in a["style"]:
            self.refs.append((tag, "style", a["style"]))
        if tag == "svg":
            self.svgs.append({"title": None, "ylabel": [], "legend": 0, "first": True, "texts": []})
        elif self.svgs and self.in_svg():
            svg = self.svgs[-1]
            if tag == "title" and svg["first"] and self.stack[-1] == "svg":
                svg["title"] = ""
            if tag == "text":
                self.text_attrs = a
            if tag == "rect" and a.get("width") == "12.0" and a.get("height") == "12.0":
                svg["legend"] += 1
            if tag == "line" and a.get("stroke-width") == "2.0":
                svg["legend"] += 1
            svg["first"] = svg["first"] and tag == "title"
        if tag == "h2":
            self.cur_h2 = ""
            self.last_h3 = None
        if tag == "h3":
            self.cur_h3 = ""
        if tag == "tr":
            self.row = []
        if tag in ("td", "th") and self.row is not None:
            self.cell = ""
        self.stack.append(tag)

    def in_svg(self):
        return "svg" in self.stack

    def handle_endtag(self, tag):
        while self.stack:
            t = self.stack.pop()
            if t == tag:
                break
        if tag == "svg":
            self.order.append(("svg", self.svgs[-1]["title"]))
        if tag == "h2":
            self.order.append(("h2", self.cur_h2))
            self.last_h2 = self.cur_h2
            self.cur_h2 = None
        if tag in ("td", "th") and self.cell is not None:
            self.row.append(self.cell)
            self.cell = None
        if tag == "h3":
            self.order.append(("h3", self.cur_h3))
            self.last_h3 = self.cur_h3
            self.cur_h3 = None
        if tag == "tr" and self.row is not None:
            self.rows.setdefault(self.last_h2, []).append(self.row)
            self.rows_h3.setdefault(self.last_h3, []).append(self.row)
            self.row = None
        if tag == "text":
            self.text_attrs = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data
        if self.cur_h2 is not None:
            self.cur_h2 += data
        if self.cur_h3 is not None:
            self.cur_h3 += data
        if self.svgs and self.in_svg():
            svg = self.svgs[-1]
            if self.stack and self.stack[-1] == "title" and svg["title"] == "" and \
                    self.stack[-2] == "svg":
                svg["title"] = data
            if self.text_attrs is not None:
                svg["texts"].append(data)
            if self.text_attrs is not None and "rotate(-90" in self.text_attrs.get("transform", ""):
                svg["ylabel"].append(data)


def expected(doc):
    titles = []
    workloads = {}
    repeats = {}
    for c in doc["cases"]:
        # a guest kernel's cases are a target of their own (ext4@6.1.0)
        kernel = (c.get("kernel") or {}).get("release")
        workloads.setdefault(c["workload"]["name"], set()).add((c["target_label"], kernel))
        repeats[c["workload"]["name"]] = max(repeats.get(c["workload"]["name"], 1), c["repeat"])
    for w, targets in workloads.items():
        if len(targets) < 2:
            continue
        titles.append(f"{w}: wall time per phase" + (" (mean of repeats)" if repeats[w] > 1 else ""))
        phases = [p for c in doc["cases"] if c["workload"]["name"] == w for p in c["phases"]]
        if any(p["workload"]["mb_per_s"] > 0 for p in phases):
            titles.append(f"{w}: workload throughput per phase")
        elif any(p["workload"]["files_per_s"] > 0 for p in phases):
            titles.append(f"{w}: files per second per phase")
    for c in doc["cases"]:
        w, t = c["workload"]["name"], c["target_name"]
        blocks = [p["block"] for p in c["phases"] if p["block"]["traced"]]
        if any(p["metrics"].get("sched", {}).get("wall_ns") is not None for p in c["phases"]):
            titles.append(f"{w} on {t}: where the time went (time budget)")
        if any(sum(b["io_classes"][k]["bytes"] for k in b["io_classes"]) for b in blocks):
            titles.append(f"{w} on {t}: device IO by class")
        if any(b["total"]["ios"] for b in blocks):
            titles.append(f"{w} on {t}: block IO latency (issue to complete)")
        for p in c["phases"]:
            tl = p["timeline"]
            if tl["bin_ns"] and tl["bins"] >= 2 and any(
                    sum(v) for k, v in tl["series"].items()
                    if re.match(r"block\.(data|meta|log)_(read|write)_bytes$", k)):
                titles.append(f"{w} on {t}, phase {p['name']}: device IO over time")
    return titles


def kernel_problems(dom, doc):
    """the Kernels table and the case headings against the JSON's kernels"""
    kernels = {}
    for c in doc["cases"]:
        k = c.get("kernel")
        if k:
            key = (k["release"], k["source"], k["btf_hash"],
                   k["accel"] + (": emulated, times are the emulator's"
                                 if k["emulated"] else ""))
            kernels.setdefault(key, []).append(c.get("order"))
    if not kernels:
        return ["a Kernels table in a run without guest kernels"] \
            if "Kernels" in dom.rows else []
    rows = dom.rows.get("Kernels", [])
    bad = [] if rows else ["no Kernels table"]
    got = [tuple(r) for r in rows[1:]]
    for key, orders in kernels.items():
        want = key + (" ".join(str(o) for o in sorted(orders) if o),)
        if want not in got:
            bad.append(f"no Kernels row {want} (rows: {got})")
    if len(got) != len(kernels):
        bad.append(f"{len(got)} Kernels rows for {len(kernels)} kernels")
    heads = [v for k, v in dom.order if k == "h2"]
    for c in doc["cases"]:
        k = c.get("kernel")
        if k and not any(h.startswith(f"{c['workload']['name']} on {c['target_name']}, Linux {k['release']}")
                         for h in heads):
            bad.append(f"no case heading names Linux {k['release']}")
    return bad


def value_text(v, digits):
    """report/classic.c's: "184", "~21", "7.5-8.6" to digits digits"""
    pre = "~" if v["approx"] else ""
    if v["low"] == v["high"]:
        return f"{pre}{v['low']:.{digits}g}"
    return f"{pre}{v['low']:.{digits}g}-{v['high']:.{digits}g}"


def figure_ours(o):
    if o is None:
        return "not run"
    if o["n"] < 2:
        return f"{o['mean']:.4g} (1 run)"
    return f"{o['mean']:.4g} \u00b1 {o['ci95_high'] - o['mean']:.2g} ({o['n']} runs)"


def ratio_ours(o):
    if o is None:
        return "-"
    if o["ci95_low"] is None:
        return f"{o['ratio']:.3g}"
    return f"{o['ratio']:.3g} ({o['ci95_low']:.3g}-{o['ci95_high']:.3g})"


def escaped(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def experiment_problems(dom, e, page):
    """one experiment's rows against the JSON's"""
    head = f"{e['workload']} ({e['params']}): the original beside ours"
    if ("h3", head) not in dom.order:
        return [f"no classic heading '{head}'"]
    rows = dom.rows_h3.get(head, [])
    bad = []
    for what in (e["source"], e["original_targets"]):
        if escaped(what) not in page:
            bad.append(f"{e['workload']}: not on the page: {what[:60]}")
    got = [r for r in rows if r[0] != "phase" and r[0] != "shape (ratio)"]
    want = [[f["phase"], f["target"].split("|")[0], f["unit"],
             value_text(f["original"], 6), figure_ours(f["ours"])]
            for f in e["figures"]]
    want += [[r["label"], value_text(r["original"], 3), ratio_ours(r["ours"]),
              r["verdict"]] for r in e["ratios"]]
    if [g[:len(w)] for g, w in zip(got, want)] != want or len(got) != len(want):
        bad.append(f"{e['workload']}: rows {got} are not the JSON's {want}")
    for r in (r for r in e["ratios"] if r["verdict"] == "differs"):
        line = f"{escaped(r['label'])}</b>: the shape differs: ours {r['ours']['ratio']:.3g},"
        if line not in page:
            bad.append(f"{e['workload']}: no 'the shape differs' under {r['label']}")
        for why in r["explanation"]:
            if escaped(why) not in page:
                bad.append(f"{e['workload']}: what differs not on the page: {why[:60]}")
    return bad


def classic_problems(dom, doc, page):
    """the originals beside ours against the JSON's classic[]"""
    heads = [v for k, v in dom.order if k == "h2"]
    if not doc.get("classic"):
        return ["a classic section without classic[]"] \
            if "The originals beside ours" in heads else []
    if "The originals beside ours" not in heads:
        return ["no 'The originals beside ours' section"]
    return [b for e in doc["classic"] for b in experiment_problems(dom, e, page)]


def main():
    dom = Dom()
    dom.feed(open(sys.argv[1]).read())
    doc = json.load(open(sys.argv[2]))
    bad = []
    got = [s["title"] for s in dom.svgs if not (s["title"] or "").endswith(": wall time by target")]
    heads = {f"{r['workload']} {r['phase']}: wall time by target"
             for r in doc["summary"]["headline"]}
    summary = [s for s in dom.svgs if s["title"] and s["title"].endswith(": wall time by target")]
    for s in summary:
        if s["title"] not in heads:
            bad.append(f"summary chart of a phase the summary does not name: {s['title']}")
        if "wall time (s)" not in s["texts"]:
            bad.append(f"{s['title']}: no axis label with a unit")
    if doc["summary"]["headline"] and not 1 <= len(summary) <= 4:
        bad.append(f"{len(summary)} summary charts, not 1 to 4")
    for s in dom.svgs:
        if s in summary:
            continue
        if not s["title"]:
            bad.append("an <svg> without a <title> first")
        if not any(re.search(r"\(.+\)", y) or y.startswith("requests") for y in s["ylabel"]):
            bad.append(f"{s['title']}: no y-axis label with a unit ({s['ylabel']})")
        if not s["legend"]:
            bad.append(f"{s['title']}: no legend")
    want = expected(doc)
    for t in want:
        if t not in got:
            bad.append(f"missing chart: {t}")
    for t in got:
        if t not in want:
            bad.append(f"unexpected chart: {t}")
    if dom.refs:
        bad.append(f"external references: {dom.refs[:5]}")
    top = [i for i, (k, v) in enumerate(dom.order) if k == "h2" and v == "Summary"]
    first = [i for i, (k, v) in enumerate(dom.order) if k == "h2" and v.startswith("Findings")]
    any_svg = [i for i, (k, v) in enumerate(dom.order) if k == "svg"]
    first_svg = [i for i, (k, v) in enumerate(dom.order)
                 if k == "svg" and not v.endswith(": wall time by target")]
    if doc["summary"]["headline"] and (not top or (any_svg and any_svg[0] < top[0])):
        bad.append("the summary is not first")
    if not first or (first_svg and first_svg[0] < first[0]):
        bad.append("the findings are not first after the summary")
    page = open(sys.argv[1]).read()
    for c in doc["cases"]:
        for p in c["phases"]:
            for f in p["findings"]:
                title = f["title"].replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                if f["severity"] == "warning" and title not in page:
                    bad.append(f"warning not on the page: {f['title']}")
    bad += kernel_problems(dom, doc)
    bad += classic_problems(dom, doc, page)
    for b in bad[:30]:
        print(b)
    print(f"{len(dom.svgs)} charts, {len(expected(doc))} expected, {len(bad)} problem(s)")
    return 1 if bad else 0


sys.exit(main())
