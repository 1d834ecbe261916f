//! Page headers: `PageHeader` and the per-type headers inside it.
//!
//! Spec: parquet.thrift, `struct PageHeader`; a page is its Thrift-encoded header followed by
//! `compressed_page_size` bytes of data.
//!
//! ```text
//! struct PageHeader {
//!   1: required PageType type   2: required i32 uncompressed_page_size
//!   3: required i32 compressed_page_size   4: optional i32 crc
//!   5: optional DataPageHeader data_page_header   6: optional IndexPageHeader index_page_header
//!   7: optional DictionaryPageHeader dictionary_page_header
//!   8: optional DataPageHeaderV2 data_page_header_v2
//! }
//! ```
//!
//! Worked example: a DICTIONARY_PAGE of 3 PLAIN values, 24 bytes both ways:
//!
//! ```text
//! 15 04        field 1, I32: type = DICTIONARY_PAGE (2), zigzag 4
//! 15 30        field 2, I32: uncompressed_page_size = 24, zigzag 48
//! 15 30        field 3, I32: compressed_page_size = 24
//! 4c           field 7 (delta 4), STRUCT: dictionary_page_header
//!    15 06     field 1, I32: num_values = 3
//!    15 00     field 2, I32: encoding = PLAIN (0)
//!    00        stop
//! 00           stop
//! ```
//!
//! ```
//! use parket::format::{PageHeader, PageType, Encoding};
//! let bytes = [0x15, 0x04, 0x15, 0x30, 0x15, 0x30, 0x4c, 0x15, 0x06, 0x15, 0x00, 0x00, 0x00, 0xAA];
//! let (h, used) = PageHeader::decode(&bytes).unwrap();
//! assert_eq!(used, 13); // the page data starts here
//! assert_eq!(h.type_, PageType::DictionaryPage);
//! let d = h.dictionary_page_header.as_ref().unwrap();
//! assert_eq!((d.num_values, d.encoding), (3, Encoding::Plain));
//! let mut out = Vec::new();
//! h.encode(&mut out);
//! assert_eq!(out, bytes[..13]);
//! ```
//!
//! Sizes and counts stay `i32` as the file says them, negative ones included
//! (`ARROW-RS-GH-6229-DICTHEADER.parquet` has a negative `num_values`): the page reader checks
//! them.

use crate::error::Result;
use crate::format::{Encoding, PageType, Statistics};
use crate::thrift::thrift_struct;

thrift_struct! {
    /// The header of every page (Thrift struct `PageHeader`).
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct PageHeader {
        /// 1: page type.
        1: required type_: PageType,
        /// 2: byte size of the page data uncompressed (V2: levels included).
        2: required uncompressed_page_size: i32,
        /// 3: byte size of the page data as stored.
        3: required compressed_page_size: i32,
        /// 4: CRC32 of the page data as stored.
        4: optional crc: i32,
        /// 5: set for DATA_PAGE.
        5: optional data_page_header: DataPageHeader,
        /// 6: set for INDEX_PAGE.
        6: optional index_page_header: IndexPageHeader,
        /// 7: set for DICTIONARY_PAGE.
        7: optional dictionary_page_header: DictionaryPageHeader,
        /// 8: set for DATA_PAGE_V2.
        8: optional data_page_header_v2: DataPageHeaderV2,
    }
}

impl PageHeader {
    /// Decodes a page header from the start of `buf`: the header and the bytes it took (the
    /// page data follows). Never panics, for any input; nesting is bounded by the default
    /// [`crate::Limits::nesting_depth`].
    pub fn decode(buf: &[u8]) -> Result<(PageHeader, usize)> {
        crate::thrift::decode_prefix(buf, crate::Limits::default().nesting_depth)
    }
}

thrift_struct! {
    /// Header of a DATA_PAGE (Thrift struct `DataPageHeader`).
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct DataPageHeader {
        /// 1: number of values, nulls included.
        1: required num_values: i32,
        /// 2: encoding of the values.
        2: required encoding: Encoding,
        /// 3: encoding of the definition levels.
        3: required definition_level_encoding: Encoding,
        /// 4: encoding of the repetition levels.
        4: required repetition_level_encoding: Encoding,
        /// 5: statistics of the page.
        #[extra]
        5: optional statistics: Statistics,
    }
}

thrift_struct! {
    /// Header of an INDEX_PAGE (Thrift struct `IndexPageHeader`; empty).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
    pub struct IndexPageHeader {}
}

thrift_struct! {
    /// Header of a DICTIONARY_PAGE (Thrift struct `DictionaryPageHeader`).
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct DictionaryPageHeader {
        /// 1: number of dictionary entries.
        1: required num_values: i32,
        /// 2: encoding of the entries (PLAIN, or the deprecated PLAIN_DICTIONARY).
        2: required encoding: Encoding,
        /// 3: whether the entries are sorted.
        #[extra]
        3: optional is_sorted: bool,
    }
}

thrift_struct! {
    /// Header of a DATA_PAGE_V2 (Thrift struct `DataPageHeaderV2`).
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct DataPageHeaderV2 {
        /// 1: number of values, nulls included.
        1: required num_values: i32,
        /// 2: number of nulls.
        2: required num_nulls: i32,
        /// 3: number of rows.
        3: required num_rows: i32,
        /// 4: encoding of the values.
        4: required encoding: Encoding,
        /// 5: byte length of the definition levels (never compressed).
        5: required definition_levels_byte_length: i32,
        /// 6: byte length of the repetition levels (never compressed).
        6: required repetition_levels_byte_length: i32,
        /// 7: whether the values are compressed; absent means true (spec default).
        7: optional is_compressed: bool,
        /// 8: statistics of the page.
        #[extra]
        8: optional statistics: Statistics,
    }
}
