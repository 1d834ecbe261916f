//! Bloom filters: the split-block Bloom filter (SBBF) and XXH64 of BloomFilter.md.
//!
//! A column chunk may carry a Bloom filter (`ColumnMetaData.bloom_filter_offset`): a Thrift
//! `BloomFilterHeader { numBytes, algorithm: BLOCK, hash: XXHASH, compression: UNCOMPRESSED }`
//! followed by `numBytes` of bitset. This module owns the bitset and the hash; the header is
//! Thrift and belongs to `format`.
//!
//! Spec (BloomFilter.md, "Technical Approach"): the bitset is `z` blocks of 256 bits; a block
//! is eight 32-bit words (stored little-endian). A value is hashed to a 64-bit `h`:
//!
//! ```text
//! i = ((h >> 32) * z) >> 32                  block index, from the top 32 bits
//! x = (u32) h                                key, the low 32 bits
//! for w in 0..8:  block[i].word[w] |= 1 << ((x * salt[w]) >> 27)     (u32 product)
//! salt = 47b6137b 44974d91 8824ad5b a2b7289d 705495c7 2df1424b 9efc4947 5c6bfb31
//! ```
//!
//! and `check` is true when all eight bits are set. The hash is XXH64 with seed 0
//! ([`xxhash64()`]) of the value's plain encoding: little-endian bytes for INT32 / INT64 /
//! FLOAT / DOUBLE (floats bit for bit: `-0.0` and `0.0` differ), the 12 bytes of an INT96, the
//! bytes of a FIXED_LEN_BYTE_ARRAY, and for BYTE_ARRAY the value bytes *without* the 4-byte
//! length prefix of PLAIN (what every writer does; the `bloom_filter.xxhash.bin` fixture holds
//! the XXH64 of the bare UTF-8 bytes). See [`hash_value`].
//!
//! Worked example: insert `"hello"` into a 4-block (128-byte) filter.
//!
//! ```text
//! h = XXH64("hello") = 0x26c7827d_889f6da3
//! i = (0x26c7827d * 4) >> 32 = 0             block 0
//! x = 0x889f6da3; (x * salt[w]) >> 27 for w = 0..8 = 20 9 10 7 9 31 28 27
//! block 0 = 00 00 10 00 | 00 02 00 00 | 00 04 00 00 | 80 00 00 00
//!           00 02 00 00 | 00 00 00 80 | 00 00 00 10 | 00 00 00 08   (LE words)
//! ```
//!
//! ```
//! use parket::bloom::{hash_bytes, Sbbf};
//! let mut f = Sbbf::new(128);
//! let h = hash_bytes(b"hello");
//! assert_eq!(h, 0x26c7827d_889f6da3);
//! f.insert_hash(h);
//! let bytes = f.as_bytes();
//! assert_eq!(
//!     &bytes[..32],
//!     &[0x00, 0x00, 0x10, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00,
//!       0x80, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80,
//!       0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x08]
//! );
//! assert!(bytes[32..].iter().all(|&b| b == 0));
//! assert!(f.check_hash(h));
//! assert!(!f.check_hash(hash_bytes(b"nope")));
//! ```
//!
//! Sizing ([`Sbbf::with_ndv_fpp`]) follows the spec's `c = -8 / ln(1 - p^(1/8))` bits per
//! distinct value, rounded up to a power of two of bytes between 32 bytes and 128 MiB.

pub mod split_block;
pub mod xxhash64;

pub use split_block::Sbbf;
pub use xxhash64::xxhash64;

use crate::values::ValuesRef;

/// XXH64 (seed 0) of raw bytes: the Bloom hash of a BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY value.
#[inline]
pub fn hash_bytes(bytes: &[u8]) -> u64 {
    xxhash64(bytes)
}

