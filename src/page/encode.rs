//! Building pages: levels and values in, a DATA_PAGE (V1), DATA_PAGE_V2 or DICTIONARY_PAGE out,
//! header and body. The writer builds every page of a file here, through one
//! [`PageEncoder`] per column chunk, whose buffers and codec state (a ZSTD context, a Snappy
//! encoder) are reused from page to page.
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
//! parquet-cpp does), so a reader never pays to decompress data that did not compress. Under a
//! codec, V1 levels are written with an RLE run for every run of 8 or more repeats
//! ([`rle::encode_levels_with_length_for_codec`]), which the codec compresses further; without
//! one, in their smallest encoding.
//!
//! A page's bytes are handed out in three parts ([`EncodedPage::parts`]): the header, then the
//! body in at most two pieces, so that values encoded elsewhere ([`PageValues::Encoded`]) are
//! not copied into the page when they are written as they are: a caller writes the parts
//! straight to a file or keeps them.
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
//! use parket::page::encode::{DataPage, PageEncoder, PageValues, PageVersion};
//! use parket::values::ValuesRef;
//! let mut encoder = PageEncoder::new(PageVersion::V1, Codec::Uncompressed, false);
//! let page = encoder.data_page(DataPage {
//!     num_values: 3, num_nulls: 1, num_rows: 3,
//!     rep_levels: &[], max_rep_level: 0, def_levels: &[1, 0, 1], max_def_level: 1,
//!     values: PageValues::Values { values: ValuesRef::Int32(&[1, 3]), encoding: Encoding::Plain },
//!     statistics: None,
//! }).unwrap();
//! assert_eq!(page.to_vec(), [
//!     0x15, 0x00, 0x15, 0x1c, 0x15, 0x1c, 0x2c, 0x15, 0x06, 0x15, 0x00, 0x15, 0x06, 0x15, 0x06,
//!     0x00, 0x00,
//!     0x02, 0x00, 0x00, 0x00, 0x03, 0x05, 0x01, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00,
//! ]);
//! assert_eq!((page.header_len(), page.compressed_page_size()), (17, 14));
//! ```

use alloc::vec::Vec;

use crate::bytes::crc32::Crc32;
use crate::compression::{Codec, Compressor};
#[cfg(feature = "byte-stream-split")]
use crate::encoding::byte_stream_split;
#[cfg(feature = "delta")]
use crate::encoding::{delta_binary_packed, delta_byte_array, delta_length_byte_array};
use crate::encoding::{dictionary, plain, rle};
use crate::error::{Error, Result};
use crate::format::{
    DataPageHeader, DataPageHeaderV2, DictionaryPageHeader, Encoding, PageHeader, PageType,
    Statistics,
};
use crate::values::ValuesRef;

/// Data page format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PageVersion {
    /// DATA_PAGE: levels and values compressed together, levels length-prefixed.
    V1,
    /// DATA_PAGE_V2: levels uncompressed outside the values; num_nulls and num_rows in the
    /// header.
    V2,
}

impl PageVersion {
    /// The page type of a data page of this version.
    pub fn page_type(self) -> PageType {
        match self {
            PageVersion::V1 => PageType::DataPage,
            PageVersion::V2 => PageType::DataPageV2,
        }
    }
}

/// The non-null values of a data page, as the page encoder takes them.
#[derive(Debug, Clone, Copy)]
pub enum PageValues<'a> {
    /// Values for the encoder to encode with `encoding` (PLAIN, RLE for BOOLEAN, the DELTA
    /// encodings, BYTE_STREAM_SPLIT).
    Values {
        /// The values.
        values: ValuesRef<'a>,
        /// Their encoding.
        encoding: Encoding,
    },
    /// RLE_DICTIONARY: ids into a dictionary of `dictionary_len` entries.
    DictionaryIds {
        /// The ids, one per value.
        ids: &'a [u32],
        /// Entries of the dictionary (which sets the ids' bit width).
        dictionary_len: usize,
    },
    /// Values encoded already in `encoding` (a writer PLAIN-encodes byte strings as they
    /// arrive): the page takes the bytes as they are and, written uncompressed, without a
    /// copy.
    Encoded {
        /// The encoded values.
        bytes: &'a [u8],
        /// Their encoding.
        encoding: Encoding,
    },
}

