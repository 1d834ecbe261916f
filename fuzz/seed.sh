#!/bin/sh
# Builds the seed corpora of every fuzz target into fuzz/corpus/<target>/ (gitignored):
# - metadata: the footer (FileMetaData bytes) of every file of the parquet-testing corpus, plus
#   its first page header (bytes 4..);
# - file: every file of the corpus, whole; arrow: the unencrypted ones and regressions/arrow/;
#   roundtrip: a few random byte strings;
# - decompress, plain, rle, dictionary, delta, byte_stream_split, alp, page: written by seedgen/ (a small
#   Rust program over parket's public API): hand-made valid streams from parket's encoders, and
#   the pages of the corpus files (compressed bodies; decompressed value and level sections),
#   each prefixed with the bytes its harness reads first.
# Usage: fuzz/seed.sh [parquet-testing dir]   (default: $PARQUET_TEST_DATA or ../shared/parquet-testing)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
data=${1:-${PARQUET_TEST_DATA:-$here/../../shared/parquet-testing}}
# A git worktree one level deeper (/work/wt/<name>) finds the shared corpus one level up.
[ -d "$data" ] || data=$here/../../../shared/parquet-testing
[ -d "$data/data" ] || { echo "no parquet-testing corpus at $data (set PARQUET_TEST_DATA)" >&2; exit 1; }
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

# The decoder targets: seedgen has its own workspace; its build goes under fuzz/target/.
CARGO_TARGET_DIR=$here/target/seedgen cargo build --quiet --release --manifest-path "$here/seedgen/Cargo.toml"
set --
for f in "$data"/data/*.parquet "$data"/data/*/*.parquet; do
    [ -f "$f" ] && set -- "$@" "$f"
done
"$here/target/seedgen/release/parket-fuzz-seedgen" "$here/corpus" "$@"
# file: every corpus file whole (data/ and bad_data/, encrypted ones included).
out=$here/corpus/file
mkdir -p "$out"
for f in "$data"/data/*.parquet "$data"/data/*/*.parquet "$data"/data/*.encrypted "$data"/data/*/*.encrypted "$data"/bad_data/*.parquet; do
    [ -f "$f" ] && cp "$f" "$out/$(basename "$(dirname "$f")")-$(basename "$f")"
done
# arrow: the same files, unencrypted ones only (the harness reads without keys), and the
# hostile string files of regressions/arrow/.
out=$here/corpus/arrow
mkdir -p "$out"
for f in "$data"/data/*.parquet "$data"/data/*/*.parquet "$data"/bad_data/*.parquet "$here"/regressions/arrow/*; do
    [ -f "$f" ] && cp "$f" "$out/$(basename "$(dirname "$f")")-$(basename "$f")"
done
# decrypt: every encrypted corpus file behind the byte that picks its keys (0: 128-bit keys,
# 1: the same with the AAD prefix "tester", 2: the 256-bit keys of data/aes256/).
out=$here/corpus/decrypt
mkdir -p "$out"
for f in "$data"/data/*.encrypted "$data"/data/*/*.encrypted; do
    [ -f "$f" ] || continue
    case "$f" in
        */aes256/*) k='\002' ;;
        *disable_aad_storage*) k='\001' ;;
        *) k='\000' ;;
    esac
    { printf "$k"; cat "$f"; } > "$out/$(basename "$(dirname "$f")")-$(basename "$f")"
done
# roundtrip: the bytes only steer `arbitrary`; a few random inputs start it.
out=$here/corpus/roundtrip
mkdir -p "$out"
for i in 1 2 3 4 5 6 7 8; do
    head -c $((i * 256)) /dev/urandom > "$out/random-$i"
done
for t in "$here"/corpus/*/; do
    echo "  $(basename "$t"): $(ls "$t" | wc -l) seeds"
done
