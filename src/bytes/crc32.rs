//! CRC-32 (IEEE 802.3 / zlib), as Parquet page checksums use it.
//!
//! parquet.thrift, `PageHeader.crc`: "The 32-bit CRC checksum for the page, to be calculated as
//! follows: the standard CRC32 algorithm is used (polynomial 0x04C11DB7, the same as in e.g.
//! GZip) ... computed on the page data after compression, excluding the page header".
//!
//! The parameters (the "CRC-32/ISO-HDLC" of the CRC catalogue): reflected polynomial
//! `0xEDB88320`, initial value `0xFFFFFFFF`, input and output reflected, final XOR `0xFFFFFFFF`.
//! The check value, the CRC of the ASCII bytes `"123456789"`, is `0xCBF43926`.
//!
//! The implementation is "slicing by 16": sixteen 256-entry tables, built at compile time, let
//! the loop fold 16 input bytes per step with 16 independent table look-ups instead of 16
//! dependent ones.
//!
//! ```
//! use parket::bytes::crc32::{crc32, Crc32};
//! assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
//! let mut h = Crc32::new();
//! h.update(b"1234");
//! h.update(b"56789");
//! assert_eq!(h.finish(), 0xCBF4_3926);
//! ```

/// The reflected IEEE polynomial.
const POLY: u32 = 0xEDB8_8320;

// The one point of choice: default builds fold 16 bytes per step with 16 KiB of tables
// ([`sliced`]); builds for size (`cfg(parket_opt_size)`, set by `build.rs` for `opt-level = "s"`
// or `"z"`) half a byte per look-up with 64 bytes ([`compact`]). Same results (a property test
// compares them with a bitwise reference).
#[cfg(parket_opt_size)]
use compact::update_raw;
#[cfg(not(parket_opt_size))]
use sliced::update_raw;

/// Slicing by 16, for default builds.
#[cfg(not(parket_opt_size))]
mod sliced {
    use super::POLY;

    /// `TABLES[0]` is the classic byte-at-a-time table; `TABLES[k][b]` is the CRC contribution of
    /// byte `b` followed by `k` zero bytes.
    static TABLES: [[u32; 256]; 16] = make_tables();

    const fn make_tables() -> [[u32; 256]; 16] {
        let mut t = [[0u32; 256]; 16];
        let mut i = 0;
        while i < 256 {
            let mut c = i as u32;
            let mut k = 0;
            while k < 8 {
                c = if c & 1 != 0 { (c >> 1) ^ POLY } else { c >> 1 };
                k += 1;
            }
            t[0][i] = c;
            i += 1;
        }
        let mut i = 0;
        while i < 256 {
            let mut k = 1;
            while k < 16 {
                let prev = t[k - 1][i];
                t[k][i] = (prev >> 8) ^ t[0][(prev & 0xFF) as usize];
                k += 1;
            }
            i += 1;
        }
        t
    }

    /// The contribution of the 4 bytes of `w` followed by `k` zero bytes (`TABLES[k + 3]` for
    /// the first byte down to `TABLES[k]` for the last).
    #[inline(always)]
    fn word(w: u32, k: usize) -> u32 {
        TABLES[k + 3][(w & 0xFF) as usize]
            ^ TABLES[k + 2][((w >> 8) & 0xFF) as usize]
            ^ TABLES[k + 1][((w >> 16) & 0xFF) as usize]
            ^ TABLES[k][(w >> 24) as usize]
    }

    /// Folds `data` into a raw (pre-inverted) CRC state, 16 bytes at a time: 16 independent
    /// look-ups per step, and half the steps of slicing by 8 that depend on each other
    /// through the state.
    pub(super) fn update_raw(mut crc: u32, data: &[u8]) -> u32 {
        let mut chunks = data.chunks_exact(16);
        for c in &mut chunks {
            let w = |i: usize| u32::from_le_bytes([c[i], c[i + 1], c[i + 2], c[i + 3]]);
            crc = word(w(0) ^ crc, 12) ^ word(w(4), 8) ^ word(w(8), 4) ^ word(w(12), 0);
        }
        for &b in chunks.remainder() {
            crc = (crc >> 8) ^ TABLES[0][((crc ^ b as u32) & 0xFF) as usize];
        }
        crc
    }
}

