//! RLE: the run length encoding / bit-packing hybrid (`RLE = 3`), for bit widths 0 to 32.
//!
//! Used for repetition and definition levels (Data Page V1 with a length prefix, V2 without),
//! dictionary indices (after a one-byte bit width, see [`crate::encoding::dictionary`]) and,
//! as an alternative to PLAIN, BOOLEAN values (bit width 1, always with the length prefix).
//!
//! Spec: Encodings.md, "Run Length Encoding / Bit-Packing Hybrid (RLE = 3)":
//!
//! ```text
//! rle-bit-packed-hybrid: <length> <encoded-data>
//! length := length of the <encoded-data> in bytes stored as 4 bytes little endian (unsigned int32)
//! encoded-data := <run>*
//! run := <bit-packed-run> | <rle-run>
//! bit-packed-run := <bit-packed-header> <bit-packed-values>
//! bit-packed-header := varint-encode(<bit-pack-scaled-run-len> << 1 | 1)
//! bit-pack-scaled-run-len := (bit-packed-run-len) / 8
//! rle-run := <rle-header> <repeated-value>
//! rle-header := varint-encode( (rle-run-len) << 1)
//! repeated-value := value that is repeated, using a fixed-width of round-up-to-next-byte(bit-width)
//! ```
//!
//! Run lengths are in `[1, 2^31 - 1]`; bit-packed values are packed LSB first in groups of 8
//! (see [`crate::bytes::bitpack`]). A bit-packed run always holds a multiple of 8 values: the
//! values after the last one the reader needs are padding.
//!
//! Worked example, bit width 3, values `4` ten times then `1, 2, 3`:
//!
//! ```text
//! 14        rle-header: varint(10 << 1)               ten copies of ...
//! 04        repeated-value: 4 in round_up(3 / 8) = 1 byte
//! 03        bit-packed-header: varint(1 << 1 | 1)     one group of 8 values
//! D1 00 00  1, 2, 3 and five padding zeros, 3 bits each, LSB first:
//!           byte 0 = 11 010 001 (bits 0-1 of 3, then 2, then 1), byte 1 bit 0 = bit 2 of 3
//! ```
//!
//! ```
//! use parket::encoding::rle;
//! let values = [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 1, 2, 3];
//! let mut bytes = Vec::new();
//! rle::encode_u32(&values, 3, &mut bytes);
//! assert_eq!(bytes, [0x14, 0x04, 0x03, 0xD1, 0x00, 0x00]);
//! let mut back = Vec::new();
//! assert_eq!(rle::decode_u32(&bytes, 3, values.len(), &mut back).unwrap(), 6);
//! assert_eq!(back, values);
//! ```
//!
//! Whether the 4-byte `length` comes first depends on the page (spec table): yes for levels in
//! Data Page V1 ([`decode_levels_with_length`]) and for BOOLEAN values
//! ([`decode_booleans`]); no for levels in Data Page V2 ([`decode_levels`]) and for dictionary
//! indices ([`decode_u32`]).
//!
//! Decoders never panic, for any input; they reserve at most a small multiple of the input
//! length up front and otherwise grow with the values really decoded (an RLE run of `n` values
//! costs `n` slots of output, however short its bytes: bounding `num_values` is the caller's
//! job). Their work is bounded by `num_values` plus the input length.
//!
//! Seen in the wild: Polars writes dictionary indices at bit width 0 as a bit-packed run header
//! with no payload (`bad_data/ARROW-GH-43605.parquet`, index stream `00 b3 29`: width 0, 2649
//! groups); that is valid and decodes to zeros.

use alloc::vec::Vec;

use crate::bytes::bitpack;
use crate::bytes::varint::encode_uleb128;
use crate::bytes::Cursor;
use crate::error::{Error, Result};

/// Spec: "bit-packed-run-len and rle-run-len must be in the range [1, 2^31 - 1]".
const MAX_RUN_LEN: u64 = i32::MAX as u64;

/// Bits needed to store `max` (0 for 0): the bit width of levels up to `max`, or of
/// dictionary indices up to `max`.
///
/// ```
/// use parket::encoding::rle::bit_width;
/// assert_eq!([bit_width(0), bit_width(1), bit_width(3), bit_width(4), bit_width(u64::MAX)], [0, 1, 2, 3, 64]);
/// ```
#[inline]
pub fn bit_width(max: u64) -> u32 {
    64 - max.leading_zeros()
}

/// An output element type of the hybrid decoder.
trait HybridOutput: Copy + Sized {
    fn from_u32(v: u32) -> Self;

    /// Appends the first `n` values of a bit-packed run (`bytes` holds at least
    /// `packed_len(n, w)` bytes).
    fn unpack(bytes: &[u8], w: u32, n: usize, out: &mut Vec<Self>) {
        // 512 values of any width end on a byte boundary.
        let mut tmp = [0u32; 512];
        let mut done = 0;
        while done < n {
            let k = (n - done).min(512);
            let src = bytes.get(done / 8 * w as usize..).unwrap_or(&[]);
            bitpack::unpack32(src, w, &mut tmp[..k]);
            out.extend(tmp[..k].iter().map(|&v| Self::from_u32(v)));
            done += k;
        }
    }
}

impl HybridOutput for u32 {
    #[inline]
    fn from_u32(v: u32) -> Self {
        v
    }

    #[inline]
    fn unpack(bytes: &[u8], w: u32, n: usize, out: &mut Vec<Self>) {
        let len = out.len();
        out.resize(len + n, 0);
        if let Some(dst) = out.get_mut(len..) {
            bitpack::unpack32(bytes, w, dst);
        }
    }
}

impl HybridOutput for u16 {
    #[inline]
    fn from_u32(v: u32) -> Self {
        v as u16
    }
}

impl HybridOutput for bool {
    #[inline]
    fn from_u32(v: u32) -> Self {
        v != 0
    }
}

/// A run of the hybrid as its header says, after [`run_header`] checked it.
enum RunHeader<'a> {
    /// `count` bit-packed values (a multiple of 8), whose bytes start `bytes` (which runs on
    /// past the run: see [`for_each_run`]).
    Packed { count: usize, bytes: &'a [u8] },
    /// `len` copies of `value`.
    Rle { value: u32, len: usize },
}

/// Reads and checks the next run header of the hybrid (and an RLE run's value) at `c`, and
/// steps `c` over the run. The one parser of run headers, shared by [`decode_hybrid`] and
/// [`for_each_run`]; `bit_width` is at most 32.
#[inline(always)]
fn run_header<'a>(c: &mut Cursor<'a>, bit_width: u32) -> Result<RunHeader<'a>> {
    if c.is_empty() {
        return Err(c.truncated("RLE/bit-packing hybrid run", 1));
    }
    let header_at = c.position() as u64;
    let header = match c.rest().first() {
        // A one-byte header (runs under 64 values or 64 groups): read in place, not through
        // the general ULEB128 reader (47 instructions a header, a third of a short run).
        // Builds for size read every header the general way (96 bytes less).
        Some(&b) if b < 0x80 && variant::ONE_BYTE_HEADERS => {
            c.skip(1, "RLE/bit-packing hybrid run header")?;
            u64::from(b)
        }
        _ => c
            .uleb128("RLE/bit-packing hybrid run header")
            .map_err(|e| e.at_offset(header_at))?,
    };
    if header & 1 == 1 {
        // Spec: bit-packed-header := varint-encode(<bit-pack-scaled-run-len> << 1 | 1)
        let groups = header >> 1;
        if groups == 0 || groups > MAX_RUN_LEN / 8 {
            return Err(Error::out_of_range(
                "bit-packed run length in groups of 8",
                groups.min(i64::MAX as u64) as i64,
            )
            .at_offset(header_at));
        }
        // groups <= 2^28, so neither product overflows. Checked against the bytes that
        // remain before anything is decoded; at width 0 a run has no payload at all (Seen in
        // the wild: ARROW-GH-43605).
        let bytes = c.rest();
        c.take(
            groups as usize * bit_width as usize,
            "bit-packed run values",
        )?;
        Ok(RunHeader::Packed {
            count: groups as usize * 8,
            bytes,
        })
    } else {
        // Spec: rle-header := varint-encode( (rle-run-len) << 1)
        let len = header >> 1;
        if len == 0 || len > MAX_RUN_LEN {
            return Err(
                Error::out_of_range("RLE run length", len.min(i64::MAX as u64) as i64)
                    .at_offset(header_at),
            );
        }
        // Spec: repeated-value uses round-up-to-next-byte(bit-width) bytes, little endian.
        let raw = c.take(bit_width.div_ceil(8) as usize, "RLE run value")?;
        let value = raw.iter().rev().fold(0u32, |acc, &b| (acc << 8) | b as u32);
        if bit_width < 32 && value >> bit_width != 0 {
            return Err(
                Error::out_of_range("RLE run value for its bit width", value as i64)
                    .at_offset(header_at),
            );
        }
        Ok(RunHeader::Rle {
            value,
            len: len as usize,
        })
    }
}

