"""Differential tests against Spark (parquet-java as the writer and as a reader), for
tests/interop_spark.rs. One Spark session for all seeds (its start-up is most of the time).

python3 sparkgen.py --parket BIN --start A --end B --out DIR

For each seed, into DIR/<seed>/:

1. A random table of Spark's types (integers of every width, float/double with NaN, +-inf,
   -0.0 and subnormals, strings, binary, decimals stored as INT32 / INT64 / FLBA, dates,
   timestamps as INT96 / TIMESTAMP_MICROS / TIMESTAMP_MILLIS, timestamp_ntz, arrays, maps,
   structs, nested, with nulls at every level) written by Spark with random writer options
   (`parquet.writer.version` v1 / v2, codec, dictionary, tiny pages, statistics off, the legacy
   list/decimal format) -> `spark.parquet`.
2. `rows.jsonl`: Spark's reading of that file as canonical JSON lines
   (/work/shared/json-mapping.md). The Rust side compares `parket cat --json spark.parquet`
   with it. pyarrow's reading (jsonrows.py) must agree with Spark's: that checks this
   converter.
3. `parket write --schema @schema.txt --input rows.jsonl --output parket.parquet` (schema
   from `parket schema spark.parquet`, random parket options); Spark reads `parket.parquet`
   and must give the same lines.

4. VARIANT both ways, shredded and not (sparkvariant.py): `variant-*.parquet`.

Prints one line per seed: "<seed> ok [num_nulls=-1] [pyarrow-cannot-read(...)] variant=TAGS"
(the first tag when a DATA_PAGE_V2 header of spark.parquet says num_nulls = -1, which
parquet-java 1.17 writes for a column whose statistics are off; TAGS the VARIANT files that
were checked) or "<seed> FAIL <message>".

Seed 0 is always V2 pages with statistics off (so that case is always exercised), seed 1 the
legacy format (`spark.sql.parquet.writeLegacyFormat`: 3-level lists named `bag` / `array`,
decimals as FLBA).
"""
import argparse
import base64
import datetime as dt
import json
import os
import random
import shutil
import subprocess
import sys
import time
import decimal
from decimal import Decimal

decimal.getcontext().prec = 100  # exact for DECIMAL(38) and scaleb
os.environ["TZ"] = "UTC"
time.tzset()
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import jsonrows  # noqa: E402
import sparkvariant  # noqa: E402
from sparkvariant import first_difference  # noqa: E402

EPOCH = dt.datetime(1970, 1, 1)
EPOCH_DAY = dt.date(1970, 1, 1)


# ---------------------------------------------------------------------------------------------
# Spark's values -> the JSON contract
# ---------------------------------------------------------------------------------------------

