#!/usr/bin/env python3
"""lookup_duckdb.py FILE: the DuckDB side of the `lookup` benchmark (benches/src/lookup.rs).

Reads lines of ids from stdin; for each line runs `SELECT * FROM read_parquet(FILE) WHERE
id = X` for every id (one thread, in this process) and prints the seconds they took in all and
the rows they returned."""
import sys
import time

import duckdb

path = sys.argv[1]
con = duckdb.connect()
con.execute("SET threads = 1")
query = "SELECT * FROM read_parquet('%s') WHERE id = ?" % path.replace("'", "''")
con.execute(query, [0]).fetchall()  # warm up
for line in sys.stdin:
    ids = [int(x) for x in line.split()]
    t = time.perf_counter()
    n = 0
    for x in ids:
        n += len(con.execute(query, [x]).fetchall())
    print("%.9f %d" % (time.perf_counter() - t, n), flush=True)
