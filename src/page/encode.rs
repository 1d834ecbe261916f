//! Building pages: header + body bytes for DATA_PAGE (V1), DATA_PAGE_V2 and DICTIONARY_PAGE.
//!
//! Spec (README "Data Pages", parquet.thrift):
//!
//! ```text
//! V1 body   = compress( [rep levels: u32 LE length | RLE hybrid]   if max_rep_level > 0
//!                       [def levels: u32 LE length | RLE hybrid]   if max_def_level > 0
//!                       values )
//! V2 body   = rep levels (RLE hybrid, no length) | def levels (same)   never compressed
//!             | values, compressed when is_compressed (absent means true)
//! dict page = compress( PLAIN values )
//! crc       = CRC-32 (gzip's polynomial) of the body exactly as written, header excluded
//! ```
//!
//! `uncompressed_page_size` counts the body before compression (V2: levels included);
//! `compressed_page_size` counts it as written. A V2 page whose values do not shrink under the
//! codec is written uncompressed with `is_compressed = false` (allowed by the spec, and what
//! parquet-cpp does), so a reader never pays to decompress data that did not compress.
//!
//! Worked example: an OPTIONAL INT32 column `[1, null, 3]`, V1, PLAIN, UNCOMPRESSED, no CRC.
//! Definition levels `1 0 1` at bit width 1 are one bit-packed run of 8 values:
//! header `(1 << 1) | 1 = 03`, then the bits `0b00000101 = 05`.
//!
//! ```text
//! header (Thrift compact):
//! 15 00         field 1 i32: type = DATA_PAGE (0)
//! 15 1c         field 2 i32: uncompressed_page_size = 14 (zigzag 28)
//! 15 1c         field 3 i32: compressed_page_size = 14
//! 2c            field 5 (delta 2) struct: data_page_header
//!    15 06      field 1 i32: num_values = 3
//!    15 00      field 2 i32: encoding = PLAIN
//!    15 06      field 3 i32: definition_level_encoding = RLE (3)
//!    15 06      field 4 i32: repetition_level_encoding = RLE
//!    00         stop
//! 00            stop
//! body:
//! 02 00 00 00   def levels length = 2
//! 03 05         bit-packed run of 1 group: levels 1 0 1 (0 0 0 0 0 padding)
//! 01 00 00 00   value 1
//! 03 00 00 00   value 3
//! ```
//!
//! ```
//! use parket::compression::Codec;
//! use parket::format::Encoding;
//! use parket::page::encode::{data_page_v1, DataPage};
//! let mut values = Vec::new();
//! parket::encoding::plain::encode(parket::values::ValuesRef::Int32(&[1, 3]), &mut values).unwrap();
//! let page = DataPage {
//!     num_values: 3, num_nulls: 1, num_rows: 3, encoding: Encoding::Plain,
//!     rep_levels: &[], max_rep_level: 0, def_levels: &[1, 0, 1], max_def_level: 1,
//!     values: &values, statistics: None,
//! };
//! let mut out = Vec::new();
//! let info = data_page_v1(&page, Codec::Uncompressed, false, &mut out).unwrap();
//! assert_eq!(out, [
//!     0x15, 0x00, 0x15, 0x1c, 0x15, 0x1c, 0x2c, 0x15, 0x06, 0x15, 0x00, 0x15, 0x06, 0x15, 0x06,
//!     0x00, 0x00,
//!     0x02, 0x00, 0x00, 0x00, 0x03, 0x05, 0x01, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00,
//! ]);
//! assert_eq!((info.header_len, info.compressed_page_size), (17, 14));
//! ```

use alloc::vec::Vec;

use crate::bytes::crc32::crc32;
use crate::compression::{compress, Codec};
use crate::encoding::rle;
use crate::error::{Error, Result};
use crate::format::{
    DataPageHeader, DataPageHeaderV2, DictionaryPageHeader, Encoding, PageHeader, PageType,
    Statistics,
};

/// A data page's content, its values already encoded.
#[derive(Debug, Clone)]
pub struct DataPage<'a> {
    /// Number of level positions (values and nulls).
    pub num_values: u32,
    /// Number of nulls (level positions below `max_def_level`).
    pub num_nulls: u32,
    /// Number of rows (repetition level 0 positions).
    pub num_rows: u32,
    /// Encoding of `values`.
    pub encoding: Encoding,
    /// Repetition levels (empty when `max_rep_level` is 0).
    pub rep_levels: &'a [u16],
    /// Highest repetition level of the column.
    pub max_rep_level: u16,
    /// Definition levels (empty when `max_def_level` is 0).
    pub def_levels: &'a [u16],
    /// Highest definition level of the column.
    pub max_def_level: u16,
    /// The encoded non-null values.
    pub values: &'a [u8],
    /// Statistics for the page header, if any.
    pub statistics: Option<Statistics>,
}

/// What was appended for one page.
#[derive(Debug, Clone)]
pub struct PageInfo {
    /// The header as written.
    pub header: PageHeader,
    /// Bytes of the encoded header.
    pub header_len: usize,
    /// Bytes of the body as written.
    pub compressed_page_size: usize,
    /// Bytes of the body before compression.
    pub uncompressed_page_size: usize,
}

