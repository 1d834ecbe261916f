//! DELTA_BINARY_PACKED (encoding 5): INT32 and INT64 as bit-packed deltas.
//!
//! Spec: Encodings.md, "Delta Encoding (DELTA_BINARY_PACKED = 5)". Also the length streams of
//! DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY (see [`super::delta_length_byte_array`]).
//!
//! ```text
//! stream := <header> <block>*
//! header := <block size in values>           ULEB128, a multiple of 128
//!           <number of miniblocks in a block> ULEB128, block size / it = a multiple of 32
//!           <total value count>               ULEB128
//!           <first value>                     zigzag ULEB128
//! block  := <min delta>                       zigzag ULEB128
//!           <list of bitwidths of miniblocks> one byte per miniblock
//!           <miniblocks>                      each: (values per miniblock) deltas minus the
//!                                             min delta, bit-packed LSB first at its width
//! ```
//!
//! The first value is in the header; every later value is the previous one plus
//! `min delta + packed delta`, in wrapping two's complement arithmetic at the width of the
//! physical type. The last miniblock that holds a value is padded to its full length; the
//! miniblocks after it have a bit width byte (of any value) but no bytes at all, so the stream
//! ends right after the last miniblock that holds a value. [`decode`] returns exactly that
//! length, which DELTA_LENGTH_BYTE_ARRAY needs to find the bytes that follow.
//!
//! # Worked example
//!
//! `7, 5, 3, 1, 2, 3, 4, 5` (the spec's example 2, with the block size of 128 and 4 miniblocks
//! that [`encode`] uses, since the spec's block size of 8 is only for illustration). The deltas
//! are `-2 -2 -2 1 1 1 1`, their minimum is -2, so the packed deltas are `0 0 0 3 3 3 3`, which
//! need 2 bits:
//!
//! ```text
//! 80 01        block size 128 (ULEB128: 0x00 | 0x80, 0x01)
//! 04           4 miniblocks of 32 values
//! 08           total value count 8
//! 0E           first value 7 (zigzag 14)
//! 03           block 1: min delta -2 (zigzag 3)
//! 02 00 00 00  bit widths: miniblock 0 has 2 bits; 1 to 3 hold no value (zero by convention)
//! C0 3F 00 00 00 00 00 00
//!              miniblock 0: 32 values x 2 bits = 8 bytes, LSB first:
//!              0xC0 = 11 00 00 00 -> 0, 0, 0, 3 ; 0x3F = 00 11 11 11 -> 3, 3, 3, 0 (padding)
//! ```
//!
//! ```
//! use parket::encoding::delta_binary_packed as dbp;
//! let bytes = [
//!     0x80, 0x01, 0x04, 0x08, 0x0E, // header
//!     0x03, 0x02, 0x00, 0x00, 0x00, // min delta, bit widths
//!     0xC0, 0x3F, 0, 0, 0, 0, 0, 0, // miniblock 0
//! ];
//! let mut out = Vec::new();
//! assert_eq!(dbp::decode_i32(&bytes, 8, &mut out).unwrap(), bytes.len());
//! assert_eq!(out, [7, 5, 3, 1, 2, 3, 4, 5]);
//!
//! let mut encoded = Vec::new();
//! dbp::encode_i32(&out, &mut encoded);
//! assert_eq!(encoded, bytes);
//! ```
//!
//! # Arithmetic width
//!
//! The spec: subtractions "may incur signed arithmetic overflow [...] handled as wrapping around
//! in 2's complement", and "INT32 data must not use more than 32 bits". [`encode`] computes
//! INT32 deltas in 32-bit wrapping arithmetic, so `[i32::MIN, i32::MAX]` has the delta -1, never
//! more than 32 bits per delta, and a min delta in the INT32 range (what parquet-java,
//! Arrow C++ and arrow-rs write).
//!
//! The decoder computes in 64-bit wrapping arithmetic and truncates INT32 results to 32 bits.
//! Because truncation commutes with wrapping addition, this gives exactly the 32-bit wrapping
//! result, and it also reads INT32 streams whose deltas were computed in 64 bits (min deltas
//! outside the INT32 range, bit widths of 33 or 34).
//!
//! # Limits
//!
//! The decoders never panic. They write at most `num_values` values, whatever the header
//! claims, and do work proportional to the input bytes plus the values written: a block of
//! miniblocks of bit width 0 costs no miniblock bytes but still costs its header (min delta and
//! bit width bytes), and the block size is capped at [`MAX_BLOCK_SIZE`].

use alloc::vec::Vec;

use crate::bytes::bitpack::{pack32, pack64, packed_len, unpack64};
use crate::bytes::varint::{encode_uleb128, zigzag_encode};
use crate::bytes::Cursor;
use crate::error::{Error, Result};
use crate::values::{Values, ValuesRef};

/// The block size that [`encode`] uses (the spec's recommendation).
pub const DEFAULT_BLOCK_SIZE: usize = 128;
/// The number of miniblocks per block that [`encode`] uses.
pub const DEFAULT_MINIBLOCKS_PER_BLOCK: usize = 4;
/// The largest block size (in values) the decoder accepts. The spec sets no maximum; writers
/// use 128 (parquet-java, Arrow C++, arrow-rs), 256 or 2048 (DuckDB).
pub const MAX_BLOCK_SIZE: u64 = 1 << 16;

/// Values unpacked at once: a multiple of 32, so a chunk of a miniblock starts on a byte.
const CHUNK: usize = 256;

/// The header of a DELTA_BINARY_PACKED stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// Values per block: a multiple of 128.
    pub block_size: usize,
    /// Miniblocks per block; `block_size / miniblocks_per_block` is a multiple of 32.
    pub miniblocks_per_block: usize,
    /// Number of values in the stream.
    pub total_value_count: u64,
    /// The first value (sign-extended to 64 bits for INT32).
    pub first_value: i64,
}