def to_json(v, t, ts_unit):
    """The contract's JSON value of Spark value `v` of Spark type `t`, maps given as lists of
    (key, value) rows (see `entries_expr`). `ts_unit`: how TimestampType is stored
    ("INT96", "TIMESTAMP_MICROS", "TIMESTAMP_MILLIS")."""
    from pyspark.sql import types as T
    if v is None:
        return None
    if isinstance(t, (T.ByteType, T.ShortType, T.IntegerType, T.LongType, T.BooleanType)):
        return v
    if isinstance(t, T.FloatType):
        return jsonrows.f32_value(v)
    if isinstance(t, T.DoubleType):
        return jsonrows.f64_value(v)
    if isinstance(t, T.StringType):
        return v
    if isinstance(t, T.BinaryType):
        return base64.b64encode(bytes(v)).decode()
    if isinstance(t, T.DecimalType):
        return jsonrows.fmt_decimal(int(v.scaleb(t.scale)), t.scale)
    if isinstance(t, T.DateType):
        return jsonrows.fmt_date((v - EPOCH_DAY).days)
    if isinstance(t, (T.TimestampType, T.TimestampNTZType)):
        micros = (v - EPOCH) // dt.timedelta(microseconds=1)
        if isinstance(t, T.TimestampNTZType):
            return jsonrows.fmt_timestamp(micros, "MICROS", False)
        if ts_unit == "INT96":
            return jsonrows.fmt_timestamp(micros * 1000, "NANOS", False)
        if ts_unit == "TIMESTAMP_MILLIS":
            return jsonrows.fmt_timestamp(micros // 1000, "MILLIS", True)
        return jsonrows.fmt_timestamp(micros, "MICROS", True)
    if isinstance(t, T.ArrayType):
        return [to_json(x, t.elementType, ts_unit) for x in v]
    if isinstance(t, T.MapType):
        return [{"key": to_json(e[0], t.keyType, ts_unit),
                 "value": to_json(e[1], t.valueType, ts_unit)} for e in v]
    if isinstance(t, T.StructType):
        return {f.name: to_json(v[i], f.dataType, ts_unit) for i, f in enumerate(t.fields)}
    raise AssertionError("no JSON form for %r" % t)


def entries_expr(e, t, depth=0):
    """A SQL expression for `e` of type `t` with every map turned into its entries, in file
    order (collect() turns a map into a Java HashMap, which loses the order)."""
    from pyspark.sql import types as T
    x = "x%d" % depth
    if isinstance(t, T.MapType):
        k = entries_expr(x + ".key", t.keyType, depth + 1)
        v = entries_expr(x + ".value", t.valueType, depth + 1)
        return "transform(map_entries(%s), %s -> struct(%s, %s))" % (e, x, k, v)
    if isinstance(t, T.ArrayType) and has_map(t):
        return "transform(%s, %s -> %s)" % (e, x, entries_expr(x, t.elementType, depth + 1))
    if isinstance(t, T.StructType) and has_map(t):
        parts = ", ".join("%s AS `%s`" % (entries_expr("%s.`%s`" % (e, f.name), f.dataType,
                                                       depth + 1), f.name) for f in t.fields)
        return "if(%s IS NULL, NULL, struct(%s))" % (e, parts)
    return e


def has_map(t):
    from pyspark.sql import types as T
    if isinstance(t, T.MapType):
        return True
    if isinstance(t, T.ArrayType):
        return has_map(t.elementType)
    if isinstance(t, T.StructType):
        return any(has_map(f.dataType) for f in t.fields)
    return False


def spark_lines(spark, path, schema, ts_unit):
    df = spark.read.schema(schema).parquet(path)
    exprs = ["%s AS `%s`" % (entries_expr("`%s`" % f.name, f.dataType), f.name)
             for f in schema.fields]
    rows = df.selectExpr(*exprs).collect()
    return [jsonrows.dumps_row(to_json(r, schema, ts_unit)) for r in rows]


# ---------------------------------------------------------------------------------------------
# Random tables
# ---------------------------------------------------------------------------------------------

def f32(x):
    return jsonrows._f32_from_bits(jsonrows._f32_bits(x))


def gen_value(rng, t, nulls, ts_unit):
    from pyspark.sql import types as T
    if isinstance(t, T.ByteType):
        return rng.choice([-128, 127, 0, -1, rng.randint(-128, 127)])
    if isinstance(t, T.ShortType):
        return rng.choice([-32768, 32767, 0, rng.randint(-32768, 32767)])
    if isinstance(t, T.IntegerType):
        return rng.choice([-2**31, 2**31 - 1, 0, rng.randint(-1000, 1000),
                           rng.randint(-2**31, 2**31 - 1)])
    if isinstance(t, T.LongType):
        return rng.choice([-2**63, 2**63 - 1, 0, rng.randint(-10**6, 10**6),
                           rng.randint(-2**63, 2**63 - 1)])
    if isinstance(t, T.BooleanType):
        return rng.random() < 0.5
    if isinstance(t, (T.FloatType, T.DoubleType)):
        x = rng.choice([float("nan"), float("inf"), float("-inf"), -0.0, 0.0, 1.5, -2.25,
                        5e-324, 1e-45, 3.4028234663852886e38, 1.7976931348623157e308,
                        rng.uniform(-1e6, 1e6), rng.uniform(-1, 1) * 10 ** rng.randint(-30, 30)])
        if isinstance(t, T.FloatType):
            if x == 1.7976931348623157e308:
                x = float("inf")
            x = f32(x)
        return x
    if isinstance(t, T.StringType):
        return rng.choice(["", "a", "hello", "ünïcödé ✓", "\u0000\u001f\"\\/\n", "😀 non-BMP",
                           "x" * rng.randint(0, 300), "same", "same", "same"])
    if isinstance(t, T.BinaryType):
        return bytearray(rng.getrandbits(8) for _ in range(rng.randint(0, 20)))
    if isinstance(t, T.DecimalType):
        p, s = t.precision, t.scale
        u = rng.choice([10 ** p - 1, -(10 ** p - 1), 0, 1, -1, rng.randint(-10 ** p + 1, 10 ** p - 1)])
        return Decimal(u).scaleb(-s)
    if isinstance(t, T.DateType):
        return rng.choice([dt.date(1, 1, 1), dt.date(9999, 12, 31), dt.date(1970, 1, 1),
                           dt.date(1582, 10, 15), EPOCH_DAY + dt.timedelta(days=rng.randint(-50000, 50000))])
    if isinstance(t, (T.TimestampType, T.TimestampNTZType)):
        micros = rng.choice([0, -1, 1, rng.randint(-2 * 10**15, 2 * 10**15),
                             rng.randint(-10**12, 10**12)])
        if ts_unit == "TIMESTAMP_MILLIS" and isinstance(t, T.TimestampType):
            micros -= micros % 1000
        return EPOCH + dt.timedelta(microseconds=micros)
    if isinstance(t, T.ArrayType):
        return [maybe_null(rng, t.elementType, t.containsNull, nulls, ts_unit)
                for _ in range(rng.choice([0, 1, 2, 3, 5]))]
    if isinstance(t, T.MapType):
        d = {}
        for _ in range(rng.choice([0, 1, 2, 4])):
            k = gen_value(rng, t.keyType, nulls, ts_unit)
            if isinstance(k, float) and k != k:
                continue
            d[k] = maybe_null(rng, t.valueType, t.valueContainsNull, nulls, ts_unit)
        return d
    if isinstance(t, T.StructType):
        return tuple(maybe_null(rng, f.dataType, f.nullable, nulls, ts_unit) for f in t.fields)
    raise AssertionError(t)


def maybe_null(rng, t, nullable, nulls, ts_unit):
    if nullable and rng.random() < nulls:
        return None
    return gen_value(rng, t, nulls, ts_unit)


def random_schema(rng):
    from pyspark.sql import types as T
    prims = [T.ByteType(), T.ShortType(), T.IntegerType(), T.LongType(), T.BooleanType(),
             T.FloatType(), T.DoubleType(), T.StringType(), T.BinaryType(),
             T.DecimalType(9, 2), T.DecimalType(18, 4), T.DecimalType(38, 10),
             T.DecimalType(1, 0), T.DateType(), T.TimestampType(), T.TimestampNTZType()]
    keys = [T.StringType(), T.IntegerType(), T.LongType(), T.DateType()]

    def nested(depth):
        r = rng.random()
        if depth >= 2 or r < 0.45:
            return rng.choice(prims)
        if r < 0.65:
            return T.ArrayType(nested(depth + 1), rng.random() < 0.7)
        if r < 0.8:
            return T.MapType(rng.choice(keys), nested(depth + 1), rng.random() < 0.7)
        return T.StructType([T.StructField("f%d" % i, nested(depth + 1), rng.random() < 0.7)
                             for i in range(rng.randint(1, 3))])

    fields = [T.StructField("id", T.LongType(), False)]
    # Every primitive once, then a few nested columns.
    for i, p in enumerate(prims):
        fields.append(T.StructField("p%d" % i, p, rng.random() < 0.8))
    for i in range(rng.randint(3, 6)):
        fields.append(T.StructField("n%d" % i, nested(0), rng.random() < 0.8))
    return T.StructType(fields)


def options(rng, seed):
    if seed == 0:
        return {"version": "v2", "codec": "snappy", "dictionary": True, "page_size": 1024,
                "statistics": False, "ts": "INT96", "legacy": False}
    if seed == 1:
        return {"version": "v1", "codec": "gzip", "dictionary": True, "page_size": 4096,
                "statistics": True, "ts": "TIMESTAMP_MILLIS", "legacy": True}
    return {
        "version": rng.choice(["v1", "v2"]),
        "codec": rng.choice(["uncompressed", "snappy", "gzip", "zstd", "lz4", "lz4_raw"]),
        "dictionary": rng.random() < 0.7,
        "page_size": rng.choice([512, 4096, 1 << 20]),
        "statistics": rng.random() < 0.6,
        "ts": rng.choice(["INT96", "TIMESTAMP_MICROS", "TIMESTAMP_MILLIS"]),
        "legacy": rng.random() < 0.3,
    }


# ---------------------------------------------------------------------------------------------
# One seed
# ---------------------------------------------------------------------------------------------

def run_seed(spark, parket, seed, out):
    from pyspark.sql import types as T
    rng = random.Random(seed)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    schema = random_schema(rng)
    opts = options(rng, seed)
    nulls = 0.3 if seed < 2 else rng.choice([0.0, 0.1, 0.3, 0.6])
    nrows = 150 if seed < 2 else rng.choice([1, 20, 150])
    rows = []
    for i in range(nrows):
        row = [i]
        for f in schema.fields[1:]:
            row.append(maybe_null(rng, f.dataType, f.nullable, nulls, opts["ts"]))
        rows.append(tuple(row))
    spark.conf.set("spark.sql.parquet.outputTimestampType", opts["ts"])
    spark.conf.set("spark.sql.parquet.writeLegacyFormat", str(opts["legacy"]).lower())
    df = spark.createDataFrame(rows, schema).coalesce(1)
    tmp = os.path.join(out, "spark.dir")
    (df.write.mode("overwrite")
       .option("compression", opts["codec"])
       .option("parquet.writer.version", opts["version"])
       .option("parquet.enable.dictionary", str(opts["dictionary"]).lower())
       .option("parquet.page.size", str(opts["page_size"]))
       .option("parquet.page.row.count.limit", str(rng.choice([7, 1000, 20000])))
       .option("parquet.column.statistics.enabled", str(opts["statistics"]).lower())
       .parquet(tmp))
    parts = [p for p in os.listdir(tmp) if p.endswith(".parquet")]
    assert len(parts) == 1, parts
    src = os.path.join(out, "spark.parquet")
    os.rename(os.path.join(tmp, parts[0]), src)
    shutil.rmtree(tmp)
    with open(os.path.join(out, "options.json"), "w") as o:
        json.dump({"seed": seed, "spark": opts, "rows": nrows, "nulls": nulls}, o)

    want = spark_lines(spark, src, schema, opts["ts"])
    with open(os.path.join(out, "rows.jsonl"), "w", encoding="utf-8") as o:
        o.write("".join(line + "\n" for line in want))
    # This converter checked against pyarrow's reading, where pyarrow can read the file.
    # Seen: the legacy format writes a list of non-null lists as `repeated group array (LIST)
    # { repeated int32 array; }` (LIST backward-compatibility rule 3), which pyarrow 26
    # refuses ("LIST-annotated groups must not be repeated"); Spark's reading stays the oracle.
    tags = ""
    try:
        got = list(jsonrows.file_lines(src))
    except Exception as e:  # noqa: BLE001
        got = None
        tags += " pyarrow-cannot-read(%s)" % str(e).split("\n")[0].replace(" ", "_")[:80]
    if got is not None and got != want:
        return "Spark and pyarrow disagree on spark.parquet: " + first_difference(want, got)

    if opts["version"] == "v2" and not opts["statistics"] and minus_one_nulls(parket, src):
        tags += " num_nulls=-1"

    # Reverse: parket writes the rows, Spark reads them.
    schema_txt = subprocess.run([parket, "schema", src], capture_output=True, text=True)
    if schema_txt.returncode != 0:
        return "parket schema: " + schema_txt.stderr.strip()
    with open(os.path.join(out, "schema.txt"), "w") as o:
        o.write(schema_txt.stdout)
    args = ["--page-version", rng.choice(["1", "2"]),
            "--codec", rng.choice(["snappy", "zstd", "gzip", "uncompressed", "lz4_raw"])]
    if rng.random() < 0.3:
        args += ["--dictionary", "off"]
    if rng.random() < 0.3:
        args += ["--page-rows", str(rng.choice([1, 5, 50]))]
    dst = os.path.join(out, "parket.parquet")
    w = subprocess.run([parket, "write", "--schema", "@" + os.path.join(out, "schema.txt"),
                        "--input", os.path.join(out, "rows.jsonl"), "--output", dst] + args,
                       capture_output=True, text=True)
    if w.returncode != 0:
        return "parket write %s: %s" % (" ".join(args), w.stderr.strip())
    back = spark_lines(spark, dst, schema, opts["ts"])
    if back != want:
        return "Spark reads parket.parquet (%s) differently: %s" % (
            " ".join(args), first_difference(want, back))
    return "ok" + tags


def minus_one_nulls(parket, path):
    """Whether some DATA_PAGE_V2 header of `path` says num_nulls = -1 (`parket dump`)."""
    import pyarrow.parquet as pq
    md = pq.ParquetFile(path).metadata
    for rg in range(md.num_row_groups):
        for col in range(md.num_columns):
            for page in range(3):
                d = subprocess.run([parket, "dump", "--page", "%d:%d:%d" % (rg, col, page), path],
                                   capture_output=True, text=True)
                if "num_nulls: i32 = -1" in d.stdout:
                    return True
    return False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--parket", required=True)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--end", type=int, default=4)
    ap.add_argument("--out", required=True)
    ap.add_argument("--variant-typed", help="a directory of VARIANT files of every primitive "
                    "written by parket's library (tests/interop_spark.rs): checked first, "
                    "reported as one line 'variant-typed ok' or 'variant-typed FAIL ...'")
    a = ap.parse_args()
    from pyspark.sql import SparkSession
    spark = (SparkSession.builder.master("local[1]").appName("parket-interop")
             .config("spark.ui.enabled", "false")
             .config("spark.sql.session.timeZone", "UTC")
             .config("spark.driver.extraJavaOptions", "-Duser.timezone=UTC")
             .config("spark.sql.shuffle.partitions", "1")
             .config("spark.sql.parquet.datetimeRebaseModeInWrite", "CORRECTED")
             .config("spark.sql.parquet.int96RebaseModeInWrite", "CORRECTED")
             .config("spark.sql.parquet.datetimeRebaseModeInRead", "CORRECTED")
             .config("spark.sql.parquet.int96RebaseModeInRead", "CORRECTED")
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    if a.variant_typed:
        try:
            err = sparkvariant.check_typed(spark, a.parket, a.variant_typed)
        except Exception as e:  # noqa: BLE001
            err = "sparkgen: %s: %s" % (type(e).__name__, str(e)[:2000])
        print("variant-typed", "FAIL " + err.replace("\n", " | ") if err else "ok", flush=True)
    for seed in range(a.start, a.end):
        try:
            msg = run_seed(spark, a.parket, seed, os.path.join(a.out, str(seed)))
            if msg.startswith("ok"):
                # VARIANT both ways (sparkvariant.py), in the same session and directory.
                err, tags = sparkvariant.run(spark, a.parket, random.Random(seed + 10**6),
                                             os.path.join(a.out, str(seed)))
                msg = "variant: " + err if err else msg + " variant=" + ",".join(tags)
        except Exception as e:  # noqa: BLE001
            msg = "sparkgen: %s: %s" % (type(e).__name__, str(e)[:2000])
        msg = msg.replace("\n", " | ")
        print(seed, msg if msg.startswith("ok") else "FAIL " + msg, flush=True)
    spark.stop()


if __name__ == "__main__":
    main()
