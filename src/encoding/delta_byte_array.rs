//! DELTA_BYTE_ARRAY (encoding 7): front coding of BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY.
//!
//! Spec: Encodings.md, "Delta Strings: (DELTA_BYTE_ARRAY = 7)". Each value is stored as the
//! length of the prefix it shares with the previous value, plus the rest (its suffix).
//!
//! ```text
//! stream   := <prefix lengths> <suffixes>
//! prefix lengths := the prefix lengths as INT32, DELTA_BINARY_PACKED
//! suffixes       := the suffixes as DELTA_LENGTH_BYTE_ARRAY
//! value[i] = value[i - 1][..prefix length[i]] ++ suffix[i]   (value[-1] is empty)
//! ```
//!
//! A prefix longer than the previous value is an error. For FIXED_LEN_BYTE_ARRAY every value
//! must have the column's width ("even for FIXED_LEN_BYTE_ARRAY, all lengths are encoded").
//!
//! # Worked example
//!
//! The spec's `"axis", "axle", "babble", "babyhood"`: prefix lengths `0 2 0 3`, suffixes
//! `"axis" "le" "babble" "yhood"` (lengths `4 2 6 5`).
//!
//! ```text
//! 80 01 04 04 00  prefix lengths: 128, 4 miniblocks, 4 values, first value 0
//! 03 03 00 00 00  min delta -2 (zigzag 3); bit widths 3, 0, 0, 0
//! 44 01 00 00 00 00 00 00 00 00 00 00
//!                 deltas 2 -2 3 minus -2 = 4 0 5 at 3 bits, LSB first:
//!                 001 000 101 -> 0b0100_0100 0b0000_0001 = 0x44 0x01, then padding
//! 80 01 04 04 08  suffix lengths: 128, 4 miniblocks, 4 values, first value 4 (zigzag 8)
//! 03 03 00 00 00  min delta -2; bit widths 3, 0, 0, 0
//! 70 00 00 00 00 00 00 00 00 00 00 00
//!                 deltas -2 4 -1 minus -2 = 0 6 1: 000 011 100 -> 0b0111_0000 = 0x70
//! 61 78 69 73 6C 65 62 61 62 62 6C 65 79 68 6F 6F 64
//!                 "axislebabbleyhood"
//! ```
//!
//! ```
//! use parket::encoding::delta_byte_array as dba;
//! use parket::values::{ByteArrays, ValuesRef};
//! let mut bytes = vec![0x80, 0x01, 0x04, 0x04, 0x00, 0x03, 0x03, 0, 0, 0, 0x44, 0x01];
//! bytes.extend_from_slice(&[0; 10]);
//! bytes.extend_from_slice(&[0x80, 0x01, 0x04, 0x04, 0x08, 0x03, 0x03, 0, 0, 0, 0x70]);
//! bytes.extend_from_slice(&[0; 11]);
//! bytes.extend_from_slice(b"axislebabbleyhood");
//! let mut out = ByteArrays::new();
//! assert_eq!(dba::decode_byte_arrays(&bytes, 4, &mut out).unwrap(), bytes.len());
//! assert_eq!(out.iter().collect::<Vec<_>>(), [&b"axis"[..], b"axle", b"babble", b"babyhood"]);
//!
//! let mut encoded = Vec::new();
//! dba::encode(ValuesRef::ByteArray(out.as_ref()), &mut encoded).unwrap();
//! assert_eq!(encoded, bytes);
//! ```
//!
//! # Limits
//!
//! The decoder never panics. Unlike the other encodings, its output is not bounded by its
//! input: a value can repeat the whole previous value as its prefix, so `n` values of `n` bytes
//! each take O(n) input bytes. The decoder therefore computes the output size before
//! allocating and checks it against a limit ([`decode_with_limit`]; [`decode`] uses
//! [`Limits::default`]'s page size). Temporary allocations: two vectors of `num_values`
//! lengths.

use alloc::vec::Vec;

use super::{delta_binary_packed, delta_length_byte_array};
use crate::bytes::{extend_short, SHORT};
use crate::error::{Error, Result};
use crate::limits::{reserve, Limits};
use crate::values::{ByteArrays, FixedLenByteArrays, Values, ValuesRef};

