//! BIT_PACKED (`BIT_PACKED = 4`, deprecated): levels packed back to back, MSB first, no runs.
//!
//! Spec: Encodings.md, "Bit-packed (Deprecated) (BIT_PACKED = 4)":
//!
//! > Each value is encoded back to back using a fixed width. There is no padding between values
//! > (except for the last byte, which is padded with 0s). [...] this implementation packs values
//! > from the most significant bit to the least significant bit, which is not the same as the
//! > RLE/bit-packing hybrid.
//!
//! The grammar is just `<value>*`, each value `bit_width` bits, `ceil(num_values * bit_width /
//! 8)` bytes in all, with no length prefix: the reader knows `num_values` from the page header.
//! Only repetition and definition levels may use it. The spec's example, 0..=7 at width 3:
//!
//! ```text
//! dec value: 0   1   2   3   4   5   6   7
//! bit value: 000 001 010 011 100 101 110 111
//! bit label: ABC DEF GHI JKL MNO PQR STU VWX
//! bytes:     ABCDEFGH IJKLMNOP QRSTUVWX
//!            00000101 00111001 01110111   = 05 39 77
//! ```
//!
//! ```
//! use parket::encoding::bit_packed;
//! let mut bytes = Vec::new();
//! bit_packed::encode_levels(&[0, 1, 2, 3, 4, 5, 6, 7], 3, &mut bytes);
//! assert_eq!(bytes, [0x05, 0x39, 0x77]);
//! let mut levels = Vec::new();
//! assert_eq!(bit_packed::decode_levels(&bytes, 3, 8, &mut levels).unwrap(), 3);
//! assert_eq!(levels, [0, 1, 2, 3, 4, 5, 6, 7]);
//! ```
//!
//! Seen in the wild: parquet-java writes BIT_PACKED in a V1 page header's level encoding
//! fields for levels that are absent (max level 0) while the levels it does write are RLE; the
//! page layer, not this module, decides which encoding really applies.

use alloc::vec::Vec;

use crate::bytes::bitpack::packed_len;
use crate::error::{Error, Result};

/// Decodes `num_values` levels of `bit_width` bits (0 to 16), MSB first, appending to `out`;
/// returns the bytes consumed, `ceil(num_values * bit_width / 8)`.
///
/// Never panics, for any input; checks the input length before reserving `num_values`.
pub fn decode_levels(
    input: &[u8],
    bit_width: u32,
    num_values: usize,
    out: &mut Vec<u16>,
) -> Result<usize> {
    if bit_width > 16 {
        return Err(Error::out_of_range(
            "BIT_PACKED bit width",
            bit_width as i64,
        ));
    }
    let len = packed_len(num_values, bit_width);
    let Some(bytes) = input.get(..len) else {
        return Err(Error::truncated(
            "BIT_PACKED levels",
            len as u64,
            input.len() as u64,
        ));
    };
    if bit_width == 0 {
        // No bytes at all: every level is 0. Bounded by the caller's count only, like an RLE
        // run; the page layer limits `num_values`.
        out.resize(out.len() + num_values, 0);
        return Ok(0);
    }
    out.reserve(num_values);
    let mask = (1u32 << bit_width) - 1;
    // Spec: MSB first. Bytes enter the accumulator from the right; a value is the top
    // `bit_width` of the bits not yet used. At most 16 + 7 bits are ever held.
    let mut acc: u32 = 0;
    let mut held: u32 = 0;
    let mut next = bytes.iter();
    for _ in 0..num_values {
        while held < bit_width {
            // `bytes` holds exactly enough bits for `num_values` values.
            acc = (acc << 8) | next.next().copied().unwrap_or(0) as u32;
            held += 8;
        }
        held -= bit_width;
        out.push(((acc >> held) & mask) as u16);
        acc &= (1u32 << held) - 1;
    }
    Ok(len)
}

/// Appends `levels`, each of `bit_width` bits (0 to 16), MSB first; the last byte is padded
/// with zeros. Bits of a level above `bit_width` must be zero (a caller bug otherwise).
pub fn encode_levels(levels: &[u16], bit_width: u32, out: &mut Vec<u8>) {
    debug_assert!(bit_width <= 16);
    let w = bit_width.min(16);
    out.reserve(packed_len(levels.len(), w));
    if w == 0 {
        return;
    }
    let mask = (1u32 << w) - 1;
    let mut acc: u32 = 0;
    let mut held: u32 = 0;
    for &l in levels {
        acc = (acc << w) | (l as u32 & mask);
        held += w;
        while held >= 8 {
            held -= 8;
            out.push((acc >> held) as u8);
        }
        acc &= (1u32 << held) - 1;
    }
    if held > 0 {
        out.push((acc << (8 - held)) as u8);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn spec_example() {
        // Encodings.md: 00000101 00111001 01110111.
        let mut bytes = Vec::new();
        encode_levels(&[0, 1, 2, 3, 4, 5, 6, 7], 3, &mut bytes);
        assert_eq!(bytes, [0b0000_0101, 0b0011_1001, 0b0111_0111]);
        let mut levels = Vec::new();
        assert_eq!(decode_levels(&bytes, 3, 8, &mut levels).unwrap(), 3);
        assert_eq!(levels, [0, 1, 2, 3, 4, 5, 6, 7]);
    }

    #[test]
    fn spec_size_example() {
        // Encodings.md: 30 values of 2 bits are 60 bits = 8 bytes.
        let mut bytes = Vec::new();
        encode_levels(&[3; 30], 2, &mut bytes);
        assert_eq!(bytes.len(), 8);
        assert_eq!(bytes[7], 0b1111_0000);
    }

    #[test]
    fn errors() {
        let mut out = Vec::new();
        assert!(decode_levels(&[0xff], 3, 3, &mut out).is_err());
        assert!(decode_levels(&[0xff; 4], 17, 1, &mut out).is_err());
        assert!(decode_levels(&[], 1, usize::MAX / 2, &mut out).is_err());
        assert_eq!(out.capacity(), 0);
    }

    proptest! {
        #[test]
        fn roundtrip(width in 0u32..=16, raw in proptest::collection::vec(any::<u16>(), 0..200)) {
            let mask = ((1u32 << width) - 1) as u16;
            let levels: Vec<u16> = raw.iter().map(|&v| v & mask).collect();
            let mut bytes = Vec::new();
            encode_levels(&levels, width, &mut bytes);
            prop_assert_eq!(bytes.len(), packed_len(levels.len(), width));
            let mut back = Vec::new();
            prop_assert_eq!(decode_levels(&bytes, width, levels.len(), &mut back).unwrap(), bytes.len());
            prop_assert_eq!(back, levels);
        }

        #[test]
        fn arbitrary_bytes(width in 0u32..=20, data in proptest::collection::vec(any::<u8>(), 0..64), n in 0usize..600) {
            let mut out = Vec::new();
            if let Ok(used) = decode_levels(&data, width, n, &mut out) {
                prop_assert!(used <= data.len());
                prop_assert_eq!(out.len(), n);
            }
        }
    }
}
