#!/usr/bin/env python3
"""scan_diff.py --seeds A..B --out DIR [--cases N] [--parket]: the Python side of
tests/scan_differential.rs (parket's `scan().predicate(..)` against pyarrow and DuckDB).

Per seed, where_gen.py's random flat table (every predicate type, nulls, NaN, -0.0, a `row`
column holding the row number) and random predicates (every operator, IN, IS [NOT] NULL, NOT,
AND, OR). Without --parket: writes DIR/seed_N.parquet with pyarrow (random statistics, page
index, dictionary, Bloom filters, small pages and row groups), which the Rust side rewrites
with parket. With --parket: the same seeds'
tables and predicates again (deterministic), over DIR/parket_N.parquet, which the Rust side
wrote. Either way DIR/cases.json (or parket_cases.json):

    [{"seed", "file", "options", "cases": [{"where": parket text, "rows": [...], ...}]}]

For each case:
- "rows": `pyarrow.parquet.read_table(file, filters=...)`'s rows, except where it drops rows
  that the same filter on the table in memory keeps: pyarrow 26's statistics pruning ignores
  NaN, both literals (`NOT (x <= NaN OR x > 0.1)` loses the NaN rows of a row group whose
  statistics are min -1.0, max 1e300) and values (`NOT (f64 > -7.25)` loses a NaN row of a row
  group whose min, NaN excluded as the spec says, is above -7.25). Only a case with a NaN
  literal, or whose lost rows all hold a NaN, may differ so: "rows" is then the in-memory
  filter's, and "read_table_rows" pyarrow's (the evidence). Any other difference is
  "unexplained" (the Rust test fails on it).
- "duckdb": `SELECT row FROM read_parquet(file) WHERE ...`'s rows, where DuckDB's semantics
  agree (absent otherwise): not for a float column that holds NaN or a NaN literal (DuckDB
  orders NaN above every number and equal to itself), nor TIME / TIMESTAMP columns (not spelled
  as DuckDB literals here).
"""
import argparse
import json
import os
import random

import duckdb
import pyarrow.parquet as pq

import where_gen


def nan_rows(table):
    """The rows holding a NaN in some float column."""
    out = set()
    for name in table.column_names:
        if name in ("f32", "f64"):
            out |= {i for i, v in enumerate(table.column(name).to_pylist()) if v is not None and v != v}
    return out


def expectations(path, table, cases, con):
    nans = nan_rows(table)
    out = []
    for text, e, sql, nan in cases:
        rows = sorted(pq.read_table(path, filters=e, columns=["row"]).column("row").to_pylist())
        memory = sorted(table.filter(e).column("row").to_pylist())
        case = {"where": text, "rows": rows}
        if rows != memory:
            case["rows"] = memory
            case["read_table_rows"] = rows
            # The evidence that it is pyarrow's NaN pruning: it only drops rows, each holding a
            # NaN, or the predicate has a NaN literal.
            dropped = set(memory) - set(rows)
            if not nan and not (set(rows) <= set(memory) and dropped <= nans):
                case["unexplained"] = True
        if sql is not None:
            q = "SELECT row FROM read_parquet('%s') WHERE %s ORDER BY row" % (path, sql)
            try:
                case["duckdb"] = [x[0] for x in con.execute(q).fetchall()]
                case["sql"] = sql
            except duckdb.Error as err:
                case["duckdb_error"] = "%s: %s" % (sql, err)
        out.append(case)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--cases", type=int, default=12)
    ap.add_argument("--parket", action="store_true")
    a = ap.parse_args()
    lo, hi = (int(x) for x in a.seeds.split(".."))
    con = duckdb.connect()
    con.execute("SET threads = 1")
    res = []
    for seed in range(lo, hi):
        table, opts, cases = where_gen.table_and_cases(seed, a.cases)
        # pyarrow checks the page size once per write batch (1024 rows by default): smaller
        # batches in half the seeds, so that its files have many pages to skip (a stream of
        # its own, to leave where_gen's draws as they are).
        r2 = random.Random(seed * 7919 + 1)
        if r2.random() < 0.5:
            opts["write_batch_size"] = r2.choice([2, 5, 16])
            opts["data_page_size"] = r2.choice([1, 64])
        if a.parket:
            path = os.path.join(a.out, "parket_%d.parquet" % seed)
        else:
            path = os.path.join(a.out, "seed_%d.parquet" % seed)
            pq.write_table(table, path, **opts)
        res.append({"seed": seed, "file": path, "options": {} if a.parket else opts,
                    "cases": expectations(path, table, cases, con)})
    name = "parket_cases.json" if a.parket else "cases.json"
    with open(os.path.join(a.out, name), "w") as f:
        json.dump(res, f)


if __name__ == "__main__":
    main()