/// The hybrid decoder, generic over the output type. `max_width` is the widest bit width the
/// output type holds.
fn decode_hybrid<T: HybridOutput>(
    input: &[u8],
    bit_width: u32,
    max_width: u32,
    num_values: usize,
    out: &mut Vec<T>,
) -> Result<usize> {
    if bit_width > max_width {
        return Err(Error::out_of_range(
            "RLE/bit-packing hybrid bit width",
            bit_width as i64,
        ));
    }
    let mut c = Cursor::new(input);
    // A count from the input is only a promise: reserve what the input could justify for
    // bit-packed data, and let long RLE runs grow the vector as they are decoded.
    out.reserve(num_values.min(input.len().saturating_mul(8).saturating_add(8)));
    let mut remaining = num_values;
    while remaining > 0 {
        match run_header(&mut c, bit_width)? {
            RunHeader::Packed { count, bytes } => {
                // Values past `num_values` are the padding of the last group(s): discarded.
                let n = count.min(remaining);
                // The unpacker gets the bytes after the run too (see `for_each_run`).
                T::unpack(bytes, bit_width, n, out);
                remaining -= n;
            }
            RunHeader::Rle { value, len } => {
                let n = len.min(remaining);
                out.resize(out.len() + n, T::from_u32(value));
                remaining -= n;
            }
        }
    }
    Ok(c.position())
}

/// One run of the hybrid, as [`for_each_run`] hands it out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Run<'a> {
    /// `count` copies of a value (an RLE run, or a whole bit-width-0 packed run).
    Repeat(u32, usize),
    /// Unpacked values of a bit-packed run, at most 512 at a time.
    Packed(&'a [u32]),
}

/// The hybrid decoder as a visitor: calls `f` for each run of the first `num_values` values,
/// without materialising them (RLE runs stay a value and a count; bit-packed runs are
/// unpacked 512 values at a time into a stack buffer). The fast paths of dictionary gathering
/// and level decoding consume runs directly; [`decode_hybrid`] is their reference.
///
/// Same checks, errors and bounds as [`decode_u32`] (widths 0 to 32); `f`'s error stops the
/// decoding and is returned.
#[inline]
pub(crate) fn for_each_run(
    input: &[u8],
    bit_width: u32,
    num_values: usize,
    mut f: impl FnMut(Run<'_>) -> Result<()>,
) -> Result<usize> {
    if bit_width > 32 {
        return Err(Error::out_of_range(
            "RLE/bit-packing hybrid bit width",
            bit_width as i64,
        ));
    }
    let w = bit_width as usize;
    let mut c = Cursor::new(input);
    let mut tmp = [0u32; 512];
    let mut remaining = num_values;
    while remaining > 0 {
        match run_header(&mut c, bit_width)? {
            RunHeader::Packed { count, bytes } => {
                let n = count.min(remaining);
                remaining -= n;
                if w == 0 {
                    f(Run::Repeat(0, n))?;
                    continue;
                }
                // 512 values of any width end on a byte boundary. The unpacker gets the bytes
                // after the run too: it reads a group through a 72-byte window where 72 bytes
                // remain, and copies the group into a padded buffer where they do not, which
                // for a run cut at its end was every group of a short run (most runs of
                // dictionary indices) and the last 72 bytes of a long one. Only the run's own
                // bits are used.
                for k in (0..n).step_by(512) {
                    let m = (n - k).min(512);
                    let src = bytes.get(k / 8 * w..).unwrap_or(&[]);
                    bitpack::unpack32(src, bit_width, &mut tmp[..m]);
                    f(Run::Packed(&tmp[..m]))?;
                }
            }
            RunHeader::Rle { value, len } => {
                let n = len.min(remaining);
                remaining -= n;
                f(Run::Repeat(value, n))?;
            }
        }
    }
    Ok(c.position())
}

/// What [`decode_levels_counted`] saw besides the levels: the largest level, and how many
/// levels equal a given value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct LevelCounts {
    /// The largest level decoded (0 when none).
    pub highest: u16,
    /// Levels equal to the `count_of` argument.
    pub count: usize,
}

// The one point of choice between the decoders of default builds ([`fast`]: one instance of
// the hybrid decoder per output type; levels decoded and counted in one pass) and those of
// builds for size (`cfg(parket_opt_size)`, [`compact`]: levels and booleans through the `u32`
// instance; levels decoded, then counted). Same signatures, same values and errors (property
// tests compare them).
#[cfg(parket_opt_size)]
use compact as variant;
#[cfg(not(parket_opt_size))]
use fast as variant;

pub(crate) use variant::decode_levels_counted;

/// The decoders of default builds.
#[cfg(not(parket_opt_size))]
mod fast {
    use alloc::vec::Vec;

    use super::{
        decode_hybrid, for_each_run, run_header, HybridOutput, LevelCounts, Run, RunHeader,
    };
    use crate::bytes::Cursor;
    use crate::error::{Error, Result};

    /// [`run_header`] reads a one-byte header in place (the general ULEB128 reader costs a
    /// third of a short run).
    pub(super) const ONE_BYTE_HEADERS: bool = true;

    /// [`decode_hybrid`] for levels and booleans: its own instance per output type.
    #[inline]
    pub(super) fn decode_narrow<T: HybridOutput>(
        input: &[u8],
        bit_width: u32,
        max_width: u32,
        num_values: usize,
        out: &mut Vec<T>,
    ) -> Result<usize> {
        decode_hybrid(input, bit_width, max_width, num_values, out)
    }

    /// [`super::decode_levels`]: width 1 (every optional column outside lists) by the
    /// reader's own decoder, [`decode_levels_counted`], the other widths by the hybrid decoder.
    #[inline]
    pub(super) fn decode_levels(
        input: &[u8],
        bit_width: u32,
        num_values: usize,
        out: &mut Vec<u16>,
    ) -> Result<usize> {
        if bit_width == 1 {
            return decode_levels_counted(input, 1, num_values, 0, out).map(|(used, _)| used);
        }
        decode_narrow(input, bit_width, 16, num_values, out)
    }

    /// [`decode_levels`] fused with the pass a page makes over its levels: also returns the
    /// largest level and the number equal to `count_of` (the max definition level: non-null
    /// values; repetition level 0: rows). RLE runs are filled and counted as runs. The naive
    /// reference is `decode_levels` followed by a scan; a property test compares them.
    pub(crate) fn decode_levels_counted(
        input: &[u8],
        bit_width: u32,
        num_values: usize,
        count_of: u16,
        out: &mut Vec<u16>,
    ) -> Result<(usize, LevelCounts)> {
        if bit_width > 16 {
            return Err(Error::out_of_range(
                "RLE/bit-packing hybrid bit width",
                bit_width as i64,
            ));
        }
        out.reserve(num_values.min(input.len().saturating_mul(8).saturating_add(8)));
        if bit_width == 1 {
            return levels_width1(input, num_values, count_of, out);
        }
        let mut counts = LevelCounts::default();
        let used = for_each_run(input, bit_width, num_values, |run| {
            match run {
                Run::Repeat(v, n) => {
                    // bit_width <= 16: v fits.
                    let v = v as u16;
                    out.resize(out.len() + n, v);
                    counts.highest = counts.highest.max(v);
                    counts.count += if v == count_of { n } else { 0 };
                }
                Run::Packed(values) => {
                    // Separate passes with 32-bit accumulators, each vectorised (one loop
                    // updating both, with a usize count, was not).
                    let highest = values.iter().fold(0u32, |a, &v| a.max(v));
                    let count: u32 = values
                        .iter()
                        .map(|&v| u32::from(v == u32::from(count_of)))
                        .sum();
                    out.extend(values.iter().map(|&v| v as u16));
                    counts.highest = counts.highest.max(highest as u16);
                    counts.count += count as usize;
                }
            }
            Ok(())
        })?;
        Ok((used, counts))
    }

    /// Each byte's 8 levels of bit width 1, LSB first: a bit-packed run at width 1 is
    /// expanded a byte at a time from here (4 KiB).
    static BITS1: [[u16; 8]; 256] = {
        let mut t = [[0u16; 8]; 256];
        let mut b = 0;
        while b < 256 {
            let mut i = 0;
            while i < 8 {
                t[b][i] = ((b >> i) & 1) as u16;
                i += 1;
            }
            b += 1;
        }
        t
    };

