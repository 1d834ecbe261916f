//! ULEB128 variable-length integers and zigzag encoding.
//!
//! Spec: Thrift compact protocol (varints), and Encodings.md (the RLE run headers and the
//! DELTA_BINARY_PACKED headers). A ULEB128 stores 7 bits per byte, least significant group
//! first; the high bit of each byte says another byte follows. Zigzag maps signed integers to
//! unsigned ones so that small magnitudes stay short: 0, -1, 1, -2, 2 become 0, 1, 2, 3, 4.
//!
//! ```text
//! 300 = 0b10_0101100  ->  [0xAC, 0x02]   (0x2C | 0x80, then 0x02)
//! zigzag(-3) = 5      ->  [0x05]
//! ```
//!
//! ```
//! use parket::bytes::varint::*;
//! let mut out = Vec::new();
//! encode_uleb128(300, &mut out);
//! assert_eq!(out, [0xAC, 0x02]);
//! assert_eq!(decode_uleb128(&out).unwrap(), (300, 2));
//! assert_eq!(zigzag_encode(-3), 5);
//! assert_eq!(zigzag_decode(5), -3);
//! ```

use crate::error::{Error, Result};
use alloc::vec::Vec;

/// Decodes a ULEB128 from the start of `buf`: the value and the number of bytes it took.
///
/// Never panics. A varint longer than 10 bytes, or whose 10th byte carries bits beyond 64, is
/// an error; so is one cut off by the end of `buf`.
#[inline]
pub fn decode_uleb128(buf: &[u8]) -> Result<(u64, usize)> {
    let mut value: u64 = 0;
    for (i, &b) in buf.iter().enumerate().take(10) {
        let bits = (b & 0x7f) as u64;
        if i == 9 && bits > 1 {
            return Err(Error::out_of_spec("varint has more than 64 bits"));
        }
        value |= bits << (7 * i);
        if b & 0x80 == 0 {
            return Ok((value, i + 1));
        }
    }
    if buf.len() >= 10 {
        Err(Error::out_of_spec("varint longer than 10 bytes"))
    } else {
        Err(Error::truncated(
            "varint",
            buf.len() as u64 + 1,
            buf.len() as u64,
        ))
    }
}

/// Appends `v` as a ULEB128.
#[inline]
pub fn encode_uleb128(mut v: u64, out: &mut Vec<u8>) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Zigzag: 0, -1, 1, -2, ... to 0, 1, 2, 3, ...
#[inline]
pub fn zigzag_encode(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

/// The inverse of [`zigzag_encode`].
#[inline]
pub fn zigzag_decode(v: u64) -> i64 {
    ((v >> 1) as i64) ^ -((v & 1) as i64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn hand_worked() {
        assert_eq!(decode_uleb128(&[0x00]).unwrap(), (0, 1));
        assert_eq!(decode_uleb128(&[0x7f]).unwrap(), (127, 1));
        assert_eq!(decode_uleb128(&[0x80, 0x01]).unwrap(), (128, 2));
        let max = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
        assert_eq!(decode_uleb128(&max).unwrap(), (u64::MAX, 10));
        assert!(decode_uleb128(&[0xff; 9]).is_err());
        assert!(decode_uleb128(&[0xff; 11]).is_err());
        let over = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02];
        assert!(decode_uleb128(&over).is_err());
        assert!(decode_uleb128(&[]).is_err());
        assert_eq!(zigzag_encode(0), 0);
        assert_eq!(zigzag_encode(-1), 1);
        assert_eq!(zigzag_encode(1), 2);
        assert_eq!(zigzag_encode(i64::MIN), u64::MAX);
    }

    proptest! {
        #[test]
        fn roundtrip(v: u64, s: i64) {
            let mut out = Vec::new();
            encode_uleb128(v, &mut out);
            prop_assert_eq!(decode_uleb128(&out).unwrap(), (v, out.len()));
            prop_assert_eq!(zigzag_decode(zigzag_encode(s)), s);
        }
    }
}
