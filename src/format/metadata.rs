//! The footer: `FileMetaData` and what it holds (row groups, column chunks, column metadata,
//! key/value pairs, sorting columns, page encoding statistics, column orders).
//!
//! Spec: parquet.thrift, `struct FileMetaData` and below; the footer layout is in the
//! README's "File format" section (`PAR1 ... FileMetaData | 4-byte LE length | PAR1`).
//!
//! ```text
//! struct FileMetaData {
//!   1: required i32 version                 2: required list<SchemaElement> schema
//!   3: required i64 num_rows                4: required list<RowGroup> row_groups
//!   5: optional list<KeyValue> key_value_metadata   6: optional string created_by
//!   7: optional list<ColumnOrder> column_orders
//!   8: optional EncryptionAlgorithm encryption_algorithm
//!   9: optional binary footer_signing_key_metadata
//! }
//! ```
//!
//! Worked example: version 2, a schema of one root element named "m" with no children, 0 rows,
//! no row groups:
//!
//! ```text
//! 15 04          field 1 (delta 1), I32: version, zigzag(2) = 4
//! 19 1c          field 2 (delta 1), LIST: size 1, element type 12 = STRUCT
//!    48 01 6d    SchemaElement field 4 (delta 4), BINARY: name, length 1, "m"
//!    00          stop (SchemaElement)
//! 16 00          field 3 (delta 1), I64: num_rows, zigzag(0) = 0
//! 19 0c          field 4 (delta 1), LIST: size 0, element type 12 = STRUCT
//! 00             stop (FileMetaData)
//! ```
//!
//! ```
//! use parket::format::{FileMetaData, SchemaElement};
//! let bytes = [0x15, 0x04, 0x19, 0x1c, 0x48, 0x01, b'm', 0x00, 0x16, 0x00, 0x19, 0x0c, 0x00];
//! let m = FileMetaData::decode(&bytes).unwrap();
//! assert_eq!(m.version, 2);
//! assert_eq!(m.schema, [SchemaElement { name: "m".into(), ..Default::default() }]);
//! assert_eq!((m.num_rows, m.row_groups.len()), (0, 0));
//! let mut out = Vec::new();
//! m.encode(&mut out);
//! assert_eq!(out, bytes);
//! ```
//!
//! Sizes, counts and offsets are kept as the file says them (`i32` / `i64`, negative ones
//! included): checking them against the file is the reader's job.

use alloc::string::String;
use alloc::vec::Vec;

use crate::error::Result;
use crate::format::{
    ColumnCryptoMetaData, CompressionCodec, Encoding, EncryptionAlgorithm, GeospatialStatistics,
    PageType, PhysicalType, SchemaElement, SizeStatistics, Statistics,
};
use crate::limits::Limits;
use crate::thrift::{
    read_empty_union, thrift_struct, write_empty, Ctx, FieldDef, Reader, StructDef, ThriftType, Ty,
    Writer, STRUCT,
};

thrift_struct! {
    /// The footer (Thrift struct `FileMetaData`).
    #[derive(Debug, Clone, PartialEq)]
    pub struct FileMetaData {
        /// 1: format version (1 or 2; see the spec on what "2" means).
        1: required version: i32,
        /// 2: the schema, flattened depth-first; element 0 is the root.
        2: required schema: Vec<SchemaElement>,
        /// 3: number of rows in the file.
        3: required num_rows: i64,
        /// 4: the row groups.
        4: required row_groups: Vec<RowGroup>,
        /// 5: application key/value pairs (the Arrow schema, pandas metadata, ...).
        #[extra]
        5: optional key_value_metadata: Vec<KeyValue>,
        /// 6: the writer, e.g. `parquet-mr version 1.13.1 (build ...)`.
        #[extra]
        6: optional created_by: String,
        /// 7: sort order of each leaf column's statistics, in leaf order.
        #[extra]
        7: optional column_orders: Vec<ColumnOrder>,
        /// 8: encryption algorithm of a file with a plaintext footer.
        #[extra]
        8: optional encryption_algorithm: EncryptionAlgorithm,
        /// 9: key metadata of the footer signing key (plaintext footer).
        #[extra]
        9: optional footer_signing_key_metadata: Vec<u8>,
    }
}