    /// [`decode_levels_counted`] at bit width 1 (the definition levels of every optional
    /// column outside lists): levels 0 and 1 only, so a bit-packed run's bytes expand through
    /// [`BITS1`] into the output, 64 levels per append, and are counted with `count_ones`,
    /// with no unpacking into a buffer of `u32` and no passes over it. Short runs (random
    /// nulls make runs of a group or two between RLE runs) then cost a few instructions, not
    /// a call into the generic unpacker and three short loops. A property test compares it
    /// with the generic path.
    fn levels_width1(
        input: &[u8],
        num_values: usize,
        count_of: u16,
        out: &mut Vec<u16>,
    ) -> Result<(usize, LevelCounts)> {
        let mut c = Cursor::new(input);
        let (mut ones, mut remaining) = (0usize, num_values);
        while remaining > 0 {
            match run_header(&mut c, 1)? {
                RunHeader::Packed { count, bytes } => {
                    let n = count.min(remaining);
                    remaining -= n;
                    // The run holds count / 8 >= n / 8 bytes (checked by `run_header`).
                    let (whole, rest) = bytes.split_at_checked(n / 8).unwrap_or((bytes, &[]));
                    if whole.len() <= 2 {
                        // A group or two between RLE runs (a null every few values: the
                        // lookup file's `value` pages alternate 8 packed and 9 repeated):
                        // each byte's levels appended as they are, no staging buffer.
                        for &b in whole {
                            out.extend_from_slice(&BITS1[b as usize]);
                        }
                    } else {
                        for group in whole.chunks(8) {
                            let mut buf = [0u16; 64];
                            for (dst, &b) in buf.chunks_exact_mut(8).zip(group) {
                                dst.copy_from_slice(&BITS1[b as usize]);
                            }
                            out.extend_from_slice(buf.get(..group.len() * 8).unwrap_or(&[]));
                        }
                    }
                    ones += whole.iter().map(|b| b.count_ones() as usize).sum::<usize>();
                    let tail = n % 8;
                    if tail > 0 {
                        let b = rest.first().map_or(0, |&b| b & ((1u8 << tail) - 1));
                        out.extend_from_slice(BITS1[b as usize].get(..tail).unwrap_or(&[]));
                        ones += b.count_ones() as usize;
                    }
                }
                RunHeader::Rle { value, len } => {
                    let n = len.min(remaining);
                    remaining -= n;
                    // `run_header` checked the value against the bit width: 0 or 1. A
                    // counted repeat (stores, no call) rather than `resize`.
                    out.extend(core::iter::repeat_n(value as u16, n));
                    ones += if value == 1 { n } else { 0 };
                }
            }
        }
        let counts = LevelCounts {
            highest: u16::from(ones > 0),
            count: match count_of {
                0 => num_values - ones,
                1 => ones,
                _ => 0,
            },
        };
        Ok((c.position(), counts))
    }
}

/// The decoders of builds for size.
#[cfg(any(parket_opt_size, test))]
mod compact {
    use alloc::vec::Vec;

    use super::{decode_hybrid, HybridOutput, LevelCounts};
    use crate::error::{Error, Result};

    /// Every run header through the general ULEB128 reader (the in-place path is 96 bytes).
    #[cfg_attr(not(parket_opt_size), allow(dead_code))]
    pub(super) const ONE_BYTE_HEADERS: bool = false;

    /// [`decode_hybrid`] for levels and booleans in builds for size: the
    /// `u32` instance (which dictionary indices need anyway) into a scratch vector, then a
    /// conversion, instead of one copy of the decoder per output type. Same values (also the
    /// part appended before an error) and same errors; a property test compares them.
    pub(super) fn decode_narrow<T: HybridOutput>(
        input: &[u8],
        bit_width: u32,
        max_width: u32,
        num_values: usize,
        out: &mut Vec<T>,
    ) -> Result<usize> {
        if bit_width > max_width {
            return Err(Error::out_of_range(
                "RLE/bit-packing hybrid bit width",
                bit_width as i64,
            ));
        }
        let mut values = Vec::new();
        let r = decode_hybrid::<u32>(input, bit_width, 32, num_values, &mut values);
        out.extend(values.iter().map(|&v| T::from_u32(v)));
        r
    }

    /// [`super::decode_levels`] in builds for size: every width by [`decode_narrow`].
    #[cfg_attr(test, allow(dead_code))]
    pub(super) fn decode_levels(
        input: &[u8],
        bit_width: u32,
        num_values: usize,
        out: &mut Vec<u16>,
    ) -> Result<usize> {
        decode_narrow(input, bit_width, 16, num_values, out)
    }

    /// `decode_levels_counted` for builds for size: [`super::decode_levels`],
    /// then a scan of what it appended. Same levels, counts and errors (a property test compares
    /// them), without a second copy of the hybrid decoder.
    pub(crate) fn decode_levels_counted(
        input: &[u8],
        bit_width: u32,
        num_values: usize,
        count_of: u16,
        out: &mut Vec<u16>,
    ) -> Result<(usize, LevelCounts)> {
        let start = out.len();
        // `decode_narrow`, which `decode_levels` is in these builds (and, in tests, the
        // reference the fast decoder is compared with).
        if bit_width > 16 {
            return Err(Error::out_of_range(
                "RLE/bit-packing hybrid bit width",
                bit_width as i64,
            ));
        }
        let used = decode_narrow(input, bit_width, 16, num_values, out)?;
        let levels = out.get(start..).unwrap_or(&[]);
        let counts = LevelCounts {
            highest: levels.iter().fold(0, |a, &l| a.max(l)),
            count: levels.iter().filter(|&&l| l == count_of).count(),
        };
        Ok((used, counts))
    }
}

/// [`decode_levels_counted`] after a 4-byte little-endian length prefix (Data Page V1);
/// returns `4 + length`.
pub(crate) fn decode_levels_with_length_counted(
    input: &[u8],
    bit_width: u32,
    num_values: usize,
    count_of: u16,
    out: &mut Vec<u16>,
) -> Result<(usize, LevelCounts)> {
    let data = with_length(input, "RLE levels length prefix")?;
    let (_, counts) = decode_levels_counted(data, bit_width, num_values, count_of, out)
        .map_err(|e| e.offset_by(4))?;
    Ok((4 + data.len(), counts))
}

/// Decodes `num_values` values of `bit_width` bits (0 to 32) from the hybrid stream `input`
/// (no length prefix: dictionary indices), appending to `out`; returns the bytes consumed.
///
/// Never panics, for any input. Errors on a bit width above 32, a run length outside
/// `[1, 2^31 - 1]`, a run that claims more bytes than remain, an RLE value wider than the bit
/// width, or an input that ends before `num_values` values.
pub fn decode_u32(
    input: &[u8],
    bit_width: u32,
    num_values: usize,
    out: &mut Vec<u32>,
) -> Result<usize> {
    decode_hybrid(input, bit_width, 32, num_values, out)
}

/// Decodes `num_values` levels of `bit_width` bits (0 to 16) with no length prefix (Data
/// Page V2), appending to `out`; returns the bytes consumed. Never panics, for any input.
pub fn decode_levels(
    input: &[u8],
    bit_width: u32,
    num_values: usize,
    out: &mut Vec<u16>,
) -> Result<usize> {
    variant::decode_levels(input, bit_width, num_values, out)
}

/// Reads the 4-byte little-endian length prefix and returns the encoded data it covers.
fn with_length<'a>(input: &'a [u8], what: &'static str) -> Result<&'a [u8]> {
    let mut c = Cursor::new(input);
    let len = c.u32_le(what)? as usize;
    c.take(len, what)
}

/// Decodes `num_values` levels of `bit_width` bits (0 to 16) after a 4-byte little-endian
/// length prefix (Data Page V1), decoding within exactly that many bytes; appends to `out` and
/// returns `4 + length`. Never panics, for any input.
pub fn decode_levels_with_length(
    input: &[u8],
    bit_width: u32,
    num_values: usize,
    out: &mut Vec<u16>,
) -> Result<usize> {
    let data = with_length(input, "RLE levels length prefix")?;
    decode_hybrid(data, bit_width, 16, num_values, out).map_err(|e| e.offset_by(4))?;
    Ok(4 + data.len())
}

/// Decodes `num_values` RLE-encoded BOOLEAN values (bit width 1, after a 4-byte little-endian
/// length prefix), appending to `out`; returns `4 + length`. Never panics, for any input.
pub fn decode_booleans(input: &[u8], num_values: usize, out: &mut Vec<bool>) -> Result<usize> {
    let data = with_length(input, "RLE BOOLEAN length prefix")?;
    variant::decode_narrow(data, 1, 1, num_values, out).map_err(|e| e.offset_by(4))?;
    Ok(4 + data.len())
}

