//! Data page assembly for the column writer, with its buffers reused from page to page.
//!
//! The same bytes as [`crate::page::encode::data_page_v1`] / [`data_page_v2`], built with
//! fewer copies: the column writer encodes the levels and then the values straight into one
//! reused body buffer, the codec writes into a reused output buffer (a ZSTD context and a
//! Snappy encoder are kept across pages instead of set up per page), and the page is copied
//! once, into a buffer of its exact size.
//!
//! Spec: parquet.thrift, `PageHeader` / `DataPageHeader` / `DataPageHeaderV2`:
//!
//! ```text
//! DATA_PAGE    := <PageHeader> compress(<rep levels: u32 len + hybrid>
//!                                       <def levels: u32 len + hybrid> <values>)
//! DATA_PAGE_V2 := <PageHeader> <rep levels: hybrid> <def levels: hybrid>
//!                              <values, compressed when that is smaller>
//! ```
//!
//! Worked example (checked in the tests against `data_page_v1`): an uncompressed V1 page of
//! the INT32 values `1, 2` in an optional column (def levels `1, 1`) has the body
//! `02 00 00 00` (def levels' length) `03 03` (one bit-packed group: header `1 << 1 | 1`, then
//! the bits `1, 1`) `01 00 00 00 02 00 00 00`.
//!
//! [`data_page_v2`]: crate::page::encode::data_page_v2

use alloc::vec::Vec;

use crate::bytes::crc32::crc32;
use crate::compression::{Codec, Compressor};
use crate::error::{Error, Result};
use crate::format::{DataPageHeader, DataPageHeaderV2, Encoding, PageHeader, PageType, Statistics};

/// The header fields of a data page that the column writer knows.
pub(crate) struct PageFields {
    pub num_values: u32,
    pub num_nulls: u32,
    pub num_rows: u32,
    pub encoding: Encoding,
    pub statistics: Option<Statistics>,
}

/// Where the levels and values sit in the body buffer.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BodyLayout {
    /// Bytes of the repetition levels (V2; for V1 0, the levels are part of the values).
    pub rep_len: usize,
    /// Bytes of the definition levels (V2 only, as `rep_len`).
    pub def_len: usize,
}

/// A finished page: its bytes and sizes.
pub(crate) struct AssembledPage {
    /// The page, or with `extra_detached` its start: the page goes on with the `extra`
    /// bytes the caller passed, which it then writes after these from its own buffer.
    pub bytes: Vec<u8>,
    pub extra_detached: bool,
    pub header_len: usize,
    pub compressed_body: usize,
    pub uncompressed_body: usize,
}

/// Reused buffers and codec state of one column writer.
#[derive(Default)]
pub(crate) struct PageAssembler {
    /// Levels and values, uncompressed (encoded into by the column writer).
    pub body: Vec<u8>,
    compressed: Vec<u8>,
    header: Vec<u8>,
    /// Codec state kept across pages (a ZSTD context, a Snappy encoder).
    compressor: Compressor,
}

impl core::fmt::Debug for PageAssembler {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PageAssembler")
            .field("body", &self.body.len())
            .finish_non_exhaustive()
    }
}

fn size_i32(n: usize) -> Result<i32> {
    i32::try_from(n).map_err(|_| Error::limit("page size", n as u64, i32::MAX as u64))
}

fn count(n: u32) -> Result<i32> {
    i32::try_from(n).map_err(|_| Error::limit("values in a page", n as u64, i32::MAX as u64))
}

impl PageAssembler {
    /// Compresses `self.body[from..]`, or `extra` when given.
    fn compress_range(&mut self, codec: Codec, from: usize, extra: &[u8]) -> Result<usize> {
        let input = if extra.is_empty() {
            self.body.get(from..).unwrap_or(&[])
        } else {
            extra
        };
        self.compressor.compress(codec, input, &mut self.compressed)
    }