impl Header {
    /// Values per miniblock.
    pub fn values_per_miniblock(&self) -> usize {
        self.block_size / self.miniblocks_per_block
    }
}

/// Reads and validates the header at the start of `input`; returns it and its length in bytes.
/// Never panics.
pub fn read_header(input: &[u8]) -> Result<(Header, usize)> {
    let mut c = Cursor::new(input);
    let h = header(&mut c)?;
    Ok((h, c.position()))
}

fn header(c: &mut Cursor<'_>) -> Result<Header> {
    let block_size = c.uleb128("DELTA_BINARY_PACKED block size")?;
    // Spec: "the block size is a multiple of 128".
    if block_size == 0 || block_size % 128 != 0 || block_size > MAX_BLOCK_SIZE {
        return Err(Error::out_of_range(
            "DELTA_BINARY_PACKED block size (a multiple of 128, at most 65536)",
            block_size as i64,
        ));
    }
    let miniblocks = c.uleb128("DELTA_BINARY_PACKED miniblock count")?;
    // Spec: "the miniblock count per block is a divisor of the block size such that their
    // quotient, the number of values in a miniblock, is a multiple of 32".
    if miniblocks == 0 || block_size % miniblocks != 0 || (block_size / miniblocks) % 32 != 0 {
        return Err(Error::out_of_range(
            "DELTA_BINARY_PACKED miniblock count (block size / it must be a multiple of 32)",
            miniblocks as i64,
        ));
    }
    let total_value_count = c.uleb128("DELTA_BINARY_PACKED total value count")?;
    let first_value = c.zigzag("DELTA_BINARY_PACKED first value")?;
    Ok(Header {
        // Both are at most MAX_BLOCK_SIZE, so they fit any usize.
        block_size: block_size as usize,
        miniblocks_per_block: miniblocks as usize,
        total_value_count,
        first_value,
    })
}

/// Decodes `num_values` values of `out`'s type (INT32 or INT64) from `input`, appending to
/// `out`; returns the number of input bytes consumed (the whole stream, see below).
///
/// `num_values` is the number of non-null values the page holds. The header's total value
/// count must be at least `num_values` (an error otherwise); if it is larger, only
/// `num_values` values are written, and the rest of the stream is skipped over (without
/// unpacking) so that the returned length is still the end of the stream.
///
/// Never panics, for any input. Writes at most `num_values` values; the work is proportional
/// to `input.len()` plus `num_values`.
pub fn decode(input: &[u8], num_values: usize, out: &mut Values) -> Result<usize> {
    match out {
        Values::Int32(v) => decode_i32(input, num_values, v),
        Values::Int64(v) => decode_i64(input, num_values, v),
        _ => Err(Error::unsupported(
            "DELTA_BINARY_PACKED for a type other than INT32 or INT64",
        )),
    }
}

/// [`decode`] for INT32: appends `num_values` values to `out`.
pub fn decode_i32(input: &[u8], num_values: usize, out: &mut Vec<i32>) -> Result<usize> {
    variant::decode(input, num_values, out, 32, false, |v| v as u32 as i32)
}

/// [`decode`] for INT64: appends `num_values` values to `out`.
pub fn decode_i64(input: &[u8], num_values: usize, out: &mut Vec<i64>) -> Result<usize> {
    variant::decode(input, num_values, out, 64, false, |v| v as i64)
}

/// Decodes the lengths stream of DELTA_LENGTH_BYTE_ARRAY / DELTA_BYTE_ARRAY: exactly
/// `num_values` INT32 values, none negative, appended to `out` as `usize`. The header's total
/// value count must equal `num_values` (the bytes that follow depend on every length).
pub(crate) fn decode_lengths(
    input: &[u8],
    num_values: usize,
    out: &mut Vec<usize>,
) -> Result<usize> {
    let start = out.len();
    // A bit width of 0 holds any number of lengths in a few bytes: room for them, fallibly.
    crate::limits::reserve(out, num_values, "the byte array lengths of a page")?;
    // Keep the 32-bit pattern; negative lengths show up as values above i32::MAX.
    let (consumed, maybe_negative) = variant::decode_lengths(input, num_values, out)?;
    let lengths = out.get(start..).unwrap_or(&[]);
    if maybe_negative {
        if let Some(&bad) = lengths.iter().find(|&&l| l > i32::MAX as usize) {
            return Err(Error::out_of_range(
                "negative byte array length",
                bad as u32 as i32 as i64,
            ));
        }
    }
    Ok(consumed)
}

// The one point of choice between the decoders of default builds ([`fast`]: one instance of
// [`decode_into`] per output type) and of builds for size (`cfg(parket_opt_size)`, [`compact`]:
// one `u64` instance, then a conversion). Same signature, same values and errors (a property
// test compares them).
#[cfg(parket_opt_size)]
use compact as variant;
#[cfg(not(parket_opt_size))]
use fast as variant;

/// The decoder of default builds.
#[cfg(not(parket_opt_size))]
mod fast {
    pub(super) use super::decode_into as decode;
    pub(super) use super::decode_lengths_u32 as decode_lengths;
}

/// The decoder of builds for size.
#[cfg(any(parket_opt_size, test))]
mod compact {
    use alloc::vec::Vec;

    use super::decode_into;
    use crate::error::Result;

