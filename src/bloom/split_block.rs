//! The split-block Bloom filter (SBBF) of BloomFilter.md.
//!
//! See the [module documentation](crate::bloom) for the layout and a worked example.

use alloc::vec;
use alloc::vec::Vec;

use crate::error::{Error, Result};

/// Spec: "a sequence of eight odd unsigned 32-bit integer constants called the `salt`".
pub const SALT: [u32; 8] = [
    0x47b6_137b,
    0x4497_4d91,
    0x8824_ad5b,
    0xa2b7_289d,
    0x7054_95c7,
    0x2df1_424b,
    0x9efc_4947,
    0x5c6b_fb31,
];

/// Bytes in one block: eight 32-bit words, 256 bits.
pub const BLOCK_BYTES: usize = 32;

/// The smallest filter [`Sbbf::new`] makes: one block.
pub const MIN_BYTES: usize = BLOCK_BYTES;

/// The largest filter [`Sbbf::new`] and [`Sbbf::with_ndv_fpp`] make: 128 MiB (the bound
/// parquet-java and parquet-cpp use; the spec itself allows up to 2^31 - 1 blocks).
pub const MAX_BYTES: usize = 128 << 20;

/// One block: eight words, each with one bit set per inserted key.
type Block = [u32; 8];

/// Spec: `mask(x)`: word `i` gets bit `(x * salt[i]) >> 27` (the product kept to 32 bits).
#[inline]
fn mask(x: u32) -> Block {
    let mut m = [0u32; 8];
    for i in 0..8 {
        m[i] = 1u32 << (x.wrapping_mul(SALT[i]) >> 27);
    }
    m
}

/// A split-block Bloom filter: `z` blocks of 256 bits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sbbf {
    blocks: Vec<Block>,
}

impl Sbbf {
    /// An empty filter of `num_bytes` bytes, rounded up to a power of two and clamped to
    /// [`MIN_BYTES`]`..=`[`MAX_BYTES`].
    pub fn new(num_bytes: usize) -> Sbbf {
        let n = num_bytes.clamp(MIN_BYTES, MAX_BYTES).next_power_of_two();
        Sbbf {
            blocks: vec![[0u32; 8]; n / BLOCK_BYTES],
        }
    }

    /// An empty filter sized for `ndv` distinct values at false-positive probability `fpp`.
    ///
    /// Spec (BloomFilter.md, "Build a Bloom filter" in its 2.7 wording): the bits per distinct
    /// value are `c = -8 / ln(1 - fpp^(1/8))`; the byte count `ndv * c / 8` is then rounded up
    /// to a power of two and clamped as in [`Sbbf::new`]. For one million values at 1 % this is
    /// the spec's "1.2MB", rounded up to 2 MiB.
    ///
    /// Errors unless `0 < fpp < 1`.
    pub fn with_ndv_fpp(ndv: u64, fpp: f64) -> Result<Sbbf> {
        Ok(Sbbf::new(num_bytes_for(ndv, fpp)?))
    }

    /// Reads a bitset as stored after the `BloomFilterHeader`: `z` blocks of eight
    /// little-endian `u32` words. Errors unless the length is a positive multiple of 32.
    /// Never panics; allocates as many bytes as it is given.
    pub fn from_bytes(bitset: &[u8]) -> Result<Sbbf> {
        if bitset.is_empty() || bitset.len() % BLOCK_BYTES != 0 {
            return Err(Error::out_of_range(
                "bloom filter bitset length",
                bitset.len() as i64,
            ));
        }
        // Spec: "z is greater than or equal to one and less than 2 to the 31st power".
        if (bitset.len() / BLOCK_BYTES) as u64 >= 1 << 31 {
            return Err(Error::out_of_range(
                "bloom filter block count",
                (bitset.len() / BLOCK_BYTES) as i64,
            ));
        }
        let mut blocks = Vec::new();
        crate::limits::reserve(&mut blocks, bitset.len() / BLOCK_BYTES, "the Bloom filter")?;
        blocks.extend(bitset.chunks_exact(BLOCK_BYTES).map(|b| {
            let mut block = [0u32; 8];
            for (w, c) in block.iter_mut().zip(b.chunks_exact(4)) {
                *w = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
            }
            block
        }));
        Ok(Sbbf { blocks })
    }

    /// The bitset as stored: blocks in order, words little-endian.
    pub fn as_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.num_bytes());
        for block in &self.blocks {
            for w in block {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        out
    }

    /// Size of the bitset in bytes (`numBytes` of the header).
    pub fn num_bytes(&self) -> usize {
        self.blocks.len() * BLOCK_BYTES
    }

    /// Spec: `i = ((h >> 32) * z) >> 32`, the block that hash `h` uses.
    #[inline]
    fn block_index(&self, hash: u64) -> usize {
        (((hash >> 32) * self.blocks.len() as u64) >> 32) as usize
    }

    /// Spec `filter_insert`: sets the eight bits of `mask((u32) hash)` in block
    /// `((hash >> 32) * z) >> 32`.
    pub fn insert_hash(&mut self, hash: u64) {
        let i = self.block_index(hash);
        let m = mask(hash as u32);
        // i < z because (hash >> 32) < 2^32.
        if let Some(block) = self.blocks.get_mut(i) {
            for (w, m) in block.iter_mut().zip(m) {
                *w |= m;
            }
        }
    }

    /// Spec `filter_check`: true when all eight bits of `mask((u32) hash)` are set in the
    /// block that `hash` selects. False means the value was certainly never inserted.
    pub fn check_hash(&self, hash: u64) -> bool {
        let i = self.block_index(hash);
        let m = mask(hash as u32);
        match self.blocks.get(i) {
            Some(block) => block.iter().zip(m).all(|(w, m)| w & m == m),
            None => false,
        }
    }
}

