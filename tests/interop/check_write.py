#!/usr/bin/env python3
"""check_write.py FILE EXPECTED_JSONL [--duckdb]: read FILE (written by parket) with pyarrow,
normalise its rows exactly as rows.py does, and compare with EXPECTED_JSONL line by line.
On the first difference prints the line number, the column path and both values, exit 1.
With --duckdb, also reads FILE with DuckDB and compares the values DuckDB's types allow."""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jsonrows  # noqa: E402


def _first_diff(a, b, path=""):
    """Path and values of the first difference between two decoded JSON values."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a.keys()) + [k for k in b if k not in a]:
            if k not in a or k not in b:
                return (path + "." + k).lstrip("."), a.get(k, "<missing>"), b.get(k, "<missing>")
            d = _first_diff(a[k], b[k], path + "." + k)
            if d:
                return d
        if list(a.keys()) != list(b.keys()):
            return (path or "<row>") + " (key order)", list(a.keys()), list(b.keys())
        return None
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b)):
            d = _first_diff(x, y, "%s[%d]" % (path, i))
            if d:
                return d
        if len(a) != len(b):
            return path + " (length)", len(a), len(b)
        return None
    if type(a) is not type(b) or a != b:
        return path.lstrip("."), a, b
    return None


def describe(lineno, got, want):
    try:
        ga = json.loads(got, object_pairs_hook=dict)
        wa = json.loads(want, object_pairs_hook=dict)
        d = _first_diff(ga, wa)
    except ValueError:
        d = None
    if d is None:  # same values, different bytes
        return "line %d: bytes differ\n  file:     %s\n  expected: %s" % (lineno, got, want)
    col, gv, wv = d
    return "line %d, column %s: file has %s, expected %s" % (
        lineno, col, json.dumps(gv, ensure_ascii=False)[:300],
        json.dumps(wv, ensure_ascii=False)[:300])


def compare(path, expected_path):
    """None if equal, else a message describing the first difference."""
    with open(expected_path, encoding="utf-8") as f:
        want = f.read().split("\n")
    if want and want[-1] == "":
        want.pop()
    n = 0
    for n, got in enumerate(jsonrows.file_lines(path), 1):
        if n > len(want):
            return "file has more rows than expected (%d): line %d is %s" % (len(want), n,
                                                                             got[:300])
        if got != want[n - 1]:
            return describe(n, got, want[n - 1])
    if n < len(want):
        return "file has %d rows, expected %d" % (n, len(want))
    return None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("expected")
    ap.add_argument("--duckdb", action="store_true")
    a = ap.parse_args(argv)
    try:
        msg = compare(a.file, a.expected)
        if msg is None and a.duckdb:
            import duckcheck
            msg = duckcheck.compare(a.file, a.expected)
    except Exception as e:
        msg = "cannot read %s: %s: %s" % (a.file, type(e).__name__, e)
    if msg:
        print("check_write.py: %s" % msg, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