/// Decodes `num_values` BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY values from `input`, appending to
/// `out`; returns the number of input bytes consumed. The decoded bytes may total at most
/// [`Limits::default`]`.page_bytes`.
///
/// Never panics, for any input; see the module's "Limits".
pub fn decode(input: &[u8], num_values: usize, out: &mut Values) -> Result<usize> {
    decode_with_limit(input, num_values, out, Limits::default().page_bytes)
}

/// [`decode`] with a limit on the total bytes of the decoded values.
pub fn decode_with_limit(
    input: &[u8],
    num_values: usize,
    out: &mut Values,
    max_bytes: u64,
) -> Result<usize> {
    let width = match out {
        Values::ByteArray(_) => None,
        Values::FixedLenByteArray(f) if f.width() > 0 || num_values == 0 => Some(f.width()),
        Values::FixedLenByteArray(_) => {
            return Err(Error::out_of_spec(
                "FIXED_LEN_BYTE_ARRAY of width 0 holding values",
            ))
        }
        _ => {
            return Err(Error::unsupported(
                "DELTA_BYTE_ARRAY for a type other than BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY",
            ))
        }
    };
    let mut page = Pending::default();
    let consumed = page.load(input, num_values, width, max_bytes)?;
    match out {
        Values::ByteArray(b) => page.take(input, 0..num_values, b)?,
        Values::FixedLenByteArray(f) => page.take_fixed(input, f)?,
        _ => {}
    }
    Ok(consumed)
}

/// [`decode`] into a [`ByteArrays`].
pub fn decode_byte_arrays(input: &[u8], num_values: usize, out: &mut ByteArrays) -> Result<usize> {
    let mut page = Pending::default();
    let consumed = page.load(input, num_values, None, Limits::default().page_bytes)?;
    page.take(input, 0..num_values, out)?;
    Ok(consumed)
}

/// 16 bytes of ones, then 16 of zeros: the 16 bytes from `16 - p` on, little endian, are a
/// `u128` whose low `p` bytes are set ([`keep`]).
const ONES_THEN_ZEROS: [u8; 32] = {
    let mut t = [0; 32];
    let mut i = 0;
    while i < 16 {
        t[i] = 0xff;
        i += 1;
    }
    t
};

/// A `u128` whose low `p` bytes are set (`p` up to 16; all 16 beyond): one load.
#[inline(always)]
fn keep(p: usize) -> u128 {
    let at = ONES_THEN_ZEROS.get(16 - p.min(16)..);
    u128::from_le_bytes(
        at.and_then(|b| b.first_chunk())
            .copied()
            .unwrap_or([0xff; 16]),
    )
}

/// A section of DELTA_BYTE_ARRAY whose two length streams are decoded and checked, and whose
/// values are written a range at a time ([`Pending::take`]), in order: a reader handing out
/// batches writes each batch's values straight into it, instead of the page's into a buffer
/// of its own first. It holds the value before the next one, whose prefix that one may
/// share. The section's bytes are not kept: each call is given them again. The vectors are
/// reused from section to section.
#[derive(Debug, Clone, Default)]
pub(crate) struct Pending {
    prefixes: Vec<usize>,
    suffix_lengths: Vec<usize>,
    /// Where the suffixes are in the section.
    suffixes: core::ops::Range<usize>,
    /// The next value to write, and where its suffix starts in the suffixes.
    next: usize,
    at: usize,
    /// The value before `next` (empty before the first).
    previous: Vec<u8>,
}

