//! Page decoding: one page's header and body bytes in, levels and values out. Sans-IO.
//!
//! Spec: parquet.thrift, `struct PageHeader` (with `DataPageHeader`, `DataPageHeaderV2` and
//! `DictionaryPageHeader`), and the README of apache/parquet-format, "Data Pages":
//!
//! ```text
//! page        ::= <PageHeader (Thrift compact)> <body: compressed_page_size bytes>
//! DATA_PAGE   body = compress( <repetition levels> <definition levels> <values> )
//!               levels: RLE with a 4-byte LE length prefix (or the deprecated BIT_PACKED),
//!               each present only when the column's max level is > 0
//! DATA_PAGE_V2 body = <repetition levels: repetition_levels_byte_length bytes, RLE, no prefix>
//!                     <definition levels: definition_levels_byte_length bytes, RLE, no prefix>
//!                     <values: compressed only if is_compressed (default true)>
//! DICTIONARY_PAGE body = compress( <num_values PLAIN values> )
//! ```
//!
//! The values section holds only the non-null values: as many as there are definition levels
//! equal to `max_def_level` (all `num_values` when `max_def_level` is 0). Their encoding is the
//! header's `encoding`: PLAIN, PLAIN_DICTIONARY / RLE_DICTIONARY (indices into the chunk's
//! dictionary page), RLE (BOOLEAN only, with a 4-byte length prefix in both page versions),
//! DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT or ALP (FLOAT
//! and DOUBLE).
//!
//! `PageHeader.crc`, when present, is the CRC-32 of the body as stored: "computed on the
//! serialization binary representation of the page (as written to disk), excluding the page
//! header", i.e. after compression, for every page type (V2: levels and values together).
//!
//! # Worked example
//!
//! A V1 page of an OPTIONAL INT32 column (`max_def_level` 1) holding `[1, null, 3]`,
//! UNCOMPRESSED, PLAIN:
//!
//! ```text
//! header (17 bytes, Thrift compact):
//! 15 00        field 1 type: DATA_PAGE (0)
//! 15 1c        field 2 uncompressed_page_size: 14 (zigzag 28)
//! 15 1c        field 3 compressed_page_size: 14
//! 2c           field 5 (delta 2), struct: data_page_header
//!    15 06     num_values: 3 (nulls included)
//!    15 00     encoding: PLAIN
//!    15 06     definition_level_encoding: RLE (3)
//!    15 06     repetition_level_encoding: RLE (absent: max_rep_level is 0)
//!    00        stop
//! 00           stop
//! body (14 bytes):
//! 02 00 00 00  definition levels: 4-byte LE length 2, then the RLE hybrid at bit width 1:
//! 03           bit-packed run header: varint(1 group << 1 | 1)
//! 05           levels 1, 0, 1 (and 5 padding zeros), LSB first: 0b0000_0101
//! 01 00 00 00  value 1 (PLAIN INT32)      two non-null values: two levels equal max_def_level
//! 03 00 00 00  value 3
//! ```
//!
//! ```
//! use parket::format::{CompressionCodec, PageHeader, PhysicalType};
//! use parket::levels::LeafData;
//! use parket::page::decode::{PageColumn, PageDecoder};
//! use parket::values::Values;
//! use parket::Limits;
//!
//! let page = [
//!     0x15, 0x00, 0x15, 0x1c, 0x15, 0x1c, 0x2c, 0x15, 0x06, 0x15, 0x00, 0x15, 0x06, 0x15, 0x06,
//!     0x00, 0x00, // header
//!     0x02, 0x00, 0x00, 0x00, 0x03, 0x05, // definition levels
//!     0x01, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, // values
//! ];
//! let (header, used) = PageHeader::decode(&page).unwrap();
//! assert_eq!(used, 17);
//! let column = PageColumn::new(PhysicalType::Int32, 0, 1, 0);
//! let mut decoder = PageDecoder::new(column, CompressionCodec::Uncompressed, Limits::default());
//! let mut out = LeafData { def_levels: vec![], rep_levels: vec![], values: Values::Int32(vec![]) };
//! let info = decoder.decode_page(&header, &page[used..], &mut out).unwrap();
//! assert_eq!((info.num_values, info.num_non_null), (3, 2));
//! assert_eq!(out.def_levels, [1, 0, 1]);
//! assert!(out.rep_levels.is_empty()); // max_rep_level 0: no repetition levels
//! assert_eq!(out.values, Values::Int32(vec![1, 3]));
//! ```
//!
//! # Robustness
//!
//! [`PageDecoder::decode_page`] never panics, for any header and body. Every count and size
//! from the header is checked before use: negative values are errors, sizes are checked
//! against [`Limits::page_bytes`] (and [`Limits::dictionary_bytes`] for dictionaries)
//! *before* decompressing, `num_values` against [`Limits::values_per_page`]; levels above the
//! column's maximum are errors. Errors inside an uncompressed body carry the byte offset from
//! the start of the body; errors inside decompressed bytes carry no offset (the caller adds
//! the page's).
//!
//! Seen in the wild: parquet-java writes BIT_PACKED in a V1 header's level encoding fields for
//! levels that are absent (max level 0), so levels are decoded only when the max level is
//! above 0. A V2 header may declare level bytes for a column whose max level is 0
//! (`rle_boolean_encoding.parquet`: an RLE run of zeros): they are skipped. A V2 values section
//! of 0 bytes that inflates to 0 bytes is not handed to the codec
//! (`datapage_v2_empty_datapage.snappy.parquet`: 0 bytes is not a valid Snappy stream).

use alloc::vec::Vec;

use crate::bytes::crc32::crc32;
use crate::compression::Decompressor;
#[cfg(feature = "byte-stream-split")]
use crate::encoding::byte_stream_split;
use crate::encoding::dictionary::{Dict, Entries};
use crate::encoding::rle::LevelCounts;
use crate::encoding::{bit_packed, dictionary, plain, rle};
#[cfg(feature = "delta")]
use crate::encoding::{delta_binary_packed, delta_byte_array, delta_length_byte_array};
use crate::error::{Error, ErrorKind, Result};
use crate::format::{
    CompressionCodec, DataPageHeader, DataPageHeaderV2, DictionaryPageHeader, Encoding, PageHeader,
    PageType, PhysicalType,
};
use crate::limits::{reserve, Limits};
use crate::schema::ColumnDescriptor;
use crate::values::{LeafData, Values, ValuesRef};
use alloc::borrow::Cow;
use pending::PendingBytes;

/// What the page layer needs to know about a column: its physical type and its levels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageColumn {
    /// Physical type of the values.
    pub physical_type: PhysicalType,
    /// Byte width of FIXED_LEN_BYTE_ARRAY values (0 for the other types).
    pub type_length: usize,
    /// Largest definition level; 0 means the page has no definition levels.
    pub max_def_level: u16,
    /// Largest repetition level; 0 means the page has no repetition levels.
    pub max_rep_level: u16,
}

impl PageColumn {
    /// A column of `physical_type` (of width `type_length` for FIXED_LEN_BYTE_ARRAY) with
    /// these max levels.
    pub fn new(
        physical_type: PhysicalType,
        type_length: usize,
        max_def_level: u16,
        max_rep_level: u16,
    ) -> Self {
        PageColumn {
            physical_type,
            type_length,
            max_def_level,
            max_rep_level,
        }
    }

    /// Empty values of this column's type.
    pub fn new_values(&self) -> Values {
        Values::new(self.physical_type, self.type_length)
    }

    /// Empty levels and values of this column.
    pub fn new_leaf_data(&self) -> LeafData {
        LeafData {
            def_levels: Vec::new(),
            rep_levels: Vec::new(),
            values: self.new_values(),
        }
    }
}

impl From<&ColumnDescriptor> for PageColumn {
    fn from(c: &ColumnDescriptor) -> Self {
        PageColumn::new(
            c.physical_type,
            c.type_length.unwrap_or(0),
            c.max_def_level,
            c.max_rep_level,
        )
    }
}

/// The kind of a decoded page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PageKind {
    /// A DICTIONARY_PAGE: it became the decoder's dictionary; nothing was appended.
    Dictionary,
    /// A DATA_PAGE (V1).
    DataV1,
    /// A DATA_PAGE_V2.
    DataV2,
    /// An INDEX_PAGE: skipped (no writer produces them; the spec gives them no content).
    Index,
}

/// What one call of [`PageDecoder::decode_page`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageInfo {
    /// The page's kind.
    pub kind: PageKind,
    /// Level positions appended (the data page header's `num_values`, nulls included); for a
    /// dictionary page, its number of entries; 0 for an index page.
    pub num_values: usize,
    /// Values appended (non-null ones); 0 for non-data pages.
    pub num_non_null: usize,
    /// Records that start in the page (repetition level 0); `num_values` when the column is
    /// not repeated. 0 for non-data pages.
    pub num_rows: usize,
}