impl PageValues<'_> {
    /// The encoding the header names.
    pub fn encoding(&self) -> Encoding {
        match self {
            PageValues::Values { encoding, .. } | PageValues::Encoded { encoding, .. } => *encoding,
            PageValues::DictionaryIds { .. } => Encoding::RleDictionary,
        }
    }
}

/// A data page's content.
#[derive(Debug, Clone)]
pub struct DataPage<'a> {
    /// Number of level positions (values and nulls).
    pub num_values: u32,
    /// Number of nulls (level positions below `max_def_level`).
    pub num_nulls: u32,
    /// Number of rows (repetition level 0 positions).
    pub num_rows: u32,
    /// Repetition levels (empty when `max_rep_level` is 0).
    pub rep_levels: &'a [u16],
    /// Highest repetition level of the column.
    pub max_rep_level: u16,
    /// Definition levels (empty when `max_def_level` is 0).
    pub def_levels: &'a [u16],
    /// Highest definition level of the column.
    pub max_def_level: u16,
    /// The non-null values.
    pub values: PageValues<'a>,
    /// Statistics for the page header, if any.
    pub statistics: Option<Statistics>,
}

/// Builds the pages of one column chunk, of one page version, codec and CRC choice. Its
/// buffers (the body, the codec's output, the header) and its codec state are reused from
/// page to page: a writer keeps one encoder for all its chunks.
///
/// A page it returns borrows the encoder (and the values of [`PageValues::Encoded`]): write
/// or copy it before the next.
pub struct PageEncoder {
    version: PageVersion,
    codec: Codec,
    with_crc: bool,
    /// Levels and values, uncompressed.
    body: Vec<u8>,
    /// The codec's output (bytes past the last result are scratch).
    compressed: Vec<u8>,
    header: Vec<u8>,
    compressor: Compressor,
}

impl core::fmt::Debug for PageEncoder {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PageEncoder")
            .field("version", &self.version)
            .field("codec", &self.codec)
            .field("with_crc", &self.with_crc)
            .finish_non_exhaustive()
    }
}

/// Where one piece of a page's body is.
#[derive(Debug, Clone, Copy)]
enum Part {
    /// `body[from..to]`.
    Body { from: usize, to: usize },
    /// The first `n` bytes of the codec's output buffer.
    Compressed(usize),
    /// The bytes of [`PageValues::Encoded`].
    Input,
}

/// A page built by a [`PageEncoder`]: its header and body bytes, and its sizes.
#[derive(Debug)]
pub struct EncodedPage<'a> {
    header: PageHeader,
    parts: [&'a [u8]; 3],
    /// Whether the last part is the caller's encoded values, as given.
    ends_with_input: bool,
    uncompressed_page_size: usize,
}

impl<'a> EncodedPage<'a> {
    /// The header as written.
    pub fn header(&self) -> &PageHeader {
        &self.header
    }

    /// The page's bytes in order: the encoded header, then the body in two pieces (either
    /// may be empty).
    pub fn parts(&self) -> [&'a [u8]; 3] {
        self.parts
    }

    /// The page's bytes in one buffer of their exact size.
    pub fn to_vec(&self) -> Vec<u8> {
        self.to_vec_without_input(false)
    }

    /// The page's bytes in one buffer of their exact size, without its end when `detach`
    /// and [`EncodedPage::ends_with_input`]: the caller keeps the buffer of its
    /// [`PageValues::Encoded`] bytes as the page's last part.
    pub fn to_vec_without_input(&self, detach: bool) -> Vec<u8> {
        let [header, first, last] = self.parts;
        let last = if detach && self.ends_with_input {
            &[][..]
        } else {
            last
        };
        let mut bytes = Vec::with_capacity(header.len() + first.len() + last.len());
        bytes.extend_from_slice(header);
        bytes.extend_from_slice(first);
        bytes.extend_from_slice(last);
        bytes
    }

    /// Whether the page ends with all of the [`PageValues::Encoded`] bytes it was given,
    /// uncompressed (and not empty).
    pub fn ends_with_input(&self) -> bool {
        self.ends_with_input
    }

    /// Bytes of the encoded header.
    pub fn header_len(&self) -> usize {
        self.parts[0].len()
    }

    /// Bytes of the body as written (`compressed_page_size`).
    pub fn compressed_page_size(&self) -> usize {
        self.parts[1].len() + self.parts[2].len()
    }

    /// Bytes of the body before compression (`uncompressed_page_size`).
    pub fn uncompressed_page_size(&self) -> usize {
        self.uncompressed_page_size
    }