impl Pending {
    /// Decodes and checks the streams of the `num_values` values at the start of `input`:
    /// every prefix within the value before it, the suffixes within the input, every value
    /// `width` bytes long when `width` is given, and the values' bytes at most `max_bytes`
    /// in all. Returns the bytes the section takes. Nothing is written.
    pub(crate) fn load(
        &mut self,
        input: &[u8],
        num_values: usize,
        width: Option<usize>,
        max_bytes: u64,
    ) -> Result<usize> {
        self.prefixes.clear();
        self.suffix_lengths.clear();
        self.suffixes = 0..0;
        self.next = 0;
        self.at = 0;
        self.previous.clear();
        let prefix_len =
            delta_binary_packed::decode_lengths(input, num_values, &mut self.prefixes)?;
        let rest = input.get(prefix_len..).unwrap_or(&[]);
        let (suffixes, suffix_len) =
            delta_length_byte_array::decode_parts(rest, num_values, &mut self.suffix_lengths)
                .map_err(|e| e.at_offset(prefix_len as u64))?;
        // Validate every value and add up the output before anything is written.
        let mut previous = 0usize;
        let mut total = 0u64;
        for (&p, &s) in self.prefixes.iter().zip(&self.suffix_lengths) {
            if p > previous {
                return Err(Error::out_of_range(
                    "DELTA_BYTE_ARRAY prefix length (longer than the previous value)",
                    p as i64,
                ));
            }
            // Both are below 2^31.
            let len = p + s;
            if let Some(w) = width {
                if len != w {
                    return Err(Error::out_of_range(
                        "DELTA_BYTE_ARRAY value length (not the FIXED_LEN_BYTE_ARRAY width)",
                        len as i64,
                    ));
                }
            }
            total += len as u64;
            if total > max_bytes {
                return Err(Error::limit(
                    "DELTA_BYTE_ARRAY decoded bytes",
                    total,
                    max_bytes,
                ));
            }
            previous = len;
        }
        if usize::try_from(total).is_err() {
            return Err(Error::limit(
                "DELTA_BYTE_ARRAY decoded bytes",
                total,
                usize::MAX as u64,
            ));
        }
        // The suffixes end the section.
        let end = prefix_len + suffix_len;
        self.suffixes = end - suffixes.len()..end;
        Ok(prefix_len + suffix_len)
    }

    /// How many values the section holds.
    pub(crate) fn len(&self) -> usize {
        self.prefixes.len()
    }

    /// Moves to value `i` (at or after the next one; back to the first when before it)
    /// without writing: the values passed are only built as `previous`.
    fn seek(&mut self, suffixes: &[u8], i: usize) {
        if i < self.next {
            self.next = 0;
            self.at = 0;
            self.previous.clear();
        }
        let end = i.min(self.len());
        let from = self.next.min(end);
        let prefixes = self.prefixes.get(from..end).unwrap_or(&[]);
        let lengths = self.suffix_lengths.get(from..end).unwrap_or(&[]);
        for (&p, &s) in prefixes.iter().zip(lengths) {
            self.previous.truncate(p);
            let suffix = suffixes.get(self.at..self.at + s).unwrap_or(&[]);
            self.previous.extend_from_slice(suffix);
            self.at += s;
        }
        self.next = end;
    }

    /// Appends values `range` of the section `input` (the bytes [`Pending::load`] was given)
    /// to `out`. Ranges are taken in order; one that starts past the next value passes the
    /// values between, one before it starts again from the first.
    pub(crate) fn take(
        &mut self,
        input: &[u8],
        range: core::ops::Range<usize>,
        out: &mut ByteArrays,
    ) -> Result<()> {
        let suffixes = input.get(self.suffixes.clone()).unwrap_or(&[]);
        self.seek(suffixes, range.start);
        let end = range.end.min(self.len()).max(self.next);
        let (prefixes, lengths) = self.range(end);
        let bytes: usize = prefixes.iter().zip(lengths).map(|(&p, &s)| p + s).sum();
        let (offsets, data) = out.parts_mut();
        reserve(offsets, prefixes.len(), "the values of a page")?;
        // The bytes that `write`'s block copies may write past the values.
        reserve(data, bytes + SHORT.max(16), "the values of a page")?;
        let start = data.len();
        self.at = write(
            prefixes,
            lengths,
            suffixes,
            self.at,
            &self.previous,
            data,
            |o| offsets.push(o),
        );
        self.keep_last(data, start, end);
        Ok(())
    }

