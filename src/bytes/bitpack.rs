//! Bit packing of small unsigned integers, LSB first, in groups of 8 values.
//!
//! Spec: Encodings.md, "Run Length Encoding / Bit-Packing Hybrid (RLE = 3)", note 1:
//!
//! > The values are packed from the least significant bit of each byte to the most significant
//! > bit, though the order of the bits in each value remains in the usual order of most
//! > significant to least significant.
//!
//! Value 0 takes the lowest bits of byte 0, value 1 the next bits, and so on. Eight values of
//! `w` bits fill exactly `w` bytes, which is why the hybrid and DELTA_BINARY_PACKED pack in
//! groups of 8. Bit width 3, values 0..=7 (the spec's own example):
//!
//! ```text
//! values:  0   1   2   3   4   5   6   7
//! bits:   000 001 010 011 100 101 110 111
//! labels: ABC DEF GHI JKL MNO PQR STU VWX
//! bytes:  HIDEFABC RMNOJKLG VWXSTUPQ
//!         10001000 11000110 11111010    = 0x88 0xC6 0xFA
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
//!
//! The fast path unpacks whole groups of 8 with one function per bit width (const generics:
//! every shift and mask is a constant, and the 8 values unroll), selected once per call from a
//! table. The [`reference`](mod@reference) module keeps the obvious value-at-a-time implementation as the
//! oracle that the property tests compare against, for every width.
//!
//! The MSB-first packing of the deprecated BIT_PACKED encoding lives in
//! [`crate::encoding::bit_packed`]; it is only used for levels and is not on a hot path.

use alloc::vec::Vec;

// The one point of choice between the unpackers of default builds ([`fast`]: one function per
// bit width) and those of builds for size (`cfg(parket_opt_size)`, [`compact`]: one loop over
// runtime widths); same signatures, same results (a property test compares them).
#[cfg(parket_opt_size)]
use compact as variant;
#[cfg(not(parket_opt_size))]
use fast as variant;

/// Bytes needed to hold `count` values of `bit_width` bits.
#[inline]
pub fn packed_len(count: usize, bit_width: u32) -> usize {
    ((count as u128 * bit_width as u128).div_ceil(8)) as usize
}

/// Unpacks `out.len()` values of `bit_width` bits (0 to 64), LSB first, from `input`.
///
/// Bits beyond the end of `input` read as zero, so a caller must check
/// `input.len() >= packed_len(out.len(), bit_width)` when a short input is an error.
/// Never panics for widths 0 to 64 (a wider width is a caller bug: it panics in debug builds and
/// unpacks as 64 bits otherwise).
#[inline]
pub fn unpack64(input: &[u8], bit_width: u32, out: &mut [u64]) {
    debug_assert!(bit_width <= 64);
    variant::unpack64(input, (bit_width as usize).min(64), out);
}

/// Unpacks `out.len()` values of `bit_width` bits (0 to 32), LSB first, from `input`.
///
/// Bits beyond the end of `input` read as zero (see [`unpack64`]).
#[inline]
pub fn unpack32(input: &[u8], bit_width: u32, out: &mut [u32]) {
    debug_assert!(bit_width <= 32);
    variant::unpack32(input, (bit_width as usize).min(32), out);
}

/// Appends `values`, each of `bit_width` bits (0 to 64), LSB first; pads the last byte with
/// zeros. Bits of a value above `bit_width` are ignored.
pub fn pack64(values: &[u64], bit_width: u32, out: &mut Vec<u8>) {
    debug_assert!(bit_width <= 64);
    let w = bit_width.min(64);
    let len = packed_len(values.len(), w);
    out.reserve(len);
    if w == 0 {
        return;
    }
    let mask = mask64(w);
    // An accumulator of up to 127 bits: whole 64-bit words are flushed as they fill.
    let mut acc: u128 = 0;
    let mut bits: u32 = 0;
    for &v in values {
        acc |= ((v & mask) as u128) << bits;
        bits += w;
        if bits >= 64 {
            out.extend_from_slice(&(acc as u64).to_le_bytes());
            acc >>= 64;
            bits -= 64;
        }
    }
    let tail = bits.div_ceil(8) as usize;
    out.extend_from_slice(&(acc as u64).to_le_bytes()[..tail]);
}

/// Appends `values` of `bit_width` bits (0 to 32), LSB first; pads the last byte with zeros.
/// Bits of a value above `bit_width` are ignored.
///
/// One packer per width (as for unpacking): groups of 8 values are OR-ed into a small buffer
/// at constant offsets and appended `bit_width` bytes at a time.
#[inline]
pub fn pack32(values: &[u32], bit_width: u32, out: &mut Vec<u8>) {
    debug_assert!(bit_width <= 32);
    let f = PACK32[(bit_width as usize).min(32)];
    f(values, out)
}

