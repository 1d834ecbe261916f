//! BYTE_STREAM_SPLIT (encoding 9): byte `k` of every value in stream `k`.
//!
//! Spec: Encodings.md, "Byte Stream Split: (BYTE_STREAM_SPLIT = 9)", for FLOAT, DOUBLE, INT32,
//! INT64 and FIXED_LEN_BYTE_ARRAY.
//!
//! ```text
//! stream := <stream 0> <stream 1> ... <stream K-1>
//! stream k := byte k (little-endian) of value 0, of value 1, ..., of value N-1
//! K = bytes per value (4 for FLOAT and INT32, 8 for DOUBLE and INT64, the type length for
//!     FIXED_LEN_BYTE_ARRAY); N = number of values
//! ```
//!
//! There is no header: the spec says "the end of the streams is also the end of data page. No
//! padding is allowed", so the value section is exactly `K * N` bytes and [`decode`] refuses any
//! other length.
//!
//! # Worked example
//!
//! The spec's three FLOATs, by their raw little-endian bytes:
//!
//! ```text
//! values:  AA BB CC DD | 00 11 22 33 | A3 B4 C5 D6
//! encoded: AA 00 A3 | BB 11 B4 | CC 22 C5 | DD 33 D6
//!          stream 0   stream 1   stream 2   stream 3
//! ```
//!
//! ```
//! use parket::encoding::byte_stream_split as bss;
//! use parket::values::{Values, ValuesRef};
//! let floats = [
//!     f32::from_le_bytes([0xAA, 0xBB, 0xCC, 0xDD]),
//!     f32::from_le_bytes([0x00, 0x11, 0x22, 0x33]),
//!     f32::from_le_bytes([0xA3, 0xB4, 0xC5, 0xD6]),
//! ];
//! let encoded = [0xAA, 0x00, 0xA3, 0xBB, 0x11, 0xB4, 0xCC, 0x22, 0xC5, 0xDD, 0x33, 0xD6];
//! let mut out = Vec::new();
//! bss::encode(ValuesRef::Float(&floats), &mut out).unwrap();
//! assert_eq!(out, encoded);
//! let mut back = Values::Float(Vec::new());
//! assert_eq!(bss::decode(&encoded, 3, &mut back).unwrap(), 12);
//! assert!(back.bit_eq(&Values::Float(floats.to_vec())));
//! ```
//!
//! Floats are moved as bytes, so NaN payloads and signed zeros survive bit for bit.
//!
//! # Limits
//!
//! The decoder never panics and allocates exactly the output, which is the size of its input.

use alloc::vec::Vec;

use crate::error::{Error, Result};
use crate::values::{Values, ValuesRef};

/// Decodes `num_values` values of `out`'s type (FLOAT, DOUBLE, INT32, INT64 or
/// FIXED_LEN_BYTE_ARRAY) from `input`, which must be exactly `num_values` times the value width
/// long; appends to `out` and returns the bytes consumed (`input.len()`).
///
/// Never panics, for any input; allocates only the output.
pub fn decode(input: &[u8], num_values: usize, out: &mut Values) -> Result<usize> {
    let width = match out {
        Values::Int32(_) | Values::Float(_) => 4,
        Values::Int64(_) | Values::Double(_) => 8,
        Values::FixedLenByteArray(f) => f.width(),
        _ => {
            return Err(Error::unsupported(
                "BYTE_STREAM_SPLIT for BOOLEAN, INT96 or BYTE_ARRAY",
            ))
        }
    };
    check_len(input, num_values, width)?;
    variant::decode_checked(input, num_values, width, out)
}

// The one point of choice: default builds gather each type's values from the streams
// ([`gather`]); builds for size (`cfg(parket_opt_size)`) transpose the streams into PLAIN bytes
// and decode those ([`compact`]). Same signature, same values (a property test compares them).
#[cfg(parket_opt_size)]
use compact as variant;
#[cfg(not(parket_opt_size))]
use gather as variant;

/// [`decode`] in default builds, after the length check: one gather per value type.
#[cfg(not(parket_opt_size))]
mod gather {
    use alloc::vec::Vec;

    use crate::error::Result;
    use crate::values::{FixedLenByteArrays, Values};