/// The Bloom hash of value `i` of `values`, or `None` when `i` is out of range.
///
/// Spec: "This function takes the hash of a column value using plain encoding": INT32 / INT64
/// / FLOAT / DOUBLE as their little-endian bytes, INT96 as its 12 bytes, byte arrays as their
/// bytes without a length prefix. BOOLEAN has no rule in the spec (parquet-java and
/// parquet-cpp do not build Bloom filters for it); it is hashed as one byte, 0 or 1, as
/// parquet-rs does.
pub fn hash_value(values: ValuesRef<'_>, i: usize) -> Option<u64> {
    Some(match values {
        ValuesRef::Boolean(v) => xxhash64(&[*v.get(i)? as u8]),
        ValuesRef::Int32(v) => xxhash64(&v.get(i)?.to_le_bytes()),
        ValuesRef::Int64(v) => xxhash64(&v.get(i)?.to_le_bytes()),
        ValuesRef::Int96(v) => xxhash64(v.get(i)?),
        ValuesRef::Float(v) => xxhash64(&v.get(i)?.to_bits().to_le_bytes()),
        ValuesRef::Double(v) => xxhash64(&v.get(i)?.to_bits().to_le_bytes()),
        ValuesRef::ByteArray(v) => xxhash64(v.get(i)?),
        ValuesRef::FixedLenByteArray(v) => xxhash64(v.get(i)?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::values::ByteArrays;
    use proptest::prelude::*;

    #[cfg(feature = "std")]
    fn fixture(name: &str) -> std::vec::Vec<u8> {
        crate::testing::corpus_file(name)
    }

    #[cfg(feature = "std")]
    #[test]
    fn bloom_filter_xxhash_fixture() {
        // data/bloom_filter.xxhash.bin: a 16-byte Thrift compact BloomFilterHeader, then the
        // bitset. Decoded by hand: 15 = field 1 i32, 80 10 = zigzag varint 2048 -> 1024 bytes;
        // 1c 1c 00 00 = field 2 struct { field 1 struct {} } (BLOCK), then HASH, COMPRESSION.
        let file = fixture("bloom_filter.xxhash.bin");
        assert_eq!(file.len(), 16 + 1024);
        assert_eq!(&file[..3], &[0x15, 0x80, 0x10]);
        let f = Sbbf::from_bytes(&file[16..]).unwrap();
        assert_eq!(f.num_bytes(), 1024);
        for v in ["hello", "parquet", "bloom", "filter"] {
            assert!(
                f.check_hash(hash_bytes(v.as_bytes())),
                "{v} must be present"
            );
        }
        for v in ["nope", "x", "Parquet"] {
            assert!(
                !f.check_hash(hash_bytes(v.as_bytes())),
                "{v} must be absent"
            );
        }
        assert_eq!(Sbbf::from_bytes(&f.as_bytes()).unwrap(), f);
    }

    #[test]
    fn hash_value_uses_plain_bytes() {
        assert_eq!(
            hash_value(ValuesRef::Int32(&[1, -1]), 1),
            Some(xxhash64(&[0xFF; 4]))
        );
        assert_eq!(
            hash_value(ValuesRef::Int64(&[0x0102]), 0),
            Some(xxhash64(&[2, 1, 0, 0, 0, 0, 0, 0]))
        );
        assert_eq!(
            hash_value(ValuesRef::Double(&[-0.0]), 0),
            Some(xxhash64(&[0, 0, 0, 0, 0, 0, 0, 0x80]))
        );
        assert_eq!(
            hash_value(ValuesRef::Float(&[1.0]), 0),
            Some(xxhash64(&[0, 0, 0x80, 0x3F]))
        );
        let b: ByteArrays = ["hello", ""].into_iter().collect();
        assert_eq!(
            hash_value(ValuesRef::ByteArray(b.as_ref()), 0),
            Some(0x26c7827d_889f6da3)
        );
        assert_eq!(hash_value(ValuesRef::ByteArray(b.as_ref()), 2), None);
    }

    proptest! {
        #[test]
        fn no_false_negatives(
            hashes in proptest::collection::vec(any::<u64>(), 0..200),
            bytes in 0usize..4096,
        ) {
            let mut f = Sbbf::new(bytes);
            for &h in &hashes {
                f.insert_hash(h);
            }
            for &h in &hashes {
                prop_assert!(f.check_hash(h));
            }
            let g = Sbbf::from_bytes(&f.as_bytes()).unwrap();
            prop_assert_eq!(g, f);
        }

        #[test]
        fn arbitrary_bitsets_never_panic(
            bytes in proptest::collection::vec(any::<u8>(), 0..200),
            h in any::<u64>(),
        ) {
            if let Ok(mut f) = Sbbf::from_bytes(&bytes) {
                let _ = f.check_hash(h);
                f.insert_hash(h);
                prop_assert!(f.check_hash(h));
            }
        }
    }

    #[test]
    fn false_positive_rate_is_near_the_spec_table() {
        // Spec: 1024 blocks with 26,214 values inserted -> about 1.26 % false positives.
        let mut f = Sbbf::new(1024 * 32);
        for v in 0u64..26_214 {
            f.insert_hash(xxhash64(&v.to_le_bytes()));
        }
        let trials = 100_000u64;
        let fp = (1_000_000..1_000_000 + trials)
            .filter(|v: &u64| f.check_hash(xxhash64(&v.to_le_bytes())))
            .count();
        let rate = fp as f64 / trials as f64;
        assert!((0.009..0.017).contains(&rate), "{rate}");
    }
}
