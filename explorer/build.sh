#!/usr/bin/env bash
# Builds the explorer: the parket command-line tool compiled to WebAssembly (wasm32-wasip1),
# embedded as base64 in explorer/parket-wasm.js, so that explorer/index.html works from a
# file:// URL (browsers do not fetch() local files) or from any static host, with no server.
#
# Features: every codec that builds without a C compiler (ZSTD is read by the pure-Rust
# decoder `zstd-pure`), so any file the native tool reads opens in the explorer too.
set -euo pipefail
cd "$(dirname "$0")/.."
target=wasm32-wasip1
if ! rustup target list --installed 2>/dev/null | grep -qx "$target"; then
    rustup target add "$target"
fi
cargo build -q --release --target "$target" --bin parket --no-default-features \
    --features cli,snappy,gzip,brotli,lz4,zstd-pure,lzo,alp
wasm="${CARGO_TARGET_DIR:-target}/$target/release/parket.wasm"
{
    echo "// Written by explorer/build.sh: the parket tool ($target), base64. Do not edit."
    printf 'const PARKET_WASM_BASE64 = "'
    base64 -w0 "$wasm"
    printf '";\n'
} > explorer/parket-wasm.js.tmp
mv explorer/parket-wasm.js.tmp explorer/parket-wasm.js
echo "explorer/parket-wasm.js: $(wc -c < explorer/parket-wasm.js) bytes ($(wc -c < "$wasm") bytes of wasm)"