    /// Appends every value of the section to `out` (each of the width `load` checked).
    fn take_fixed(&mut self, input: &[u8], out: &mut FixedLenByteArrays) -> Result<()> {
        let suffixes = input.get(self.suffixes.clone()).unwrap_or(&[]);
        let end = self.len();
        let (prefixes, lengths) = self.range(end);
        let bytes: usize = prefixes.iter().zip(lengths).map(|(&p, &s)| p + s).sum();
        let data = out.data_mut();
        reserve(data, bytes + SHORT.max(16), "the values of a page")?;
        self.at = write(prefixes, lengths, suffixes, 0, &[], data, |_| {});
        self.next = end;
        Ok(())
    }

    /// The prefix and suffix lengths of the values from the next one to `end`.
    fn range(&self, end: usize) -> (&[usize], &[usize]) {
        (
            self.prefixes.get(self.next..end).unwrap_or(&[]),
            self.suffix_lengths.get(self.next..end).unwrap_or(&[]),
        )
    }

    /// After values `..end` were written to `data` from `start` on: the last of them becomes
    /// `previous`.
    fn keep_last(&mut self, data: &[u8], start: usize, end: usize) {
        if end > self.next {
            let len = self.prefixes.get(end - 1).copied().unwrap_or(0)
                + self.suffix_lengths.get(end - 1).copied().unwrap_or(0);
            let last = data
                .get(data.len().saturating_sub(len).max(start)..)
                .unwrap_or(&[]);
            self.previous.clear();
            self.previous.extend_from_slice(last);
            self.next = end;
        }
    }
}

/// Appends the values of prefix lengths `prefixes` and suffix lengths `lengths` to `data`
/// (each value's prefix is copied from the previous value, the first one's from `previous`),
/// their suffixes from `suffixes` at `at` on; calls `end` after each. Returns where the
/// suffixes of the values after them start. Never panics; the caller checked the lengths
/// ([`Pending::load`]) and reserved the values' bytes and [`SHORT`] (at least 16) more.
///
/// Values of up to 16 bytes (codes, flags, short names: the common case) are built in a
/// `u128` and appended as one 16-byte block with the buffer truncated back: no `memcpy`
/// call, and after a short value no read of bytes just written (reading back a value
/// stored a moment before stalls on store forwarding). The value is a byte blend of two
/// 16-byte words: its first `p` bytes from the previous value, the rest from the 16 input
/// bytes that start `p` bytes before its suffix, so that the suffix lands at byte `p`:
///
/// ```text
/// previous "axis", p = 2, suffix "le" (at 4 in "axislebabble…")
/// input from 4 - 2:  "is" "le" "babble…"      keep(2) = ff ff 00 00 …
/// value = previous & keep | input & !keep = "ax" "le" "ba…"  (then truncated to 4)
/// ```
///
/// The bytes before a suffix are there: every value's bytes came from the suffixes before
/// it, so a prefix is never longer than the suffix bytes already passed. Longer values
/// copy their prefix from `data` and their suffix by length.
fn write(
    prefixes: &[usize],
    lengths: &[usize],
    suffixes: &[u8],
    mut at: usize,
    previous: &[u8],
    data: &mut Vec<u8>,
    mut end: impl FnMut(usize),
) -> usize {
    let (Some((&p0, prefixes)), Some((&s0, lengths))) =
        (prefixes.split_first(), lengths.split_first())
    else {
        return at;
    };
    // The first value: its prefix from `previous` (the value before the range).
    let start = data.len();
    data.extend_from_slice(previous.get(..p0).unwrap_or(previous));
    data.extend_from_slice(suffixes.get(at..at + s0).unwrap_or(&[]));
    at += s0;
    end(data.len());
    let mut previous = start..data.len();
    // The previous value's first 16 bytes, little endian (beyond its length: anything),
    // when it is at most 16 bytes long.
    let mut last = first16(data, previous.start);
    for (&p, &s) in prefixes.iter().zip(lengths) {
        let start = data.len();
        // p <= previous.len() and s <= the suffix bytes left were checked in `load`.
        let Some(suffix) = suffixes.get(at..at + s) else {
            break;
        };
        let len = p + s;
        let block = at
            .checked_sub(p)
            .and_then(|from| suffixes.get(from..))
            .and_then(|b| b.first_chunk::<16>());
        match block {
            Some(&block) if len <= 16 => {
                if previous.len() > 16 {
                    // The previous value is only in `data`: its first 16 bytes.
                    let at = data.get(previous.start..).and_then(|d| d.first_chunk());
                    last = u128::from_le_bytes(at.copied().unwrap_or([0; 16]));
                }
                let keep = keep(p);
                last = (last & keep) | (u128::from_le_bytes(block) & !keep);
                data.extend_from_slice(&last.to_le_bytes());
                data.truncate(start + len);
            }
            _ => {
                // The prefix: a block of the previous value's first 16 bytes cut to `p`
                // when it is that short (most are), else by length; the suffix as a block
                // when it is short (`extend_short`): no `memcpy` call for a value of up to
                // 16 + 48 bytes, the common long value (ids, names, short text).
                let head = data
                    .get(previous.start..)
                    .and_then(|d| d.first_chunk::<16>())
                    .copied();
                match head {
                    _ if p == 0 => {}
                    Some(head) if p <= 16 => {
                        data.extend_from_slice(&head);
                        data.truncate(start + p);
                    }
                    _ => data.extend_from_within(previous.start..previous.start + p),
                }
                if extend_short(data, suffixes.get(at..).unwrap_or(&[]), s).is_none() {
                    data.extend_from_slice(suffix);
                }
                // Near the end of the suffixes (fewer than 16 bytes left).
                if len <= 16 {
                    last = first16(data, start);
                }
            }
        }
        at += s;
        previous = start..data.len();
        end(data.len());
    }
    at
}

