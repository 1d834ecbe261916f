#!/bin/sh
# Builds the seed corpus of the `metadata` fuzz target: the footer (FileMetaData bytes) of every
# file of the parquet-testing corpus, plus its first page header (bytes 4..), into
# fuzz/corpus/metadata/.
# Usage: fuzz/seed.sh [parquet-testing dir]   (default: $PARQUET_TEST_DATA or ../shared/parquet-testing)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
data=${1:-${PARQUET_TEST_DATA:-$here/../../shared/parquet-testing}}
out=$here/corpus/metadata
mkdir -p "$out"
n=0
for f in "$data"/data/*.parquet "$data"/data/*/*.parquet "$data"/data/*.encrypted "$data"/data/*/*.encrypted "$data"/bad_data/*.parquet; do
    [ -f "$f" ] || continue
    size=$(wc -c < "$f")
    [ "$size" -ge 12 ] || continue
    # Footer length: the 4 little-endian bytes before the final magic.
    len=$(tail -c 8 "$f" | head -c 4 | od -An -tu4 | tr -d ' ')
    name=$(basename "$f")
    if [ "$len" -le $((size - 12)) ]; then
        tail -c $((len + 8)) "$f" | head -c "$len" > "$out/footer-$name"
    fi
    # The first page header starts right after the leading magic.
    tail -c +5 "$f" | head -c 512 > "$out/page-$name"
    n=$((n + 1))
done
echo "seeded $out from $n files"