/// Decodes the pages of one column chunk, in order, keeping the chunk's dictionary and
/// reusing its buffers from page to page.
///
/// The lifetime is that of the page bodies given to [`PageDecoder::decode_borrowed_page`]: a
/// BYTE_ARRAY dictionary page stored uncompressed is kept as a reference to its body.
#[derive(Debug, Clone)]
pub struct PageDecoder<'a> {
    column: PageColumn,
    codec: CompressionCodec,
    limits: Limits,
    verify_crc: bool,
    dictionary: Option<Dictionary<'a>>,
    /// Bytes of the dictionary's longest entry (byte arrays; 0 otherwise), which bounds what
    /// gathering a page copies.
    dict_longest: u64,
    seen_data: bool,
    /// Decompressed page bytes, reused.
    scratch: Vec<u8>,
    /// Dictionary indices, reused.
    indices: Vec<u32>,
    /// Codec state (a ZSTD context), reused.
    decompressor: Decompressor,
    /// A BYTE_ARRAY dictionary page copied or decompressed, reused from chunk to chunk:
    /// see [`Dictionary::Bytes`].
    dict_bytes: Vec<u8>,
    /// Leave dictionary-encoded BYTE_ARRAY pages as indices (see
    /// [`PageDecoder::defer_byte_array_gather`]), and whether the last data page was.
    defer_bytes: bool,
    deferred: bool,
    /// Leave PLAIN fixed-width values encoded (see [`PageDecoder::defer_plain`]), and where
    /// the last data page's are when they were: its values section and how many values.
    defer_plain: bool,
    plain: Option<(PlainSection<'a>, usize)>,
    /// Decompress deferred PLAIN values only as far as they are gathered (see
    /// [`PageDecoder::lazy_plain`]).
    lazy: bool,
    /// The cursor over the last data page's BYTE_ARRAY values when they were left encoded.
    pending: PendingBytes,
    /// Check that every BYTE_ARRAY value handed out is valid UTF-8 (see
    /// [`PageDecoder::check_utf8`]).
    #[cfg(feature = "arrow")]
    utf8: bool,
}

/// Where the PLAIN fixed-width values of a page left encoded are: in the decompressed page
/// bytes (`scratch`), or in a body that outlives the decoder.
#[derive(Debug, Clone)]
enum PlainSection<'a> {
    Scratch(core::ops::Range<usize>),
    Lasting(&'a [u8]),
    /// SNAPPY values decompressed into `scratch` as far as the gathers have asked
    /// ([`PageDecoder::lazy_plain`]): `input` is the compressed section, the values start at
    /// `start` in the decompressed bytes.
    #[cfg(feature = "snappy")]
    Lazy {
        input: &'a [u8],
        prefix: crate::compression::SnappyPrefix,
        start: usize,
    },
}

/// A page decompressed lazily ([`PageDecoder::lazy_plain`]) whose gathers must go on
/// decoding this fraction of it (numerator, denominator) or more is decompressed whole at
/// once: parket's prefix decoder takes about 1.4 times `snap`'s instructions per byte on such
/// pages (callgrind, the 10M-row lookup file's `value` pages, Snappy elements of 4 to 16
/// bytes: 10.4 against 7.3 per decompressed byte), so a part under 7/10 is cheaper.
#[cfg(feature = "snappy")]
const LAZY_WHOLE: (usize, usize) = (7, 10);

/// A chunk whose last lazily decompressed page was decompressed past this fraction of it in
/// the end decompresses its next pages whole ([`PageDecoder::end_lazy_page`]): its gathers
/// go far into every page. Lower than [`LAZY_WHOLE`]: with [`LAZY_WHOLE`] here, the lookup
/// bench's string query (two rows kept per page, all over it) took 1.2% more instructions.
#[cfg(feature = "snappy")]
const LAZY_CHUNK_WHOLE: (usize, usize) = (2, 5);

/// The smallest BYTE_ARRAY dictionary page kept in place ([`Dictionary::Bytes`]).
const IN_PLACE_BYTES: usize = 1024;

/// A chunk's dictionary, as the decoder holds it.
#[derive(Debug, Clone)]
enum Dictionary<'a> {
    /// Decoded: every type but BYTE_ARRAY, and BYTE_ARRAY pages under [`IN_PLACE_BYTES`]
    /// (all of them in builds for size).
    Values(Values),
    /// BYTE_ARRAY: the PLAIN page as it is (a decompressed one followed by stale bytes of
    /// an earlier page, which no entry reaches), with where each entry's length prefix starts and
    /// the last entry ends ([`Entries::plain`]); gathers copy the entries from there. The
    /// page is borrowed when its body outlives the decoder and is stored uncompressed, and
    /// is otherwise copied or decompressed into a buffer that a reader hands from chunk to
    /// chunk (`dict_bytes`). Decoding the entries into fresh [`Values`] instead touched up
    /// to a megabyte of new memory per chunk (pyarrow's dictionary page limit), which the
    /// system had to map for every file read. [`PageDecoder::dictionary`] decodes a copy
    /// when asked.
    Bytes {
        page: Cow<'a, [u8]>,
        starts: Vec<usize>,
    },
}

impl Dictionary<'_> {
    /// The dictionary as the gathers read it.
    fn dict(&self) -> Dict<'_> {
        match self {
            Dictionary::Values(v) => Dict::from(v.as_ref()),
            Dictionary::Bytes { page, starts, .. } => Dict::Bytes(Entries::plain(starts, page)),
        }
    }

    /// The dictionary as [`Values`]: borrowed when it was decoded, a copy when it is read
    /// in place.
    fn values(&self) -> Cow<'_, Values> {
        match self {
            Dictionary::Values(v) => Cow::Borrowed(v),
            Dictionary::Bytes { page, starts } => Cow::Owned(Values::ByteArray(
                Entries::plain(starts, page).to_byte_arrays(),
            )),
        }
    }
}

/// What a [`PageDecoder`] reuses from page to page: decompressed page bytes, dictionary
/// indices, codec state, and from chunk to chunk the bytes of a BYTE_ARRAY dictionary page
/// ([`Dictionary::Bytes`]).
pub(crate) type DecoderBuffers = (Vec<u8>, Vec<u32>, Decompressor, Vec<u8>);

/// Where a data page's values section starts, for [`PageDecoder::defer_plain`]: at an
/// offset in the decompressed bytes, or in the body when it outlives the decoder.
enum PlainAt<'a> {
    Scratch(usize),
    Lasting(Option<&'a [u8]>),
}

/// The bytes of one PLAIN value of `out`'s kind when they are fixed (not BOOLEAN, BYTE_ARRAY).
fn plain_width(out: &Values) -> Option<usize> {
    match out {
        Values::Int32(_) | Values::Float(_) => Some(4),
        Values::Int64(_) | Values::Double(_) => Some(8),
        Values::Int96(_) => Some(12),
        Values::FixedLenByteArray(f) => Some(f.width()),
        Values::Boolean(_) | Values::ByteArray(_) => None,
    }
}

/// Converts a count or size from a header to `usize`: negative values are errors.
fn non_negative(v: i32, what: &'static str) -> Result<usize> {
    usize::try_from(v).map_err(|_| Error::out_of_range(what, v.into()))
}

/// Drops the byte offset of an error found in decompressed bytes (it is not a file offset).
#[cold]
fn without_offset(e: Error) -> Error {
    e.without_offset()
}

/// Maps the errors of a section of the page: offsets count from `base` within the body when
/// the section is stored as is, and are dropped when it was decompressed.
fn locate(e: Error, decompressed: bool, base: usize) -> Error {
    if decompressed {
        without_offset(e)
    } else {
        e.offset_by(base as u64)
    }
}

/// Decompresses one section of `size` bytes, or borrows it when it is stored as is. A 0-byte
/// section of a 0-byte result is not handed to the codec.
fn section<'a>(
    codec: CompressionCodec,
    input: &'a [u8],
    size: usize,
    limits: &Limits,
    scratch: &'a mut Vec<u8>,
    decompressor: &mut Decompressor,
) -> Result<(&'a [u8], bool)> {
    if codec == CompressionCodec::Uncompressed {
        return Ok((input, false));
    }
    // Spec: sizes from the header are promises; check before allocating.
    limits.check_page_bytes(size as u64)?;
    if size == 0 && input.is_empty() {
        return Ok((&scratch[..0], true));
    }
    // Over the bytes of the page before: the buffer is zeroed once, where it grows.
    decompressor
        .decompress_over(codec, input, size, scratch)
        .map_err(without_offset)?;
    Ok((&scratch[..size], true))
}