/// The filter size for `ndv` values at `fpp`, before rounding: see [`Sbbf::with_ndv_fpp`].
fn num_bytes_for(ndv: u64, fpp: f64) -> Result<usize> {
    if !(fpp > 0.0 && fpp < 1.0) {
        return Err(Error::invalid_argument(alloc::format!(
            "bloom filter false-positive probability must be in (0, 1), got {fpp}"
        )));
    }
    let bits_per_value = -8.0 / ln(1.0 - sqrt(sqrt(sqrt(fpp))));
    let bytes = (ndv as f64) * bits_per_value / 8.0;
    // Saturating float-to-int conversion; `new` clamps.
    Ok(if bytes >= MAX_BYTES as f64 {
        MAX_BYTES
    } else {
        bytes as usize + 1
    })
}

// `core` has no `ln` or `sqrt` for f64 without `std`; the sizing needs only a few digits.

/// Square root by Newton's method, for `x > 0`.
fn sqrt(x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    // Halve the exponent for a first guess within a factor of 2.
    let mut y = f64::from_bits(((x.to_bits() >> 1) + (1023u64 << 51)) & !(1u64 << 63));
    for _ in 0..8 {
        y = 0.5 * (y + x / y);
    }
    y
}

/// Natural logarithm for `x > 0`: `x = m * 2^e` with `m` in [1, 2), and
/// `ln m = 2 atanh((m - 1) / (m + 1))` by its series.
fn ln(x: f64) -> f64 {
    if x <= 0.0 {
        return f64::NEG_INFINITY;
    }
    let bits = x.to_bits();
    let mut e = ((bits >> 52) & 0x7FF) as i64 - 1023;
    let mut m = f64::from_bits((bits & ((1u64 << 52) - 1)) | (1023u64 << 52));
    if e == -1023 {
        // Subnormal: normalise once.
        let y = x * (1u64 << 52) as f64;
        let b = y.to_bits();
        e = ((b >> 52) & 0x7FF) as i64 - 1023 - 52;
        m = f64::from_bits((b & ((1u64 << 52) - 1)) | (1023u64 << 52));
    }
    let z = (m - 1.0) / (m + 1.0);
    let z2 = z * z;
    let mut term = z;
    let mut sum = 0.0;
    let mut k = 1.0;
    for _ in 0..30 {
        sum += term / k;
        term *= z2;
        k += 2.0;
    }
    2.0 * sum + (e as f64) * core::f64::consts::LN_2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mask_sets_one_bit_per_word() {
        // Worked by hand from the spec's `mask`: key 1 gives bit salt[i] >> 27 in word i.
        let m = mask(1);
        for i in 0..8 {
            assert_eq!(m[i], 1 << (SALT[i] >> 27));
        }
        // salt[0] = 0x47b6137b: top 5 bits 01000 = 8.
        assert_eq!(m[0], 1 << 8);
        // salt[2] = 0x8824ad5b: top 5 bits 10001 = 17.
        assert_eq!(m[2], 1 << 17);
    }

    #[test]
    fn block_index_uses_the_top_32_bits() {
        let f = Sbbf::new(4 * BLOCK_BYTES);
        assert_eq!(f.blocks.len(), 4);
        assert_eq!(f.block_index(0x0000_0000_FFFF_FFFF), 0);
        assert_eq!(f.block_index(0x4000_0000_0000_0000), 1);
        assert_eq!(f.block_index(0xBFFF_FFFF_0000_0000), 2);
        assert_eq!(f.block_index(0xFFFF_FFFF_0000_0000), 3);
    }

    #[test]
    fn sizes() {
        assert_eq!(Sbbf::new(0).num_bytes(), 32);
        assert_eq!(Sbbf::new(33).num_bytes(), 64);
        assert_eq!(Sbbf::new(1024).num_bytes(), 1024);
        assert_eq!(Sbbf::new(usize::MAX).num_bytes(), MAX_BYTES);
        // The spec's example: 1 % for a million values needs about 1.2 MB ...
        let raw = num_bytes_for(1_000_000, 0.01).unwrap();
        assert!((1_150_000..1_250_000).contains(&raw), "{raw}");
        // ... which rounds up to 2 MiB.
        assert_eq!(
            Sbbf::with_ndv_fpp(1_000_000, 0.01).unwrap().num_bytes(),
            2 << 20
        );
        assert!(Sbbf::with_ndv_fpp(10, 0.0).is_err());
        assert!(Sbbf::with_ndv_fpp(10, f64::NAN).is_err());
        assert_eq!(
            Sbbf::with_ndv_fpp(u64::MAX, 1e-9).unwrap().num_bytes(),
            MAX_BYTES
        );
    }

    #[test]
    fn math_helpers() {
        for &(x, l) in &[
            (1.0, 0.0),
            (core::f64::consts::E, 1.0),
            (0.5, -core::f64::consts::LN_2),
        ] {
            assert!((ln(x) - l).abs() < 1e-9, "ln({x})");
        }
        assert!((sqrt(2.0) - core::f64::consts::SQRT_2).abs() < 1e-15);
        assert!((sqrt(9.0) - 3.0).abs() < 1e-15);
        assert!((sqrt(1e-300) - 1e-150).abs() < 1e-160);
        assert!((ln(1e-310) - (-713.801_378_828)).abs() < 1e-8);
    }

    #[test]
    fn from_bytes_rejects_bad_lengths() {
        assert!(Sbbf::from_bytes(&[]).is_err());
        assert!(Sbbf::from_bytes(&[0; 33]).is_err());
        assert!(
            Sbbf::from_bytes(&[0; 96]).is_ok(),
            "any block count is allowed"
        );
    }
}
