#!/usr/bin/env python3
"""where_gen.py --seeds A..B --out DIR: for each seed, a random flat Parquet file written by
pyarrow (nulls, NaN, -0.0, every predicate type, random statistics / page index / dictionary /
page and row group sizes) with a `row` column holding the row number, and random predicates
with the rows `pyarrow.parquet.read_table(filters=...)` selects (checked against the same
filter applied to the table in memory; where they differ, pyarrow's pruning is wrong and the
in-memory rows are the expectation, the others kept as `read_table_rows`).

Writes DIR/seed_N.parquet per seed and DIR/cases.json: [{"seed", "file", "cases": [{"where":
parket text, "rows": [row numbers]}]}].

The predicates avoid json-mapping.md's two documented differences: `IN` is given to pyarrow as
an OR of equalities (SQL's unknown for a null x, where `isin` says false), and FLOAT literals
are values a float32 holds exactly (pyarrow widens the column to double).
"""
import argparse
import base64
import datetime
import json
import os
import random
import struct
from decimal import Decimal

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


EPOCH = datetime.date(1970, 1, 1)


def date_text(days):
    return (EPOCH + datetime.timedelta(days=days)).isoformat()


def tod_text(v, per_sec, digits):
    s, frac = divmod(v, per_sec)
    h, rem = divmod(s, 3600)
    m, s = divmod(rem, 60)
    out = "%02d:%02d:%02d" % (h, m, s)
    if digits:
        out += "." + str(frac).rjust(digits, "0")
    return out


def ts_text(v, per_sec, digits, utc):
    days, rest = divmod(v, 86400 * per_sec)
    return date_text(days) + "T" + tod_text(rest, per_sec, digits) + ("Z" if utc else "")


UNIT = {"ms": (1000, 3), "us": (1000000, 6), "ns": (1000000000, 9)}


class Col:
    """A column: its arrow type, a value maker, and how a literal is spelled for each side
    (parket's text, pyarrow's scalar, DuckDB's SQL: `sql` is None where DuckDB's semantics
    differ, see scan_diff.py)."""

    def __init__(self, name, typ, make, text, arrow=None, sql=None):
        self.name, self.typ, self.make, self.text = name, typ, make, text
        self.arrow = arrow or (lambda v: pa.scalar(v, type=typ))
        self.sql = sql