    /// [`decode_into`] in builds for size: one instance of the decoder
    /// (into `u64`, see [`decode_u64`]) for INT32, INT64 and the byte array lengths, then `conv`
    /// over what it appended. Same values (also the part appended before an error) and same
    /// errors; a property test compares them.
    pub(super) fn decode<T>(
        input: &[u8],
        num_values: usize,
        out: &mut Vec<T>,
        bits: u32,
        exact: bool,
        conv: impl Fn(u64) -> T,
    ) -> Result<usize> {
        let mut values = Vec::new();
        let r = decode_u64(input, num_values, &mut values, bits, exact);
        out.extend(values.into_iter().map(conv));
        r
    }

    /// The lengths of DELTA_LENGTH_BYTE_ARRAY / DELTA_BYTE_ARRAY through [`decode`]: any of
    /// them may be negative (the caller looks).
    pub(super) fn decode_lengths(
        input: &[u8],
        num_values: usize,
        out: &mut Vec<usize>,
    ) -> Result<(usize, bool)> {
        Ok((
            decode(input, num_values, out, 32, true, |v| v as u32 as usize)?,
            true,
        ))
    }

    /// The one instance of [`decode_into`] that [`decode`] calls (not generic, so its
    /// callers share it).
    fn decode_u64(
        input: &[u8],
        num_values: usize,
        out: &mut Vec<u64>,
        bits: u32,
        exact: bool,
    ) -> Result<usize> {
        decode_into(input, num_values, out, bits, exact, |v| v)
    }
}

/// The decoder: arithmetic in u64 (wrapping), `conv` truncates to the target type.
/// `bits` is the physical type's width (32 or 64), used to validate the first value.
/// The total value count must be at least `num_values` (equal to it when `exact`).
/// Returns the bytes consumed; writes `num_values` values.
fn decode_into<T>(
    input: &[u8],
    num_values: usize,
    out: &mut Vec<T>,
    bits: u32,
    exact: bool,
    conv: impl Fn(u64) -> T,
) -> Result<usize> {
    let mut buf = [0u64; CHUNK];
    let miniblock = |data: &[u8], width, todo, min_delta, last: &mut u64, out: &mut Vec<T>| {
        miniblock64(data, width, todo, min_delta, last, out, &mut buf, &conv);
    };
    decode_with(input, num_values, out, bits, exact, &conv, miniblock)
}

/// The values `todo` of a miniblock of `width`-bit deltas at the start of `data` (the bytes
/// after it too: see [`decode_with`]), each the one before (`last`) plus `min_delta` plus its
/// delta, as `conv` makes them: unpacked `CHUNK` at a time into `buf`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn miniblock64<T>(
    data: &[u8],
    width: u32,
    mut todo: usize,
    min_delta: u64,
    last: &mut u64,
    out: &mut Vec<T>,
    buf: &mut [u64; CHUNK],
    conv: &impl Fn(u64) -> T,
) {
    let mut done = 0;
    let mut v = *last;
    while todo > 0 {
        let n = todo.min(CHUNK);
        // `done` is a multiple of CHUNK, so the chunk starts on a byte.
        let from = packed_len(done, width);
        let src = data.get(from..).unwrap_or(&[]);
        let deltas = &mut buf[..n];
        unpack64(src, width, deltas);
        out.extend(deltas.iter().map(|&d| {
            v = v.wrapping_add(min_delta).wrapping_add(d);
            conv(v)
        }));
        done += n;
        todo -= n;
    }
    *last = v;
}

/// The byte array lengths of [`decode_lengths`] in default builds: deltas of up to 32 bits
/// (every writer's: lengths are below 2^31) unpacked as `u32` and summed in `u32`, the
/// lengths' high bits gathered as they go by instead of looked for after; wider deltas as
/// [`decode_into`] does. Returns the bytes used and whether a length may be negative (above
/// `i32::MAX`), which the caller then finds.
#[cfg(any(not(parket_opt_size), test))]
fn decode_lengths_u32(
    input: &[u8],
    num_values: usize,
    out: &mut Vec<usize>,
) -> Result<(usize, bool)> {
    let conv = |v: u64| v as u32 as usize;
    let mut buf = [0u64; CHUNK];
    let mut buf32 = [0u32; CHUNK];
    let mut high = 0u32;
    let miniblock = |data: &[u8],
                     width,
                     mut todo: usize,
                     min_delta: u64,
                     last: &mut u64,
                     out: &mut Vec<usize>| {
        if width > 32 {
            let start = out.len();
            miniblock64(data, width, todo, min_delta, last, out, &mut buf, &conv);
            high |= out
                .get(start..)
                .unwrap_or(&[])
                .iter()
                .fold(0, |h, &l| h | l as u32);
            return;
        }
        // Sums modulo 2^32: a length is the low 32 bits of the 64-bit sum.
        let (mut v, min) = (*last as u32, min_delta as u32);
        let mut done = 0;
        while todo > 0 {
            let n = todo.min(CHUNK);
            let src = data.get(packed_len(done, width)..).unwrap_or(&[]);
            let deltas = &mut buf32[..n];
            crate::bytes::bitpack::unpack32(src, width, deltas);
            out.extend(deltas.iter().map(|&d| {
                v = v.wrapping_add(min).wrapping_add(d);
                high |= v;
                v as usize
            }));
            done += n;
            todo -= n;
        }
        *last = u64::from(v);
    };
    let start = out.len();
    let used = decode_with(input, num_values, out, 32, true, &conv, miniblock)?;
    // The first value is the header's.
    high |= out.get(start).map_or(0, |&l| l as u32);
    Ok((used, high > i32::MAX as u32))
}

