#!/usr/bin/env python3
"""Every qualifier in fsprof's verdicts and findings against its numbers.

qualifiers_check.py RESULTS.json...

A verdict or finding sentence that says "small", "few", "one per
operation or more" ... must hold for the numbers it stands on: the
figures in the same sentence, or the evidence's own share and threshold.
Each known qualifier has a check here; a qualifier word this file does not
know is reported too, so a new unbacked word cannot slip through. Prints
one line per failure ("FAIL case phase: why: text") and exits 1 if any.
"""
import json
import re
import sys

# words that state a quantity; each occurrence must be covered by a check
QUALIFIER = re.compile(
    r"\b(few|little|most|mostly|small|nearly all|large|tiny|"
    r"one per operation or more|at least one per two operations|"
    r"wrote the data twice|one small request at a time)\b")


def num(s):
    return float(s.replace(",", ""))


def checks_in_sentence(text):
    """(covered spans, failures) from figures in the sentence itself"""
    spans, fails = [], []

    def cover(m, ok, why):
        spans.append(m.span())
        if not ok:
            fails.append(why)

    # "at most 1733 such writes/s", "(at most 16 blocks)": the figure is
    # the bound itself
    for m in re.finditer(r"at most [\d.]+", text):
        cover(m, True, "")
    # "1 commits, under the 10 of a per-operation pattern"
    for m in re.finditer(r"(\d+) (?:commits|log forces), under the (\d+)",
                         text):
        cover(m, num(m[1]) < num(m[2]), f"{m[1]} not under {m[2]}")
    # "journal writes 19% of the phase, 30% of the device's work (under
    # the 50% of log-bound)"
    for m in re.finditer(r"(\d+)% of the phase, (\d+)% of the device's "
                         r"work \(under the (\d+)%", text):
        cover(m, num(m[1]) < num(m[3]) and num(m[2]) < num(m[3]),
              f"{m[1]}%/{m[2]}% not under {m[3]}%")
    # "(1% full, under the 50% of a buffer written because it filled)"
    for m in re.finditer(r"(\d+)% full, under the (\d+)%", text):
        cover(m, num(m[1]) < num(m[2]), f"{m[1]}% full not under {m[2]}%")
    # "5.4 journal blocks per commit: small commits (at most 16 blocks)"
    for m in re.finditer(r"([\d.]+) journal blocks per commit: small "
                         r"commits \(at most (\d+) blocks\)", text):
        cover(m, num(m[1]) <= num(m[2]), f"{m[1]} blocks is not small")
    # "1.00 per operation (one per operation or more)"
    for m in re.finditer(r"([\d.]+) per operation \((one per operation or "
                         r"more|at least one per two operations)\)", text):
        lo = 1.0 if m[2].startswith("one") else 0.5
        hi = float("inf") if m[2].startswith("one") else 1.0
        cover(m, lo <= num(m[1]) < hi,
              f"{m[1]} per operation is not '{m[2]}'")
    # "25.9 MB written to the journal for 19.7 MB of data (132%):
    # data=journal wrote the data twice"; the advice repeats the figures
    for m in re.finditer(r"\((\d+)%\): data=journal wrote the data twice",
                         text):
        cover(m, num(m[1]) >= 50, f"{m[1]}% is not the data twice")
    for m in re.finditer(r"data=journal wrote the data twice \(([\d.]+) "
                         r"(\w+) to the journal for ([\d.]+) (\w+) of data",
                         text):
        cover(m, m[2] == m[4] and num(m[1]) >= 0.5 * num(m[3]) or
              m[2] != m[4], f"{m[1]} {m[2]} is not the data twice")
    # "median request 1.0 KiB at queue depth 0.8: one small request at a
    # time", and the advice's "each small request in turn (median 1.0 KiB
    # at queue depth 0.8)" (DEVICE_SMALL_REQUEST_BYTES 64 KiB,
    # DEVICE_SERIAL_QD 1.5)
    for m in re.finditer(r"median request ([\d.]+) (B|KiB|MiB) at queue "
                         r"depth ([\d.]+): one small request at a time|"
                         r"each small request in turn \(median ([\d.]+) "
                         r"(B|KiB|MiB) at queue depth ([\d.]+)\)", text):
        g = m.groups()
        val, unit, qd = (g[0], g[1], g[2]) if g[0] else (g[3], g[4], g[5])
        size = num(val) * {"B": 1, "KiB": 1024, "MiB": 1 << 20}[unit]
        cover(m, size <= 64 * 1024 and num(qd) < 1.5,
              f"{val} {unit} at qd {qd} is not one small request")
    # "mixed: CPU 20%, device busy 25%; most of the phase went neither to
    # the CPU nor to this device": the two under half (rounding: 1 point)
    for m in re.finditer(r"CPU (\d+)%, device busy (\d+)%; most of the "
                         r"phase went neither", text):
        cover(m, num(m[1]) + num(m[2]) <= 51,
              f"CPU {m[1]}% + busy {m[2]}% is not under half")
    # the cross-target finding: "the one that grew most accounts for 30%
    # of it" - the largest of those measured, with its figure
    for m in re.finditer(r"the one that grew most accounts for \d+%", text):
        cover(m, True, "")
    return spans, fails


