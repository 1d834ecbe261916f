//! PLAIN (`PLAIN = 0`): values back to back, for all eight physical types.
//!
//! Spec: Encodings.md, "Plain: (PLAIN = 0)":
//!
//! ```text
//! BOOLEAN:              bit-packed, LSB first (the RLE/bit-packing hybrid's packing)
//! INT32:                4 bytes little endian
//! INT64:                8 bytes little endian
//! INT96:                12 bytes little endian (deprecated)
//! FLOAT:                4 bytes IEEE little endian
//! DOUBLE:               8 bytes IEEE little endian
//! BYTE_ARRAY:           length in 4 bytes little endian followed by the bytes
//! FIXED_LEN_BYTE_ARRAY: the bytes contained in the array
//! ```
//!
//! PLAIN is the fallback of every column and the encoding of every dictionary page. Worked
//! example:
//!
//! ```text
//! INT32 [1, -2]              01 00 00 00 | FE FF FF FF
//! BYTE_ARRAY ["ab", ""]      02 00 00 00 61 62 | 00 00 00 00
//! BOOLEAN [true, false, true] 05          (bits 0, 1, 2 of one byte: 1, 0, 1)
//! DOUBLE [-0.0]              00 00 00 00 00 00 00 80
//! ```
//!
//! ```
//! use parket::encoding::plain;
//! use parket::values::{ByteArrays, Values, ValuesRef};
//! let mut bytes = Vec::new();
//! plain::encode(ValuesRef::Int32(&[1, -2]), &mut bytes).unwrap();
//! assert_eq!(bytes, [0x01, 0, 0, 0, 0xFE, 0xFF, 0xFF, 0xFF]);
//!
//! let names: ByteArrays = ["ab", ""].into_iter().collect();
//! let mut bytes = Vec::new();
//! plain::encode(ValuesRef::ByteArray(names.as_ref()), &mut bytes).unwrap();
//! assert_eq!(bytes, [2, 0, 0, 0, b'a', b'b', 0, 0, 0, 0]);
//! let mut out = Values::ByteArray(ByteArrays::new());
//! assert_eq!(plain::decode(&bytes, 2, &mut out).unwrap(), 10);
//! assert_eq!(out, Values::ByteArray(names));
//! ```
//!
//! Decoders never panic, for any input, and allocate no more than the input justifies: every
//! fixed-width count is checked against the bytes that remain before reserving, and
//! `num_values` byte arrays need at least `4 * num_values` bytes of length prefixes. A page of
//! byte arrays costs at most two allocations (offsets, and data sized by the bytes left after
//! the length prefixes). Floats keep their bits (NaN payloads, `-0.0`).
//!
//! BOOLEAN values are bit-packed from the start of `input`, so a caller that decodes one page
//! in several calls must split it at multiples of 8 values (or decode it whole); the same holds
//! for [`encode`], which pads the last byte.

use alloc::vec::Vec;

use crate::bytes::{extend_short, SHORT};
use crate::error::{Error, Result};
use crate::values::{ByteArrays, Values, ValuesRef};

/// Decodes `num_values` PLAIN values of the physical type of `out` (and, for
/// FIXED_LEN_BYTE_ARRAY, its width) from `input`, appending to `out`; returns the bytes
/// consumed.
///
/// Never panics, for any input. Errors when `input` is too short, or for a
/// FIXED_LEN_BYTE_ARRAY width of 0 with `num_values > 0`.
pub fn decode(input: &[u8], num_values: usize, out: &mut Values) -> Result<usize> {
    match out {
        Values::Boolean(v) => decode_boolean(input, num_values, v),
        Values::Int32(v) => decode_fixed(input, num_values, v, "PLAIN INT32 values", |b| {
            i32::from_le_bytes(b)
        }),
        Values::Int64(v) => decode_fixed(input, num_values, v, "PLAIN INT64 values", |b| {
            i64::from_le_bytes(b)
        }),
        Values::Int96(v) => decode_fixed(input, num_values, v, "PLAIN INT96 values", |b| b),
        Values::Float(v) => decode_fixed(input, num_values, v, "PLAIN FLOAT values", |b| {
            f32::from_bits(u32::from_le_bytes(b))
        }),
        Values::Double(v) => decode_fixed(input, num_values, v, "PLAIN DOUBLE values", |b| {
            f64::from_bits(u64::from_le_bytes(b))
        }),
        Values::ByteArray(v) => decode_byte_array(input, num_values, v),
        Values::FixedLenByteArray(v) => {
            let width = v.width();
            if width == 0 {
                if num_values == 0 {
                    return Ok(0);
                }
                return Err(Error::out_of_range("FIXED_LEN_BYTE_ARRAY type_length", 0));
            }
            let bytes = take_values(
                input,
                num_values,
                width,
                "PLAIN FIXED_LEN_BYTE_ARRAY values",
            )?;
            v.data_mut().extend_from_slice(bytes);
            Ok(bytes.len())
        }
    }
}

