"""Optional second opinion for check_write.py --duckdb: read the file with DuckDB and compare
each value with the expected JSON row where DuckDB's Python types allow an exact comparison.

Compared: booleans, integers (signed/unsigned), FLOAT/DOUBLE (bit-exact after widening; NaN
matches "NaN"), strings, DECIMAL, UUID, plain binaries (as base64), and structs / lists of
those. Skipped (reported, not failed): temporal types (Python's datetime stops at year 9999),
INT96, INTERVAL, FLOAT16, UNKNOWN, MAP, DECIMAL with precision > 38 (DuckDB
reads it as DOUBLE), and any subtree containing one of them.
"""
import base64
import json
import math
import struct
import sys
from decimal import Decimal

import jsonrows

_OK = {"bool", "int", "float32", "float64", "string", "decimal", "uuid", "binary"}


def _comparable(shape):
    k = shape[0]
    if k == "leaf":
        n = shape[1]
        kind = jsonrows.leaf_kind(n)[0]
        if kind == "decimal":  # DuckDB reads precision > 38 as DOUBLE
            p = n.logical[1] if n.logical else n.precision
            return p is not None and p <= 38
        return kind in _OK
    if k == "list":
        return _comparable(shape[2])
    if k == "struct":
        return all(_comparable(s) for _n, _i, s in shape[2])
    return False


def _f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def _float(v):
    return {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}.get(v, v)


def _same(shape, want, got):
    if want is None or got is None:
        return want is None and got is None
    k = shape[0]
    if k == "list":
        return (isinstance(got, list) and len(got) == len(want)
                and all(_same(shape[2], w, g) for w, g in zip(want, got)))
    if k == "struct":
        if isinstance(got, tuple):  # DuckDB returns a struct with an empty field name as a tuple
            got = {n: g for (n, _i, _s), g in zip(shape[2], got)}
        return isinstance(got, dict) and all(_same(s, want[n], got.get(n))
                                             for n, _i, s in shape[2])
    kind = jsonrows.leaf_kind(shape[1])[0]
    if kind in ("float32", "float64"):
        w = float(_float(want))
        g = float(got)
        if kind == "float32":
            w, g = _f32(w), _f32(g)
        return (math.isnan(w) and math.isnan(g)) or (w == g and math.copysign(1, w) ==
                                                     math.copysign(1, g))
    if kind == "decimal":
        return Decimal(want) == Decimal(got)
    if kind == "uuid":
        return str(got) == want
    if kind == "binary":
        return base64.b64encode(bytes(got)).decode("ascii") == want
    return want == got and type(want) is type(got)


def compare(path, expected_path):
    import duckdb

    root = jsonrows.load_tree(path)
    shape = jsonrows.single_shape(root)
    cols = shape[2]
    use = [(j, name, s) for j, (name, _i, s) in enumerate(
        [c for c in cols if _comparable(c[2])])]
    skipped = [name for name, _i, s in cols if not _comparable(s)]
    if skipped:
        print("duckcheck: skipped columns %s" % ", ".join(skipped), file=sys.stderr)
    sel = ", ".join('"%s"' % name.replace('"', '""') for _j, name, _s in use) or "count(*)"
    con = duckdb.connect()
    try:
        rows = con.execute("SELECT %s FROM read_parquet(?)" % sel, [path]).fetchall()
        count = con.execute("SELECT count(*) FROM read_parquet(?)", [path]).fetchone()[0]
    except duckdb.Error as e:
        # DuckDB 1.4 does not read every valid file (e.g. BYTE_STREAM_SPLIT on integers,
        # DELTA_BYTE_ARRAY on FLBA): a warning, not a failure; pyarrow already compared.
        print("duckcheck: DuckDB cannot read %s: %s" % (path, str(e).splitlines()[0]),
              file=sys.stderr)
        return None
    with open(expected_path, encoding="utf-8") as f:
        want = [json.loads(line) for line in f if line.strip()]
    if count != len(want):
        return "duckdb: file has %d rows, expected %d" % (count, len(want))
    if not use:
        return None
    for r, (got, exp) in enumerate(zip(rows, want), 1):
        for j, name, s in use:
            if not _same(s, exp[name], got[j]):
                return "duckdb: line %d, column %s: file has %r, expected %s" % (
                    r, name, got[j], json.dumps(exp[name], ensure_ascii=False)[:300])
    return None
