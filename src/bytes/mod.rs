//! Layer 0: reading and writing bytes, with no knowledge of Parquet.
//!
//! - [`cursor`]: a checked cursor over a byte slice; every read names what it reads, so a short
//!   input becomes an error that says what was cut off.
//! - [`varint`]: ULEB128 variable-length integers and zigzag, used by Thrift and by the RLE and
//!   DELTA encodings.
//! - [`crc32`]: the CRC-32 of page checksums (IEEE polynomial, as zlib).
//! - [`bitpack`]: packing and unpacking of small integers, LSB first in groups of 8 (the
//!   RLE / bit-packing hybrid) and MSB first (the deprecated BIT_PACKED encoding).

pub mod bitpack;
pub mod crc32;
pub mod cursor;
pub mod varint;

pub use cursor::Cursor;
