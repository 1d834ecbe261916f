//! The page index: `ColumnIndex`, `OffsetIndex`, `PageLocation`.
//!
//! Spec: PageIndex.md and parquet.thrift. Both indexes are Thrift structs stored between the
//! row groups and the footer, located by `ColumnChunk.column_index_offset/_length` and
//! `offset_index_offset/_length`.
//!
//! ```text
//! struct PageLocation { 1: required i64 offset  2: required i32 compressed_page_size
//!                       3: required i64 first_row_index }
//! struct OffsetIndex { 1: required list<PageLocation> page_locations
//!                      2: optional list<i64> unencoded_byte_array_data_bytes }
//! struct ColumnIndex { 1: required list<bool> null_pages  2: required list<binary> min_values
//!   3: required list<binary> max_values  4: required BoundaryOrder boundary_order
//!   5: optional list<i64> null_counts  6: optional list<i64> repetition_level_histograms
//!   7: optional list<i64> definition_level_histograms  8: optional list<i64> nan_counts }
//! ```
//!
//! Worked example, an OffsetIndex of one page at offset 4, 20 bytes, first row 0:
//!
//! ```text
//! 19 1c        field 1, LIST: size 1, element type STRUCT
//!    16 08     field 1, I64: offset = 4
//!    15 28     field 2, I32: compressed_page_size = 20
//!    16 00     field 3, I64: first_row_index = 0
//!    00        stop (PageLocation)
//! 00           stop (OffsetIndex)
//! ```
//!
//! ```
//! use parket::format::{OffsetIndex, PageLocation};
//! let bytes = [0x19, 0x1c, 0x16, 0x08, 0x15, 0x28, 0x16, 0x00, 0x00, 0x00];
//! let (oi, used) = OffsetIndex::decode(&bytes).unwrap();
//! assert_eq!(used, bytes.len());
//! assert_eq!(oi.page_locations, [PageLocation { offset: 4, compressed_page_size: 20, first_row_index: 0 }]);
//! ```
//!
//! A bool list element is one byte; the Java and C++ writers write 1 for true and 2 for false
//! (`ColumnIndex.null_pages`), and so does this crate.

use alloc::vec::Vec;

use crate::error::Result;
use crate::format::BoundaryOrder;
use crate::thrift::thrift_struct;

thrift_struct! {
    /// Where one page is (Thrift struct `PageLocation`).
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct PageLocation {
        /// 1: byte offset of the page header in the file.
        1: required offset: i64,
        /// 2: byte size of the page, header included.
        2: required compressed_page_size: i32,
        /// 3: index of the page's first row within the row group.
        3: required first_row_index: i64,
    }
}

thrift_struct! {
    /// The pages of a column chunk (Thrift struct `OffsetIndex`).
    #[derive(Debug, Clone, PartialEq, Eq, Default)]
    pub struct OffsetIndex {
        /// 1: one per page, in order.
        1: required page_locations: Vec<PageLocation>,
        /// 2: unencoded BYTE_ARRAY bytes per page.
        2: optional unencoded_byte_array_data_bytes: Vec<i64>,
    }
}

thrift_struct! {
    /// Min/max and null information per page (Thrift struct `ColumnIndex`).
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct ColumnIndex {
        /// 1: whether each page holds only nulls.
        1: required null_pages: Vec<bool>,
        /// 2: minimum of each page (empty for an all-null page).
        2: required min_values: Vec<Vec<u8>>,
        /// 3: maximum of each page (empty for an all-null page).
        3: required max_values: Vec<Vec<u8>>,
        /// 4: ordering of the minima and maxima across pages.
        4: required boundary_order: BoundaryOrder,
        /// 5: number of nulls per page.
        5: optional null_counts: Vec<i64>,
        /// 6: repetition level histograms, pages concatenated.
        6: optional repetition_level_histograms: Vec<i64>,
        /// 7: definition level histograms, pages concatenated.
        7: optional definition_level_histograms: Vec<i64>,
        /// 8: number of NaNs per page.
        8: optional nan_counts: Vec<i64>,
    }
}

impl ColumnIndex {
    /// Decodes a ColumnIndex from the start of `buf`: the index and the bytes it took.
    /// Never panics, for any input.
    pub fn decode(buf: &[u8]) -> Result<(ColumnIndex, usize)> {
        crate::thrift::decode_prefix(buf, crate::Limits::default().nesting_depth)
    }
}

impl OffsetIndex {
    /// Decodes an OffsetIndex from the start of `buf`: the index and the bytes it took.
    /// Never panics, for any input.
    pub fn decode(buf: &[u8]) -> Result<(OffsetIndex, usize)> {
        crate::thrift::decode_prefix(buf, crate::Limits::default().nesting_depth)
    }
}
