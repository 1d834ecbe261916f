//! GZIP (codec 2): RFC 1952 members, through `flate2` (pure-Rust miniz_oxide backend).
//!
//! Compression.md: "A codec based on the GZIP format (not the closely-related "zlib" or
//! "deflate" formats) defined by RFC 1952 ... Readers should support reading pages containing
//! multiple GZIP members". A member is `1f 8b 08 FLG MTIME(4) XFL OS`, a deflate stream, then
//! CRC-32 and ISIZE (LE u32 each). Example: the empty input, as Python's (zlib's)
//! `gzip.compress(b"", mtime=0)` writes it (a unit test decodes these bytes):
//!
//! ```text
//! 1f 8b 08 00 00 00 00 00 02 03   header: deflate, no flags, mtime 0, XFL 2, OS 3 (Unix)
//! 03 00                           an empty final fixed-Huffman deflate block
//! 00 00 00 00 00 00 00 00         CRC-32 0, ISIZE 0
//! ```
//!
//! Seen in the wild: `concatenated_gzip_members.parquet` has a page made of two members;
//! decoding goes on member after member until the input ends.

use alloc::vec::Vec;

use crate::error::{Error, Result};

/// Appends exactly `uncompressed_size` bytes; output is produced in bounded steps, so a
/// "bomb" stops one byte past the declared size.
pub(super) fn decompress(input: &[u8], uncompressed_size: usize, out: &mut Vec<u8>) -> Result<()> {
    let r = flate2::read::MultiGzDecoder::new(input);
    super::read_bounded(r, uncompressed_size, out, "GZIP stream does not decode")
}

/// Appends one GZIP member (mtime 0, OS 255) at `level` 0..=9.
pub(super) fn compress(input: &[u8], level: u32, out: &mut Vec<u8>) -> Result<()> {
    use std::io::Write;
    let mut e = flate2::write::GzEncoder::new(out, flate2::Compression::new(level));
    e.write_all(input)
        .and_then(|_| e.try_finish())
        .map_err(|_| Error::invalid_argument("GZIP compression failed"))
}