/// [`decode_into`] with each miniblock's values made by `miniblock` (its bytes and those
/// after, bit width, values wanted, min delta, the value before, the output).
fn decode_with<T>(
    input: &[u8],
    num_values: usize,
    out: &mut Vec<T>,
    bits: u32,
    exact: bool,
    conv: &impl Fn(u64) -> T,
    mut miniblock: impl FnMut(&[u8], u32, usize, u64, &mut u64, &mut Vec<T>),
) -> Result<usize> {
    let mut c = Cursor::new(input);
    let h = header(&mut c)?;
    let total = h.total_value_count;
    if total < num_values as u64 || (exact && total != num_values as u64) {
        return Err(Error::out_of_range(
            "DELTA_BINARY_PACKED total value count (not the number of values expected)",
            total.min(i64::MAX as u64) as i64,
        ));
    }
    if bits == 32 && i32::try_from(h.first_value).is_err() {
        return Err(Error::out_of_range(
            "DELTA_BINARY_PACKED first value of INT32 data",
            h.first_value,
        ));
    }
    if total == 0 {
        return Ok(c.position());
    }
    // Every block costs at least its min delta byte and its bit width bytes: fail before any
    // work when the bytes that remain cannot hold the blocks the count needs.
    let blocks = (total - 1).div_ceil(h.block_size as u64);
    let min_bytes = u128::from(blocks) * (1 + h.miniblocks_per_block as u128);
    if (c.remaining() as u128) < min_bytes {
        return Err(c.truncated(
            "DELTA_BINARY_PACKED blocks",
            min_bytes.min(usize::MAX as u128) as usize,
        ));
    }
    let mut want = num_values as u64;
    let mut last = h.first_value as u64;
    if want > 0 {
        out.push(conv(last));
        want -= 1;
    }
    // Values accounted for (written or skipped), the first value included.
    let mut seen: u64 = 1;
    let per_miniblock = h.values_per_miniblock();
    while seen < total {
        let min_delta = c.zigzag("DELTA_BINARY_PACKED min delta")? as u64;
        let widths = c.take(
            h.miniblocks_per_block,
            "DELTA_BINARY_PACKED miniblock bit widths",
        )?;
        for &width in widths {
            // Spec: miniblocks after the last value have a bit width of any value and no
            // bytes: "the reader knows when to stop reading by keeping track of the number of
            // values read".
            if seen >= total {
                break;
            }
            if width > 64 {
                return Err(Error::out_of_range(
                    "DELTA_BINARY_PACKED miniblock bit width",
                    width as i64,
                )
                .at_offset(c.position() as u64));
            }
            let width = u32::from(width);
            // Spec: the last miniblock that holds values is padded to its full length.
            // The unpacker gets the bytes after the miniblock too: it reads a group through
            // a 72-byte window where 72 bytes remain, and copies it into a padded buffer
            // where they do not, which was every group of a miniblock of 32 values up to 18
            // bits wide. Only the miniblock's own bits are used.
            let data = c.rest();
            c.take(
                packed_len(per_miniblock, width),
                "DELTA_BINARY_PACKED miniblock",
            )?;
            let in_miniblock = (total - seen).min(per_miniblock as u64) as usize;
            seen += in_miniblock as u64;
            // Values of this miniblock to write (the rest is only skipped).
            let todo = (want.min(in_miniblock as u64)) as usize;
            want -= todo as u64;
            if todo > 0 {
                miniblock(data, width, todo, min_delta, &mut last, out);
            }
        }
    }
    Ok(c.position())
}

/// Appends the encoding of `values` (INT32 or INT64) with the default block size of 128 and
/// 4 miniblocks per block.
pub fn encode(values: ValuesRef<'_>, out: &mut Vec<u8>) -> Result<()> {
    encode_with_layout(
        values,
        DEFAULT_BLOCK_SIZE,
        DEFAULT_MINIBLOCKS_PER_BLOCK,
        out,
    )
}

/// [`encode`] with another block layout: `block_size` a multiple of 128 (at most
/// [`MAX_BLOCK_SIZE`]), `miniblocks_per_block` dividing it into miniblocks of a multiple of
/// 32 values. Other layouts are an [`Error::invalid_argument`].
pub fn encode_with_layout(
    values: ValuesRef<'_>,
    block_size: usize,
    miniblocks_per_block: usize,
    out: &mut Vec<u8>,
) -> Result<()> {
    let valid = block_size != 0
        && block_size % 128 == 0
        && block_size as u64 <= MAX_BLOCK_SIZE
        && miniblocks_per_block != 0
        && block_size % miniblocks_per_block == 0
        && (block_size / miniblocks_per_block) % 32 == 0;
    if !valid {
        return Err(Error::invalid_argument(alloc::format!(
            "DELTA_BINARY_PACKED layout of {block_size} values in {miniblocks_per_block} \
             miniblocks: the block size must be a multiple of 128 and each miniblock a \
             multiple of 32 values"
        )));
    }
    match values {
        ValuesRef::Int32(v) => encode_core::<i32>(v, block_size, miniblocks_per_block, out),
        ValuesRef::Int64(v) => encode_core::<i64>(v, block_size, miniblocks_per_block, out),
        _ => {
            return Err(Error::unsupported(
                "DELTA_BINARY_PACKED for a type other than INT32 or INT64",
            ))
        }
    }
    Ok(())
}

/// Appends the encoding of INT32 `values` (block size 128, 4 miniblocks).
pub fn encode_i32(values: &[i32], out: &mut Vec<u8>) {
    encode_core(
        values,
        DEFAULT_BLOCK_SIZE,
        DEFAULT_MINIBLOCKS_PER_BLOCK,
        out,
    )
}

/// Appends the encoding of INT64 `values` (block size 128, 4 miniblocks).
pub fn encode_i64(values: &[i64], out: &mut Vec<u8>) {
    encode_core(
        values,
        DEFAULT_BLOCK_SIZE,
        DEFAULT_MINIBLOCKS_PER_BLOCK,
        out,
    )
}