/// Bytes of a decoded dictionary, as held in memory.
fn decoded_bytes(v: &Values) -> u64 {
    let n = v.len() as u64;
    match v.as_ref() {
        ValuesRef::Boolean(_) => n,
        ValuesRef::Int32(_) | ValuesRef::Float(_) => 4 * n,
        ValuesRef::Int64(_) | ValuesRef::Double(_) => 8 * n,
        ValuesRef::Int96(_) => 12 * n,
        ValuesRef::ByteArray(b) => b.total_bytes() as u64 + 8 * n,
        ValuesRef::FixedLenByteArray(f) => f.data().len() as u64,
    }
}

impl<'a> PageDecoder<'a> {
    /// A decoder for the pages of one column chunk of `column`, compressed with `codec`.
    /// Page CRCs are verified by default.
    pub fn new(column: PageColumn, codec: CompressionCodec, limits: Limits) -> Self {
        PageDecoder {
            column,
            codec,
            limits,
            verify_crc: true,
            dictionary: None,
            dict_longest: 0,
            seen_data: false,
            scratch: Vec::new(),
            indices: Vec::new(),
            decompressor: Decompressor::default(),
            dict_bytes: Vec::new(),
            defer_bytes: false,
            deferred: false,
            defer_plain: false,
            plain: None,
            lazy: false,
            pending: PendingBytes::default(),
            #[cfg(feature = "arrow")]
            utf8: false,
        }
    }

    /// With `check` (set before the first page), every BYTE_ARRAY value this decoder hands
    /// out is checked to be valid UTF-8 on its own, for a reader that hands the values out as
    /// text without checking them again (the Arrow reader's `Utf8` arrays): a dictionary's
    /// entries once, when its page is read (a gather copies whole entries), the values of
    /// the other encodings as they are written out (DELTA_BYTE_ARRAY's once put together
    /// from their prefix and suffix, either of which may cut a char). A value that is not
    /// is an [`ErrorKind::OutOfSpec`] error of its page.
    #[cfg(feature = "arrow")]
    pub(crate) fn check_utf8(&mut self, check: bool) {
        self.utf8 = check && self.column.physical_type == PhysicalType::ByteArray;
    }

    /// Checks the BYTE_ARRAY values of `out` from value `first` on (those just written) when
    /// the decoder checks UTF-8 ([`PageDecoder::check_utf8`]).
    #[cfg(feature = "arrow")]
    fn check_utf8_from(&self, out: &Values, first: usize) -> Result<()> {
        match out {
            Values::ByteArray(b) if self.utf8 => {
                let (offsets, data) = b.as_ref().parts();
                let run = offsets.get(first..).unwrap_or(&[]);
                match crate::bytes::utf8::values_valid(run, data) {
                    true => Ok(()),
                    false => Err(not_utf8(
                        "a BYTE_ARRAY value read as a string is not valid UTF-8",
                    )),
                }
            }
            _ => Ok(()),
        }
    }

    /// With `defer`, the values of a data page that are PLAIN and of a fixed width (INT32,
    /// INT64, INT96, FLOAT, DOUBLE, FIXED_LEN_BYTE_ARRAY) are left where they are, in the
    /// decompressed page or the body (their length checked: a section too short for them
    /// decodes as usual, into its error): the caller copies the ones it wants with
    /// [`PageDecoder::gather_plain`]. A scan taking a few rows of a page then decodes those,
    /// not the page, and one taking every row copies them once instead of twice. Bodies that
    /// neither outlive the decoder nor were decompressed are decoded as usual. So are
    /// BYTE_ARRAY values in PLAIN, DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY, checked
    /// whole when the page is read (an error is the page's), then written a range at a time,
    /// in order (the `pending` module).
    ///
    /// Builds for size (`cfg(parket_opt_size)`) never defer: whole pages, less code.
    pub(crate) fn defer_plain(&mut self, defer: bool) {
        self.defer_plain = defer && variant::DEFERS;
    }

    /// With `on` (and [`PageDecoder::defer_plain`]), the PLAIN fixed-width values of a
    /// SNAPPY page whose body outlives the decoder (flat columns: no repetition levels; V1
    /// definition levels in RLE) are decompressed only as far as
    /// [`PageDecoder::gather_plain`] asks: a scan taking a few rows near a page's start
    /// decompresses those, not the page (Snappy's output is sequential). The body's CRC is
    /// still checked whole; a corrupt stream past the bytes gathered goes unseen. For the
    /// columns a scan reads only at the rows its predicate kept.
    pub(crate) fn lazy_plain(&mut self, on: bool) {
        self.lazy = on;
    }

    /// Before the next data page: when the last page decompressed lazily was decompressed
    /// past [`LAZY_CHUNK_WHOLE`] of it in the end, the chunk's gathers reach far into its pages
    /// (many rows kept, or rows all over each page), and its next pages are decompressed
    /// whole, by `snap`, which costs less than parket's prefix decoder on most of a page. A
    /// chunk read at a row or two keeps decompressing lazily.
    fn end_lazy_page(&mut self) {
        #[cfg(feature = "snappy")]
        if let (true, Some((PlainSection::Lazy { prefix, .. }, _))) = (variant::DEFERS, &self.plain)
        {
            let far = prefix.len().saturating_mul(LAZY_CHUNK_WHOLE.1);
            if far >= prefix.total().saturating_mul(LAZY_CHUNK_WHOLE.0) {
                self.lazy = false;
            }
        }
    }

    /// The width of the values of a page [`PageDecoder::lazy_plain`] decompresses lazily.
    #[cfg(feature = "snappy")]
    fn lazy_width(
        &self,
        encoding: Encoding,
        codec: CompressionCodec,
        out: &Values,
    ) -> Option<usize> {
        // Builds for size never defer, so never decompress lazily (less code).
        let on = variant::DEFERS && self.lazy && self.defer_plain && encoding == Encoding::Plain;
        let on = on && codec == CompressionCodec::Snappy;
        on.then(|| plain_width(out)).flatten().filter(|&w| w > 0)
    }

    /// A V1 page of [`PageDecoder::lazy_plain`]: its levels decompressed and decoded, its
    /// values left compressed. `None` when it is not such a page.
    #[cfg(feature = "snappy")]
    fn lazy_v1(
        &mut self,
        h: &DataPageHeader,
        uncompressed: usize,
        lasting: Option<&'a [u8]>,
        out: &mut LeafData,
        n: usize,
    ) -> Result<Option<PageInfo>> {
        let col = self.column;
        let (Some(width), Some(input)) = (
            self.lazy_width(h.encoding, self.codec, &out.values),
            lasting,
        ) else {
            return Ok(None);
        };
        if col.max_rep_level > 0
            || (col.max_def_level > 0 && h.definition_level_encoding != Encoding::Rle)
        {
            return Ok(None);
        }
        self.limits.check_page_bytes(uncompressed as u64)?;
        let scratch = &mut self.scratch;
        let mut prefix = crate::compression::SnappyPrefix::new(input, uncompressed, scratch)
            .map_err(without_offset)?;
        let mut pos = 0;
        let mut def_counts = LevelCounts::default();
        if col.max_def_level > 0 {
            // RLE levels: a 4-byte length, then that many bytes.
            prefix.extend(input, scratch, 4).map_err(without_offset)?;
            let len = match scratch.get(..4.min(prefix.len())) {
                Some(&[a, b, c, d]) => u32::from_le_bytes([a, b, c, d]) as usize,
                _ => 0,
            };
            prefix
                .extend(input, scratch, len.saturating_add(4))
                .map_err(without_offset)?;
            let max = col.max_def_level;
            let levels = scratch.get(..prefix.len()).unwrap_or(&[]);
            let (used, counts) = v1_levels(Encoding::Rle, levels, max, n, max, &mut out.def_levels)
                .map_err(without_offset)?;
            pos = used;
            def_counts = counts;
        }
        let (non_null, rows) = level_counts(&col, n, def_counts, LevelCounts::default())?;
        let room = uncompressed.saturating_sub(pos);
        if non_null.checked_mul(width).is_none_or(|len| len > room) {
            return Err(Error::truncated(
                "PLAIN values",
                non_null.saturating_mul(width) as u64,
                room as u64,
            ));
        }
        let section = PlainSection::Lazy {
            input,
            prefix,
            start: pos,
        };
        self.plain = Some((section, non_null));
        Ok(Some(PageInfo {
            kind: PageKind::DataV1,
            num_values: n,
            num_non_null: non_null,
            num_rows: rows,
        }))
    }

    /// How many values the last data page left encoded (see [`PageDecoder::defer_plain`]).
    pub(crate) fn deferred_plain(&self) -> Option<usize> {
        let plain = self.plain.as_ref().filter(|_| variant::DEFERS);
        plain.map(|(_, n)| *n)
    }