def columns(r):
    ints = [("i8", pa.int8(), 7), ("i16", pa.int16(), 15), ("i32", pa.int32(), 31),
            ("i64", pa.int64(), 63), ("u8", pa.uint8(), 8), ("u16", pa.uint16(), 16),
            ("u32", pa.uint32(), 32), ("u64", pa.uint64(), 64)]
    out = []
    for name, t, bits in ints:
        signed = name[0] == "i"
        lo, hi = (-(1 << bits), (1 << bits) - 1) if signed else (0, (1 << bits) - 1)
        pool = sorted({lo, hi, 0, 1, 2, 3, hi // 2, hi // 2 + 1} | ({-1, -2, lo + 1} if signed else set()))

        def make(r, pool=pool, lo=lo):
            return r.choice(pool) if r.random() < 0.5 else r.randint(max(lo, -20), 20)
        out.append(Col(name, t, make, str, sql=str))
    fpool = [0.0, -0.0, 1.0, -1.0, 0.5, 2.5, float("inf"), float("-inf"), float("nan"), 1e30,
             f32(0.1), 3.0]

    def ftext(v):
        if v != v:
            return "'NaN'"
        if v in (float("inf"), float("-inf")):
            return "'Infinity'" if v > 0 else "'-Infinity'"
        return repr(v)
    def fsql(v):
        return "CAST('" + repr(v) + "' AS DOUBLE)"
    out.append(Col("f32", pa.float32(), lambda r: f32(r.choice(fpool)), ftext,
                   lambda v: pa.scalar(v, type=pa.float32()), fsql))
    out.append(Col("f64", pa.float64(), lambda r: r.choice(fpool + [0.1, 1e300, -7.25]), ftext,
                   sql=fsql))
    spool = ["", "a", "ab", "abc", "b", "é", "日本", "z", "a'b", "A", "\x00"]
    def ssql(v):
        # DuckDB's parser stops at a NUL: spell it chr(0).
        return " || chr(0) || ".join("'" + p.replace("'", "''") + "'" for p in v.split("\x00"))
    out.append(Col("s", pa.string(), lambda r: r.choice(spool),
                   lambda v: "'" + v.replace("'", "''") + "'", sql=ssql))
    bpool = [b"", b"\x00", b"\xff", b"\x00\x01", b"abc", b"\x80\x00"]
    out.append(Col("bin", pa.binary(), lambda r: r.choice(bpool),
                   lambda v: "'" + base64.b64encode(v).decode() + "'",
                   sql=lambda v: "from_base64('" + base64.b64encode(v).decode() + "')"))
    for name, p, s in [("dec_small", 5, 2), ("dec_big", 30, 4)]:
        def dmake(r, p=p, s=s):
            x = r.choice([0, 1, -1, 10 ** p - 1, -(10 ** p - 1), r.randint(-1000, 1000)])
            return Decimal("%dE-%d" % (x, s))

        def dtext(v, r=r):
            t = str(v)
            return t if r.random() < 0.5 else "'" + t + "'"
        out.append(Col(name, pa.decimal128(p, s), dmake, dtext,
                       sql=lambda v, p=p, s=s: "CAST('%s' AS DECIMAL(%d, %d))" % (v, p, s)))
    out.append(Col("day", pa.date32(),
                   lambda r: EPOCH + datetime.timedelta(days=r.choice([0, -1, 1, 19724, -719162, 2932896, r.randint(-50, 50)])),
                   lambda v, r=r: "'" + v.isoformat() + "'" if r.random() < 0.7 else str((v - EPOCH).days),
                   sql=lambda v: "DATE '" + v.isoformat() + "'"))
    for name, t, unit in [("t_ms", pa.time32("ms"), "ms"), ("t_us", pa.time64("us"), "us"),
                          ("t_ns", pa.time64("ns"), "ns")]:
        per, digits = UNIT[unit]
        out.append(Col(name, t, lambda r, per=per: r.choice([0, 1, 86400 * per - 1, 3600 * per, r.randint(0, 1000)]),
                       lambda v, per=per, digits=digits, r=r: "'" + tod_text(v, per, digits) + "'" if r.random() < 0.7 else str(v),
                       lambda v, t=t: temporal([v], t)[0]))
    for name, unit, tz in [("ts_ms", "ms", None), ("ts_us", "us", "UTC"), ("ts_ns", "ns", None), ("ts_nsz", "ns", "UTC")]:
        t = pa.timestamp(unit, tz=tz)
        per, digits = UNIT[unit]
        out.append(Col(name, t, lambda r, per=per: r.choice([0, -1, 1, 86400 * per, -86400 * per * 365, r.randint(-100, 100)]),
                       lambda v, per=per, digits=digits, tz=tz, r=r: "'" + ts_text(v, per, digits, tz is not None) + "'" if r.random() < 0.7 else str(v),
                       lambda v, t=t: temporal([v], t)[0]))
    out.append(Col("flag", pa.bool_(), lambda r: r.random() < 0.5, lambda v: "TRUE" if v else "FALSE",
                   sql=lambda v: "TRUE" if v else "FALSE"))
    # UUID is left out: pyarrow's compute has no comparison kernel for its extension type.
    return out


def temporal(vals, typ):
    storage = pa.int32() if typ == pa.time32("ms") else pa.int64()
    return pa.array(vals, type=storage).cast(typ)


def array(col, vals):
    if col.name.startswith(("t_", "ts_")):
        return temporal(vals, col.typ)
    return pa.array(vals, type=col.typ)


def isnan(v):
    return isinstance(v, float) and v != v


def leaf(r, col, data):
    """A random test of `col`: (parket text, pyarrow expression, DuckDB SQL or None, whether a
    literal is NaN)."""
    present = [v for v in data if v is not None]

    def lit():
        if present and r.random() < 0.7:
            return r.choice(present)
        return col.make(r)
    # DuckDB orders NaN above every number and equal to itself (IEEE 754 and pyarrow: NaN
    # compares false with everything): no SQL for a float column holding or compared with NaN.
    duck = col.sql is not None and not any(isnan(v) for v in present)

    def sql(text):
        return text if duck else None
    f = pc.field(col.name)
    k = r.randrange(9)
    if k == 7:
        return col.name + " IS NULL", f.is_null(), sql(col.name + " IS NULL"), False
    if k == 8:
        return col.name + " IS NOT NULL", ~f.is_null(), sql(col.name + " IS NOT NULL"), False
    if k == 6:
        vs = [lit() for _ in range(r.randint(1, 3))]
        e = None
        for v in vs:
            x = f == col.arrow(v)
            e = x if e is None else (e | x)
        nan = any(isnan(v) for v in vs)
        text = col.name + " IN (" + ", ".join(col.text(v) for v in vs) + ")"
        duck = duck and not nan
        return text, e, sql(col.name + " IN (" + ", ".join(col.sql(v) for v in vs) + ")") \
            if duck else None, nan
    ops = ["=", "!=", "<", "<=", ">", ">="]
    op = ops[k]
    if col.name in ("flag", "id") and op not in ("=", "!="):
        op = "="
    v = lit()
    a = col.arrow(v)
    e = {"=": f == a, "!=": f != a, "<": f < a, "<=": f <= a, ">": f > a, ">=": f >= a}[op]
    text = col.name + " " + (r.choice(["!=", "<>"]) if op == "!=" else op) + " " + col.text(v)
    duck = duck and not isnan(v)
    return text, e, (col.name + " " + op + " " + col.sql(v)) if duck else None, isnan(v)


def expr(r, cols, data, depth):
    """A random predicate: (parket text, pyarrow expression, DuckDB SQL or None, whether a
    literal is NaN)."""
    x = r.random()
    if depth <= 0 or x < 0.4:
        c = r.choice(cols)
        return leaf(r, c, data[c.name])
    if x < 0.55:
        t, e, q, n = expr(r, cols, data, depth - 1)
        return "NOT (" + t + ")", ~e, q and "NOT (" + q + ")", n
    (ta, ea, qa, na), (tb, eb, qb, nb) = expr(r, cols, data, depth - 1), expr(r, cols, data, depth - 1)
    q = qa is not None and qb is not None
    if x < 0.8:
        return "(" + ta + ") AND (" + tb + ")", ea & eb, q and "(" + qa + ") AND (" + qb + ")" or None, na or nb
    return "(" + ta + ") OR (" + tb + ")", ea | eb, q and "(" + qa + ") OR (" + qb + ")" or None, na or nb


def table_and_cases(seed, n_cases):
    """A seed's table (a `row` column, then 2 to 6 random columns), pyarrow writer options
    and predicates (`expr` tuples): deterministic per seed (scan_diff.py draws them again)."""
    r = random.Random(seed)
    cols = r.sample(columns(r), r.randint(2, 6))
    n = r.choice([0, 1, 5, 40, 200, 1000])
    null_rate = r.choice([0.0, 0.1, 0.5, 1.0])
    data = {}
    arrays = [pa.array(range(n), type=pa.int64())]
    names = ["row"]
    for c in cols:
        vals = [None if r.random() < null_rate else c.make(r) for _ in range(n)]
        data[c.name] = vals
        arrays.append(array(c, vals))
        names.append(c.name)
    table = pa.Table.from_arrays(arrays, names=names)
    opts = dict(
        write_statistics=r.random() < 0.8,
        write_page_index=r.random() < 0.7,
        use_dictionary=r.random() < 0.5,
        data_page_size=r.choice([64, 512, 1 << 20]),
        row_group_size=r.choice([7, 64, 1 << 20]),
        store_decimal_as_integer=r.random() < 0.5,
    )
    if r.random() < 0.3:
        opts["write_batch_size"] = r.choice([3, 17])
    if r.random() < 0.5:
        opts["bloom_filter_options"] = {c.name: {"ndv": max(n, 1), "fpp": 0.01}
                                        for c in cols if c.name != "flag" and r.random() < 0.7}
    cases = [expr(r, cols, data, r.randint(0, 3)) for _ in range(n_cases)]
    return table, opts, cases


def one(seed, out, n_cases):
    table, opts, exprs = table_and_cases(seed, n_cases)
    path = os.path.join(out, "seed_%d.parquet" % seed)
    pq.write_table(table, path, **opts)
    cases = []
    for text, e, _, _ in exprs:
        rows = sorted(pq.read_table(path, filters=e, columns=["row"]).column("row").to_pylist())
        # The same filter on the rows in memory: the semantics without pyarrow's statistics
        # pruning, which drops matching row groups for some comparisons with a NaN literal
        # (pyarrow 26: `NOT (x <= NaN OR x > 0.1)` loses the NaN rows of groups whose
        # statistics are min -1.0, max 1e300). The two agree otherwise.
        memory = sorted(table.filter(e).column("row").to_pylist())
        case = {"where": text, "rows": memory}
        if rows != memory:
            case["read_table_rows"] = rows
        cases.append(case)
    return {"seed": seed, "file": path, "options": opts, "cases": cases}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--cases", type=int, default=12)
    a = ap.parse_args()
    lo, hi = (int(x) for x in a.seeds.split(".."))
    res = [one(s, a.out, a.cases) for s in range(lo, hi)]
    with open(os.path.join(a.out, "cases.json"), "w") as f:
        json.dump(res, f)


if __name__ == "__main__":
    main()
