//! XXH64, the hash function of Parquet's Bloom filters.
//!
//! BloomFilter.md: "we apply a hash function to that value - at the time of writing, xxHash,
//! using the function XXH64 with a seed of 0 and following the specification version 0.1.1".
//! Written here from that specification (xxhash_spec.md, "XXH64 algorithm description"):
//!
//! ```text
//! stripes of 32 bytes feed four accumulators (only when len >= 32):
//!     acc1 = seed + P1 + P2, acc2 = seed + P2, acc3 = seed, acc4 = seed - P1
//!     round(acc, lane) = rotl(acc + lane * P2, 31) * P1      (lane = LE u64)
//!     acc = rotl(acc1, 1) + rotl(acc2, 7) + rotl(acc3, 12) + rotl(acc4, 18)
//!     acc = (acc ^ round(0, accN)) * P1 + P4                  for N = 1..4
//! otherwise acc = seed + P5
//! acc += len
//! remaining 8-byte lanes: acc = rotl(acc ^ round(0, lane), 27) * P1 + P4
//! remaining 4-byte lane:  acc = rotl(acc ^ (LE u32 * P1), 23) * P2 + P3
//! remaining bytes:        acc = rotl(acc ^ (byte * P5), 11) * P1
//! avalanche: acc ^= acc >> 33; acc *= P2; acc ^= acc >> 29; acc *= P3; acc ^= acc >> 32
//! ```
//!
//! All arithmetic wraps modulo 2^64. The BloomFilter.md remark about "the x86-64 version" is
//! about the byte order of the lanes: they are read little-endian on every platform here.
//!
//! ```
//! use parket::bloom::xxhash64::xxhash64;
//! assert_eq!(xxhash64(b""), 0xEF46_DB37_51D8_E999); // the reference's hash of nothing
//! assert_eq!(xxhash64(b"hello"), 0x26C7_827D_889F_6DA3);
//! ```

const P1: u64 = 0x9E37_79B1_85EB_CA87;
const P2: u64 = 0xC2B2_AE3D_27D4_EB4F;
const P3: u64 = 0x1656_67B1_9E37_79F9;
const P4: u64 = 0x85EB_CA77_C2B2_AE63;
const P5: u64 = 0x27D4_EB2F_1656_67C5;

#[inline(always)]
fn round(acc: u64, lane: u64) -> u64 {
    acc.wrapping_add(lane.wrapping_mul(P2))
        .rotate_left(31)
        .wrapping_mul(P1)
}

#[inline(always)]
fn merge(acc: u64, val: u64) -> u64 {
    (acc ^ round(0, val)).wrapping_mul(P1).wrapping_add(P4)
}

#[inline(always)]
fn u64_at(b: &[u8]) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[..8]);
    u64::from_le_bytes(a)
}

/// XXH64 of `data` with seed 0, as Parquet uses it.
pub fn xxhash64(data: &[u8]) -> u64 {
    xxhash64_with_seed(data, 0)
}

/// XXH64 of `data` with any `seed`.
pub fn xxhash64_with_seed(data: &[u8], seed: u64) -> u64 {
    let len = data.len() as u64;
    let mut rest = data;
    let mut acc;
    if data.len() >= 32 {
        let mut v1 = seed.wrapping_add(P1).wrapping_add(P2);
        let mut v2 = seed.wrapping_add(P2);
        let mut v3 = seed;
        let mut v4 = seed.wrapping_sub(P1);
        let mut stripes = data.chunks_exact(32);
        for s in &mut stripes {
            v1 = round(v1, u64_at(&s[0..]));
            v2 = round(v2, u64_at(&s[8..]));
            v3 = round(v3, u64_at(&s[16..]));
            v4 = round(v4, u64_at(&s[24..]));
        }
        rest = stripes.remainder();
        acc = v1
            .rotate_left(1)
            .wrapping_add(v2.rotate_left(7))
            .wrapping_add(v3.rotate_left(12))
            .wrapping_add(v4.rotate_left(18));
        acc = merge(acc, v1);
        acc = merge(acc, v2);
        acc = merge(acc, v3);
        acc = merge(acc, v4);
    } else {
        acc = seed.wrapping_add(P5);
    }
    acc = acc.wrapping_add(len);
    let mut lanes = rest.chunks_exact(8);
    for l in &mut lanes {
        acc = (acc ^ round(0, u64_at(l)))
            .rotate_left(27)
            .wrapping_mul(P1)
            .wrapping_add(P4);
    }
    let mut rest = lanes.remainder();
    if rest.len() >= 4 {
        let w = u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]) as u64;
        acc = (acc ^ w.wrapping_mul(P1))
            .rotate_left(23)
            .wrapping_mul(P2)
            .wrapping_add(P3);
        rest = &rest[4..];
    }
    for &b in rest {
        acc = (acc ^ (b as u64).wrapping_mul(P5))
            .rotate_left(11)
            .wrapping_mul(P1);
    }
    acc ^= acc >> 33;
    acc = acc.wrapping_mul(P2);
    acc ^= acc >> 29;
    acc = acc.wrapping_mul(P3);
    acc ^= acc >> 32;
    acc
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    /// The test input: byte i is (7 i + 3) mod 256.
    fn data(n: usize) -> Vec<u8> {
        (0..n).map(|i| (i * 7 + 3) as u8).collect()
    }

    #[test]
    fn reference_vectors() {
        // Computed once with the reference library (PyPI `xxhash` 4.1, which wraps the C
        // xxHash): `xxhash.xxh64(bytes((i*7+3)&0xff for i in range(n)), seed=0).intdigest()`.
        let expected: &[(usize, u64)] = &[
            (0, 0xef46db3751d8e999),
            (1, 0x1f25c8d0bc1f4bb6),
            (3, 0x31d2363f52e564c9),
            (4, 0x9bb64b7d66ee9fda),
            (7, 0x9a7b149959ce60d8),
            (8, 0xdab99d95c6f90092),
            (15, 0x1b47cb8243cc8e32),
            (16, 0x434850232b787be2),
            (31, 0xa2aa5f33cc4a6119),
            (32, 0x23c3c17ef790fd97),
            (33, 0x50a7cfc7ba588784),
            (63, 0x5e3e54b431c7493c),
            (64, 0x0eb64b3ef6eeb01f),
            (100, 0xa61f8d4c170fe531),
            (1000, 0x5f235fa033f1a3fb),
        ];
        for &(n, h) in expected {
            assert_eq!(xxhash64(&data(n)), h, "length {n}");
        }
        // Same tool: xxhash.xxh64(data(40), seed=0x9E3779B97F4A7C15).
        assert_eq!(
            xxhash64_with_seed(&data(40), 0x9E37_79B9_7F4A_7C15),
            0x3b3666e250c83a50
        );
    }

    #[test]
    fn reference_strings() {
        // Same tool: xxhash.xxh64(s).intdigest().
        let expected: &[(&[u8], u64)] = &[
            (b"hello", 0x26c7827d889f6da3),
            (b"parquet", 0x3c9d29275c52e429),
            (b"bloom", 0x50c8fb9e62dbc53c),
            (b"filter", 0x2a5736cdfcd7a9a1),
            (b"nope", 0x2adc75e8e6d7f647),
            (b"x", 0x5c80c09683041123),
            (b"Parquet", 0x526ceb0ba14450bc),
        ];
        for &(s, h) in expected {
            assert_eq!(xxhash64(s), h);
        }
    }
}