/// Half a byte per look-up, for builds for size: a 64-byte table instead of 16 KiB.
#[cfg(any(parket_opt_size, test))]
mod compact {
    use super::POLY;

    /// The CRC contribution of each 4-bit value, a 64-byte table instead of 16 KiB (half
    /// a byte per look-up: two dependent look-ups per byte).
    static NIBBLES: [u32; 16] = {
        let mut t = [0u32; 16];
        let mut i = 0;
        while i < 16 {
            let mut c = i as u32;
            let mut k = 0;
            while k < 4 {
                c = if c & 1 != 0 { (c >> 1) ^ POLY } else { c >> 1 };
                k += 1;
            }
            t[i] = c;
            i += 1;
        }
        t
    };

    /// `update_raw` half a byte at a time, with [`NIBBLES`].
    pub(super) fn update_raw(mut crc: u32, data: &[u8]) -> u32 {
        for &b in data {
            crc ^= b as u32;
            crc = (crc >> 4) ^ NIBBLES[(crc & 0xF) as usize];
            crc = (crc >> 4) ^ NIBBLES[(crc & 0xF) as usize];
        }
        crc
    }
}

/// The CRC-32 of `data`.
pub fn crc32(data: &[u8]) -> u32 {
    !update_raw(!0, data)
}

/// An incremental CRC-32: feeding the bytes in any number of pieces gives [`crc32`] of their
/// concatenation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Crc32 {
    state: u32,
}

impl Default for Crc32 {
    fn default() -> Self {
        Self::new()
    }
}

impl Crc32 {
    /// A hasher that has seen no bytes.
    pub fn new() -> Self {
        Crc32 { state: !0 }
    }

    /// Feeds more bytes.
    pub fn update(&mut self, data: &[u8]) {
        self.state = update_raw(self.state, data);
    }

    /// The CRC of the bytes fed so far (the hasher can keep going).
    pub fn finish(&self) -> u32 {
        !self.state
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;
    use proptest::prelude::*;

    /// One bit at a time, straight from the definition: the oracle for the sliced tables.
    fn naive(data: &[u8]) -> u32 {
        let mut c = !0u32;
        for &b in data {
            c ^= b as u32;
            for _ in 0..8 {
                c = if c & 1 != 0 { (c >> 1) ^ POLY } else { c >> 1 };
            }
        }
        !c
    }

    #[test]
    fn catalogue_check_value_and_empty() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
        assert_eq!(Crc32::new().finish(), 0);
    }

    #[test]
    fn matches_python_zlib() {
        // Computed once with CPython 3.11 `zlib.crc32(x)`:
        //   zlib.crc32(b"a") = 0xe8b7be43
        //   zlib.crc32(b"The quick brown fox jumps over the lazy dog") = 0x414fa339
        //   zlib.crc32(bytes(range(256))) = 0x29058c73
        //   zlib.crc32(b"\x00" * 32) = 0x190a55ad
        //   zlib.crc32(b"\xff" * 32) = 0xff6cab0b
        assert_eq!(crc32(b"a"), 0xE8B7_BE43);
        assert_eq!(
            crc32(b"The quick brown fox jumps over the lazy dog"),
            0x414F_A339
        );
        let all: Vec<u8> = (0..=255u8).collect();
        assert_eq!(crc32(&all), 0x2905_8C73);
        assert_eq!(crc32(&[0u8; 32]), 0x190A_55AD);
        assert_eq!(crc32(&[0xFFu8; 32]), 0xFF6C_AB0B);
    }

    proptest! {
        #[test]
        fn sliced_equals_bitwise(data in proptest::collection::vec(any::<u8>(), 0..600)) {
            prop_assert_eq!(crc32(&data), naive(&data));
            // The size-profile variant, whichever variant this build uses.
            prop_assert_eq!(!compact::update_raw(!0, &data), naive(&data));
        }

        #[test]
        fn incremental_equals_one_shot(
            data in proptest::collection::vec(any::<u8>(), 0..300),
            cut in 0usize..300,
        ) {
            let cut = cut.min(data.len());
            let mut h = Crc32::new();
            h.update(&data[..cut]);
            h.update(&data[cut..]);
            prop_assert_eq!(h.finish(), crc32(&data));
        }
    }
}
