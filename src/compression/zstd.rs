//! ZSTD (codec 6): RFC 8878 frames, through the `zstd` crate (the reference C library), or,
//! for decoding only, through `ruzstd` (pure Rust) when only the `zstd-pure` feature is on.
//!
//! Compression.md: "A codec based on the Zstandard format defined by RFC 8878". The page is
//! one or more frames. Example: `"hello hello hello"` at level 3, as the reference library
//! (PyPI `zstandard`) writes it (a unit test decodes these bytes):
//!
//! ```text
//! 28 b5 2f fd          magic
//! 20 11                frame header: single segment, content size 17
//! 65 00 00             block header: last block, compressed, 12 bytes
//! 30 68 65 6c 6c 6f 20 01 00 31 4a 11
//!                      literals "hello " and one sequence (match offset 6, length 11)
//! ```

use alloc::vec::Vec;

#[allow(unused_imports)]
use crate::error::{Error, Result};

/// Appends exactly `uncompressed_size` bytes, produced in bounded steps (libzstd).
#[cfg(feature = "zstd")]
pub(super) fn decompress(input: &[u8], uncompressed_size: usize, out: &mut Vec<u8>) -> Result<()> {
    let r = zstd::stream::read::Decoder::with_buffer(input)
        .map_err(|_| Error::out_of_spec("ZSTD stream does not decode"))?;
    super::read_bounded(r, uncompressed_size, out, "ZSTD stream does not decode")
}

/// Appends exactly `uncompressed_size` bytes (ruzstd). Allocates the declared size up front.
#[cfg(all(feature = "zstd-pure", not(feature = "zstd")))]
pub(super) fn decompress(input: &[u8], uncompressed_size: usize, out: &mut Vec<u8>) -> Result<()> {
    use ruzstd::decoding::errors::FrameDecoderError;
    let start = out.len();
    out.resize(start + uncompressed_size, 0);
    let r = ruzstd::decoding::FrameDecoder::new().decode_all(input, &mut out[start..]);
    match r {
        Ok(n) if n == uncompressed_size => Ok(()),
        Ok(n) => Err(super::too_small(n, uncompressed_size)),
        Err(FrameDecoderError::TargetTooSmall) => Err(super::too_large(uncompressed_size)),
        Err(_) => Err(Error::out_of_spec("ZSTD stream does not decode")),
    }
}

/// Appends one ZSTD frame (with its content size) at `level`.
#[cfg(feature = "zstd")]
pub(super) fn compress(input: &[u8], level: i32, out: &mut Vec<u8>) -> Result<()> {
    let c = zstd::bulk::compress(input, level)
        .map_err(|_| Error::invalid_argument("ZSTD compression failed"))?;
    out.extend_from_slice(&c);
    Ok(())
}
