//! DELTA_LENGTH_BYTE_ARRAY (encoding 6): BYTE_ARRAY lengths first, then all bytes.
//!
//! Spec: Encodings.md, "Delta-length byte array: (DELTA_LENGTH_BYTE_ARRAY = 6)".
//!
//! ```text
//! stream := <Delta Encoded Lengths> <Byte Array Data>
//! Delta Encoded Lengths := the lengths as INT32, DELTA_BINARY_PACKED
//! Byte Array Data       := every value's bytes, back to back
//! ```
//!
//! The lengths stream ends after the last miniblock that holds a length (see
//! [`super::delta_binary_packed`]), and the data starts right there. DELTA_BYTE_ARRAY stores its
//! suffixes in this encoding.
//!
//! # Worked example
//!
//! The spec's `"Hello", "World", "Foobar", "ABCDEF"`: lengths `5 5 6 6`, deltas `0 1 0`, min
//! delta 0, packed deltas `0 1 0` at 1 bit.
//!
//! ```text
//! 80 01 04 04 0A  lengths: block size 128, 4 miniblocks, 4 values, first value 5 (zigzag 10)
//! 00              min delta 0
//! 01 00 00 00     bit widths: 1 bit for miniblock 0
//! 02 00 00 00     miniblock 0: 32 x 1 bit; 0x02 = 0b010 -> 0, 1, 0, then padding
//! 48 65 6C 6C 6F 57 6F 72 6C 64 46 6F 6F 62 61 72 41 42 43 44 45 46
//!                 "HelloWorldFoobarABCDEF"
//! ```
//!
//! ```
//! use parket::encoding::delta_length_byte_array as dlba;
//! use parket::values::ByteArrays;
//! let mut bytes = vec![0x80, 0x01, 0x04, 0x04, 0x0A, 0x00, 0x01, 0, 0, 0, 0x02, 0, 0, 0];
//! bytes.extend_from_slice(b"HelloWorldFoobarABCDEF");
//! let mut out = ByteArrays::new();
//! assert_eq!(dlba::decode_byte_arrays(&bytes, 4, &mut out).unwrap(), bytes.len());
//! assert_eq!(out.iter().collect::<Vec<_>>(), [&b"Hello"[..], b"World", b"Foobar", b"ABCDEF"]);
//!
//! let mut encoded = Vec::new();
//! dlba::encode_byte_arrays(out.as_ref(), &mut encoded).unwrap();
//! assert_eq!(encoded, bytes);
//! ```
//!
//! # Limits
//!
//! The decoder never panics. It allocates two buffers (the offsets and the data of a
//! [`ByteArrays`]): the data is bounded by the input (the lengths must fit in the bytes that
//! remain), the offsets by `num_values`. A negative length, lengths that add up to more than
//! the bytes that remain, or a lengths stream whose total value count is not `num_values`
//! are errors, and leave `out` as it was.

use alloc::vec::Vec;

use super::delta_binary_packed;
use crate::error::{Error, Result};
use crate::values::{ByteArrays, ByteArraysRef, Values, ValuesRef};

/// Decodes `num_values` BYTE_ARRAY values from `input`, appending to `out` (which must be
/// [`Values::ByteArray`]); returns the number of input bytes consumed.
///
/// Never panics, for any input; see the module's "Limits".
pub fn decode(input: &[u8], num_values: usize, out: &mut Values) -> Result<usize> {
    match out {
        Values::ByteArray(b) => decode_byte_arrays(input, num_values, b),
        _ => Err(Error::unsupported(
            "DELTA_LENGTH_BYTE_ARRAY for a type other than BYTE_ARRAY",
        )),
    }
}

/// [`decode`] into a [`ByteArrays`].
pub fn decode_byte_arrays(input: &[u8], num_values: usize, out: &mut ByteArrays) -> Result<usize> {
    let (offsets, data) = out.parts_mut();
    let start = offsets.len();
    let base = data.len();
    // The lengths go straight into the offsets vector, then become offsets in place.
    let lengths_len = match delta_binary_packed::decode_lengths(input, num_values, offsets) {
        Ok(n) => n,
        Err(e) => {
            offsets.truncate(start);
            return Err(e);
        }
    };
    let rest = input.get(lengths_len..).unwrap_or(&[]);
    let mut total = 0usize;
    for o in offsets.get_mut(start..).unwrap_or(&mut []) {
        // Each length is at most i32::MAX and `total` at most rest.len(): no overflow.
        total += *o;
        if total > rest.len() {
            offsets.truncate(start);
            return Err(Error::truncated(
                "DELTA_LENGTH_BYTE_ARRAY data",
                total as u64,
                rest.len() as u64,
            )
            .at_offset(lengths_len as u64));
        }
        *o = base + total;
    }
    data.extend_from_slice(rest.get(..total).unwrap_or(&[]));
    Ok(lengths_len + total)
}

