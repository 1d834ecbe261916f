//! Hadoop's block framing, used by the deprecated LZ4 codec (5) and by LZO (3).
//!
//! Compression.md on LZ4: "loosely based on the LZ4 compression algorithm, but with an
//! additional undocumented framing scheme. The framing is part of the original Hadoop
//! compression library". parquet-java compresses LZ4 and LZO pages through Hadoop's
//! `BlockCompressorStream`, which writes, for each block of input:
//!
//! ```text
//! block := BE u32 uncompressed_length, chunk+    (chunks until their output adds up)
//! chunk := BE u32 compressed_length, compressed_length bytes (one independent raw block)
//! ```
//!
//! A page is one or more blocks. Usually a block has one chunk; Hadoop splits an input larger
//! than its buffer (256 KiB by default) into several independently compressed chunks under one
//! `uncompressed_length`. Worked example, the 11-byte page `"hello hello"` as LZ4 (too short
//! for an LZ4 match, so the block is one literal run):
//!
//! ```text
//! 00 00 00 0b     uncompressed length 11
//! 00 00 00 0c     compressed length 12
//! b0 68 65 6c 6c 6f 20 68 65 6c 6c 6f
//!                 the LZ4 block: token 0xb0 = 11 literals, no match; then "hello hello"
//! ```
//!
//! Seen in the wild: parquet-cpp before Arrow 0.17 wrote codec LZ4 with a bare LZ4 block and
//! no framing (`non_hadoop_lz4_compressed.parquet`). Like the other readers, the reader here
//! tries the framing first and falls back to one bare block when the framing does not add up
//! exactly to the declared size.
//!
//! Writing emits blocks of at most [`MAX_BLOCK`] bytes of input, each with one
//! chunk: small enough for Hadoop's default 256 KiB buffers.

use alloc::vec::Vec;

use crate::bytes::Cursor;
use crate::error::{Error, Result};

/// Input bytes per written block.
pub const MAX_BLOCK: usize = 128 << 10;

/// Decompresses one raw block, appending at most `max_out` bytes; returns how many.
pub(crate) type BlockDecoder = fn(&[u8], usize, &mut Vec<u8>) -> Result<usize>;

/// Compresses one raw block, appending it.
pub(crate) type BlockEncoder = fn(&[u8], &mut Vec<u8>) -> Result<()>;

/// Appends exactly `uncompressed_size` bytes decoded from `input`, framed or bare.
pub(crate) fn decompress(
    input: &[u8],
    uncompressed_size: usize,
    out: &mut Vec<u8>,
    block: BlockDecoder,
) -> Result<()> {
    let start = out.len();
    let framed = match decompress_framed(input, uncompressed_size, out, block) {
        Ok(()) => return Ok(()),
        Err(e) => e,
    };
    out.truncate(start);
    // Seen in the wild: no framing at all (non_hadoop_lz4_compressed.parquet).
    let bare = block(input, uncompressed_size, out).and_then(|n| {
        if n == uncompressed_size {
            Ok(())
        } else {
            Err(super::too_small(n, uncompressed_size))
        }
    });
    match bare {
        Ok(()) => Ok(()),
        Err(bare) => {
            out.truncate(start);
            // Report the framing's error when the input starts like a frame: a chunk length
            // that fits in the input.
            let looks_framed = input.get(4..8).is_some_and(|b| {
                (u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as usize) <= input.len() - 8
            });
            Err(if looks_framed { framed } else { bare })
        }
    }
}

fn decompress_framed(
    input: &[u8],
    uncompressed_size: usize,
    out: &mut Vec<u8>,
    block: BlockDecoder,
) -> Result<()> {
    let mut c = Cursor::new(input);
    let mut produced = 0usize;
    while !c.is_empty() {
        let at = c.position() as u64;
        let ulen = u32::from_be_bytes(c.array::<4>("Hadoop block uncompressed length")?) as usize;
        if ulen > uncompressed_size - produced {
            return Err(Error::limit(
                "Hadoop blocks' uncompressed length",
                (produced + ulen) as u64,
                uncompressed_size as u64,
            )
            .at_offset(at));
        }
        let mut got = 0usize;
        // Every pass consumes at least the 4-byte chunk length.
        loop {
            if ulen == 0 && c.is_empty() {
                // Hadoop writes a lone zero length for an empty input.
                break;
            }
            let at = c.position() as u64;
            let clen = u32::from_be_bytes(c.array::<4>("Hadoop chunk compressed length")?) as usize;
            let chunk = c.take(clen, "Hadoop chunk")?;
            got += block(chunk, ulen - got, out).map_err(|e| e.offset_by(at + 4))?;
            if got == ulen {
                break;
            }
        }
        produced += ulen;
    }
    if produced != uncompressed_size {
        return Err(super::too_small(produced, uncompressed_size));
    }
    Ok(())
}

/// Appends `input` in Hadoop framing: blocks of at most [`MAX_BLOCK`] input bytes, one chunk
/// each. An empty input is written as one empty block (`00 00 00 00`, then one chunk holding
/// the codec's empty block), as parquet-cpp does.
pub(crate) fn compress(input: &[u8], out: &mut Vec<u8>, block: BlockEncoder) -> Result<()> {
    let mut pieces = input.chunks(MAX_BLOCK);
    let empty: &[u8] = &[];
    let first = pieces.next().unwrap_or(empty);
    for piece in core::iter::once(first).chain(pieces) {
        out.extend_from_slice(&(piece.len() as u32).to_be_bytes());
        let len_at = out.len();
        out.extend_from_slice(&[0; 4]);
        block(piece, out)?;
        let clen = out.len() - len_at - 4;
        let clen = u32::try_from(clen).map_err(|_| {
            Error::limit(
                "Hadoop chunk compressed length",
                clen as u64,
                u32::MAX as u64,
            )
        })?;
        out[len_at..len_at + 4].copy_from_slice(&clen.to_be_bytes());
    }
    Ok(())
}
