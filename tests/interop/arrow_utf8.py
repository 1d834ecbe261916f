#!/usr/bin/env python3
"""arrow_utf8.py OUT_DIR: Parquet files whose string column `s` holds invalid UTF-8 (or valid
UTF-8 cut in unusual places), one per encoding, written by pyarrow from arrays built without
its checks (`Array.from_buffers`). For each NAME.parquet prints `NAME accepted` and writes
NAME.arrow (the table pyarrow reads back, checked in full) when pyarrow reads it, else
`NAME rejected`. tests/arrow_interop.rs (`strings_are_checked_as_utf8`) reads them with
parket's BatchReader: the same table, or an error naming the column, row group and page.
"""
import os
import sys

import pyarrow as pa
import pyarrow.parquet as pq


def strings(values, typ):
    """An Arrow string array of the byte strings `values`, not checked as UTF-8."""
    if typ == pa.string_view():
        return strings(values, pa.string()).cast(typ)
    offsets = [0]
    for v in values:
        offsets.append(offsets[-1] + len(v))
    width = pa.int64() if typ == pa.large_string() else pa.int32()
    offs = pa.array(offsets, width).buffers()[1]
    return pa.Array.from_buffers(typ, len(values), [None, offs, pa.py_buffer(b"".join(values))])


# "é" is C3 A9 and "ê" C3 AA: DELTA_BYTE_ARRAY stores "ê" after "é" as the prefix C3 (1 byte)
# and the suffix AA, neither valid UTF-8 alone.
GOOD = ["é".encode(), "ê".encode(), b"ab", "aé".encode(), "aê".encode(), "😀".encode()] * 50
# A dictionary page of 1,024 bytes or more is read in place (entries longer than 127 bytes
# have a length prefix that is not ASCII).
LONG = [("é" * 70 + str(i)).encode() for i in range(20)] + [b"x" * 200]
PLAIN = {"use_dictionary": False}
DBA = {"use_dictionary": False, "column_encoding": {"s": "DELTA_BYTE_ARRAY"}}
DLBA = {"use_dictionary": False, "column_encoding": {"s": "DELTA_LENGTH_BYTE_ARRAY"}}
DICT = {"use_dictionary": True}

CASES = [
    # (name, values, writer options, Arrow type)
    ("dict_ok", GOOD, DICT, pa.string()),
    ("dict_bad", GOOD + [b"\xc3"], DICT, pa.string()),
    ("dict_long_ok", LONG * 3, DICT, pa.string()),
    ("dict_long_bad", LONG * 3 + [b"\xff" * 130], DICT, pa.string()),
    ("plain_ok", GOOD, PLAIN, pa.string()),
    # A value that ends in half a char, and the next that starts with the other half: their
    # bytes together are valid UTF-8.
    ("plain_bad", GOOD + [b"a\xc3", b"\xa9b"], PLAIN, pa.string()),
    ("plain_large_bad", GOOD + [b"\xe2\x82"], PLAIN, pa.large_string()),
    ("plain_view_bad", GOOD + [b"\xed\xa0\x80"], PLAIN, pa.string_view()),
    ("dba_cut", GOOD, DBA, pa.string()),
    ("dba_cut_large", GOOD, DBA, pa.large_string()),
    ("dba_bad", GOOD + ["é".encode(), b"\xc3\x28"], DBA, pa.string()),
    ("dlba_bad", GOOD + [b"\xc3", b"\xa9"], DLBA, pa.string()),
]


def main(out):
    os.makedirs(out, exist_ok=True)
    for name, values, options, typ in CASES:
        path = os.path.join(out, name + ".parquet")
        t = pa.table({"s": strings(values, typ)})
        pq.write_table(t, path, data_page_size=256, write_batch_size=16, **options)
        try:
            back = pq.read_table(path)
            back.validate(full=True)
        except pa.ArrowInvalid:
            print(name, "rejected")
            continue
        back = back.combine_chunks()
        with pa.ipc.new_file(os.path.join(out, name + ".arrow"), back.schema) as w:
            w.write_table(back)
        print(name, "accepted")


if __name__ == "__main__":
    main(sys.argv[1])