    /// Appends the values `range` of the last data page's deferred values (see
    /// [`PageDecoder::defer_plain`]) to `out`. BYTE_ARRAY ranges are taken in order (one
    /// before the last taken starts the page again).
    /// A lazily decompressed page ([`PageDecoder::lazy_plain`]) is decompressed as far as
    /// `range` ends, or whole when the caller's gathers `reach` (a value ordinal) at least
    /// [`LAZY_WHOLE`] of the page past what is decoded (the levels before the values, on a
    /// page's first gather): `snap`, the faster decoder on whole streams, then pays less
    /// than parket's prefix decoder on the part. (The levels were decoded first, so a rule
    /// asking for nothing decoded yet never chose `snap` on pages with levels.)
    #[cfg_attr(not(feature = "snappy"), allow(unused_variables))]
    pub(crate) fn gather_plain(
        &mut self,
        range: core::ops::Range<usize>,
        reach: usize,
        out: &mut Values,
    ) -> Result<()> {
        let Some((section, n)) = &mut self.plain else {
            return Err(Error::invalid_argument("no deferred PLAIN values"));
        };
        #[cfg(feature = "snappy")]
        if let (
            true,
            PlainSection::Lazy {
                input,
                prefix,
                start,
            },
        ) = (variant::DEFERS, &mut *section)
        {
            // Checked when the page was read: `n` values of this width fit the section.
            let width = plain_width(out).unwrap_or(0);
            let want = *start + range.end.min(*n) * width;
            let reach = *start + reach.max(range.end).min(*n) * width;
            let far = reach.saturating_sub(prefix.len());
            if far.saturating_mul(LAZY_WHOLE.1) >= prefix.total().saturating_mul(LAZY_WHOLE.0) {
                prefix.whole(input, &mut self.scratch)
            } else {
                prefix.extend(input, &mut self.scratch, want)
            }
            .map_err(without_offset)?;
        }
        let bytes = match section {
            PlainSection::Scratch(r) => self.scratch.get(r.clone()).unwrap_or(&[]),
            PlainSection::Lasting(b) => b,
            #[cfg(feature = "snappy")]
            PlainSection::Lazy { start, prefix, .. } => {
                self.scratch.get(*start..prefix.len()).unwrap_or(&[])
            }
        };
        #[cfg(feature = "arrow")]
        let first = out.len();
        if let (true, Values::ByteArray(b)) = (self.pending.is_loaded(), &mut *out) {
            self.pending.take(bytes, range, b)?;
        } else {
            let end = range.end.min(*n);
            let start = range.start.min(end);
            let width = plain_width(out).unwrap_or(0);
            let from = bytes.get(start.saturating_mul(width)..).unwrap_or(&[]);
            out.try_reserve(end - start, 0)?;
            plain::decode(from, end - start, out)?;
        }
        #[cfg(feature = "arrow")]
        self.check_utf8_from(out, first)?;
        Ok(())
    }

    /// Leaves the `n` values of `data` (a data page's values section, at `at` in the
    /// decompressed bytes or `lasting`) encoded when the decoder defers them: PLAIN ones of
    /// a fixed width when they are all there, BYTE_ARRAY ones of the encodings
    /// [`PendingBytes`] takes once they are checked (an error is the page's); true when it did.
    fn defer_plain_values(
        &mut self,
        encoding: Encoding,
        data_len: usize,
        n: usize,
        at: PlainAt<'a>,
        out: &Values,
    ) -> Result<bool> {
        // `variant::DEFERS` first: builds for size then link none of what follows.
        if !(variant::DEFERS && self.defer_plain) {
            return Ok(false);
        }
        let bytes = matches!(out, Values::ByteArray(_)) && PendingBytes::defers(encoding);
        if !bytes {
            if encoding != Encoding::Plain {
                return Ok(false);
            }
            let Some(width) = plain_width(out).filter(|&w| w > 0) else {
                return Ok(false);
            };
            if n.checked_mul(width).is_none_or(|len| len > data_len) {
                return Ok(false); // decoded as usual, into its error
            }
        }
        let section = match at {
            PlainAt::Scratch(start) => PlainSection::Scratch(start..start + data_len),
            PlainAt::Lasting(Some(b)) => PlainSection::Lasting(b),
            PlainAt::Lasting(None) => return Ok(false),
        };
        if bytes {
            let input = match &section {
                PlainSection::Scratch(r) => self.scratch.get(r.clone()).unwrap_or(&[]),
                PlainSection::Lasting(b) => b,
                #[cfg(feature = "snappy")]
                PlainSection::Lazy { .. } => &[],
            };
            self.pending
                .load(encoding, input, n, self.limits.page_bytes)?;
        }
        self.plain = Some((section, n));
        Ok(true)
    }

    /// With `defer`, a dictionary-encoded BYTE_ARRAY data page is decoded into its indices
    /// only (checked against the dictionary and the page limit), and its values are left for
    /// the caller to gather from [`PageDecoder::deferred_indices`]: a reader handing out
    /// batches gathers one batch at a time, since a page's strings can be many times its
    /// bytes, and gathering them all at once costs memory the batches do not need.
    ///
    /// Builds for size (`cfg(parket_opt_size)`) never defer: whole pages, less code.
    pub(crate) fn defer_byte_array_gather(&mut self, defer: bool) {
        self.defer_bytes = defer && variant::DEFERS;
    }

    /// Swaps the indices of the last data page, when its values were deferred (see
    /// [`PageDecoder::defer_byte_array_gather`]), with `into`, whose buffer the decoder then
    /// reuses; false (nothing swapped) when they were not. The page's values are then
    /// `dictionary[i]` for each of `into`.
    pub(crate) fn swap_deferred_indices(&mut self, into: &mut Vec<u32>) -> bool {
        if !(self.deferred && variant::DEFERS && self.dictionary.is_some()) {
            return false;
        }
        core::mem::swap(&mut self.indices, into);
        // The indices are the caller's now.
        self.deferred = false;
        true
    }

    /// The indices of the last data page when its values were deferred (see
    /// [`PageDecoder::defer_byte_array_gather`]): its values are `dictionary[i]` for each.
    pub(crate) fn deferred_indices(&self) -> Option<&[u32]> {
        (self.deferred && variant::DEFERS).then_some(&self.indices[..])
    }

    /// Takes `scratch` (decompressed pages), `indices` (dictionary indices), a decompressor
    /// and `dict_bytes` (a dictionary page's bytes) as what this decoder reuses, so that a
    /// caller reading many chunks keeps one set (buffer contents are discarded).
    pub(crate) fn with_buffers(
        mut self,
        (scratch, indices, decompressor, dict_bytes): DecoderBuffers,
    ) -> Self {
        self.scratch = scratch;
        self.indices = indices;
        self.decompressor = decompressor;
        self.dict_bytes = dict_bytes;
        self.plain = None;
        self
    }

    /// Gives back what [`PageDecoder::with_buffers`] takes.
    pub(crate) fn into_buffers(self) -> DecoderBuffers {
        let dict_bytes = match self.dictionary {
            Some(Dictionary::Bytes {
                page: Cow::Owned(bytes),
                ..
            }) => bytes,
            _ => self.dict_bytes,
        };
        (self.scratch, self.indices, self.decompressor, dict_bytes)
    }

    /// Whether `PageHeader.crc` is checked when a page has one.
    #[cfg(feature = "encryption")]
    pub(crate) fn verifies_crc(&self) -> bool {
        self.verify_crc
    }

    /// Whether to check `PageHeader.crc` when a page has one (default true).
    pub fn verify_crc(mut self, verify: bool) -> Self {
        self.verify_crc = verify;
        self
    }

    /// The column this decoder decodes.
    pub fn column(&self) -> &PageColumn {
        &self.column
    }

