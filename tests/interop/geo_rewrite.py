"""pyarrow's GEOMETRY statistics for the same values, for tests/write_geospatial.rs.

python3 geo_rewrite.py IN OUT COLUMN  reads IN (any Parquet file whose COLUMN holds WKB, read
as binary), writes OUT with pyarrow: COLUMN as the `geoarrow.wkb` extension type (which
pyarrow writes as the GEOMETRY logical type, computing GeospatialStatistics), one row group
per row group of IN. Prints one JSON line per row group of OUT: COLUMN's
`geo_statistics.to_dict()`, or null when pyarrow wrote none.
"""
import json
import sys

import pyarrow as pa
import pyarrow.parquet as pq


class Wkb(pa.ExtensionType):
    def __init__(self):
        super().__init__(pa.binary(), "geoarrow.wkb")

    def __arrow_ext_serialize__(self):
        return b"{}"

    @classmethod
    def __arrow_ext_deserialize__(cls, storage_type, serialized):
        return Wkb()


src, dst, column = sys.argv[1:4]
pf = pq.ParquetFile(src)
writer = None
for i in range(pf.metadata.num_row_groups):
    col = pf.read_row_group(i, columns=[column]).column(0).combine_chunks()
    if isinstance(col.type, pa.ExtensionType):
        col = col.storage
    table = pa.table({column: pa.ExtensionArray.from_storage(Wkb(), col.cast(pa.binary()))})
    if writer is None:
        writer = pq.ParquetWriter(dst, table.schema)
    writer.write_table(table, row_group_size=max(1, len(table)))
writer.close()
md = pq.ParquetFile(dst).metadata
for i in range(md.num_row_groups):
    c = md.row_group(i).column(0)
    print(json.dumps(c.geo_statistics.to_dict() if c.is_geo_stats_set else None))