    /// The page of `self.body` followed by `extra` (levels, each with its 4-byte length, then
    /// values; `extra` lets values kept in a buffer of their own skip a copy) as a DATA_PAGE
    /// (V1), like `data_page_v1`.
    pub fn finish_v1(
        &mut self,
        fields: PageFields,
        codec: Codec,
        with_crc: bool,
        mut extra: &[u8],
        detach: bool,
    ) -> Result<AssembledPage> {
        let compressed_len = if codec == Codec::Uncompressed {
            None
        } else {
            // The codec needs the body in one piece.
            self.body.extend_from_slice(extra);
            extra = &[];
            Some(self.compress_range(codec, 0, &[])?)
        };
        let uncompressed = self.body.len() + extra.len();
        let header = PageHeader {
            type_: PageType::DataPage,
            uncompressed_page_size: 0,
            compressed_page_size: 0,
            crc: None,
            data_page_header: Some(DataPageHeader {
                num_values: count(fields.num_values)?,
                encoding: fields.encoding,
                definition_level_encoding: Encoding::Rle,
                repetition_level_encoding: Encoding::Rle,
                statistics: fields.statistics,
            }),
            index_page_header: None,
            dictionary_page_header: None,
            data_page_header_v2: None,
        };
        let parts: [&[u8]; 2] = match compressed_len {
            None => [&self.body, extra],
            Some(n) => [self.compressed.get(..n).unwrap_or(&[]), &[]],
        };
        let detach = detach && compressed_len.is_none() && !extra.is_empty();
        assemble(
            &mut self.header,
            header,
            parts,
            uncompressed,
            with_crc,
            detach,
        )
    }

    /// The page of `self.body` followed by `extra` (repetition levels, definition levels,
    /// values, laid out as `layout` says) as a DATA_PAGE_V2, like `data_page_v2`: the values
    /// are compressed when that makes them smaller.
    pub fn finish_v2(
        &mut self,
        fields: PageFields,
        layout: BodyLayout,
        codec: Codec,
        with_crc: bool,
        mut extra: &[u8],
        detach: bool,
    ) -> Result<AssembledPage> {
        let levels_len = layout.rep_len + layout.def_len;
        if self.body.len() > levels_len && !extra.is_empty() {
            // Values in both: put them in one piece.
            self.body.extend_from_slice(extra);
            extra = &[];
        }
        let values_len = self.body.len() - levels_len + extra.len();
        let mut compressed_len = None;
        if codec != Codec::Uncompressed && values_len > 0 {
            let n = self.compress_range(codec, levels_len, extra)?;
            if n < values_len {
                compressed_len = Some(n);
            }
        }
        let header = PageHeader {
            type_: PageType::DataPageV2,
            uncompressed_page_size: 0,
            compressed_page_size: 0,
            crc: None,
            data_page_header: None,
            index_page_header: None,
            dictionary_page_header: None,
            data_page_header_v2: Some(DataPageHeaderV2 {
                num_values: count(fields.num_values)?,
                num_nulls: count(fields.num_nulls)?,
                num_rows: count(fields.num_rows)?,
                encoding: fields.encoding,
                definition_levels_byte_length: size_i32(layout.def_len)?,
                repetition_levels_byte_length: size_i32(layout.rep_len)?,
                is_compressed: Some(compressed_len.is_some()),
                statistics: fields.statistics,
            }),
        };
        let (levels, values) = self.body.split_at(levels_len);
        let values = if extra.is_empty() { values } else { extra };
        let parts: [&[u8]; 2] = match compressed_len {
            None => [levels, values],
            Some(n) => [levels, self.compressed.get(..n).unwrap_or(&[])],
        };
        let detach = detach && compressed_len.is_none() && !extra.is_empty();
        let uncompressed = levels_len + values_len;
        assemble(
            &mut self.header,
            header,
            parts,
            uncompressed,
            with_crc,
            detach,
        )
    }
}

