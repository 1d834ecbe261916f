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

/// Output bytes per input byte up to which a page is decoded in one call into `out`, sized
/// up front; beyond it (a hostile size, or a page of zeros) it is decoded in bounded steps, so
/// that a few input bytes never make the reader allocate a declared size before decoding it.
#[cfg(feature = "zstd")]
const ONE_SHOT_RATIO: usize = 64;

/// Appends exactly `uncompressed_size` bytes (libzstd).
///
/// The common case (the frame declares its content size, and it is the page's) decodes in one
/// call straight into `out`, with the decompression context kept in `context` (made on first
/// use: making one costs about as much as decoding a small page); anything else, and any
/// error, takes the bounded streaming path, which also produces the precise error.
#[cfg(feature = "zstd")]
pub(super) fn decompress_reusing(
    context: &mut Option<DContext>,
    input: &[u8],
    uncompressed_size: usize,
    out: &mut Vec<u8>,
) -> Result<()> {
    if one_shot(input, uncompressed_size) {
        let start = out.len();
        out.resize(start + uncompressed_size, 0);
        if decompress_to(context, input, &mut out[start..]) {
            return Ok(());
        }
        out.truncate(start);
    }
    let r = zstd::stream::read::Decoder::with_buffer(input)
        .map_err(|_| Error::out_of_spec("ZSTD stream does not decode"))?;
    super::read_bounded(r, uncompressed_size, out, "ZSTD stream does not decode")
}

/// Whether a page decodes in one call into a buffer of its declared size: its frame declares
/// that content size, and the size is plausible for the input (see [`ONE_SHOT_RATIO`]).
#[cfg(feature = "zstd")]
pub(super) fn one_shot(input: &[u8], uncompressed_size: usize) -> bool {
    let frame_size = zstd::zstd_safe::get_frame_content_size(input)
        .ok()
        .flatten();
    frame_size == Some(uncompressed_size as u64)
        && uncompressed_size <= input.len().saturating_mul(ONE_SHOT_RATIO) + 65536
}

/// Decodes a [`one_shot`] page into all of `out`, over whatever it held, with the context of
/// `context` (made on first use); false when that fails (the caller then takes the bounded
/// path, which gives the precise error).
#[cfg(feature = "zstd")]
pub(super) fn decompress_to(context: &mut Option<DContext>, input: &[u8], out: &mut [u8]) -> bool {
    let Some(dctx) = made(context) else {
        return false;
    };
    let size = out.len();
    matches!(dctx.decompress_to_buffer(input, out), Ok(n) if n == size)
}

/// Replaces the contents of `out` with the `size` bytes of a [`one_shot`] page, decoded into
/// its spare capacity (reserved by the caller: `size` bytes at least), so that no byte is
/// zeroed before it is written; false when that fails (the caller then takes the bounded
/// path).
#[cfg(feature = "zstd")]
pub(super) fn decompress_over(
    context: &mut Option<DContext>,
    input: &[u8],
    size: usize,
    out: &mut Vec<u8>,
) -> bool {
    out.clear();
    let Some(dctx) = made(context) else {
        return false;
    };
    matches!(dctx.decompress_to_buffer(input, out), Ok(n) if n == size && out.len() == size)
}

/// The context of `context`, made on first use (None when libzstd cannot make one).
#[cfg(feature = "zstd")]
fn made(context: &mut Option<DContext>) -> Option<&mut DContext> {
    if context.is_none() {
        *context = Some(zstd::bulk::Decompressor::new().ok()?);
    }
    context.as_mut()
}

/// A decompression context, kept across pages by
/// [`Decompressor`](super::Decompressor).
#[cfg(feature = "zstd")]
pub(super) type DContext = zstd::bulk::Decompressor<'static>;

/// Appends exactly `uncompressed_size` bytes (ruzstd). Allocates the declared size up front.
///
/// The frame decoder is kept in `context`: ruzstd allocates its window buffer and tables on
/// the first frame and resets them for the next (`FrameDecoder::reset`), so a reader reusing
/// it allocates them once per column instead of once per page. After an error it is dropped,
/// so that no state of a bad frame reaches the next page.
#[cfg(all(feature = "zstd-pure", not(feature = "zstd")))]
pub(super) fn decompress_reusing(
    context: &mut Option<DContext>,
    input: &[u8],
    uncompressed_size: usize,
    out: &mut Vec<u8>,
) -> Result<()> {
    use ruzstd::decoding::errors::FrameDecoderError;
    let start = out.len();
    out.resize(start + uncompressed_size, 0);
    let decoder = context.get_or_insert_with(ruzstd::decoding::FrameDecoder::new);
    let r = decoder.decode_all(input, &mut out[start..]);
    if r.is_err() {
        *context = None;
    }
    match r {
        Ok(n) if n == uncompressed_size => Ok(()),
        Ok(n) => Err(super::too_small(n, uncompressed_size)),
        Err(FrameDecoderError::TargetTooSmall) => Err(super::too_large(uncompressed_size)),
        Err(_) => Err(Error::out_of_spec("ZSTD stream does not decode")),
    }
}

/// A ruzstd frame decoder, kept across pages by [`Decompressor`](super::Decompressor).
#[cfg(all(feature = "zstd-pure", not(feature = "zstd")))]
pub(super) type DContext = ruzstd::decoding::FrameDecoder;

/// Appends one ZSTD frame (with its content size) at `level`.
#[cfg(feature = "zstd")]
pub(super) fn compress(input: &[u8], level: i32, out: &mut Vec<u8>) -> Result<()> {
    let c = zstd::bulk::compress(input, level)
        .map_err(|_| Error::invalid_argument("ZSTD compression failed"))?;
    out.extend_from_slice(&c);
    Ok(())
}

/// A compression context and the level it was made for, kept across calls.
#[cfg(feature = "zstd")]
pub(super) type Context = (i32, zstd::bulk::Compressor<'static>);

/// Replaces the contents of `out` with the frame of `input` at `level`, with the context of
/// `context` when it was made for that level (else a new one, kept there); returns its length.
#[cfg(feature = "zstd")]
pub(super) fn compress_reusing(
    context: &mut Option<Context>,
    input: &[u8],
    level: i32,
    out: &mut Vec<u8>,
) -> Result<usize> {
    let failed = |_| Error::invalid_argument("ZSTD compression failed");
    let c = match context {
        Some((l, c)) if *l == level => c,
        _ => {
            &mut context
                .insert((level, zstd::bulk::Compressor::new(level).map_err(failed)?))
                .1
        }
    };
    out.clear();
    out.reserve(zstd::zstd_safe::compress_bound(input.len()));
    c.compress_to_buffer(input, out).map_err(failed)
}