    /// Reassembles the `num_values` values of `width` bytes of `input` into `out`.
    pub(super) fn decode_checked(
        input: &[u8],
        num_values: usize,
        _width: usize,
        out: &mut Values,
    ) -> Result<usize> {
        match out {
            Values::Int32(v) => gather::<4, _>(input, num_values, v, i32::from_le_bytes),
            Values::Float(v) => gather::<4, _>(input, num_values, v, f32::from_le_bytes),
            Values::Int64(v) => gather::<8, _>(input, num_values, v, i64::from_le_bytes),
            Values::Double(v) => gather::<8, _>(input, num_values, v, f64::from_le_bytes),
            Values::FixedLenByteArray(f) => gather_fixed(input, num_values, f),
            _ => {}
        }
        Ok(input.len())
    }

    /// Reassembles `n` values of `K` bytes; `input.len() == n * K` was checked.
    fn gather<const K: usize, T>(input: &[u8], n: usize, out: &mut Vec<T>, from: fn([u8; K]) -> T) {
        if n == 0 {
            return;
        }
        let mut streams = input.chunks_exact(n);
        let streams: [&[u8]; K] = core::array::from_fn(|_| streams.next().unwrap_or(&[]));
        out.reserve(n);
        // Indices stay below n, the length of every stream.
        out.extend((0..n).map(|i| from(core::array::from_fn(|k| streams[k][i]))));
    }

    /// Reassembles `n` FIXED_LEN_BYTE_ARRAY values; `input.len() == n * width` was checked.
    fn gather_fixed(input: &[u8], n: usize, out: &mut FixedLenByteArrays) {
        let width = out.width();
        if n == 0 || width == 0 {
            return;
        }
        let data = out.data_mut();
        let base = data.len();
        data.resize(base + input.len(), 0);
        let dst = &mut data[base..];
        for (k, stream) in input.chunks_exact(n).enumerate() {
            for (value, &b) in dst.chunks_exact_mut(width).zip(stream) {
                value[k] = b;
            }
        }
    }
}

/// The transposing decoder of builds for size.
#[cfg(any(parket_opt_size, test))]
mod compact {
    use alloc::vec::Vec;

    use crate::error::Result;
    use crate::values::Values;

    /// [`decode`](super::decode) in builds for size, after the length check: the
    /// streams are transposed into the values' PLAIN bytes (little-endian values, one after the
    /// other), which [`plain::decode`](crate::encoding::plain::decode) then reads: no copy of the gather
    /// per type. Same values; a property test compares it with the per-type gathers.
    pub(super) fn decode_checked(
        input: &[u8],
        num_values: usize,
        width: usize,
        out: &mut Values,
    ) -> Result<usize> {
        // `resize` rather than `vec![0; n]`: no `alloc_zeroed` linked for this alone.
        #[allow(clippy::slow_vector_initialization)]
        let mut bytes = {
            let mut v = Vec::new();
            v.resize(input.len(), 0u8);
            v
        };
        if num_values > 0 {
            for (k, stream) in input.chunks_exact(num_values).enumerate() {
                for (value, &b) in bytes.chunks_exact_mut(width.max(1)).zip(stream) {
                    if let Some(to) = value.get_mut(k) {
                        *to = b;
                    }
                }
            }
        }
        crate::encoding::plain::decode(&bytes, num_values, out)?;
        Ok(input.len())
    }
}

fn check_len(input: &[u8], num_values: usize, width: usize) -> Result<()> {
    if width == 0 && num_values > 0 {
        return Err(Error::out_of_spec(
            "FIXED_LEN_BYTE_ARRAY of width 0 holding values",
        ));
    }
    let needed = num_values.checked_mul(width).ok_or_else(|| {
        Error::truncated("BYTE_STREAM_SPLIT streams", u64::MAX, input.len() as u64)
    })?;
    if input.len() < needed {
        return Err(Error::truncated(
            "BYTE_STREAM_SPLIT streams",
            needed as u64,
            input.len() as u64,
        ));
    }
    if input.len() > needed {
        // Spec: "No padding is allowed inside the data page."
        return Err(Error::out_of_spec(
            "BYTE_STREAM_SPLIT data longer than num_values times the value width",
        ));
    }
    Ok(())
}

/// Appends the encoding of `values` (FLOAT, DOUBLE, INT32, INT64 or FIXED_LEN_BYTE_ARRAY).
pub fn encode(values: ValuesRef<'_>, out: &mut Vec<u8>) -> Result<()> {
    match values {
        ValuesRef::Int32(v) => scatter::<4, _>(v, out, |x| x.to_le_bytes()),
        ValuesRef::Float(v) => scatter::<4, _>(v, out, |x| x.to_le_bytes()),
        ValuesRef::Int64(v) => scatter::<8, _>(v, out, |x| x.to_le_bytes()),
        ValuesRef::Double(v) => scatter::<8, _>(v, out, |x| x.to_le_bytes()),
        ValuesRef::FixedLenByteArray(v) => {
            let (n, width) = (v.len(), v.width());
            let base = out.len();
            out.resize(base + n * width, 0);
            let dst = &mut out[base..];
            for (i, value) in v.iter().enumerate() {
                for (k, &b) in value.iter().enumerate() {
                    dst[k * n + i] = b;
                }
            }
        }
        _ => {
            return Err(Error::unsupported(
                "BYTE_STREAM_SPLIT for BOOLEAN, INT96 or BYTE_ARRAY",
            ))
        }
    }
    Ok(())
}

