#!/usr/bin/python3
"""Validate fsprof results files against docs/results-schema.json with
Debian's python3-jsonschema (Draft 2020-12, formats checked).

usage: results_schema_check.py SCHEMA RESULTS.json...

Prints each file's errors (path and message) and exits 1 on any. The schema
itself is checked first, and it must refuse a copy of the first file with
a phase's wall_ns removed, so that a schema that accepts anything fails.
"""
import copy
import json
import sys

import jsonschema


def main():
    schema = json.load(open(sys.argv[1]))
    cls = jsonschema.Draft202012Validator
    cls.check_schema(schema)
    v = cls(schema, format_checker=jsonschema.FormatChecker())
    bad = 0
    first = None
    for path in sys.argv[2:]:
        doc = json.load(open(path))
        first = first or doc
        errors = list(v.iter_errors(doc))
        for e in errors[:20]:
            where = "/".join(str(p) for p in e.absolute_path)
            print(f"{path}: {where}: {e.message[:300]}")
        bad += len(errors)
    broken = copy.deepcopy(first)
    del broken["cases"][0]["phases"][0]["wall_ns"]
    if v.is_valid(broken):
        print("the schema accepts a phase without wall_ns")
        bad += 1
    broken = copy.deepcopy(first)
    broken["cases"][0]["phases"][0]["undocumented"] = 1
    if v.is_valid(broken):
        print("the schema accepts an undocumented phase field")
        bad += 1
    print(f"{len(sys.argv) - 2} file(s), {bad} error(s)")
    return 1 if bad else 0


sys.exit(main())