/// The first `count * size` bytes of `input`, or a truncation error.
#[inline]
fn take_values<'a>(
    input: &'a [u8],
    count: usize,
    size: usize,
    what: &'static str,
) -> Result<&'a [u8]> {
    count
        .checked_mul(size)
        .and_then(|len| input.get(..len))
        .ok_or_else(|| {
            Error::truncated(
                what,
                (count as u128 * size as u128).min(u64::MAX as u128) as u64,
                input.len() as u64,
            )
        })
}

/// Fixed-width values: `N` bytes each, converted by `f`. `chunks_exact` over a checked slice
/// lets the compiler drop every bounds check and vectorize the conversion.
#[inline]
fn decode_fixed<const N: usize, T>(
    input: &[u8],
    num_values: usize,
    out: &mut Vec<T>,
    what: &'static str,
    f: impl Fn([u8; N]) -> T,
) -> Result<usize> {
    let bytes = take_values(input, num_values, N, what)?;
    out.reserve(num_values);
    variant::extend_fixed(bytes, num_values, out, f);
    Ok(bytes.len())
}

/// Spec: BOOLEAN is bit-packed, LSB first, one bit per value.
fn decode_boolean(input: &[u8], num_values: usize, out: &mut Vec<bool>) -> Result<usize> {
    let len = num_values.div_ceil(8);
    let Some(bytes) = input.get(..len) else {
        return Err(Error::truncated(
            "PLAIN BOOLEAN values",
            len as u64,
            input.len() as u64,
        ));
    };
    out.reserve(num_values);
    variant::extend_booleans(bytes, num_values, out);
    Ok(len)
}

// The one point of choice between the conversions of default builds ([`fast`]: iterator
// adapters the compiler vectorizes) and those of builds for size (`cfg(parket_opt_size)`,
// [`compact`]: by index, linking neither `ChunksExact`'s division nor its panic paths). Same
// signatures, same values (property tests compare them).
#[cfg(parket_opt_size)]
use compact as variant;
#[cfg(not(parket_opt_size))]
use fast as variant;

/// The conversions of default builds.
#[cfg(not(parket_opt_size))]
mod fast {
    use alloc::vec::Vec;

    /// Appends the `num_values` values of `N` bytes of `bytes` (exactly that long), each
    /// converted by `f`. `chunks_exact` lets the compiler drop every bounds check and
    /// vectorize the conversion.
    #[inline]
    pub(super) fn extend_fixed<const N: usize, T>(
        bytes: &[u8],
        _num_values: usize,
        out: &mut Vec<T>,
        f: impl Fn([u8; N]) -> T,
    ) {
        // `chunks_exact` gives N bytes: the fallback is never used (and compiled away).
        out.extend(
            bytes
                .chunks_exact(N)
                .map(|c| f(<[u8; N]>::try_from(c).unwrap_or([0; N]))),
        );
    }

    /// Appends the first `num_values` bits of `bytes`, LSB first. Eight values a byte,
    /// appended as one array (an iterator of single bits was extended value by value).
    #[inline]
    pub(super) fn extend_booleans(bytes: &[u8], num_values: usize, out: &mut Vec<bool>) {
        let bits = |b: u8| -> [bool; 8] { core::array::from_fn(|k| (b >> k) & 1 != 0) };
        let (whole, rest) = bytes.split_at(num_values / 8);
        for &b in whole {
            out.extend_from_slice(&bits(b));
        }
        if let Some(&b) = rest.first() {
            out.extend_from_slice(&bits(b)[..num_values % 8]);
        }
    }
}

/// The conversions of builds for size.
#[cfg(any(parket_opt_size, test))]
mod compact {
    use alloc::vec::Vec;

