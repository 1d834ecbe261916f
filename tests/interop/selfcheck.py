#!/usr/bin/env python3
"""selfcheck.py [--seeds N] [--start S] [--rows R] [--keep DIR]: consistency test of the
Python side. For each seed: gen.py writes a file and the rows it expects; rows.py's code
reads the file back through pyarrow; the two must be identical line for line. Also checks that
check_write.py accepts the pair. Reports failures and exits 1 if any."""
import argparse
import json
import os
import shutil
import sys
import tempfile
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_write  # noqa: E402
import gen  # noqa: E402
import jsonrows  # noqa: E402


FALLBACKS = []


def check_seed(seed, base, rows=None):
    out = os.path.join(base, str(seed))
    path = gen.generate(seed, out, rows)
    with open(os.path.join(out, "rows.jsonl"), encoding="utf-8") as f:
        want = f.read().split("\n")[:-1]
    got = list(jsonrows.file_lines(path))
    if got != want:
        for i, (a, b) in enumerate(zip(got, want)):
            if a != b:
                return "line %d differs:\n  rows.py: %s\n  gen.py:  %s" % (i + 1, a[:500],
                                                                          b[:500])
        return "line counts differ: rows.py %d, gen.py %d" % (len(got), len(want))
    with open(os.path.join(out, "options.json"), encoding="utf-8") as f:
        notes = json.load(f)["pyarrow"].get("fallback_notes")
    if notes:
        FALLBACKS.append((seed, notes))
    msg = check_write.compare(path, os.path.join(out, "rows.jsonl"))
    if msg:
        return "check_write: " + msg
    return None


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=300)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--rows", type=int)
    ap.add_argument("--keep", help="keep the generated directories here")
    a = ap.parse_args(argv)
    base = a.keep or tempfile.mkdtemp(prefix="parket-selfcheck-")
    bad = 0
    for seed in range(a.start, a.start + a.seeds):
        try:
            err = check_seed(seed, base, a.rows)
        except Exception:
            err = traceback.format_exc(limit=4)
        if err:
            bad += 1
            print("seed %d: FAIL %s" % (seed, err))
        if not a.keep:
            shutil.rmtree(os.path.join(base, str(seed)), ignore_errors=True)
    if not a.keep:
        shutil.rmtree(base, ignore_errors=True)
    for seed, notes in FALLBACKS:
        print("seed %d: pyarrow options simplified: %s" % (seed, "; ".join(notes)))
    print("%d/%d seeds consistent (%d needed simpler pyarrow options)"
          % (a.seeds - bad, a.seeds, len(FALLBACKS)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
