"""Shared normalisation: Parquet rows (via pyarrow) -> canonical JSON Lines.

Implements /work/shared/json-mapping.md (the JSON row contract) for the pyarrow side of the
differential tests. Used by rows.py (read a file), gen.py (normalise the table it generated)
and check_write.py (compare a file written by parket with expected rows).

CANONICAL LINE FORM (the Rust side must print byte-identical lines):

    json.dumps(row, separators=(",", ":"), ensure_ascii=False) + "\n"

  * no whitespace at all; keys in schema order; null values printed as `null`, never omitted;
  * strings: UTF-8, non-ASCII written raw (U+2028/U+2029 too); escaped are only `"` -> `\\"`,
    `\\` -> `\\\\`, and the C0 controls: \\b \\f \\n \\r \\t by name, every other U+0000..U+001F
    as `\\u00XX` with LOWER-case hex (e.g. `\\u001f`); U+007F is written raw;
  * integers: exact decimal literals (no exponent, no `.0`), any size;
  * floating point: Python's `repr(float)`: the shortest digit string that parses back to the
    value (for FLOAT: to the same f32; the string is then printed in the same notation, it is
    also the shortest repr of the widened double), laid out as: with decimal exponent e
    (value = d.ddd x 10^e), if -4 <= e < 16 fixed notation, always with a fractional part
    (`1.0`, `0.0001`, `123.5`, `1000000000000000.0`); otherwise `d[.ddd]e+XX` / `d[.ddd]e-XX`
    with at least two exponent digits (`1e+16`, `1.5e-07`, `3.4028234663852886e+38`).
    `-0.0` keeps its sign; NaN / +inf / -inf are the strings "NaN", "Infinity", "-Infinity".

Resolved ambiguities of json-mapping.md (see README.md):
  * DATE / TIMESTAMP years: astronomical numbering (year 0 exists); 0..9999 as 4 digits,
    > 9999 as `+` and all digits (`+290000`), < 0 as `-` and at least 4 digits (`-0001`).
  * TIME: 24:00:00 exactly (value == one day) is accepted and printed as `24:00:00.000...`.
  * INTERVAL: the three little-endian u32 are printed unsigned.
  * UNKNOWN annotation -> null for every value, whatever the physical type.
  * FLOAT16 is printed exactly as a FLOAT holding the same value would be.
"""

import base64
import json
import struct
from decimal import Decimal
from fractions import Fraction

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq


class RowsError(Exception):
    """A value or a file that the contract says is an error."""