    /// The conversion of `decode_fixed` in builds for size: value `k`
    /// from bytes `k * N ..`, over an exact range, which links neither `ChunksExact`'s size hint
    /// (a division) nor its panic paths. `bytes` holds `num_values * N` bytes (`take_values`
    /// checked it), so the fallback is never used; a test compares it with `chunks_exact`.
    #[inline]
    pub(super) fn extend_fixed<const N: usize, T>(
        bytes: &[u8],
        num_values: usize,
        out: &mut Vec<T>,
        f: impl Fn([u8; N]) -> T,
    ) {
        out.extend((0..num_values).map(|k| {
            let c = bytes.get(k * N..).and_then(|c| c.first_chunk::<N>());
            f(c.copied().unwrap_or([0; N]))
        }));
    }

    /// The unpacking of `decode_boolean` in builds for size: bit `k`
    /// by index, without the flattening adapter; a test compares it with the default.
    pub(super) fn extend_booleans(bytes: &[u8], num_values: usize, out: &mut Vec<bool>) {
        out.extend(
            (0..num_values).map(|k| bytes.get(k / 8).is_some_and(|&b| (b >> (k % 8)) & 1 != 0)),
        );
    }
}

/// Spec: BYTE_ARRAY is a 4-byte little-endian length followed by the bytes.
///
/// One pass: each length prefix is checked against the bytes that remain, then its value is
/// appended by [`extend_short`]. The values' bytes cannot exceed the input left after the
/// `num_values` prefixes, so the data buffer is reserved once, with the [`SHORT`] bytes of slack
/// `extend_short`'s block copies need.
fn decode_byte_array(input: &[u8], num_values: usize, out: &mut ByteArrays) -> Result<usize> {
    let room = room_after_prefixes(input, num_values)?;
    append_byte_array(input, num_values, room, out)
}

/// [`decode_byte_array`] with room reserved for `room` bytes of values (and the slack).
fn append_byte_array(
    input: &[u8],
    num_values: usize,
    room: usize,
    out: &mut ByteArrays,
) -> Result<usize> {
    let (offsets, data) = out.parts_mut();
    let (first, base) = (offsets.len(), data.len());
    offsets.reserve(num_values);
    data.reserve(room + SHORT);
    // The unread bytes and the end of the values appended, kept in locals: one split per
    // value, no position to check against the input again.
    let mut rest = input;
    let mut end = base;
    for _ in 0..num_values {
        let Some((len, tail)) = split_value(rest) else {
            offsets.truncate(first);
            data.truncate(base);
            return Err(value_error(input, input.len() - rest.len()));
        };
        // `tail` holds the value's `len` bytes (checked), then the rest of the page, which
        // lets a short value be copied as one block.
        let _ = extend_short(data, tail, len);
        end += len;
        offsets.push(end);
        rest = tail.get(len..).unwrap_or(&[]);
    }
    Ok(input.len() - rest.len())
}

/// A section of PLAIN BYTE_ARRAY values checked (every length within the bytes), whose values
/// are written a range at a time ([`Pending::take`]), in order: a reader handing out batches
/// copies each batch's values straight into it. The section's bytes are not kept: each call
/// is given them again.
#[derive(Debug, Clone, Default)]
pub(crate) struct Pending {
    len: usize,
    /// The next value to write, and where its length prefix is in the section.
    next: usize,
    pos: usize,
}

impl Pending {
    /// Checks the `num_values` values at the start of `input` (as [`decode`] does); returns
    /// the bytes they take. Nothing is written.
    pub(crate) fn load(&mut self, input: &[u8], num_values: usize) -> Result<usize> {
        *self = Pending::default();
        room_after_prefixes(input, num_values)?;
        let mut rest = input;
        for _ in 0..num_values {
            let Some((len, tail)) = split_value(rest) else {
                return Err(value_error(input, input.len() - rest.len()));
            };
            rest = tail.get(len..).unwrap_or(&[]);
        }
        self.len = num_values;
        Ok(input.len() - rest.len())
    }