/// Bytes of a ULEB128 varint of `v`.
#[inline]
fn varint_len(v: u64) -> usize {
    (bit_width(v).max(1) as usize).div_ceil(7)
}

/// Whether an RLE run of `run` values beats leaving them in bit-packed groups.
///
/// parquet-cpp and arrow-rs take every group-aligned run of 8 or more; that loses at small
/// widths (8 values at width 1 are one packed byte, but two bytes as a run plus a new
/// bit-packed header after it). Here the run is taken when its header and value, plus the
/// header of the bit-packed run that must resume after it if one is open, cost no more than
/// its packed bytes plus the header of the bit-packed run it would otherwise open. At widths
/// of 8 and up that is every run of 8 or more, as in pyarrow. Levels that a codec compresses
/// next take pyarrow's rule instead ([`encode_levels_with_length_for_codec`]).
#[inline]
fn rle_pays(run: usize, w: usize, literal_open: bool) -> bool {
    let rle_cost = varint_len((run as u64) << 1) + w.div_ceil(8) + literal_open as usize;
    let packed_cost = (run * w).div_ceil(8) + !literal_open as usize;
    run >= 8 && rle_cost <= packed_cost
}

/// What the hybrid encoder takes: `u32` values, `u16` levels, booleans.
trait HybridValue: Copy + PartialEq + Into<u32> {
    /// The values as `u32`s when they are `u32`s already, so that packing needs no copy.
    fn as_u32s(_values: &[Self]) -> Option<&[u32]> {
        None
    }
}

impl HybridValue for u32 {
    fn as_u32s(values: &[u32]) -> Option<&[u32]> {
        Some(values)
    }
}

impl HybridValue for u16 {}

impl HybridValue for bool {}

/// Appends a bit-packed run holding `values` (the last group padded with zeros).
fn write_bit_packed<T: HybridValue>(values: &[T], w: u32, out: &mut Vec<u8>) {
    if values.is_empty() {
        return;
    }
    let groups = values.len().div_ceil(8);
    encode_uleb128(((groups as u64) << 1) | 1, out);
    let start = out.len();
    if let Some(values) = T::as_u32s(values) {
        bitpack::pack32(values, w, out);
    } else {
        // Converted 64 at a time (a small buffer: runs are often short).
        let mut tmp = [0u32; 64];
        for chunk in values.chunks(64) {
            for (t, &v) in tmp.iter_mut().zip(chunk) {
                *t = v.into();
            }
            bitpack::pack32(&tmp[..chunk.len()], w, out);
        }
    }
    out.resize(start + groups * w as usize, 0);
}

/// Appends an RLE run of `len` copies of `value`, split at the spec's maximum run length.
#[inline]
fn write_rle<T: Copy + Into<u32>>(value: T, mut len: usize, w: u32, out: &mut Vec<u8>) {
    let v: u32 = value.into();
    let bytes = v.to_le_bytes();
    let nb = w.div_ceil(8) as usize;
    while len > 0 {
        let k = len.min(MAX_RUN_LEN as usize);
        encode_uleb128((k as u64) << 1, out);
        out.extend_from_slice(&bytes[..nb]);
        len -= k;
    }
}

/// How [`encode_hybrid`] chooses between an RLE run and bit-packing.
#[derive(Clone, Copy, PartialEq)]
enum Runs {
    /// An RLE run where that is no larger ([`rle_pays`]): the smallest output.
    Smallest,
    /// Every group-aligned run of 8 or more, as parquet-cpp and arrow-rs write.
    Every,
}

/// The hybrid encoder over any element type.
fn encode_hybrid<T: HybridValue>(values: &[T], bit_width: u32, out: &mut Vec<u8>) {
    encode_hybrid_with(values, bit_width, Runs::Smallest, out)
}

fn encode_hybrid_with<T: HybridValue>(values: &[T], bit_width: u32, runs: Runs, out: &mut Vec<u8>) {
    debug_assert!(bit_width <= 32);
    let w = bit_width.min(32);
    let n = values.len();
    // Largest bit-packed run: a whole number of groups within the spec's run length.
    let max_literal = (MAX_RUN_LEN as usize / 8) * 8;
    let mut literal_start = 0;
    let mut i = 0;
    while i < n {
        // Here `i - literal_start` is a multiple of 8: a run may only start on a group boundary
        // of the open bit-packed run, since every value of a group but the last counts.
        let v = values[i];
        // Neither rule takes a run shorter than 8 (at width 0 every run is taken): the 8th
        // value alone rules most groups of a literal stretch out.
        if w > 0 && values.get(i + 7).is_some_and(|&x| x != v) {
            i += 8;
            if i - literal_start >= max_literal {
                write_bit_packed(&values[literal_start..i], w, out);
                literal_start = i;
            }
            continue;
        }
        let run = run_length(&values[i..], v);
        let take = match runs {
            Runs::Smallest => rle_pays(run, w as usize, i > literal_start),
            Runs::Every => run >= 8,
        };
        if w == 0 || take {
            write_bit_packed(&values[literal_start..i], w, out);
            write_rle(v, run, w, out);
            i += run;
            literal_start = i;
        } else {
            i = (i + 8).min(n);
            if i - literal_start >= max_literal {
                write_bit_packed(&values[literal_start..i], w, out);
                literal_start = i;
            }
        }
    }
    write_bit_packed(&values[literal_start..], w, out);
}

/// How many of `values`, from the first, equal `v`: 16 at a time while all 16 do (a
/// branch-free fold the compiler turns into vector compares), then one at a time.
#[inline]
fn run_length<T: Copy + PartialEq>(values: &[T], v: T) -> usize {
    let mut n = 0;
    for c in values.chunks_exact(16) {
        if !c.iter().fold(true, |all, &x| all & (x == v)) {
            break;
        }
        n += 16;
    }
    n + values
        .get(n..)
        .unwrap_or(&[])
        .iter()
        .take_while(|&&x| x == v)
        .count()
}

/// Appends the hybrid encoding (no length prefix) of `values`, each of `bit_width` bits (0 to
/// 32). Runs of repeats become RLE runs where that is smaller; the rest is bit-packed in runs
/// as long as possible. Bits of a value above `bit_width` must be zero (a caller bug
/// otherwise: the output would not decode to the same values).
pub fn encode_u32(values: &[u32], bit_width: u32, out: &mut Vec<u8>) {
    debug_assert!(values
        .iter()
        .all(|&v| bit_width >= 32 || v >> bit_width == 0));
    encode_hybrid(values, bit_width, out)
}

/// Appends the hybrid encoding of `levels` at `bit_width` (0 to 16), with no length prefix
/// (Data Page V2).
pub fn encode_levels(levels: &[u16], bit_width: u32, out: &mut Vec<u8>) {
    debug_assert!(bit_width <= 16);
    encode_hybrid(levels, bit_width, out)
}

/// Runs `f` to append data, then writes its length as a 4-byte little-endian prefix.
fn prefixed(out: &mut Vec<u8>, f: impl FnOnce(&mut Vec<u8>)) {
    let at = out.len();
    out.extend_from_slice(&[0; 4]);
    f(out);
    // A page cannot exceed 2^31 bytes (its header's sizes are i32), so this never saturates.
    let len = u32::try_from(out.len() - at - 4).unwrap_or(u32::MAX);
    out[at..at + 4].copy_from_slice(&len.to_le_bytes());
}

/// Appends the hybrid encoding of `levels` at `bit_width` (0 to 16) after its 4-byte
/// little-endian length (Data Page V1).
pub fn encode_levels_with_length(levels: &[u16], bit_width: u32, out: &mut Vec<u8>) {
    debug_assert!(bit_width <= 16);
    prefixed(out, |out| encode_hybrid(levels, bit_width, out))
}

/// [`encode_levels_with_length`] for levels that a codec compresses together with the values
/// (Data Page V1 with a codec): every run of 8 or more repeats becomes an RLE run, as
/// parquet-cpp and arrow-rs write them, even where bit-packing it would be a byte shorter.
/// Repeated runs repeat byte for byte, and the codec shrinks them further than the packed
/// bytes: on the nested benchmark file (V1, ZSTD) the whole file is 12 KB smaller this way.
/// Dictionary indices, measured the same way, compress better with the smallest encoding.
pub fn encode_levels_with_length_for_codec(levels: &[u16], bit_width: u32, out: &mut Vec<u8>) {
    debug_assert!(bit_width <= 16);
    prefixed(out, |out| {
        encode_hybrid_with(levels, bit_width, Runs::Every, out)
    })
}

