//! BROTLI (codec 4): RFC 7932 streams, through the `brotli` crate (a port of Google's
//! reference library).
//!
//! Compression.md: "A codec based on the Brotli format defined by RFC 7932". The page is one
//! Brotli stream. Example: the reference encoder (PyPI `brotli`) writes the empty input as the
//! single byte `3b`: `1` (window 16 bits) then ISLAST = 1, ISLASTEMPTY = 1, padding.

use alloc::vec::Vec;

use crate::error::{Error, Result};

/// Appends exactly `uncompressed_size` bytes, produced in bounded steps.
pub(super) fn decompress(input: &[u8], uncompressed_size: usize, out: &mut Vec<u8>) -> Result<()> {
    let r = brotli::Decompressor::new(input, 4096);
    super::read_bounded(r, uncompressed_size, out, "BROTLI stream does not decode")
}

/// Appends the Brotli stream of `input` at quality `level` 0..=11, window 2^22.
pub(super) fn compress(input: &[u8], level: u32, out: &mut Vec<u8>) -> Result<()> {
    let params = brotli::enc::BrotliEncoderParams {
        quality: level as i32,
        lgwin: 22,
        ..Default::default()
    };
    let mut src = input;
    brotli::BrotliCompress(&mut src, out, &params)
        .map(|_| ())
        .map_err(|_| Error::invalid_argument("BROTLI compression failed"))
}
