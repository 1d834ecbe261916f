"""VARIANT against Spark, both ways, for sparkgen.py (the same Spark session, one call per seed).

Spark -> parket: random Variant values (nested objects and arrays; every primitive Spark can
put in a Variant: int8..int64, float, double, decimal4/8/16, date, timestamp with and without
time zone, binary, string, boolean, null; plus `parse_json` of random JSON text, which gives
Spark's own choice of ints, decimals and doubles) are built in Spark SQL and written three
ways: unshredded (`spark.sql.variant.writeShredding.enabled=false`) and shredded into a
forced schema (`writeShredding.enabled=true` + `spark.sql.variant.forceShreddingSchemaForTest`,
a per-seed object template that most rows follow; `inferShreddingSchema=true`, the default,
inferred no shredding for these tables in Spark 4.3). Spark annotates the column
`VARIANT(1)` (`spark.sql.parquet.variant.annotateLogicalType.enabled`, on by default); the
check insists on it. `parket cat --json` of the unshredded file must print the contract's JSON
(json-mapping.md, VARIANT) of the generated values exactly; of the shredded one the same up to
the Exact Numeric equivalence (Spark stores int 1 shredded into DECIMAL(18,4) as 1.0000). Spark's
`to_json` of each file is checked against the same values semantically (its formatting
differs: `1.0E300`, `2024-01-02 03:04:05+00:00`, decimals without trailing zeros), which
checks that this generator knows what Spark stored.

parket -> Spark: random JSON values written by `parket write` unshredded and shredded (a
schema with `typed_value` fields from the same template); Spark's `to_json` of each must mean
the JSON as the contract encodes it (integers as integers, other numbers as doubles, big
integers as decimals). pyarrow reads the unshredded file: it must see the VARIANT annotation
and give the `metadata` / `value` bytes of each row that Spark reads (pyarrow 26 has no
Variant decoder).

Spark 4.x has no TIME, UUID or nanosecond timestamps in a Variant (casting a TIME to
VARIANT fails in 4.3, `uuid()` is a string), so those are not generated here.
"""

import base64
import datetime as dt
import decimal
import json
import math
import os
import re
import shutil
import struct
import subprocess
from decimal import Decimal

import jsonrows

decimal.getcontext().prec = 100  # exact for DECIMAL(38) and scaleb

KEYS = ["a", "b", "c", "id", "name", "x", "_y", "ünï", "k 1", "Z", "zz", "日本"]
INTS = {"tinyint": 8, "smallint": 16, "int": 32, "bigint": 64}
DECIMALS = [(9, 2), (18, 4), (38, 10), (1, 0), (5, 0), (38, 0), (18, 18)]
MIN_MICROS = -62135596800 * 10**6  # 0001-01-01
MAX_MICROS = 253402300799999999  # 9999-12-31T23:59:59.999999
PRIMS = ["null", "boolean", "tinyint", "smallint", "int", "bigint", "float", "double",
         "decimal", "date", "timestamp", "timestamp_ntz", "binary", "string"]


def b64(b):
    return base64.b64encode(bytes(b)).decode()


def sql_str(s):
    """A SQL expression for the string `s`, whatever it holds."""
    return "cast(unbase64('%s') as string)" % b64(s.encode())


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


# ---------------------------------------------------------------------------------------------
# Typed values: ("kind", payload) leaves, dicts, lists
# ---------------------------------------------------------------------------------------------

