#!/usr/bin/env python3
"""duckdb_scan.py FILE [--runs N] [--threads 1,2]: the DuckDB side of `bench --duckdb`
(benches/src/duckdb.rs).

For each thread count, in this one process (DuckDB in memory, the file in the page cache):

    SELECT count(*), bit_xor(hash(COLUMNS(*))) FROM read_parquet(FILE)

`COLUMNS(*)` expands to one `bit_xor(hash(col))` per top-level column, so every column (nested
ones included) is projected by the scan and every row's value of every column is hashed: a full
decode of the file. (DuckDB's dictionary-encoded strings may stay dictionary vectors, which
`hash` reads through their selection; that is DuckDB's decoded form.)

Per thread count: one warm-up query, then `--runs` rounds; each round times the query twice,
once without profiling (its wall time: `execute` + `fetchall`) and once with
`enable_profiling='json'` (the READ_PARQUET operator's own `operator_timing`, the scan without
the hashing and aggregation above it). Prints one line per thread count:

    DUCKDB threads=T wall_median_ns=.. wall_min_ns=.. wall_max_ns=.. scan_median_ns=..
        scan_min_ns=.. scan_max_ns=.. rows=.. projected=..

`projected` is the number of columns the scan operator's profile lists under `Projections`
(checked against the file's column count by the caller). With more than one thread the
operator time is the sum over threads (DuckDB adds up each thread's time).
"""
import argparse
import json
import os
import sys
import tempfile
import time

import duckdb


def scan_node(node):
    """The READ_PARQUET / TABLE_SCAN node of a JSON profile tree."""
    if node.get("operator_name", "").strip() in ("READ_PARQUET", "TABLE_SCAN", "PARQUET_SCAN"):
        return node
    for child in node.get("children", []):
        found = scan_node(child)
        if found is not None:
            return found
    return None


def stats(values):
    values = sorted(values)
    return values[len(values) // 2], values[0], values[-1]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--threads", default="1,%d" % (os.cpu_count() or 1))
    args = parser.parse_args()

    path = args.file.replace("'", "''")
    query = "SELECT count(*), bit_xor(hash(COLUMNS(*))) FROM read_parquet('%s')" % path
    profile = os.path.join(tempfile.mkdtemp(prefix="duckdb_scan"), "profile.json")
    con = duckdb.connect()
    con.execute("SET profiling_output = '%s'" % profile.replace("'", "''"))
    for threads in [int(t) for t in args.threads.split(",")]:
        con.execute("SET threads = %d" % threads)
        rows = con.execute(query).fetchall()[0][0]  # warm-up
        walls, scans, projected = [], [], None
        for _ in range(args.runs):
            t = time.perf_counter()
            con.execute(query).fetchall()
            walls.append(time.perf_counter() - t)
            con.execute("PRAGMA enable_profiling = 'json'")
            con.execute(query).fetchall()
            con.execute("PRAGMA disable_profiling")
            with open(profile) as f:
                node = scan_node(json.load(f))
            if node is None:
                sys.exit("duckdb_scan.py: no scan operator in the profile of %s" % args.file)
            scans.append(node["operator_timing"])
            projected = len(node.get("extra_info", {}).get("Projections", []))
        w, s = stats(walls), stats(scans)
        print(
            "DUCKDB threads=%d wall_median_ns=%d wall_min_ns=%d wall_max_ns=%d "
            "scan_median_ns=%d scan_min_ns=%d scan_max_ns=%d rows=%d projected=%d"
            % ((threads,) + tuple(int(x * 1e9) for x in w + s) + (rows, projected)),
            flush=True,
        )
    os.remove(profile)
    os.rmdir(os.path.dirname(profile))


if __name__ == "__main__":
    main()
