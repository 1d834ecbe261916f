//! Layer 2: the Rust mirror of `thrift/parquet.thrift`, named as the IDL names it.
//!
//! Plain data types with (de)serialization to the Thrift compact protocol and nothing else:
//! no validation beyond what decoding needs, no knowledge of pages or values.
//!
//! Spec: `parquet.thrift` of apache/parquet-format (transcribed in `thrift/parquet.thrift` at
//! the top of this repository; `tests/thrift_idl.rs` checks every field id, name, type and
//! requiredness that the codec reads and writes against that transcription).
//!
//! Conventions:
//!
//! - Field names are the snake_case of the IDL names (`type_` for `type`, `logical_type` for
//!   `logicalType`); `binary` is `Vec<u8>`, `string` is `String`, `optional` is `Option`.
//! - A `string` that is not UTF-8 is an error naming the field, everywhere (no lossy
//!   conversion, `created_by` and `KeyValue` included): what is decoded re-encodes to the same
//!   bytes.
//! - An enum number the spec does not define is an error (never a default). A union member the
//!   crate does not know is an error, except in `LogicalType` and `ColumnOrder`, which a newer
//!   writer is expected to extend ([`LogicalType::Unrecognized`], [`ColumnOrder::Unknown`]).
//! - Fields a reader of values does not need (statistics, size and geospatial statistics,
//!   encoding stats, a column's key/value metadata, sorting columns, column orders, encryption
//!   details; marked `#[extra]` in the tables) are decoded only with the `metadata-extras`
//!   feature; without it they are skipped and read as `None`. Encoding is the same either way.
//! - Unknown fields are skipped; a missing required field is an error naming the struct and
//!   the field ("missing required field RowGroup.num_rows").
//! - Sizes, counts and offsets stay the `i32` / `i64` the file says, negative ones included;
//!   validating them is the reader's job.
//!
//! Worked example (see [`metadata`](FileMetaData) for a whole footer): the `KeyValue
//! { key: "k", value: Some("v") }` is
//!
//! ```text
//! 18 01 6b   field 1 (delta 1), BINARY: key, length 1, "k"
//! 18 01 76   field 2 (delta 1), BINARY: value, length 1, "v"
//! 00         stop
//! ```
//!
//! ```
//! use parket::format::KeyValue;
//! let kv = KeyValue { key: "k".into(), value: Some("v".into()) };
//! let mut out = Vec::new();
//! kv.encode(&mut out);
//! assert_eq!(out, [0x18, 0x01, b'k', 0x18, 0x01, b'v', 0x00]);
//! ```

use alloc::vec::Vec;

mod bloom;
mod crypto;
mod enum_codec;
mod enums;
mod logical_type;
mod metadata;
mod page_header;
mod page_index;
mod schema_element;
mod statistics;

pub use bloom::{
    BloomFilterAlgorithm, BloomFilterCompression, BloomFilterHash, BloomFilterHeader,
    SplitBlockAlgorithm, Uncompressed, XxHash,
};
pub use crypto::{
    AesGcmCtrV1, AesGcmV1, ColumnCryptoMetaData, EncryptionAlgorithm, EncryptionWithColumnKey,
    EncryptionWithFooterKey, FileCryptoMetaData,
};
#[doc(hidden)]
pub use enum_codec::idl_enums;
pub use enums::*;
pub use logical_type::{
    BsonType, DateType, DecimalType, EnumType, FileType, Float16Type, GeographyType, GeometryType,
    IntType, JsonType, ListType, LogicalType, MapType, MicroSeconds, MilliSeconds, NanoSeconds,
    NullType, StringType, TimeType, TimeUnit, TimestampType, UUIDType, VariantType,
};
pub use metadata::{
    ColumnChunk, ColumnMetaData, ColumnOrder, FileMetaData, IEEE754TotalOrder, Int96TimestampOrder,
    KeyValue, PageEncodingStats, RowGroup, SortingColumn, TypeDefinedOrder,
};
pub use page_header::{
    DataPageHeader, DataPageHeaderV2, DictionaryPageHeader, IndexPageHeader, PageHeader,
};
pub use page_index::{ColumnIndex, OffsetIndex, PageLocation};
pub use schema_element::SchemaElement;
pub use statistics::{BoundingBox, GeospatialStatistics, SizeStatistics, Statistics};

