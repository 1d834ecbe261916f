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


def bloom_probe(path, columns, absent_per_group=50):
    """Probes the Bloom filters of the top-level primitive `columns` of `path` with DuckDB's
    `parquet_bloom_probe(file, column, value)`: every non-null value of each row group (read
    by pyarrow) must not be excluded; values absent from a row group mostly should be.

    Returns one dict per column: `present` / `found` (values probed / not excluded),
    `absent` / `excluded`, `groups` / `offsets` (row groups / those whose footer has a
    `bloom_filter_offset`, as pyarrow's metadata shows it)."""
    import random
    import duckdb
    import pyarrow.parquet as pq

    pf = pq.ParquetFile(path)
    md = pf.metadata
    con = duckdb.connect()
    rng = random.Random(0)
    out = []
    for col in columns:
        idx = [i for i in range(md.num_columns)
               if md.row_group(0).column(i).path_in_schema == col] if md.num_row_groups else []
        r = {"column": col, "present": 0, "found": 0, "absent": 0, "excluded": 0,
             "groups": md.num_row_groups, "offsets": 0}
        for rg in range(md.num_row_groups):
            if idx and md.row_group(rg).column(idx[0]).bloom_filter_offset is not None:
                r["offsets"] += 1
        probes = {}  # row group -> [(value, present)]
        for rg in range(md.num_row_groups):
            vals = [v for v in pf.read_row_group(rg, columns=[col]).column(0).to_pylist()
                    if v is not None]
            seen = set(vals)
            distinct = list(dict.fromkeys(vals))
            if len(distinct) > 150:  # one query per probe: a sample keeps it fast
                distinct = rng.sample(distinct, 150)
            ps = [(v, True) for v in distinct]
            sample = vals[0] if vals else 0
            n = 0
            while n < absent_per_group:
                if isinstance(sample, bool):
                    break
                if isinstance(sample, int):
                    c = rng.randint(-2**31, 2**31 - 1)
                elif isinstance(sample, float):
                    c = rng.uniform(-1e9, 1e9)
                elif isinstance(sample, str):
                    c = "absent-%d" % rng.getrandbits(40)
                elif isinstance(sample, Decimal):
                    c = Decimal(rng.randint(-10**9, 10**9)).scaleb(sample.as_tuple().exponent)
                elif isinstance(sample, bytes):
                    c = bytes(rng.getrandbits(8) for _ in range(len(sample)))
                else:  # uuid.UUID
                    import uuid
                    c = uuid.UUID(int=rng.getrandbits(128))
                if c not in seen:
                    ps.append((c, False))
                    n += 1
            probes[rg] = ps
        for rg, ps in probes.items():
            for v, present in ps:
                res = con.execute(
                    "SELECT bloom_filter_excludes FROM parquet_bloom_probe(?, ?, ?) "
                    "WHERE row_group_id = ?", [path, col, v, rg]).fetchall()
                excludes = bool(res and res[0][0])
                if present:
                    r["present"] += 1
                    r["found"] += not excludes
                    if excludes and "first_missed" not in r:
                        r["first_missed"] = repr(v)
                else:
                    r["absent"] += 1
                    r["excluded"] += excludes
        out.append(r)
    return out


def pyarrow_bloom(src, dst, columns):
    """Rewrites `src` with pyarrow (same row groups) with Bloom filters on `columns`."""
    import pyarrow.parquet as pq

    pf = pq.ParquetFile(src)
    rg = max((pf.metadata.row_group(i).num_rows for i in range(pf.metadata.num_row_groups)),
             default=1)
    pq.write_table(pf.read(), dst, row_group_size=rg, store_schema=False,
                   bloom_filter_options={c: {"ndv": 1000, "fpp": 0.01} for c in columns})


def duckdb_bloom(dst):
    """A DuckDB-written file whose dictionary-encoded columns carry DuckDB's Bloom filters:
    i BIGINT, s VARCHAR, b BLOB, d DOUBLE; 3000 rows in two row groups."""
    import duckdb

    con = duckdb.connect()
    con.execute("SET threads = 1")
    con.execute(
        "COPY (SELECT (i %% 97) * 1000003 AS i, 'v' || (i %% 89) || 'é' AS s, "
        "('\\x00\\xff' || (i %% 83))::BLOB AS b, (i %% 79) / 7.0 AS d FROM range(3000) r(i)) "
        "TO '%s' (FORMAT parquet, ROW_GROUP_SIZE 2048, WRITE_BLOOM_FILTER true)"
        % dst.replace("'", "''"))


if __name__ == "__main__":
    # duckcheck.py bloom FILE COL[,COL...]: prints bloom_probe's result, one JSON line per column
    # duckcheck.py pyarrow-bloom SRC DST COL[,COL...]: see pyarrow_bloom
    # duckcheck.py duckdb-bloom DST: see duckdb_bloom
    args = sys.argv[1:]
    if len(args) == 3 and args[0] == "bloom":
        for r in bloom_probe(args[1], args[2].split(",")):
            print(json.dumps(r))
    elif len(args) == 4 and args[0] == "pyarrow-bloom":
        pyarrow_bloom(args[1], args[2], args[3].split(","))
    elif len(args) == 2 and args[0] == "duckdb-bloom":
        duckdb_bloom(args[1])
    else:
        print("usage: duckcheck.py bloom FILE COLS | pyarrow-bloom SRC DST COLS | "
              "duckdb-bloom DST", file=sys.stderr)
        sys.exit(2)