    /// The chunk's dictionary, once its dictionary page was decoded: borrowed, or, for a
    /// BYTE_ARRAY dictionary read in place from its page, decoded into a copy on each call.
    pub fn dictionary(&self) -> Option<Cow<'_, Values>> {
        self.dictionary.as_ref().map(Dictionary::values)
    }

    /// The chunk's dictionary as the gathers read it (its longest entry measured once, when
    /// its page was decoded).
    pub(crate) fn dict(&self) -> Option<Dict<'_>> {
        let longest = self.dict_longest as usize;
        self.dictionary
            .as_ref()
            .map(|d| d.dict().with_longest(longest))
    }

    /// Decodes one page: `header` and its `body` (exactly `compressed_page_size` bytes).
    ///
    /// A data page appends its levels (only those whose max level is above 0) and its
    /// non-null values to `out`, whose values must be of the column's type; a dictionary page
    /// becomes the dictionary of the following pages; an index page is skipped. On error, `out`
    /// may hold part of the page.
    ///
    /// Never panics, for any input. Work and allocation are bounded by the body length, the
    /// limits and `num_values` (checked against [`Limits::values_per_page`]).
    pub fn decode_page(
        &mut self,
        header: &PageHeader,
        body: &[u8],
        out: &mut LeafData,
    ) -> Result<PageInfo> {
        self.decode(header, body, None, out)
    }

    /// [`PageDecoder::decode_page`] for a body that outlives the decoder (a slice of the
    /// file in memory): a BYTE_ARRAY dictionary page stored uncompressed is kept by
    /// reference instead of copied.
    pub fn decode_borrowed_page(
        &mut self,
        header: &PageHeader,
        body: &'a [u8],
        out: &mut LeafData,
    ) -> Result<PageInfo> {
        self.decode(header, body, Some(body), out)
    }

    /// Decodes a page; `lasting` is `body` when it outlives the decoder.
    fn decode(
        &mut self,
        header: &PageHeader,
        body: &[u8],
        lasting: Option<&'a [u8]>,
        out: &mut LeafData,
    ) -> Result<PageInfo> {
        let compressed = non_negative(header.compressed_page_size, "compressed_page_size")?;
        let uncompressed = non_negative(header.uncompressed_page_size, "uncompressed_page_size")?;
        if body.len() != compressed {
            return Err(Error::truncated(
                "page body (compressed_page_size)",
                compressed as u64,
                body.len() as u64,
            ));
        }
        self.limits.check_page_bytes(compressed as u64)?;
        self.limits.check_page_bytes(uncompressed as u64)?;
        if self.verify_crc {
            if let Some(expected) = header.crc {
                let actual = crc32(body);
                if actual != expected as u32 {
                    return Err(Error::new(ErrorKind::Checksum {
                        expected: expected as u32,
                        actual,
                    }));
                }
            }
        }
        match header.type_ {
            PageType::DictionaryPage => {
                let Some(h) = &header.dictionary_page_header else {
                    return Err(Error::out_of_spec(
                        "DICTIONARY_PAGE without a dictionary_page_header",
                    ));
                };
                self.decode_dictionary(h, uncompressed, body, lasting)
            }
            PageType::DataPage => {
                let Some(h) = &header.data_page_header else {
                    return Err(Error::out_of_spec("DATA_PAGE without a data_page_header"));
                };
                self.decode_v1(h, uncompressed, body, lasting, out)
            }
            PageType::DataPageV2 => {
                let Some(h) = &header.data_page_header_v2 else {
                    return Err(Error::out_of_spec(
                        "DATA_PAGE_V2 without a data_page_header_v2",
                    ));
                };
                self.decode_v2(h, uncompressed, body, lasting, out)
            }
            PageType::IndexPage => Ok(PageInfo {
                kind: PageKind::Index,
                num_values: 0,
                num_non_null: 0,
                num_rows: 0,
            }),
        }
    }

    fn decode_dictionary(
        &mut self,
        h: &DictionaryPageHeader,
        uncompressed: usize,
        body: &[u8],
        lasting: Option<&'a [u8]>,
    ) -> Result<PageInfo> {
        // Spec: "there is only one dictionary page per column chunk", before the data pages.
        if self.dictionary.is_some() {
            return Err(Error::out_of_spec(
                "a second dictionary page in one column chunk",
            ));
        }
        if self.seen_data {
            return Err(Error::out_of_spec("a dictionary page after a data page"));
        }
        // Spec: dictionary entries are PLAIN; PLAIN_DICTIONARY is the deprecated name for it.
        if !matches!(h.encoding, Encoding::Plain | Encoding::PlainDictionary) {
            return Err(Error::unsupported(
                "dictionary page encoding other than PLAIN or PLAIN_DICTIONARY",
            ));
        }
        let n = non_negative(h.num_values, "dictionary page num_values")?;
        self.limits.check_values_per_page(n as u64)?;
        self.limits.check_dictionary_bytes(uncompressed as u64)?;
        // A small page is decoded: the gathers copy a small dictionary anyway (padded, see
        // `dictionary::Padded`), and it costs no fresh memory to speak of.
        let in_place = uncompressed >= IN_PLACE_BYTES && variant::IN_PLACE;
        let dictionary = if self.column.physical_type == PhysicalType::ByteArray && in_place {
            self.bytes_dictionary(n, uncompressed, body, lasting)?
        } else {
            let (data, decompressed) = section(
                self.codec,
                body,
                uncompressed,
                &self.limits,
                &mut self.scratch,
                &mut self.decompressor,
            )?;
            let mut dict = self.column.new_values();
            reserve_plain(&mut dict, data.len(), n)?;
            plain::decode(data, n, &mut dict).map_err(|e| locate(e, decompressed, 0))?;
            self.limits.check_dictionary_bytes(decoded_bytes(&dict))?;
            Dictionary::Values(dict)
        };
        #[cfg(feature = "arrow")]
        if self.utf8 && !utf8_dictionary(&dictionary) {
            // The buffer stays for the next chunk (see `bytes_dictionary`).
            if let Dictionary::Bytes {
                page: Cow::Owned(buf),
                ..
            } = dictionary
            {
                self.dict_bytes = buf;
            }
            return Err(not_utf8(
                "a dictionary entry read as a string is not valid UTF-8",
            ));
        }
        self.dict_longest = dictionary.dict().longest() as u64;
        self.dictionary = Some(dictionary);
        Ok(PageInfo {
            kind: PageKind::Dictionary,
            num_values: n,
            num_non_null: 0,
            num_rows: 0,
        })
    }

    /// A BYTE_ARRAY dictionary page of `n` entries: borrowed when it can be, else copied or
    /// decompressed into the reused byte buffer.
    fn bytes_dictionary(
        &mut self,
        n: usize,
        uncompressed: usize,
        body: &[u8],
        lasting: Option<&'a [u8]>,
    ) -> Result<Dictionary<'a>> {
        let decompressed = self.codec != CompressionCodec::Uncompressed;
        let page = match lasting {
            Some(b) if !decompressed => Cow::Borrowed(b),
            _ => {
                let mut buf = core::mem::take(&mut self.dict_bytes);
                if decompressed {
                    // Over the bytes an earlier dictionary left: the buffer is zeroed only
                    // where it grows (a cleared one was zeroed whole, a megabyte per chunk),
                    // and kept at its longest, stale bytes after the page.
                    let done = section(
                        self.codec,
                        body,
                        uncompressed,
                        &self.limits,
                        &mut buf,
                        &mut self.decompressor,
                    );
                    if let Err(e) = done {
                        self.dict_bytes = buf;
                        return Err(e);
                    }
                } else {
                    buf.clear();
                    if let Err(e) = reserve(&mut buf, body.len(), "the dictionary page") {
                        self.dict_bytes = buf;
                        return Err(e);
                    }
                    buf.extend_from_slice(body);
                }
                Cow::Owned(buf)
            }
        };
        match self.entry_starts(&page, n, uncompressed, decompressed) {
            Ok(starts) => Ok(Dictionary::Bytes { page, starts }),
            Err(e) => {
                // The buffer stays for the next chunk, at its length: it is zeroed once.
                if let Cow::Owned(buf) = page {
                    self.dict_bytes = buf;
                }
                Err(e)
            }
        }
    }

    /// Where each of the `n` entries of a BYTE_ARRAY dictionary `page` starts, checked
    /// against the page (its first `uncompressed` bytes when it was decompressed into a
    /// reused buffer, which holds stale bytes after it) and the dictionary limit.
    fn entry_starts(
        &self,
        page: &[u8],
        n: usize,
        uncompressed: usize,
        decompressed: bool,
    ) -> Result<Vec<usize>> {
        let own = if decompressed {
            page.get(..uncompressed).unwrap_or(&[])
        } else {
            page
        };
        let mut starts = Vec::new();
        // An entry takes its 4-byte length at least: as many starts as the page can hold.
        reserve(
            &mut starts,
            n.min(own.len() / 4) + 1,
            "the dictionary's offsets",
        )?;
        plain::byte_array_starts(own, n, &mut starts).map_err(|e| locate(e, decompressed, 0))?;
        // As held in memory when decoded: the entries' bytes and an 8-byte offset each.
        let entry_bytes = starts.last().map_or(0, |&end| end - 4 * n);
        self.limits
            .check_dictionary_bytes(entry_bytes as u64 + 8 * n as u64)?;
        Ok(starts)
    }

    fn check_out(&self, out: &LeafData) -> Result<()> {
        let ok = match (&out.values, self.column.physical_type) {
            (Values::FixedLenByteArray(f), PhysicalType::FixedLenByteArray) => {
                f.width() == self.column.type_length
            }
            (v, t) => v.physical_type() == t,
        };
        if ok {
            Ok(())
        } else {
            Err(Error::invalid_argument(
                "the output values do not match the column's physical type",
            ))
        }
    }

    fn decode_v1(
        &mut self,
        h: &DataPageHeader,
        uncompressed: usize,
        body: &[u8],
        lasting: Option<&'a [u8]>,
        out: &mut LeafData,
    ) -> Result<PageInfo> {
        self.check_out(out)?;
        self.seen_data = true;
        self.deferred = false;
        self.end_lazy_page();
        self.plain = None;
        self.pending.clear();
        let n = non_negative(h.num_values, "DATA_PAGE num_values")?;
        self.limits.check_values_per_page(n as u64)?;
        #[cfg(feature = "snappy")]
        if let Some(info) = self.lazy_v1(h, uncompressed, lasting, out, n)? {
            return Ok(info);
        }
        let col = self.column;
        let (data, decompressed) = section(
            self.codec,
            body,
            uncompressed,
            &self.limits,
            &mut self.scratch,
            &mut self.decompressor,
        )?;
        let mut pos = 0;
        let mut rep_counts = LevelCounts::default();
        if col.max_rep_level > 0 {
            let (used, counts) = v1_levels(
                h.repetition_level_encoding,
                data,
                col.max_rep_level,
                n,
                0,
                &mut out.rep_levels,
            )
            .map_err(|e| locate(e, decompressed, 0))?;
            pos += used;
            rep_counts = counts;
        }
        let mut def_counts = LevelCounts::default();
        if col.max_def_level > 0 {
            let rest = data.get(pos..).unwrap_or(&[]);
            let (used, counts) = v1_levels(
                h.definition_level_encoding,
                rest,
                col.max_def_level,
                n,
                col.max_def_level,
                &mut out.def_levels,
            )
            .map_err(|e| locate(e, decompressed, pos))?;
            pos += used;
            def_counts = counts;
        }
        let (non_null, rows) = level_counts(&col, n, def_counts, rep_counts)?;
        let rest_len = data.len().saturating_sub(pos);
        let at = match decompressed {
            true => PlainAt::Scratch(pos),
            false => PlainAt::Lasting(lasting.and_then(|b| b.get(pos..))),
        };
        if self
            .defer_plain_values(h.encoding, rest_len, non_null, at, &out.values)
            .map_err(|e| locate(e, decompressed, pos))?
        {
            return Ok(PageInfo {
                kind: PageKind::DataV1,
                num_values: n,
                num_non_null: non_null,
                num_rows: rows,
            });
        }
        let data = match decompressed {
            true => self.scratch.get(..uncompressed).unwrap_or(&[]),
            false => body,
        };
        let rest = data.get(pos..).unwrap_or(&[]);
        #[cfg(feature = "arrow")]
        let first = out.values.len();
        self.deferred = decode_values(
            h.encoding,
            rest,
            non_null,
            self.dictionary.as_ref().map(|d| {
                let longest = self.dict_longest;
                (d.dict().with_longest(longest as usize), longest)
            }),
            &mut self.indices,
            &self.limits,
            self.defer_bytes,
            &mut out.values,
        )
        .map_err(|e| locate(e, decompressed, pos))?;
        // Values gathered from the dictionary were checked with it.
        #[cfg(feature = "arrow")]
        if !is_dictionary(h.encoding) {
            self.check_utf8_from(&out.values, first)?;
        }
        Ok(PageInfo {
            kind: PageKind::DataV1,
            num_values: n,
            num_non_null: non_null,
            num_rows: rows,
        })
    }

    fn decode_v2(
        &mut self,
        h: &DataPageHeaderV2,
        uncompressed: usize,
        body: &[u8],
        lasting: Option<&'a [u8]>,
        out: &mut LeafData,
    ) -> Result<PageInfo> {
        self.check_out(out)?;
        self.seen_data = true;
        self.deferred = false;
        self.end_lazy_page();
        self.plain = None;
        self.pending.clear();
        let n = non_negative(h.num_values, "DATA_PAGE_V2 num_values")?;
        self.limits.check_values_per_page(n as u64)?;
        // Seen in the wild: parquet-java 1.17 writes num_nulls = -1 when it did not count the
        // nulls (pyarrow and Spark read such pages). A negative count is unknown; the count
        // that matters is the one the definition levels give, below. A known count above
        // num_values is still an error: the header contradicts itself.
        if usize::try_from(h.num_nulls).is_ok_and(|nulls| nulls > n) {
            return Err(Error::out_of_range(
                "DATA_PAGE_V2 num_nulls (above num_values)",
                h.num_nulls.into(),
            ));
        }
        non_negative(h.num_rows, "DATA_PAGE_V2 num_rows")?;
        let rep_len = non_negative(
            h.repetition_levels_byte_length,
            "DATA_PAGE_V2 repetition_levels_byte_length",
        )?;
        let def_len = non_negative(
            h.definition_levels_byte_length,
            "DATA_PAGE_V2 definition_levels_byte_length",
        )?;
        let levels_len = rep_len + def_len; // both below 2^31: no overflow
        let (Some(rep_bytes), Some(def_bytes), Some(values_in)) = (
            body.get(..rep_len),
            body.get(rep_len..levels_len),
            body.get(levels_len..),
        ) else {
            return Err(Error::truncated(
                "DATA_PAGE_V2 levels (repetition + definition levels byte lengths)",
                levels_len as u64,
                body.len() as u64,
            ));
        };
        let col = self.column;
        let rep_start = out.rep_levels.len();
        let mut rep_counts = LevelCounts::default();
        if col.max_rep_level > 0 {
            let w = rle::bit_width(col.max_rep_level.into());
            reserve_levels(&mut out.rep_levels, n)?;
            rep_counts = rle::decode_levels_counted(rep_bytes, w, n, 0, &mut out.rep_levels)?.1;
        }
        let mut def_counts = LevelCounts::default();
        if col.max_def_level > 0 {
            let w = rle::bit_width(col.max_def_level.into());
            let max = col.max_def_level;
            reserve_levels(&mut out.def_levels, n)?;
            def_counts = rle::decode_levels_counted(def_bytes, w, n, max, &mut out.def_levels)
                .map_err(|e| e.offset_by(rep_len as u64))?
                .1;
        }
        // Spec (DataPageHeaderV2.num_rows): rows do not span V2 pages, so a page starts a row.
        if out.rep_levels.get(rep_start).is_some_and(|&r| r != 0) {
            return Err(Error::out_of_spec(
                "DATA_PAGE_V2 whose first repetition level is not 0",
            ));
        }
        let (non_null, rows) = level_counts(&col, n, def_counts, rep_counts)?;
        // Spec: "is_compressed ... If missing it is considered compressed".
        let codec = if h.is_compressed.unwrap_or(true) {
            self.codec
        } else {
            CompressionCodec::Uncompressed
        };
        let Some(values_size) = uncompressed.checked_sub(levels_len) else {
            return Err(Error::out_of_range(
                "DATA_PAGE_V2 uncompressed_page_size (below the levels' byte lengths)",
                uncompressed as i64,
            ));
        };
        #[cfg(feature = "snappy")]
        if let (Some(width), Some(b)) = (self.lazy_width(h.encoding, codec, &out.values), lasting) {
            let fits = non_null
                .checked_mul(width)
                .is_some_and(|len| len <= values_size);
            if fits {
                let input = b.get(levels_len..).unwrap_or(&[]);
                self.limits.check_page_bytes(values_size as u64)?;
                let prefix =
                    crate::compression::SnappyPrefix::new(input, values_size, &mut self.scratch)
                        .map_err(without_offset)?;
                let section = PlainSection::Lazy {
                    input,
                    prefix,
                    start: 0,
                };
                self.plain = Some((section, non_null));
                return Ok(PageInfo {
                    kind: PageKind::DataV2,
                    num_values: n,
                    num_non_null: non_null,
                    num_rows: rows,
                });
            }
        }
        let (data, decompressed) = section(
            codec,
            values_in,
            values_size,
            &self.limits,
            &mut self.scratch,
            &mut self.decompressor,
        )?;
        let data_len = data.len();
        let at = match decompressed {
            true => PlainAt::Scratch(0),
            false => PlainAt::Lasting(lasting.and_then(|b| b.get(levels_len..))),
        };
        if self
            .defer_plain_values(h.encoding, data_len, non_null, at, &out.values)
            .map_err(|e| locate(e, decompressed, levels_len))?
        {
            return Ok(PageInfo {
                kind: PageKind::DataV2,
                num_values: n,
                num_non_null: non_null,
                num_rows: rows,
            });
        }
        let data = match decompressed {
            true => self.scratch.get(..values_size).unwrap_or(&[]),
            false => values_in,
        };
        #[cfg(feature = "arrow")]
        let first = out.values.len();
        self.deferred = decode_values(
            h.encoding,
            data,
            non_null,
            self.dictionary.as_ref().map(|d| {
                let longest = self.dict_longest;
                (d.dict().with_longest(longest as usize), longest)
            }),
            &mut self.indices,
            &self.limits,
            self.defer_bytes,
            &mut out.values,
        )
        .map_err(|e| locate(e, decompressed, levels_len))?;
        #[cfg(feature = "arrow")]
        if !is_dictionary(h.encoding) {
            self.check_utf8_from(&out.values, first)?;
        }
        Ok(PageInfo {
            kind: PageKind::DataV2,
            num_values: n,
            num_non_null: non_null,
            num_rows: rows,
        })
    }
}