/// The 16 bytes of `data` from `at` on, little endian, zeros past its end.
#[inline]
fn first16(data: &[u8], at: usize) -> u128 {
    let mut bytes = [0u8; 16];
    let from = data.get(at..).unwrap_or(&[]);
    let n = from.len().min(16);
    bytes[..n].copy_from_slice(&from[..n]);
    u128::from_le_bytes(bytes)
}

/// Appends the encoding of `values` (BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY). A value longer than
/// `i32::MAX` bytes is an [`Error::invalid_argument`].
pub fn encode(values: ValuesRef<'_>, out: &mut Vec<u8>) -> Result<()> {
    match values {
        ValuesRef::ByteArray(v) => {
            let (offsets, data) = v.parts();
            let ends = offsets.windows(2).map(|w| (w[0], w[1]));
            encode_ranges(v.len(), ends, data, out)
        }
        ValuesRef::FixedLenByteArray(v) => {
            let w = v.width();
            let ends = (0..v.len()).map(|i| (i * w, i * w + w));
            encode_ranges(v.len(), ends, v.data(), out)
        }
        _ => Err(Error::unsupported(
            "DELTA_BYTE_ARRAY for a type other than BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY",
        )),
    }
}

/// The values are `data[start..end]` for each of the `n` `(start, end)` of `ranges`, which
/// is iterated twice (lengths, then suffixes). Suffixes are copied from `data` by
/// `extend_short`: a fixed-size block for a short one, which may read past the value.
fn encode_ranges(
    n: usize,
    ranges: impl Iterator<Item = (usize, usize)> + Clone,
    data: &[u8],
    out: &mut Vec<u8>,
) -> Result<()> {
    // Sized once (growing them value by value was a tenth of a page's encoding).
    let mut prefixes = Vec::with_capacity(n);
    let mut suffixes = Vec::with_capacity(n);
    let mut suffix_bytes = 0;
    let mut previous: &[u8] = &[];
    for (start, end) in ranges.clone() {
        let v = data.get(start..end).unwrap_or(&[]);
        let p = common_prefix(previous, v);
        prefixes.push(delta_length_byte_array::length_i32(p)?);
        suffixes.push(delta_length_byte_array::length_i32(v.len() - p)?);
        suffix_bytes += v.len() - p;
        previous = v;
    }
    delta_binary_packed::encode_i32(&prefixes, out);
    delta_binary_packed::encode_i32(&suffixes, out);
    out.reserve(suffix_bytes + SHORT);
    for ((start, _), (&p, &s)) in ranges.zip(prefixes.iter().zip(&suffixes)) {
        let from = data.get(start + p as usize..).unwrap_or(&[]);
        let _ = extend_short(out, from, s as usize);
    }
    Ok(())
}

