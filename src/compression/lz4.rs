//! LZ4 (codec 5, deprecated, Hadoop framing) and LZ4_RAW (codec 7, a bare block), through
//! `lz4_flex` (safe Rust).
//!
//! Compression.md, LZ4_RAW: "A codec based on the LZ4 block format" (lz4_Block_format.md): a
//! sequence of `token | literal length extension | literals | LE16 offset | match length
//! extension`, the token's high nibble a literal count, its low nibble a match length - 4.
//! Example: `b0 68 65 6c 6c 6f 20 68 65 6c 6c 6f` is token `b0` (11 literals, and, being the
//! last sequence, no match) then the bytes `"hello hello"`.
//!
//! LZ4 (codec 5) wraps such blocks in Hadoop's framing: see [`super::hadoop`].

use alloc::vec::Vec;

use crate::error::{Error, Result};

/// Each LZ4 input byte makes at most 255 output bytes (a length extension byte).
const MAX_RATIO: usize = 255;

/// Decompresses one bare block, appending at most `max_out` bytes; returns how many.
pub(super) fn decompress_block(input: &[u8], max_out: usize, out: &mut Vec<u8>) -> Result<usize> {
    let cap = max_out.min(input.len().saturating_mul(MAX_RATIO).saturating_add(64));
    let start = out.len();
    out.resize(start + cap, 0);
    match lz4_flex::block::decompress_into(input, &mut out[start..]) {
        Ok(n) => {
            out.truncate(start + n);
            Ok(n)
        }
        Err(e) => {
            out.truncate(start);
            Err(match e {
                lz4_flex::block::DecompressError::OutputTooSmall { .. } => {
                    super::too_large(max_out)
                }
                _ => Error::out_of_spec("LZ4 block does not decode"),
            })
        }
    }
}

/// LZ4_RAW: appends exactly `uncompressed_size` bytes from one bare block.
pub(super) fn decompress_raw(
    input: &[u8],
    uncompressed_size: usize,
    out: &mut Vec<u8>,
) -> Result<()> {
    let n = decompress_block(input, uncompressed_size, out)?;
    if n != uncompressed_size {
        return Err(super::too_small(n, uncompressed_size));
    }
    Ok(())
}

/// LZ4 (Hadoop): appends exactly `uncompressed_size` bytes, framed or bare.
pub(super) fn decompress_hadoop(
    input: &[u8],
    uncompressed_size: usize,
    out: &mut Vec<u8>,
) -> Result<()> {
    super::hadoop::decompress(input, uncompressed_size, out, decompress_block)
}

/// Appends one bare LZ4 block.
pub(super) fn compress_block(input: &[u8], out: &mut Vec<u8>) -> Result<()> {
    let start = out.len();
    out.resize(
        start + lz4_flex::block::get_maximum_output_size(input.len()),
        0,
    );
    let n = lz4_flex::block::compress_into(input, &mut out[start..])
        .map_err(|_| Error::invalid_argument("LZ4 compression failed"))?;
    out.truncate(start + n);
    Ok(())
}

/// LZ4 (Hadoop): appends `input` in Hadoop framing.
pub(super) fn compress_hadoop(input: &[u8], out: &mut Vec<u8>) -> Result<()> {
    super::hadoop::compress(input, out, compress_block)
}