    /// Where the value after the one whose prefix is at `pos` starts, and its length.
    fn step(input: &[u8], pos: usize) -> Result<(usize, usize)> {
        let (len, _) = value_at(input, pos)?;
        Ok((pos + 4 + len, len))
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
        if range.start < self.next {
            self.next = 0;
            self.pos = 0;
        }
        let start = range.start.min(self.len);
        while self.next < start {
            self.pos = Self::step(input, self.pos)?.0;
            self.next += 1;
        }
        let end = range.end.min(self.len).max(self.next);
        // The values' bytes, for an exact reservation (not the rest of the page).
        let (mut pos, mut bytes) = (self.pos, 0);
        for _ in self.next..end {
            let (after, len) = Self::step(input, pos)?;
            pos = after;
            bytes += len;
        }
        let from = input.get(self.pos..).unwrap_or(&[]);
        append_byte_array(from, end - self.next, bytes, out)?;
        self.pos = pos;
        self.next = end;
        Ok(())
    }
}

/// The length of the PLAIN BYTE_ARRAY value at the start of `rest` and the bytes after its
/// prefix, or `None` when its prefix or its bytes run past the end.
#[inline(always)]
fn split_value(rest: &[u8]) -> Option<(usize, &[u8])> {
    let (prefix, tail) = rest.split_first_chunk::<4>()?;
    let len = u32::from_le_bytes(*prefix) as usize;
    (len <= tail.len()).then_some((len, tail))
}

/// The error for the value whose prefix is at `pos` of `input`: [`value_at`]'s.
#[cold]
fn value_error(input: &[u8], pos: usize) -> Error {
    match value_at(input, pos) {
        Err(e) => e,
        Ok(_) => Error::out_of_spec("PLAIN BYTE_ARRAY value"),
    }
}

/// Where each of `num_values` PLAIN BYTE_ARRAY values starts in `input` (the offset of its
/// length prefix), then where the last one ends: `num_values + 1` offsets appended to
/// `starts`, checked as [`decode`] checks the values. For a dictionary kept as its page
/// (`Entries::plain` in the dictionary module). Returns the bytes consumed.
pub(crate) fn byte_array_starts(
    input: &[u8],
    num_values: usize,
    starts: &mut Vec<usize>,
) -> Result<usize> {
    room_after_prefixes(input, num_values)?;
    let first = starts.len();
    starts.reserve(num_values + 1);
    // One pass without a check per entry (a counted `extend`, no capacity test per push):
    // the starts only grow, so every entry fits when each length prefix was there and the
    // last entry ends inside `input`. 34 instructions an entry came down to about 10 (a
    // dictionary page of 10,000 strings is read in place through these starts). Anything
    // else is walked again below, entry by entry, for the error and where it is.
    let (mut pos, mut fits) = (0usize, true);
    starts.extend((0..num_values).map(|_| {
        let at = pos;
        match input.get(pos..).and_then(<[u8]>::first_chunk::<4>) {
            Some(&prefix) => {
                let len = u32::from_le_bytes(prefix) as usize;
                pos = pos.saturating_add(4).saturating_add(len);
            }
            None => fits = false,
        }
        at
    }));
    if fits && pos <= input.len() {
        starts.push(pos);
        return Ok(pos);
    }
    starts.truncate(first);
    let mut pos = 0usize;
    for _ in 0..num_values {
        starts.push(pos);
        match value_at(input, pos) {
            Ok((len, _)) => pos += 4 + len,
            Err(e) => {
                starts.truncate(first);
                return Err(e);
            }
        }
    }
    starts.push(pos);
    Ok(pos)
}

/// The bytes of `input` left after `num_values` 4-byte length prefixes, or the error when
/// they do not fit: checked before anything is reserved.
#[inline]
fn room_after_prefixes(input: &[u8], num_values: usize) -> Result<usize> {
    num_values
        .checked_mul(4)
        .and_then(|n| input.len().checked_sub(n))
        .ok_or_else(|| {
            Error::truncated(
                "PLAIN BYTE_ARRAY length prefixes",
                (num_values as u128 * 4).min(u64::MAX as u128) as u64,
                input.len() as u64,
            )
        })
}

