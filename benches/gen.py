#!/usr/bin/env python3
"""Writes the benchmark data sets: three tables, each in seven Parquet configurations.

    python3 benches/gen.py [--out benches/data] [--scale 1.0] [--only taxi,strings,nested]

Deterministic: every table comes from numpy's default_rng with a fixed seed per table, so the
same pyarrow version (benches/requirements.txt pins it) writes the same bytes.

Tables (row counts at --scale 1.0):
  taxi     2,500,000 rows, 24 mostly numeric columns shaped like the NYC yellow taxi table.
  strings  1,000,000 rows: a column drawn uniformly from 10,000 distinct strings, a
           high-cardinality column of random 8-40 character strings, a UUID-like column.
  nested   150,000 records: name, category, country, type strings and a list of 0-60
           attribute structs {id string, quantity int8, amount int32, active bool,
           percent double, size int16}.

Configurations (file name benches/data/{table}-{config}.parquet):
  v1-dict-none, v1-dict-snappy, v1-dict-zstd   data page V1, dictionary on, codec none /
  v2-dict-none, v2-dict-snappy, v2-dict-zstd   SNAPPY / ZSTD level 3; the same with data page V2
  v2-plain-delta   data page V2, dictionary off, uncompressed (so the timing is the encoding's
                   alone); DELTA_BINARY_PACKED for every integer column (INT32/INT64, which
                   includes timestamps, int8 and int16), DELTA_BYTE_ARRAY for every string
                   column; floating point and boolean columns keep pyarrow's default (PLAIN).

Everything else is pyarrow's default: format version 2.6, row groups of 1 Mi rows, 1 MiB data
pages, 1 MiB dictionary page limit (a column whose dictionary outgrows it falls back to PLAIN),
chunk statistics, no page index, the Arrow schema stored in the footer.
"""

import argparse
import os
import sys

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

CONFIGS = {
    "v1-dict-none": dict(data_page_version="1.0", use_dictionary=True, compression="none"),
    "v1-dict-snappy": dict(data_page_version="1.0", use_dictionary=True, compression="snappy"),
    "v1-dict-zstd": dict(
        data_page_version="1.0", use_dictionary=True, compression="zstd", compression_level=3
    ),
    "v2-dict-none": dict(data_page_version="2.0", use_dictionary=True, compression="none"),
    "v2-dict-snappy": dict(data_page_version="2.0", use_dictionary=True, compression="snappy"),
    "v2-dict-zstd": dict(
        data_page_version="2.0", use_dictionary=True, compression="zstd", compression_level=3
    ),
    "v2-plain-delta": dict(data_page_version="2.0", use_dictionary=False, compression="none"),
}

