#!/usr/bin/env python3
"""gen.py --seed N --out DIR [--rows R]: a random Parquet file written by pyarrow, plus what
the parket side needs to test against it. Deterministic for a seed.

Writes:
  DIR/pyarrow.parquet  the file (random schema, nasty data, random pyarrow writer options)
  DIR/rows.jsonl       its rows in the canonical JSON Lines of json-mapping.md, computed from
                       the in-memory table (same code as rows.py, see jsonrows.py)
  DIR/schema.txt       the file's Parquet schema as parquet-java's message text
  DIR/options.json     {"args": [...]} random `parket write` options (reverse direction),
                       plus "pyarrow": the writer options used for pyarrow.parquet (for repro)
"""
import argparse
import io
import json
import os
import random
import string
import struct
import sys
from decimal import Decimal, localcontext

import pyarrow as pa
import pyarrow.parquet as pq

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jsonrows  # noqa: E402

MAX_DEPTH = 4


# ---------------------------------------------------------------------------------------------
# Values
# ---------------------------------------------------------------------------------------------

def _f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


F32_SPECIAL = [float("nan"), -0.0, 0.0, float("inf"), float("-inf"), 1.0, -1.0,
               _f32(0.1), _f32(3.4028234663852886e38), _f32(-3.4028234663852886e38),
               _f32(1e-45), _f32(1.1754943508222875e-38), _f32(16777217.0), _f32(1e20),
               _f32(1e-5), _f32(123.456)]
F64_SPECIAL = [float("nan"), -0.0, 0.0, float("inf"), float("-inf"), 1.0, -1.0, 0.1,
               1.7976931348623157e308, -1.7976931348623157e308, 5e-324,
               2.2250738585072014e-308, 1e16, 1e15, 1e-5, 1e-4, 123456789.125, 2.0 ** 53 + 1,
               -2.0 ** 63]
UNICODE = ["", "a", "é", "日本語", "😀", "a\x00b", "\x01\x1f", "tab\there", "line\nfeed",
           "quote\"back\\slash", "\u2028\u2029", "\x7f", "Ω≈ç√∫", "\ufeffbom", "z" * 3,
           "mixed 😀 é \n"]