/// The length of the BYTE_ARRAY value whose length prefix is at `pos`, checked against the
/// bytes after the prefix, and those bytes.
#[inline(always)]
fn value_at(input: &[u8], pos: usize) -> Result<(usize, &[u8])> {
    let rest = input.get(pos..).unwrap_or(&[]);
    let Some((prefix, tail)) = rest.split_first_chunk::<4>() else {
        return Err(
            Error::truncated("BYTE_ARRAY length prefix", 4, rest.len() as u64)
                .at_offset(pos as u64),
        );
    };
    let len = u32::from_le_bytes(*prefix) as usize;
    if len > tail.len() {
        return Err(
            Error::truncated("BYTE_ARRAY value", len as u64, tail.len() as u64)
                .at_offset(pos as u64 + 4),
        );
    }
    Ok((len, tail))
}

/// Appends the PLAIN encoding of `values`.
///
/// Errors only for a BYTE_ARRAY value longer than `u32::MAX` bytes (its length prefix is 4
/// bytes).
pub fn encode(values: ValuesRef<'_>, out: &mut Vec<u8>) -> Result<()> {
    match values {
        ValuesRef::Boolean(v) => {
            out.reserve(v.len().div_ceil(8));
            out.extend(v.chunks(8).map(|c| {
                c.iter()
                    .enumerate()
                    .fold(0u8, |b, (k, &x)| b | ((x as u8) << k))
            }));
        }
        ValuesRef::Int32(v) => encode_fixed(v, out, |x| x.to_le_bytes()),
        ValuesRef::Int64(v) => encode_fixed(v, out, |x| x.to_le_bytes()),
        ValuesRef::Int96(v) => encode_fixed(v, out, |x| x),
        ValuesRef::Float(v) => encode_fixed(v, out, |x| x.to_bits().to_le_bytes()),
        ValuesRef::Double(v) => encode_fixed(v, out, |x| x.to_bits().to_le_bytes()),
        ValuesRef::ByteArray(v) => {
            // Each value by `extend_short` (short ones as one block, from the values' own
            // buffer, where the next values follow): no memcpy call per value.
            out.reserve(v.total_bytes() + 4 * v.len() + SHORT);
            let (offsets, data) = v.parts();
            for w in offsets.windows(2) {
                let (start, end) = (w[0], w[1]);
                let len = u32::try_from(end - start).map_err(|_| {
                    Error::limit(
                        "BYTE_ARRAY value length",
                        (end - start) as u64,
                        u32::MAX as u64,
                    )
                })?;
                out.extend_from_slice(&len.to_le_bytes());
                let _ = extend_short(out, data.get(start..).unwrap_or(&[]), end - start);
            }
        }
        ValuesRef::FixedLenByteArray(v) => out.extend_from_slice(v.data()),
    }
    Ok(())
}

#[inline]
fn encode_fixed<T: Copy, const N: usize>(
    values: &[T],
    out: &mut Vec<u8>,
    f: impl Fn(T) -> [u8; N],
) {
    out.reserve(values.len() * N);
    for &v in values {
        out.extend_from_slice(&f(v));
    }
}

