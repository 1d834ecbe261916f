#!/usr/bin/env python3
"""arrow_gen.py OUT_DIR [PARQUET...]: Parquet files written by pyarrow with many Arrow types
(nested, nulls, time zones, large/view/dictionary types), and for each NAME.parquet the table
pyarrow reads back from it as NAME.arrow (an Arrow IPC file: the expected RecordBatches of
tests/arrow_interop.rs).

With PARQUET arguments, writes only NAME.arrow for each given file (pyarrow's reading of a
file made elsewhere: corpus files, gen.py's random files).

arrow_gen.py --check EXPECTED.arrow FILE.parquet: reads FILE.parquet (written by parket's
BatchWriter) with pyarrow and compares it with the table in EXPECTED.arrow; prints "ok" or
the first difference and exits 1.
"""
import datetime as dt
import decimal
import os
import sys

import pyarrow as pa
import pyarrow.parquet as pq


def expected(path, out):
    t = pq.read_table(path)
    t = t.unify_dictionaries().combine_chunks()
    with pa.ipc.new_file(out, t.schema) as w:
        w.write_table(t)


def check(exp_path, path):
    with pa.ipc.open_file(exp_path) as r:
        exp = r.read_all()
    got = pq.read_table(path).combine_chunks()
    exp = exp.combine_chunks()
    if got.schema.remove_metadata() != exp.schema.remove_metadata():
        print(f"schema differs:\n{got.schema}\n---\n{exp.schema}")
        sys.exit(1)
    for name in exp.column_names:
        a, b = got.column(name).combine_chunks(), exp.column(name).combine_chunks()
        bits = {pa.float16(): pa.int16(), pa.float32(): pa.int32(), pa.float64(): pa.int64()}
        if a.type in bits and a.type == b.type:
            # Bit for bit: NaN equals itself, -0.0 differs from 0.0.
            a, b = a.view(bits[a.type]), b.view(bits[b.type])
        if not a.equals(b):
            print(f"column {name} differs:\n{a}\n---\n{b}")
            sys.exit(1)
    print("ok")


def nulls_every(values, k):
    return [None if i % k == k - 1 else v for i, v in enumerate(values)]