use crate::thrift::{FieldDef, StructDef};

/// One struct or union of the codec: IDL name, whether it is a union, its fields.
#[doc(hidden)]
pub type IdlStruct = (&'static str, bool, &'static [FieldDef]);

/// Every struct and union this crate reads and writes, with the field table its codec uses
/// (for `tests/thrift_idl.rs`).
#[doc(hidden)]
pub fn idl_structs() -> Vec<IdlStruct> {
    macro_rules! defs {
        ($($t:ty),* $(,)?) => {
            alloc::vec![$((<$t>::NAME, <$t>::IS_UNION, <$t>::FIELDS)),*]
        };
    }
    defs![
        SizeStatistics,
        BoundingBox,
        GeospatialStatistics,
        Statistics,
        StringType,
        UUIDType,
        MapType,
        ListType,
        EnumType,
        DateType,
        Float16Type,
        NullType,
        DecimalType,
        MilliSeconds,
        MicroSeconds,
        NanoSeconds,
        TimeUnit,
        TimestampType,
        TimeType,
        IntType,
        JsonType,
        BsonType,
        VariantType,
        GeometryType,
        GeographyType,
        FileType,
        LogicalType,
        SchemaElement,
        DataPageHeader,
        IndexPageHeader,
        DictionaryPageHeader,
        DataPageHeaderV2,
        SplitBlockAlgorithm,
        BloomFilterAlgorithm,
        XxHash,
        BloomFilterHash,
        Uncompressed,
        BloomFilterCompression,
        BloomFilterHeader,
        PageHeader,
        KeyValue,
        SortingColumn,
        PageEncodingStats,
        ColumnMetaData,
        EncryptionWithFooterKey,
        EncryptionWithColumnKey,
        ColumnCryptoMetaData,
        ColumnChunk,
        RowGroup,
        TypeDefinedOrder,
        IEEE754TotalOrder,
        Int96TimestampOrder,
        ColumnOrder,
        PageLocation,
        OffsetIndex,
        ColumnIndex,
        AesGcmV1,
        AesGcmCtrV1,
        EncryptionAlgorithm,
        FileMetaData,
        FileCryptoMetaData,
    ]
}

/// Fuzz harness (used by `fuzz/fuzz_targets/metadata.rs` and by the regression tests): decodes
/// `data` as a FileMetaData and as a PageHeader and, when either decodes, checks that encoding
/// and decoding again gives the same value and the same bytes. Panics only when that round
/// trip fails (a bug); never for malformed input.
#[cfg(any(test, feature = "fuzzing"))]
#[doc(hidden)]
pub fn fuzz_metadata(data: &[u8]) {
    if let Ok(m) = FileMetaData::decode(data) {
        let mut out = Vec::new();
        m.encode(&mut out);
        let again = FileMetaData::decode(&out).expect("re-encoded FileMetaData decodes");
        let mut out2 = Vec::new();
        again.encode(&mut out2);
        // Bytes, not values: a NaN in a BoundingBox is not equal to itself.
        assert_eq!(out, out2, "FileMetaData round trip changed the bytes");
    }
    if let Ok((h, used)) = PageHeader::decode(data) {
        assert!(used <= data.len());
        let mut out = Vec::new();
        h.encode(&mut out);
        let (again, n) = PageHeader::decode(&out).expect("re-encoded PageHeader decodes");
        assert_eq!(n, out.len());
        assert_eq!(again, h, "PageHeader round trip changed the value");
    }
}

#[cfg(test)]
mod tests;