impl FileMetaData {
    /// Decodes a footer (the bytes between the data and the 8-byte tail) with the default
    /// [`Limits`]. Bytes after the struct's stop field are ignored (an encrypted file with a
    /// plaintext footer puts its signature there).
    ///
    /// Never panics, for any input. Allocates at most a small multiple of `buf.len()` per
    /// decoded element (every element takes at least one input byte); nesting is bounded by
    /// [`Limits::nesting_depth`].
    pub fn decode(buf: &[u8]) -> Result<FileMetaData> {
        Self::decode_with_limits(buf, &Limits::default())
    }

    /// [`FileMetaData::decode`] with the given limits.
    pub fn decode_with_limits(buf: &[u8], limits: &Limits) -> Result<FileMetaData> {
        crate::thrift::decode_prefix(buf, limits.nesting_depth).map(|(m, _)| m)
    }
}

thrift_struct! {
    /// A row group: one column chunk per leaf column (Thrift struct `RowGroup`).
    #[derive(Debug, Clone, PartialEq)]
    pub struct RowGroup {
        /// 1: the column chunks, in leaf order.
        1: required columns: Vec<ColumnChunk>,
        /// 2: total uncompressed byte size of all the column data.
        #[extra]
        2: required total_byte_size: i64,
        /// 3: number of rows.
        3: required num_rows: i64,
        /// 4: sort order of the rows, if sorted.
        #[extra]
        4: optional sorting_columns: Vec<SortingColumn>,
        /// 5: byte offset of the first page of the first column chunk.
        #[extra]
        5: optional file_offset: i64,
        /// 6: total compressed byte size of all the column data.
        #[extra]
        6: optional total_compressed_size: i64,
        /// 7: ordinal of the row group in the file.
        7: optional ordinal: i16,
    }
}

thrift_struct! {
    /// A column chunk: where it is and what it holds (Thrift struct `ColumnChunk`).
    #[derive(Debug, Clone, PartialEq)]
    pub struct ColumnChunk {
        /// 1: file holding the chunk, if not this one (rarely used).
        1: optional file_path: String,
        /// 2: deprecated byte offset of the ColumnMetaData (writers put 0 or a guess).
        #[extra]
        2: required file_offset: i64,
        /// 3: the column metadata (absent when it is encrypted).
        3: optional meta_data: ColumnMetaData,
        /// 4: byte offset of the OffsetIndex.
        4: optional offset_index_offset: i64,
        /// 5: byte length of the OffsetIndex.
        5: optional offset_index_length: i32,
        /// 6: byte offset of the ColumnIndex.
        6: optional column_index_offset: i64,
        /// 7: byte length of the ColumnIndex.
        7: optional column_index_length: i32,
        /// 8: how the chunk is encrypted.
        8: optional crypto_metadata: ColumnCryptoMetaData,
        /// 9: the encrypted ColumnMetaData.
        #[extra]
        9: optional encrypted_column_metadata: Vec<u8>,
    }
}

thrift_struct! {
    /// Everything about one column chunk's data (Thrift struct `ColumnMetaData`).
    #[derive(Debug, Clone, PartialEq)]
    pub struct ColumnMetaData {
        /// 1: physical type.
        1: required type_: PhysicalType,
        /// 2: encodings used in the chunk (levels included).
        #[extra]
        2: required encodings: Vec<Encoding>,
        /// 3: path from the root, one name per level.
        #[extra]
        3: required path_in_schema: Vec<String>,
        /// 4: compression codec.
        4: required codec: CompressionCodec,
        /// 5: number of values, nulls included.
        5: required num_values: i64,
        /// 6: total byte size of the pages uncompressed, headers included.
        #[extra]
        6: required total_uncompressed_size: i64,
        /// 7: total byte size of the pages compressed, headers included.
        7: required total_compressed_size: i64,
        /// 8: application key/value pairs.
        #[extra]
        8: optional key_value_metadata: Vec<KeyValue>,
        /// 9: byte offset of the first data page.
        9: required data_page_offset: i64,
        /// 10: byte offset of the index page (never written in practice).
        #[extra]
        10: optional index_page_offset: i64,
        /// 11: byte offset of the dictionary page.
        11: optional dictionary_page_offset: i64,
        /// 12: statistics of the chunk.
        #[extra]
        12: optional statistics: Statistics,
        /// 13: count of pages per (page type, encoding).
        #[extra]
        13: optional encoding_stats: Vec<PageEncodingStats>,
        /// 14: byte offset of the bloom filter.
        14: optional bloom_filter_offset: i64,
        /// 15: byte length of the bloom filter, header included.
        15: optional bloom_filter_length: i32,
        /// 16: size statistics.
        #[extra]
        16: optional size_statistics: SizeStatistics,
        /// 17: geospatial statistics.
        #[extra]
        17: optional geospatial_statistics: GeospatialStatistics,
    }
}