    /// Header plus body as written.
    pub fn total_compressed(&self) -> usize {
        self.header_len() + self.compressed_page_size()
    }

    /// Header plus body before compression.
    pub fn total_uncompressed(&self) -> usize {
        self.header_len() + self.uncompressed_page_size
    }
}

fn size_i32(n: usize) -> Result<i32> {
    i32::try_from(n).map_err(|_| Error::limit("page size", n as u64, i32::MAX as u64))
}

fn count(n: usize) -> Result<i32> {
    i32::try_from(n).map_err(|_| Error::limit("values in a page", n as u64, i32::MAX as u64))
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

/// Appends `values` encoded with `encoding`.
fn encode_values(values: ValuesRef<'_>, encoding: Encoding, out: &mut Vec<u8>) -> Result<()> {
    match encoding {
        Encoding::Plain => plain::encode(values, out),
        Encoding::Rle => match values {
            ValuesRef::Boolean(b) => {
                rle::encode_booleans(b, out);
                Ok(())
            }
            _ => Err(Error::unsupported("RLE encoding of non-BOOLEAN values")),
        },
        #[cfg(feature = "delta")]
        Encoding::DeltaBinaryPacked => delta_binary_packed::encode(values, out),
        #[cfg(feature = "delta")]
        Encoding::DeltaLengthByteArray => delta_length_byte_array::encode(values, out),
        #[cfg(feature = "delta")]
        Encoding::DeltaByteArray => delta_byte_array::encode(values, out),
        #[cfg(feature = "byte-stream-split")]
        Encoding::ByteStreamSplit => byte_stream_split::encode(values, out),
        #[cfg(feature = "alp")]
        Encoding::Alp => crate::encoding::alp::encode(values, out),
        // An encoding this build leaves out is an error naming its feature (the writer's
        // options refuse it first); the dictionary encodings and BIT_PACKED are not value
        // encodings the writer hands here.
        other => crate::encoding::built_in(other)
            .and_then(|()| Err(Error::unsupported("value encoding for the writer"))),
    }
}

impl PageEncoder {
    /// An encoder of pages of `version`, compressed with `codec`, with a CRC in each header
    /// when `with_crc`.
    pub fn new(version: PageVersion, codec: Codec, with_crc: bool) -> PageEncoder {
        PageEncoder {
            version,
            codec,
            with_crc,
            body: Vec::new(),
            compressed: Vec::new(),
            header: Vec::new(),
            compressor: Compressor::default(),
        }
    }

    /// The same encoder (its buffers and codec state) set up for other pages.
    pub fn reset(&mut self, version: PageVersion, codec: Codec, with_crc: bool) {
        self.version = version;
        self.codec = codec;
        self.with_crc = with_crc;
    }

    /// The page version built.
    pub fn version(&self) -> PageVersion {
        self.version
    }

    /// Builds a data page of the encoder's version. Errors when a count does not fit the
    /// header's i32, the values cannot be encoded as asked, or the codec fails.
    pub fn data_page<'s>(&'s mut self, page: DataPage<'s>) -> Result<EncodedPage<'s>> {
        self.data_page_with(page, None)
    }

    /// Whether this encoder's level runs are those for a codec (Data Page V1 compressed):
    /// how a [`rle::LevelEncoder`] feeding [`PageEncoder::data_page_streamed`] is built.
    pub(crate) fn levels_for_codec(&self) -> bool {
        self.version == PageVersion::V1 && self.codec != Codec::Uncompressed
    }

    /// [`PageEncoder::data_page`] with the levels encoded as they arrived: `rep` and `def`
    /// (built for this encoder, see [`PageEncoder::levels_for_codec`]) stand for
    /// `page.rep_levels` and `page.def_levels`, and are emptied.
    pub(crate) fn data_page_streamed<'s>(
        &'s mut self,
        page: DataPage<'s>,
        rep: &mut rle::LevelEncoder,
        def: &mut rle::LevelEncoder,
    ) -> Result<EncodedPage<'s>> {
        self.data_page_with(page, Some([rep, def]))
    }

    fn data_page_with<'s>(
        &'s mut self,
        page: DataPage<'s>,
        streamed: Option<[&mut rle::LevelEncoder; 2]>,
    ) -> Result<EncodedPage<'s>> {
        let version = self.version();
        let codec = self.codec;
        self.body.clear();
        // Levels: V1 length-prefixed (and shaped for the codec), V2 bare, with their lengths
        // in the header. None for a maximum level of 0.
        let mut level_lens = [0usize; 2];
        let levels = [
            (page.rep_levels, page.max_rep_level),
            (page.def_levels, page.max_def_level),
        ];
        let mut streamed = streamed.map(|[r, d]| [Some(r), Some(d)]);
        for (k, ((levels, max), len)) in levels.into_iter().zip(&mut level_lens).enumerate() {
            let encoder = streamed.as_mut().and_then(|s| s[k].take());
            if max == 0 {
                continue;
            }
            let start = self.body.len();
            let w = rle::bit_width(u64::from(max));
            if let Some(e) = encoder {
                if version == PageVersion::V1 {
                    let at = self.body.len();
                    self.body.extend_from_slice(&[0; 4]);
                    e.finish_into(&mut self.body);
                    let n = u32::try_from(self.body.len() - at - 4).unwrap_or(u32::MAX);
                    self.body[at..at + 4].copy_from_slice(&n.to_le_bytes());
                } else {
                    e.finish_into(&mut self.body);
                }
                *len = self.body.len() - start;
                continue;
            }
            match version {
                PageVersion::V1 if codec == Codec::Uncompressed => {
                    rle::encode_levels_with_length(levels, w, &mut self.body)
                }
                PageVersion::V1 => {
                    rle::encode_levels_with_length_for_codec(levels, w, &mut self.body)
                }
                PageVersion::V2 => rle::encode_levels(levels, w, &mut self.body),
            }
            *len = self.body.len() - start;
        }
        let encoding = page.values.encoding();
        let mut input: &'s [u8] = &[];
        match page.values {
            PageValues::Values { values, encoding } => {
                encode_values(values, encoding, &mut self.body)?
            }
            PageValues::DictionaryIds {
                ids,
                dictionary_len,
            } => dictionary::encode_indices(ids, dictionary_len, &mut self.body),
            PageValues::Encoded { bytes, .. } => input = bytes,
        }
        let (num_values, num_nulls, num_rows) = (
            count(page.num_values as usize)?,
            count(page.num_nulls as usize)?,
            count(page.num_rows as usize)?,
        );
        match version {
            PageVersion::V1 => {
                let mut header = empty_header(PageType::DataPage);
                header.data_page_header = Some(DataPageHeader {
                    num_values,
                    encoding,
                    definition_level_encoding: Encoding::Rle,
                    repetition_level_encoding: Encoding::Rle,
                    statistics: page.statistics,
                });
                self.finish_v1(header, input)
            }
            PageVersion::V2 => {
                let [rep_len, def_len] = level_lens;
                let mut header = empty_header(PageType::DataPageV2);
                header.data_page_header_v2 = Some(DataPageHeaderV2 {
                    num_values,
                    num_nulls,
                    num_rows,
                    encoding,
                    definition_levels_byte_length: size_i32(def_len)?,
                    repetition_levels_byte_length: size_i32(rep_len)?,
                    is_compressed: None,
                    statistics: page.statistics,
                });
                self.finish_v2(header, rep_len + def_len, input)
            }
        }
    }

    /// Builds a DICTIONARY_PAGE of the entries `dictionary`, PLAIN-encoded.
    ///
    /// The header's encoding is PLAIN (what parquet-cpp and parquet-java write for format 2.x;
    /// the deprecated PLAIN_DICTIONARY means the same bytes).
    pub fn dictionary_page(&mut self, dictionary: ValuesRef<'_>) -> Result<EncodedPage<'_>> {
        let mut header = empty_header(PageType::DictionaryPage);
        header.dictionary_page_header = Some(DictionaryPageHeader {
            num_values: count(dictionary.len())?,
            encoding: Encoding::Plain,
            is_sorted: None,
        });
        self.body.clear();
        plain::encode(dictionary, &mut self.body)?;
        let uncompressed = self.body.len();
        let body = if self.codec == Codec::Uncompressed {
            Part::Body {
                from: 0,
                to: uncompressed,
            }
        } else {
            Part::Compressed(self.compress_body(0, &[])?)
        };
        let none = Part::Body { from: 0, to: 0 };
        self.assemble(header, [body, none], &[], uncompressed)
    }

    /// Compresses `self.body[from..]`, or `input` when not empty.
    fn compress_body(&mut self, from: usize, input: &[u8]) -> Result<usize> {
        let input = if input.is_empty() {
            self.body.get(from..).unwrap_or(&[])
        } else {
            input
        };
        self.compressor
            .compress(self.codec, input, &mut self.compressed)
    }

    /// A V1 page of the body (levels, then values) followed by `input`: all compressed
    /// together under a codec.
    fn finish_v1<'s>(
        &'s mut self,
        header: PageHeader,
        mut input: &'s [u8],
    ) -> Result<EncodedPage<'s>> {
        let compressed_len = if self.codec == Codec::Uncompressed {
            None
        } else {
            // The codec needs the body in one piece.
            self.body.extend_from_slice(input);
            input = &[];
            Some(self.compress_body(0, &[])?)
        };
        let uncompressed = self.body.len() + input.len();
        let body = Part::Body {
            from: 0,
            to: self.body.len(),
        };
        let parts = match compressed_len {
            None => [body, Part::Input],
            Some(n) => [Part::Compressed(n), Part::Body { from: 0, to: 0 }],
        };
        self.assemble(header, parts, input, uncompressed)
    }

    /// A V2 page of the body (`levels_len` bytes of levels, then values) followed by
    /// `input`: the values compressed when that makes them smaller.
    fn finish_v2<'s>(
        &'s mut self,
        mut header: PageHeader,
        levels_len: usize,
        mut input: &'s [u8],
    ) -> Result<EncodedPage<'s>> {
        if self.body.len() > levels_len && !input.is_empty() {
            // Values in both: put them in one piece.
            self.body.extend_from_slice(input);
            input = &[];
        }
        let values_len = self.body.len() - levels_len + input.len();
        let mut compressed_len = None;
        if self.codec != Codec::Uncompressed && values_len > 0 {
            let n = self.compress_body(levels_len, input)?;
            if n < values_len {
                compressed_len = Some(n);
            }
        }
        if let Some(h) = header.data_page_header_v2.as_mut() {
            h.is_compressed = Some(compressed_len.is_some());
        }
        let levels = Part::Body {
            from: 0,
            to: levels_len,
        };
        let values = match compressed_len {
            Some(n) => Part::Compressed(n),
            None if input.is_empty() => Part::Body {
                from: levels_len,
                to: self.body.len(),
            },
            None => Part::Input,
        };
        self.assemble(header, [levels, values], input, levels_len + values_len)
    }

    /// Fills in the header's sizes and CRC, encodes it into the header buffer and returns
    /// the page.
    fn assemble<'s>(
        &'s mut self,
        mut header: PageHeader,
        parts: [Part; 2],
        input: &'s [u8],
        uncompressed: usize,
    ) -> Result<EncodedPage<'s>> {
        let PageEncoder {
            body,
            compressed,
            header: header_bytes,
            with_crc,
            ..
        } = self;
        let (body, compressed): (&'s Vec<u8>, &'s Vec<u8>) = (body, compressed);
        let part = |p: Part| -> &'s [u8] {
            match p {
                Part::Body { from, to } => body.get(from..to).unwrap_or(&[]),
                Part::Compressed(n) => compressed.get(..n).unwrap_or(&[]),
                Part::Input => input,
            }
        };
        let (first, last) = (part(parts[0]), part(parts[1]));
        header.uncompressed_page_size = size_i32(uncompressed)?;
        header.compressed_page_size = size_i32(first.len() + last.len())?;
        if *with_crc {
            // Spec: "The CRC is computed on the serialization binary representation of the
            // page (as written to disk), excluding the page header."
            let mut crc = Crc32::new();
            crc.update(first);
            crc.update(last);
            header.crc = Some(crc.finish() as i32);
        }
        header_bytes.clear();
        header.encode(header_bytes);
        let ends_with_input = matches!(parts[1], Part::Input) && !input.is_empty();
        Ok(EncodedPage {
            header,
            parts: [header_bytes, first, last],
            ends_with_input,
            uncompressed_page_size: uncompressed,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bytes::crc32::crc32;
    use crate::format::{CompressionCodec, PhysicalType};
    use crate::limits::Limits;
    use crate::page::decode::{PageColumn, PageDecoder};
    use crate::values::{ByteArrays, Values};
    use alloc::vec;

    #[test]
    fn v2_levels_outside_values() {
        // REPEATED-in-OPTIONAL column, levels rep [0, 1, 0], def [2, 2, 0], values [7, 8].
        // rep at width 1: bit-packed 03 02 (0 1 0); def at width 2: 03 0a 00 (one group of 8
        // levels at 2 bits is 2 bytes: 2 | 2 << 2 | 0 << 4 = 0x0a, then the padding byte).
        let mut encoder = PageEncoder::new(PageVersion::V2, Codec::Uncompressed, true);
        let page = encoder
            .data_page(DataPage {
                num_values: 3,
                num_nulls: 1,
                num_rows: 2,
                rep_levels: &[0, 1, 0],
                max_rep_level: 1,
                def_levels: &[2, 2, 0],
                max_def_level: 2,
                values: PageValues::Values {
                    values: ValuesRef::Int32(&[7, 8]),
                    encoding: Encoding::Plain,
                },
                statistics: None,
            })
            .unwrap();
        let out = page.to_vec();
        let body = &out[page.header_len()..];
        assert_eq!(body, [0x03, 0x02, 0x03, 0x0a, 0x00, 7, 0, 0, 0, 8, 0, 0, 0]);
        let h = page.header().data_page_header_v2.as_ref().unwrap();
        assert_eq!(
            (
                h.repetition_levels_byte_length,
                h.definition_levels_byte_length
            ),
            (2, 3)
        );
        assert_eq!(h.is_compressed, Some(false));
        assert_eq!(page.header().crc, Some(crc32(body) as i32));
        let (back, used) = PageHeader::decode(&out).unwrap();
        assert_eq!((&back, used), (page.header(), page.header_len()));
    }

    #[test]
    fn dictionary_page_header() {
        let mut encoder = PageEncoder::new(PageVersion::V1, Codec::Uncompressed, false);
        let page = encoder
            .dictionary_page(ValuesRef::Int32(&[1, 2, 3]))
            .unwrap();
        let out = page.to_vec();
        // Hand-encoded: type 2, sizes 12, dictionary header { num_values 3, PLAIN }.
        assert_eq!(
            out[..page.header_len()],
            [0x15, 0x04, 0x15, 0x18, 0x15, 0x18, 0x4c, 0x15, 0x06, 0x15, 0x00, 0x00, 0x00]
        );
        assert_eq!(
            out[page.header_len()..],
            [1u8, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0]
        );
    }

    #[test]
    fn dictionary_ids_and_rle_booleans() {
        // Ids 0 1 1 of a 3-entry dictionary at bit width 2: width byte 02, then one
        // bit-packed group (03): 0 | 1 << 2 | 1 << 4 = 0x14, and a zero byte of padding.
        let mut encoder = PageEncoder::new(PageVersion::V1, Codec::Uncompressed, false);
        let page = encoder
            .data_page(DataPage {
                num_values: 3,
                num_nulls: 0,
                num_rows: 3,
                rep_levels: &[],
                max_rep_level: 0,
                def_levels: &[],
                max_def_level: 0,
                values: PageValues::DictionaryIds {
                    ids: &[0, 1, 1],
                    dictionary_len: 3,
                },
                statistics: None,
            })
            .unwrap();
        let h = page.header().data_page_header.as_ref().unwrap();
        assert_eq!(h.encoding, Encoding::RleDictionary);
        assert_eq!(page.parts()[1], [0x02, 0x03, 0x14, 0x00]);
        // RLE booleans (both versions): a 4-byte length, then the hybrid at width 1.
        let page = encoder
            .data_page(DataPage {
                num_values: 2,
                num_nulls: 0,
                num_rows: 2,
                rep_levels: &[],
                max_rep_level: 0,
                def_levels: &[],
                max_def_level: 0,
                values: PageValues::Values {
                    values: ValuesRef::Boolean(&[true, false]),
                    encoding: Encoding::Rle,
                },
                statistics: None,
            })
            .unwrap();
        assert_eq!(page.parts()[1], [2, 0, 0, 0, 0x03, 0x01]);
    }

    /// Every page version, codec and CRC choice, values given or encoded already, through
    /// one encoder (reused buffers and codec state): the page decodes to what went in, the
    /// header's sizes and CRC are those of the bytes, and values passed encoded give the
    /// bytes of the same values passed as values.
    #[test]
    fn pages_decode_to_their_input() {
        let mut codecs = vec![Codec::Uncompressed];
        #[cfg(feature = "snappy")]
        codecs.push(Codec::Snappy);
        #[cfg(feature = "zstd")]
        codecs.push(Codec::Zstd { level: 3 });
        #[cfg(feature = "gzip")]
        codecs.push(Codec::Gzip { level: 6 });
        for codec in codecs {
            for version in [PageVersion::V1, PageVersion::V2] {
                for with_crc in [false, true] {
                    let mut encoder = PageEncoder::new(version, codec, with_crc);
                    for n in [2usize, 3000, 17, 0, 5000] {
                        let def: Vec<u16> = (0..n).map(|i| u16::from(i % 7 != 3)).collect();
                        let mut rep: Vec<u16> = (0..n).map(|i| u16::from(i % 5 != 0)).collect();
                        if let Some(r) = rep.first_mut() {
                            *r = 0;
                        }
                        let non_null = def.iter().filter(|&&d| d == 1).count();
                        let values: ByteArrays = (0..non_null)
                            .map(|i| alloc::format!("v{}", i % 11))
                            .collect();
                        let values = Values::ByteArray(values);
                        let rows = rep.iter().filter(|&&r| r == 0).count();
                        let page = |values| DataPage {
                            num_values: n as u32,
                            num_nulls: (n - non_null) as u32,
                            num_rows: rows as u32,
                            rep_levels: &rep,
                            max_rep_level: 1,
                            def_levels: &def,
                            max_def_level: 1,
                            values,
                            statistics: None,
                        };
                        let given = PageValues::Values {
                            values: values.as_ref(),
                            encoding: Encoding::Plain,
                        };
                        let bytes = encoder.data_page(page(given)).unwrap().to_vec();
                        let mut plain_bytes = Vec::new();
                        plain::encode(values.as_ref(), &mut plain_bytes).unwrap();
                        let encoded = PageValues::Encoded {
                            bytes: &plain_bytes,
                            encoding: Encoding::Plain,
                        };
                        let built = encoder.data_page(page(encoded)).unwrap();
                        let mut joined = built.to_vec_without_input(true);
                        if built.ends_with_input() {
                            joined.extend_from_slice(&plain_bytes);
                        }
                        assert_eq!(joined, bytes, "{codec:?} {version:?} {n}");
                        assert_eq!(built.parts().concat(), bytes);

                        let (header, used) = PageHeader::decode(&bytes).unwrap();
                        let body = &bytes[used..];
                        assert_eq!(header.compressed_page_size as usize, body.len());
                        assert_eq!(header.crc.is_some(), with_crc);
                        if let Some(crc) = header.crc {
                            assert_eq!(crc, crc32(body) as i32);
                        }
                        let column = PageColumn::new(PhysicalType::ByteArray, 0, 1, 1);
                        let spec_codec: CompressionCodec = codec.to_spec();
                        let mut decoder = PageDecoder::new(column, spec_codec, Limits::default());
                        let mut out = column.new_leaf_data();
                        decoder.decode_page(&header, body, &mut out).unwrap();
                        assert_eq!(out.def_levels, def, "{codec:?} {version:?} {n}");
                        assert_eq!(out.rep_levels, rep);
                        assert_eq!(out.values, values);
                    }
                }
            }
        }
    }

    #[cfg(feature = "snappy")]
    #[test]
    fn v2_incompressible_values_stay_raw() {
        let values: Vec<u8> = (0..64u32).map(|i| (i * 97 % 251) as u8).collect();
        let page = |bytes| DataPage {
            num_values: 16,
            num_nulls: 0,
            num_rows: 16,
            rep_levels: &[],
            max_rep_level: 0,
            def_levels: &[],
            max_def_level: 0,
            values: PageValues::Encoded {
                bytes,
                encoding: Encoding::Plain,
            },
            statistics: None,
        };
        let mut encoder = PageEncoder::new(PageVersion::V2, Codec::Snappy, false);
        let built = encoder.data_page(page(&values)).unwrap();
        let h = built.header().data_page_header_v2.as_ref().unwrap();
        assert_eq!(h.is_compressed, Some(false));
        assert!(built.ends_with_input());
        assert_eq!(&built.to_vec()[built.header_len()..], &values[..]);
        let zeros = vec![0u8; 4096];
        let built = encoder.data_page(page(&zeros)).unwrap();
        let h = built.header().data_page_header_v2.as_ref().unwrap();
        assert_eq!(h.is_compressed, Some(true));
        assert!(built.compressed_page_size() < 4096);
        assert_eq!(built.uncompressed_page_size(), 4096);
    }
}
