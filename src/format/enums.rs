//! The enums of `parquet.thrift`, with the spec's numbers and spellings.
//!
//! Each enum converts from the `i32` that Thrift stores ([`TryFrom`], an error for a number the
//! spec does not define: an unknown physical type is never mapped to a default) and prints the
//! spec's spelling (`INT64`, `RLE_DICTIONARY`, `ZSTD`).
//!
//! ```
//! use parket::format::{Encoding, PhysicalType};
//! assert_eq!(Encoding::try_from(8).unwrap(), Encoding::RleDictionary);
//! assert_eq!(Encoding::RleDictionary.to_string(), "RLE_DICTIONARY");
//! assert_eq!("INT64".parse::<PhysicalType>().unwrap(), PhysicalType::Int64);
//! assert!(PhysicalType::try_from(-7).is_err());
//! ```

use crate::error::Error;
use core::fmt;

macro_rules! thrift_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident : $what:literal {
            $( $(#[$vmeta:meta])* $variant:ident = $value:literal => $spelling:literal, )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        $vis enum $name {
            $( $(#[$vmeta])* $variant = $value, )*
        }

        impl $name {
            /// Every value, in the spec's order.
            pub const ALL: &'static [$name] = &[$($name::$variant),*];

            /// The number Thrift stores.
            #[inline]
            pub fn to_i32(self) -> i32 {
                self as i32
            }

            /// What the enum is, in errors (`"physical type"`).
            pub(crate) const WHAT: &'static str = $what;

            /// A bit per number the spec defines (every number is below 32), for
            /// [`crate::thrift::Reader::enum_value`].
            pub(crate) const VALID: u32 = 0 $( | 1 << $value )*;

            /// The value of a number that [`Self::VALID`] holds (any other gives the first
            /// value; the reader never asks for one).
            pub(crate) fn from_valid(v: u8) -> Self {
                match v {
                    $( $value => $name::$variant, )*
                    _ => Self::ALL[0],
                }
            }

            /// The spec's spelling.
            pub fn name(self) -> &'static str {
                match self {
                    $( $name::$variant => $spelling, )*
                }
            }
        }

        impl TryFrom<i32> for $name {
            type Error = Error;
            fn try_from(v: i32) -> Result<Self, Error> {
                match v {
                    $( $value => Ok($name::$variant), )*
                    _ => Err(Error::out_of_range($what, v as i64)),
                }
            }
        }

        impl core::str::FromStr for $name {
            type Err = Error;
            /// Parses the spec's spelling (case-sensitive).
            fn from_str(s: &str) -> Result<Self, Error> {
                match s {
                    $( $spelling => Ok($name::$variant), )*
                    _ => Err(Error::invalid_argument(alloc::format!(
                        "unknown {}: {:?}", $what, s
                    ))),
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

thrift_enum! {
    /// Physical type: how values are stored (Thrift `Type`).
    pub enum PhysicalType: "physical type" {
        /// 1 bit.
        Boolean = 0 => "BOOLEAN",
        /// 32-bit signed integer.
        Int32 = 1 => "INT32",
        /// 64-bit signed integer.
        Int64 = 2 => "INT64",
        /// 96-bit value (deprecated; legacy timestamps).
        Int96 = 3 => "INT96",
        /// IEEE 754 single precision.
        Float = 4 => "FLOAT",
        /// IEEE 754 double precision.
        Double = 5 => "DOUBLE",
        /// Arbitrarily long byte array.
        ByteArray = 6 => "BYTE_ARRAY",
        /// Byte array of a fixed length given by the schema.
        FixedLenByteArray = 7 => "FIXED_LEN_BYTE_ARRAY",
    }
}

thrift_enum! {
    /// Deprecated annotations (Thrift `ConvertedType`); [`crate::format::LogicalType`] supersedes them.
    pub enum ConvertedType: "converted type" {
        /// UTF-8 string.
        Utf8 = 0 => "UTF8",
        /// A map.
        Map = 1 => "MAP",
        /// The repeated key/value group of a map.
        MapKeyValue = 2 => "MAP_KEY_VALUE",
        /// A list.
        List = 3 => "LIST",
        /// An enum stored as a string.
        Enum = 4 => "ENUM",
        /// A decimal.
        Decimal = 5 => "DECIMAL",
        /// Days since the Unix epoch.
        Date = 6 => "DATE",
        /// Milliseconds since midnight.
        TimeMillis = 7 => "TIME_MILLIS",
        /// Microseconds since midnight.
        TimeMicros = 8 => "TIME_MICROS",
        /// Milliseconds since the Unix epoch, UTC.
        TimestampMillis = 9 => "TIMESTAMP_MILLIS",
        /// Microseconds since the Unix epoch, UTC.
        TimestampMicros = 10 => "TIMESTAMP_MICROS",
        /// Unsigned 8-bit integer.
        Uint8 = 11 => "UINT_8",
        /// Unsigned 16-bit integer.
        Uint16 = 12 => "UINT_16",
        /// Unsigned 32-bit integer.
        Uint32 = 13 => "UINT_32",
        /// Unsigned 64-bit integer.
        Uint64 = 14 => "UINT_64",
        /// Signed 8-bit integer.
        Int8 = 15 => "INT_8",
        /// Signed 16-bit integer.
        Int16 = 16 => "INT_16",
        /// Signed 32-bit integer.
        Int32 = 17 => "INT_32",
        /// Signed 64-bit integer.
        Int64 = 18 => "INT_64",
        /// JSON text.
        Json = 19 => "JSON",
        /// BSON document.
        Bson = 20 => "BSON",
        /// Months, days, milliseconds as three little-endian u32 in a FIXED_LEN_BYTE_ARRAY(12).
        Interval = 21 => "INTERVAL",
    }
}

thrift_enum! {
    /// Whether a field may be absent or repeated (Thrift `FieldRepetitionType`).
    pub enum FieldRepetitionType: "repetition type" {
        /// Exactly one value.
        Required = 0 => "REQUIRED",
        /// Zero or one value.
        Optional = 1 => "OPTIONAL",
        /// Zero or more values.
        Repeated = 2 => "REPEATED",
    }
}

thrift_enum! {
    /// Page and level encodings (Thrift `Encoding`; Encodings.md).
    pub enum Encoding: "encoding" {
        /// Values back to back.
        Plain = 0 => "PLAIN",
        /// Deprecated name of a dictionary encoding (PLAIN dictionary page, RLE indices).
        PlainDictionary = 2 => "PLAIN_DICTIONARY",
        /// RLE / bit-packing hybrid.
        Rle = 3 => "RLE",
        /// Deprecated bit-packed levels, MSB first.
        BitPacked = 4 => "BIT_PACKED",
        /// Delta encoding of integers.
        DeltaBinaryPacked = 5 => "DELTA_BINARY_PACKED",
        /// Delta-encoded lengths, then the bytes.
        DeltaLengthByteArray = 6 => "DELTA_LENGTH_BYTE_ARRAY",
        /// Incremental (prefix) encoding of byte arrays.
        DeltaByteArray = 7 => "DELTA_BYTE_ARRAY",
        /// Dictionary indices as RLE / bit-packing hybrid.
        RleDictionary = 8 => "RLE_DICTIONARY",
        /// The bytes of each value split into streams.
        ByteStreamSplit = 9 => "BYTE_STREAM_SPLIT",
        /// Adaptive Lossless floating-Point (FLOAT and DOUBLE), added to the spec in 2026.
        Alp = 10 => "ALP",
    }
}

thrift_enum! {
    /// Compression codecs (Thrift `CompressionCodec`; Compression.md).
    pub enum CompressionCodec: "compression codec" {
        /// No compression.
        Uncompressed = 0 => "UNCOMPRESSED",
        /// Snappy raw format.
        Snappy = 1 => "SNAPPY",
        /// GZIP (RFC 1952).
        Gzip = 2 => "GZIP",
        /// LZO (LZO1X).
        Lzo = 3 => "LZO",
        /// Brotli.
        Brotli = 4 => "BROTLI",
        /// Deprecated LZ4 with the Hadoop framing.
        Lz4 = 5 => "LZ4",
        /// Zstandard.
        Zstd = 6 => "ZSTD",
        /// LZ4 block format, no framing.
        Lz4Raw = 7 => "LZ4_RAW",
    }
}

thrift_enum! {
    /// Kinds of page (Thrift `PageType`).
    pub enum PageType: "page type" {
        /// Data page, version 1.
        DataPage = 0 => "DATA_PAGE",
        /// Index page (never written by current writers).
        IndexPage = 1 => "INDEX_PAGE",
        /// Dictionary page.
        DictionaryPage = 2 => "DICTIONARY_PAGE",
        /// Data page, version 2.
        DataPageV2 = 3 => "DATA_PAGE_V2",
    }
}

thrift_enum! {
    /// Ordering of the min/max values of a ColumnIndex (Thrift `BoundaryOrder`).
    pub enum BoundaryOrder: "boundary order" {
        /// No order.
        Unordered = 0 => "UNORDERED",
        /// Ascending.
        Ascending = 1 => "ASCENDING",
        /// Descending.
        Descending = 2 => "DESCENDING",
    }
}

thrift_enum! {
    /// How edges of GEOGRAPHY values are interpolated (Thrift `EdgeInterpolationAlgorithm`).
    pub enum EdgeInterpolationAlgorithm: "edge interpolation algorithm" {
        /// Spherical.
        Spherical = 0 => "SPHERICAL",
        /// Vincenty.
        Vincenty = 1 => "VINCENTY",
        /// Thomas.
        Thomas = 2 => "THOMAS",
        /// Andoyer.
        Andoyer = 3 => "ANDOYER",
        /// Karney.
        Karney = 4 => "KARNEY",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn numbers_and_spellings_round_trip() {
        for &e in Encoding::ALL {
            assert_eq!(Encoding::try_from(e.to_i32()).unwrap(), e);
            assert_eq!(e.to_string().parse::<Encoding>().unwrap(), e);
        }
        assert!(Encoding::try_from(1).is_err(), "GROUP_VAR_INT was removed");
        assert_eq!(CompressionCodec::Lz4Raw.to_i32(), 7);
        assert_eq!(ConvertedType::Interval.to_i32(), 21);
    }
}