/// Length of the longest common prefix, compared 8 bytes at a time.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut i = 0;
    for (x, y) in a.chunks_exact(8).zip(b.chunks_exact(8)) {
        if x != y {
            break;
        }
        i += 8;
    }
    i + a[i..]
        .iter()
        .zip(&b[i..])
        .take_while(|(x, y)| x == y)
        .count()
}

/// Fuzzing harness: the first byte picks BYTE_ARRAY (0) or a FIXED_LEN_BYTE_ARRAY width,
/// the next two `num_values`; the rest is decoded with a 1 MiB output limit. Whatever decodes
/// must re-encode to a stream that decodes the same.
#[cfg(any(test, feature = "fuzzing"))]
#[doc(hidden)]
pub fn fuzz_decode(data: &[u8]) {
    let [kind, lo, hi, rest @ ..] = data else {
        return;
    };
    let num_values = usize::from(u16::from_le_bytes([*lo, *hi]));
    let mut out = match kind % 8 {
        0 => Values::ByteArray(ByteArrays::new()),
        w => Values::FixedLenByteArray(FixedLenByteArrays::new(usize::from(w))),
    };
    match decode_with_limit(rest, num_values, &mut out, 1 << 20) {
        Ok(consumed) => {
            assert!(consumed <= rest.len());
            assert_eq!(out.len(), num_values);
            let mut again = Vec::new();
            encode(out.as_ref(), &mut again).expect("lengths fit");
            let mut back = Values::new(out.physical_type(), usize::from(kind % 8));
            let n = decode_with_limit(&again, num_values, &mut back, 1 << 20).expect("re-decode");
            assert_eq!(n, again.len());
            assert_eq!(back, out);
        }
        Err(_) => assert!(out.is_empty()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::PhysicalType;
    use alloc::vec;
    use proptest::prelude::*;

    #[test]
    fn keep_sets_the_low_p_bytes() {
        assert_eq!(keep(0), 0);
        assert_eq!(keep(1), 0xff);
        assert_eq!(keep(2), 0xffff);
        assert_eq!(keep(15), u128::MAX >> 8);
        assert_eq!(keep(16), u128::MAX);
        assert_eq!(keep(40), u128::MAX);
    }

    fn enc(values: &[&[u8]]) -> Vec<u8> {
        let v: ByteArrays = values.iter().collect();
        let mut out = Vec::new();
        encode(ValuesRef::ByteArray(v.as_ref()), &mut out).unwrap();
        out
    }

    #[test]
    fn prefix_longer_than_previous() {
        // prefix lengths [0, 3]: the second value claims 3 bytes of a 2-byte value.
        let mut b = Vec::new();
        delta_binary_packed::encode_i32(&[0, 3], &mut b);
        delta_binary_packed::encode_i32(&[2, 0], &mut b);
        b.extend_from_slice(b"ab");
        let mut out = Values::new(PhysicalType::ByteArray, 0);
        assert!(decode(&b, 2, &mut out).is_err());
        assert!(out.is_empty());
        // A first value with a prefix (nothing precedes it).
        let mut b = Vec::new();
        delta_binary_packed::encode_i32(&[1], &mut b);
        delta_binary_packed::encode_i32(&[0], &mut b);
        assert!(decode(&b, 1, &mut out).is_err());
    }

    #[test]
    fn fixed_len() {
        let flba = FixedLenByteArrays::from_parts(3, b"abcabdxyz".to_vec()).unwrap();
        let mut b = Vec::new();
        encode(ValuesRef::FixedLenByteArray(flba.as_ref()), &mut b).unwrap();
        // Same bytes as for byte arrays.
        assert_eq!(b, enc(&[b"abc", b"abd", b"xyz"]));
        let mut out = Values::new(PhysicalType::FixedLenByteArray, 3);
        assert_eq!(decode(&b, 3, &mut out).unwrap(), b.len());
        assert_eq!(out, Values::FixedLenByteArray(flba));
        // Wrong width.
        let mut out = Values::new(PhysicalType::FixedLenByteArray, 2);
        assert!(decode(&b, 3, &mut out).is_err());
        assert!(out.is_empty());
    }

    #[test]
    fn quadratic_output_is_limited() {
        // Each value repeats the previous one and adds a byte: 1000 values, 500 500 bytes.
        let n = 1000;
        let prefixes: Vec<i32> = (0..n).collect();
        let mut b = Vec::new();
        delta_binary_packed::encode_i32(&prefixes, &mut b);
        delta_binary_packed::encode_i32(&vec![1; n as usize], &mut b);
        b.extend(core::iter::repeat_n(b'x', n as usize));
        let mut out = Values::new(PhysicalType::ByteArray, 0);
        assert!(decode_with_limit(&b, n as usize, &mut out, 100_000).is_err());
        assert!(out.is_empty());
        assert_eq!(
            decode_with_limit(&b, n as usize, &mut out, 500_500).unwrap(),
            b.len()
        );
        let Values::ByteArray(v) = out else { panic!() };
        assert_eq!(v.get(999).unwrap().len(), 1000);
    }

    #[test]
    fn appends_after_existing_values() {
        // The first new value's prefix is relative to an empty value, not to `out`'s last.
        let mut out: ByteArrays = ["zzz"].into_iter().collect();
        let b = enc(&[b"ab", b"ac"]);
        decode_byte_arrays(&b, 2, &mut out).unwrap();
        assert_eq!(out.iter().collect::<Vec<_>>(), [&b"zzz"[..], b"ab", b"ac"]);
    }

    #[test]
    fn common_prefix_lengths() {
        assert_eq!(common_prefix(b"", b"abc"), 0);
        assert_eq!(common_prefix(b"abcdefghij", b"abcdefghiX"), 9);
        assert_eq!(common_prefix(b"abcdefgh", b"abcdefgh"), 8);
        assert_eq!(common_prefix(b"abcdefgh12", b"abcdefgh"), 8);
        assert_eq!(common_prefix(b"aXcdefgh12", b"abcdefgh"), 1);
    }

    #[test]
    fn type_dispatch() {
        assert!(decode(&[], 0, &mut Values::Int32(vec![])).is_err());
        assert!(encode(ValuesRef::Double(&[1.0]), &mut Vec::new()).is_err());
    }

    proptest! {
        #[test]
        fn roundtrip(values in proptest::collection::vec(
            proptest::collection::vec(0u8..3, 0..12), 0..400)) {
            let refs: Vec<&[u8]> = values.iter().map(Vec::as_slice).collect();
            let mut b = enc(&refs);
            let len = b.len();
            b.push(0xEE);
            let mut out = ByteArrays::new();
            prop_assert_eq!(decode_byte_arrays(&b, values.len(), &mut out).unwrap(), len);
            prop_assert_eq!(out.iter().map(<[u8]>::to_vec).collect::<Vec<_>>(), values);
        }

        #[test]
        fn a_slice_encodes_as_its_values(
            values in proptest::collection::vec(proptest::collection::vec(0u8..3, 0..40), 0..60),
            cut in (0usize..60, 0usize..60),
        ) {
            // The writer encodes slices of a batch: offsets that do not start at 0, and
            // bytes after the slice that a block copy may read.
            let all: ByteArrays = values.iter().collect();
            let (a, b) = (cut.0.min(values.len()), cut.1.min(values.len()));
            let (a, b) = (a.min(b), a.max(b));
            let mut sliced = Vec::new();
            encode(ValuesRef::ByteArray(all.as_ref().slice(a..b)), &mut sliced).unwrap();
            let fresh: ByteArrays = values[a..b].iter().collect();
            let mut expected = Vec::new();
            encode(ValuesRef::ByteArray(fresh.as_ref()), &mut expected).unwrap();
            prop_assert_eq!(&sliced, &expected);
            let mut dl_sliced = Vec::new();
            delta_length_byte_array::encode_byte_arrays(all.as_ref().slice(a..b), &mut dl_sliced).unwrap();
            let mut dl_expected = Vec::new();
            delta_length_byte_array::encode_byte_arrays(fresh.as_ref(), &mut dl_expected).unwrap();
            prop_assert_eq!(dl_sliced, dl_expected);
        }

        #[test]
        fn roundtrip_around_the_short_length(values in proptest::collection::vec(
            (0usize..24, proptest::collection::vec(0u8..2, 0..30)), 0..200)) {
            // Values of 0 to 53 bytes sharing prefixes of up to 23 bytes with the one before,
            // so that the short path (up to 16 bytes) and the long one follow each other.
            let mut vals: Vec<Vec<u8>> = Vec::new();
            for (keep, tail) in values {
                let mut v = vals.last().map_or(Vec::new(), |p| p[..keep.min(p.len())].to_vec());
                v.extend(tail.iter().map(|&b| b'a' + b));
                vals.push(v);
            }
            let refs: Vec<&[u8]> = vals.iter().map(Vec::as_slice).collect();
            let b = enc(&refs);
            let mut out = ByteArrays::new();
            out.push(b"before");
            prop_assert_eq!(decode_byte_arrays(&b, vals.len(), &mut out).unwrap(), b.len());
            let mut expected = vec![b"before".to_vec()];
            expected.extend(vals);
            prop_assert_eq!(out.iter().map(<[u8]>::to_vec).collect::<Vec<_>>(), expected);
        }

        #[test]
        fn roundtrip_fixed(width in 1usize..6, data in proptest::collection::vec(0u8..2, 0..600)) {
            let data = data[..data.len() / width * width].to_vec();
            let f = FixedLenByteArrays::from_parts(width, data).unwrap();
            let mut b = Vec::new();
            encode(ValuesRef::FixedLenByteArray(f.as_ref()), &mut b).unwrap();
            let mut out = Values::new(PhysicalType::FixedLenByteArray, width);
            prop_assert_eq!(decode(&b, f.len(), &mut out).unwrap(), b.len());
            prop_assert_eq!(out, Values::FixedLenByteArray(f));
        }

        /// Well-formed length streams with arbitrary (often invalid) prefix and suffix lengths:
        /// never a panic, and whatever decodes matches a naive oracle.
        #[test]
        fn arbitrary_lengths(
            prefixes in proptest::collection::vec(-2i32..6, 0..50),
            suffixes in proptest::collection::vec(-2i32..6, 0..50),
            data in proptest::collection::vec(any::<u8>(), 0..200),
        ) {
            let n = prefixes.len().min(suffixes.len());
            let mut b = Vec::new();
            delta_binary_packed::encode_i32(&prefixes[..n], &mut b);
            delta_binary_packed::encode_i32(&suffixes[..n], &mut b);
            b.extend_from_slice(&data);
            let mut out = ByteArrays::new();
            let got = decode_byte_arrays(&b, n, &mut out);
            // Oracle.
            let mut expect: Option<Vec<Vec<u8>>> = Some(Vec::new());
            let mut rest = &data[..];
            let mut prev: Vec<u8> = Vec::new();
            if suffixes[..n].iter().any(|&s| s < 0)
                || suffixes[..n].iter().map(|&s| s.max(0) as usize).sum::<usize>() > data.len()
            {
                expect = None;
            } else {
                for (&p, &s) in prefixes[..n].iter().zip(&suffixes[..n]) {
                    if p < 0 || p as usize > prev.len() {
                        expect = None;
                        break;
                    }
                    let mut v = prev[..p as usize].to_vec();
                    v.extend_from_slice(&rest[..s as usize]);
                    rest = &rest[s as usize..];
                    expect.as_mut().unwrap().push(v.clone());
                    prev = v;
                }
            }
            match (got, expect) {
                (Ok(used), Some(e)) => {
                    prop_assert_eq!(out.iter().map(<[u8]>::to_vec).collect::<Vec<_>>(), e);
                    prop_assert_eq!(used, b.len() - rest.len());
                }
                (Err(_), None) => prop_assert!(out.is_empty()),
                (g, e) => prop_assert!(false, "decoder {:?} vs oracle {:?}", g, e),
            }
        }

        #[test]
        fn arbitrary_bytes(data in proptest::collection::vec(any::<u8>(), 0..300)) {
            fuzz_decode(&data);
        }
    }
}
