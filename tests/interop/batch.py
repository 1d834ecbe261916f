"""Batch driver for the Rust harness (tests/interop.rs): one Python process for many seeds.

python3 batch.py gen --start A --end B --out DIR     runs gen.generate for seeds A..B-1 into DIR/<seed>/
python3 batch.py check --start A --end B --dir DIR   compares DIR/<seed>/parket.parquet (read by
                                                     pyarrow) with DIR/<seed>/rows.jsonl; prints
                                                     one line per seed: "<seed> ok" or
                                                     "<seed> FAIL <message>"
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import check_write  # noqa: E402
import gen  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["gen", "check"])
    ap.add_argument("--start", type=int, required=True)
    ap.add_argument("--end", type=int, required=True)
    ap.add_argument("--out")
    ap.add_argument("--dir")
    a = ap.parse_args()
    for seed in range(a.start, a.end):
        if a.mode == "gen":
            gen.generate(seed, os.path.join(a.out, str(seed)))
            print(seed, "ok", flush=True)
            continue
        d = os.path.join(a.dir, str(seed))
        f = os.path.join(d, "parket.parquet")
        if not os.path.exists(f):
            print(seed, "FAIL no parket.parquet (parket write failed)", flush=True)
            continue
        try:
            msg = check_write.compare(f, os.path.join(d, "rows.jsonl"))
        except Exception as e:  # noqa: BLE001
            msg = "pyarrow cannot read it: %s: %s" % (type(e).__name__, e)
        print(seed, "ok" if msg is None else "FAIL " + msg.replace("\n", " | "), flush=True)


if __name__ == "__main__":
    main()