fn scatter<const K: usize, T: Copy>(values: &[T], out: &mut Vec<u8>, to: fn(T) -> [u8; K]) {
    let n = values.len();
    let base = out.len();
    out.resize(base + n * K, 0);
    let dst = &mut out[base..];
    for (i, &v) in values.iter().enumerate() {
        for (k, b) in to(v).into_iter().enumerate() {
            dst[k * n + i] = b;
        }
    }
}

/// Fuzzing harness: the first byte picks the type (and a FIXED_LEN_BYTE_ARRAY width); the
/// value count is derived from the rest's length, plus or minus one on odd second bytes so
/// that wrong lengths are exercised too. Whatever decodes must re-encode to the same bytes.
#[cfg(any(test, feature = "fuzzing"))]
#[doc(hidden)]
pub fn fuzz_decode(data: &[u8]) {
    use crate::values::FixedLenByteArrays;
    let [kind, skew, rest @ ..] = data else {
        return;
    };
    let mut out = match kind % 6 {
        0 => Values::Int32(Vec::new()),
        1 => Values::Int64(Vec::new()),
        2 => Values::Float(Vec::new()),
        3 => Values::Double(Vec::new()),
        4 => Values::Boolean(Vec::new()),
        _ => Values::FixedLenByteArray(FixedLenByteArrays::new(usize::from(kind / 6 % 20))),
    };
    let width = match &out {
        Values::Int32(_) | Values::Float(_) => 4,
        Values::FixedLenByteArray(f) => f.width(),
        _ => 8,
    };
    let mut n = rest.len() / width.max(1);
    if skew & 1 == 1 {
        n += usize::from(skew >> 7);
    }
    if let Ok(consumed) = decode(rest, n, &mut out) {
        assert_eq!(consumed, rest.len());
        assert_eq!(out.len(), if width == 0 { 0 } else { n });
        let mut again = Vec::new();
        encode(out.as_ref(), &mut again).expect("supported type");
        assert_eq!(again, rest);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::PhysicalType;
    use crate::values::FixedLenByteArrays;
    use alloc::vec;
    use proptest::prelude::*;

    #[test]
    fn hand_worked_each_type() {
        // INT64 0x0807060504030201 and 0x1817161514131211.
        let v = [0x0807060504030201i64, 0x1817161514131211];
        let want = [
            0x01, 0x11, 0x02, 0x12, 0x03, 0x13, 0x04, 0x14, 0x05, 0x15, 0x06, 0x16, 0x07, 0x17,
            0x08, 0x18,
        ];
        let mut b = Vec::new();
        encode(ValuesRef::Int64(&v), &mut b).unwrap();
        assert_eq!(b, want);
        let mut out = Values::Int64(vec![]);
        decode(&want, 2, &mut out).unwrap();
        assert_eq!(out, Values::Int64(v.to_vec()));
        // The same bytes as DOUBLE, bit for bit (one is a NaN-free normal, checked by bits).
        let mut out = Values::Double(vec![]);
        decode(&want, 2, &mut out).unwrap();
        let Values::Double(d) = &out else { panic!() };
        assert_eq!(d[0].to_bits(), v[0] as u64);
        assert_eq!(d[1].to_bits(), v[1] as u64);
        // INT32 -2 (FE FF FF FF) and 1 (01 00 00 00).
        let mut out = Values::Int32(vec![]);
        decode(&[0xFE, 0x01, 0xFF, 0, 0xFF, 0, 0xFF, 0], 2, &mut out).unwrap();
        assert_eq!(out, Values::Int32(vec![-2, 1]));
        // FIXED_LEN_BYTE_ARRAY(3) "abc", "xyz" -> a x b y c z.
        let f = FixedLenByteArrays::from_parts(3, b"abcxyz".to_vec()).unwrap();
        let mut b = Vec::new();
        encode(ValuesRef::FixedLenByteArray(f.as_ref()), &mut b).unwrap();
        assert_eq!(b, b"axbycz");
        let mut out = Values::new(PhysicalType::FixedLenByteArray, 3);
        assert_eq!(decode(b"axbycz", 2, &mut out).unwrap(), 6);
        assert_eq!(out, Values::FixedLenByteArray(f));
    }

    #[test]
    fn lengths_and_types() {
        let mut out = Values::Float(vec![]);
        assert!(decode(&[0; 7], 2, &mut out).is_err());
        assert!(decode(&[0; 9], 2, &mut out).is_err());
        assert!(decode(&[0; 4], usize::MAX, &mut out).is_err());
        assert_eq!(decode(&[], 0, &mut out).unwrap(), 0);
        assert!(out.is_empty());
        assert!(decode(&[], 0, &mut Values::Boolean(vec![])).is_err());
        assert!(encode(ValuesRef::Boolean(&[true]), &mut Vec::new()).is_err());
        let mut zero = Values::new(PhysicalType::FixedLenByteArray, 0);
        assert!(decode(&[], 3, &mut zero).is_err());
    }

    #[test]
    fn floats_bit_exact() {
        let v = [
            f64::from_bits(0x7FF8_0000_0000_0001),
            -0.0,
            f64::INFINITY,
            f64::from_bits(1),
        ];
        let mut b = Vec::new();
        encode(ValuesRef::Double(&v), &mut b).unwrap();
        let mut out = Values::Double(vec![]);
        decode(&b, 4, &mut out).unwrap();
        assert!(out.bit_eq(&Values::Double(v.to_vec())));
    }

    proptest! {
        #[test]
        fn transpose_then_plain_matches_gathers(
            data in proptest::collection::vec(any::<u8>(), 0..400),
            kind in 0usize..5,
            flba_width in 1usize..20,
        ) {
            // Builds for size decode through compact::decode_checked: the same values as the
            // per-type gathers, for every type and any bytes of a valid length.
            let width = [4, 4, 8, 8, flba_width][kind];
            let n = data.len() / width;
            let input = &data[..n * width];
            let empty = || match kind {
                0 => Values::Int32(vec![]),
                1 => Values::Float(vec![]),
                2 => Values::Int64(vec![]),
                3 => Values::Double(vec![]),
                _ => Values::FixedLenByteArray(FixedLenByteArrays::new(flba_width)),
            };
            let mut a = empty();
            let mut b = empty();
            prop_assert_eq!(decode(input, n, &mut a).unwrap(), input.len());
            prop_assert_eq!(compact::decode_checked(input, n, width, &mut b).unwrap(), input.len());
            prop_assert!(a.bit_eq(&b));
        }

        #[test]
        fn roundtrip_f32(bits in proptest::collection::vec(any::<u32>(), 0..300)) {
            let v: Vec<f32> = bits.iter().map(|&b| f32::from_bits(b)).collect();
            let mut b = Vec::new();
            encode(ValuesRef::Float(&v), &mut b).unwrap();
            let mut out = Values::Float(vec![]);
            prop_assert_eq!(decode(&b, v.len(), &mut out).unwrap(), 4 * v.len());
            prop_assert!(out.bit_eq(&Values::Float(v)));
        }

        #[test]
        fn roundtrip_i64(v in proptest::collection::vec(any::<i64>(), 0..300)) {
            let mut b = Vec::new();
            encode(ValuesRef::Int64(&v), &mut b).unwrap();
            // Oracle: byte k of value i at k * n + i.
            for (i, x) in v.iter().enumerate() {
                for (k, byte) in x.to_le_bytes().into_iter().enumerate() {
                    prop_assert_eq!(b[k * v.len() + i], byte);
                }
            }
            let mut out = Values::Int64(vec![]);
            decode(&b, v.len(), &mut out).unwrap();
            prop_assert_eq!(out, Values::Int64(v));
        }

        #[test]
        fn roundtrip_fixed(width in 1usize..20, data in proptest::collection::vec(any::<u8>(), 0..400)) {
            let data = data[..data.len() / width * width].to_vec();
            let f = FixedLenByteArrays::from_parts(width, data).unwrap();
            let mut b = Vec::new();
            encode(ValuesRef::FixedLenByteArray(f.as_ref()), &mut b).unwrap();
            let mut out = Values::new(PhysicalType::FixedLenByteArray, width);
            decode(&b, f.len(), &mut out).unwrap();
            prop_assert_eq!(out, Values::FixedLenByteArray(f));
        }

        #[test]
        fn arbitrary_bytes(data in proptest::collection::vec(any::<u8>(), 0..300)) {
            fuzz_decode(&data);
        }
    }
}