/// Delta arithmetic at the width of the physical type.
trait DeltaInt: Copy {
    /// `self - prev`, wrapping at the type's width, sign-extended.
    fn delta(self, prev: Self) -> i64;
    /// `delta - min`, wrapping at the type's width, as an unsigned number of that width.
    fn relative(delta: i64, min: i64) -> u64;
    /// Sign-extended value.
    fn widen(self) -> i64;
}

impl DeltaInt for i32 {
    fn delta(self, prev: Self) -> i64 {
        // Spec: "INT32 data must not use more than 32 bits": subtract in 32 bits.
        self.wrapping_sub(prev) as i64
    }
    fn relative(delta: i64, min: i64) -> u64 {
        (delta as i32).wrapping_sub(min as i32) as u32 as u64
    }
    fn widen(self) -> i64 {
        self as i64
    }
}

impl DeltaInt for i64 {
    fn delta(self, prev: Self) -> i64 {
        self.wrapping_sub(prev)
    }
    fn relative(delta: i64, min: i64) -> u64 {
        delta.wrapping_sub(min) as u64
    }
    fn widen(self) -> i64 {
        self
    }
}

fn encode_core<T: DeltaInt>(
    values: &[T],
    block_size: usize,
    miniblocks_per_block: usize,
    out: &mut Vec<u8>,
) {
    let per_miniblock = block_size / miniblocks_per_block;
    encode_uleb128(block_size as u64, out);
    encode_uleb128(miniblocks_per_block as u64, out);
    encode_uleb128(values.len() as u64, out);
    let Some((&first, _)) = values.split_first() else {
        // No values: the header still carries a first value.
        encode_uleb128(0, out);
        return;
    };
    encode_uleb128(zigzag_encode(first.widen()), out);

    let mut deltas: Vec<i64> = Vec::with_capacity(block_size);
    let mut narrow: Vec<u32> = Vec::with_capacity(per_miniblock);
    let mut wide: Vec<u64> = Vec::new();
    let mut prev = first;
    // Each block covers the next `block_size` values after the first.
    for block in values[1..].chunks(block_size) {
        deltas.clear();
        deltas.extend(block.iter().map(|&v| {
            let d = v.delta(prev);
            prev = v;
            d
        }));
        // `block` is never empty, so the minimum exists.
        let min_delta = deltas.iter().copied().min().unwrap_or(0);
        encode_uleb128(zigzag_encode(min_delta), out);
        let widths_at = out.len();
        // Spec: bit widths of unneeded miniblocks are present; "their value should be zero".
        out.resize(widths_at + miniblocks_per_block, 0);
        for (i, miniblock) in deltas.chunks(per_miniblock).enumerate() {
            let max = miniblock
                .iter()
                .fold(0, |a, &d| a | T::relative(d, min_delta));
            let width = 64 - max.leading_zeros();
            if let Some(w) = out.get_mut(widths_at + i) {
                *w = width as u8;
            }
            // Spec: the last miniblock is padded to its full length (with zeros). Up to 32
            // bits (every INT32, and most INT64 deltas), the per-width 32-bit packers.
            if width <= 32 {
                narrow.clear();
                narrow.extend(miniblock.iter().map(|&d| T::relative(d, min_delta) as u32));
                narrow.resize(per_miniblock, 0);
                pack32(&narrow, width, out);
            } else {
                wide.clear();
                wide.extend(miniblock.iter().map(|&d| T::relative(d, min_delta)));
                wide.resize(per_miniblock, 0);
                pack64(&wide, width, out);
            }
        }
    }
}

