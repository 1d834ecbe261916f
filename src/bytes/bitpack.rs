//! Bit packing of small unsigned integers.
//!
//! Spec: Encodings.md, "Run Length Encoding / Bit-Packing Hybrid" (LSB first) and the
//! deprecated "Bit-packed (Deprecated) (BIT_PACKED = 4)" (MSB first).
//!
//! LSB-first packing puts value 0 in the lowest bits of byte 0, value 1 in the next bits, and so
//! on. Bit width 3, values 0..=7:
//!
//! ```text
//! values:  0   1   2   3   4   5   6   7
//! bits:   000 001 010 011 100 101 110 111
//! bytes:  10001000 11000110 11111010    = 0x88 0xC6 0xFA
//! ```
//!
//! ```
//! use parket::bytes::bitpack;
//! let mut out = Vec::new();
//! bitpack::pack64(&[0, 1, 2, 3, 4, 5, 6, 7], 3, &mut out);
//! assert_eq!(out, [0x88, 0xC6, 0xFA]);
//! let mut back = [0u64; 8];
//! bitpack::unpack64(&out, 3, &mut back);
//! assert_eq!(back, [0, 1, 2, 3, 4, 5, 6, 7]);
//! ```

use alloc::vec::Vec;

/// Bytes needed to hold `count` values of `bit_width` bits.
#[inline]
pub fn packed_len(count: usize, bit_width: u32) -> usize {
    ((count as u128 * bit_width as u128).div_ceil(8)) as usize
}

/// Unpacks `out.len()` values of `bit_width` bits (0 to 64), LSB first, from `input`.
///
/// Bits beyond the end of `input` read as zero, so a caller must check
/// `input.len() >= packed_len(out.len(), bit_width)` when a short input is an error.
pub fn unpack64(input: &[u8], bit_width: u32, out: &mut [u64]) {
    debug_assert!(bit_width <= 64);
    if bit_width == 0 {
        out.fill(0);
        return;
    }
    let mask = if bit_width == 64 {
        u64::MAX
    } else {
        (1u64 << bit_width) - 1
    };
    for (i, o) in out.iter_mut().enumerate() {
        let bit = i as u128 * bit_width as u128;
        let byte = (bit / 8) as usize;
        let shift = (bit % 8) as u32;
        // Gather up to 9 bytes: 64 bits plus a shift of up to 7.
        let mut word: u128 = 0;
        for k in 0..9 {
            if let Some(&b) = input.get(byte + k) {
                word |= (b as u128) << (8 * k);
            }
        }
        *o = ((word >> shift) as u64) & mask;
    }
}

/// Unpacks `out.len()` values of `bit_width` bits (0 to 32), LSB first.
pub fn unpack32(input: &[u8], bit_width: u32, out: &mut [u32]) {
    debug_assert!(bit_width <= 32);
    let mut tmp = [0u64; 64];
    for (chunk_idx, chunk) in out.chunks_mut(64).enumerate() {
        let start_bit = chunk_idx * 64 * bit_width as usize;
        // 64 values start on a byte boundary (64 * w is a multiple of 8).
        let src = input.get(start_bit / 8..).unwrap_or(&[]);
        unpack64(src, bit_width, &mut tmp[..chunk.len()]);
        for (o, t) in chunk.iter_mut().zip(&tmp) {
            *o = *t as u32;
        }
    }
}

/// Appends `values`, each of `bit_width` bits (0 to 64), LSB first; pads the last byte with
/// zeros. Bits of a value above `bit_width` are ignored.
pub fn pack64(values: &[u64], bit_width: u32, out: &mut Vec<u8>) {
    debug_assert!(bit_width <= 64);
    let start = out.len();
    out.resize(start + packed_len(values.len(), bit_width), 0);
    if bit_width == 0 {
        return;
    }
    let mask = if bit_width == 64 {
        u64::MAX
    } else {
        (1u64 << bit_width) - 1
    };
    let buf = &mut out[start..];
    for (i, &v) in values.iter().enumerate() {
        let v = (v & mask) as u128;
        let bit = i as u128 * bit_width as u128;
        let byte = (bit / 8) as usize;
        let word = v << (bit % 8);
        for k in 0..9 {
            let b = (word >> (8 * k)) as u8;
            if b != 0 {
                buf[byte + k] |= b;
            }
        }
    }
}

/// Appends `values` of `bit_width` bits (0 to 32), LSB first.
pub fn pack32(values: &[u32], bit_width: u32, out: &mut Vec<u8>) {
    let wide: Vec<u64> = values.iter().map(|&v| v as u64).collect();
    pack64(&wide, bit_width, out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn roundtrip(width in 0u32..=64, raw in proptest::collection::vec(any::<u64>(), 0..200)) {
            let mask = if width == 64 { u64::MAX } else { (1u64 << width) - 1 };
            let values: Vec<u64> = raw.iter().map(|v| v & mask).collect();
            let mut packed = Vec::new();
            pack64(&values, width, &mut packed);
            prop_assert_eq!(packed.len(), packed_len(values.len(), width));
            let mut back = alloc::vec![0u64; values.len()];
            unpack64(&packed, width, &mut back);
            prop_assert_eq!(back, values);
        }
    }
}
