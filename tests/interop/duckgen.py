#!/usr/bin/env python3
"""duckgen.py --seed N --out DIR [--rows R]: a random DuckDB table written by DuckDB's own Parquet
writer, for differential tests of parket's reader against files pyarrow did not write.

Writes DIR/duckdb.parquet (DuckDB `COPY ... (FORMAT parquet, ...)` with random options),
DIR/rows.jsonl (pyarrow's reading of that file through jsonrows, the contract's reference) and
DIR/options.json (seed, rows, the CREATE TABLE text, the COPY options, and `duckdb_vs_pyarrow`:
duckcheck's comparison of DuckDB's own reading of the file with rows.jsonl, null when they agree).
If pyarrow cannot read the file, rows.jsonl is not written and options.json `pyarrow_error` says
why (the Rust harness skips such seeds and reports them). Deterministic per seed.

Types: TINYINT..BIGINT, UTINYINT..UBIGINT, HUGEINT/UHUGEINT (DuckDB stores them as DOUBLE),
DECIMAL of 4 widths (INT32, INT64, FLBA storage), FLOAT/DOUBLE (NaN, -0.0, +-inf, subnormals,
random bit patterns), VARCHAR (empty, control characters, NUL, non-BMP, 1-3 KB), BLOB, BOOLEAN,
DATE (extremes and +-infinity), TIME (24:00:00 included), TIMETZ, TIMESTAMP_S/_MS/(us)/_NS,
TIMESTAMPTZ, UUID, INTERVAL (non-negative: DuckDB refuses negative ones), ENUM, JSON, UNION (a
struct with an empty-named tag field), fixed-size ARRAY; STRUCT / LIST / MAP nested up to depth
3; NULLs at every level. COPY options: COMPRESSION uncompressed/snappy/gzip/zstd(+level)/brotli/
lz4/lz4_raw, PARQUET_VERSION V1/V2, ROW_GROUP_SIZE (DuckDB cuts row groups at 2048-row vector
boundaries, so some seeds have 2049..5000 rows), DICTIONARY_SIZE_LIMIT,
STRING_DICTIONARY_PAGE_SIZE_LIMIT, WRITE_BLOOM_FILTER, BLOOM_FILTER_FALSE_POSITIVE_RATIO.
"""
import argparse
import json
import os
import random
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import jsonrows  # noqa: E402

INTS = {
    "TINYINT": (-2**7, 2**7 - 1), "SMALLINT": (-2**15, 2**15 - 1),
    "INTEGER": (-2**31, 2**31 - 1), "BIGINT": (-2**63, 2**63 - 1),
    "UTINYINT": (0, 2**8 - 1), "USMALLINT": (0, 2**16 - 1),
    "UINTEGER": (0, 2**32 - 1), "UBIGINT": (0, 2**64 - 1),
    "HUGEINT": (-2**127, 2**127 - 1), "UHUGEINT": (0, 2**128 - 1),
}
# DuckDB's TIMESTAMP range in microseconds (290309 BC .. 294247 AD), a little inside.
TS_US = (-9223372022400000000, 9223371000000000000)
DATE_DAYS = (-2147483646, 2147483646)

UNICODE = ["", "a", "é", "日本語", "😀", "\u2028\u2029", "\x01\x1f\x7f", "\t\n\r\"\\/",
           "'quoted'", "Ω≈ç√", "\U0010ffff", "a\x00b", " "]


def q_ident(name):
    return '"%s"' % name.replace('"', '""')


def q_str(s):
    if "\x00" in s:  # a NUL cannot travel inside the query text
        return "(" + " || chr(0) || ".join(q_str(p) for p in s.split("\x00")) + ")"
    return "'%s'" % s.replace("'", "''")


class T:
    """A DuckDB type: `sql` is its spelling, `lit(rng)` a random non-NULL SQL literal of it."""

    def __init__(self, sql, lit, kids=()):
        self.sql, self.lit, self.kids = sql, lit, kids


def int_type(name, rng):
    lo, hi = INTS[name]
    pool = [rng.randint(lo, hi) for _ in range(3)]

    def lit(r):
        c = r.random()
        if c < 0.15:
            v = r.choice([lo, hi, 0, -1 if lo < 0 else 1])
        elif c < 0.5:
            v = r.choice(pool)
        elif c < 0.7:
            v = r.randint(max(lo, -100), min(hi, 100))
        else:
            v = r.randint(lo, hi)
        return "CAST(%d AS %s)" % (v, name)
    return T(name, lit)


