#!/usr/bin/env python3
"""Check a file against the OpenMetrics text format rules fsprof's output
must keep (a subset of the spec, enough to catch a broken writer):
every family has a TYPE before its samples and its samples are together;
a UNIT is the name's suffix; names and label names are valid; label
values are escaped; no two samples of a family share a label set; the
last line is '# EOF'. Also: every phase sample carries the labels given
with --labels. Prints what breaks, exits 1."""
import re
import sys

NAME = re.compile(r'^[a-zA-Z_:][a-zA-Z0-9_:]*$')
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\["\\n])*)"')
SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$')


def parse_labels(text):
    labels, pos = {}, 0
    while pos < len(text):
        m = LABEL.match(text, pos)
        if not m:
            raise ValueError(f'bad label text at {text[pos:pos + 30]!r}')
        if m.group(1) in labels:
            raise ValueError(f'label {m.group(1)} twice')
        labels[m.group(1)] = m.group(2)
        pos = m.end()
        if pos < len(text):
            if text[pos] != ',':
                raise ValueError(f'no comma at {text[pos:pos + 30]!r}')
            pos += 1
    return labels


def main():
    path = sys.argv[1]
    need = sys.argv[3].split(',') if len(sys.argv) > 3 else []
    lines = open(path, encoding='utf-8').read().split('\n')
    errors = []
    if lines[-1] != '':
        errors.append('no newline at the end')
    lines = lines[:-1]
    if not lines or lines[-1] != '# EOF':
        errors.append('the last line is not # EOF')
    types, units, done, current = {}, {}, set(), None
    seen = set()
    samples = 0
    for n, line in enumerate(lines[:-1], 1):
        if line.startswith('# '):
            parts = line.split(' ', 3)
            kind, name = parts[1], parts[2]
            if not NAME.match(name):
                errors.append(f'{n}: bad family name {name}')
            if kind == 'TYPE':
                if name in types:
                    errors.append(f'{n}: family {name} declared twice')
                if current:
                    done.add(current)
                types[name], current = parts[3], name
            elif kind == 'UNIT':
                units[name] = parts[3]
                if not name.endswith('_' + parts[3]):
                    errors.append(f'{n}: unit {parts[3]} is not the suffix of {name}')
            elif kind != 'HELP':
                errors.append(f'{n}: unknown metadata {kind}')
            if name != current:
                errors.append(f'{n}: metadata of {name} outside its family')
            continue
        m = SAMPLE.match(line)
        if not m:
            errors.append(f'{n}: not a sample: {line[:60]}')
            continue
        name = m.group(1)
        if name != current:
            errors.append(f'{n}: sample of {name} outside its family ({current})')
        if types.get(name) != 'gauge':
            errors.append(f'{n}: {name} is not a declared gauge')
        try:
            labels = parse_labels(m.group(3) or '')
        except ValueError as e:
            errors.append(f'{n}: {e}')
            continue
        key = (name, tuple(sorted(labels.items())))
        if key in seen:
            errors.append(f'{n}: {name} has this label set twice')
        seen.add(key)
        try:
            float(m.group(4))
        except ValueError:
            errors.append(f'{n}: value {m.group(4)} is not a number')
        if 'phase' in labels:
            samples += 1
            for want in need:
                if want not in labels:
                    errors.append(f'{n}: no label {want}')
    if samples == 0:
        errors.append('no phase sample at all')
    for e in errors[:20]:
        print(e)
    sys.exit(1 if errors else 0)


if __name__ == '__main__':
    main()