impl PageInfo {
    /// Header plus body as written.
    pub fn total_compressed(&self) -> usize {
        self.header_len + self.compressed_page_size
    }

    /// Header plus body before compression.
    pub fn total_uncompressed(&self) -> usize {
        self.header_len + self.uncompressed_page_size
    }
}

fn size_i32(n: usize) -> Result<i32> {
    i32::try_from(n).map_err(|_| Error::limit("page size", n as u64, i32::MAX as u64))
}

fn finish(
    mut header: PageHeader,
    body: &[u8],
    uncompressed: usize,
    with_crc: bool,
    out: &mut Vec<u8>,
) -> Result<PageInfo> {
    header.uncompressed_page_size = size_i32(uncompressed)?;
    header.compressed_page_size = size_i32(body.len())?;
    if with_crc {
        // Spec: "The CRC is computed on the serialization binary representation of the page
        // (as written to disk), excluding the page header."
        header.crc = Some(crc32(body) as i32);
    }
    let start = out.len();
    header.encode(out);
    let header_len = out.len() - start;
    out.extend_from_slice(body);
    Ok(PageInfo {
        header,
        header_len,
        compressed_page_size: body.len(),
        uncompressed_page_size: uncompressed,
    })
}

fn empty_header(type_: PageType) -> PageHeader {
    PageHeader {
        type_,
        uncompressed_page_size: 0,
        compressed_page_size: 0,
        crc: None,
        data_page_header: None,
        index_page_header: None,
        dictionary_page_header: None,
        data_page_header_v2: None,
    }
}

fn count(n: u32) -> Result<i32> {
    i32::try_from(n).map_err(|_| Error::limit("values in a page", n as u64, i32::MAX as u64))
}

/// Appends Data Page V1's levels: repetition, then definition levels, each after its 4-byte
/// length, and none for a maximum level of 0. With a codec, every run of 8 or more repeats
/// is an RLE run ([`rle::encode_levels_with_length_for_codec`]): the codec compresses such
/// runs further. Without one, the smallest encoding.
pub(crate) fn v1_levels(levels: [(&[u16], u16); 2], codec: Codec, out: &mut Vec<u8>) {
    for (levels, max) in levels {
        if max == 0 {
            continue;
        }
        let w = rle::bit_width(u64::from(max));
        if codec == Codec::Uncompressed {
            rle::encode_levels_with_length(levels, w, out);
        } else {
            rle::encode_levels_with_length_for_codec(levels, w, out);
        }
    }
}

/// Appends a DATA_PAGE (V1): header, then the compressed levels and values.
pub fn data_page_v1(
    page: &DataPage<'_>,
    codec: Codec,
    with_crc: bool,
    out: &mut Vec<u8>,
) -> Result<PageInfo> {
    let mut raw = Vec::with_capacity(page.values.len() + 8 + page.def_levels.len() / 4);
    let levels = [
        (page.rep_levels, page.max_rep_level),
        (page.def_levels, page.max_def_level),
    ];
    v1_levels(levels, codec, &mut raw);
    raw.extend_from_slice(page.values);
    let mut header = empty_header(PageType::DataPage);
    header.data_page_header = Some(DataPageHeader {
        num_values: count(page.num_values)?,
        encoding: page.encoding,
        definition_level_encoding: Encoding::Rle,
        repetition_level_encoding: Encoding::Rle,
        statistics: page.statistics.clone(),
    });
    if codec == Codec::Uncompressed {
        let n = raw.len();
        return finish(header, &raw, n, with_crc, out);
    }
    let mut body = Vec::with_capacity(raw.len() / 2 + 64);
    compress(codec, &raw, &mut body)?;
    finish(header, &body, raw.len(), with_crc, out)
}

/// Appends a DATA_PAGE_V2: header, the uncompressed levels, then the values (compressed
/// unless that does not make them smaller).
pub fn data_page_v2(
    page: &DataPage<'_>,
    codec: Codec,
    with_crc: bool,
    out: &mut Vec<u8>,
) -> Result<PageInfo> {
    let mut body = Vec::with_capacity(page.values.len() + 8 + page.def_levels.len() / 4);
    if page.max_rep_level > 0 {
        let w = rle::bit_width(page.max_rep_level as u64);
        rle::encode_levels(page.rep_levels, w, &mut body);
    }
    let rep_len = body.len();
    if page.max_def_level > 0 {
        let w = rle::bit_width(page.max_def_level as u64);
        rle::encode_levels(page.def_levels, w, &mut body);
    }
    let def_len = body.len() - rep_len;
    let levels_len = body.len();
    let mut is_compressed = false;
    if codec != Codec::Uncompressed && !page.values.is_empty() {
        compress(codec, page.values, &mut body)?;
        if body.len() - levels_len < page.values.len() {
            is_compressed = true;
        } else {
            body.truncate(levels_len);
        }
    }
    if !is_compressed {
        body.extend_from_slice(page.values);
    }
    let mut header = empty_header(PageType::DataPageV2);
    header.data_page_header_v2 = Some(DataPageHeaderV2 {
        num_values: count(page.num_values)?,
        num_nulls: count(page.num_nulls)?,
        num_rows: count(page.num_rows)?,
        encoding: page.encoding,
        definition_levels_byte_length: size_i32(def_len)?,
        repetition_levels_byte_length: size_i32(rep_len)?,
        is_compressed: Some(is_compressed),
        statistics: page.statistics.clone(),
    });
    finish(header, &body, levels_len + page.values.len(), with_crc, out)
}