/// Packs one group of 8 values of `W <= 32` bits into the first `W` bytes of `buf` (bytes
/// after them are left unspecified).
///
/// The bits gather in a 64-bit accumulator that is stored whenever it fills; with `W`
/// constant the unrolled loop knows where every value lands, so the branches fold away and
/// no byte of `buf` is read back (a read-modify-write of overlapping words would stall on
/// store forwarding at every value).
#[inline(always)]
fn pack_group32<const W: usize>(values: &[u32; 8], buf: &mut [u8; 40]) {
    let mask = mask64(W as u32);
    let (mut acc, mut bits, mut at) = (0u64, 0usize, 0usize);
    for &v in values {
        let v = v as u64 & mask;
        acc |= v << bits;
        bits += W;
        if bits >= 64 {
            buf[at..at + 8].copy_from_slice(&acc.to_le_bytes());
            at += 8;
            bits -= 64;
            // The bits of `v` that did not fit (none when it ended the word exactly).
            acc = if bits == 0 { 0 } else { v >> (W - bits) };
        }
    }
    // At most 31 bits remain and `at <= 24` (8 * 32 bits fill exactly 4 words).
    if bits > 0 {
        buf[at..at + 8].copy_from_slice(&acc.to_le_bytes());
    }
}

fn pack_all32<const W: usize>(values: &[u32], out: &mut Vec<u8>) {
    if W == 0 {
        return;
    }
    out.reserve(packed_len(values.len(), W as u32));
    let mut buf = [0u8; 40];
    let mut groups = values.chunks_exact(8);
    for g in &mut groups {
        if let Ok(g) = <&[u32; 8]>::try_from(g) {
            pack_group32::<W>(g, &mut buf);
            out.extend_from_slice(&buf[..W]);
        }
    }
    let rest = groups.remainder();
    if !rest.is_empty() {
        let mut g = [0u32; 8];
        g[..rest.len()].copy_from_slice(rest);
        pack_group32::<W>(&g, &mut buf);
        out.extend_from_slice(&buf[..packed_len(rest.len(), W as u32)]);
    }
}

#[inline(always)]
const fn mask64(w: u32) -> u64 {
    if w >= 64 {
        u64::MAX
    } else {
        (1u64 << w) - 1
    }
}

/// Reads the little-endian u64 at byte `at` of a group buffer.
#[inline(always)]
fn word_at(buf: &[u8; 72], at: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&buf[at..at + 8]);
    u64::from_le_bytes(b)
}

macro_rules! table {
    ($f:ident, $t:ty; $($w:literal)*) => {
        [$($f::<$w> as $t),*]
    };
}

type Pack32 = fn(&[u32], &mut Vec<u8>);

/// One packer per bit width 0..=32 (the writer's; in every build, as only a writer links it).
static PACK32: [Pack32; 33] = table!(pack_all32, Pack32;
    0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32);

/// The unpackers of default builds: one function per bit width, each straight-line code for
/// its width (the other variant, `compact`, is a loop over runtime widths).
#[cfg(not(parket_opt_size))]
mod fast {
    use super::{mask64, word_at};

    /// As [`super::unpack64`], for `w <= 64`.
    #[inline]
    pub(super) fn unpack64(input: &[u8], w: usize, out: &mut [u64]) {
        UNPACK64[w](input, out);
    }

    /// As [`super::unpack32`], for `w <= 32`.
    #[inline]
    pub(super) fn unpack32(input: &[u8], w: usize, out: &mut [u32]) {
        UNPACK32[w](input, out);
    }

    /// Unpacks one group of 8 values of `W` bits from `buf` (which holds the group's `W` bytes
    /// followed by zeros). With `W` constant, the loop unrolls into constant shifts and masks.
    #[inline(always)]
    fn unpack_group64<const W: usize>(buf: &[u8; 72], out: &mut [u64]) {
        let mask = mask64(W as u32);
        for (i, o) in out.iter_mut().enumerate().take(8) {
            let start = i * W;
            let byte = start / 8;
            let shift = (start % 8) as u32;
            let mut v = word_at(buf, byte) >> shift;
            if shift as usize + W > 64 {
                v |= (buf[byte + 8] as u64) << (64 - shift);
            }
            *o = v & mask;
        }
    }

    /// As [`unpack_group64`] for `W <= 32`: one 64-bit load always covers a value (shift <= 7).
    #[inline(always)]
    fn unpack_group32<const W: usize>(buf: &[u8; 72], out: &mut [u32]) {
        let mask = mask64(W as u32);
        for (i, o) in out.iter_mut().enumerate().take(8) {
            let start = i * W;
            *o = ((word_at(buf, start / 8) >> (start % 8)) & mask) as u32;
        }
    }

