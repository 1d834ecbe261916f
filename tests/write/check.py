#!/usr/bin/env python3
"""Reads a Parquet file written by parket's writer with pyarrow and checks it against the
values the Rust test says it wrote.

usage: check.py FILE.parquet EXPECTED.json

EXPECTED.json: {"columns": {name: [canonical value per row]}, "page_index": bool,
"bloom": [column names with a bloom filter], "row_groups": n or null}

Canonical values (the Rust test formats the same way): null -> "null"; bool -> "true" /
"false"; integers in decimal; FLOAT / DOUBLE -> "f:" + little-endian bits in hex; bytes and
strings -> "x:" + hex; INT96 -> nanoseconds since the epoch in decimal; a list -> "[" + ",".join
+ "]". Checks: values, row counts, each chunk's statistics (null_count, min, max) against what
pyarrow computes from the row group's data, page index / bloom filter presence. Prints one line
per failure and exits 1 if any.
"""
import json
import math
import struct
import sys

import pyarrow as pa
import pyarrow.parquet as pq


def canon(v, t):
    if v is None:
        return "null"
    if pa.types.is_list(t):
        return "[" + ",".join(canon(x, t.value_type) for x in v) + "]"
    if pa.types.is_boolean(t):
        return "true" if v else "false"
    if pa.types.is_float32(t):
        return "f:" + struct.pack("<f", v).hex()
    if pa.types.is_float64(t):
        return "f:" + struct.pack("<d", v).hex()
    if pa.types.is_timestamp(t):
        return str(v.value)
    if isinstance(v, str):
        return "x:" + v.encode().hex()
    if isinstance(v, bytes):
        return "x:" + v.hex()
    return str(v)


def leaf_values(col):
    """(non-null leaf values, leaf null count) of a flat or list column."""
    vals, nulls = [], 0
    for v in col:
        if isinstance(v, list):
            if not v:
                nulls += 1
            for x in v:
                if x is None:
                    nulls += 1
                else:
                    vals.append(x)
        elif v is None:
            nulls += 1
        else:
            vals.append(v)
    return vals, nulls


def main():
    path, exp_path = sys.argv[1], sys.argv[2]
    exp = json.load(open(exp_path))
    fails = []
    f = pq.ParquetFile(path)
    table = f.read(use_threads=False)
    md = f.metadata
    for name, want in exp["columns"].items():
        col = table.column(name)
        if pa.types.is_timestamp(col.type):
            col = col.cast(pa.int64())
        got = [canon(v, col.type) for v in col.to_pylist()]
        if got != want:
            bad = next(i for i in range(min(len(got), len(want))) if got[i] != want[i]) \
                if len(got) == len(want) else None
            fails.append(f"{name}: values differ (len {len(got)} vs {len(want)}, first at "
                         f"{bad}: {got[bad] if bad is not None else ''} vs "
                         f"{want[bad] if bad is not None else ''})")
    if exp.get("row_groups") is not None and md.num_row_groups != exp["row_groups"]:
        fails.append(f"row groups {md.num_row_groups} != {exp['row_groups']}")
    names = [md.schema.column(j).path.split(".")[0] for j in range(md.num_columns)]
    for i in range(md.num_row_groups):
        rgt = f.read_row_group(i, use_threads=False)
        rg = md.row_group(i)
        for j in range(md.num_columns):
            cm = rg.column(j)
            name = names[j]
            if exp.get("page_index") is not None:
                if cm.has_offset_index != exp["page_index"]:
                    fails.append(f"rg{i} {name}: has_offset_index {cm.has_offset_index}")
            if name in exp.get("bloom", []) and cm.bloom_filter_offset is None:
                fails.append(f"rg{i} {name}: no bloom filter offset")
            st = cm.statistics
            if st is None:
                continue
            c = rgt.column(name)
            t = c.type
            if pa.types.is_timestamp(t):
                c = c.cast(pa.int64())
            vals, nulls = leaf_values(c.to_pylist())
            if st.null_count != nulls:
                fails.append(f"rg{i} {name}: null_count {st.null_count} != {nulls}")
            if pa.types.is_list(t):
                t = t.value_type
            if pa.types.is_timestamp(t):
                if st.has_min_max:
                    fails.append(f"rg{i} {name}: INT96 has min/max")
                continue
            if pa.types.is_floating(t):
                vals = [v for v in vals if not math.isnan(v)]
            if not vals:
                if st.has_min_max:
                    fails.append(f"rg{i} {name}: min/max without values")
                continue
            if not st.has_min_max:
                fails.append(f"rg{i} {name}: no min/max")
                continue
            lo, hi = min(vals), max(vals)
            if st.min != lo or st.max != hi:
                fails.append(f"rg{i} {name}: min/max {st.min!r}/{st.max!r} != {lo!r}/{hi!r}")
            if pa.types.is_floating(t):
                if lo == 0 and math.copysign(1, st.min) > 0:
                    fails.append(f"rg{i} {name}: zero min not written as -0.0")
                if hi == 0 and math.copysign(1, st.max) < 0:
                    fails.append(f"rg{i} {name}: zero max not written as +0.0")
    for line in fails:
        print(line)
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