def gen_prim(rng, kind):
    if kind == "null":
        return ("null", None)
    if kind == "boolean":
        return ("boolean", rng.random() < 0.5)
    if kind in INTS:
        bits = INTS[kind]
        lo, hi = -2 ** (bits - 1), 2 ** (bits - 1) - 1
        return (kind, rng.choice([lo, hi, 0, -1, rng.randint(-100, 100), rng.randint(lo, hi)]))
    if kind in ("float", "double"):
        x = rng.choice([float("nan"), float("inf"), float("-inf"), -0.0, 0.0, 1.5, -2.25,
                        0.1, 5e-324, 1e-45, 3.4028234663852886e38, 1.7976931348623157e308,
                        rng.uniform(-1e6, 1e6), rng.uniform(-1, 1) * 10 ** rng.randint(-30, 30)])
        if kind == "float":
            x = f32(x) if not abs(x) > 3.4028234663852886e38 else math.copysign(math.inf, x)
        return (kind, x)
    if kind == "decimal":
        p, s = rng.choice(DECIMALS)
        u = rng.choice([10 ** p - 1, -(10 ** p - 1), 0, 1, -1,
                        rng.randint(-10 ** p + 1, 10 ** p - 1)])
        return ("decimal", (u, p, s))
    if kind == "date":
        return ("date", rng.choice([-719162, 2932896, 0, -141427,
                                    rng.randint(-719162, 2932896), rng.randint(-30000, 30000)]))
    if kind in ("timestamp", "timestamp_ntz"):
        return (kind, rng.choice([0, -1, 1, MIN_MICROS, MAX_MICROS,
                                  rng.randint(MIN_MICROS, MAX_MICROS),
                                  rng.randint(-10**12, 10**12),
                                  rng.randint(MIN_MICROS, MAX_MICROS) // 10**6 * 10**6]))
    if kind == "binary":
        return ("binary", bytes(rng.getrandbits(8) for _ in range(rng.choice([0, 1, 5, 40]))))
    if kind == "string":
        return ("string", rng.choice(["", "a", "hello", "ünïcödé ✓", "\u0000\u001f\"\\/\n'",
                                      "😀 non-BMP", "x" * rng.randint(60, 300), "same"]))
    raise AssertionError(kind)


def gen_json_text(rng, depth):
    """(JSON text, typed value as Spark's parse_json stores it): integers as the smallest int
    (beyond int64: decimal, scale 0), plain decimals as decimals with their scale, numbers with
    an exponent as doubles."""
    r = rng.random()
    if depth < 3 and r < 0.15:
        items = [gen_json_text(rng, depth + 1) for _ in range(rng.choice([0, 1, 2, 4]))]
        return "[" + ",".join(t for t, _ in items) + "]", [v for _, v in items]
    if depth < 3 and r < 0.3:
        keys = rng.sample(KEYS, rng.choice([0, 1, 2, 3]))
        items = [(k, gen_json_text(rng, depth + 1)) for k in keys]
        text = "{" + ",".join(json.dumps(k) + ":" + t for k, (t, _) in items) + "}"
        return text, {k: v for k, (_, v) in items}
    r = rng.random()
    if r < 0.3:
        n = rng.choice([0, -1, 127, -128, 128, 32767, -32769, 2**31, -2**63, 2**63 - 1,
                        rng.randint(-10**6, 10**6)])
        return str(n), ("bigint", n)
    if r < 0.38:
        n = rng.choice([2**63, -2**63 - 1, 10**38 - 1, -(10**38 - 1),
                        rng.randint(10**19, 10**30)])
        return str(n), ("decimal", (n, 38, 0))
    if r < 0.55:
        s = rng.choice([1, 2, 4, 9])
        u = rng.randint(-10**12, 10**12)
        text = jsonrows.fmt_decimal(u, s)
        if rng.random() < 0.1:
            text, u = "-0." + "0" * s, 0
        return text, ("decimal", (u, 38, s))
    if r < 0.65:
        x = rng.choice([1.5e300, -2.5e-300, 1e100, 6.02214076e23 * 10 ** rng.randint(20, 200)])
        return repr(x).replace("e+", "e"), ("double", x)
    if r < 0.75:
        text = rng.choice(["true", "false", "null"])
        return text, ("null", None) if text == "null" else ("boolean", text == "true")
    s = rng.choice(["", "plain", "ünïcödé ✓", "\"q\" \\ /\n\t", "😀", "y" * 100])
    return json.dumps(s), ("string", s)


def gen_value(rng, depth=0):
    """A random typed value and a Spark SQL expression that builds it as a VARIANT."""
    r = rng.random()
    if r < 0.12:
        text, v = gen_json_text(rng, depth)
        return v, "parse_json(%s)" % sql_str(text)
    if depth < 3 and r < 0.27:
        keys = rng.sample(KEYS, rng.choice([0, 1, 2, 3, 5]))
        fields = [(k, gen_value(rng, depth + 1)) for k in keys]
        return {k: v for k, (v, _) in fields}, obj_sql([(k, s) for k, (_, s) in fields])
    if depth < 3 and r < 0.4:
        items = [gen_value(rng, depth + 1) for _ in range(rng.choice([0, 1, 2, 3, 6]))]
        return [v for v, _ in items], arr_sql([s for _, s in items])
    v = gen_prim(rng, rng.choice(PRIMS))
    return v, prim_sql(v)


def obj_sql(fields):
    if not fields:
        return "parse_json('{}')"
    return "to_variant_object(named_struct(%s))" % ", ".join(
        "%s, %s" % (sql_str(k), s) for k, s in fields)


def arr_sql(items):
    if not items:
        return "parse_json('[]')"
    return "to_variant_object(array(%s))" % ", ".join(items)


def prim_sql(v):
    kind, x = v
    if kind == "null":
        return "parse_json('null')"
    if kind == "boolean":
        return "cast(%s as variant)" % ("true" if x else "false")
    if kind in INTS:
        return "cast(cast('%d' as %s) as variant)" % (x, kind)
    if kind in ("float", "double"):
        text = "NaN" if x != x else "Infinity" if x == math.inf else "-Infinity" \
            if x == -math.inf else repr(x)
        return "cast(cast('%s' as %s) as variant)" % (text, kind)
    if kind == "decimal":
        u, p, s = x
        return "cast(cast('%s' as decimal(%d,%d)) as variant)" % (jsonrows.fmt_decimal(u, s), p, s)
    if kind == "date":
        return "cast(date_from_unix_date(%d) as variant)" % x
    if kind == "timestamp":
        return "cast(timestamp_micros(%d) as variant)" % x
    if kind == "timestamp_ntz":
        return "cast(cast(timestamp_micros(%d) as timestamp_ntz) as variant)" % x
    if kind == "binary":
        return "cast(unhex('%s') as variant)" % x.hex()
    if kind == "string":
        return "cast(%s as variant)" % sql_str(x)
    raise AssertionError(kind)


def contract(v):
    """The contract's JSON (json-mapping.md, VARIANT) of typed value `v`."""
    if isinstance(v, dict):
        return {k: contract(v[k]) for k in sorted(v, key=lambda k: k.encode())}
    if isinstance(v, list):
        return [contract(x) for x in v]
    kind, x = v
    if kind in ("null", "boolean", "string") or kind in INTS:
        return x
    if kind == "float":
        return jsonrows.f32_value(x)
    if kind == "double":
        return jsonrows.f64_value(x)
    if kind == "decimal":
        u, _, s = x
        return u if s == 0 else jsonrows.fmt_decimal(u, s)
    if kind == "date":
        return jsonrows.fmt_date(x)
    if kind == "timestamp":
        return jsonrows.fmt_timestamp(x, "MICROS", True)
    if kind == "timestamp_ntz":
        return jsonrows.fmt_timestamp(x, "MICROS", False)
    if kind == "binary":
        return b64(x)
    raise AssertionError(kind)


SPARK_TS = re.compile(r"^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(\.\d{1,6})?(\+00:00)?$")


def spark_means(v, j, where="$"):
    """None if Spark's to_json value `j` (parsed with Decimal numbers) means typed value `v`,
    else what differs."""
    bad = "%s: expected %r, Spark says %r" % (where, v if not isinstance(v, (dict, list))
                                             else type(v).__name__, j)
    if isinstance(v, dict):
        if not isinstance(j, dict) or set(j) != set(v):
            return bad
        for k in v:
            e = spark_means(v[k], j[k], where + "." + k)
            if e:
                return e
        return None
    if isinstance(v, list):
        if not isinstance(j, list) or len(j) != len(v):
            return bad
        for i, (a, b) in enumerate(zip(v, j)):
            e = spark_means(a, b, "%s[%d]" % (where, i))
            if e:
                return e
        return None
    kind, x = v
    if kind in ("null", "boolean", "string"):
        ok = j == x and type(j) is type(x)
    elif kind in INTS:
        ok = isinstance(j, Decimal) and j == x
    elif kind in ("float", "double"):
        if x != x or x in (math.inf, -math.inf):
            ok = j == jsonrows.float_special(x)
        else:
            y = float(j) if isinstance(j, Decimal) else None
            if y is not None and kind == "float":
                y = f32(y)
            ok = y == x and math.copysign(1, y) == math.copysign(1, x)
    elif kind == "decimal":
        u, _, s = x
        ok = isinstance(j, Decimal) and j == Decimal(u).scaleb(-s)
    elif kind == "date":
        ok = j == jsonrows.fmt_date(x)
    elif kind in ("timestamp", "timestamp_ntz"):
        m = SPARK_TS.match(j) if isinstance(j, str) else None
        ok = bool(m) and (m.group(8) is not None) == (kind == "timestamp")
        if ok:
            y, mo, d, h, mi, s = (int(g) for g in m.groups()[:6])
            days = (dt.date(y, mo, d) - dt.date(1970, 1, 1)).days
            frac = int((m.group(7) or ".")[1:].ljust(6, "0") or 0)
            ok = ((days * 86400 + h * 3600 + mi * 60 + s) * 10**6 + frac) == x
    elif kind == "binary":
        ok = j == b64(x)
    else:
        raise AssertionError(kind)
    return None if ok else bad


# ---------------------------------------------------------------------------------------------
# Shredding templates: most rows are objects of one shape, so that shredding has work to do
# ---------------------------------------------------------------------------------------------

def gen_template(rng, depth=0):
    r = rng.random()
    if depth < 2 and r < 0.15:
        return ("array", gen_template(rng, depth + 1))
    if depth < 2 and r < 0.3:
        return ("struct", [(k, gen_template(rng, depth + 1))
                           for k in rng.sample(KEYS, rng.randint(1, 3))])
    return ("prim", rng.choice([p for p in PRIMS if p != "null"]))


def follow(rng, t, depth=0):
    """(typed value, SQL) mostly of template `t`."""
    if rng.random() < 0.15:
        return gen_value(rng, depth + 1)
    if t[0] == "array":
        items = [follow(rng, t[1], depth + 1) for _ in range(rng.choice([0, 1, 3]))]
        return [v for v, _ in items], arr_sql([s for _, s in items])
    if t[0] == "struct":
        fields = [(k, follow(rng, ft, depth + 1)) for k, ft in t[1] if rng.random() < 0.85]
        extra = [k for k in rng.sample(KEYS, 2) if k not in dict(t[1])]
        if rng.random() < 0.3 and extra:
            fields.append((extra[0], gen_value(rng, depth + 1)))
        fields.sort(key=lambda f: f[0])
        return {k: v for k, (v, _) in fields}, obj_sql([(k, s) for k, (_, s) in fields])
    v = gen_prim(rng, t[1])
    return v, prim_sql(v)


def ddl(t):
    """Spark DDL of a template (the shredding schema)."""
    if t[0] == "array":
        return "array<%s>" % ddl(t[1])
    if t[0] == "struct":
        return "struct<%s>" % ", ".join("`%s`: %s" % (k, ddl(ft)) for k, ft in t[1])
    return {"decimal": "decimal(18,4)"}.get(t[1], t[1])


PARKET_PRIM = {
    "boolean": ("boolean", ""), "tinyint": ("int32", "INT(8, true)"),
    "smallint": ("int32", "INT(16, true)"), "int": ("int32", ""), "bigint": ("int64", ""),
    "float": ("float", ""), "double": ("double", ""), "decimal": ("int64", "DECIMAL(18, 4)"),
    "date": ("int32", "DATE"), "timestamp": ("int64", "TIMESTAMP(MICROS, true)"),
    "timestamp_ntz": ("int64", "TIMESTAMP(MICROS, false)"), "binary": ("binary", ""),
    "string": ("binary", "STRING"),
}


def parket_typed(t):
    """parket schema text of the `typed_value` field for template `t`."""
    if t[0] == "array":
        return "optional group typed_value (LIST) { repeated group list { %s } }" % \
            parket_slots(t[1], "element")
    if t[0] == "struct":
        return "optional group typed_value { %s }" % " ".join(
            parket_slots(ft, k) for k, ft in t[1])
    physical, annotation = PARKET_PRIM[t[1]]
    return "optional %s typed_value%s;" % (physical, " (%s)" % annotation if annotation else "")


def parket_slots(t, name):
    """parket schema text of a shredded field (or element) group `name` of template `t`."""
    return 'required group "%s" { optional binary value; %s }' % (name, parket_typed(t))


# ---------------------------------------------------------------------------------------------
# JSON for parket write, typed as the contract encodes it
# ---------------------------------------------------------------------------------------------

def as_parket_writes(v):
    """The typed value that `parket write` makes of the JSON text Spark's parse_json read as
    `v`: integers beyond int64 decimal16 (scale 0), every other non-integer number a double."""
    if isinstance(v, dict):
        return {k: as_parket_writes(x) for k, x in v.items()}
    if isinstance(v, list):
        return [as_parket_writes(x) for x in v]
    kind, x = v
    if kind == "decimal" and x[2] > 0:
        return ("double", float(Decimal(x[0]).scaleb(-x[2])))
    return v


def json_of(v):
    """JSON text input for `parket write` of a JSON-only typed value."""
    if isinstance(v, dict):
        return {k: json_of(x) for k, x in v.items()}
    if isinstance(v, list):
        return [json_of(x) for x in v]
    kind, x = v
    if kind == "decimal":
        return Decimal(x[0]).scaleb(-x[2])
    if kind == "double":
        return float(x)
    return x


def _encode(o):
    if isinstance(o, dict):
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + _encode(v)
                              for k, v in o.items()) + "}"
    if isinstance(o, list):
        return "[" + ",".join(_encode(v) for v in o) + "]"
    if isinstance(o, Decimal):
        return str(o) if o == o.to_integral_value() and o.as_tuple().exponent >= 0 \
            else format(o, "f")
    if isinstance(o, float):
        return repr(o)
    return json.dumps(o, ensure_ascii=False)


# ---------------------------------------------------------------------------------------------
# One seed
# ---------------------------------------------------------------------------------------------

def spark_json_rows(spark, path):
    rows = spark.read.parquet(path).selectExpr("id", "to_json(v) AS j").orderBy("id").collect()
    return [NULL_ROW if r.j is None else json.loads(r.j, parse_float=Decimal, parse_int=Decimal)
            for r in rows]


NULL_ROW = "(SQL NULL)"


def single_file(d, dst):
    parts = [p for p in os.listdir(d) if p.endswith(".parquet")]
    assert len(parts) == 1, parts
    os.rename(os.path.join(d, parts[0]), dst)
    shutil.rmtree(d)


def check_spark_reading(spark, path, values, what):
    got = spark_json_rows(spark, path)
    if len(got) != len(values):
        return "%s: Spark reads %d rows, %d written" % (what, len(got), len(values))
    for i, (v, j) in enumerate(zip(values, got)):
        if v is None:
            e = None if j is NULL_ROW else "expected SQL NULL, Spark says %r" % j
        else:
            e = spark_means(v, j)
        if e:
            return "%s: row %d: %s" % (what, i, e)
    return None


def parket_cat(parket, path):
    c = subprocess.run([parket, "cat", "--json", path], capture_output=True, text=True)
    if c.returncode != 0:
        return None, c.stderr.strip()
    return c.stdout.splitlines(), None


def run(spark, parket, rng, out):
    """Returns (error or None, tags)."""
    tags = []
    n = rng.choice([40, 80])
    template = ("struct", [(k, gen_template(rng, 1)) for k in rng.sample(KEYS, rng.randint(2, 4))])
    values, exprs = [], []
    for i in range(n):
        r = rng.random()
        if r < 0.05:
            v, s = None, "cast(NULL AS variant)"
        elif r < 0.7:
            v, s = follow(rng, template)
        else:
            v, s = gen_value(rng)
        values.append(v)
        exprs.append("(%d, %s)" % (i, s))
    df = spark.sql("SELECT * FROM VALUES %s AS t(id, v)" % ", ".join(exprs)).coalesce(1)
    expected = [jsonrows.dumps_row({"id": i, "v": None if v is None else contract(v)})
                for i, v in enumerate(values)]

    shredding = ", ".join("`%s` %s" % (k, ddl(ft)) for k, ft in template[1])
    configs = [
        ("unshredded", {"spark.sql.variant.writeShredding.enabled": "false"}),
        ("forced", {"spark.sql.variant.writeShredding.enabled": "true",
                    "spark.sql.variant.forceShreddingSchemaForTest": shredding}),
    ]
    for name, conf in configs:
        for k, v in conf.items():
            spark.conf.set(k, v)
        path = os.path.join(out, "variant-spark-%s.parquet" % name)
        df.write.mode("overwrite").parquet(path + ".dir")
        single_file(path + ".dir", path)
        for k in conf:
            spark.conf.unset(k)
        schema = subprocess.run([parket, "schema", path], capture_output=True, text=True).stdout
        if "(VARIANT(1))" not in schema:
            return "Spark's %s VARIANT column is not annotated VARIANT: %s" % (name, schema), tags
        if ("typed_value" in schema) != (name == "forced"):
            return "Spark's %s file has this schema: %s" % (name, schema), tags
        tags.append("spark-" + name)
        e = check_spark_reading(spark, path, values, "Spark's %s file" % name)
        if e:
            return e, tags
        got, err = parket_cat(parket, path)
        if err:
            return "parket cat %s: %s" % (path, err), tags
        if name == "unshredded" and got != expected:
            return "parket reads Spark's %s file differently: %s" % (
                name, first_difference(expected, got)), tags
        if len(got) != len(values):
            return "parket reads %d rows of Spark's %s file, %d written" % (
                len(got), name, len(values)), tags
        for i, (v, line) in enumerate(zip(values, got)):
            j = json.loads(line)["v"]
            if not (j is None if v is None else same_value(v, j)):
                return "parket reads row %d of Spark's %s file as %s, expected %s" % (
                    i, name, line[:400], expected[i][:400]), tags

    # parket -> Spark (and pyarrow): JSON values from the JSON generator and the template.
    jvalues = []
    for i in range(n):
        if rng.random() < 0.05:
            jvalues.append(None)
            continue
        _, v = gen_json_text(rng, 0) if rng.random() < 0.4 else (None, json_follow(rng, template))
        # A JSON null for an optional VARIANT column is a null group (SQL NULL in Spark).
        jvalues.append(None if v == ("null", None) else v)
    inp = os.path.join(out, "variant-in.jsonl")
    with open(inp, "w", encoding="utf-8") as o:
        for i, v in enumerate(jvalues):
            o.write(_encode({"id": i, "v": None if v is None else json_of(v)}) + "\n")
    written = [None if v is None else as_parket_writes(v) for v in jvalues]
    schemas = {
        "unshredded": "message m { required int64 id; optional group v (VARIANT(1)) { "
                      "required binary metadata; optional binary value; } }",
        "shredded": "message m { required int64 id; optional group v (VARIANT(1)) { "
                    "required binary metadata; optional binary value; %s } }"
                    % parket_typed(template),
    }
    for name, schema in schemas.items():
        path = os.path.join(out, "variant-parket-%s.parquet" % name)
        w = subprocess.run([parket, "write", "--schema", schema, "--input", inp, "--output", path],
                           capture_output=True, text=True)
        if w.returncode != 0:
            return "parket write (%s) %s: %s" % (name, schema, w.stderr.strip()), tags
        e = check_spark_reading(spark, path, written, "parket's %s file" % name)
        if e:
            return e, tags
        if name == "unshredded":
            e = check_pyarrow(spark, path)
            if e:
                return e, tags
        tags.append("parket-" + name)
    return None, tags


def from_tag(t):
    """A typed value from its tagged JSON form, as tests/interop_spark.rs writes it:
    `{"t": kind, "v": payload}`, `{"o": [[name, tag], ...]}`, `{"a": [tag, ...]}`."""
    if "o" in t:
        return {k: from_tag(v) for k, v in t["o"]}
    if "a" in t:
        return [from_tag(v) for v in t["a"]]
    kind, x = t["t"], t["v"]
    if kind == "float":
        return ("float", struct.unpack("<f", struct.pack("<I", x))[0])
    if kind == "double":
        return ("double", struct.unpack("<d", struct.pack("<Q", x))[0])
    if kind.startswith("decimal"):
        return ("decimal", (int(x[0]), x[1], x[2]))
    if kind == "binary":
        return ("binary", bytes.fromhex(x))
    return (kind, x)


def check_typed(spark, parket, d):
    """parket's files of every primitive (written by its library, unshredded and shredded),
    as Spark reads them; pyarrow's bytes of the unshredded one as pyspark decodes them; and
    parket's own reading (exactly the contract's JSON)."""
    values = []
    with open(os.path.join(d, "variant-typed.jsonl"), encoding="utf-8") as f:
        for line in f:
            t = json.loads(line)["v"]
            values.append(None if t is None else from_tag(t))
    expected = [jsonrows.dumps_row({"id": i, "v": None if v is None else contract(v)})
                for i, v in enumerate(values)]
    for name in ("unshredded", "shredded"):
        path = os.path.join(d, "variant-typed-%s.parquet" % name)
        got, err = parket_cat(parket, path)
        if err or got != expected:
            return "parket reads its own %s: %s" % (path, err or first_difference(expected, got))
        e = check_spark_reading(spark, path, values, "parket's %s" % path)
        if e:
            return e
        if name == "unshredded":
            e = check_pyarrow(spark, path)
            if e:
                return e
    return None


def json_follow(rng, t):
    """A JSON-only typed value mostly of template `t` (as parse_json would store its text)."""
    if rng.random() < 0.15:
        return gen_json_text(rng, 1)[1]
    if t[0] == "array":
        return [json_follow(rng, t[1]) for _ in range(rng.choice([0, 1, 3]))]
    if t[0] == "struct":
        return {k: json_follow(rng, ft) for k, ft in t[1] if rng.random() < 0.85}
    kind = t[1]
    if kind in INTS or kind in ("boolean", "string"):
        return gen_prim(rng, kind)
    if kind in ("float", "double"):
        x = rng.choice([1.5, -2.25, 0.1, 1e300, rng.uniform(-1e6, 1e6)])
        return ("double", x)
    return gen_json_text(rng, 2)[1]


def check_pyarrow(spark, path):
    """pyarrow reads parket's unshredded file: it sees the VARIANT annotation, and gives for
    each row the very `metadata` / `value` bytes that Spark reads (whose meaning
    check_spark_reading has checked). pyarrow 26 exposes a VARIANT as the struct of the two
    binaries; it has no Variant decoder."""
    import pyarrow.parquet as pq
    col = pq.read_table(path).column("v").combine_chunks()
    storage = getattr(col, "storage", col)
    got = [(bytes(m), bytes(v)) if ok else None for ok, m, v in zip(
        col.is_valid().to_pylist(), storage.field("metadata").to_pylist(),
        storage.field("value").to_pylist())]
    rows = spark.read.parquet(path).orderBy("id").collect()
    want = [None if r.v is None else (bytes(r.v.metadata), bytes(r.v.value)) for r in rows]
    for i, (g, w) in enumerate(zip(got, want)):
        if g != w:
            return "row %d of %s: pyarrow reads the bytes %r, Spark %r" % (i, path, g, w)
    if len(got) != len(want):
        return "pyarrow reads %d rows of %s, Spark %d" % (len(got), path, len(want))
    if "v (Variant(1))" not in str(pq.ParquetFile(path).schema):
        return "pyarrow does not see the VARIANT annotation in %s: %s" % (
            path, pq.ParquetFile(path).schema)
    return None


def same_value(v, j):
    """Whether parket's JSON `j` is the contract's JSON of typed value `v`, up to the Exact
    Numeric equivalence of VariantEncoding.md: a shredding writer may store int8 1 as a
    DECIMAL(18,4) 1.0000 (the spec: "an int8 value of 1 should behave the same as a decimal16
    with scale 2 and unscaled value 100"), which the contract prints as "1.0000"."""
    if isinstance(v, dict):
        return isinstance(j, dict) and list(j) == list(contract(v)) and all(
            same_value(v[k], j[k]) for k in v)
    if isinstance(v, list):
        return isinstance(j, list) and len(j) == len(v) and all(
            same_value(a, b) for a, b in zip(v, j))
    kind, x = v
    if (kind in INTS or kind == "decimal") and not isinstance(j, bool) \
            and isinstance(j, (int, str)):
        want = Decimal(x) if kind in INTS else Decimal(x[0]).scaleb(-x[2])
        try:
            return Decimal(j) == want
        except decimal.InvalidOperation:
            return False
    return jsonrows.dumps_row(contract(v)) == jsonrows.dumps_row(j)


def first_difference(want, got):
    if len(want) != len(got):
        return "%d rows expected, %d read" % (len(want), len(got))
    for i, (a, b) in enumerate(zip(want, got)):
        if a != b:
            return "row %d: expected %s, read %s" % (i, a[:400], b[:400])
    return "no difference"