def flat(n):
    ints = [((i * 7919) % 201) - 100 for i in range(n)]
    big = [(i * 0x9E3779B97F4A7C15) % (1 << 63) * (1 if i % 2 else -1) for i in range(n)]
    floats = [float("nan"), -0.0, 0.0, float("inf"), float("-inf"), 1.5, -2.25e30, 5e-324]
    f = [floats[i % len(floats)] for i in range(n)]
    s = ["", "a", "héllo", "日本語", "x" * 50, "tab\tnew\nline"]
    strings = [s[i % len(s)] + str(i // len(s)) if i % 5 else s[i % len(s)] for i in range(n)]
    day = dt.date(1970, 1, 1)
    ts = [1_600_000_000_123_456 + i * 1_000_003 for i in range(n)]
    cols = {
        "b": pa.array(nulls_every([i % 3 == 0 for i in range(n)], 4), pa.bool_()),
        "i8": pa.array(nulls_every([x for x in ints if True][:n], 5), pa.int8()),
        "i16": pa.array(nulls_every([x * 300 for x in ints], 6), pa.int16()),
        "i32": pa.array(nulls_every([x * 10_000_000 for x in ints], 7), pa.int32()),
        "i64": pa.array(nulls_every(big, 8), pa.int64()),
        "u8": pa.array(nulls_every([abs(x) * 2 for x in ints], 9), pa.uint8()),
        "u16": pa.array(nulls_every([abs(x) * 600 for x in ints], 3), pa.uint16()),
        "u32": pa.array(nulls_every([abs(x) * 40_000_000 for x in ints], 4), pa.uint32()),
        "u64": pa.array(nulls_every([abs(x) * (1 << 56) for x in ints], 5), pa.uint64()),
        "req_i32": pa.array(ints, pa.int32()),
        "f16": pa.array(nulls_every(f, 6), pa.float16()) if False else
               pa.array(nulls_every([1.5, -0.0, 65504.0, float("inf")] * (n // 4) + [0.0] * (n % 4), 6),
                        pa.float16()),
        "f32": pa.array(nulls_every(f, 7), pa.float32()),
        "f64": pa.array(nulls_every(f, 8), pa.float64()),
        "s": pa.array(nulls_every(strings, 4), pa.string()),
        "bin": pa.array(nulls_every([x.encode() + b"\x00\xff" for x in strings], 5), pa.binary()),
        "fsb": pa.array(nulls_every([bytes([i % 256, 1, 2]) for i in range(n)], 6), pa.binary(3)),
        "date32": pa.array(nulls_every([day + dt.timedelta(days=i * 37 - 5000) for i in range(n)], 7), pa.date32()),
        "date64": pa.array(nulls_every([day + dt.timedelta(days=i * 11) for i in range(n)], 7), pa.date64()),
        "t32s": pa.array(nulls_every([i % 86400 for i in range(n)], 5), pa.time32("s")),
        "t32ms": pa.array(nulls_every([(i * 1001) % 86_400_000 for i in range(n)], 5), pa.time32("ms")),
        "t64us": pa.array(nulls_every([(i * 1_000_001) % 86_400_000_000 for i in range(n)], 5), pa.time64("us")),
        "t64ns": pa.array(nulls_every([(i * 1_000_000_007) % 86_400_000_000_000 for i in range(n)], 5), pa.time64("ns")),
        "ts_s": pa.array(nulls_every([x // 1_000_000 for x in ts], 6), pa.timestamp("s")),
        "ts_ms": pa.array(nulls_every([x // 1000 for x in ts], 6), pa.timestamp("ms")),
        "ts_us": pa.array(nulls_every(ts, 6), pa.timestamp("us")),
        "ts_ns": pa.array(nulls_every([x * 1000 + 7 for x in ts], 6), pa.timestamp("ns")),
        "ts_utc": pa.array(nulls_every(ts, 3), pa.timestamp("us", tz="UTC")),
        "ts_ny": pa.array(nulls_every(ts, 3), pa.timestamp("ms" if False else "us", tz="America/New_York")),
        "ts_off": pa.array(nulls_every([x * 1000 for x in ts], 3), pa.timestamp("ns", tz="+05:30")),
        "dur_s": pa.array(nulls_every([x // 1_000_000 for x in ts], 4), pa.duration("s")),
        "dur_us": pa.array(nulls_every([-x for x in ts], 4), pa.duration("us")),
        "dec5": pa.array(nulls_every([decimal.Decimal(x) / 100 for x in ints], 5), pa.decimal128(5, 2)),
        "dec20": pa.array(nulls_every([decimal.Decimal(x) * 10**15 + decimal.Decimal("0.123") for x in big], 5),
                          pa.decimal128(38, 3)),
        "dec50": pa.array(nulls_every([decimal.Decimal(x) * 10**25 for x in big], 5), pa.decimal256(50, 5)),
        "ls": pa.array(nulls_every(strings, 3), pa.large_string()),
        "lb": pa.array(nulls_every([x.encode() for x in strings], 3), pa.large_binary()),
        "sv": pa.array(nulls_every(strings, 4), pa.string_view()),
        "bv": pa.array(nulls_every([x.encode() for x in strings], 4), pa.binary_view()),
        "dict": pa.array(nulls_every([s[i % 3] for i in range(n)], 5)).dictionary_encode(),
        "nul": pa.nulls(n),
    }
    return pa.table(cols)


def nested(n):
    lists = [None if i % 7 == 3 else [None if (i + j) % 5 == 0 else i * 10 + j for j in range(i % 4)]
             for i in range(n)]
    lol = [None if i % 6 == 1 else [None if j == 2 else [f"s{i}.{j}.{k}" for k in range(j % 3)]
                                    for j in range(i % 4)] for i in range(n)]
    structs = [None if i % 5 == 2 else {"a": None if i % 3 == 0 else i, "b": {"c": f"c{i}" if i % 4 else None}}
               for i in range(n)]
    los = [None if i % 9 == 4 else [None if j == 1 and i % 2 else {"x": i + j, "y": [float(j)] * (j % 3)}
                                    for j in range(i % 5)] for i in range(n)]
    maps = [None if i % 8 == 5 else [(f"k{j}", None if j == 1 else i * j) for j in range(i % 4)] for i in range(n)]
    req_list = [[i, i + 1][: i % 3] for i in range(n)]
    t = pa.table({
        "l": pa.array(lists, pa.list_(pa.int32())),
        "lol": pa.array(lol, pa.list_(pa.list_(pa.string()))),
        "st": pa.array(structs, pa.struct([("a", pa.int64()), ("b", pa.struct([("c", pa.string())]))])),
        "los": pa.array(los, pa.list_(pa.struct([("x", pa.int32()), ("y", pa.list_(pa.float64()))]))),
        "m": pa.array(maps, pa.map_(pa.string(), pa.int64())),
        "ll": pa.array(lists, pa.large_list(pa.int32())),
        "req_list": pa.array(req_list, pa.list_(pa.field("item", pa.int64(), nullable=False))),
        "id": pa.array(range(n), pa.int64()),
    })
    schema = t.schema.set(t.schema.get_field_index("req_list"),
                          pa.field("req_list", pa.list_(pa.field("element", pa.int64(), nullable=False)),
                                   nullable=False))
    schema = schema.set(schema.get_field_index("id"), pa.field("id", pa.int64(), nullable=False))
    return t.cast(schema)


def strings_delta(n):
    """BYTE_ARRAY columns for the encodings a reader may take a batch at a time straight from
    the page (PLAIN, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY): nulls, empty strings, values
    sharing prefixes with the one before, short ones and ones past 16 bytes."""
    words = ["", "a", "ab", "abc", "h\u00e9llo", "hello world, a value past sixteen bytes", "x" * 40, "\u65e5\u672c"]
    s = [None if i % 7 == 3 else "" if i % 11 == 5 else
         f"{words[i % len(words)]}{i // 3:06d}" if i % 4 else words[(i // 4) % len(words)]
         for i in range(n)]
    keys = sorted(f"key/{i // 10:05d}/{'z' * (i % 23)}" for i in range(n))
    lists = [None if i % 9 == 2 else [s[(i + j) % n] for j in range(i % 4)] for i in range(n)]
    t = pa.table({
        "dba": pa.array(s, pa.string()),
        "dba_bin": pa.array([None if x is None else x.encode() + b"\x00" for x in s], pa.binary()),
        "dba_large": pa.array(s, pa.large_string()),
        "dba_keys": pa.array(keys, pa.string()),
        "dba_list": pa.array(lists, pa.list_(pa.string())),
        "dlba": pa.array(s, pa.string()),
        "dlba_view": pa.array(s, pa.string_view()),
        "plain": pa.array(s, pa.string()),
        "plain_large": pa.array(s, pa.large_binary()),
    })
    schema = t.schema.set(t.schema.get_field_index("dba_keys"),
                          pa.field("dba_keys", pa.string(), nullable=False))
    return t.cast(schema)


STRINGS_DELTA_ENCODINGS = {
    "dba": "DELTA_BYTE_ARRAY", "dba_bin": "DELTA_BYTE_ARRAY", "dba_large": "DELTA_BYTE_ARRAY",
    "dba_keys": "DELTA_BYTE_ARRAY", "dba_list.list.element": "DELTA_BYTE_ARRAY",
    "dlba": "DELTA_LENGTH_BYTE_ARRAY", "dlba_view": "DELTA_LENGTH_BYTE_ARRAY",
    "plain": "PLAIN", "plain_large": "PLAIN",
}


def main():
    if sys.argv[1] == "--check":
        check(sys.argv[2], sys.argv[3])
        return
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    if len(sys.argv) > 2:
        for p in sys.argv[2:]:
            name = os.path.splitext(os.path.basename(p))[0]
            try:
                expected(p, os.path.join(out, name + ".arrow"))
            except Exception as e:  # pyarrow cannot read it: no expectation
                print(f"{name}: pyarrow: {type(e).__name__}: {str(e)[:100]}")
        return
    files = {
        "flat": (flat(1000), {}),
        "flat_v2_small_rg": (flat(3000), {"data_page_version": "2.0", "row_group_size": 700,
                                           "compression": "zstd", "data_page_size": 4096}),
        # V1 pages of 256 to 1,024 rows, dictionary-encoded: batches of 333 and 8,192 rows
        # start and end inside pages and span several.
        "flat_v1_small_pages": (flat(3000), {"data_page_version": "1.0", "data_page_size": 1024,
                                             "write_batch_size": 256}),
        "flat_plain": (flat(500), {"use_dictionary": False, "store_decimal_as_integer": True}),
        "nested": (nested(1000), {}),
        "nested_v2": (nested(2500), {"data_page_version": "2.0", "row_group_size": 900,
                                      "data_page_size": 2048, "use_dictionary": False}),
        "int96": (pa.table({"t": pa.array([None, 0, 1_600_000_000_123_456_789, -86_400_000_000_001],
                                          pa.timestamp("ns"))}),
                  {"use_deprecated_int96_timestamps": True}),
        "no_arrow_schema": (flat(300).drop_columns(["nul"]), {"store_schema": False}),
        "nested_no_arrow_schema": (nested(300), {"store_schema": False}),
        "empty": (flat(0), {}),
        # Pages of a few hundred values at most: batches of 333 and 8,192 rows start and end
        # inside pages and span several, and V2 pages compressed and not.
        "strings_delta_v1": (strings_delta(3000), {"data_page_version": "1.0", "data_page_size": 1024,
                                                   "write_batch_size": 128, "use_dictionary": False, "compression": "none",
                                                   "column_encoding": STRINGS_DELTA_ENCODINGS}),
        "strings_delta_v2": (strings_delta(3000), {"data_page_version": "2.0", "data_page_size": 2048,
                                                   "write_batch_size": 200, "use_dictionary": False,
                                                   "compression": "snappy", "row_group_size": 1700,
                                                   "column_encoding": STRINGS_DELTA_ENCODINGS}),
        "strings_delta_v2_none": (strings_delta(2000), {"data_page_version": "2.0", "data_page_size": 1500,
                                                        "write_batch_size": 100, "use_dictionary": False, "compression": "none",
                                                        "column_encoding": STRINGS_DELTA_ENCODINGS}),
    }
    for name, (t, opts) in files.items():
        p = os.path.join(out, name + ".parquet")
        pq.write_table(t, p, **opts)
        expected(p, os.path.join(out, name + ".arrow"))
    # A projection of "st.b.c", "m", "id": the struct keeps only the path to the leaf (pyarrow's
    # own `columns=["st.b.c"]` gives the leaf alone as a column "c"; parket keeps the struct).
    t = pq.read_table(os.path.join(out, "nested.parquet"), columns=["st", "m", "id"]).combine_chunks()
    st = t.column("st").chunk(0)
    only_b = pa.StructArray.from_arrays([st.field("b")], fields=[t.schema.field("st").type.field("b")],
                                        mask=st.is_null())
    t = t.set_column(0, pa.field("st", only_b.type), only_b)
    with pa.ipc.new_file(os.path.join(out, "nested.projected.arrow"), t.schema) as w:
        w.write_table(t.combine_chunks())


if __name__ == "__main__":
    main()
