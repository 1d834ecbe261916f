"""pyarrow's view of file footers, for tests/cli_meta.rs.

python3 meta.py FILE...  prints one JSON line per file:
{"num_rows": N, "row_groups": [{"num_rows": N, "columns": [[path, physical_type, codec], ...]}]}
or {"error": "..."} when pyarrow cannot open the file. Codec names are pyarrow's.
"""
import json
import sys

import pyarrow.parquet as pq


def describe(path):
    try:
        md = pq.ParquetFile(path).metadata
    except Exception as e:  # noqa: BLE001 - any failure is reported, not raised
        return {"error": f"{type(e).__name__}: {e}"}
    groups = []
    for i in range(md.num_row_groups):
        rg = md.row_group(i)
        cols = []
        for j in range(rg.num_columns):
            c = rg.column(j)
            cols.append([c.path_in_schema, c.physical_type, c.compression])
        groups.append({"num_rows": rg.num_rows, "columns": cols})
    return {"num_rows": md.num_rows, "row_groups": groups}


for p in sys.argv[1:]:
    print(json.dumps(describe(p)))
