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
/// An empty input has no header (`snap::raw::decompress_len` reads it as 0, and `snap`'s
/// decoder rejects it): an error here, so that the prefix decoder, which decodes nothing for
/// a stream of declared size 0, rejects it as `snap` does.
pub(super) fn check_sizes(input: &[u8], uncompressed_size: usize) -> Result<()> {
    let declared = match input {
        [] => None,
        _ => snap::raw::decompress_len(input).ok(),
    }
    .ok_or_else(|| Error::out_of_spec("SNAPPY stream length header does not decode"))?;
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

/// A raw Snappy stream decoded a prefix at a time, by parket's own decoder (checked against
/// `snap` in the tests and the `decompress` fuzz target): a scan that wants the first rows of
/// a page decompresses the bytes those rows end at, not the page. Snappy's output is
/// sequential (a copy reaches back only into bytes already written), so a prefix decodes
/// without the rest of the stream.
///
/// The decoded bytes are the first [`Prefix::len`] of `out`, which is zeroed only as far as
/// the decoding has reached (plus a few bytes the fast copies write ahead). Each element is
/// checked as it is reached (a copy's offset against the bytes written, every length against
/// the input and the declared size), so an error past the prefix is not seen; a whole stream
/// asked for at once goes to `snap`, the faster decoder on whole pages.
#[derive(Debug, Clone)]
pub(crate) struct Prefix {
    /// The next element of the input.
    at: usize,
    /// Bytes decoded.
    written: usize,
    total: usize,
}

/// How far past the bytes wanted `out` is zeroed: a copy's longest (64) and a fast copy's
/// overshoot fit.
const SLACK: usize = 128;

impl Prefix {
    /// The stream of `input`, after its length header (checked against `uncompressed_size`,
    /// as [`decompress`] checks it). `out` is cleared.
    pub(crate) fn new(input: &[u8], uncompressed_size: usize, out: &mut Vec<u8>) -> Result<Prefix> {
        check_sizes(input, uncompressed_size)?;
        // check_sizes decoded the ULEB128 header: its bytes are those with the high bit set,
        // then one more (at most 5).
        let at = 1 + input.iter().take(5).take_while(|&&b| b & 0x80 != 0).count();
        if uncompressed_size == 0 && at != input.len() {
            // Elements in a stream declared empty: `snap` rejects it, and so does this.
            return Err(Error::out_of_spec("SNAPPY stream does not decode"));
        }
        out.clear();
        Ok(Prefix {
            at,
            written: 0,
            total: uncompressed_size,
        })
    }

    /// The stream's declared size.
    pub(crate) fn total(&self) -> usize {
        self.total
    }

    /// The bytes decoded so far: the start of `out`.
    pub(crate) fn len(&self) -> usize {
        self.written
    }

    /// Decodes elements until at least `want` bytes are decoded, or the whole stream when
    /// `want` is past its end.
    pub(crate) fn extend(&mut self, input: &[u8], out: &mut Vec<u8>, want: usize) -> Result<()> {
        let want = want.min(self.total);
        if self.written >= want {
            return Ok(());
        }
        if self.written == 0 && want == self.total {
            // The whole stream: `snap`'s decoder, the faster on whole pages.
            out.clear();
            grow(out, want)?;
            decompress_to(input, out)?;
            self.at = input.len();
            self.written = want;
            return Ok(());
        }
        grow(out, want.saturating_add(SLACK).min(self.total))?;
        let r = self.elements(input, out, want);
        if r.is_err() {
            // Nothing more decodes from here.
            self.at = input.len();
        }
        r
    }

    /// Decodes the whole stream with `snap` (the faster decoder on the most of a page),
    /// over the bytes decoded so far, which it writes again alike.
    pub(crate) fn whole(&mut self, input: &[u8], out: &mut Vec<u8>) -> Result<()> {
        if self.written == self.total {
            return Ok(());
        }
        let total = self.total;
        let r = grow(out, total).and_then(|()| decompress_to(input, &mut out[..total]));
        // Nothing more decodes from here: all of it, or an error.
        self.at = input.len();
        if r.is_ok() {
            self.written = total;
        }
        r
    }

    fn elements(&mut self, input: &[u8], out: &mut Vec<u8>, want: usize) -> Result<()> {
        let bad = || Error::out_of_spec("SNAPPY stream does not decode");
        let total = self.total;
        let (mut at, mut w) = (self.at, self.written);
        while w < want {
            let Some(&tag) = input.get(at) else {
                return Err(super::too_small(w, total));
            };
            let (len, offset) = match tag & 3 {
                0 => {
                    let mut len = usize::from(tag >> 2) + 1;
                    let mut p = at + 1;
                    if len <= 16 && p + 16 <= input.len() && w + 16 <= out.len() {
                        // A short literal: 16 bytes copied, the ones past it rewritten later.
                        out[w..w + 16].copy_from_slice(&input[p..p + 16]);
                        w += len;
                        at = p + len;
                        continue;
                    }
                    if len > 60 {
                        let n = len - 60;
                        let b = input.get(p..p + n).ok_or_else(bad)?;
                        len = b.iter().rev().fold(0, |v, &x| (v << 8) | usize::from(x)) + 1;
                        p += n;
                    }
                    let lit = input.get(p..).and_then(|r| r.get(..len)).ok_or_else(bad)?;
                    if len > total - w {
                        return Err(super::too_large(total));
                    }
                    grow(out, (w + len).saturating_add(SLACK).min(total))?;
                    out[w..w + len].copy_from_slice(lit);
                    w += len;
                    at = p + len;
                    continue;
                }
                1 => {
                    let b = *input.get(at + 1).ok_or_else(bad)?;
                    at += 2;
                    let len = 4 + usize::from((tag >> 2) & 7);
                    (len, (usize::from(tag >> 5) << 8) | usize::from(b))
                }
                2 => {
                    let b = input.get(at + 1..at + 3).ok_or_else(bad)?;
                    at += 3;
                    let off = usize::from(u16::from_le_bytes([b[0], b[1]]));
                    (1 + usize::from(tag >> 2), off)
                }
                _ => {
                    let b = input.get(at + 1..at + 5).ok_or_else(bad)?;
                    at += 5;
                    let off = u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize;
                    (1 + usize::from(tag >> 2), off)
                }
            };
            if offset == 0 || offset > w {
                return Err(bad());
            }
            if len > total - w {
                return Err(super::too_large(total));
            }
            let s = w - offset;
            // `out` reaches `SLACK` past `want` (or is whole), and `w < want`: a copy (at
            // most 64 bytes) fits.
            if w + len + 16 <= out.len() && offset >= 8 {
                // With room past the copy: 16 or 8 bytes at a time, each chunk reading bytes
                // already final (they start `offset` >= the chunk's width before it); the
                // last may write past the copy, into bytes written later.
                if offset >= 16 {
                    let mut i = 0;
                    while i < len {
                        let mut c = [0u8; 16];
                        c.copy_from_slice(&out[s + i..s + i + 16]);
                        out[w + i..w + i + 16].copy_from_slice(&c);
                        i += 16;
                    }
                } else {
                    let mut i = 0;
                    while i < len {
                        let mut c = [0u8; 8];
                        c.copy_from_slice(&out[s + i..s + i + 8]);
                        out[w + i..w + i + 8].copy_from_slice(&c);
                        i += 8;
                    }
                }
            } else if w + len > out.len() {
                return Err(bad()); // unreachable: see above
            } else if offset < len {
                // Overlapping (a period under 8, or no room past): a byte at a time.
                for j in 0..len {
                    out[w + j] = out[s + j];
                }
            } else {
                out.copy_within(s..s + len, w);
            }
            w += len;
        }
        if w == total && at != input.len() {
            // Elements past the declared size: `snap` rejects the stream, and so does this.
            return Err(bad());
        }
        self.at = at;
        self.written = w;
        Ok(())
    }
}

/// `out` zeroed to at least `len` bytes (fallibly).
fn grow(out: &mut Vec<u8>, len: usize) -> Result<()> {
    if out.len() < len {
        out.try_reserve(len - out.len())
            .map_err(|_| Error::out_of_memory("the decompressed page", len as u64))?;
        out.resize(len, 0);
    }
    Ok(())
}