    /// Unpacks `out.len()` values of `W` bits with `group` (one group of 8 from 72 readable bytes):
    /// whole groups straight from `input`, then a last partial group (or a group cut short by the
    /// end of `input`) through a zero-padded copy. `group` is a generic parameter, not a pointer,
    /// so each width still compiles to its own straight-line code.
    #[inline(always)]
    fn unpack_all<T: Copy + Default, const W: usize>(
        input: &[u8],
        out: &mut [T],
        group: impl Fn(&[u8; 72], &mut [T]),
    ) {
        if W == 0 {
            out.fill(T::default());
            return;
        }
        let mut done = 0;
        // While 72 bytes remain, read each group in place.
        while let (Some(g), Some(dst)) = (
            input
                .get(done / 8 * W..)
                .and_then(|s| s.first_chunk::<72>()),
            out.get_mut(done..done + 8),
        ) {
            group(g, dst);
            done += 8;
        }
        // Near the end of the input, through a zero-padded copy.
        let mut buf = [0u8; 72];
        let rest = input.get(done / 8 * W..).unwrap_or(&[]);
        for (src, dst) in rest.chunks_exact(W).zip(out[done..].chunks_exact_mut(8)) {
            buf[..W].copy_from_slice(src);
            group(&buf, dst);
            done += 8;
        }
        if done < out.len() {
            let consumed = done / 8 * W;
            let rest = input.get(consumed..).unwrap_or(&[]);
            for (g, dst) in out[done..].chunks_mut(8).enumerate() {
                buf = [0u8; 72];
                let src = rest.get(g * W..).unwrap_or(&[]);
                let n = src.len().min(W);
                buf[..n].copy_from_slice(&src[..n]);
                let mut tmp = [T::default(); 8];
                group(&buf, &mut tmp);
                dst.copy_from_slice(&tmp[..dst.len()]);
            }
        }
    }

    /// [`unpack_all`] for u64 output, `W <= 64`.
    fn unpack_all64<const W: usize>(input: &[u8], out: &mut [u64]) {
        unpack_all::<u64, W>(input, out, unpack_group64::<W>)
    }

    /// [`unpack_all`] for u32 output, `W <= 32`.
    fn unpack_all32<const W: usize>(input: &[u8], out: &mut [u32]) {
        unpack_all::<u32, W>(input, out, unpack_group32::<W>)
    }

    type Unpack64 = fn(&[u8], &mut [u64]);
    type Unpack32 = fn(&[u8], &mut [u32]);

    /// One unpacker per bit width 0..=32.
    static UNPACK32: [Unpack32; 33] = table!(unpack_all32, Unpack32;
        0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32);

    /// One unpacker per bit width 0..=64.
    static UNPACK64: [Unpack64; 65] = table!(unpack_all64, Unpack64;
        0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32
        33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62
        63 64);
}

/// The variants picked when the crate is built for size (`opt-level = "s"` or `"z"`, which
/// `build.rs` turns into `cfg(parket_opt_size)`): one loop over runtime bit widths instead of
/// one function per width, a tenth of the code (issue 8, "Small binaries").
#[cfg(any(parket_opt_size, test))]
mod compact {
    use super::{mask64, word_at};

    /// As [`super::unpack64`], for `w <= 64`.
    pub(super) fn unpack64(input: &[u8], w: usize, out: &mut [u64]) {
        for (g, dst) in out.chunks_mut(8).enumerate() {
            let mut tmp = [0u64; 8];
            group(input.get(g * w..).unwrap_or(&[]), w, &mut tmp);
            dst.copy_from_slice(&tmp[..dst.len()]);
        }
    }

    /// As [`super::unpack32`], for `w <= 32`.
    pub(super) fn unpack32(input: &[u8], w: usize, out: &mut [u32]) {
        for (g, dst) in out.chunks_mut(8).enumerate() {
            let mut tmp = [0u64; 8];
            group(input.get(g * w..).unwrap_or(&[]), w, &mut tmp);
            for (o, v) in dst.iter_mut().zip(tmp) {
                *o = v as u32;
            }
        }
    }

    /// Unpacks one group of 8 values of `w` bits from the first `w` bytes of `input` (bits past
    /// its end read as zero).
    fn group(input: &[u8], w: usize, out: &mut [u64; 8]) {
        if w == 0 {
            *out = [0; 8];
            return;
        }
        let mut buf = [0u8; 72];
        for (b, &x) in buf.iter_mut().zip(input.iter().take(w)) {
            *b = x;
        }
        let mask = mask64(w as u32);
        for (i, o) in out.iter_mut().enumerate() {
            let start = i * w;
            let (byte, shift) = (start / 8, (start % 8) as u32);
            let mut v = word_at(&buf, byte) >> shift;
            if shift as usize + w > 64 {
                v |= (buf.get(byte + 8).copied().unwrap_or(0) as u64) << (64 - shift);
            }
            *o = v & mask;
        }
    }
}