/// The hybrid encoder of levels fed as they arrive, a slice at a time: the bytes it gives
/// are those [`encode_levels`] (or, built [`LevelEncoder::for_codec`],
/// [`encode_levels_with_length_for_codec`] without its prefix) gives for all the levels at
/// once, without keeping the levels. It holds the runs written so far, the packed groups of
/// the bit-packed run still open, and the few levels whose run is not yet decided: fewer
/// than 8, or one run of repeats, kept as its value and length.
///
/// The batch encoder decides at each group boundary from the next 8 values and, where they
/// start a run, from the run's whole length; this one makes the same decision as soon as
/// what it needs has arrived (a run's length is known once a different level arrives, or at
/// the end).
#[derive(Debug, Clone, Default)]
pub struct LevelEncoder {
    bit_width: u32,
    runs_every: bool,
    /// Runs complete, then the open bit-packed run: a byte held for its header at
    /// `literal_at`, then its groups packed.
    out: Vec<u8>,
    literal_at: usize,
    /// Values in the open bit-packed run (a multiple of 8; 0 when none is open).
    literal_values: usize,
    /// Levels not yet decided (fewer than 8 unless `run` is set, then empty).
    pending: Vec<u16>,
    /// A run of repeats reaching the last level put: its value and length (8 or more).
    run: Option<(u16, usize)>,
    /// Levels put since the last [`LevelEncoder::finish_into`].
    count: usize,
}

impl LevelEncoder {
    /// An encoder of levels of `bit_width` bits (0 to 16), runs chosen as
    /// [`encode_levels`] chooses them.
    pub fn new(bit_width: u32) -> LevelEncoder {
        LevelEncoder {
            bit_width: bit_width.min(16),
            ..LevelEncoder::default()
        }
    }

    /// An encoder whose runs are chosen as [`encode_levels_with_length_for_codec`] chooses
    /// them (every run of 8 or more).
    pub fn for_codec(bit_width: u32) -> LevelEncoder {
        LevelEncoder {
            runs_every: true,
            ..LevelEncoder::new(bit_width)
        }
    }

    /// The same encoder, emptied (buffers kept), for levels of `bit_width` bits, runs chosen
    /// for a codec when `for_codec`.
    pub fn reset(&mut self, bit_width: u32, for_codec: bool) {
        self.clear();
        self.bit_width = bit_width.min(16);
        self.runs_every = for_codec;
    }

    /// Empties the encoder (buffers, width and run choice kept).
    pub fn clear(&mut self) {
        self.out.clear();
        self.literal_at = 0;
        self.literal_values = 0;
        self.pending.clear();
        self.run = None;
        self.count = 0;
    }

    /// Levels put since the encoder was last emptied.
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether no level was put since the encoder was last emptied.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Appends levels (each at most `2^bit_width - 1`).
    pub fn put(&mut self, levels: &[u16]) {
        if levels.is_empty() {
            return;
        }
        self.count += levels.len();
        let mut rest = levels;
        loop {
            rest = self.resume_run(rest, false);
            if rest.is_empty() {
                return;
            }
            if self.pending.is_empty() {
                let done = self.encode(rest, false);
                self.pending.extend_from_slice(&rest[done..]);
                return;
            }
            // The pending levels (fewer than 8) go first, with the start of `rest` to decide
            // them; once they are encoded, the loop goes on over `rest` itself, not a copy.
            let p = self.pending.len();
            let k = rest.len().min(64);
            let mut buf = core::mem::take(&mut self.pending);
            buf.extend_from_slice(&rest[..k]);
            let done = self.encode(&buf, false);
            if self.run.is_some() {
                // A run reached the end of `buf`: it may go on in `rest[k..]`.
                rest = &rest[k..];
                buf.clear();
            } else if done >= p {
                rest = &rest[done - p..];
                buf.clear();
            } else {
                // Fewer than 8 levels left undecided, all of `rest` among them.
                buf.drain(..done);
                rest = &[];
            }
            self.pending = buf;
        }
    }

    /// Appends the encoding of all levels put (no length prefix) to `out` and empties the
    /// encoder for the next levels.
    pub fn finish_into(&mut self, out: &mut Vec<u8>) {
        let rest = self.resume_run(&[], true);
        debug_assert!(rest.is_empty());
        let pending = core::mem::take(&mut self.pending);
        let done = self.encode(&pending, true);
        debug_assert_eq!(done, pending.len());
        self.pending = pending;
        self.flush_literal();
        out.extend_from_slice(&self.out);
        self.clear();
    }

    /// With a run open: extends it over the levels of `levels` that repeat it and, when a
    /// different level follows (or at the end), writes it as the batch encoder would.
    /// Returns the levels after the run.
    fn resume_run<'l>(&mut self, levels: &'l [u16], end: bool) -> &'l [u16] {
        let Some((v, len)) = self.run else {
            return levels;
        };
        let k = run_length(levels, v);
        let len = len + k;
        let rest = &levels[k..];
        if rest.is_empty() && !end {
            self.run = Some((v, len));
            return rest;
        }
        self.run = None;
        if self.takes(len, self.literal_values > 0) {
            self.flush_literal();
            write_rle(v, len, self.bit_width, &mut self.out);
            return rest;
        }
        // Not worth a run (a short one): the batch encoder moves on by a group, and decides
        // again from there; so does this one, over the run's levels put back.
        self.pending.resize(len, v);
        self.pending.extend_from_slice(rest);
        let pending = core::mem::take(&mut self.pending);
        let done = self.encode(&pending, end);
        self.pending = pending;
        self.pending.drain(..done);
        &[]
    }

    /// The batch encoder's loop over `values`, which start at a group boundary of the open
    /// bit-packed run, stopping (unless at the `end`) where a decision needs levels not yet
    /// put. Returns how many of `values` are encoded (the rest stays pending); a run reaching
    /// the end of `values` is kept in `run` and counted as encoded.
    fn encode(&mut self, values: &[u16], end: bool) -> usize {
        let w = self.bit_width;
        let n = values.len();
        let max_literal = (MAX_RUN_LEN as usize / 8) * 8;
        // Values of the open bit-packed run already packed (before `literal_start`).
        let mut open = self.literal_values;
        let mut literal_start = 0;
        let mut i = 0;
        // Short of the end, a decision needs 8 levels from `i`.
        let stop = if end { n } else { n.saturating_sub(7) };
        while i < stop {
            let v = values[i];
            if w > 0 && values.get(i + 7).is_some_and(|&x| x != v) {
                i += 8;
                if open + (i - literal_start) >= max_literal {
                    self.pack(&values[literal_start..i]);
                    literal_start = i;
                    self.flush_literal();
                    open = 0;
                }
                continue;
            }
            let run = run_length(&values[i..], v);
            if i + run == n && !end {
                // The run may go on in the next levels.
                self.pack(&values[literal_start..i]);
                self.run = Some((v, run));
                return n;
            }
            if self.takes(run, open + (i - literal_start) > 0) {
                self.pack(&values[literal_start..i]);
                self.flush_literal();
                open = 0;
                write_rle(v, run, w, &mut self.out);
                i += run;
                literal_start = i;
            } else {
                i = (i + 8).min(n);
                if open + (i - literal_start) >= max_literal {
                    self.pack(&values[literal_start..i]);
                    literal_start = i;
                    self.flush_literal();
                    open = 0;
                }
            }
        }
        self.pack(&values[literal_start..i]);
        i
    }

    /// Whether a run of `len` repeats at a group boundary becomes an RLE run (as
    /// `encode_hybrid_with` decides), a bit-packed run being open or not.
    fn takes(&self, len: usize, literal_open: bool) -> bool {
        let w = self.bit_width;
        w == 0
            || if self.runs_every {
                len >= 8
            } else {
                rle_pays(len, w as usize, literal_open)
            }
    }

    /// Adds `values` (whole groups, but for the last ones at the end) to the open bit-packed
    /// run, opening one (its header byte held) if none is.
    fn pack(&mut self, values: &[u16]) {
        if values.is_empty() {
            return;
        }
        if self.literal_values == 0 {
            self.literal_at = self.out.len();
            self.out.push(0);
        }
        let mut tmp = [0u32; 64];
        for chunk in values.chunks(64) {
            for (t, &v) in tmp.iter_mut().zip(chunk) {
                *t = v.into();
            }
            bitpack::pack32(&tmp[..chunk.len()], self.bit_width, &mut self.out);
        }
        self.literal_values += values.len();
    }

    /// Ends the open bit-packed run: pads its last group and writes its header in the byte
    /// held for it (moving the groups when the header takes more).
    fn flush_literal(&mut self) {
        let values = self.literal_values;
        if values == 0 {
            return;
        }
        let groups = values.div_ceil(8);
        let at = self.literal_at;
        self.out
            .resize(at + 1 + groups * self.bit_width as usize, 0);
        let header_value = ((groups as u64) << 1) | 1;
        if header_value < 0x80 {
            self.out[at] = header_value as u8;
        } else {
            let mut header = Vec::new();
            encode_uleb128(header_value, &mut header);
            self.out[at] = header[0];
            self.out.splice(at + 1..at + 1, header[1..].iter().copied());
        }
        self.literal_values = 0;
    }
}