def finding_checks(f):
    """(failures) of a finding's title against its own evidence"""
    fails = []
    title = f.get("title", "")
    ev = " | ".join(e.get("text", "") for e in f.get("evidence", []))
    # "write flushes its files in small pieces" (ext4-delalloc-defeated):
    # the median extent at most DELALLOC_SMALL_ALLOC_BLOCKS (16)
    if "small pieces" in title:
        m = re.search(r"median extent (\d+) blocks", ev)
        if not m or num(m[1]) > 16:
            fails.append("'small pieces' without a median extent of at "
                         "most 16 blocks")
    return fails


def check_text(where, text, out, covered=()):
    spans, fails = checks_in_sentence(text)
    spans += [m.span() for word in covered for m in re.finditer(word, text)]
    for why in fails:
        out.append(f"FAIL {where}: {why}: {text}")
    for m in QUALIFIER.finditer(text):
        if not any(a <= m.start() < b for a, b in spans):
            out.append(f"FAIL {where}: '{m[1]}' with no number it is "
                       f"checked against: {text}")


def main(paths):
    out, n = [], 0
    for path in paths:
        with open(path) as f:
            run = json.load(f)
        for case in run.get("cases", []):
            for p in case.get("phases", []):
                where = f"{case.get('target_name')} {p.get('name')}"
                v = (p.get("verdict") or {}).get("text", "")
                if v:
                    n += 1
                    check_text(where + " verdict", v, out)
                for f in p.get("findings", []):
                    n += 1
                    for why in finding_checks(f):
                        out.append(f"FAIL {where} {f['rule']}: {why}: "
                                   f"{f['title']}")
                    check_text(f"{where} {f['rule']} title", f["title"], out,
                               ["small pieces"])
                    for e in f.get("evidence", []):
                        n += 1
                        check_text(f"{where} {f['rule']}", e["text"], out)
                    adv = (f.get("advice") or {}).get("text") or ""
                    if adv:
                        n += 1
                        check_text(f"{where} {f['rule']} advice", adv, out)
        for cmp in run.get("comparisons", []):
            for f in cmp.get("findings", []):
                where = f"{cmp.get('workload', '')} {cmp.get('phase', '')}"
                n += 1
                check_text(f"{where} {f['rule']} title", f["title"], out)
                for e in f.get("evidence", []):
                    n += 1
                    check_text(f"{where} {f['rule']}", e["text"], out)
    for line in out:
        print(line)
    print(f"{n} sentences, {len(out)} failures")
    return 1 if out else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
