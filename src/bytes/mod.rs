//! Layer 0: reading and writing bytes, with no knowledge of Parquet.
//!
//! - [`cursor`]: a checked cursor over a byte slice; every read names what it reads, so a short
//!   input becomes an error that says what was cut off.
//! - [`varint`]: ULEB128 variable-length integers and zigzag, used by Thrift and by the RLE and
//!   DELTA encodings.
//! - [`crc32`]: the CRC-32 of page checksums (IEEE polynomial, as zlib).
//! - [`float16`]: IEEE 754 half precision to and from `f32` (the FLOAT16 logical type).
//! - [`bitpack`]: packing and unpacking of small integers, LSB first in groups of 8 (the
//!   RLE / bit-packing hybrid) and MSB first (the deprecated BIT_PACKED encoding).
//! - [`base64`]: standard base64, for BINARY values in JSON and wrapped keys.
//! - `utf8` (crate-internal, feature `arrow`): whether byte-array values are each valid UTF-8.
//! - `extend_short` (crate-internal): appending a short byte string as a fixed-size block, for
//!   the byte-array decoders' and encoders' inner loops.

pub mod base64;
pub mod bitpack;
pub mod crc32;
pub mod cursor;
pub mod float16;
#[cfg(feature = "arrow")]
pub(crate) mod utf8;
pub mod varint;

pub use cursor::Cursor;

use alloc::vec::Vec;

/// Appends `source[..len]` to `out`; returns `None`, appending nothing, when `source` is
/// shorter than `len`.
///
/// Byte-array decoders append many short values (a dictionary entry, a PLAIN value), and a
/// `memcpy` call per value costs more than the copy. When `len` is at most [`SHORT`] and
/// `source` has that many bytes, they are appended as one fixed-size block, which compiles to
/// three 16-byte moves with no branch on the length (one size for all short values: lengths
/// vary from value to value, and a branch on them mispredicts), and `out` is truncated back
/// to `len` new bytes. The block's extra bytes land in `out`'s spare capacity: a caller
/// appending many values reserves their total plus [`SHORT`] once, so no block reallocates.
///
/// Built for size (`cfg(parket_opt_size)`), it is a plain copy by length.
#[inline(always)]
pub(crate) fn extend_short(out: &mut Vec<u8>, source: &[u8], len: usize) -> Option<()> {
    extend_block::<SHORT>(out, source, len)
}

/// [`extend_short`] with blocks of `B` bytes: for a caller that knows its values are at most
/// `B` bytes long (a dictionary of short entries), a smaller store.
pub(crate) use copy::extend_block;

// The one point of choice: default builds copy short values as fixed-size blocks
// ([`blocks`]); builds for size (`cfg(parket_opt_size)`, set by `build.rs`) copy by length
// ([`by_length`]). Same bytes appended.
#[cfg(not(parket_opt_size))]
use blocks as copy;
#[cfg(parket_opt_size)]
use by_length as copy;

/// Short values copied as one fixed-size block each.
#[cfg(not(parket_opt_size))]
mod blocks {
    use alloc::vec::Vec;

    /// [`super::extend_block`].
    #[inline(always)]
    pub(crate) fn extend_block<const B: usize>(
        out: &mut Vec<u8>,
        source: &[u8],
        len: usize,
    ) -> Option<()> {
        let end = out.len() + len;
        match source.first_chunk::<B>() {
            Some(block) if len <= B => out.extend_from_slice(block),
            _ => out.extend_from_slice(source.get(..len)?),
        }
        out.truncate(end);
        Some(())
    }
}

/// Values copied by length, in builds for size.
#[cfg(parket_opt_size)]
mod by_length {
    use alloc::vec::Vec;

    /// [`super::extend_block`].
    #[inline(always)]
    pub(crate) fn extend_block<const B: usize>(
        out: &mut Vec<u8>,
        source: &[u8],
        len: usize,
    ) -> Option<()> {
        out.extend_from_slice(source.get(..len)?);
        Some(())
    }
}

/// The longest value [`extend_short`] copies as a fixed-size block.
pub(crate) const SHORT: usize = 48;

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn extend_short_appends_exactly_the_prefix(
            start in proptest::collection::vec(any::<u8>(), 0..8),
            source in proptest::collection::vec(any::<u8>(), 0..80),
            len in 0usize..90,
        ) {
            let mut out = start.clone();
            let appended = extend_short(&mut out, &source, len);
            if len <= source.len() {
                prop_assert_eq!(appended, Some(()));
                let mut expected = start;
                expected.extend_from_slice(&source[..len]);
                prop_assert_eq!(out, expected);
            } else {
                prop_assert_eq!(appended, None);
                prop_assert_eq!(out, start);
            }
        }
    }

    #[test]
    fn extend_short_edges() {
        let source: Vec<u8> = (0..48).collect();
        for len in [0, 1, 15, 16, 17, 47, 48] {
            let mut out = vec![9];
            extend_short(&mut out, &source, len).unwrap();
            assert_eq!(out[1..], source[..len]);
            assert_eq!(out[0], 9);
        }
    }
}