thrift_struct! {
    /// An application key/value pair (Thrift struct `KeyValue`).
    #[derive(Debug, Clone, PartialEq, Eq, Default)]
    pub struct KeyValue {
        /// 1: key.
        1: required key: String,
        /// 2: value.
        2: optional value: String,
    }
}

thrift_struct! {
    /// One sort key of a row group (Thrift struct `SortingColumn`).
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct SortingColumn {
        /// 1: leaf column index.
        1: required column_idx: i32,
        /// 2: descending order.
        2: required descending: bool,
        /// 3: nulls before values.
        3: required nulls_first: bool,
    }
}

thrift_struct! {
    /// Number of pages of one type and encoding in a chunk (Thrift struct `PageEncodingStats`).
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct PageEncodingStats {
        /// 1: page type.
        1: required page_type: PageType,
        /// 2: encoding of the page's values.
        2: required encoding: Encoding,
        /// 3: number of pages.
        3: required count: i32,
    }
}

thrift_struct! {
    /// `TypeDefinedOrder` (ColumnOrder member TYPE_ORDER).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
    pub struct TypeDefinedOrder {}
}

thrift_struct! {
    /// `IEEE754TotalOrder` (ColumnOrder member IEEE_754_TOTAL_ORDER).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
    pub struct IEEE754TotalOrder {}
}

thrift_struct! {
    /// `Int96TimestampOrder` (ColumnOrder member INT96_TIMESTAMP_ORDER).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
    pub struct Int96TimestampOrder {}
}

/// The order of a column's min/max statistics (Thrift union `ColumnOrder`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ColumnOrder {
    /// Field 1 `TYPE_ORDER`: the order of the logical type, else of the physical type.
    TypeOrder,
    /// Field 2 `IEEE_754_TOTAL_ORDER`: IEEE 754 totalOrder (floating point only).
    Ieee754TotalOrder,
    /// Field 3 `INT96_TIMESTAMP_ORDER`: chronological order of INT96 timestamps.
    Int96TimestampOrder,
    /// A member this crate does not know. Spec: "If the reader does not support the value of
    /// this union, min and max stats for this column should be ignored."
    Unknown {
        /// The union member's field id.
        field_id: i16,
    },
}

impl StructDef for ColumnOrder {
    const NAME: &'static str = "ColumnOrder";
    const IS_UNION: bool = true;
    const FIELDS: &'static [FieldDef] = &[
        FieldDef {
            id: 1,
            name: "TYPE_ORDER",
            ty: Ty::Struct("TypeDefinedOrder"),
            required: false,
        },
        FieldDef {
            id: 2,
            name: "IEEE_754_TOTAL_ORDER",
            ty: Ty::Struct("IEEE754TotalOrder"),
            required: false,
        },
        FieldDef {
            id: 3,
            name: "INT96_TIMESTAMP_ORDER",
            ty: Ty::Struct("Int96TimestampOrder"),
            required: false,
        },
    ];
}

impl ThriftType for ColumnOrder {
    const TY: Ty = Ty::Struct("ColumnOrder");
    const WIRE: u8 = STRUCT;
    fn read(r: &mut Reader<'_>, _: Ctx) -> Result<Self> {
        // Members 1, 2 and 3; another is kept as Unknown (the spec: its statistics are
        // then ignored).
        let id = read_empty_union(
            r,
            "ColumnOrder must have exactly one member",
            "ColumnOrder member is not a struct",
            0b1110,
            true,
        )?;
        Ok(match id {
            1 => ColumnOrder::TypeOrder,
            2 => ColumnOrder::Ieee754TotalOrder,
            3 => ColumnOrder::Int96TimestampOrder,
            field_id => ColumnOrder::Unknown { field_id },
        })
    }
    fn write(&self, w: &mut Writer<'_>) {
        let saved = w.struct_begin();
        let id = match self {
            ColumnOrder::TypeOrder => 1,
            ColumnOrder::Ieee754TotalOrder => 2,
            ColumnOrder::Int96TimestampOrder => 3,
            ColumnOrder::Unknown { field_id } => *field_id,
        };
        write_empty(w, id);
        w.struct_end(saved);
    }
}
