#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check the tree's include order against docs/architecture.md.

  scripts/check-includes.py [TOP]      (TOP: the tree, default: this one)

Two rules, both from docs/architecture.md's "What may include what":
 1. a folder of src/ includes only the folders its line of that page's
    table names (and util/, include/fsprof/ and src/version.h from
    anywhere); bpf/ includes nothing of src/. The table is read from the
    page itself, so the page and this check cannot drift apart.
 2. no two files use each other: no cycle among the files of src/, a
    file being foo.c with its foo.h (a pair that includes each other is a
    cycle of two). The piece both need moves down into a file of its own.

Prints every breach, one a line (FILE:LINE: what), and exits 1 on any;
otherwise one line of what was checked, exit 0.
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# "report     -> compare, results, util        (never analyze: ...)"
RULE = re.compile(r'^([a-z]+/?)\s+->\s+([^(]*)')
# what every folder may include besides its own line
ANYWHERE = {'util', 'fsprof', 'version.h'}


def read_rules(top):
    """folder -> the set of folders it may include, from the page"""
    path = os.path.join(top, 'docs', 'architecture.md')
    with open(path, encoding='utf-8') as f:
        text = f.read()
    part = text.split('## What may include what', 1)
    if len(part) < 2:
        sys.exit(f'{path}: no "## What may include what" section')
    block = part[1].split('```')[1]
    rules = {}
    for line in block.splitlines():
        m = RULE.match(line.strip())
        if not m:
            continue
        allowed = set()
        for word in m.group(2).split(','):
            word = word.strip()
            if word:
                allowed.add(word.split('/')[-1] if word.startswith(
                    'include/') else word.split('/')[0])
        rules[m.group(1).rstrip('/')] = allowed
    if 'report' not in rules or 'bpf' not in rules:
        sys.exit(f'{path}: its include table was not found or is cut short')
    return rules


def sources(top, folder):
    for dirpath, _, names in os.walk(os.path.join(top, folder)):
        for name in sorted(names):
            if name.endswith(('.c', '.h')):
                yield os.path.join(dirpath, name)


def includes(path):
    """(line number, included path) of each #include "..." of path"""
    with open(path, encoding='utf-8', errors='replace') as f:
        text = f.read()
    for m in INCLUDE.finditer(text):
        yield text.count('\n', 0, m.start()) + 1, m.group(1)


def check_folders(top, rules, breaches):
    """rule 1; returns the number of includes read"""
    n = 0
    src = os.path.join(top, 'src')
    for folder in sorted(os.listdir(src)):
        if not os.path.isdir(os.path.join(src, folder)):
            continue
        if folder not in rules:
            breaches.append(f'src/{folder}/: no line of its own in '
                            'docs/architecture.md\'s include table')
            continue
        allowed = rules[folder] | ANYWHERE | {folder}
        for path in sources(top, os.path.join('src', folder)):
            for line, inc in includes(path):
                n += 1
                first = inc.split('/')[0] if '/' in inc else inc
                if '/' not in inc and inc != 'version.h':
                    continue  # a generated skeleton beside it
                if first not in allowed:
                    breaches.append(
                        f'{os.path.relpath(path, top)}:{line}: includes '
                        f'"{inc}": {folder} may include only '
                        f'{", ".join(sorted(rules[folder]))}')
    for path in sources(top, 'bpf'):
        for line, inc in includes(path):
            n += 1
            first = inc.split('/')[0]
            if '/' in inc and first not in rules['bpf'] | {'fsprof'}:
                breaches.append(f'{os.path.relpath(path, top)}:{line}: '
                                f'includes "{inc}": bpf/ includes no src/')
    return n


def unit_of(path):
    """src/report/text.c and src/report/text.h are one unit: report/text"""
    return os.path.splitext(path)[0]


def check_cycles(top, breaches):
    """rule 2 (Tarjan's strongly connected components); returns units"""
    uses = {}
    for path in sources(top, 'src'):
        rel = os.path.relpath(path, os.path.join(top, 'src'))
        unit = unit_of(rel)
        uses.setdefault(unit, set())
        for _, inc in includes(path):
            if os.path.exists(os.path.join(top, 'src', inc)):
                other = unit_of(inc)
                if other != unit:
                    uses[unit].add(other)
    index, low, stack, on_stack, comps = {}, {}, [], set(), []

    def visit(u):
        index[u] = low[u] = len(index)
        stack.append(u)
        on_stack.add(u)
        for w in sorted(uses.get(u, ())):
            if w not in index:
                visit(w)
                low[u] = min(low[u], low[w])
            elif w in on_stack:
                low[u] = min(low[u], index[w])
        if low[u] == index[u]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == u:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for u in sorted(uses):
        if u not in index:
            visit(u)
    for comp in comps:
        links = [f'{a} -> {b}' for a in comp for b in sorted(uses[a])
                 if b in comp]
        breaches.append(f'src/: {" <-> ".join(comp)} use each other '
                        f'({"; ".join(links)}): move the piece both need '
                        'into a file of its own')
    return len(uses)


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), '..')
    breaches = []
    rules = read_rules(top)
    n = check_folders(top, rules, breaches)
    units = check_cycles(top, breaches)
    for b in breaches:
        print(b)
    if breaches:
        print(f'{len(breaches)} breaches of docs/architecture.md\'s '
              'include order')
        return 1
    print(f'include order holds: {n} includes of {len(rules)} folders '
          f'against docs/architecture.md, {units} units of src/ (a .c with its .h) without a '
          'cycle')
    return 0


if __name__ == '__main__':
    sys.exit(main())