def decimal_type(rng):
    p = rng.choice([rng.randint(1, 4), rng.randint(5, 9), rng.randint(10, 18),
                    rng.randint(19, 38)])
    s = rng.randint(0, p)
    m = 10**p - 1
    sql = "DECIMAL(%d,%d)" % (p, s)

    def lit(r):
        c = r.random()
        v = r.choice([m, -m, 0, 1, -1]) if c < 0.2 else r.randint(-m, m)
        txt = jsonrows.fmt_decimal(v, s)
        return "CAST('%s' AS %s)" % (txt, sql)
    return T(sql, lit)


def float_type(name, rng):
    f32 = name == "FLOAT"
    pool = [rng.uniform(-1e6, 1e6) for _ in range(3)]

    def lit(r):
        c = r.random()
        if c < 0.3:
            v = r.choice([float("nan"), float("inf"), float("-inf"), -0.0, 0.0, 5e-324, 1e-45,
                          3.4028234663852886e38, 1.7976931348623157e308, 1.1754943508222875e-38,
                          0.1, -2.5])
        elif c < 0.5:
            v = r.choice(pool)
        elif c < 0.75:
            bits = r.getrandbits(32 if f32 else 64)
            v = struct.unpack("<f" if f32 else "<d",
                              struct.pack("<I" if f32 else "<Q", bits))[0]
        else:
            v = r.uniform(-1e3, 1e3)
        if f32:
            try:
                v = struct.unpack("<f", struct.pack("<f", v))[0]
            except OverflowError:
                v = float("inf") if v > 0 else float("-inf")
        if v != v:
            t = "nan"
        elif v in (float("inf"), float("-inf")):
            t = "inf" if v > 0 else "-inf"
        else:
            t = repr(v)
        return "CAST('%s' AS %s)" % (t, name)
    return T(name, lit)


def rand_string(r, long_ok=True):
    c = r.random()
    if c < 0.3:
        return r.choice(UNICODE)
    if c < 0.35 and long_ok:
        return "".join(r.choice("abcdefgh é😀") for _ in range(r.randint(1000, 3000)))
    return "".join(r.choice(["x", "y", "z", "é", "😀", "\n", " ", "日"])
                   for _ in range(r.randint(0, 12)))


def varchar_type(rng):
    pool = [rand_string(rng, False) for _ in range(4)]
    return T("VARCHAR", lambda r: q_str(r.choice(pool) if r.random() < 0.5 else rand_string(r)))


def blob_type(rng):
    def lit(r):
        n = r.choice([0, 1, 3, 16, r.randint(0, 40), r.randint(500, 2000)])
        return "from_hex('%s')" % bytes(r.getrandbits(8) for _ in range(n)).hex()
    return T("BLOB", lit)


def date_type(rng):
    def lit(r):
        c = r.random()
        if c < 0.1:
            return r.choice(["CAST('infinity' AS DATE)", "CAST('-infinity' AS DATE)"])
        if c < 0.25:
            d = r.choice(DATE_DAYS + (0, -1, -719528, 2932896))
        elif c < 0.6:
            d = r.randint(-30000, 30000)
        else:
            d = r.randint(*DATE_DAYS)
        return "(DATE '1970-01-01' + %d)" % d
    return T("DATE", lit)


