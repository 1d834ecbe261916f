"""Batch driver for the Rust harness (tests/interop.rs): one Python process for many seeds.

python3 batch.py gen --start A --end B --out DIR     runs gen.generate for seeds A..B-1 into DIR/<seed>/
python3 batch.py rows --out DIR FILE...              writes each FILE's rows (rows.py's output) to
                                                     DIR/<basename>.jsonl, or DIR/<basename>.err
python3 batch.py check --start A --end B --dir DIR [--duckdb]
                                                     compares DIR/<seed>/parket.parquet (read by
                                                     pyarrow) with DIR/<seed>/rows.jsonl; prints
                                                     one line per seed: "<seed> ok" or
                                                     "<seed> FAIL <message>". With --duckdb,
                                                     DuckDB reads it too (duckcheck.py); its
                                                     messages start with "duckdb:"
python3 batch.py duckgen --start A --end B --out DIR runs duckgen.generate for seeds A..B-1 into
                                                     DIR/<seed>/; prints "<seed> ok",
                                                     "<seed> skip <why>" (pyarrow cannot read the
                                                     file) or "<seed> FAIL <message>"
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import check_write  # noqa: E402
import gen  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["gen", "check", "rows", "duckgen"])
    ap.add_argument("--duckdb", action="store_true")
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--end", type=int, default=0)
    ap.add_argument("--out")
    ap.add_argument("--dir")
    ap.add_argument("files", nargs="*")
    a = ap.parse_intermixed_args()
    if a.mode == "rows":
        import jsonrows
        for f in a.files:
            base = os.path.join(a.out, os.path.basename(f))
            try:
                text = "".join(line + "\n" for line in jsonrows.file_lines(f))
                with open(base + ".jsonl", "w", encoding="utf-8") as o:
                    o.write(text)
            except Exception as e:  # noqa: BLE001
                with open(base + ".err", "w", encoding="utf-8") as o:
                    o.write("%s: %s" % (type(e).__name__, e))
        return
    if a.mode == "duckgen":
        import duckgen
        for seed in range(a.start, a.end):
            try:
                meta = duckgen.generate(seed, os.path.join(a.out, str(seed)))
            except Exception as e:  # noqa: BLE001
                print(seed, "FAIL duckgen: %s: %s" % (type(e).__name__,
                                                     str(e).replace("\n", " | ")), flush=True)
                continue
            if "pyarrow_error" in meta:
                print(seed, "skip pyarrow cannot read it:", meta["pyarrow_error"], flush=True)
            else:
                print(seed, "ok", flush=True)
        return
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
        if msg is None and a.duckdb:
            import contextlib
            import io
            import duckcheck
            try:
                with contextlib.redirect_stderr(io.StringIO()):  # its skip notes
                    msg = duckcheck.compare(f, os.path.join(d, "rows.jsonl"))
            except Exception as e:  # noqa: BLE001
                msg = "duckdb: duckcheck failed: %s: %s" % (type(e).__name__, e)
        print(seed, "ok" if msg is None else "FAIL " + msg.replace("\n", " | "), flush=True)


if __name__ == "__main__":
    main()
