"""pyarrow's view of file footers, for tests/cli_meta.rs.

python3 meta.py FILE...  prints one JSON line per file:
{"num_rows": N, "row_groups": [{"num_rows": N, "columns": [[path, physical_type, codec,
  statistics, geo_statistics], ...]}]}
or {"error": "..."} when pyarrow cannot open the file. Codec names are pyarrow's.

`geo_statistics` is null when the chunk has no GeospatialStatistics, else pyarrow's
`GeoStatistics.to_dict()`: {"geospatial_types": [..] or null, "xmin": V or null, ..,
"mmax": V or null}.

`statistics` is null when pyarrow has none for the chunk, else
{"null_count": N or null, "min": V, "max": V} where min/max are null unless pyarrow's
`has_min_max`, and otherwise pyarrow's raw (physical) min/max printed as the JSON row contract
prints a value of that column (jsonrows.convert_leaf), or {"error": "..."} when the contract
refuses the value (e.g. a truncated min that is not UTF-8).
"""
import json
import sys

import pyarrow as pa
import pyarrow.parquet as pq

import jsonrows

ARROW_OF_PHYSICAL = {
    "BOOLEAN": pa.bool_(),
    "INT32": pa.int32(),
    "INT64": pa.int64(),
    "FLOAT": pa.float32(),
    "DOUBLE": pa.float64(),
    "BYTE_ARRAY": pa.binary(),
    "FIXED_LEN_BYTE_ARRAY": pa.binary(),
}


def leaves(node):
    if node.is_group:
        out = []
        for c in node.children:
            out.extend(leaves(c))
        return out
    return [node]


def stat_value(node, raw):
    t = ARROW_OF_PHYSICAL.get(node.physical)
    if t is None:
        return None
    try:
        return jsonrows.convert_leaf(node, pa.array([raw], type=t))[0]
    except jsonrows.RowsError as e:
        return {"error": str(e)}


def statistics(node, s):
    if s is None:
        return None
    out = {"null_count": s.null_count if s.has_null_count else None, "min": None, "max": None}
    if s.has_min_max and node is not None:
        out["min"] = stat_value(node, s.min_raw)
        out["max"] = stat_value(node, s.max_raw)
    return out


def describe(path):
    try:
        md = pq.ParquetFile(path).metadata
    except Exception as e:  # noqa: BLE001 - any failure is reported, not raised
        return {"error": f"{type(e).__name__}: {e}"}
    try:
        nodes = leaves(jsonrows.load_tree(path))
    except Exception:  # noqa: BLE001 - statistics are then not compared
        nodes = []
    groups = []
    for i in range(md.num_row_groups):
        rg = md.row_group(i)
        cols = []
        for j in range(rg.num_columns):
            c = rg.column(j)
            node = nodes[j] if j < len(nodes) else None
            try:
                st = statistics(node, c.statistics)
            except Exception as e:  # noqa: BLE001
                st = {"error": f"{type(e).__name__}: {e}"}
            geo = c.geo_statistics.to_dict() if c.is_geo_stats_set else None
            cols.append([c.path_in_schema, c.physical_type, c.compression, st, geo])
        groups.append({"num_rows": rg.num_rows, "columns": cols})
    return {"num_rows": md.num_rows, "row_groups": groups}


for p in sys.argv[1:]:
    print(json.dumps(describe(p), separators=(",", ":"), ensure_ascii=False))