/// Whether a data page's values are indices into the dictionary.
#[cfg(feature = "arrow")]
fn is_dictionary(encoding: Encoding) -> bool {
    matches!(
        encoding,
        Encoding::PlainDictionary | Encoding::RleDictionary
    )
}

/// The error for a value that a decoder checking UTF-8 ([`PageDecoder::check_utf8`]) found
/// not to be.
#[cfg(feature = "arrow")]
#[cold]
fn not_utf8(what: &'static str) -> Error {
    Error::out_of_spec(what)
}

/// Whether each entry of a BYTE_ARRAY dictionary is valid UTF-8 on its own (true for the
/// other types).
#[cfg(feature = "arrow")]
fn utf8_dictionary(d: &Dictionary<'_>) -> bool {
    use crate::bytes::utf8;
    match d {
        Dictionary::Values(Values::ByteArray(b)) => {
            let (offsets, data) = b.as_ref().parts();
            utf8::values_valid(offsets, data)
        }
        Dictionary::Values(_) => true,
        Dictionary::Bytes { page, starts } => utf8::prefixed_values_valid(starts, page),
    }
}

/// The non-null values (levels equal to `max_def_level`) and the rows (repetition levels 0)
/// of a page, from what its level decoders counted, checking that no level exceeds its
/// maximum.
fn level_counts(
    col: &PageColumn,
    n: usize,
    def: LevelCounts,
    rep: LevelCounts,
) -> Result<(usize, usize)> {
    let non_null = if col.max_def_level > 0 {
        if def.highest > col.max_def_level {
            return Err(Error::out_of_range("definition level", def.highest.into()));
        }
        def.count
    } else {
        n
    };
    let rows = if col.max_rep_level > 0 {
        if rep.highest > col.max_rep_level {
            return Err(Error::out_of_range("repetition level", rep.highest.into()));
        }
        rep.count
    } else {
        n
    };
    Ok((non_null, rows))
}

