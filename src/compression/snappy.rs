//! SNAPPY (codec 1): the Snappy raw format, through the `snap` crate.
//!
//! Compression.md: "A codec based on the Snappy compression format" (format_description.txt);
//! the page bytes are one raw Snappy stream (not the framed `sNaPpY` format): a ULEB128
//! uncompressed length, then literal and copy elements. Example, worked by hand from the
//! format description: `"aaaaaaaaaa"` (10 bytes) can be written
//!
//! ```text
//! 0a          ULEB128 uncompressed length 10
//! 00 61       literal (tag 00: length (0 >> 2) + 1 = 1): "a"
//! 15 01       copy with 1-byte offset (tag 01): length 4 + ((0x15 >> 2) & 7) = 9, offset 1
//! ```

use alloc::vec::Vec;

use crate::error::{Error, Result};

/// Appends exactly `uncompressed_size` bytes. The stream's own length header must agree with
/// the declared size; allocation is that size, which a Snappy stream of `input.len()` bytes
/// can reach only if it is below 22 times the input (a 3-byte copy makes at most 64 bytes).
pub(super) fn decompress(input: &[u8], uncompressed_size: usize, out: &mut Vec<u8>) -> Result<()> {
    check_sizes(input, uncompressed_size)?;
    let start = out.len();
    out.resize(start + uncompressed_size, 0);
    decompress_to(input, &mut out[start..])
}

/// Decodes into all of `out` (the declared size): checks the stream's length header against
/// it, then decodes over whatever `out` held.
pub(super) fn decompress_to(input: &[u8], out: &mut [u8]) -> Result<()> {
    let uncompressed_size = out.len();
    check_sizes(input, uncompressed_size)?;
    let n = snap::raw::Decoder::new()
        .decompress(input, out)
        .map_err(|_| Error::out_of_spec("SNAPPY stream does not decode"))?;
    if n != uncompressed_size {
        return Err(super::too_small(n, uncompressed_size));
    }
    Ok(())
}

/// The stream's length header agrees with the declared size, and the input can produce it.
pub(super) fn check_sizes(input: &[u8], uncompressed_size: usize) -> Result<()> {
    let declared = snap::raw::decompress_len(input)
        .map_err(|_| Error::out_of_spec("SNAPPY stream length header does not decode"))?;
    if declared != uncompressed_size {
        return Err(if declared > uncompressed_size {
            super::too_large(uncompressed_size)
        } else {
            super::too_small(declared, uncompressed_size)
        });
    }
    super::check_ratio(input.len(), uncompressed_size, 22)
}

/// Appends the Snappy stream of `input`.
pub(super) fn compress(input: &[u8], out: &mut Vec<u8>) -> Result<()> {
    let start = out.len();
    out.resize(start + bound(input)?, 0);
    let n = compress_into(&mut snap::raw::Encoder::new(), input, &mut out[start..])?;
    out.truncate(start + n);
    Ok(())
}

/// Writes the Snappy stream of `input` at the start of `out`, with a reused `encoder`, and
/// returns its length. `out` is grown to the bound and never shrunk, so a buffer reused from
/// call to call is not zeroed again.
pub(super) fn compress_reusing(
    encoder: &mut snap::raw::Encoder,
    input: &[u8],
    out: &mut Vec<u8>,
) -> Result<usize> {
    let max = bound(input)?;
    if out.len() < max {
        out.resize(max, 0);
    }
    compress_into(encoder, input, out)
}

/// The most bytes the stream of `input` can take.
fn bound(input: &[u8]) -> Result<usize> {
    let max = snap::raw::max_compress_len(input.len());
    if max == 0 && !input.is_empty() {
        return Err(Error::limit(
            "SNAPPY input size",
            input.len() as u64,
            u32::MAX as u64,
        ));
    }
    Ok(max)
}

fn compress_into(encoder: &mut snap::raw::Encoder, input: &[u8], out: &mut [u8]) -> Result<usize> {
    encoder
        .compress(input, out)
        .map_err(|_| Error::invalid_argument("SNAPPY compression failed"))
}