def time_text(r):
    us = r.choice([0, 86400 * 10**6, r.randint(0, 86400 * 10**6 - 1)])
    s, f = divmod(us, 10**6)
    return "%02d:%02d:%02d.%06d" % (s // 3600, s // 60 % 60, s % 60, f)


def time_type(rng, tz):
    if tz:
        def lit(r):
            t = time_text(r)
            if t.startswith("24"):
                t = "23:59:59.999999"
            o = r.randint(-15 * 60, 15 * 60)
            return "CAST('%s%s%02d:%02d' AS TIMETZ)" % (t, "+" if o >= 0 else "-",
                                                        abs(o) // 60, abs(o) % 60)
        return T("TIMETZ", lit)
    return T("TIME", lambda r: "CAST('%s' AS TIME)" % time_text(r))


def timestamp_type(rng, kind):
    pool = [rng.randint(-10**15, 10**15) for _ in range(3)]

    def us(r):
        c = r.random()
        if c < 0.15:
            return r.choice(TS_US + (0, -1, 1))
        if c < 0.5:
            return r.choice(pool)
        if c < 0.75:
            return r.randint(-4 * 10**15, 4 * 10**15)
        return r.randint(*TS_US)

    def lit(r):
        # DuckDB 1.4.4 cannot write +-infinity as TIMESTAMP_S / _MS (it converts them to
        # microseconds and overflows: "Could not convert Timestamp(S) to Timestamp(US)")
        if r.random() < 0.05 and kind not in ("TIMESTAMP_S", "TIMESTAMP_MS"):
            return "CAST('%s' AS %s)" % (r.choice(["infinity", "-infinity"]), kind)
        if kind == "TIMESTAMP_NS":
            # the nanosecond range is int64 nanoseconds (1677..2262)
            return "make_timestamp_ns(CAST(%d AS BIGINT))" % r.randint(-2**63 + 1, 2**63 - 1)
        return "CAST(make_timestamp(CAST(%d AS BIGINT)) AS %s)" % (us(r), kind)
    return T(kind, lit)


def uuid_type(rng):
    def lit(r):
        b = bytes(r.getrandbits(8) for _ in range(16))
        if r.random() < 0.1:
            b = r.choice([bytes(16), b"\xff" * 16, b"\x80" + bytes(15), b"\x7f" + b"\xff" * 15])
        return "CAST('%s' AS UUID)" % jsonrows.fmt_uuid(b)
    return T("UUID", lit)


def interval_type(rng):
    def lit(r):
        m = r.choice([0, 1, 12, r.randint(0, 2**31 - 1)])
        d = r.choice([0, 1, 31, r.randint(0, 2**31 - 1)])
        u = r.choice([0, 1000, 999, r.randint(0, 86400 * 10**6)])
        return "(to_months(%d) + to_days(%d) + to_microseconds(%d))" % (m, d, u)
    return T("INTERVAL", lit)


def enum_type(rng):
    labels = ["a", "b", "ç", "😀", ""][:rng.randint(1, 5)]
    sql = "ENUM(%s)" % ", ".join(q_str(x) for x in labels)
    return T(sql, lambda r: "CAST(%s AS %s)" % (q_str(r.choice(labels)), sql))


def json_type(rng):
    docs = ['{"a":1}', "[1,2,3]", '"s"', "null", "{}", '{"é":[true,false,null,1.5e300]}']
    return T("JSON", lambda r: "CAST(%s AS JSON)" % q_str(r.choice(docs)))


def union_type(rng):
    sql = "UNION(num INTEGER, str VARCHAR)"

    def lit(r):
        if r.random() < 0.5:
            v = "union_value(num := CAST(%d AS INTEGER))" % r.randint(-2**31, 2**31 - 1)
        else:
            v = "union_value(str := %s)" % q_str(rand_string(r, False))
        return "CAST(%s AS %s)" % (v, sql)  # a bare union_value does not unify in a list
    return T(sql, lit)


FIELD_NAMES = ["a", "b", "x y", "é", "日本", "n.dot", "quote\"d", "k", "value", "element",
               "list", "key"]


def field_name(rng, i):
    return rng.choice(FIELD_NAMES) + str(i) if rng.random() < 0.5 else "f%d" % i


def leaf_type(rng):
    k = rng.choice(["int"] * 6 + ["decimal"] * 2 + ["float"] * 2 + ["varchar"] * 3 +
                   ["blob", "bool", "date", "time", "timetz", "ts", "ts", "uuid", "interval",
                    "enum", "json", "union", "hugeint"])
    if k == "int":
        return int_type(rng.choice([n for n in INTS if "HUGE" not in n]), rng)
    if k == "hugeint":
        return int_type(rng.choice(["HUGEINT", "UHUGEINT"]), rng)
    if k == "decimal":
        return decimal_type(rng)
    if k == "float":
        return float_type(rng.choice(["FLOAT", "DOUBLE"]), rng)
    if k == "varchar":
        return varchar_type(rng)
    if k == "blob":
        return blob_type(rng)
    if k == "bool":
        return T("BOOLEAN", lambda r: r.choice(["true", "false"]))
    if k == "date":
        return date_type(rng)
    if k in ("time", "timetz"):
        return time_type(rng, k == "timetz")
    if k == "ts":
        return timestamp_type(rng, rng.choice(["TIMESTAMP", "TIMESTAMP_S", "TIMESTAMP_MS",
                                               "TIMESTAMP_NS", "TIMESTAMPTZ"]))
    if k == "uuid":
        return uuid_type(rng)
    if k == "interval":
        return interval_type(rng)
    if k == "enum":
        return enum_type(rng)
    if k == "json":
        return json_type(rng)
    return union_type(rng)


def with_nulls(t, p):
    """Wraps t.lit so that it yields NULL with probability p."""
    if getattr(t, "no_null", False):
        return t
    inner = t.lit
    t.lit = lambda r: "NULL" if r.random() < p else inner(r)
    return t


def null_p(rng):
    return rng.choice([0.0, 0.0, 0.05, 0.2, 0.5, 1.0])


def any_type(rng, depth):
    c = rng.random() if depth < 3 else 1.0
    if c < 0.15:
        n = rng.randint(1, 4)
        kids = [(field_name(rng, i), with_nulls(any_type(rng, depth + 1), null_p(rng)))
                for i in range(n)]
        sql = "STRUCT(%s)" % ", ".join("%s %s" % (q_ident(n), t.sql) for n, t in kids)

        def lit(r, kids=kids):
            return "{%s}" % ", ".join("%s: %s" % (q_str(n), t.lit(r)) for n, t in kids)
        return T(sql, lit)
    if c < 0.27:
        e = with_nulls(any_type(rng, depth + 1), null_p(rng))
        if depth == 1 and rng.random() < 0.2:
            # DuckDB 1.4.4 writes a NULL fixed-size ARRAY as `size` level entries (the null,
            # then repetition level 1 entries): invalid, and pyarrow and parket both refuse it.
            # So an ARRAY only appears as a top-level column that is never NULL.
            size = rng.randint(1, 3)
            t = T("%s[%d]" % (e.sql, size),
                  lambda r: "[%s]" % ", ".join(e.lit(r) for _ in range(size)))
            t.no_null = True
            return t
        maxlen = rng.choice([0, 1, 3, 8])
        return T(e.sql + "[]",
                 lambda r: "[%s]" % ", ".join(e.lit(r) for _ in range(r.randint(0, maxlen))))
    if c < 0.35:
        k = rng.choice([lambda: int_type(rng.choice(["INTEGER", "BIGINT", "UTINYINT"]), rng),
                        lambda: varchar_type(rng), lambda: date_type(rng),
                        lambda: decimal_type(rng)])()
        v = with_nulls(any_type(rng, depth + 1), null_p(rng))

        def lit(r):
            keys = {}
            for _ in range(r.randint(0, 4)):
                x = k.lit(r)
                keys.setdefault(x, v.lit(r))
            # equal literals are caught above; different literals of equal value (a DATE
            # reached twice) are left to DuckDB, which then refuses: the row is retried
            return "MAP {%s}" % ", ".join("%s: %s" % kv for kv in keys.items())
        return T("MAP(%s, %s)" % (k.sql, v.sql), lit)
    return leaf_type(rng)


def copy_options(rng, rows):
    o = []
    codec = rng.choice(["uncompressed", "snappy", "gzip", "zstd", "brotli", "lz4", "lz4_raw"])
    o.append("COMPRESSION %s" % codec)
    if codec == "zstd" and rng.random() < 0.5:
        o.append("COMPRESSION_LEVEL %d" % rng.choice([1, 3, 9, 19, 22]))
    o.append("PARQUET_VERSION %s" % rng.choice(["V1", "V2"]))
    if rng.random() < 0.5:
        o.append("ROW_GROUP_SIZE %d" % rng.choice([1, 100, 2048, 3000]))
    if rng.random() < 0.3:
        o.append("DICTIONARY_SIZE_LIMIT %d" % rng.choice([1, 10, 100, 10000]))
    if rng.random() < 0.3:
        o.append("STRING_DICTIONARY_PAGE_SIZE_LIMIT %d" % rng.choice([1, 64, 1000]))
    if rng.random() < 0.3:
        o.append("WRITE_BLOOM_FILTER %s" % rng.choice(["true", "false"]))
    if rng.random() < 0.2:
        o.append("BLOOM_FILTER_FALSE_POSITIVE_RATIO %s" % rng.choice(["0.5", "0.01", "0.0001"]))
    return o


def generate(seed, out, rows=None):
    import duckdb
    import pyarrow.parquet as pq

    rng = random.Random(seed)
    os.makedirs(out, exist_ok=True)
    big = rows is None and rng.random() < 0.15
    if rows is None:
        rows = rng.randint(2049, 5000) if big else rng.choice([0, 1, 2] + [rng.randint(3, 300)] * 7)
    ncols = rng.randint(1, 3) if big else rng.randint(1, 8)
    cols = []
    for i in range(ncols):
        t = leaf_type(rng) if big else any_type(rng, 1)
        cols.append((field_name(rng, i), with_nulls(t, null_p(rng))))
    create = "CREATE TABLE t (%s)" % ", ".join("%s %s" % (q_ident(n), t.sql) for n, t in cols)
    con = duckdb.connect()
    con.execute("SET threads = 1")  # deterministic row groups
    con.execute("SET TimeZone = 'UTC'")
    con.execute(create)
    batch = []
    retries = 0

    def flush():
        con.execute("INSERT INTO t VALUES %s" % ", ".join(batch))
        batch.clear()

    for _ in range(rows):
        while True:
            row = "(%s)" % ", ".join("CAST(%s AS %s)" % (t.lit(rng), t.sql) for _n, t in cols)
            try:  # a single row is cheap to check; batches go faster
                if retries < 50 and "MAP" in create:
                    con.execute("SELECT %s" % row[1:-1])
                break
            except duckdb.Error:
                retries += 1
        batch.append(row)
        if len(batch) >= 200:
            flush()
    if batch:
        flush()
    opts = copy_options(rng, rows)
    path = os.path.join(out, "duckdb.parquet")
    meta = {"seed": seed, "rows": rows, "create": create, "copy": opts}
    rows_path = os.path.join(out, "rows.jsonl")
    if os.path.exists(rows_path):
        os.remove(rows_path)
    names = [n for n, _t in cols]
    dropped = {}
    while True:
        sel = ", ".join(q_ident(n) for n in names if n not in dropped)
        con.execute("COPY (SELECT %s FROM t) TO '%s' (FORMAT parquet, %s)" % (
            sel, path.replace("'", "''"), ", ".join(opts)))
        try:
            text = "".join(line + "\n" for line in jsonrows.file_lines(path))
            break
        except Exception as e:  # noqa: BLE001
            first = "%s: %s" % (type(e).__name__, str(e).splitlines()[0][:300])
        # pyarrow cannot read the file: drop the columns it cannot read (each alone) and
        # write the file again without them; the reasons go to options.json `dropped`.
        bad = {}
        for n in names:
            if n in dropped:
                continue
            try:
                pq.ParquetFile(path).read(columns=[n])
            except Exception as e:  # noqa: BLE001
                bad[n] = "%s: %s" % (type(e).__name__, str(e).splitlines()[0][:300])
        dropped.update(bad)
        if not bad or len(dropped) == len(names):
            meta["pyarrow_error"] = first
            text = None
            break
    if dropped:
        meta["dropped"] = dropped
    if text is not None:
        with open(rows_path, "w", encoding="utf-8") as f:
            f.write(text)
        import duckcheck
        import io
        import contextlib
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            try:
                meta["duckdb_vs_pyarrow"] = duckcheck.compare(path, rows_path)
            except Exception as e:  # noqa: BLE001
                meta["duckdb_vs_pyarrow"] = "duckcheck failed: %s: %s" % (type(e).__name__, e)
        if err.getvalue():
            meta["duckcheck_notes"] = err.getvalue().strip()
    with open(os.path.join(out, "options.json"), "w", encoding="utf-8") as f:
        json.dump(meta, f, indent=1, ensure_ascii=False)
    return meta


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--rows", type=int)
    a = ap.parse_args()
    meta = generate(a.seed, a.out, a.rows)
    print(json.dumps(meta, ensure_ascii=False)[:2000])


if __name__ == "__main__":
    main()
