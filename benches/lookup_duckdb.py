#!/usr/bin/env python3
"""lookup_duckdb.py FILE: the DuckDB side of the `lookup` benchmark (benches/src/lookup.rs).

Reads JSON lines from stdin, each {"where": "id BETWEEN ? AND ?", "params": [[1, 2], ...]};
for each runs `SELECT * FROM read_parquet(FILE) WHERE <where>` once per parameter list (one
thread, in this process) and prints the seconds they took in all and the rows they returned."""
import json
import sys
import time

import duckdb

path = sys.argv[1]
con = duckdb.connect()
con.execute("SET threads = 1")
source = "SELECT * FROM read_parquet('%s') WHERE " % path.replace("'", "''")
warm = set()
for line in sys.stdin:
    job = json.loads(line)
    query = source + job["where"]
    if query not in warm:
        con.execute(query, job["params"][0]).fetchall()  # warm up
        warm.add(query)
    t = time.perf_counter()
    n = 0
    for params in job["params"]:
        n += len(con.execute(query, params).fetchall())
    print("%.9f %d" % (time.perf_counter() - t, n), flush=True)