/// Fuzzing harness: derives a physical type, a count and a FIXED_LEN_BYTE_ARRAY width from the
/// first bytes and decodes the rest; whatever decodes must re-encode to the bytes it came from
/// (PLAIN is canonical, except for a BOOLEAN's padding bits). Panics only if the decoder breaks
/// one of its own guarantees.
#[cfg(any(test, feature = "fuzzing"))]
#[doc(hidden)]
pub fn fuzz_decode(data: &[u8]) {
    use crate::format::PhysicalType as P;
    let [t, n0, n1, width, input @ ..] = data else {
        return;
    };
    // The 8 physical types in their Thrift order.
    let pt = P::ALL[*t as usize % P::ALL.len()];
    let num_values = u16::from_le_bytes([*n0, *n1]) as usize;
    let mut out = Values::new(pt, (*width % 16) as usize);
    let Ok(used) = decode(input, num_values, &mut out) else {
        return;
    };
    assert!(used <= input.len());
    assert_eq!(out.len(), num_values);
    let mut again = Vec::new();
    encode(out.as_ref(), &mut again).expect("decoded values re-encode");
    if pt == P::Boolean {
        let mut back = Values::new(pt, 0);
        assert_eq!(decode(&again, num_values, &mut back).ok(), Some(used));
        assert!(back.bit_eq(&out));
    } else {
        assert_eq!(&again[..], &input[..used]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::PhysicalType;
    use crate::values::FixedLenByteArrays;
    use alloc::vec;
    use proptest::prelude::*;

    fn roundtrip(values: ValuesRef<'_>, expected: &[u8]) {
        let mut bytes = Vec::new();
        encode(values, &mut bytes).unwrap();
        assert_eq!(bytes, expected);
        let mut out = values.to_owned();
        out.clear();
        assert_eq!(decode(&bytes, values.len(), &mut out).unwrap(), bytes.len());
        assert!(out.as_ref().bit_eq(&values));
    }

    #[test]
    fn pending_values_are_taken_range_by_range() {
        // Values of 0 to 40 bytes (some past `SHORT`, copied by length), then stale bytes.
        let values: Vec<Vec<u8>> = (0..60u8)
            .map(|i| vec![b'a' + i % 26; (i % 41) as usize])
            .collect();
        let mut page = Vec::new();
        for v in &values {
            page.extend_from_slice(&(v.len() as u32).to_le_bytes());
            page.extend_from_slice(v);
        }
        let used = page.len();
        page.extend_from_slice(&[0xEE; 5]);
        let mut p = Pending::default();
        assert_eq!(p.load(&page, values.len()).unwrap(), used);
        let mut out = ByteArrays::new();
        let ranges = [0..3, 3..3, 10..50, 5..12, 55..80, 70..90, 0..60];
        let mut want: Vec<&[u8]> = Vec::new();
        for r in ranges {
            p.take(&page, r.clone(), &mut out).unwrap();
            let end = r.end.min(values.len());
            want.extend(values[r.start.min(end)..end].iter().map(Vec::as_slice));
        }
        assert_eq!(out.iter().collect::<Vec<_>>(), want);
        // A section too short for its values: an error, and nothing left to take.
        let e = p.load(&page[..used - 1], values.len()).unwrap_err();
        assert!(e.to_string().contains("BYTE_ARRAY value"), "{e}");
        let before = out.len();
        p.take(&page, 0..10, &mut out).unwrap();
        assert_eq!(out.len(), before);
    }

    #[test]
    fn hand_worked() {
        roundtrip(ValuesRef::Boolean(&[true, false, true]), &[0x05]);
        roundtrip(
            ValuesRef::Boolean(&[false, true, false, false, false, false, false, false, true]),
            &[0x02, 0x01],
        );
        roundtrip(
            ValuesRef::Int32(&[1, -2]),
            &[1, 0, 0, 0, 0xFE, 0xFF, 0xFF, 0xFF],
        );
        roundtrip(
            ValuesRef::Int64(&[0x0102030405060708]),
            &[8, 7, 6, 5, 4, 3, 2, 1],
        );
        let i96 = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
        roundtrip(ValuesRef::Int96(&[i96]), &i96);
        // 1.0f32 = 0x3F800000; -0.0 = sign bit only; a NaN with a payload keeps it.
        roundtrip(ValuesRef::Float(&[1.0]), &[0, 0, 0x80, 0x3F]);
        roundtrip(ValuesRef::Double(&[-0.0]), &[0, 0, 0, 0, 0, 0, 0, 0x80]);
        let nan = f64::from_bits(0x7FF0_0000_0000_0001);
        roundtrip(ValuesRef::Double(&[nan]), &[1, 0, 0, 0, 0, 0, 0xF0, 0x7F]);
        let nan32 = f32::from_bits(0xFFC0_0001);
        roundtrip(ValuesRef::Float(&[nan32]), &[1, 0, 0xC0, 0xFF]);
        let b: ByteArrays = ["ab", ""].into_iter().collect();
        roundtrip(
            ValuesRef::ByteArray(b.as_ref()),
            &[2, 0, 0, 0, b'a', b'b', 0, 0, 0, 0],
        );
        let f = FixedLenByteArrays::from_parts(3, b"abcdef".to_vec()).unwrap();
        roundtrip(ValuesRef::FixedLenByteArray(f.as_ref()), b"abcdef");
    }

    #[test]
    fn appends_to_existing_values() {
        let mut out = Values::ByteArray(["x"].into_iter().collect());
        decode(&[1, 0, 0, 0, b'y', 0, 0, 0, 0], 2, &mut out).unwrap();
        let expected: ByteArrays = ["x", "y", ""].into_iter().collect();
        assert_eq!(out, Values::ByteArray(expected));
    }

    #[test]
    fn truncation_and_hostile_counts() {
        let huge = usize::MAX / 2;
        for &pt in PhysicalType::ALL {
            let mut out = Values::new(pt, 4);
            assert!(decode(&[0; 7], huge, &mut out).is_err(), "{pt}");
            assert!(decode(&[0; 7], usize::MAX, &mut out).is_err(), "{pt}");
            assert!(out.is_empty());
        }
        // A BYTE_ARRAY length beyond the input; nothing is appended on error.
        let mut out = Values::new(PhysicalType::ByteArray, 0);
        let e = decode(&[1, 0, 0, 0, b'a', 9, 0, 0, 0, b'b'], 2, &mut out).unwrap_err();
        assert_eq!(e.location().offset, Some(9));
        assert!(out.is_empty());
        let Values::ByteArray(b) = &out else {
            unreachable!()
        };
        assert_eq!(b.offsets(), &[0]);
        // FIXED_LEN_BYTE_ARRAY of width 0.
        let mut out = Values::new(PhysicalType::FixedLenByteArray, 0);
        assert!(decode(&[], 1, &mut out).is_err());
        assert_eq!(decode(&[], 0, &mut out).unwrap(), 0);
    }

    /// `byte_array_starts` entry by entry (the loop its one-pass start falls back to).
    fn starts_by_entry(input: &[u8], n: usize) -> Result<(usize, Vec<usize>)> {
        room_after_prefixes(input, n)?;
        let (mut pos, mut starts) = (0usize, Vec::new());
        for _ in 0..n {
            starts.push(pos);
            pos += 4 + value_at(input, pos)?.0;
        }
        starts.push(pos);
        Ok((pos, starts))
    }

    #[test]
    fn byte_array_starts_hand_worked() {
        // "ab", "", "xyz": prefixes 2, 0, 3.
        let page = [
            2, 0, 0, 0, b'a', b'b', 0, 0, 0, 0, 3, 0, 0, 0, b'x', b'y', b'z',
        ];
        let mut starts = vec![7];
        assert_eq!(byte_array_starts(&page, 3, &mut starts).unwrap(), 17);
        assert_eq!(starts, [7, 0, 6, 10, 17]);
        // The last entry one byte short; a length near u32::MAX; both leave `starts` alone.
        for (bad, n) in [
            (&page[..16], 3),
            (&[0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0][..], 2),
        ] {
            let mut starts = vec![7];
            let e = byte_array_starts(bad, n, &mut starts).unwrap_err();
            assert_eq!(starts, [7]);
            assert_eq!(
                e.to_string(),
                starts_by_entry(bad, n).unwrap_err().to_string()
            );
        }
    }

    proptest! {
        /// The one-pass starts give the entry-by-entry walk's starts, end and errors, on
        /// bytes whose length prefixes are mostly small (so that many inputs decode).
        #[test]
        fn byte_array_starts_match_the_walk(
            bytes in proptest::collection::vec(prop_oneof![4 => 0u8..6, 1 => any::<u8>()], 0..64),
            n in 0usize..12,
        ) {
            let mut starts = vec![1];
            match (byte_array_starts(&bytes, n, &mut starts), starts_by_entry(&bytes, n)) {
                (Ok(a), Ok((b, want))) => {
                    prop_assert_eq!(a, b);
                    prop_assert_eq!(&starts[1..], &want[..]);
                }
                (Err(a), Err(b)) => {
                    prop_assert_eq!(a.to_string(), b.to_string());
                    prop_assert_eq!(starts, vec![1]);
                }
                (a, b) => prop_assert!(false, "{:?} vs {:?}", a, b.map(|x| x.0)),
            }
        }

        /// The conversion of builds for size gives what `chunks_exact` gives.
        #[test]
        fn extend_by_index_matches_chunks_exact(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            fn both<const N: usize>(bytes: &[u8]) -> (Vec<[u8; N]>, Vec<[u8; N]>) {
                let n = bytes.len() / N;
                let bytes = &bytes[..n * N];
                let a: Vec<[u8; N]> = bytes.chunks_exact(N).map(|c| c.try_into().unwrap()).collect();
                let mut b = Vec::new();
                compact::extend_fixed(bytes, n, &mut b, |x: [u8; N]| x);
                (a, b)
            }
            let (a, b) = both::<4>(&bytes);
            prop_assert_eq!(a, b);
            let (a, b) = both::<8>(&bytes);
            prop_assert_eq!(a, b);
            let (a, b) = both::<12>(&bytes);
            prop_assert_eq!(a, b);
        }

        /// The boolean unpacking of builds for size gives what the default gives.
        #[test]
        fn booleans_by_index_matches_default(bytes in proptest::collection::vec(any::<u8>(), 0..40), n in 0usize..330) {
            let n = n.min(bytes.len() * 8);
            let a: Vec<bool> = bytes
                .iter()
                .flat_map(|&b| (0..8).map(move |k| (b >> k) & 1 != 0))
                .take(n)
                .collect();
            let mut b = Vec::new();
            compact::extend_booleans(&bytes, n, &mut b);
            prop_assert_eq!(a, b);
        }

        #[test]
        fn roundtrip_i64_f64(ints in proptest::collection::vec(any::<i64>(), 0..50), bits in proptest::collection::vec(any::<u64>(), 0..50)) {
            for v in [Values::Int64(ints.clone()), Values::Double(bits.iter().map(|&b| f64::from_bits(b)).collect()),
                      Values::Int32(ints.iter().map(|&i| i as i32).collect()),
                      Values::Float(bits.iter().map(|&b| f32::from_bits(b as u32)).collect()),
                      Values::Boolean(bits.iter().map(|&b| b & 1 == 1).collect())] {
                let mut bytes = Vec::new();
                encode(v.as_ref(), &mut bytes).unwrap();
                let mut out = v.clone();
                out.clear();
                prop_assert_eq!(decode(&bytes, v.len(), &mut out).unwrap(), bytes.len());
                prop_assert!(out.bit_eq(&v));
            }
        }

        #[test]
        fn roundtrip_byte_arrays(values in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..20), 0..50)) {
            let b: ByteArrays = values.iter().collect();
            let mut bytes = Vec::new();
            encode(ValuesRef::ByteArray(b.as_ref()), &mut bytes).unwrap();
            let mut out = Values::ByteArray(ByteArrays::new());
            prop_assert_eq!(decode(&bytes, values.len(), &mut out).unwrap(), bytes.len());
            prop_assert_eq!(out, Values::ByteArray(b));
        }

        #[test]
        fn arbitrary_bytes_never_panic(data in proptest::collection::vec(any::<u8>(), 0..300)) {
            fuzz_decode(&data);
        }

        #[test]
        fn byte_arrays_match_a_naive_decoder(
            lens in proptest::collection::vec(0usize..70, 0..40),
            fill in any::<u8>(),
            cut in 0usize..3000,
            extra in 0usize..3,
        ) {
            // Length prefixes from `lens` (some above SHORT), bodies of `fill`, cut short at
            // `cut`; decode `lens.len() + extra` values, so some inputs run out.
            let mut input = Vec::new();
            for &l in &lens {
                input.extend((l as u32).to_le_bytes());
                input.extend(core::iter::repeat_n(fill.wrapping_add(l as u8), l));
            }
            input.truncate(cut);
            let n = lens.len() + extra;
            // The reference: one value at a time, nothing kept on error.
            let mut naive = Vec::new();
            let mut pos = 0;
            let mut ok = true;
            for _ in 0..n {
                let Some(p) = input.get(pos..pos + 4) else { ok = false; break };
                let l = u32::from_le_bytes(p.try_into().unwrap()) as usize;
                let Some(v) = input.get(pos + 4..pos + 4 + l) else { ok = false; break };
                naive.push(v.to_vec());
                pos += 4 + l;
            }
            let mut out = Values::ByteArray(["kept"].into_iter().collect());
            let got = decode(&input, n, &mut out);
            let mut expected: Vec<Vec<u8>> = vec![b"kept".to_vec()];
            if ok {
                prop_assert_eq!(got.unwrap(), pos);
                expected.extend(naive);
            } else {
                prop_assert!(got.is_err());
            }
            let expected: ByteArrays = expected.iter().collect();
            prop_assert_eq!(out, Values::ByteArray(expected));
        }

        #[test]
        fn arbitrary_byte_arrays(data in proptest::collection::vec(0u8..4, 0..300), n in 0usize..100) {
            // Small bytes make plausible length prefixes.
            let mut v = vec![0u8; 0];
            v.extend([6, n as u8, 0, 0]);
            v.extend(&data);
            fuzz_decode(&v);
        }
    }
}