/// Appends BOOLEAN values in the RLE encoding: bit width 1, after a 4-byte little-endian
/// length.
pub fn encode_booleans(values: &[bool], out: &mut Vec<u8>) {
    prefixed(out, |out| encode_hybrid(values, 1, out))
}

/// Fuzzing harness: derives a bit width, a value count and a mode from the first bytes and
/// runs the decoders on the rest; whatever decodes must re-encode and decode to the same
/// values. Panics only if the decoder breaks one of its own guarantees.
#[cfg(any(test, feature = "fuzzing"))]
#[doc(hidden)]
pub fn fuzz_decode(data: &[u8]) {
    let [w, n0, n1, mode, rest @ ..] = data else {
        return;
    };
    let bit_width = (*w % 34) as u32; // 33 tests the bit-width error
    let num_values = u16::from_le_bytes([*n0, *n1]) as usize;
    match mode % 4 {
        0 => {
            let mut out = Vec::new();
            if let Ok(used) = decode_u32(rest, bit_width, num_values, &mut out) {
                assert!(used <= rest.len());
                assert_eq!(out.len(), num_values);
                let mut again = Vec::new();
                encode_u32(&out, bit_width, &mut again);
                let mut back = Vec::new();
                let used2 = decode_u32(&again, bit_width, num_values, &mut back);
                assert_eq!(used2.ok(), Some(again.len()));
                assert_eq!(back, out);
            }
        }
        1 => {
            let mut out = Vec::new();
            if let Ok(used) = decode_levels(rest, bit_width, num_values, &mut out) {
                assert!(used <= rest.len());
                assert_eq!(out.len(), num_values);
                let mut again = Vec::new();
                encode_levels(&out, bit_width, &mut again);
                let mut back = Vec::new();
                assert!(decode_levels(&again, bit_width, num_values, &mut back).is_ok());
                assert_eq!(back, out);
            }
        }
        2 => {
            let mut out = Vec::new();
            if let Ok(used) = decode_levels_with_length(rest, bit_width, num_values, &mut out) {
                assert!(used <= rest.len());
                assert_eq!(out.len(), num_values);
            }
        }
        _ => {
            let mut out = Vec::new();
            if let Ok(used) = decode_booleans(rest, num_values, &mut out) {
                assert!(used <= rest.len());
                assert_eq!(out.len(), num_values);
                let mut again = Vec::new();
                encode_booleans(&out, &mut again);
                let mut back = Vec::new();
                assert_eq!(
                    decode_booleans(&again, num_values, &mut back).ok(),
                    Some(again.len())
                );
                assert_eq!(back, out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;
    use alloc::vec;
    use proptest::prelude::*;

    /// Levels with long runs, short runs and noise, split into slices at random points:
    /// the streaming encoder gives the batch encoder's bytes in both run modes.
    fn levels_and_cuts() -> impl Strategy<Value = (u32, Vec<u16>, Vec<usize>)> {
        (
            0u32..=3,
            proptest::collection::vec((0u16..8, 1usize..40, any::<bool>()), 0..60),
        )
            .prop_flat_map(|(w, parts)| {
                let max = (1u16 << w) - 1;
                let mut levels = Vec::new();
                for (i, &(v, len, noisy)) in parts.iter().enumerate() {
                    for k in 0..len {
                        let x = if noisy {
                            (v as usize * 7 + k * 3 + i) as u16
                        } else {
                            v
                        };
                        levels.push(x & max);
                    }
                }
                let n = levels.len();
                (
                    Just(w),
                    Just(levels),
                    proptest::collection::vec(0..=n, 0..12),
                )
            })
    }

    proptest! {
        #[test]
        fn level_encoder_matches_batch((w, levels, mut cuts) in levels_and_cuts(), every in any::<bool>(), long in 0usize..3) {
            // Some runs long enough to cross many slices.
            let mut levels = levels;
            if long > 0 && !levels.is_empty() {
                let at = levels.len() / 2;
                let v = levels[at];
                levels.splice(at..at, core::iter::repeat_n(v, long * 300));
            }
            let mut expected = Vec::new();
            let runs = if every { Runs::Every } else { Runs::Smallest };
            encode_hybrid_with(&levels, w, runs, &mut expected);
            cuts.push(0);
            cuts.push(levels.len());
            for c in cuts.iter_mut() {
                *c = (*c).min(levels.len());
            }
            cuts.sort_unstable();
            let mut enc = if every { LevelEncoder::for_codec(w) } else { LevelEncoder::new(w) };
            // Twice: the encoder is emptied by finish_into and reused.
            for _ in 0..2 {
                for pair in cuts.windows(2) {
                    enc.put(&levels[pair[0]..pair[1]]);
                }
                prop_assert_eq!(enc.len(), levels.len());
                let mut got = vec![0xAA];
                enc.finish_into(&mut got);
                prop_assert_eq!(&got[1..], &expected[..]);
                prop_assert!(enc.is_empty());
            }
        }
    }

    #[test]
    fn level_encoder_worked_runs() {
        // Width 1: 20 ones then 1 0 1 (one padded group), fed a level at a time.
        let levels: Vec<u16> = core::iter::repeat_n(1, 20).chain([1, 0, 1]).collect();
        let mut enc = LevelEncoder::new(1);
        for l in &levels {
            enc.put(core::slice::from_ref(l));
        }
        let mut got = Vec::new();
        enc.finish_into(&mut got);
        // RLE run of 21 ones (varint 42, value byte 01), then one group: 0 1 -> 0b10.
        assert_eq!(got, [42, 1, 3, 0b10]);
        // 2000 alternating levels fed 7 at a time: one bit-packed run of 250 groups, whose
        // header (varint 501) takes two bytes.
        let levels: Vec<u16> = (0..2000).map(|i| i % 2).collect();
        let mut enc = LevelEncoder::new(1);
        for c in levels.chunks(7) {
            enc.put(c);
        }
        let mut got = Vec::new();
        enc.finish_into(&mut got);
        let mut expected = vec![0xF5, 0x03];
        expected.extend(core::iter::repeat_n(0xAA, 250));
        assert_eq!(got, expected);
    }

    fn mask(w: u32) -> u32 {
        if w >= 32 {
            u32::MAX
        } else {
            (1 << w) - 1
        }
    }

    #[test]
    fn levels_for_a_codec_take_every_run_of_eight() {
        // Width 1: 0 1 0 1 0 1 0 1, eight 1s, 0 1 0 1 0 1 0 1 (LSB first: 0xAA, 0xFF, 0xAA).
        let mut levels = vec![0u16, 1, 0, 1, 0, 1, 0, 1];
        levels.extend([1; 8]);
        levels.extend([0, 1, 0, 1, 0, 1, 0, 1]);
        // Smallest: one bit-packed run of 3 groups (header 3 << 1 | 1), 8 bytes with the
        // length. The run of 1s as RLE would cost its header and value plus a new bit-packed
        // header: 3 bytes for the 1 packed byte it replaces.
        let mut smallest = Vec::new();
        encode_levels_with_length(&levels, 1, &mut smallest);
        assert_eq!(smallest, [4, 0, 0, 0, 0x07, 0xAA, 0xFF, 0xAA]);
        // For a codec: 1 group packed, then RLE 8 x 1 (header 8 << 1, value 1), then 1 group.
        let mut every = Vec::new();
        encode_levels_with_length_for_codec(&levels, 1, &mut every);
        assert_eq!(every, [6, 0, 0, 0, 0x03, 0xAA, 0x10, 0x01, 0x03, 0xAA]);
        for bytes in [smallest, every] {
            let mut back = Vec::new();
            decode_levels_with_length(&bytes, 1, levels.len(), &mut back).unwrap();
            assert_eq!(back, levels);
        }
    }

    #[test]
    fn spec_example_bit_packed_run() {
        // Encodings.md, RLE note 1: 0..=7 at width 3 pack to 10001000 11000110 11111010;
        // as a hybrid stream that is one bit-packed run of one group: header 1 << 1 | 1.
        let bytes = [0x03, 0b1000_1000, 0b1100_0110, 0b1111_1010];
        let mut out = Vec::new();
        assert_eq!(decode_u32(&bytes, 3, 8, &mut out).unwrap(), 4);
        assert_eq!(out, [0, 1, 2, 3, 4, 5, 6, 7]);
        let mut enc = Vec::new();
        encode_u32(&out, 3, &mut enc);
        assert_eq!(enc, bytes);
    }

    #[test]
    fn hand_worked_runs() {
        // 300 zeros at width 1: RLE header varint(600) = D8 04, value 00.
        let mut enc = Vec::new();
        encode_levels(&[0; 300], 1, &mut enc);
        assert_eq!(enc, [0xD8, 0x04, 0x00]);
        // Width 9 needs 2 value bytes: 8 copies of 0x101 -> 10 01 01.
        let mut enc = Vec::new();
        encode_u32(&[0x101; 8], 9, &mut enc);
        assert_eq!(enc, [0x10, 0x01, 0x01]);
        // With the V1 prefix: 4 bytes of length first.
        let mut enc = Vec::new();
        encode_levels_with_length(&[0; 300], 1, &mut enc);
        assert_eq!(enc, [3, 0, 0, 0, 0xD8, 0x04, 0x00]);
        let mut lv = Vec::new();
        assert_eq!(decode_levels_with_length(&enc, 1, 300, &mut lv).unwrap(), 7);
        assert_eq!(lv, vec![0; 300]);
        // Booleans: true, false, true -> one group 0b00000101 behind header 03.
        let mut enc = Vec::new();
        encode_booleans(&[true, false, true], &mut enc);
        assert_eq!(enc, [2, 0, 0, 0, 0x03, 0x05]);
        let mut b = Vec::new();
        assert_eq!(decode_booleans(&enc, 3, &mut b).unwrap(), 6);
        assert_eq!(b, [true, false, true]);
    }

    #[test]
    fn width_zero_bit_packed_without_payload() {
        // bad_data/ARROW-GH-43605.parquet: after the dictionary's bit width byte 00, the
        // stream b3 29 is a bit-packed header of 2649 groups and no payload.
        let mut out = Vec::new();
        assert_eq!(decode_u32(&[0xb3, 0x29], 0, 21186, &mut out).unwrap(), 2);
        assert_eq!(out.len(), 21186);
        assert!(out.iter().all(|&v| v == 0));
    }

    #[test]
    fn padding_is_discarded_and_decoding_stops() {
        // One group of 8 at width 3, but only 3 values wanted; trailing garbage is not read.
        let bytes = [0x03, 0x88, 0xC6, 0xFA, 0xFF, 0xFF];
        let mut out = Vec::new();
        assert_eq!(decode_u32(&bytes, 3, 3, &mut out).unwrap(), 4);
        assert_eq!(out, [0, 1, 2]);
        // An RLE run longer than needed is clamped.
        let mut out = Vec::new();
        assert_eq!(decode_u32(&[0x14, 0x04], 3, 4, &mut out).unwrap(), 2);
        assert_eq!(out, [4; 4]);
    }

    #[test]
    fn hostile_headers() {
        let huge = usize::MAX / 2;
        let cases: &[(&[u8], u32)] = &[
            (&[0x03], 8),                         // bit-packed group, no payload
            (&[0xff, 0xff, 0xff, 0xff, 0x0f], 8), // 2^31 groups
            (&[0x14], 8),                         // RLE run without its value
            (&[0x00, 0x00], 8),                   // RLE run of length 0
            (&[0x01], 8),                         // bit-packed run of 0 groups
            (&[0x02, 0x02], 1),                   // value 2 at width 1
            (&[], 4),                             // nothing at all
            (
                &[
                    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,
                ],
                1,
            ),
        ];
        for (input, w) in cases {
            let mut out: Vec<u32> = Vec::new();
            assert!(decode_u32(input, *w, huge, &mut out).is_err(), "{input:?}");
            assert!(out.capacity() <= 8 * input.len() + 8, "{input:?}");
        }
        let e = decode_u32(&[], 33, 1, &mut Vec::new()).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::OutOfRange { .. }));
        assert!(decode_levels(&[0x02, 0x00], 17, 1, &mut Vec::new()).is_err());
        // Length prefix longer than the input.
        assert!(decode_levels_with_length(&[9, 0, 0, 0, 0x02, 0], 1, 1, &mut Vec::new()).is_err());
        // The data must fit within the length: one RLE run of width 8 needs 2 bytes, not 1.
        assert!(decode_levels_with_length(&[1, 0, 0, 0, 0x02, 5], 8, 1, &mut Vec::new()).is_err());
        // The empty input decodes zero values.
        assert_eq!(decode_u32(&[], 5, 0, &mut Vec::new()).unwrap(), 0);
    }

    #[test]
    fn small_widths_prefer_packing_short_runs() {
        // At width 1, 0 1 0 1 0 1 0 1, sixteen 1s, 0 1 0 1 0 1 0 1. parquet-cpp writes
        // 03 AA | 20 01 | 03 AA (6 bytes): the run of 16 costs 2 bytes packed versus 2
        // (header, value) + 1 (a second bit-packed header) as a run. Here: one run of 4 groups.
        let mut v: Vec<u16> = (0..8).map(|i| i % 2).collect();
        v.extend([1u16; 16]);
        v.extend((0..8).map(|i| i % 2));
        let mut enc = Vec::new();
        encode_levels(&v, 1, &mut enc);
        assert_eq!(enc, [0x09, 0xaa, 0xff, 0xff, 0xaa]);
        // Without an open bit-packed run, a tie goes to the run: 16 ones -> 20 01.
        let mut enc = Vec::new();
        encode_levels(&[1; 16], 1, &mut enc);
        assert_eq!(enc, [0x20, 0x01]);
    }

    #[test]
    fn width1_short_runs_hand_worked() {
        // The lookup file's `value` levels: a null every 17th row, written as one packed
        // group (header 0x03) and an RLE run of 9 ones (header 0x12, value 01), over and over;
        // then 100 zeros behind a two-byte header (varint 200 = C8 01).
        let mut enc = Vec::new();
        for _ in 0..3 {
            enc.extend_from_slice(&[0x03, 0b1111_1110, 0x12, 0x01]);
        }
        enc.extend_from_slice(&[0xC8, 0x01, 0x00]);
        let mut want = Vec::new();
        for _ in 0..3 {
            want.push(0u16);
            want.extend([1u16; 16]);
        }
        want.extend([0u16; 100]);
        let mut got = vec![9u16];
        let (used, counts) = decode_levels_counted(&enc, 1, want.len(), 1, &mut got).unwrap();
        assert_eq!((used, counts.count, counts.highest), (enc.len(), 48, 1));
        assert_eq!(&got[1..], &want[..]);
        // A header cut after its first byte is an error, as before.
        assert!(decode_levels_counted(&[0xC8], 1, 1, 1, &mut got).is_err());
    }

    proptest! {
        #[test]
        fn roundtrip_u32(
            width in 0u32..=32,
            runs in proptest::collection::vec((any::<u32>(), 1usize..40), 0..30),
        ) {
            let values: Vec<u32> = runs
                .iter()
                .flat_map(|&(v, n)| core::iter::repeat_n(v & mask(width), n))
                .collect();
            let mut enc = Vec::new();
            encode_u32(&values, width, &mut enc);
            let mut back = Vec::new();
            prop_assert_eq!(decode_u32(&enc, width, values.len(), &mut back).unwrap(), enc.len());
            prop_assert_eq!(&back, &values);
            // Never larger than all-bit-packed with one header (the parquet-cpp worst case).
            let packed = 8 + bitpack::packed_len(values.len().div_ceil(8) * 8, width);
            prop_assert!(enc.len() <= packed.max(8), "{} > {}", enc.len(), packed);
        }

        #[test]
        fn levels_for_a_codec_roundtrip(
            width in 1u32..=3,
            runs in proptest::collection::vec((0u16..8, 1usize..20), 0..40),
        ) {
            // Runs of every length around 8, at and off group boundaries.
            let levels: Vec<u16> = runs
                .iter()
                .flat_map(|&(v, n)| core::iter::repeat_n(v & mask(width) as u16, n))
                .collect();
            let mut enc = Vec::new();
            encode_levels_with_length_for_codec(&levels, width, &mut enc);
            let mut back = Vec::new();
            prop_assert_eq!(decode_levels_with_length(&enc, width, levels.len(), &mut back).unwrap(), enc.len());
            prop_assert_eq!(&back, &levels);
        }

        #[test]
        fn roundtrip_levels_and_booleans(
            width in 0u32..=16,
            raw in proptest::collection::vec(any::<u16>(), 0..300),
        ) {
            let levels: Vec<u16> = raw.iter().map(|&v| (v as u32 & mask(width)) as u16).collect();
            let mut enc = Vec::new();
            encode_levels_with_length(&levels, width, &mut enc);
            let mut back = Vec::new();
            prop_assert_eq!(decode_levels_with_length(&enc, width, levels.len(), &mut back).unwrap(), enc.len());
            prop_assert_eq!(&back, &levels);
            let mut enc = Vec::new();
            encode_levels(&levels, width, &mut enc);
            let mut back = Vec::new();
            prop_assert_eq!(decode_levels(&enc, width, levels.len(), &mut back).unwrap(), enc.len());
            prop_assert_eq!(&back, &levels);
            let bools: Vec<bool> = raw.iter().map(|&v| v % 3 == 0).collect();
            let mut enc = Vec::new();
            encode_booleans(&bools, &mut enc);
            let mut back = Vec::new();
            prop_assert_eq!(decode_booleans(&enc, bools.len(), &mut back).unwrap(), enc.len());
            prop_assert_eq!(back, bools);
        }

        #[test]
        fn long_runs(width in 0u32..=32, v: u32, n in 500usize..5000, tail in 0usize..20) {
            let mut values = vec![v & mask(width); n];
            values.extend((0..tail as u32).map(|i| i & mask(width)));
            let mut enc = Vec::new();
            encode_u32(&values, width, &mut enc);
            let mut back = Vec::new();
            decode_u32(&enc, width, values.len(), &mut back).unwrap();
            prop_assert_eq!(back, values);
        }

        #[test]
        fn arbitrary_bytes_never_panic(data in proptest::collection::vec(any::<u8>(), 0..200)) {
            fuzz_decode(&data);
        }

        #[test]
        fn via_u32_matches_per_type_decoders(
            data in proptest::collection::vec(any::<u8>(), 0..80),
            width in 0u32..=18,
            n in 0usize..300,
        ) {
            // Builds for size decode levels and booleans through the u32 decoder: same
            // values (also before an error), same bytes used, same error kind.
            let mut a = vec![3u16];
            let mut b = vec![3u16];
            let ra = decode_hybrid::<u16>(&data, width, 16, n, &mut a);
            let rb = compact::decode_narrow::<u16>(&data, width, 16, n, &mut b);
            prop_assert_eq!(&a, &b);
            match (&ra, &rb) {
                (Ok(x), Ok(y)) => prop_assert_eq!(x, y),
                (Err(x), Err(y)) => prop_assert_eq!(x.kind(), y.kind()),
                _ => prop_assert!(false, "{:?} vs {:?}", ra, rb),
            }
            let mut a = vec![true];
            let mut b = vec![true];
            let ra = decode_hybrid::<bool>(&data, width.min(2), 1, n, &mut a);
            let rb = compact::decode_narrow::<bool>(&data, width.min(2), 1, n, &mut b);
            prop_assert_eq!(&a, &b);
            match (&ra, &rb) {
                (Ok(x), Ok(y)) => prop_assert_eq!(x, y),
                (Err(x), Err(y)) => prop_assert_eq!(x.kind(), y.kind()),
                _ => prop_assert!(false, "{:?} vs {:?}", ra, rb),
            }
        }

        #[test]
        fn width1_levels_match_reference(
            runs in proptest::collection::vec((0u16..2, 1usize..30), 0..80),
            count_of in 0u16..3,
            cut in 0usize..9,
        ) {
            // Long runs (RLE) between single levels (bit-packed runs of a group or a few):
            // the width-1 decoder agrees with the generic one of builds for size, levels,
            // counts and bytes used, whole and cut short at any level.
            let levels: Vec<u16> = runs
                .iter()
                .flat_map(|&(v, n)| (0..n as u16).map(move |k| if n > 8 { v } else { (v + k) % 2 }))
                .collect();
            let mut enc = Vec::new();
            encode_levels(&levels, 1, &mut enc);
            for n in [levels.len(), levels.len() / 2, levels.len().saturating_sub(cut)] {
                let mut got = vec![9u16];
                let fast = decode_levels_counted(&enc, 1, n, count_of, &mut got).unwrap();
                let mut want = vec![9u16];
                let reference = compact::decode_levels_counted(&enc, 1, n, count_of, &mut want).unwrap();
                prop_assert_eq!(fast, reference);
                prop_assert_eq!(&got, &want);
                prop_assert_eq!(&got[1..], &levels[..n]);
                // The public decoder takes the same path.
                let mut public = vec![9u16];
                prop_assert_eq!(decode_levels(&enc, 1, n, &mut public).unwrap(), fast.0);
                prop_assert_eq!(&public, &want);
            }
        }

        #[test]
        fn counted_levels_match_reference(
            runs in proptest::collection::vec((0u16..8, 1usize..30), 0..60),
            width in 0u32..=17,
            count_of in 0u16..8,
            garbage in proptest::collection::vec(any::<u8>(), 0..40),
        ) {
            // Valid streams of runs, and arbitrary bytes: the fused decoder agrees with
            // decode_levels followed by a scan, error for error.
            let levels: Vec<u16> = runs
                .iter()
                .flat_map(|&(v, n)| (0..n as u16).map(move |k| if n > 8 { v } else { (v + k) % 8 }))
                .collect();
            let w = width.clamp(3, 16);
            let mut enc = Vec::new();
            encode_levels(&levels, w, &mut enc);
            for (input, w) in [(&enc, w), (&garbage, width)] {
                for n in [levels.len(), levels.len() / 2, 17] {
                    let mut expected = vec![9u16];
                    let reference = decode_levels(input, w, n, &mut expected);
                    let mut got = vec![9u16];
                    let fused = decode_levels_counted(input, w, n, count_of, &mut got);
                    prop_assert_eq!(fused.is_ok(), reference.is_ok());
                    // The variant of builds for size: same levels, counts and error kind.
                    let mut compact = vec![9u16];
                    let then = compact::decode_levels_counted(input, w, n, count_of, &mut compact);
                    match (&fused, &then) {
                        (Ok(a), Ok(b)) => {
                            prop_assert_eq!(a, b);
                            prop_assert_eq!(&got, &compact);
                        }
                        (Err(a), Err(b)) => prop_assert_eq!(
                            core::mem::discriminant(a.kind()),
                            core::mem::discriminant(b.kind())
                        ),
                        _ => prop_assert!(false, "fused {:?}, compact {:?}", fused, then),
                    }
                    if let (Ok((used, counts)), Ok(ref_used)) = (fused, reference) {
                        prop_assert_eq!(used, ref_used);
                        prop_assert_eq!(&got, &expected);
                        let body = &expected[1..];
                        prop_assert_eq!(counts.highest, body.iter().copied().max().unwrap_or(0));
                        prop_assert_eq!(counts.count, body.iter().filter(|&&l| l == count_of).count());
                    }
                }
            }
        }

        #[test]
        fn arbitrary_bytes_bounded_reservation(
            width in 0u32..=32,
            data in proptest::collection::vec(0u8..0x80, 0..64),
        ) {
            // num_values from a hostile header: reservations follow the input, not the count.
            // (Bytes below 0x80 keep every run header one byte long, so no run promises more
            // than 504 values: longer runs are legitimately as large as they say.)
            let mut out = Vec::new();
            let _ = decode_u32(&data, width, usize::MAX / 2, &mut out);
            prop_assert!(out.capacity() <= 2 * out.len() + 8 * data.len() + 8);
        }

        // The encoder's shortcuts (a group whose 8th value differs skipped without counting
        // its run; runs counted 16 at a time) give the bytes of the plain scan below: the
        // run at every group start counted one value at a time, the same two rules.
        #[test]
        fn shortcuts_match_the_plain_scan(
            width in 0u32..=16,
            every in any::<bool>(),
            runs in proptest::collection::vec((any::<u16>(), 1usize..70), 0..40),
        ) {
            let w = width;
            let values: Vec<u16> = runs
                .iter()
                .flat_map(|&(v, n)| core::iter::repeat_n((u32::from(v) & mask(w)) as u16, n))
                .collect();
            let rule = if every { Runs::Every } else { Runs::Smallest };
            let mut got = Vec::new();
            encode_hybrid_with(&values, w, rule, &mut got);
            let mut want = Vec::new();
            let (n, max_literal) = (values.len(), (MAX_RUN_LEN as usize / 8) * 8);
            let (mut literal_start, mut i) = (0, 0);
            while i < n {
                let v = values[i];
                let run = values[i..].iter().take_while(|&&x| x == v).count();
                let take = match rule {
                    Runs::Smallest => rle_pays(run, w as usize, i > literal_start),
                    Runs::Every => run >= 8,
                };
                if w == 0 || take {
                    write_bit_packed(&values[literal_start..i], w, &mut want);
                    write_rle(v, run, w, &mut want);
                    i += run;
                    literal_start = i;
                } else {
                    i = (i + 8).min(n);
                    if i - literal_start >= max_literal {
                        write_bit_packed(&values[literal_start..i], w, &mut want);
                        literal_start = i;
                    }
                }
            }
            write_bit_packed(&values[literal_start..], w, &mut want);
            prop_assert_eq!(got, want);
        }
    }
}