/// Decodes the lengths and returns them with the data slice they index, and the bytes
/// consumed. For DELTA_BYTE_ARRAY's suffixes.
pub(crate) fn decode_parts<'a>(
    input: &'a [u8],
    num_values: usize,
    lengths: &mut Vec<usize>,
) -> Result<(&'a [u8], usize)> {
    let start = lengths.len();
    let lengths_len = delta_binary_packed::decode_lengths(input, num_values, lengths)?;
    let rest = input.get(lengths_len..).unwrap_or(&[]);
    let mut total = 0usize;
    for &l in lengths.get(start..).unwrap_or(&[]) {
        total += l;
        if total > rest.len() {
            return Err(Error::truncated(
                "DELTA_LENGTH_BYTE_ARRAY data",
                total as u64,
                rest.len() as u64,
            )
            .at_offset(lengths_len as u64));
        }
    }
    Ok((rest.get(..total).unwrap_or(&[]), lengths_len + total))
}

/// A section of DELTA_LENGTH_BYTE_ARRAY whose lengths are decoded and checked against its
/// bytes, and whose values are written a range at a time ([`Pending::take`]), in order: a
/// reader handing out batches copies each batch's values straight into it. The section's
/// bytes are not kept: each call is given them again. The lengths vector is reused from
/// section to section.
#[derive(Debug, Clone, Default)]
pub(crate) struct Pending {
    lengths: Vec<usize>,
    /// Where the values' bytes are in the section.
    data: core::ops::Range<usize>,
    /// The next value to write, and where its bytes start in the values' bytes.
    next: usize,
    at: usize,
}

impl Pending {
    /// Decodes and checks the lengths of the `num_values` values at the start of `input`
    /// (as [`decode`] does); returns the bytes the section takes. Nothing is written.
    pub(crate) fn load(&mut self, input: &[u8], num_values: usize) -> Result<usize> {
        self.lengths.clear();
        self.next = 0;
        self.at = 0;
        let (data, consumed) = decode_parts(input, num_values, &mut self.lengths)?;
        self.data = consumed - data.len()..consumed;
        Ok(consumed)
    }

    /// How many values the section holds.
    pub(crate) fn len(&self) -> usize {
        self.lengths.len()
    }

    /// Appends values `range` of the section `input` (the bytes [`Pending::load`] was given)
    /// to `out`: one copy of their bytes. Ranges are taken in order; one that starts past the
    /// next value passes the values between, one before it starts again from the first.
    pub(crate) fn take(
        &mut self,
        input: &[u8],
        range: core::ops::Range<usize>,
        out: &mut ByteArrays,
    ) -> Result<()> {
        if range.start < self.next {
            self.next = 0;
            self.at = 0;
        }
        let start = range.start.min(self.len());
        let passed = self.lengths.get(self.next..start).unwrap_or(&[]);
        self.at += passed.iter().sum::<usize>();
        self.next = self.next.max(start);
        let end = range.end.min(self.len()).max(self.next);
        let lengths = self.lengths.get(self.next..end).unwrap_or(&[]);
        let bytes: usize = lengths.iter().sum();
        // `load` checked that the lengths add up to at most the section's bytes.
        let values = input
            .get(self.data.clone())
            .and_then(|d| d.get(self.at..self.at + bytes))
            .unwrap_or(&[]);
        let (offsets, data) = out.parts_mut();
        crate::limits::reserve(offsets, lengths.len(), "the values of a page")?;
        crate::limits::reserve(data, values.len(), "the values of a page")?;
        let mut o = data.len();
        data.extend_from_slice(values);
        offsets.extend(lengths.iter().map(|&l| {
            o += l;
            o
        }));
        self.at += bytes;
        self.next = end;
        Ok(())
    }
}

/// Appends the encoding of `values` (BYTE_ARRAY only).
pub fn encode(values: ValuesRef<'_>, out: &mut Vec<u8>) -> Result<()> {
    match values {
        ValuesRef::ByteArray(v) => encode_byte_arrays(v, out),
        _ => Err(Error::unsupported(
            "DELTA_LENGTH_BYTE_ARRAY for a type other than BYTE_ARRAY",
        )),
    }
}

/// [`encode`] for byte arrays. A value longer than `i32::MAX` bytes is an
/// [`Error::invalid_argument`].
pub fn encode_byte_arrays(values: ByteArraysRef<'_>, out: &mut Vec<u8>) -> Result<()> {
    // Sized once: collecting `Result`s cannot know the length and grows the vector instead.
    let mut lengths = Vec::with_capacity(values.len());
    for v in values.iter() {
        lengths.push(length_i32(v.len())?);
    }
    delta_binary_packed::encode_i32(&lengths, out);
    // The values are back to back in one buffer: one copy.
    let (start, end) = values.byte_range();
    let (_, data) = values.parts();
    out.extend_from_slice(data.get(start..end).unwrap_or(&[]));
    Ok(())
}

/// A byte array's length as INT32, or an error naming it.
pub(crate) fn length_i32(l: usize) -> Result<i32> {
    i32::try_from(l).map_err(|_| {
        Error::invalid_argument(alloc::format!(
            "a byte array of {l} bytes is longer than the 2^31 - 1 bytes Parquet allows"
        ))
    })
}