/// The value-at-a-time implementation: slow, obviously right, and the oracle of the tests.
#[doc(hidden)]
pub mod reference {
    use alloc::vec::Vec;

    /// Unpacks `out.len()` values of `bit_width` bits (0 to 64) one at a time.
    pub fn unpack64_reference(input: &[u8], bit_width: u32, out: &mut [u64]) {
        if bit_width == 0 {
            out.fill(0);
            return;
        }
        let mask = super::mask64(bit_width);
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

    /// Appends `values` of `bit_width` bits (0 to 64) one at a time, LSB first.
    pub fn pack64_reference(values: &[u64], bit_width: u32, out: &mut Vec<u8>) {
        let start = out.len();
        out.resize(start + super::packed_len(values.len(), bit_width), 0);
        if bit_width == 0 {
            return;
        }
        let mask = super::mask64(bit_width);
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
}

#[cfg(test)]
mod tests {
    use super::reference::*;
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn spec_example() {
        // Encodings.md, RLE note 1: 0..=7 at width 3 are 10001000 11000110 11111010.
        let mut out = Vec::new();
        pack32(&[0, 1, 2, 3, 4, 5, 6, 7], 3, &mut out);
        assert_eq!(out, [0b1000_1000, 0b1100_0110, 0b1111_1010]);
        let mut back = [0u32; 8];
        unpack32(&out, 3, &mut back);
        assert_eq!(back, [0, 1, 2, 3, 4, 5, 6, 7]);
    }

    #[test]
    fn short_input_reads_zeros() {
        let mut out = [9u32; 11];
        unpack32(&[0xff, 0x01], 4, &mut out);
        assert_eq!(out, [15, 15, 1, 0, 0, 0, 0, 0, 0, 0, 0]);
        let mut out = [9u64; 3];
        unpack64(&[], 64, &mut out);
        assert_eq!(out, [0; 3]);
    }

    proptest! {
        #[test]
        fn fast_matches_reference(
            width in 0u32..=64,
            raw in proptest::collection::vec(any::<u64>(), 0..100),
            cut in 0usize..16,
        ) {
            let values: Vec<u64> = raw.iter().map(|v| v & mask64(width)).collect();
            let mut fast = Vec::new();
            pack64(&values, width, &mut fast);
            let mut slow = Vec::new();
            pack64_reference(&values, width, &mut slow);
            prop_assert_eq!(&fast, &slow);
            prop_assert_eq!(fast.len(), packed_len(values.len(), width));

            // Unpack from the packed bytes, and from a copy cut short (tail reads as zero).
            let short = &slow[..slow.len().saturating_sub(cut)];
            for input in [&slow[..], short] {
                let mut a = alloc::vec![7u64; values.len()];
                let mut b = alloc::vec![7u64; values.len()];
                unpack64(input, width, &mut a);
                unpack64_reference(input, width, &mut b);
                prop_assert_eq!(&a, &b);
                // The size-profile variant, whichever variant this build uses.
                let mut d = alloc::vec![7u64; values.len()];
                compact::unpack64(input, width as usize, &mut d);
                prop_assert_eq!(&d, &b);
                if width <= 32 {
                    let mut e = alloc::vec![7u32; values.len()];
                    compact::unpack32(input, width as usize, &mut e);
                    prop_assert_eq!(e, b.iter().map(|&v| v as u32).collect::<Vec<u32>>());
                }
                if width <= 32 {
                    let mut c = alloc::vec![7u32; values.len()];
                    unpack32(input, width, &mut c);
                    let b32: Vec<u32> = b.iter().map(|&v| v as u32).collect();
                    prop_assert_eq!(c, b32);
                    let v32: Vec<u32> = values.iter().map(|&v| v as u32).collect();
                    let mut p = Vec::new();
                    pack32(&v32, width, &mut p);
                    prop_assert_eq!(&p, &slow);
                    // Bits above the width are ignored.
                    let unmasked: Vec<u32> = raw.iter().map(|&v| v as u32).collect();
                    let mut q = Vec::new();
                    pack32(&unmasked, width, &mut q);
                    prop_assert_eq!(&q, &slow);
                }
            }
            let mut back = alloc::vec![0u64; values.len()];
            unpack64(&fast, width, &mut back);
            prop_assert_eq!(back, values);
        }

        #[test]
        fn arbitrary_bytes(width in 0u32..=64, input in proptest::collection::vec(any::<u8>(), 0..80), n in 0usize..80) {
            let mut a = alloc::vec![0u64; n];
            let mut b = alloc::vec![0u64; n];
            unpack64(&input, width, &mut a);
            unpack64_reference(&input, width, &mut b);
            prop_assert_eq!(a, b);
        }
    }
}