/// Fuzzing harness: derives a physical type and `num_values` from the first bytes, decodes the
/// rest, and checks that whatever decodes re-encodes to a stream that decodes the same.
#[cfg(any(test, feature = "fuzzing"))]
#[doc(hidden)]
pub fn fuzz_decode(data: &[u8]) {
    let [kind, lo, hi, rest @ ..] = data else {
        return;
    };
    let num_values = usize::from(u16::from_le_bytes([*lo, *hi]));
    let mut out = if kind & 1 == 0 {
        Values::Int32(Vec::new())
    } else {
        Values::Int64(Vec::new())
    };
    if let Ok(consumed) = decode(rest, num_values, &mut out) {
        assert!(consumed <= rest.len());
        assert_eq!(out.len(), num_values);
        let mut again = Vec::new();
        encode(out.as_ref(), &mut again).expect("INT32 / INT64 encode");
        let mut back = Values::new(out.physical_type(), 0);
        let n = decode(&again, num_values, &mut back).expect("re-decode");
        assert_eq!(n, again.len());
        assert_eq!(back, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use proptest::prelude::*;

    fn enc64(v: &[i64]) -> Vec<u8> {
        let mut out = Vec::new();
        encode_i64(v, &mut out);
        out
    }

    fn dec64(b: &[u8], n: usize) -> Result<(Vec<i64>, usize)> {
        let mut out = Vec::new();
        let used = decode_i64(b, n, &mut out)?;
        Ok((out, used))
    }

    fn dec32(b: &[u8], n: usize) -> Result<(Vec<i32>, usize)> {
        let mut out = Vec::new();
        let used = decode_i32(b, n, &mut out)?;
        Ok((out, used))
    }

    /// Spec example 1 (1 2 3 4 5), at block size 128: every delta is the min delta 1, so the
    /// only miniblock holding values has bit width 0 and no bytes.
    #[test]
    fn spec_example_1() {
        let bytes = [
            0x80, 0x01, // block size 128
            0x04, // 4 miniblocks
            0x05, // 5 values
            0x02, // first value 1 (zigzag 2)
            0x02, // min delta 1 (zigzag 2)
            0x00, 0x00, 0x00, 0x00, // bit widths, no miniblock bytes
        ];
        assert_eq!(dec64(&bytes, 5).unwrap(), (vec![1, 2, 3, 4, 5], 10));
        assert_eq!(enc64(&[1, 2, 3, 4, 5]), bytes);
    }

    /// Spec example 2, exactly as the spec writes it (block size 8, 1 miniblock): the spec
    /// says such a block size "would be invalid", and the decoder refuses it.
    #[test]
    fn spec_example_2_block_size_8_is_invalid() {
        // 8, 1, 8, 7 (zigzag 14) | -2 (zigzag 3), width 2, 0 0 0 3 | 3 3 3 (2 bits each)
        let bytes = [0x08, 0x01, 0x08, 0x0E, 0x03, 0x02, 0xC0, 0x3F];
        assert!(dec32(&bytes, 8).is_err());
    }

    #[test]
    fn empty_and_single() {
        // Header only: 128, 4, 0 values, first value 0.
        assert_eq!(enc64(&[]), [0x80, 0x01, 0x04, 0x00, 0x00]);
        assert_eq!(
            dec64(&[0x80, 0x01, 0x04, 0x00, 0x00], 0).unwrap(),
            (vec![], 5)
        );
        // One value: no block at all. -3 is zigzag 5.
        assert_eq!(enc64(&[-3]), [0x80, 0x01, 0x04, 0x01, 0x05]);
        assert_eq!(
            dec64(&[0x80, 0x01, 0x04, 0x01, 0x05, 0xAA], 1).unwrap(),
            (vec![-3], 5)
        );
    }

    /// Hand-built: block size 256 with 8 miniblocks of 32 values (DuckDB's layout), 40 values,
    /// the unneeded miniblocks' widths set to junk, followed by unrelated bytes.
    #[test]
    fn other_layout_and_junk_widths() {
        let mut bytes = vec![
            0x80, 0x02, // block size 256
            0x08, // 8 miniblocks of 32
            0x28, // 40 values
            0x14, // first value 10 (zigzag 20)
            0x02, // min delta 1
            0x01, 0x03, 0xFF, 0x07, 0x41, 0x00, 0x00, 0x09, // widths; 2..7 are junk
            0xAA, 0xAA, 0xAA, 0xAA, // miniblock 0, 1 bit: 0 1 0 1 ... -> deltas 1 2 1 2 ...
            // miniblock 1, 3 bits: 7 x 5 (101) then padding -> deltas 6 x 7.
            // Bits LSB first: 101 101 101 101 101 101 101 -> 0x6D 0xDB 0x16.
            0x6D, 0xDB, 0x16, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        ];
        let stream_len = bytes.len();
        bytes.extend_from_slice(b"XYZ");
        let mut expected = vec![10i64];
        for i in 0..32 {
            let d = if i % 2 == 0 { 1 } else { 2 };
            expected.push(expected.last().unwrap() + d);
        }
        for _ in 0..7 {
            expected.push(expected.last().unwrap() + 6);
        }
        assert_eq!(dec64(&bytes, 40).unwrap(), (expected.clone(), stream_len));
        let e32: Vec<i32> = expected.iter().map(|&v| v as i32).collect();
        assert_eq!(dec32(&bytes, 40).unwrap(), (e32, stream_len));
        // And our encoder with that layout reads back the same.
        let mut ours = Vec::new();
        encode_with_layout(ValuesRef::Int64(&expected), 256, 8, &mut ours).unwrap();
        assert_eq!(dec64(&ours, 40).unwrap(), (expected, ours.len()));
    }

    /// Hand-built INT64 stream with a 64-bit miniblock: 0, i64::MAX, 0.
    #[test]
    fn width_64() {
        let mut bytes = vec![0x80, 0x01, 0x04, 0x03, 0x00];
        // min delta -i64::MAX: zigzag 2^64 - 3 = 0xFFFF_FFFF_FFFF_FFFD, ULEB128 in 10 bytes.
        bytes.extend_from_slice(&[0xFD, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]);
        bytes.extend_from_slice(&[64, 0, 0, 0]);
        // deltas i64::MAX, -i64::MAX; minus the min: 2^64 - 2, 0; then 30 padding values.
        let mut mb = vec![0u8; 32 * 8];
        mb[..8].copy_from_slice(&[0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]);
        bytes.extend_from_slice(&mb);
        assert_eq!(
            dec64(&bytes, 3).unwrap(),
            (vec![0, i64::MAX, 0], bytes.len())
        );
        assert_eq!(enc64(&[0, i64::MAX, 0]), bytes);
    }

    /// Extremes wrap: [MIN, MAX, MIN] has the deltas -1 and 1 in two's complement.
    #[test]
    fn extremes_wrap() {
        let v = [i64::MIN, i64::MAX, i64::MIN];
        // 128, 4, 3, zigzag(MIN) = u64::MAX (10 bytes) | min delta -1 (zigzag 1), width 2,
        // relative deltas 0, 2 -> 0b1000 = 0x08, then 7 zero bytes.
        let mut bytes = vec![0x80, 0x01, 0x04, 0x03];
        bytes.extend_from_slice(&[0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]);
        bytes.extend_from_slice(&[0x01, 2, 0, 0, 0, 0x08, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(enc64(&v), bytes);
        assert_eq!(dec64(&bytes, 3).unwrap(), (v.to_vec(), bytes.len()));

        // INT32: 32-bit wrapping, so the same shape with a 5-byte first value.
        let v32 = [i32::MIN, i32::MAX, i32::MIN];
        let mut b32 = vec![0x80, 0x01, 0x04, 0x03, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F];
        b32.extend_from_slice(&[0x01, 2, 0, 0, 0, 0x08, 0, 0, 0, 0, 0, 0, 0]);
        let mut ours = Vec::new();
        encode_i32(&v32, &mut ours);
        assert_eq!(ours, b32);
        assert_eq!(dec32(&b32, 3).unwrap(), (v32.to_vec(), b32.len()));
    }

    /// Seen in the wild: INT32 deltas computed in 64 bits (arrow-go before apache/arrow-go#1027,
    /// cuDF before rapidsai/cudf#14392): min delta outside INT32, bit width 33. Still decodes,
    /// because truncating 64-bit wrapping sums gives the 32-bit wrapping sums.
    #[test]
    fn int32_with_64_bit_deltas() {
        let mut bytes = vec![0x80, 0x01, 0x04, 0x03, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F];
        // min delta -(2^32 - 1): zigzag 2^33 - 3 = 0x1_FFFF_FFFD.
        bytes.extend_from_slice(&[0xFD, 0xFF, 0xFF, 0xFF, 0x1F]);
        bytes.extend_from_slice(&[33, 0, 0, 0]);
        // relative deltas 2^33 - 2 and 0, 33 bits each, 32 values -> 132 bytes.
        let mut mb = vec![0u8; 132];
        mb[..5].copy_from_slice(&[0xFE, 0xFF, 0xFF, 0xFF, 0x01]);
        bytes.extend_from_slice(&mb);
        assert_eq!(
            dec32(&bytes, 3).unwrap(),
            (vec![i32::MIN, i32::MAX, i32::MIN], bytes.len())
        );
    }

    #[test]
    fn header_validation() {
        for bad in [
            &[0x00, 0x04, 0x01, 0x00][..],                     // block size 0
            &[0x40, 0x01, 0x01, 0x00],                         // block size 64
            &[0x80, 0x01, 0x00, 0x01, 0x00],                   // 0 miniblocks
            &[0x80, 0x01, 0x03, 0x01, 0x00],                   // 128 / 3
            &[0x80, 0x01, 0x08, 0x01, 0x00],                   // 16 values per miniblock
            &[0x80, 0x80, 0x80, 0x80, 0x01, 0x04, 0x01, 0x00], // 2^28: absurd
        ] {
            assert!(dec64(bad, 1).is_err(), "{bad:x?}");
        }
        // INT32 first value out of range (2^31, zigzag 2^32).
        assert!(dec32(&[0x80, 0x01, 0x04, 0x01, 0x80, 0x80, 0x80, 0x80, 0x10], 1).is_err());
        // A needed miniblock of width 65.
        assert!(dec64(&[0x80, 0x01, 0x04, 0x02, 0x00, 0x00, 65, 0, 0, 0], 2).is_err());
        // Truncated miniblock (width 1 needs 4 bytes).
        assert!(dec64(&[0x80, 0x01, 0x04, 0x02, 0x00, 0x00, 1, 0, 0, 0, 0, 0], 2).is_err());
    }

    #[test]
    fn counts() {
        let bytes = enc64(&[5, 6, 7]);
        // Fewer values in the stream than the page expects: an error.
        assert!(dec64(&bytes, 4).is_err());
        // More: only the values asked for, but the whole stream is consumed.
        assert_eq!(dec64(&bytes, 2).unwrap(), (vec![5, 6], bytes.len()));
        assert_eq!(dec64(&bytes, 0).unwrap(), (vec![], bytes.len()));
    }

    /// A header claiming 2^60 values over a few blocks of width 0: the output stops at
    /// num_values, and finding the end of the stream fails on truncation after work bounded by
    /// the input (each block costs at least its 5 header bytes).
    #[test]
    fn hostile_count() {
        let mut bytes = vec![0x80, 0x01, 0x04];
        encode_uleb128(1 << 60, &mut bytes);
        bytes.push(0);
        for _ in 0..10 {
            bytes.extend_from_slice(&[0x02, 0, 0, 0, 0]);
        }
        let mut out = Vec::new();
        assert!(decode_i64(&bytes, 1000, &mut out).is_err());
        // Refused up front: 2^60 values need far more blocks than 50 bytes hold.
        assert!(out.is_empty());
        // The same blocks with an honest count of 1000 (1 + 7 full blocks + 103 values).
        let mut honest = vec![0x80, 0x01, 0x04, 0xE8, 0x07, 0x00];
        for _ in 0..8 {
            honest.extend_from_slice(&[0x02, 0, 0, 0, 0]);
        }
        let (v, used) = dec64(&honest, 1000).unwrap();
        assert_eq!(used, honest.len());
        assert_eq!(v, (0..1000).collect::<Vec<i64>>());
        assert!(dec64(&honest, 1001).is_err());
    }

    #[test]
    fn values_type_dispatch() {
        let mut out = Values::Float(Vec::new());
        assert!(decode(&[0x80, 0x01, 0x04, 0x00, 0x00], 0, &mut out).is_err());
        assert!(encode(ValuesRef::Float(&[1.0]), &mut Vec::new()).is_err());
        assert!(encode_with_layout(ValuesRef::Int32(&[1]), 128, 8, &mut Vec::new()).is_err());
        let mut out = Values::Int32(Vec::new());
        let mut b = Vec::new();
        encode(ValuesRef::Int32(&[1, -1]), &mut b).unwrap();
        assert_eq!(decode(&b, 2, &mut out).unwrap(), b.len());
        assert_eq!(out, Values::Int32(vec![1, -1]));
    }

    fn walk64() -> impl Strategy<Value = Vec<i64>> {
        prop_oneof![
            proptest::collection::vec(any::<i64>(), 0..600),
            proptest::collection::vec(
                prop_oneof![Just(i64::MIN), Just(i64::MAX), Just(0i64), Just(-1i64)],
                0..300
            ),
            (
                any::<i64>(),
                proptest::collection::vec(-1000i64..1000, 0..1200)
            )
                .prop_map(|(start, steps)| {
                    let mut v = start;
                    steps
                        .into_iter()
                        .map(|s| {
                            v = v.wrapping_add(s);
                            v
                        })
                        .collect()
                }),
        ]
    }

    fn walk32() -> impl Strategy<Value = Vec<i32>> {
        prop_oneof![
            proptest::collection::vec(any::<i32>(), 0..600),
            proptest::collection::vec(
                prop_oneof![Just(i32::MIN), Just(i32::MAX), Just(0i32), Just(-1i32)],
                0..300
            ),
            (
                any::<i32>(),
                proptest::collection::vec(-100i32..100, 0..1200)
            )
                .prop_map(|(start, steps)| {
                    let mut v = start;
                    steps
                        .into_iter()
                        .map(|s| {
                            v = v.wrapping_add(s);
                            v
                        })
                        .collect()
                }),
        ]
    }

    fn layout() -> impl Strategy<Value = (usize, usize)> {
        prop_oneof![
            Just((128, 4)),
            Just((128, 1)),
            Just((256, 8)),
            Just((2048, 8)),
            Just((384, 3))
        ]
    }

    proptest! {
        #[test]
        fn via_u64_matches_decode_into(
            v in walk64(),
            (bs, mb) in layout(),
            garbage in proptest::collection::vec(any::<u8>(), 0..120),
            flip in any::<(usize, u8)>(),
            use_garbage in any::<bool>(),
            cut in any::<usize>(),
        ) {
            // Builds for size decode INT32, INT64 and lengths through one u64 instance: same
            // values (also before an error), same bytes used, same error kind, for valid,
            // damaged and arbitrary streams.
            let data = if use_garbage {
                garbage
            } else {
                let mut b = Vec::new();
                encode_with_layout(ValuesRef::Int64(&v), bs, mb, &mut b).unwrap();
                if flip.1 != 0 {
                    let at = flip.0 % b.len();
                    b[at] ^= flip.1;
                }
                b
            };
            let n = if v.is_empty() { 0 } else { cut % (v.len() + 2) };
            fn same<T: PartialEq + core::fmt::Debug>(
                a: (Result<usize>, Vec<T>),
                b: (Result<usize>, Vec<T>),
            ) -> core::result::Result<(), TestCaseError> {
                prop_assert_eq!(&a.1, &b.1);
                match (&a.0, &b.0) {
                    (Ok(x), Ok(y)) => prop_assert_eq!(x, y),
                    (Err(x), Err(y)) => prop_assert_eq!(x.kind(), y.kind()),
                    _ => prop_assert!(false, "{:?} vs {:?}", a.0, b.0),
                }
                Ok(())
            }
            macro_rules! both {
                ($t:ty, $bits:expr, $exact:expr, $conv:expr) => {{
                    let mut x: Vec<$t> = Vec::new();
                    let rx = decode_into(&data, n, &mut x, $bits, $exact, $conv);
                    let mut y: Vec<$t> = Vec::new();
                    let ry = compact::decode(&data, n, &mut y, $bits, $exact, $conv);
                    same((rx, x), (ry, y))?;
                }};
            }
            both!(i32, 32, false, |v| v as u32 as i32);
            both!(i64, 64, false, |v| v as i64);
            both!(usize, 32, true, |v| v as u32 as usize);
            // The lengths decoder of default builds: the same, and it says when a length
            // may be negative whenever one is.
            let mut x = Vec::new();
            let rx = decode_lengths_u32(&data, n, &mut x);
            let mut y = Vec::new();
            let ry = compact::decode_lengths(&data, n, &mut y);
            if let Ok((_, maybe)) = &rx {
                prop_assert!(*maybe || x.iter().all(|&l| l <= i32::MAX as usize));
            }
            same((rx.map(|r| r.0), x), (ry.map(|r| r.0), y))?;
        }

        #[test]
        fn roundtrip_i64(v in walk64(), (bs, mb) in layout(), tail in any::<u8>()) {
            let mut b = Vec::new();
            encode_with_layout(ValuesRef::Int64(&v), bs, mb, &mut b).unwrap();
            let len = b.len();
            b.push(tail);
            let (back, used) = dec64(&b, v.len()).unwrap();
            prop_assert_eq!(back, v);
            prop_assert_eq!(used, len);
        }

        #[test]
        fn roundtrip_i32(v in walk32(), (bs, mb) in layout()) {
            let mut b = Vec::new();
            encode_with_layout(ValuesRef::Int32(&v), bs, mb, &mut b).unwrap();
            let (back, used) = dec32(&b, v.len()).unwrap();
            prop_assert_eq!(back, v.clone());
            prop_assert_eq!(used, b.len());
        }

        #[test]
        fn arbitrary_bytes(data in proptest::collection::vec(any::<u8>(), 0..300)) {
            fuzz_decode(&data);
        }

        #[test]
        fn arbitrary_after_valid_header(
            n in 0usize..2000,
            body in proptest::collection::vec(any::<u8>(), 0..300),
        ) {
            let mut b = vec![0x80, 0x01, 0x04];
            encode_uleb128(n as u64, &mut b);
            b.push(0);
            b.extend_from_slice(&body);
            let mut out = Vec::new();
            if decode_i64(&b, n, &mut out).is_ok() {
                prop_assert_eq!(out.len(), n);
            }
            let mut out32 = Vec::new();
            let _ = decode_i32(&b, n, &mut out32);
            prop_assert!(out32.len() <= n);
        }
    }
}
