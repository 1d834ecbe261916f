#!/usr/bin/env python3
"""Generates the size-comparison datasets, writes them with pyarrow, and dumps the raw data
for tests/write_sizes.rs to write with parket. usage: sizes.py OUTDIR

Raw dumps: NAME.i64 / NAME.f64 / NAME.i32 (little-endian arrays), NAME.str (u32 LE length +
bytes per value), NAME.off (i32 LE list offsets, n + 1). pyarrow options: SNAPPY, dictionary
on, V1 pages, page index on, page checksums on (parket's defaults)."""
import os
import sys

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(7)


def write(name, table):
    for codec, suffix in [("snappy", ""), ("none", ".none")]:
        pq.write_table(table, os.path.join(out, name + suffix + ".pyarrow.parquet"),
                       compression=codec, use_dictionary=True, data_page_version="1.0",
                       write_page_index=True, write_page_checksum=True)


ints = (rng.integers(0, 1000, 1_000_000) * 7919).astype(np.int64)
ints.tofile(os.path.join(out, "ints.i64"))
write("ints", pa.table({"x": ints}))

seq = np.arange(1_000_000, dtype=np.int64) * 3 + rng.integers(0, 3, 1_000_000)
seq.tofile(os.path.join(out, "seq.i64"))
write("seq", pa.table({"x": seq}))

doubles = rng.normal(0, 1e6, 500_000)
doubles.tofile(os.path.join(out, "doubles.f64"))
write("doubles", pa.table({"x": doubles}))

words = ["".join(chr(97 + c) for c in rng.integers(0, 26, rng.integers(3, 15)))
         for _ in range(5000)]
strs = [words[i] for i in rng.integers(0, 5000, 300_000)]
with open(os.path.join(out, "strings.str"), "wb") as f:
    for s in strs:
        b = s.encode()
        f.write(len(b).to_bytes(4, "little") + b)
write("strings", pa.table({"x": pa.array(strs, pa.string())}))

uniq = [f"user-{i:08d}-{int(v)}" for i, v in enumerate(rng.integers(0, 1 << 40, 200_000))]
with open(os.path.join(out, "unique.str"), "wb") as f:
    for s in uniq:
        b = s.encode()
        f.write(len(b).to_bytes(4, "little") + b)
write("unique", pa.table({"x": pa.array(uniq, pa.string())}))

lens = rng.integers(0, 6, 200_000)
offsets = np.concatenate([[0], np.cumsum(lens)]).astype(np.int32)
vals = rng.integers(0, 100_000, int(offsets[-1])).astype(np.int32)
offsets.tofile(os.path.join(out, "nested.off"))
vals.tofile(os.path.join(out, "nested.i32"))
write("nested", pa.table({"x": pa.ListArray.from_arrays(pa.array(offsets), pa.array(vals))}))
