#!/usr/bin/env python3
"""rows.py FILE [--columns a,b.c]: print a Parquet file's rows, read by pyarrow, as the
canonical JSON Lines of /work/shared/json-mapping.md.

Canonical line form (the Rust side prints byte-identical lines; details in jsonrows.py):

    json.dumps(row, separators=(",", ":"), ensure_ascii=False) + "\\n"

i.e. no spaces, non-ASCII as raw UTF-8, keys in schema order, nulls kept, floats as Python
repr (FLOAT: shortest form that parses back to the same f32), NaN/inf as strings.
Exit 1 with a message on stderr on any error (unreadable file, invalid value).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jsonrows  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("--columns", help="comma-separated dotted leaf or group paths")
    a = ap.parse_args(argv)
    cols = [c for c in a.columns.split(",")] if a.columns else None
    out = sys.stdout.buffer
    try:
        for line in jsonrows.file_lines(a.file, cols):
            out.write(line.encode("utf-8") + b"\n")
    except BrokenPipeError:
        return 0
    except Exception as e:  # pyarrow errors, RowsError, OSError
        out.flush()
        print("rows.py: %s: %s: %s" % (a.file, type(e).__name__, e), file=sys.stderr)
        return 1
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