/// The largest of `levels` and how many equal `count_of`: the naive scan, for levels decoded
/// without counting (BIT_PACKED) and as the tests' reference.
fn scan_levels(levels: &[u16], count_of: u16) -> LevelCounts {
    LevelCounts {
        highest: levels.iter().fold(0, |m, &l| m.max(l)),
        count: levels.iter().filter(|&&l| l == count_of).count(),
    }
}

/// Decodes `n` V1 levels up to `max` in `encoding`; returns the bytes used and the counts
/// (largest level, levels equal to `count_of`).
fn v1_levels(
    encoding: Encoding,
    input: &[u8],
    max: u16,
    n: usize,
    count_of: u16,
    out: &mut Vec<u16>,
) -> Result<(usize, LevelCounts)> {
    reserve_levels(out, n)?;
    let w = rle::bit_width(max.into());
    match encoding {
        Encoding::Rle => rle::decode_levels_with_length_counted(input, w, n, count_of, out),
        Encoding::BitPacked => {
            let start = out.len();
            let used = bit_packed::decode_levels(input, w, n, out)?;
            Ok((used, scan_levels(out.get(start..).unwrap_or(&[]), count_of)))
        }
        _ => Err(Error::unsupported(
            "level encoding other than RLE or BIT_PACKED",
        )),
    }
}

/// Makes room for `n` more levels, fallibly (the levels of a page are decoded whole).
fn reserve_levels(out: &mut Vec<u16>, n: usize) -> Result<()> {
    reserve(out, n, "the levels of a page")
}

/// Makes room for a page's `n` dictionary indices, fallibly: a run of a few bytes may
/// declare any number of them (up to [`Limits::values_per_page`]).
fn reserve_indices(indices: &mut Vec<u32>, n: usize) -> Result<()> {
    reserve(indices, n, "the dictionary indices of a page")
}

/// Makes room, fallibly, for the `n` PLAIN values of `len` bytes about to be decoded into
/// `out`: as many as `len` bytes can hold (a count the bytes cannot back is an error of the
/// decoder, not an allocation), and for BYTE_ARRAY at most `len` bytes of data.
fn reserve_plain(out: &mut Values, len: usize, n: usize) -> Result<()> {
    let (most, bytes) = match out {
        Values::Boolean(_) => (len.saturating_mul(8), 0),
        Values::Int32(_) | Values::Float(_) => (len / 4, 0),
        Values::Int64(_) | Values::Double(_) => (len / 8, 0),
        Values::Int96(_) => (len / 12, 0),
        Values::ByteArray(_) => (len / 4, len.saturating_sub(4 * n)),
        Values::FixedLenByteArray(f) => (len.checked_div(f.width()).unwrap_or(n), 0),
    };
    out.try_reserve(n.min(most), bytes)
}

/// Makes room, fallibly, for the `n` values of a page in `encoding` (`len` bytes) before they
/// are decoded, so that the decoders' own growth finds the room there. `n` is the count the
/// levels gave, within [`Limits::values_per_page`]; encodings that may hold many values in
/// few bytes (dictionary indices, delta bit width 0, RLE booleans, ALP) get all of them, the
/// others as many as their bytes can hold. Byte arrays gathered from a dictionary reserve
/// their bytes once the indices are known ([`gather_reserved`]), DELTA_BYTE_ARRAY once its
/// prefix lengths are ([`delta_byte_array`]).
fn reserve_values(encoding: Encoding, out: &mut Values, len: usize, n: usize) -> Result<()> {
    match encoding {
        Encoding::Plain => reserve_plain(out, len, n),
        Encoding::DeltaLengthByteArray => out.try_reserve(n, len),
        Encoding::ByteStreamSplit => {
            let width = match out {
                Values::Int32(_) | Values::Float(_) => 4,
                Values::Int64(_) | Values::Double(_) => 8,
                Values::FixedLenByteArray(f) => f.width().max(1),
                _ => 1,
            };
            out.try_reserve(n.min(len / width), 0)
        }
        _ => out.try_reserve(n, 0),
    }
}

