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
//!
//! Seen in the wild: parquet-rs before 2022 wrote codec 5 as the LZ4 *frame* format
//! (lz4_Frame_format.md), as arrow-rs still reads it. A page of codec 5 that neither Hadoop's
//! framing nor a bare block decodes, and that starts with the frame magic, is read as frames.
//! Worked example, `"hello hello"` as python-lz4's `lz4.frame.compress` writes it:
//!
//! ```text
//! 04 22 4d 18                  magic 0x184D2204 (LE)
//! 68                           FLG: version 01, independent blocks, content size present
//! 40                           BD: blocks of at most 64 KiB
//! 0b 00 00 00 00 00 00 00      content size 11 (LE u64)
//! 58                           header checksum (second byte of xxHash32 of FLG..size)
//! 0b 00 00 80                  block size 11, high bit: stored uncompressed
//! 68 65 6c 6c 6f 20 68 65 6c 6c 6f    "hello hello"
//! 00 00 00 00                  end mark
//! ```
//!
//! A compressed block is one bare LZ4 block; in linked mode (FLG bit 5 clear) its matches may
//! reach into the previous 64 KiB of output. The optional checksums (header, block, content)
//! are skipped, not verified: a damaged page is still caught by the exact size check and the
//! page CRC.

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

/// LZ4 (Hadoop): appends exactly `uncompressed_size` bytes, Hadoop-framed, bare or (old
/// parquet-rs) in LZ4 frames.
pub(super) fn decompress_hadoop(
    input: &[u8],
    uncompressed_size: usize,
    out: &mut Vec<u8>,
) -> Result<()> {
    let start = out.len();
    match super::hadoop::decompress(input, uncompressed_size, out, decompress_block) {
        Ok(()) => Ok(()),
        Err(_) if input.starts_with(&FRAME_MAGIC) => {
            out.truncate(start);
            decompress_frames(input, uncompressed_size, out).inspect_err(|_| out.truncate(start))
        }
        Err(e) => Err(e),
    }
}

/// The LZ4 frame magic number 0x184D2204, little-endian.
const FRAME_MAGIC: [u8; 4] = [0x04, 0x22, 0x4d, 0x18];

/// How far back a match of a linked block may reach (lz4_Block_format.md: offsets are 16-bit).
const WINDOW: usize = 64 << 10;

fn frame_error(what: &'static str) -> Error {
    Error::out_of_spec(what)
}

/// Appends exactly `uncompressed_size` bytes from a sequence of LZ4 frames (skippable frames,
/// magic 0x184D2A50..5F, are skipped). Dictionary IDs are not supported (no dictionary exists
/// in a Parquet page).
fn decompress_frames(input: &[u8], uncompressed_size: usize, out: &mut Vec<u8>) -> Result<()> {
    let start = out.len();
    let mut rest = input;
    while !rest.is_empty() {
        let magic = le32(rest, "LZ4 frame magic")?;
        if magic & 0xffff_fff0 == 0x184d_2a50 {
            let len = le32(rest.get(4..).unwrap_or(&[]), "LZ4 skippable frame size")? as usize;
            rest = rest
                .get(8..)
                .and_then(|r| r.get(len..))
                .ok_or_else(|| frame_error("LZ4 skippable frame past the page"))?;
            continue;
        }
        if magic != 0x184d_2204 {
            return Err(frame_error("LZ4 frame magic number"));
        }
        let (&flg, &bd) = match rest.get(4..6) {
            Some([f, b]) => (f, b),
            _ => return Err(frame_error("LZ4 frame descriptor past the page")),
        };
        if flg >> 6 != 1 || flg & 0b10 != 0 || bd & 0b1000_1111 != 0 {
            return Err(frame_error(
                "LZ4 frame descriptor (version or reserved bits)",
            ));
        }
        if flg & 1 != 0 {
            return Err(frame_error("LZ4 frame with a dictionary ID"));
        }
        let linked = flg & 0b0010_0000 == 0;
        let block_checksum = flg & 0b0001_0000 != 0;
        let content_size = flg & 0b0000_1000 != 0;
        let content_checksum = flg & 0b0000_0100 != 0;
        let block_max = match bd >> 4 {
            4 => 64 << 10,
            5 => 256 << 10,
            6 => 1 << 20,
            7 => 4 << 20,
            _ => return Err(frame_error("LZ4 frame block maximum size")),
        };
        // Magic, FLG, BD, [content size], header checksum.
        let header = 7 + if content_size { 8 } else { 0 };
        rest = rest
            .get(header..)
            .ok_or_else(|| frame_error("LZ4 frame header past the page"))?;
        let frame_start = out.len();
        loop {
            let word = le32(rest, "LZ4 frame block size")?;
            rest = &rest[4..];
            if word == 0 {
                break; // end mark
            }
            let stored = word & 0x8000_0000 != 0;
            let size = (word & 0x7fff_ffff) as usize;
            if size > block_max {
                return Err(frame_error(
                    "LZ4 frame block above the frame's maximum size",
                ));
            }
            let data = rest
                .get(..size)
                .ok_or_else(|| frame_error("LZ4 frame block past the page"))?;
            let room = uncompressed_size - (out.len() - start);
            if stored {
                if size > room {
                    return Err(super::too_large(uncompressed_size));
                }
                out.extend_from_slice(data);
            } else {
                let max = room.min(block_max);
                if linked {
                    let pos = out.len();
                    out.resize(pos + max, 0);
                    let (before, after) = out.split_at_mut(pos);
                    let dict = &before[frame_start.max(pos.saturating_sub(WINDOW))..];
                    match lz4_flex::block::decompress_into_with_dict(data, after, dict) {
                        Ok(n) => out.truncate(pos + n),
                        Err(_) => {
                            out.truncate(pos);
                            return Err(frame_error("LZ4 frame block does not decode"));
                        }
                    }
                } else {
                    decompress_block(data, max, out)?;
                }
            }
            let skip = size + if block_checksum { 4 } else { 0 };
            rest = rest
                .get(skip..)
                .ok_or_else(|| frame_error("LZ4 frame block checksum past the page"))?;
        }
        if content_checksum {
            rest = rest
                .get(4..)
                .ok_or_else(|| frame_error("LZ4 frame content checksum past the page"))?;
        }
    }
    let n = out.len() - start;
    if n != uncompressed_size {
        return Err(super::too_small(n, uncompressed_size));
    }
    Ok(())
}

/// The little-endian u32 at the start of `b`.
fn le32(b: &[u8], what: &'static str) -> Result<u32> {
    match b.get(..4) {
        Some(&[a, b, c, d]) => Ok(u32::from_le_bytes([a, b, c, d])),
        _ => Err(Error::truncated(what, 4, b.len() as u64)),
    }
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