/// Appends a DICTIONARY_PAGE of `num_values` PLAIN-encoded entries.
///
/// The header's encoding is PLAIN (what parquet-cpp and parquet-java write for format 2.x;
/// the deprecated PLAIN_DICTIONARY means the same bytes).
pub fn dictionary_page(
    plain_values: &[u8],
    num_values: u32,
    codec: Codec,
    with_crc: bool,
    out: &mut Vec<u8>,
) -> Result<PageInfo> {
    let mut header = empty_header(PageType::DictionaryPage);
    header.dictionary_page_header = Some(DictionaryPageHeader {
        num_values: count(num_values)?,
        encoding: Encoding::Plain,
        is_sorted: None,
    });
    if codec == Codec::Uncompressed {
        return finish(header, plain_values, plain_values.len(), with_crc, out);
    }
    let mut body = Vec::with_capacity(plain_values.len() / 2 + 64);
    compress(codec, plain_values, &mut body)?;
    finish(header, &body, plain_values.len(), with_crc, out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn v2_levels_outside_values() {
        // REPEATED-in-OPTIONAL column, levels rep [0, 1, 0], def [2, 2, 0], values [7, 8].
        // rep at width 1: bit-packed 03 02 (0 1 0); def at width 2: 03 0a 00 (one group of 8
        // levels at 2 bits is 2 bytes: 2 | 2 << 2 | 0 << 4 = 0x0a, then the padding byte).
        let values = [7u8, 0, 0, 0, 8, 0, 0, 0];
        let page = DataPage {
            num_values: 3,
            num_nulls: 1,
            num_rows: 2,
            encoding: Encoding::Plain,
            rep_levels: &[0, 1, 0],
            max_rep_level: 1,
            def_levels: &[2, 2, 0],
            max_def_level: 2,
            values: &values,
            statistics: None,
        };
        let mut out = Vec::new();
        let info = data_page_v2(&page, Codec::Uncompressed, true, &mut out).unwrap();
        let body = &out[info.header_len..];
        assert_eq!(body, [0x03, 0x02, 0x03, 0x0a, 0x00, 7, 0, 0, 0, 8, 0, 0, 0]);
        let h = info.header.data_page_header_v2.as_ref().unwrap();
        assert_eq!(
            (
                h.repetition_levels_byte_length,
                h.definition_levels_byte_length
            ),
            (2, 3)
        );
        assert_eq!(h.is_compressed, Some(false));
        assert_eq!(info.header.crc, Some(crc32(body) as i32));
        let (back, used) = PageHeader::decode(&out).unwrap();
        assert_eq!((back, used), (info.header, info.header_len));
    }

    #[test]
    fn dictionary_page_header() {
        let mut out = Vec::new();
        let plain = [1u8, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0];
        let info = dictionary_page(&plain, 3, Codec::Uncompressed, false, &mut out).unwrap();
        // Hand-encoded: type 2, sizes 12, dictionary header { num_values 3, PLAIN }.
        assert_eq!(
            out[..info.header_len],
            [0x15, 0x04, 0x15, 0x18, 0x15, 0x18, 0x4c, 0x15, 0x06, 0x15, 0x00, 0x00, 0x00]
        );
        assert_eq!(&out[info.header_len..], plain);
    }

    #[cfg(feature = "snappy")]
    #[test]
    fn v2_incompressible_values_stay_raw() {
        let values: Vec<u8> = (0..64u32).map(|i| (i * 97 % 251) as u8).collect();
        let page = DataPage {
            num_values: 16,
            num_nulls: 0,
            num_rows: 16,
            encoding: Encoding::Plain,
            rep_levels: &[],
            max_rep_level: 0,
            def_levels: &[],
            max_def_level: 0,
            values: &values,
            statistics: None,
        };
        let mut out = Vec::new();
        let info = data_page_v2(&page, Codec::Snappy, false, &mut out).unwrap();
        let h = info.header.data_page_header_v2.unwrap();
        assert_eq!(h.is_compressed, Some(false));
        assert_eq!(&out[info.header_len..], &values[..]);
        let zeros = vec![0u8; 4096];
        let page = DataPage {
            values: &zeros,
            ..page
        };
        let mut out = Vec::new();
        let info = data_page_v2(&page, Codec::Snappy, false, &mut out).unwrap();
        assert_eq!(
            info.header.data_page_header_v2.unwrap().is_compressed,
            Some(true)
        );
        assert!(info.compressed_page_size < 4096);
        assert_eq!(info.uncompressed_page_size, 4096);
    }
}
