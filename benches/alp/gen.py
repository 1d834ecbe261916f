"""The taxi table's DOUBLE columns (benches/gen.py, same seed), PLAIN, uncompressed.

Usage: python3 benches/alp/gen.py SCALE OUT   (SCALE multiplies the 2.5M rows, as gen.py's --scale)
"""
import os
import sys

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import gen  # noqa: E402

make, rows, seed = gen.TABLES["taxi"]
n = max(1, int(rows * float(sys.argv[1])))
table = make(np.random.default_rng(seed), n)
doubles = table.select([f.name for f in table.schema if pa.types.is_float64(f.type)])
pq.write_table(doubles, sys.argv[2], use_dictionary=False, compression="none")
print(n, "rows:", ", ".join(doubles.column_names))