/// Decodes `n` values of `encoding` from `data`, appending to `out`; returns true when, with
/// `defer_bytes`, a dictionary-encoded BYTE_ARRAY page's values were left as their indices
/// in `indices` (checked against the dictionary) instead (see
/// [`PageDecoder::defer_byte_array_gather`]).
#[allow(clippy::too_many_arguments)]
fn decode_values(
    encoding: Encoding,
    data: &[u8],
    n: usize,
    dict: Option<(Dict<'_>, u64)>,
    indices: &mut Vec<u32>,
    limits: &Limits,
    defer_bytes: bool,
    out: &mut Values,
) -> Result<bool> {
    reserve_values(encoding, out, data.len(), n)?;
    match encoding {
        Encoding::Plain => {
            plain::decode(data, n, out)?;
        }
        Encoding::PlainDictionary | Encoding::RleDictionary => {
            let Some(dict) = dict else {
                return Err(Error::out_of_spec(
                    "dictionary-encoded page without a dictionary page",
                ));
            };
            let (dict, longest) = dict;
            if variant::DEFERS && defer_bytes && matches!(out, Values::ByteArray(_)) {
                decode_checked_indices(data, n, dict, longest, indices, limits)?;
                return Ok(true);
            }
            // A page of nulls only has an empty (or a 1-byte bit width) index section.
            variant::gather(data, n, (dict, longest), indices, limits, out)?;
        }
        Encoding::Rle => match out {
            // Spec: RLE for values is for BOOLEAN, with the 4-byte length (V1 and V2).
            Values::Boolean(v) => {
                rle::decode_booleans(data, n, v)?;
            }
            _ => {
                return Err(Error::unsupported(
                    "RLE values of a type other than BOOLEAN",
                ))
            }
        },
        #[cfg(feature = "delta")]
        Encoding::DeltaBinaryPacked => {
            delta_binary_packed::decode(data, n, out)?;
        }
        #[cfg(feature = "delta")]
        Encoding::DeltaLengthByteArray => {
            delta_length_byte_array::decode(data, n, out)?;
        }
        #[cfg(feature = "delta")]
        Encoding::DeltaByteArray => {
            delta_byte_array::decode_with_limit(data, n, out, limits.page_bytes)?;
        }
        #[cfg(feature = "byte-stream-split")]
        Encoding::ByteStreamSplit => {
            let width = match out {
                Values::Int32(_) | Values::Float(_) => 4,
                Values::Int64(_) | Values::Double(_) => 8,
                Values::FixedLenByteArray(f) => f.width(),
                _ => 0,
            };
            // The streams are exactly `n * width` bytes; tolerate trailing bytes.
            let len = n.saturating_mul(width);
            let input = data.get(..len).unwrap_or(data);
            byte_stream_split::decode(input, n, out)?;
        }
        Encoding::BitPacked => {
            return Err(Error::unsupported(
                "BIT_PACKED values (only levels may use it)",
            ))
        }
        #[cfg(feature = "alp")]
        Encoding::Alp => {
            crate::encoding::alp::decode(data, n, out)?;
        }
        // An encoding this build leaves out: an error naming it and its feature.
        #[cfg(not(all(feature = "delta", feature = "byte-stream-split", feature = "alp")))]
        left_out => crate::encoding::built_in(left_out)?,
    }
    Ok(false)
}

// The one point of choice between the default decoder ([`fast`]) and the one of builds for
// size ([`compact`], `cfg(parket_opt_size)`, set by `build.rs`): how a dictionary-encoded
// page is gathered, and whether BYTE_ARRAY gathers may be deferred to the batches and large
// BYTE_ARRAY dictionaries decoded in place. Same values and same error kinds (a property
// test compares the gathers).
#[cfg(parket_opt_size)]
use compact as variant;
#[cfg(not(parket_opt_size))]
use fast as variant;

/// The default page decoder's choices.
#[cfg(not(parket_opt_size))]
mod fast {
    use super::{
        check_gather_bytes, dictionary, gather_reserved, reserve_indices, Dict, Limits, Result,
        Values,
    };
    use alloc::vec::Vec;

    /// BYTE_ARRAY gathers may be deferred ([`super::PageDecoder::defer_byte_array_gather`]).
    pub(super) const DEFERS: bool = true;
    /// Large BYTE_ARRAY dictionaries are decoded in place.
    pub(super) const IN_PLACE: bool = true;
    /// BYTE_ARRAY gathers reserve the bytes they copy, fallibly (see [`super::gather_reserved`]).
    pub(super) const GATHER_RESERVES: bool = true;

    /// Largest copy (entries' longest length x values) that a dictionary-encoded page
    /// gathers in the fused pass, which cannot know the size beforehand; above it, the
    /// indices are decoded first and the exact bytes reserved fallibly.
    const FUSED_GATHER_BYTES: u64 = 64 << 20;

    /// Gathers the `n` values of a dictionary-encoded page's index section `data`.
    pub(super) fn gather(
        data: &[u8],
        n: usize,
        (dict, longest): (Dict<'_>, u64),
        indices: &mut Vec<u32>,
        limits: &Limits,
        out: &mut Values,
    ) -> Result<()> {
        if longest.saturating_mul(n as u64) <= limits.page_bytes.min(FUSED_GATHER_BYTES) {
            // Gathering cannot copy more than a modest amount: one fused pass.
            dictionary::decode_gather_dict(data, n, dict, out)?;
        } else {
            // Count the bytes the indices really select before copying them, and reserve
            // them at once, fallibly.
            indices.clear();
            reserve_indices(indices, n)?;
            dictionary::decode_indices(data, n, indices)?;
            check_gather_bytes(dict, indices, limits)?;
            gather_reserved(dict, indices, out)?;
        }
        Ok(())
    }
}

/// The page decoder of builds for size: whole pages, no in-place dictionaries, and
/// dictionary gathering by the two-pass path alone (decode the indices, bound the bytes they
/// select, gather), without the fused pass and its per-type copies of the hybrid decoder.
/// When the indices do not decode, an index already decoded that is past the dictionary's
/// end is reported first, as the fused pass, which gathers run by run, finds it first.
#[cfg(any(parket_opt_size, test))]
#[cfg_attr(test, allow(dead_code))]
mod compact {
    use super::{decode_checked_indices, gather_reserved, Dict, Limits, Result, Values};
    use alloc::vec::Vec;

    /// Never deferred: whole pages, less code.
    pub(super) const DEFERS: bool = false;
    /// Never in place.
    pub(super) const IN_PLACE: bool = false;
    /// BYTE_ARRAY gathers grow as they copy: the bytes are counted and reserved first.
    pub(super) const GATHER_RESERVES: bool = false;

    /// Gathers the `n` values of a dictionary-encoded page's index section `data`.
    pub(super) fn gather(
        data: &[u8],
        n: usize,
        (dict, longest): (Dict<'_>, u64),
        indices: &mut Vec<u32>,
        limits: &Limits,
        out: &mut Values,
    ) -> Result<()> {
        decode_checked_indices(data, n, dict, longest, indices, limits)?;
        gather_reserved(dict, indices, out)
    }
}

/// Decodes a data page's `n` dictionary indices into `indices` and checks them: each below
/// the dictionary's length, and the bytes they select within the page limit. What
/// [`decode_values`] leaves for the caller to gather when it defers.
fn decode_checked_indices(
    data: &[u8],
    n: usize,
    dict: Dict<'_>,
    longest: u64,
    indices: &mut Vec<u32>,
    limits: &Limits,
) -> Result<()> {
    indices.clear();
    reserve_indices(indices, n)?;
    if let Err(e) = dictionary::decode_indices(data, n, indices) {
        // An index decoded before the error that is past the dictionary's end comes first.
        return Err(dictionary::check_max(indices, dict.len())
            .err()
            .unwrap_or(e));
    }
    // `longest` is the dictionary's longest entry: count the bytes only when they could pass
    // the limit. The bytes first, as the two-pass default path does.
    if longest.saturating_mul(n as u64) > limits.page_bytes {
        check_gather_bytes(dict, indices, limits)?;
    }
    dictionary::check_max(indices, dict.len())
}

/// Bounds the bytes that gathering byte arrays from the dictionary will copy: a long entry
/// repeated through 1-bit indices can inflate a small page enormously. Called when the longest
/// entry times the number of indices could pass the limit: the bytes selected are counted.
fn check_gather_bytes(dict: Dict<'_>, indices: &[u32], limits: &Limits) -> Result<()> {
    limits.check_page_bytes(gather_bytes(dict, indices))
}

/// The bytes that gathering `indices` from a BYTE_ARRAY dictionary copies (0 for the other
/// kinds).
fn gather_bytes(dict: Dict<'_>, indices: &[u32]) -> u64 {
    let Dict::Bytes(d) = dict else {
        return 0;
    };
    indices.iter().fold(0u64, |acc, &i| {
        acc.saturating_add(d.get(i as usize).map_or(0, <[u8]>::len) as u64)
    })
}

/// Appends the dictionary entries `indices` (checked against the dictionary) to `out`, the
/// room for them reserved first, at once and fallibly: a BYTE_ARRAY page whose entries do not
/// fit in memory is an error, not an abort.
pub(crate) fn gather_reserved(dict: Dict<'_>, indices: &[u32], out: &mut Values) -> Result<()> {
    if variant::GATHER_RESERVES && matches!(dict, Dict::Bytes(_)) {
        // The gather adds up the entries' lengths as it writes their offsets, and reserves
        // their bytes fallibly itself: no pass over the indices to count them first.
        out.try_reserve(indices.len(), 0)?;
        return dictionary::gather_dict(dict, indices, out);
    }
    let bytes = usize::try_from(gather_bytes(dict, indices)).unwrap_or(usize::MAX);
    // The gather's block copies ask for `SHORT` bytes of slack past the end.
    out.try_reserve(indices.len(), bytes.saturating_add(crate::bytes::SHORT))?;
    dictionary::gather_dict(dict, indices, out)
}

/// Fuzzing harness: the first bytes choose a column (physical type, max levels, codec, CRC
/// checks, borrowed or copied bodies), the rest is a sequence of pages (header, body) decoded
/// in order. Never panics.
#[cfg(any(test, feature = "fuzzing"))]
#[doc(hidden)]
pub fn fuzz_page(data: &[u8]) {
    let [t, levels, codec, rest @ ..] = data else {
        return;
    };
    let types = PhysicalType::ALL;
    let codecs = [
        CompressionCodec::Uncompressed,
        CompressionCodec::Snappy,
        CompressionCodec::Gzip,
        CompressionCodec::Zstd,
        CompressionCodec::Lz4Raw,
    ];
    let column = PageColumn::new(
        types[usize::from(t & 7)],
        usize::from(t >> 3),
        u16::from(levels & 0xf),
        u16::from(levels >> 4),
    );
    let limits = Limits::default()
        .max_page_bytes(1 << 20)
        .max_dictionary_bytes(1 << 20)
        .max_values_per_page(1 << 16);
    let mut decoder = PageDecoder::new(column, codecs[usize::from(*codec) % codecs.len()], limits)
        .verify_crc(codec & 0x80 != 0);
    let mut out = column.new_leaf_data();
    let mut buf = rest;
    for _ in 0..8 {
        let Ok((header, used)) = PageHeader::decode(buf) else {
            return;
        };
        let Some(after) = buf.get(used..) else { return };
        let size = usize::try_from(header.compressed_page_size).unwrap_or(0);
        let body = after.get(..size).unwrap_or(after);
        // Dictionary pages kept by reference, or copied.
        let _ = if codec & 0x40 != 0 {
            decoder.decode_borrowed_page(&header, body, &mut out)
        } else {
            decoder.decode_page(&header, body, &mut out)
        };
        // A dictionary kept as its page decodes to values when asked.
        let _ = decoder.dictionary();
        buf = after.get(body.len()..).unwrap_or(&[]);
    }
}

#[cfg(test)]
mod tests;

mod pending;