def dumps_row(row):
    """The canonical one-line form of one row (without the newline)."""
    return json.dumps(row, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


# ---------------------------------------------------------------------------------------------
# Footer: a minimal Thrift compact-protocol reader for FileMetaData.schema
# ---------------------------------------------------------------------------------------------

class _Thrift:
    def __init__(self, data):
        self.d = data
        self.p = 0

    def byte(self):
        if self.p >= len(self.d):
            raise RowsError("footer truncated")
        b = self.d[self.p]
        self.p += 1
        return b

    def varint(self):
        shift = 0
        out = 0
        while True:
            b = self.byte()
            out |= (b & 0x7F) << shift
            if not b & 0x80:
                return out
            shift += 7
            if shift > 70:
                raise RowsError("footer varint too long")

    def zigzag(self):
        v = self.varint()
        return (v >> 1) ^ -(v & 1)

    def binary(self):
        n = self.varint()
        if self.p + n > len(self.d):
            raise RowsError("footer truncated")
        b = self.d[self.p:self.p + n]
        self.p += n
        return b

    def skip(self, t, depth=0):
        if depth > 64:
            raise RowsError("footer nesting too deep")
        if t in (1, 2):
            return None
        if t == 3:
            self.byte()
        elif t in (4, 5, 6):
            self.varint()
        elif t == 7:
            self.p += 8
        elif t == 8:
            self.binary()
        elif t in (9, 10):
            et, n = self.list_header()
            for _ in range(n):
                if et in (1, 2):
                    self.byte()
                else:
                    self.skip(et, depth + 1)
        elif t == 11:
            n = self.varint()
            if n:
                kv = self.byte()
                for _ in range(n):
                    self.skip(kv >> 4, depth + 1)
                    self.skip(kv & 15, depth + 1)
        elif t == 12:
            for _fid, ft in self.fields():
                self.skip(ft, depth + 1)
        else:
            raise RowsError("footer: bad thrift type %d" % t)
        return None

    def list_header(self):
        h = self.byte()
        n = h >> 4
        if n == 15:
            n = self.varint()
        return h & 15, n

    def fields(self):
        """Yields (field id, type) for each field of a struct; bool values are in the type."""
        last = 0
        while True:
            h = self.byte()
            if h == 0:
                return
            delta = h >> 4
            fid = last + delta if delta else self.zigzag()
            last = fid
            yield fid, h & 15

    def struct(self, handler):
        out = {}
        for fid, ft in self.fields():
            if ft == 1:
                out[fid] = True
            elif ft == 2:
                out[fid] = False
            elif fid in handler and handler[fid] is not None:
                out[fid] = handler[fid](ft)
            else:
                self.skip(ft)
        return out

    def union_member(self):
        """A union whose members are (mostly empty) structs: returns (member id, fields)."""
        got = None
        for fid, ft in self.fields():
            if ft == 12:
                got = (fid, self.struct({
                    1: lambda t: self._scalar(t) if t != 12 else self.union_member(),
                    2: lambda t: self._scalar(t) if t != 12 else self.union_member(),
                }))
            else:
                self.skip(ft)
        return got

    def _scalar(self, t):
        if t in (3,):
            return self.byte()
        if t in (4, 5, 6):
            return self.zigzag()
        if t == 8:
            return self.binary()
        self.skip(t)
        return None


def read_schema_elements(path):
    """The flat list of SchemaElement dicts of a Parquet file's footer."""
    with open(path, "rb") as f:
        f.seek(0, 2)
        size = f.tell()
        if size < 12:
            raise RowsError("file too small to be Parquet (%d bytes)" % size)
        f.seek(size - 8)
        tail = f.read(8)
        if tail[4:] == b"PARE":
            raise RowsError("file is encrypted (magic PARE); keys are not supported")
        if tail[4:] != b"PAR1":
            raise RowsError("not a Parquet file (bad magic)")
        flen = struct.unpack("<I", tail[:4])[0]
        if flen + 12 > size:
            raise RowsError("footer length %d exceeds the file size" % flen)
        f.seek(size - 8 - flen)
        footer = f.read(flen)
    t = _Thrift(footer)
    elements = []

    def schema_list(ft):
        et, n = t.list_header()
        for _ in range(n):
            elements.append(t.struct({
                1: lambda _t: t.zigzag(),
                2: lambda _t: t.zigzag(),
                3: lambda _t: t.zigzag(),
                4: lambda _t: t.binary().decode("utf-8", "replace"),
                5: lambda _t: t.zigzag(),
                6: lambda _t: t.zigzag(),
                7: lambda _t: t.zigzag(),
                8: lambda _t: t.zigzag(),
                9: lambda _t: t.zigzag(),
                10: lambda _t: t.union_member(),
            }))
        return True

    t.struct({2: schema_list})
    if not elements:
        raise RowsError("footer has no schema")
    return elements


# ---------------------------------------------------------------------------------------------
# Schema tree
# ---------------------------------------------------------------------------------------------

PHYSICAL = ["BOOLEAN", "INT32", "INT64", "INT96", "FLOAT", "DOUBLE", "BYTE_ARRAY",
            "FIXED_LEN_BYTE_ARRAY"]
CONVERTED = ["UTF8", "MAP", "MAP_KEY_VALUE", "LIST", "ENUM", "DECIMAL", "DATE", "TIME_MILLIS",
             "TIME_MICROS", "TIMESTAMP_MILLIS", "TIMESTAMP_MICROS", "UINT_8", "UINT_16",
             "UINT_32", "UINT_64", "INT_8", "INT_16", "INT_32", "INT_64", "JSON", "BSON",
             "INTERVAL"]
UNITS = {1: "MILLIS", 2: "MICROS", 3: "NANOS"}
PER_SECOND = {"MILLIS": 10 ** 3, "MICROS": 10 ** 6, "NANOS": 10 ** 9,
              "s": 1, "ms": 10 ** 3, "us": 10 ** 6, "ns": 10 ** 9}
REQUIRED, OPTIONAL, REPEATED = 0, 1, 2


class Node:
    """One schema element. `logical` is a tuple: ("STRING",), ("DECIMAL", p, s),
    ("TIMESTAMP", unit, utc), ("TIME", unit, utc), ("INTEGER", bits, signed), ... or None."""

    def __init__(self, el, path):
        self.name = el.get(4, "")
        self.physical = PHYSICAL[el[1]] if 1 in el and 0 <= el[1] < len(PHYSICAL) else None
        self.type_length = el.get(2)
        self.repetition = el.get(3, REQUIRED)
        self.converted = (CONVERTED[el[6]] if 6 in el and 0 <= el[6] < len(CONVERTED)
                          else None)
        self.scale = el.get(7, 0)
        self.precision = el.get(8)
        self.field_id = el.get(9)
        self.logical = _logical(el.get(10))
        self.children = []
        self.path = path  # tuple of names from the root's children down

    @property
    def is_group(self):
        return self.physical is None

    def dotted(self):
        return ".".join(self.path)

    def leaves(self):
        if not self.is_group:
            return [self]
        out = []
        for c in self.children:
            out.extend(c.leaves())
        return out


def _logical(u):
    if u is None:
        return None
    fid, f = u
    simple = {1: "STRING", 2: "MAP", 3: "LIST", 4: "ENUM", 6: "DATE", 11: "UNKNOWN",
              12: "JSON", 13: "BSON", 14: "UUID", 15: "FLOAT16", 16: "VARIANT",
              17: "GEOMETRY", 18: "GEOGRAPHY"}
    if fid in simple:
        return (simple[fid],)
    if fid == 5:
        return ("DECIMAL", f.get(2), f.get(1, 0))
    if fid in (7, 8):
        unit = f.get(2)
        unit = UNITS.get(unit[0]) if unit else None
        if unit is None:
            return None
        return ("TIME" if fid == 7 else "TIMESTAMP", unit, bool(f.get(1, False)))
    if fid == 10:
        return ("INTEGER", f.get(1), bool(f.get(2, False)))
    return None  # an annotation we do not know counts as no annotation


def build_tree(elements):
    pos = [0]

    def build(path_prefix, depth):
        if pos[0] >= len(elements):
            raise RowsError("schema: more children announced than elements present")
        el = elements[pos[0]]
        pos[0] += 1
        node = Node(el, path_prefix + ((el.get(4, ""),) if depth > 0 else ()))
        n = el.get(5, 0) if (1 not in el) else 0
        if 1 not in el and depth > 0 and n == 0:
            pass  # empty group
        if depth > 100:
            raise RowsError("schema nesting too deep")
        for _ in range(n):
            node.children.append(build(node.path, depth + 1))
        return node

    root = build((), 0)
    return root


def load_tree(path):
    return build_tree(read_schema_elements(path))


# Effective annotation of a leaf, after the logical/converted fallback.

def leaf_kind(n):
    """Returns a tuple describing how to print the leaf `n`."""
    phys = n.physical
    lt = n.logical
    ct = n.converted
    if lt is None and ct is not None:
        lt = {
            "UTF8": ("STRING",), "ENUM": ("ENUM",), "JSON": ("JSON",), "BSON": ("BSON",),
            "DATE": ("DATE",), "DECIMAL": ("DECIMAL", n.precision, n.scale),
            "TIME_MILLIS": ("TIME", "MILLIS", True), "TIME_MICROS": ("TIME", "MICROS", True),
            "TIMESTAMP_MILLIS": ("TIMESTAMP", "MILLIS", True),
            "TIMESTAMP_MICROS": ("TIMESTAMP", "MICROS", True),
            "UINT_8": ("INTEGER", 8, False), "UINT_16": ("INTEGER", 16, False),
            "UINT_32": ("INTEGER", 32, False), "UINT_64": ("INTEGER", 64, False),
            "INT_8": ("INTEGER", 8, True), "INT_16": ("INTEGER", 16, True),
            "INT_32": ("INTEGER", 32, True), "INT_64": ("INTEGER", 64, True),
            "INTERVAL": ("INTERVAL",),
        }.get(ct)
    name = lt[0] if lt else None
    if name == "UNKNOWN":
        return ("null",)
    if phys == "BOOLEAN":
        return ("bool",)
    if phys in ("INT32", "INT64"):
        bits = 32 if phys == "INT32" else 64
        if name == "INTEGER":
            return ("int", bits, lt[2])
        if name == "DECIMAL":
            return ("decimal", lt[2])
        if name == "DATE" and phys == "INT32":
            return ("date",)
        if name == "TIME" and (phys == "INT32") == (lt[1] == "MILLIS"):
            return ("time", lt[1])
        if name == "TIMESTAMP" and phys == "INT64":
            return ("timestamp", lt[1], lt[2])
        return ("int", bits, True)
    if phys == "INT96":
        return ("int96",)
    if phys == "FLOAT":
        return ("float32",)
    if phys == "DOUBLE":
        return ("float64",)
    if phys in ("BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"):
        if name in ("STRING", "ENUM", "JSON"):
            return ("string",)
        if name == "DECIMAL":
            return ("decimal", lt[2])
        if phys == "FIXED_LEN_BYTE_ARRAY":
            if name == "UUID" and n.type_length == 16:
                return ("uuid",)
            if name == "FLOAT16" and n.type_length == 2:
                return ("float16",)
            if name == "INTERVAL" and n.type_length == 12:
                return ("interval",)
        return ("binary",)
    raise RowsError("column %s: unknown physical type" % n.dotted())


# ---------------------------------------------------------------------------------------------
# Shapes: how a node maps to JSON (LIST / MAP resolution per LogicalTypes.md)
# ---------------------------------------------------------------------------------------------
# ("leaf", node) | ("struct", node, [(name, index, shape)]) | ("list", node, elem_shape)
# | ("map", node, key_shape, value_shape or None)

def _annot(n):
    if n.logical and n.logical[0] in ("LIST", "MAP"):
        return n.logical[0]
    if n.converted in ("LIST", "MAP", "MAP_KEY_VALUE"):
        return "MAP" if n.converted == "MAP_KEY_VALUE" else n.converted
    return None


def shape_of(n):
    """Shape of node n as it appears in its parent (a repeated node becomes an array)."""
    if n.repetition == REPEATED:
        return ("list", n, single_shape(n))
    return single_shape(n)


def single_shape(n):
    if not n.is_group:
        return ("leaf", n)
    a = _annot(n)
    if a == "LIST" and len(n.children) == 1 and n.children[0].repetition == REPEATED:
        r = n.children[0]
        if (not r.is_group or len(r.children) != 1 or r.name == "array"
                or r.name == n.name + "_tuple"):
            return ("list", n, single_shape(r))
        return ("list", n, shape_of(r.children[0]))
    if (a == "MAP" and len(n.children) == 1 and n.children[0].repetition == REPEATED
            and n.children[0].is_group and 1 <= len(n.children[0].children) <= 2):
        kv = n.children[0]
        key = shape_of(kv.children[0])
        value = shape_of(kv.children[1]) if len(kv.children) == 2 else None
        return ("map", n, key, value)
    return ("struct", n, [(c.name, i, shape_of(c)) for i, c in enumerate(n.children)])


def shape_nodes(shape):
    """All schema nodes that a shape covers (for selection)."""
    return shape[1].leaves()


def select(root_shape, columns):
    """Prunes the root struct shape to the leaves named by `columns` (json-mapping.md)."""
    root = root_shape[1]
    by_path = {}

    def index(n):
        by_path.setdefault(n.dotted(), n)
        for c in n.children:
            index(c)

    for c in root.children:
        index(c)
    wanted = set()
    for name in columns:
        name = name.strip()
        if name not in by_path:
            raise RowsError("--columns: no column or group named %r" % name)
        for leaf in by_path[name].leaves():
            wanted.add(id(leaf))

    def has(shape):
        return any(id(x) in wanted for x in shape[1].leaves())

    def prune(shape):
        kind = shape[0]
        if kind == "leaf" or kind == "map":
            return shape  # a MAP is kept whole
        if kind == "list":
            return ("list", shape[1], prune(shape[2]))
        kids = [(nm, i, prune(s)) for nm, i, s in shape[2] if has(s)]
        return ("struct", shape[1], kids)

    return prune(root_shape)


# ---------------------------------------------------------------------------------------------
# Value formatting
# ---------------------------------------------------------------------------------------------

def civil_from_days(z):
    """Proleptic Gregorian (year, month, day) of days since 1970-01-01, any integer."""
    z += 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    y = yoe + era * 400
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    return (y + 1 if m <= 2 else y), m, d


def fmt_year(y):
    if 0 <= y <= 9999:
        return "%04d" % y
    if y > 9999:
        return "+%d" % y
    return "-%04d" % (-y)


def fmt_date(days):
    y, m, d = civil_from_days(days)
    return "%s-%02d-%02d" % (fmt_year(y), m, d)


FRAC_DIGITS = {"MILLIS": 3, "MICROS": 6, "NANOS": 9}


def fmt_time(v, unit, what):
    per = PER_SECOND[unit]
    if v < 0 or v > 86400 * per:
        raise RowsError("%s: TIME value %d outside 00:00..24:00" % (what, v))
    secs, frac = divmod(v, per)
    h, rem = divmod(secs, 3600)
    mi, s = divmod(rem, 60)
    return "%02d:%02d:%02d.%0*d" % (h, mi, s, FRAC_DIGITS[unit], frac)


def fmt_timestamp(v, unit, utc):
    per = PER_SECOND[unit]
    secs, frac = divmod(v, per)
    days, sod = divmod(secs, 86400)
    h, rem = divmod(sod, 3600)
    mi, s = divmod(rem, 60)
    return "%sT%02d:%02d:%02d.%0*d%s" % (fmt_date(days), h, mi, s, FRAC_DIGITS[unit], frac,
                                         "Z" if utc else "")


def fmt_decimal(unscaled, scale):
    neg = unscaled < 0
    digits = str(-unscaled if neg else unscaled)
    if scale > 0:
        digits = digits.rjust(scale + 1, "0")
        digits = digits[:-scale] + "." + digits[-scale:]
    return ("-" if neg else "") + digits


def fmt_uuid(b):
    h = b.hex()
    return "%s-%s-%s-%s-%s" % (h[0:8], h[8:12], h[12:16], h[16:20], h[20:32])


def float_special(x):
    if x != x:
        return "NaN"
    if x == float("inf"):
        return "Infinity"
    if x == float("-inf"):
        return "-Infinity"
    return None


def _f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def _f32_from_bits(b):
    return struct.unpack("<f", struct.pack("<I", b))[0]


def f32_value(x):
    """The JSON value of an f32 (given as the Python float holding it exactly)."""
    sp = float_special(x)
    if sp:
        return sp
    if x == 0.0:
        return x  # 0.0 or -0.0
    neg = x < 0
    ax = -x if neg else x
    bits = _f32_bits(ax)
    fx = Fraction(ax)
    lower = Fraction(_f32_from_bits(bits - 1)) if bits > 1 else Fraction(0)
    if bits == 1:
        lower = Fraction(0)
    if bits + 1 >= 0x7F800000:
        upper = fx + (fx - Fraction(_f32_from_bits(bits - 1)))  # as if the next power went on
    else:
        upper = Fraction(_f32_from_bits(bits + 1))
    lo_b = (fx + lower) / 2
    hi_b = (fx + upper) / 2
    even = (bits & 1) == 0

    def inside(c):
        return (lo_b <= c <= hi_b) if even else (lo_b < c < hi_b)

    e = Decimal(ax).adjusted()  # 10^e <= ax < 10^(e+1)
    for p in range(1, 18):
        k = e - p + 1
        q = Fraction(10) ** k
        m = int(fx / q)  # floor, fx > 0
        cands = []
        for mm in (m, m + 1):
            c = mm * q
            if inside(c):
                cands.append((abs(c - fx), mm % 2, mm))
        if cands:
            cands.sort()
            mm = cands[0][2]
            s = "%de%d" % (mm, k)
            out = float(s)
            return -out if neg else out
    raise AssertionError("no shortest form for f32 %r" % x)


def f64_value(x):
    sp = float_special(x)
    return sp if sp else x


def half_to_float(bits):
    return struct.unpack("<e", struct.pack("<H", bits))[0]


# ---------------------------------------------------------------------------------------------
# Arrow -> JSON values
# ---------------------------------------------------------------------------------------------

def _unwrap(arr):
    if arr is None:
        return None
    while True:
        if isinstance(arr, pa.DictionaryArray):
            # Slots under a null parent may hold any index (even into an empty dictionary).
            d = arr.dictionary
            if len(d) == 0:
                arr = pa.nulls(len(arr), d.type)
            else:
                idx = arr.indices
                ok = pc.and_(pc.greater_equal(idx, 0), pc.less(idx, len(d)))
                arr = d.take(pc.if_else(ok, idx, pa.scalar(0, idx.type)))
        elif isinstance(arr, pa.ExtensionArray):
            arr = arr.storage
        else:
            return arr


def _ints(arr):
    """Raw integers of an integer-like arrow array (None for nulls)."""
    t = arr.type
    if pa.types.is_integer(t):
        return arr.to_pylist()
    if pa.types.is_date64(t):
        arr = arr.cast(pa.date32())
        t = arr.type
    if pa.types.is_date32(t) or pa.types.is_time32(t):
        return arr.view(pa.int32()).to_pylist()
    if (pa.types.is_timestamp(t) or pa.types.is_time64(t) or pa.types.is_duration(t)
            or pa.types.is_date64(t)):
        return arr.view(pa.int64()).to_pylist()
    if pa.types.is_boolean(t):
        return [None if v is None else int(v) for v in arr.to_pylist()]
    if pa.types.is_decimal(t):
        return [None if v is None else _unscaled(v, t.scale) for v in arr.to_pylist()]
    raise RowsError("cannot read integers from arrow type %s" % t)


def _bytes(arr):
    t = arr.type
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        arr = arr.cast(pa.large_binary())
    return arr.to_pylist()


def _unscaled(d, scale):
    sign, digits, exp = d.as_tuple()
    v = int("".join(map(str, digits)) or "0")
    shift = exp + scale
    if shift >= 0:
        v *= 10 ** shift
    else:
        q, r = divmod(v, 10 ** (-shift))
        if r:
            raise RowsError("decimal %s has more digits than its scale" % d)
        v = q
    return -v if sign else v


def _unit_scale(vals, from_per, to_per, what):
    out = []
    for v in vals:
        if v is None:
            out.append(None)
        elif to_per >= from_per:
            out.append(v * (to_per // from_per))
        else:
            q, r = divmod(v, from_per // to_per)
            if r:
                raise RowsError("%s: value %d is finer than the Parquet unit" % (what, v))
            out.append(q)
    return out


# Instant of Julian day 2^31 (pyarrow's reading of a negative i32 day as u32 starts there).
_INT96_U32_LIMIT_NS = ((1 << 31) - 2440588) * 86400 * 10 ** 9


def convert_leaf(node, arr, arr2=None):
    """JSON values of a leaf column array. arr2: the same column read with INT96 unit 's'."""
    kind = leaf_kind(node)
    k = kind[0]
    what = "column " + node.dotted()
    arr = _unwrap(arr)
    t = arr.type
    if k == "null":
        return [None] * len(arr)
    if k == "bool":
        return arr.to_pylist()
    if k == "int":
        bits, signed = kind[1], kind[2]
        out = []
        for v in _ints(arr):
            if v is not None:
                v %= 1 << bits
                if signed and v >= 1 << (bits - 1):
                    v -= 1 << bits
            out.append(v)
        return out
    if k == "float32":
        return [None if v is None else f32_value(v) for v in arr.to_pylist()]
    if k == "float64":
        return [None if v is None else f64_value(v) for v in arr.to_pylist()]
    if k == "float16":
        if pa.types.is_float16(t):
            hb = arr.view(pa.uint16()).to_pylist()
        else:
            hb = [None if b is None else struct.unpack("<H", b)[0] for b in _bytes(arr)]
        return [None if b is None else f32_value(half_to_float(b)) for b in hb]
    if k == "string":
        out = []
        for b in _bytes(arr):
            if b is None:
                out.append(None)
            else:
                try:
                    out.append(b.decode("utf-8"))
                except UnicodeDecodeError as e:
                    raise RowsError("%s: invalid UTF-8 (%s)" % (what, e))
        return out
    if k == "uuid":
        return [None if b is None else fmt_uuid(b) for b in _bytes(arr)]
    if k == "binary":
        return [None if b is None else base64.b64encode(b).decode("ascii") for b in _bytes(arr)]
    if k == "interval":
        if t == pa.month_day_nano_interval():
            return [None if v is None else {"months": v.months, "days": v.days,
                                            "millis": v.nanoseconds // 10 ** 6}
                    for v in arr.to_pylist()]
        out = []
        for b in _bytes(arr):
            if b is None:
                out.append(None)
            else:
                mo, d, ms = struct.unpack("<III", b)
                out.append({"months": mo, "days": d, "millis": ms})
        return out
    if k == "decimal":
        scale = kind[1]
        if pa.types.is_decimal(t):
            vals = [None if v is None else _unscaled(v, scale) for v in arr.to_pylist()]
        elif pa.types.is_integer(t):
            vals = arr.to_pylist()
        else:
            vals = [None if b is None else int.from_bytes(b, "big", signed=True)
                    for b in _bytes(arr)]
        return [None if v is None else fmt_decimal(v, scale) for v in vals]
    if k == "date":
        if pa.types.is_date64(t):
            arr = arr.cast(pa.date32())
        return [None if v is None else fmt_date(v) for v in _ints(arr)]
    if k == "time":
        unit = kind[1]
        vals = _ints(arr)
        if pa.types.is_time32(t) or pa.types.is_time64(t):
            vals = _unit_scale(vals, PER_SECOND[t.unit], PER_SECOND[unit], what)
        return [None if v is None else fmt_time(v, unit, what) for v in vals]
    if k == "timestamp":
        unit, utc = kind[1], kind[2]
        vals = _ints(arr)
        if pa.types.is_timestamp(t):
            vals = _unit_scale(vals, PER_SECOND[t.unit], PER_SECOND[unit], what)
        return [None if v is None else fmt_timestamp(v, unit, utc) for v in vals]
    if k == "int96":
        vals = _ints(arr)
        if pa.types.is_timestamp(t):
            if arr2 is not None:
                # arr holds the instant in ns modulo 2^64 (pyarrow wraps); arr2 holds exact
                # seconds. Recombine: ns = s * 1e9 + d with the small d known modulo 2^64.
                secs = _ints(_unwrap(arr2))
                per2 = PER_SECOND[_unwrap(arr2).type.unit]
                per = PER_SECOND[t.unit]
                out = []
                for w, s in zip(vals, secs):
                    if w is None:
                        out.append(None)
                        continue
                    base = s * (per // per2)
                    d = (w - base) % (1 << 64)
                    if d >= 1 << 63:
                        d -= 1 << 64
                    ns = (base + d) * (10 ** 9 // per)
                    # pyarrow reads the Julian day as u32; the contract says i32.
                    if ns >= _INT96_U32_LIMIT_NS:
                        ns -= (1 << 32) * 86400 * 10 ** 9
                    out.append(ns)
                vals = out
            else:
                vals = _unit_scale(vals, PER_SECOND[t.unit], 10 ** 9, what)
        return [None if v is None else fmt_timestamp(v, "NANOS", False) for v in vals]
    raise RowsError("%s: unhandled kind %s" % (what, k))


def _struct_field(arr, i):
    return arr.field(i)


def _list_parts(arr):
    """(offsets list, values array) of a list-like array, honouring its slice offset."""
    t = arr.type
    if pa.types.is_fixed_size_list(t):
        n = t.list_size
        offs = [i * n for i in range(len(arr) + 1)]
        return offs, arr.values.slice(arr.offset * n, len(arr) * n)
    if pa.types.is_list_view(t) or pa.types.is_large_list_view(t):
        arr = arr.cast(pa.large_list(t.value_type))
    return arr.offsets.to_pylist(), arr.values


def convert(shape, arr, arr2=None):
    """JSON values, one per slot of arr, of the nodes covered by shape."""
    kind = shape[0]
    if kind == "leaf":
        return convert_leaf(shape[1], arr, arr2)
    arr = _unwrap(arr)
    arr2 = _unwrap(arr2)
    valid = arr.is_valid().to_pylist()
    if kind == "struct":
        cols = []
        for name, i, s in shape[2]:
            cols.append((name, convert(s, _struct_field(arr, i),
                                       None if arr2 is None else _struct_field(arr2, i))))
        out = []
        for r, ok in enumerate(valid):
            out.append({name: vals[r] for name, vals in cols} if ok else None)
        return out
    # list or map
    offs, values = _list_parts(arr)
    values2 = None if arr2 is None else _list_parts(arr2)[1]
    if kind == "list":
        elems = convert(shape[2], values, values2)
    else:
        values = _unwrap(values)
        values2 = _unwrap(values2)
        if pa.types.is_struct(values.type):
            keys = convert(shape[2], values.field(0),
                           None if values2 is None else values2.field(0))
            if shape[3] is not None:
                vals = convert(shape[3], values.field(1),
                               None if values2 is None else values2.field(1))
            else:
                vals = [None] * len(keys)
        else:  # a map without a value field reads as a list of keys
            keys = convert(shape[2], values, values2)
            vals = [None] * len(keys)
        elems = [{"key": k, "value": v} for k, v in zip(keys, vals)]
    out = []
    for r, ok in enumerate(valid):
        out.append(elems[offs[r]:offs[r + 1]] if ok else None)
    return out


def rows_of_table(root_shape, table, table2=None):
    """Yields row dicts of an arrow table (or record batch) whose columns are the root's
    children in order (as pyarrow reads them)."""
    cols = []
    for name, i, s in root_shape[2]:
        c = table.column(i)
        c2 = None if table2 is None else table2.column(i)
        chunks = c.chunks if isinstance(c, pa.ChunkedArray) else [c]
        chunks2 = (c2.chunks if isinstance(c2, pa.ChunkedArray) else [c2]) if c2 is not None \
            else [None] * len(chunks)
        if len(chunks) != len(chunks2):
            a = pa.concat_arrays(chunks) if chunks else pa.array([], c.type)
            b = pa.concat_arrays(chunks2) if chunks2 else pa.array([], c2.type)
            chunks, chunks2 = [a], [b]
        vals = []
        for a, b in zip(chunks, chunks2):
            vals.extend(convert(s, a, b))
        cols.append((name, vals))
    for r in range(table.num_rows):
        yield {name: vals[r] for name, vals in cols}


def has_int96(root):
    return any(l.physical == "INT96" for l in root.leaves())


def file_lines(path, columns=None, batch_size=4096):
    """Yields the canonical lines (no newline) of a Parquet file, read by pyarrow."""
    root = load_tree(path)
    shape = single_shape(root)
    if shape[0] != "struct":
        raise RowsError("root is not a plain group")
    if columns:
        shape = select(shape, columns)
    pf = pq.ParquetFile(path, coerce_int96_timestamp_unit="ns")
    if len(pf.schema_arrow) != len(root.children):
        raise RowsError("pyarrow sees %d top-level fields, the footer %d"
                        % (len(pf.schema_arrow), len(root.children)))
    pf2 = None
    if has_int96(root):
        pf2 = pq.ParquetFile(path, coerce_int96_timestamp_unit="s")
    # One row group at a time: a batch spanning row groups can come back chunked, which
    # pyarrow cannot do for nested dictionary columns.
    for rg in range(pf.metadata.num_row_groups):
        it1 = pf.iter_batches(batch_size=batch_size, row_groups=[rg])
        it2 = None if pf2 is None else pf2.iter_batches(batch_size=batch_size, row_groups=[rg])
        n = 0
        for b in it1:
            b2 = next(it2) if it2 is not None else None
            n += b.num_rows
            for row in rows_of_table(shape, b, b2):
                yield dumps_row(row)
        # Seen with pyarrow 26 (bad_data/ARROW-GH-41317): a damaged row group can come back
        # with no batches at all instead of an error.
        want = pf.metadata.row_group(rg).num_rows
        if n != want:
            raise RowsError("row group %d: pyarrow returned %d rows, the footer says %d"
                            % (rg, n, want))


# ---------------------------------------------------------------------------------------------
# Schema text in parquet-java's MessageType.toString() grammar
# ---------------------------------------------------------------------------------------------

def _annotation_text(n):
    lt = n.logical
    if lt is not None:
        k = lt[0]
        if k == "DECIMAL":
            return "DECIMAL(%d,%d)" % (lt[1], lt[2])
        if k in ("TIME", "TIMESTAMP"):
            return "%s(%s,%s)" % (k, lt[1], "true" if lt[2] else "false")
        if k == "INTEGER":
            return "INTEGER(%d,%s)" % (lt[1], "true" if lt[2] else "false")
        return k
    ct = n.converted
    if ct is None:
        return None
    if ct == "DECIMAL":
        return "DECIMAL(%d,%d)" % (n.precision, n.scale)
    return ct


def schema_text(root):
    lines = ["message %s {" % (root.name or "schema")]
    rep = {REQUIRED: "required", OPTIONAL: "optional", REPEATED: "repeated"}

    def emit(n, ind):
        a = _annotation_text(n)
        suffix = (" (%s)" % a if a else "") + (" = %d" % n.field_id
                                               if n.field_id is not None else "")
        if n.is_group:
            lines.append("%s%s group %s%s {" % (ind, rep[n.repetition], n.name, suffix))
            for c in n.children:
                emit(c, ind + "  ")
            lines.append("%s}" % ind)
        else:
            ty = n.physical.lower()
            if n.physical == "FIXED_LEN_BYTE_ARRAY":
                ty = "fixed_len_byte_array(%d)" % n.type_length
            elif n.physical == "BYTE_ARRAY":
                ty = "binary"
            lines.append("%s%s %s %s%s;" % (ind, rep[n.repetition], ty, n.name, suffix))

    for c in root.children:
        emit(c, "  ")
    lines.append("}")
    return "\n".join(lines) + "\n"