class Values:
    def __init__(self, rng):
        self.rng = rng

    def text(self):
        r = self.rng
        x = r.random()
        if x < 0.3:
            return r.choice(UNICODE)
        if x < 0.35:
            n = r.randint(1000, 10000)
            return "".join(r.choice(["x", "é", "😀", "ab", " "]) for _ in range(n // 2))
        alphabet = string.ascii_letters + "äöü€中😀 _-"
        return "".join(r.choice(alphabet) for _ in range(r.randint(0, 12)))

    def blob(self, n=None):
        r = self.rng
        if n is None:
            x = r.random()
            n = r.randint(1000, 6000) if x < 0.03 else r.choice([0, 1, 3, 8, 17])
        return bytes(r.getrandbits(8) for _ in range(n))


def int_gen(bits, signed, rng):
    lo = -(1 << (bits - 1)) if signed else 0
    hi = (1 << (bits - 1)) - 1 if signed else (1 << bits) - 1
    specials = [lo, hi, 0, 1, lo + 1, hi - 1] + ([-1] if signed else [])
    pool = [rng.randint(lo, hi) for _ in range(4)]

    def g():
        x = rng.random()
        if x < 0.3:
            return rng.choice(specials)
        if x < 0.7:
            return rng.choice(pool)
        return rng.randint(lo, hi)
    return g


def f32_gen(rng):
    pool = [_f32(rng.uniform(-1000, 1000)) for _ in range(4)]

    def g():
        x = rng.random()
        if x < 0.3:
            return rng.choice(F32_SPECIAL)
        if x < 0.6:
            return rng.choice(pool)
        while True:
            v = struct.unpack("<f", struct.pack("<I", rng.getrandbits(32)))[0]
            if v == v:
                return v
    return g


def f64_gen(rng):
    pool = [rng.uniform(-1e6, 1e6) for _ in range(4)]

    def g():
        x = rng.random()
        if x < 0.3:
            return rng.choice(F64_SPECIAL)
        if x < 0.6:
            return rng.choice(pool)
        while True:
            v = struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]
            if v == v:
                return v
    return g


def f16_gen(rng):
    specials = [0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x3C00, 0x0001, 0x7BFF, 0xFBFF, 0x0400]

    def g():
        b = rng.choice(specials) if rng.random() < 0.4 else rng.getrandbits(16)
        return jsonrows.half_to_float(b)
    return g


def pick(rng, specials, pool_fn, rand_fn):
    pool = [pool_fn() for _ in range(3)]

    def g():
        x = rng.random()
        if x < 0.3:
            return rng.choice(specials)
        if x < 0.6:
            return rng.choice(pool)
        return rand_fn()
    return g


# ---------------------------------------------------------------------------------------------
# Types
# ---------------------------------------------------------------------------------------------

class Gen:
    def __init__(self, rng, int96):
        self.rng = rng
        self.v = Values(rng)
        self.int96 = int96
        self.names = 0

    def name(self):
        self.names += 1
        return "c%d" % self.names

    def leaf(self, key_only=False):
        """(arrow type, value generator) of a random primitive."""
        r = self.rng
        kinds = ["bool", "int", "uint", "f32", "f64", "f16", "dec", "date", "time", "ts",
                 "str", "lstr", "bin", "lbin", "fsb", "uuid", "json", "null", "dur", "dict"]
        if key_only:
            kinds = ["int", "uint", "str", "date", "dec", "bin", "fsb"]
        k = r.choice(kinds)
        if k == "bool":
            return pa.bool_(), lambda: r.random() < 0.5
        if k in ("int", "uint"):
            bits = r.choice([8, 16, 32, 64])
            signed = k == "int"
            t = {(8, True): pa.int8(), (16, True): pa.int16(), (32, True): pa.int32(),
                 (64, True): pa.int64(), (8, False): pa.uint8(), (16, False): pa.uint16(),
                 (32, False): pa.uint32(), (64, False): pa.uint64()}[(bits, signed)]
            return t, int_gen(bits, signed, r)
        if k == "f32":
            return pa.float32(), f32_gen(r)
        if k == "f64":
            return pa.float64(), f64_gen(r)
        if k == "f16":
            return pa.float16(), f16_gen(r)
        if k == "dec":
            wide = r.random() < 0.3
            p = r.randint(39, 76) if wide else r.choice([1, 2, 4, 9, 10, 18, 19, 25, 38])
            s = r.randint(0, p)
            t = pa.decimal256(p, s) if wide else pa.decimal128(p, s)
            m = 10 ** p - 1

            def dec():
                u = pick(r, [0, m, -m, 1, -1], lambda: r.randint(-m, m), lambda: r.randint(-m, m))
                return u

            ug = dec()

            def g():
                with localcontext() as c:
                    c.prec = 100
                    return Decimal(ug()).scaleb(-s)
            return t, g
        if k == "date":
            return pa.date32(), pick(r, [0, -1, -(2 ** 31), 2 ** 31 - 1, -719528, 2932896,
                                         -719529, 11016, 2932896 + 365 * 100],
                                     lambda: r.randint(-800000, 3000000),
                                     lambda: r.randint(-(2 ** 31), 2 ** 31 - 1))
        if k == "time":
            unit = r.choice(["s", "ms", "us", "ns"])
            t = pa.time32(unit) if unit in ("s", "ms") else pa.time64(unit)
            day = 86400 * jsonrows.PER_SECOND[unit]
            return t, pick(r, [0, day - 1, 1, day // 2], lambda: r.randrange(day),
                           lambda: r.randrange(day))
        if k == "ts":
            unit = r.choice(["s", "ms", "us", "ns"])
            tz = r.choice([None, None, "UTC", "Europe/Paris", "+05:30"])
            lim = (1 << 63) - 1
            if unit == "s":
                lim //= 1000  # pyarrow stores seconds as MILLIS
            if self.int96:
                lim = ((1 << 63) - 1) // (10 ** 9 // jsonrows.PER_SECOND[unit])
            return pa.timestamp(unit, tz), pick(r, [0, -1, 1, lim, -lim],
                                                lambda: r.randint(-lim, lim),
                                                lambda: r.randint(-lim, lim))
        if k in ("str", "lstr"):
            return (pa.string() if k == "str" else pa.large_string()), \
                pick(r, UNICODE[:3], self.v.text, self.v.text)
        if k in ("bin", "lbin"):
            return (pa.binary() if k == "bin" else pa.large_binary()), \
                pick(r, [b"", b"\x00", b"\xff" * 3], self.v.blob, self.v.blob)
        if k == "fsb":
            n = r.choice([1, 2, 3, 12, 16, 20])
            return pa.binary(n), pick(r, [b"\x00" * n, b"\xff" * n], lambda: self.v.blob(n),
                                      lambda: self.v.blob(n))
        if k == "uuid":
            return pa.uuid(), lambda: self.v.blob(16)
        if k == "json":
            return pa.json_(), lambda: r.choice(['{}', '[]', '{"a":1}', 'null', '"é😀"',
                                                 '[1,2.5,"x"]', '3'])
        if k == "null":
            return pa.null(), lambda: None
        if k == "dur":
            return pa.duration(r.choice(["s", "ms", "us", "ns"])), \
                int_gen(64, True, r)
        if k == "dict":
            return pa.dictionary(pa.int32(), pa.string()), \
                pick(r, ["x", "", "é"], self.v.text, lambda: r.choice(["a", "b", "c"]))
        raise AssertionError(k)

    def typ(self, depth):
        """(arrow type, value generator taking no args, returns non-null value)."""
        r = self.rng
        x = r.random()
        if depth >= MAX_DEPTH or x < 0.55:
            return self.leaf()
        if x < 0.7:
            fields = []
            gens = []
            for _ in range(r.randint(1, 4)):
                f, g = self.field(depth + 1)
                fields.append(f)
                gens.append((f.name, g))
            return pa.struct(fields), lambda: {n: g() for n, g in gens}
        if x < 0.88:
            f, g = self.field(depth + 1, name="element")
            t = pa.list_(f) if r.random() < 0.7 else pa.large_list(f)
            maxlen = r.choice([0, 1, 3, 6])

            def lg():
                return [g() for _ in range(r.randint(0, maxlen))]
            return t, lg
        kt, kg = self.leaf(key_only=True)
        vf, vg = self.field(depth + 1, name="value")
        maxlen = r.choice([0, 1, 3, 5])

        def mg():
            out = []
            seen = set()
            for _ in range(r.randint(0, maxlen)):
                k = kg()
                hk = repr(k)
                if hk in seen:
                    continue
                seen.add(hk)
                out.append((k, vg()))
            return out
        return pa.map_(kt, vf), mg

    def field(self, depth, name=None):
        r = self.rng
        t, g = self.typ(depth)
        nullable = pa.types.is_null(t) or r.random() < 0.7
        pnull = r.choice([0.0, 0.05, 0.3, 0.9, 1.0]) if nullable else 0.0
        if pa.types.is_null(t):
            pnull = 1.0
        meta = None
        if self.field_ids:
            self.next_id += 1
            meta = {b"PARQUET:field_id": str(self.next_id).encode()}
        f = pa.field(name or self.name(), t, nullable=nullable, metadata=meta)

        def fg():
            if pnull and r.random() < pnull:
                return None
            return g()
        return f, fg


# ---------------------------------------------------------------------------------------------
# Writer options
# ---------------------------------------------------------------------------------------------

CODECS = ["NONE", "SNAPPY", "GZIP", "BROTLI", "LZ4", "ZSTD"]


def encodings_for(phys):
    return {
        "BOOLEAN": ["PLAIN", "RLE"],
        "INT32": ["PLAIN", "DELTA_BINARY_PACKED", "BYTE_STREAM_SPLIT"],
        "INT64": ["PLAIN", "DELTA_BINARY_PACKED", "BYTE_STREAM_SPLIT"],
        "INT96": ["PLAIN"],
        "FLOAT": ["PLAIN", "BYTE_STREAM_SPLIT"],
        "DOUBLE": ["PLAIN", "BYTE_STREAM_SPLIT"],
        "BYTE_ARRAY": ["PLAIN", "DELTA_LENGTH_BYTE_ARRAY", "DELTA_BYTE_ARRAY"],
        "FIXED_LEN_BYTE_ARRAY": ["PLAIN", "DELTA_BYTE_ARRAY", "BYTE_STREAM_SPLIT"],
    }[phys]


def pyarrow_options(rng, leaves, int96):
    paths = [l.dotted() for l in leaves]
    o = {"version": "2.6", "data_page_version": rng.choice(["1.0", "2.0"])}
    x = rng.random()
    if x < 0.4:
        o["compression"] = rng.choice(CODECS)
        if o["compression"] in ("GZIP", "ZSTD", "BROTLI") and rng.random() < 0.5:
            o["compression_level"] = {"GZIP": rng.randint(1, 9), "ZSTD": rng.randint(1, 10),
                                      "BROTLI": rng.randint(0, 11)}[o["compression"]]
    elif x < 0.8:
        o["compression"] = {p: rng.choice(CODECS) for p in paths}
    d = rng.random()
    if d < 0.3:
        o["use_dictionary"] = False
    elif d < 0.6 and paths:
        o["use_dictionary"] = sorted(rng.sample(paths, rng.randint(0, len(paths))))
    else:
        o["use_dictionary"] = True
    if rng.random() < 0.4 and paths:
        enc = {}
        for l in leaves:
            if rng.random() < 0.6:
                enc[l.dotted()] = rng.choice(encodings_for(l.physical))
        if enc:
            o["column_encoding"] = enc
            ud = o["use_dictionary"]
            o["use_dictionary_orig"] = ud
            keep = paths if ud is True else (ud if isinstance(ud, list) else [])
            o["use_dictionary"] = [p for p in keep if p not in enc]
    if rng.random() < 0.6:
        o["data_page_size"] = rng.choice([1, 16, 100, 1024, 8192])
        o["write_batch_size"] = rng.choice([1, 2, 7, 64])
    if rng.random() < 0.3:
        o["dictionary_pagesize_limit"] = rng.choice([1, 16, 200])
    o["write_statistics"] = rng.choice([True, True, False]) if rng.random() < 0.8 else \
        sorted(rng.sample(paths, rng.randint(0, len(paths))))
    o["write_page_index"] = rng.random() < 0.5
    o["write_page_checksum"] = rng.random() < 0.5
    o["store_schema"] = rng.random() < 0.7
    o["store_decimal_as_integer"] = rng.random() < 0.5
    if int96:
        o["use_deprecated_int96_timestamps"] = True
    return o


def parket_options(rng, leaves, nrows):
    args = []
    if rng.random() < 0.8:
        c = rng.choice(["uncompressed", "snappy", "gzip", "gzip:1", "gzip:9", "brotli",
                        "brotli:5", "lz4", "lz4_raw", "zstd", "zstd:1", "zstd:3", "zstd:19"])
        args += ["--codec", c]
    if rng.random() < 0.5:
        args += ["--page-version", rng.choice(["1", "2"])]
    if rng.random() < 0.25:
        args += ["--dictionary", "off"]
    for l in leaves:
        if rng.random() < 0.25:
            args += ["--encoding", "%s=%s" % (l.dotted(), rng.choice(encodings_for(l.physical)))]
    if rng.random() < 0.4:
        args += ["--row-group-rows", str(rng.choice([1, 2, 7, 100, max(1, nrows)]))]
    if rng.random() < 0.4:
        args += ["--page-rows", str(rng.choice([1, 3, 10, 1000]))]
    return args


# ---------------------------------------------------------------------------------------------

def generate(seed, out, nrows=None):
    rng = random.Random(seed)
    int96 = rng.random() < 0.1
    g = Gen(rng, int96)
    g.field_ids = rng.random() < 0.2
    g.next_id = 0
    fields = []
    gens = []
    for _ in range(rng.randint(1, 8)):
        f, fg = g.field(0)
        fields.append(f)
        gens.append(fg)
    schema = pa.schema(fields)
    if nrows is None:
        nrows = rng.choice([0, 1, 2, 5, 20, 100, 300])
    rows = [[fg() for fg in gens] for _ in range(nrows)]
    columns = [_array([r[i] for r in rows], f.type) for i, f in enumerate(fields)]
    table = pa.Table.from_arrays(columns, schema=schema)
    if rng.random() < 0.5 and nrows > 1:
        # several chunks per column, to exercise the chunk walk
        cut = rng.randint(1, nrows - 1)
        table = pa.concat_tables([table.slice(0, cut), table.slice(cut)])

    # Dry run to learn the Parquet leaves (paths and physical types).
    buf = io.BytesIO()
    pq.write_table(table, buf, version="2.6")
    leaves = jsonrows.build_tree(_elements_of(buf.getvalue())).leaves()
    opts = pyarrow_options(rng, leaves, int96)
    if nrows and rng.random() < 0.6:
        opts["row_group_size"] = rng.choice([1, 2, 3, 10, 64])

    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "pyarrow.parquet")
    # pyarrow refuses some option/type pairs, and some combinations hit pyarrow bugs (it
    # cannot read back what it wrote). The oracle must be right, so each attempt is verified
    # by reading the file back, and options are simplified until it round-trips.
    ud_orig = opts.pop("use_dictionary_orig", True)
    attempts = [dict(opts)]
    simpler = dict(opts)
    for drop in (["column_encoding"], ["store_schema"],
                 ["data_page_size", "write_batch_size", "dictionary_pagesize_limit"],
                 ["use_deprecated_int96_timestamps"]):
        if any(k in simpler for k in drop):
            simpler = {k: v for k, v in simpler.items() if k not in drop}
            if "column_encoding" in drop and isinstance(simpler.get("use_dictionary"), list):
                simpler["use_dictionary"] = ud_orig
            attempts.append(simpler)
    notes = []
    expected = None
    for used in attempts:
        try:
            pq.write_table(table, path, **used)
            root = jsonrows.load_tree(path)
            shape = jsonrows.single_shape(root)
            expected = [jsonrows.dumps_row(r) for r in jsonrows.rows_of_table(shape, table)]
            got = list(jsonrows.file_lines(path))
            if got == expected:
                break
            notes.append("pyarrow read back different rows with %s" % sorted(used))
        except Exception as e:  # noqa: BLE001 - any pyarrow refusal
            notes.append("%s: %s" % (type(e).__name__, str(e).splitlines()[0][:200]))
        expected = None
    if expected is None:
        raise RuntimeError("seed %d: no pyarrow writer options round-trip: %s" % (seed, notes))
    if notes:
        used = dict(used, fallback_notes=notes)
    # parket's options follow the written file's physical types (decimals may be stored as
    # integers and timestamps as INT96, depending on the pyarrow options finally used), with
    # an RNG of their own so that pyarrow's fallbacks do not shift them.
    pargs = parket_options(random.Random(seed * 7919 + 1), root.leaves(), nrows)
    with open(os.path.join(out, "rows.jsonl"), "wb") as f:
        for line in expected:
            f.write(line.encode("utf-8") + b"\n")
    with open(os.path.join(out, "schema.txt"), "w", encoding="utf-8") as f:
        f.write(jsonrows.schema_text(root))
    with open(os.path.join(out, "options.json"), "w", encoding="utf-8") as f:
        json.dump({"seed": seed, "rows": nrows, "args": pargs, "pyarrow": used}, f, indent=1,
                  sort_keys=True)
        f.write("\n")
    return path


def _storage(t):
    """t with every extension type replaced by its storage type (pa.array cannot build nested
    extension values from Python objects)."""
    if isinstance(t, pa.BaseExtensionType):
        return t.storage_type
    if pa.types.is_dictionary(t):
        return t.value_type
    if pa.types.is_struct(t):
        return pa.struct([f.with_type(_storage(f.type)) for f in t])
    if pa.types.is_map(t):
        return pa.map_(_storage(t.key_type), t.item_field.with_type(_storage(t.item_type)))
    if pa.types.is_large_list(t):
        return pa.large_list(t.value_field.with_type(_storage(t.value_type)))
    if pa.types.is_list(t):
        return pa.list_(t.value_field.with_type(_storage(t.value_type)))
    return t


def _array(values, t):
    st = _storage(t)
    a = pa.array(values, type=st)
    return _rewrap(a, t)


def _rewrap(a, t):
    """Rebuilds storage-typed array a as type t (a struct cast is buggy in pyarrow 26 for
    some children, e.g. list<null>: it produces invalid offsets)."""
    if a.type == t:
        return a
    if isinstance(t, pa.BaseExtensionType):
        return pa.ExtensionArray.from_storage(t, _rewrap(a, t.storage_type))
    if pa.types.is_dictionary(t):
        return a.dictionary_encode()
    mask = a.is_null() if a.null_count else None
    if pa.types.is_struct(t):
        kids = [_rewrap(a.field(i), t.field(i).type) for i in range(t.num_fields)]
        return pa.StructArray.from_arrays(kids, fields=list(t), mask=mask)
    if pa.types.is_map(t):
        ent = a.values
        return pa.MapArray.from_arrays(a.offsets, _rewrap(ent.field(0), t.key_type),
                                       _rewrap(ent.field(1), t.item_type), type=t, mask=mask)
    if pa.types.is_large_list(t):
        return pa.LargeListArray.from_arrays(a.offsets, _rewrap(a.values, t.value_type),
                                             type=t, mask=mask)
    if pa.types.is_list(t):
        return pa.ListArray.from_arrays(a.offsets, _rewrap(a.values, t.value_type), type=t,
                                        mask=mask)
    return a.cast(t)


def _elements_of(data):
    import tempfile
    with tempfile.NamedTemporaryFile(suffix=".parquet") as t:
        t.write(data)
        t.flush()
        return jsonrows.read_schema_elements(t.name)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--rows", type=int)
    a = ap.parse_args(argv)
    generate(a.seed, a.out, a.rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