/// Header (sizes and CRC filled in) then the body `parts`, in one buffer of exact size;
/// with `detach_last`, without `parts[1]` (the caller writes it).
fn assemble(
    header_buf: &mut Vec<u8>,
    mut header: PageHeader,
    parts: [&[u8]; 2],
    uncompressed: usize,
    with_crc: bool,
    detach_last: bool,
) -> Result<AssembledPage> {
    let body_len = parts[0].len() + parts[1].len();
    header.uncompressed_page_size = size_i32(uncompressed)?;
    header.compressed_page_size = size_i32(body_len)?;
    if with_crc {
        // Spec: "The CRC is computed on the serialization binary representation of the page
        // (as written to disk), excluding the page header."
        let crc = if parts[1].is_empty() {
            crc32(parts[0])
        } else {
            let mut joined = Vec::with_capacity(body_len);
            joined.extend_from_slice(parts[0]);
            joined.extend_from_slice(parts[1]);
            crc32(&joined)
        };
        header.crc = Some(crc as i32);
    }
    header_buf.clear();
    header.encode(header_buf);
    let kept = if detach_last { &[][..] } else { parts[1] };
    let mut bytes = Vec::with_capacity(header_buf.len() + parts[0].len() + kept.len());
    bytes.extend_from_slice(header_buf);
    bytes.extend_from_slice(parts[0]);
    bytes.extend_from_slice(kept);
    Ok(AssembledPage {
        bytes,
        extra_detached: detach_last,
        header_len: header_buf.len(),
        compressed_body: body_len,
        uncompressed_body: uncompressed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::rle;
    use crate::page::encode::{data_page_v1, data_page_v2, DataPage};
    use alloc::vec;

    /// The page's bytes, with the detached `extra` after them.
    fn joined(page: &AssembledPage, extra: &[u8]) -> Vec<u8> {
        let mut v = page.bytes.clone();
        if page.extra_detached {
            v.extend_from_slice(extra);
        }
        v
    }

    /// The assembler against `page::encode`'s reference functions, over both page versions,
    /// the codecs and the CRC, with pages of different sizes through one assembler (reused
    /// buffers and codec state).
    #[test]
    fn same_bytes_as_page_encode() {
        let mut codecs = vec![Codec::Uncompressed];
        #[cfg(feature = "snappy")]
        codecs.push(Codec::Snappy);
        #[cfg(feature = "zstd")]
        codecs.push(Codec::Zstd { level: 3 });
        #[cfg(feature = "gzip")]
        codecs.push(Codec::Gzip { level: 6 });
        for codec in codecs {
            for with_crc in [false, true] {
                let mut asm = PageAssembler::default();
                for n in [2usize, 3000, 17, 0, 5000] {
                    let def: Vec<u16> = (0..n).map(|i| u16::from(i % 7 != 3)).collect();
                    let rep: Vec<u16> = (0..n).map(|i| u16::from(i % 5 != 0)).collect();
                    let values: Vec<u8> = (0..n * 3).map(|i| (i % 11) as u8).collect();
                    let page = DataPage {
                        num_values: n as u32,
                        num_nulls: 1,
                        num_rows: 2,
                        encoding: Encoding::Plain,
                        rep_levels: &rep,
                        max_rep_level: 1,
                        def_levels: &def,
                        max_def_level: 1,
                        values: &values,
                        statistics: None,
                    };
                    let fields = || PageFields {
                        num_values: n as u32,
                        num_nulls: 1,
                        num_rows: 2,
                        encoding: Encoding::Plain,
                        statistics: None,
                    };
                    // V1.
                    let mut expected = Vec::new();
                    let info = data_page_v1(&page, codec, with_crc, &mut expected).unwrap();
                    asm.body.clear();
                    rle::encode_levels_with_length(&rep, 1, &mut asm.body);
                    rle::encode_levels_with_length(&def, 1, &mut asm.body);
                    let split = values.len() / 3;
                    asm.body.extend_from_slice(&values[..split]);
                    let detach = n % 2 == 1;
                    let got = asm
                        .finish_v1(fields(), codec, with_crc, &values[split..], detach)
                        .unwrap();
                    assert_eq!(joined(&got, &values[split..]), expected, "{codec:?} v1 {n}");
                    assert_eq!(got.header_len, info.header_len);
                    assert_eq!(got.uncompressed_body, info.uncompressed_page_size);
                    // V2.
                    let mut expected = Vec::new();
                    let info = data_page_v2(&page, codec, with_crc, &mut expected).unwrap();
                    asm.body.clear();
                    rle::encode_levels(&rep, 1, &mut asm.body);
                    let rep_len = asm.body.len();
                    rle::encode_levels(&def, 1, &mut asm.body);
                    let def_len = asm.body.len() - rep_len;
                    // Values in the body, in `extra`, or split between the two.
                    let split = [0, values.len() / 2, values.len()][n % 3];
                    asm.body.extend_from_slice(&values[..split]);
                    let layout = BodyLayout { rep_len, def_len };
                    let got = asm
                        .finish_v2(fields(), layout, codec, with_crc, &values[split..], detach)
                        .unwrap();
                    assert_eq!(joined(&got, &values[split..]), expected, "{codec:?} v2 {n}");
                    assert_eq!(got.compressed_body, info.compressed_page_size);
                }
            }
        }
    }

    #[test]
    fn worked_example() {
        let mut asm = PageAssembler::default();
        rle::encode_levels_with_length(&[1, 1], 1, &mut asm.body);
        asm.body.extend_from_slice(&[1, 0, 0, 0, 2, 0, 0, 0]);
        assert_eq!(
            asm.body,
            [0x02, 0, 0, 0, 0x03, 0x03, 1, 0, 0, 0, 2, 0, 0, 0]
        );
        let fields = PageFields {
            num_values: 2,
            num_nulls: 0,
            num_rows: 2,
            encoding: Encoding::Plain,
            statistics: None,
        };
        let page = asm
            .finish_v1(fields, Codec::Uncompressed, false, &[], false)
            .unwrap();
        assert_eq!(&page.bytes[page.header_len..], &asm.body[..]);
    }
}