/// Fuzzing harness: `num_values` from the first two bytes, the rest decoded; whatever decodes
/// must re-encode to a stream that decodes the same.
#[cfg(any(test, feature = "fuzzing"))]
#[doc(hidden)]
pub fn fuzz_decode(data: &[u8]) {
    let [lo, hi, rest @ ..] = data else {
        return;
    };
    let num_values = usize::from(u16::from_le_bytes([*lo, *hi]));
    let mut out = ByteArrays::new();
    match decode_byte_arrays(rest, num_values, &mut out) {
        Ok(consumed) => {
            assert!(consumed <= rest.len());
            assert_eq!(out.len(), num_values);
            assert!(out.data().len() <= rest.len());
            let mut again = Vec::new();
            encode_byte_arrays(out.as_ref(), &mut again).expect("lengths fit");
            let mut back = ByteArrays::new();
            assert_eq!(
                decode_byte_arrays(&again, num_values, &mut back).expect("re-decode"),
                again.len()
            );
            assert_eq!(back, out);
        }
        Err(_) => assert!(out.is_empty()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use proptest::prelude::*;

    fn dec(b: &[u8], n: usize) -> Result<(Vec<Vec<u8>>, usize)> {
        let mut out = ByteArrays::new();
        let used = decode_byte_arrays(b, n, &mut out)?;
        Ok((out.iter().map(<[u8]>::to_vec).collect(), used))
    }

    #[test]
    fn appends_after_existing_values() {
        let mut out: ByteArrays = ["x"].into_iter().collect();
        let mut b = Vec::new();
        let v: ByteArrays = ["ab", "", "cde"].into_iter().collect();
        encode_byte_arrays(v.as_ref(), &mut b).unwrap();
        b.extend_from_slice(b"trailing");
        let used = decode_byte_arrays(&b, 3, &mut out).unwrap();
        assert_eq!(used, b.len() - 8);
        assert_eq!(out.offsets(), &[0, 1, 3, 3, 6]);
        assert_eq!(out.data(), b"xabcde");
    }

    #[test]
    fn bad_lengths() {
        // One value of length -1 (zigzag 1).
        let neg = [0x80, 0x01, 0x04, 0x01, 0x01];
        assert!(dec(&neg, 1).is_err());
        // One value of length 3, but 2 bytes of data.
        let short = [0x80, 0x01, 0x04, 0x01, 0x06, b'a', b'b'];
        assert!(dec(&short, 1).is_err());
        let mut out: ByteArrays = ["keep"].into_iter().collect();
        assert!(decode_byte_arrays(&short, 1, &mut out).is_err());
        assert_eq!(out.offsets(), &[0, 4]);
        // Two lengths where one is expected.
        let two = [0x80, 0x01, 0x04, 0x02, 0x00, 0x00, 0, 0, 0, 0];
        assert!(dec(&two, 1).is_err());
        assert_eq!(dec(&two, 2).unwrap(), (vec![vec![], vec![]], two.len()));
        // Lengths that overflow i32 on the way back: 2^31 - 1, then + 1 wraps negative.
        let mut wrap = vec![0x80, 0x01, 0x04, 0x02];
        crate::bytes::varint::encode_uleb128(
            crate::bytes::varint::zigzag_encode(i32::MAX as i64),
            &mut wrap,
        );
        wrap.extend_from_slice(&[0x02, 0, 0, 0, 0]);
        assert!(dec(&wrap, 2).is_err());
    }

    #[test]
    fn type_dispatch() {
        assert!(decode(&[], 0, &mut Values::Int32(vec![])).is_err());
        assert!(encode(ValuesRef::Int32(&[1]), &mut Vec::new()).is_err());
        let mut out = Values::ByteArray(ByteArrays::new());
        assert_eq!(
            decode(&[0x80, 0x01, 0x04, 0x00, 0x00], 0, &mut out).unwrap(),
            5
        );
    }

    #[test]
    fn empty_and_single() {
        let mut b = Vec::new();
        encode_byte_arrays(ByteArrays::new().as_ref(), &mut b).unwrap();
        assert_eq!(b, [0x80, 0x01, 0x04, 0x00, 0x00]);
        let one: ByteArrays = ["hi"].into_iter().collect();
        let mut b = Vec::new();
        encode_byte_arrays(one.as_ref(), &mut b).unwrap();
        assert_eq!(b, [0x80, 0x01, 0x04, 0x01, 0x04, b'h', b'i']);
        assert_eq!(dec(&b, 1).unwrap(), (vec![b"hi".to_vec()], 7));
    }

    proptest! {
        #[test]
        fn roundtrip(values in proptest::collection::vec(
            proptest::collection::vec(any::<u8>(), 0..40), 0..400)) {
            let v: ByteArrays = values.iter().collect();
            let mut b = Vec::new();
            encode_byte_arrays(v.as_ref(), &mut b).unwrap();
            let len = b.len();
            b.push(0xEE);
            let (back, used) = dec(&b, values.len()).unwrap();
            prop_assert_eq!(back, values);
            prop_assert_eq!(used, len);
        }

        #[test]
        fn arbitrary_bytes(data in proptest::collection::vec(any::<u8>(), 0..300)) {
            fuzz_decode(&data);
        }
    }
}