ALNUM = np.frombuffer(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", np.uint8)
HEX = np.frombuffer(b"0123456789abcdef", np.uint8)


def random_strings(rng, n, min_len, max_len, alphabet=ALNUM):
    """n random strings with lengths uniform in [min_len, max_len], built as Arrow buffers."""
    lengths = rng.integers(min_len, max_len + 1, size=n, dtype=np.int64)
    offsets = np.zeros(n + 1, dtype=np.int32)
    np.cumsum(lengths, out=offsets[1:])
    data = alphabet[rng.integers(0, len(alphabet), size=int(offsets[-1]))]
    return pa.StringArray.from_buffers(n, pa.py_buffer(offsets), pa.py_buffer(data.tobytes()))


def vocabulary(rng, n, min_len, max_len, prefix=""):
    """n distinct strings (a random body made unique by a numeric suffix)."""
    body = random_strings(rng, n, min_len, max_len).to_pylist()
    return [f"{prefix}{s}-{i}" for i, s in enumerate(body)]


def taxi(rng, n):
    day_us = 86_400 * 1_000_000
    # Pickups: one month, seconds precision (as in the real data), nearly sorted.
    pickup_s = np.sort(rng.integers(0, 31 * 86_400, size=n))
    jitter = rng.random(n) < 0.01
    pickup_s[jitter] += rng.integers(-600, 600, size=int(jitter.sum()))
    epoch_us = 1_704_067_200 * 1_000_000  # 2024-01-01T00:00:00Z
    pickup = epoch_us + pickup_s.astype(np.int64) * 1_000_000
    duration_s = np.minimum(rng.exponential(900.0, size=n).astype(np.int64) + 60, day_us // 10**6)
    dropoff = pickup + duration_s * 1_000_000

    distance = np.round(rng.gamma(1.6, 2.0, size=n), 2)
    fare = np.round(3.0 + 2.5 * distance + rng.normal(0, 1.5, size=n).clip(-2, 10), 2)
    payment = rng.choice(np.array([0, 1, 2, 3, 4], dtype=np.int32), size=n, p=[0.04, 0.76, 0.17, 0.02, 0.01])
    tip = np.where(payment == 1, np.round(fare * rng.choice([0.0, 0.15, 0.2, 0.25, 0.3], size=n), 2), 0.0)
    extra = rng.choice(np.array([0.0, 0.5, 1.0, 2.5, 3.5]), size=n)
    mta_tax = np.where(rng.random(n) < 0.98, 0.5, 0.0)
    tolls = np.where(rng.random(n) < 0.06, np.round(rng.choice([6.94, 12.75, 17.0], size=n), 2), 0.0)
    improvement = np.full(n, 1.0)
    congestion = np.where(rng.random(n) < 0.9, 2.5, 0.0)
    airport = np.where(rng.random(n) < 0.08, 1.75, 0.0)
    cbd = np.where(rng.random(n) < 0.3, 0.75, 0.0)
    total = np.round(fare + tip + extra + mta_tax + tolls + improvement + congestion + airport + cbd, 2)

    def nulls(p):
        return rng.random(n) < p

    # Rows from the street-hail device feed have no passenger count, rate code, flag or fees.
    feed_null = nulls(0.03)
    boroughs = ["Manhattan", "Queens", "Brooklyn", "Bronx", "Staten Island", "EWR", "Unknown"]
    borough_p = [0.8, 0.1, 0.05, 0.02, 0.005, 0.005, 0.02]
    return pa.table(
        {
            "vendor_id": pa.array(rng.choice(np.array([1, 2, 6], dtype=np.int32), size=n, p=[0.25, 0.74, 0.01])),
            "pickup_datetime": pa.array(pickup, pa.timestamp("us")),
            "dropoff_datetime": pa.array(dropoff, pa.timestamp("us")),
            "passenger_count": pa.array(
                rng.choice(np.arange(0, 7, dtype=np.int32), size=n, p=[0.01, 0.72, 0.15, 0.04, 0.02, 0.03, 0.03]),
                mask=feed_null,
            ),
            "trip_distance": pa.array(distance),
            "rate_code_id": pa.array(
                rng.choice(np.array([1, 2, 3, 4, 5, 99], dtype=np.int32), size=n, p=[0.93, 0.04, 0.005, 0.005, 0.015, 0.005]),
                mask=feed_null,
            ),
            "store_and_fwd_flag": pa.array(
                np.where(rng.random(n) < 0.995, "N", "Y").astype(object), pa.string(), mask=feed_null
            ),
            "pu_location_id": pa.array(rng.integers(1, 266, size=n, dtype=np.int32)),
            "do_location_id": pa.array(rng.integers(1, 266, size=n, dtype=np.int32)),
            "payment_type": pa.array(payment),
            "fare_amount": pa.array(fare),
            "extra": pa.array(extra),
            "mta_tax": pa.array(mta_tax),
            "tip_amount": pa.array(tip),
            "tolls_amount": pa.array(tolls),
            "improvement_surcharge": pa.array(improvement),
            "total_amount": pa.array(total),
            "congestion_surcharge": pa.array(congestion, mask=feed_null),
            "airport_fee": pa.array(airport, mask=feed_null | nulls(0.01)),
            "cbd_congestion_fee": pa.array(cbd),
            "pickup_borough": pa.array(rng.choice(np.array(boroughs, dtype=object), size=n, p=borough_p), pa.string()),
            "dropoff_borough": pa.array(rng.choice(np.array(boroughs, dtype=object), size=n, p=borough_p), pa.string()),
            "trip_duration_s": pa.array(duration_s),
            "trip_type": pa.array(
                rng.choice(np.array([1, 2], dtype=np.int8), size=n, p=[0.97, 0.03]), mask=nulls(0.1)
            ),
        }
    )


def strings(rng, n):
    vocab = pa.array(vocabulary(rng, 10_000, 4, 24))
    category = vocab.take(pa.array(rng.integers(0, len(vocab), size=n)))
    text = random_strings(rng, n, 8, 40)
    # UUID-like: 32 random hex digits as 8-4-4-4-12.
    digits = HEX[rng.integers(0, 16, size=(n, 32))]
    uuid = np.full((n, 36), ord("-"), dtype=np.uint8)
    for src, dst, width in [(0, 0, 8), (8, 9, 4), (12, 14, 4), (16, 19, 4), (20, 24, 12)]:
        uuid[:, dst : dst + width] = digits[:, src : src + width]
    offsets = np.arange(0, 36 * (n + 1), 36, dtype=np.int32)
    uuid = pa.StringArray.from_buffers(n, pa.py_buffer(offsets), pa.py_buffer(uuid.tobytes()))
    return pa.table({"category": category, "text": text, "uuid": uuid})


def nested(rng, n):
    def pick(vocab, size):
        vocab = pa.array(vocab)
        return vocab.take(pa.array(rng.integers(0, len(vocab), size=size)))

    names = pick(vocabulary(rng, 50_000, 5, 20), n)
    category = pick(vocabulary(rng, 40, 4, 12), n)
    country = pick(vocabulary(rng, 200, 4, 14), n)
    kind = pick(["product", "service", "bundle", "subscription", "gift", "other"], n)

    lengths = rng.integers(0, 61, size=n)
    offsets = np.zeros(n + 1, dtype=np.int32)
    np.cumsum(lengths, out=offsets[1:])
    m = int(offsets[-1])
    attrs = pa.StructArray.from_arrays(
        [
            pick(vocabulary(rng, 5_000, 3, 10, prefix="attr-"), m),
            pa.array(rng.integers(-128, 128, size=m, dtype=np.int8)),
            pa.array(rng.integers(0, 100_000, size=m, dtype=np.int32)),
            pa.array(rng.random(m) < 0.7),
            pa.array(np.round(rng.random(m) * 100.0, 2), mask=rng.random(m) < 0.05),
            pa.array(rng.integers(0, 2_000, size=m, dtype=np.int16)),
        ],
        names=["id", "quantity", "amount", "active", "percent", "size"],
    )
    attributes = pa.ListArray.from_arrays(pa.array(offsets), attrs)
    return pa.table(
        {"name": names, "category": category, "country": country, "type": kind, "attributes": attributes}
    )


TABLES = {
    "taxi": (taxi, 2_500_000, 1),
    "strings": (strings, 1_000_000, 2),
    "nested": (nested, 150_000, 3),
}


def delta_encodings(schema):
    """DELTA_BINARY_PACKED for integer leaves, DELTA_BYTE_ARRAY for string leaves, by path."""
    out = {}

    def walk(path, t):
        if pa.types.is_struct(t):
            for i in range(t.num_fields):
                walk(path + [t.field(i).name], t.field(i).type)
        elif pa.types.is_list(t):
            # pyarrow's default (compliant) list layout: <name>.list.element
            walk(path + ["list", "element"], t.value_type)
        elif pa.types.is_integer(t) or pa.types.is_timestamp(t):
            out[".".join(path)] = "DELTA_BINARY_PACKED"
        elif pa.types.is_string(t) or pa.types.is_binary(t):
            out[".".join(path)] = "DELTA_BYTE_ARRAY"

    for field in schema:
        walk([field.name], field.type)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "data"))
    parser.add_argument("--scale", type=float, default=1.0, help="multiplies every row count")
    parser.add_argument("--only", default=",".join(TABLES), help="comma-separated table names")
    args = parser.parse_args()
    if pa.__version__ != "26.0.1":
        print(f"warning: pyarrow {pa.__version__}, the files are pinned to 26.0.1", file=sys.stderr)
    os.makedirs(args.out, exist_ok=True)
    for name in args.only.split(","):
        make, rows, seed = TABLES[name]
        n = max(1, int(rows * args.scale))
        table = make(np.random.default_rng(seed), n)
        for config, options in CONFIGS.items():
            options = dict(options)
            if not options["use_dictionary"]:
                options["column_encoding"] = delta_encodings(table.schema)
            path = os.path.join(args.out, f"{name}-{config}.parquet")
            pq.write_table(table, path, **options)
            print(f"{path}: {n} rows, {os.path.getsize(path)} bytes")


if __name__ == "__main__":
    main()
