//! Data page assembly for the column writer, with its buffers reused from page to page.
//!
//! The same bytes as [`crate::page::encode::data_page_v1`] / [`data_page_v2`], built with
//! fewer copies: the column writer encodes the levels and then the values straight into one
//! reused body buffer, the codec writes into a reused output buffer (a ZSTD context and a
//! Snappy encoder are kept across pages instead of set up per page), and the page is either
//! written from those buffers straight to the file (a column chunk at the front of its row
//! group) or copied once, into a buffer of its exact size.
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

use crate::bytes::crc32::Crc32;
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

/// Where one part of a finished page's body is.
#[derive(Debug, Clone, Copy)]
enum Part {
    /// `body[from..to]`.
    Body { from: usize, to: usize },
    /// The first `n` bytes of the codec's output buffer.
    Compressed(usize),
    /// The `extra` bytes the caller passed.
    Extra,
}

/// A finished page: its header is in the assembler's header buffer, its body in two parts
/// (see [`PageAssembler::parts`]); and its sizes.
pub(crate) struct AssembledPage {
    parts: [Part; 2],
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
        let body = Part::Body {
            from: 0,
            to: self.body.len(),
        };
        let parts = match compressed_len {
            None => [body, Part::Extra],
            Some(n) => [Part::Compressed(n), Part::Body { from: 0, to: 0 }],
        };
        self.assemble(header, parts, extra, uncompressed, with_crc)
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
        let levels = Part::Body {
            from: 0,
            to: levels_len,
        };
        let values = match compressed_len {
            Some(n) => Part::Compressed(n),
            None if extra.is_empty() => Part::Body {
                from: levels_len,
                to: self.body.len(),
            },
            None => Part::Extra,
        };
        let uncompressed = levels_len + values_len;
        self.assemble(header, [levels, values], extra, uncompressed, with_crc)
    }

    fn part<'s>(&'s self, part: Part, extra: &'s [u8]) -> &'s [u8] {
        match part {
            Part::Body { from, to } => self.body.get(from..to).unwrap_or(&[]),
            Part::Compressed(n) => self.compressed.get(..n).unwrap_or(&[]),
            Part::Extra => extra,
        }
    }

    /// A finished page's bytes, in order: its header, then the two parts of its body.
    /// `extra` is what was passed to `finish_v1` / `finish_v2`.
    pub fn parts<'s>(&'s self, page: &AssembledPage, extra: &'s [u8]) -> [&'s [u8]; 3] {
        [
            &self.header,
            self.part(page.parts[0], extra),
            self.part(page.parts[1], extra),
        ]
    }

    /// A finished page in one buffer of its exact size, or, with `detach` and when the page
    /// ends with all of `extra` uncompressed, without that end: the caller then keeps
    /// `extra`'s own buffer as the page's last part (no copy). Returns the buffer and whether
    /// `extra` was left out.
    pub fn to_bytes(&self, page: &AssembledPage, extra: &[u8], detach: bool) -> (Vec<u8>, bool) {
        let detach = detach && !extra.is_empty() && matches!(page.parts[1], Part::Extra);
        let [header, first, last] = self.parts(page, extra);
        let last = if detach { &[][..] } else { last };
        let mut bytes = Vec::with_capacity(header.len() + first.len() + last.len());
        bytes.extend_from_slice(header);
        bytes.extend_from_slice(first);
        bytes.extend_from_slice(last);
        (bytes, detach)
    }

    /// Fills in the header's sizes and CRC and encodes it into the header buffer.
    fn assemble(
        &mut self,
        mut header: PageHeader,
        parts: [Part; 2],
        extra: &[u8],
        uncompressed: usize,
        with_crc: bool,
    ) -> Result<AssembledPage> {
        let (first, last) = (self.part(parts[0], extra), self.part(parts[1], extra));
        let body_len = first.len() + last.len();
        header.uncompressed_page_size = size_i32(uncompressed)?;
        header.compressed_page_size = size_i32(body_len)?;
        if with_crc {
            // Spec: "The CRC is computed on the serialization binary representation of the
            // page (as written to disk), excluding the page header."
            let mut crc = Crc32::new();
            crc.update(first);
            crc.update(last);
            header.crc = Some(crc.finish() as i32);
        }
        self.header.clear();
        header.encode(&mut self.header);
        Ok(AssembledPage {
            parts,
            header_len: self.header.len(),
            compressed_body: body_len,
            uncompressed_body: uncompressed,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::rle;
    use crate::page::encode::{data_page_v1, data_page_v2, v1_levels, DataPage};
    use alloc::vec;

    /// The page's bytes: its buffer (`extra` detached from it when `detach` allows), with
    /// the detached `extra` after it, and its three parts, which must give the same bytes.
    fn joined(asm: &PageAssembler, page: &AssembledPage, extra: &[u8], detach: bool) -> Vec<u8> {
        let (mut v, detached) = asm.to_bytes(page, extra, detach);
        if detached {
            v.extend_from_slice(extra);
        }
        assert_eq!(v, asm.parts(page, extra).concat());
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
                    v1_levels([(&rep, 1), (&def, 1)], codec, &mut asm.body);
                    let split = values.len() / 3;
                    asm.body.extend_from_slice(&values[..split]);
                    let detach = n % 2 == 1;
                    let got = asm
                        .finish_v1(fields(), codec, with_crc, &values[split..])
                        .unwrap();
                    let bytes = joined(&asm, &got, &values[split..], detach);
                    assert_eq!(bytes, expected, "{codec:?} v1 {n}");
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
                        .finish_v2(fields(), layout, codec, with_crc, &values[split..])
                        .unwrap();
                    let bytes = joined(&asm, &got, &values[split..], detach);
                    assert_eq!(bytes, expected, "{codec:?} v2 {n}");
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
            .finish_v1(fields, Codec::Uncompressed, false, &[])
            .unwrap();
        let (bytes, _) = asm.to_bytes(&page, &[], false);
        assert_eq!(&bytes[page.header_len..], &asm.body[..]);
    }
}
