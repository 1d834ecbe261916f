//! Column chunks: the pages of one column in one row group, read one page at a time.
//!
//! Spec: parquet.thrift `ColumnMetaData`: a chunk's pages are back to back from its first
//! page (`dictionary_page_offset` when there is a dictionary page, else `data_page_offset`)
//! over `total_compressed_size` bytes, headers included; their data pages hold `num_values`
//! level positions in all.
//!
//! ```text
//! dictionary_page_offset  data_page_offset
//! v                       v
//! [PageHeader|dictionary] [PageHeader|data page] [PageHeader|data page] ...
//! <-------------------- total_compressed_size ------------------------>
//! ```
//!
//! Seen in the wild:
//! - `dictionary_page_offset` present but 0 with no dictionary page
//!   (`dict-page-offset-zero.parquet`): an offset below 4 or not below `data_page_offset`
//!   is treated as absent.
//! - a dictionary page at `data_page_offset` with `dictionary_page_offset` absent
//!   (`nation.dict-malformed.parquet`, `ARROW-GH-43605.parquet`): pages are read in order from
//!   the chunk's start, whatever their type.
//! - `total_compressed_size` smaller than the pages (`nation.dict-malformed.parquet`,
//!   PARQUET-816): a page that starts inside the chunk is sized by its own header, bounded by
//!   the file; reading stops once `num_values` level positions were read.

use alloc::string::String;
use alloc::vec::Vec;

use crate::compression::Decompressor;
use crate::error::{Error, Result};
use core::ops::Range;

use crate::format::ColumnMetaData;
use crate::levels::LeafData;
use crate::limits::Limits;
use crate::page::decode::{DecoderBuffers, PageColumn, PageDecoder, PageInfo, PageKind};
use crate::values::{Values, ValuesRef};

use super::walk::{PageWalk, WalkPage};
use super::SourceRef;

/// Where a chunk's pages are and how many values they hold, checked against the file.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ChunkRange {
    pub start: u64,
    pub end: u64,
    pub num_values: u64,
    pub num_rows: u64,
}

impl ChunkRange {
    /// The chunk range of `meta` in a file of `file_len` bytes whose row group has `num_rows`.
    pub(crate) fn new(meta: &ColumnMetaData, file_len: u64, num_rows: i64) -> Result<Self> {
        let data = u64::try_from(meta.data_page_offset)
            .map_err(|_| Error::out_of_range("data_page_offset", meta.data_page_offset))?;
        let start = match meta.dictionary_page_offset {
            // Seen in the wild: dictionary_page_offset 0 without a dictionary page.
            Some(d) if d >= 4 && (d as u64) < data => d as u64,
            _ => data,
        };
        let len = u64::try_from(meta.total_compressed_size).map_err(|_| {
            Error::out_of_range("total_compressed_size", meta.total_compressed_size)
        })?;
        let num_values = u64::try_from(meta.num_values)
            .map_err(|_| Error::out_of_range("ColumnMetaData.num_values", meta.num_values))?;
        let num_rows = u64::try_from(num_rows)
            .map_err(|_| Error::out_of_range("RowGroup.num_rows", num_rows))?;
        if num_values > 0 && (start < 4 || start >= file_len) {
            return Err(Error::out_of_range("column chunk offset", start as i64));
        }
        Ok(ChunkRange {
            start,
            end: start.saturating_add(len).min(file_len),
            num_values,
            num_rows,
        })
    }
}

/// A part of a column chunk for [`FileReader::column_chunk_part_with`](super::FileReader::column_chunk_part_with):
/// its data pages, back to back, as a walk of the chunk's page headers found them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChunkPart {
    /// File bytes of the pages, headers included: from the first page's header to the end of
    /// the last page's body.
    pub pages: Range<u64>,
    /// The level positions the pages' headers declare.
    pub num_values: u64,
    /// The ordinal of the first page in the chunk (the dictionary page, if any, is page 0).
    pub ordinal: usize,
    /// Whether to read the chunk's dictionary page (its first page) first: the part holds
    /// dictionary-encoded pages.
    pub dictionary: bool,
}

/// A run of level positions of one page: levels and the values of its non-null positions.
///
/// `def_levels` is empty when the column's `max_def_level` is 0 (no nulls: one value per
/// position), and `rep_levels` when its `max_rep_level` is 0.
#[derive(Debug, Clone, Copy)]
pub struct Batch<'b> {
    def_levels: &'b [u16],
    rep_levels: &'b [u16],
    values: ValuesRef<'b>,
    len: usize,
    starts_page: bool,
}

impl<'b> Batch<'b> {
    /// Whether the batch is the first of its data page (a page's batches come one after the
    /// other): for a caller that sums something per page over batches smaller than pages.
    pub fn starts_page(&self) -> bool {
        self.starts_page
    }

    /// Definition levels, one per position (empty when `max_def_level` is 0).
    pub fn def_levels(&self) -> &'b [u16] {
        self.def_levels
    }

    /// Repetition levels, one per position (empty when `max_rep_level` is 0).
    pub fn rep_levels(&self) -> &'b [u16] {
        self.rep_levels
    }

    /// The non-null values.
    pub fn values(&self) -> ValuesRef<'b> {
        self.values
    }

    /// Level positions in the batch (nulls included).
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when the batch has no positions (never returned by the reader).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Reads the pages of one column chunk in order, as its [`PageWalk`] finds them: for each page
/// its header, then exactly its body (a sub-slice of the file for
/// [`FileReader::from_bytes`](super::FileReader::from_bytes), a window reused from page to
/// page for a `Read + Seek` source).
pub(crate) struct PageStream<'a> {
    source: SourceRef<'a>,
    walk: PageWalk,
    range: ChunkRange,
    values_read: u64,
    rows_read: u64,
    /// The rows of the last data page, when the offset index placed it.
    last_rows: Option<Range<u64>>,
    /// The ordinal of the last data page, for the errors of its values written out later
    /// (a string that is not UTF-8: the `arrow` feature's check).
    #[cfg(feature = "arrow")]
    last_page: usize,
    decoder: PageDecoder<'a>,
    limits: Limits,
    /// File bytes of a `Read + Seek` source from `buf_at`, reused.
    buf: Vec<u8>,
    buf_at: u64,
    /// Reading a part of the chunk ([`PageStream::in_part`]): its rows are not known, and it
    /// starts a record only when this is true (it starts at the chunk's first data page).
    part: Option<bool>,
}

impl<'a> PageStream<'a> {
    pub(crate) fn new(
        source: SourceRef<'a>,
        walk: PageWalk,
        range: ChunkRange,
        decoder: PageDecoder<'a>,
        limits: Limits,
    ) -> Self {
        PageStream {
            source,
            walk,
            range,
            values_read: 0,
            rows_read: 0,
            last_rows: None,
            #[cfg(feature = "arrow")]
            last_page: 0,
            decoder,
            limits,
            buf: Vec::new(),
            buf_at: 0,
            part: None,
        }
    }

    /// This stream reading a part of its chunk (its `range.num_values` are the part's):
    /// no check of the rows against `RowGroup.num_rows`, which the caller makes over the
    /// parts, and a first page that may continue a record unless `first` (the part starts at
    /// the chunk's first data page).
    pub(crate) fn in_part(mut self, first: bool) -> Self {
        self.part = Some(first);
        self
    }

    /// The rows of the last data page when the offset index placed it (pages between may
    /// have been skipped); `None` when pages are walked in order.
    pub(crate) fn last_rows(&self) -> Option<Range<u64>> {
        self.last_rows.clone()
    }

    /// Decodes data pages until one appends level positions to `out`; returns its info, or
    /// `None` once the chunk's `num_values` were read (or, through the offset index, its
    /// selected pages). Errors carry the page ordinal and the file offset.
    pub(crate) fn next_data_page(&mut self, out: &mut LeafData) -> Result<Option<PageInfo>> {
        loop {
            let indexed = self.walk.uses_index();
            if !indexed && self.values_read >= self.range.num_values {
                if self.part.is_none() && self.rows_read != self.range.num_rows {
                    return Err(Error::out_of_spec(
                        "the column chunk's records do not add up to RowGroup.num_rows",
                    )
                    .at_offset(self.range.start));
                }
                return Ok(None);
            }
            let mut buf = core::mem::take(&mut self.buf);
            let found = self
                .source
                .next_page(&mut self.walk, &mut buf, &mut self.buf_at);
            self.buf = buf;
            let Some(page) = found? else {
                if indexed {
                    return Ok(None);
                }
                return Err(Error::out_of_spec(
                    "the column chunk's pages hold fewer values than ColumnMetaData.num_values",
                )
                .at_offset(self.range.end));
            };
            let (ordinal, at) = (page.ordinal, page.offset);
            let info = self
                .one_page(page, out)
                .map_err(|e| e.in_page(ordinal).at_offset(at))?;
            if matches!(info.kind, PageKind::DataV1 | PageKind::DataV2) && info.num_values > 0 {
                #[cfg(feature = "arrow")]
                {
                    self.last_page = ordinal;
                }
                return Ok(Some(info));
            }
        }
    }

    fn one_page(&mut self, page: WalkPage, out: &mut LeafData) -> Result<PageInfo> {
        let first_rep = out.rep_levels.len();
        let header = &page.header;
        // Check the page's level positions against what remains of the chunk before decoding:
        // runs of levels cost memory that their bytes do not bound.
        let declared = super::walk::declared_values(header);
        if declared > self.range.num_values - self.values_read {
            return Err(Error::out_of_spec(
                "a page holds more values than remain of ColumnMetaData.num_values",
            ));
        }
        let body_at = page.body.start;
        let info = match self.source {
            #[cfg(feature = "encryption")]
            _ if self.walk.decrypts() => self.decrypted_page(&page, out),
            SourceRef::Bytes(data) => {
                let body = super::walk::slice(data, 0, page.body.clone()).unwrap_or(&[]);
                self.decoder.decode_borrowed_page(header, body, out)
            }
            #[cfg(feature = "std")]
            SourceRef::Reader(_) => {
                let body =
                    super::walk::slice(&self.buf, self.buf_at, page.body.clone()).unwrap_or(&[]);
                self.decoder.decode_page(header, body, out)
            }
        }
        .map_err(|e| e.offset_by(body_at))?;
        if matches!(info.kind, PageKind::DataV1 | PageKind::DataV2) {
            let remaining = self.range.num_values - self.values_read;
            if info.num_values as u64 > remaining {
                return Err(Error::out_of_spec(
                    "a page holds more values than remain of ColumnMetaData.num_values",
                ));
            }
            // Spec: a column chunk starts a record; so does a page the offset index places
            // (PageIndex.md: pages of a chunk with an offset index start at row boundaries).
            if out.rep_levels.get(first_rep).is_some_and(|&r| r != 0) {
                if self.values_read == 0 && self.part != Some(false) {
                    return Err(Error::out_of_spec(
                        "the column chunk's first repetition level is not 0",
                    ));
                }
                if page.rows.is_some() {
                    return Err(Error::out_of_spec(
                        "a page the offset index places does not start a record",
                    ));
                }
            }
            if let Some(rows) = &page.rows {
                if info.num_rows as u64 != rows.end - rows.start {
                    return Err(Error::out_of_spec(
                        "a page holds another number of rows than the offset index says",
                    ));
                }
            }
            self.last_rows = page.rows;
            self.values_read += info.num_values as u64;
            self.rows_read += info.num_rows as u64;
        }
        Ok(info)
    }

    /// Decrypts the body of `page` (of an encrypted chunk) and decodes it into `out`. Errors
    /// carry no offset (the decrypted bytes' offsets are not the file's): the caller's is the
    /// body's.
    #[cfg(feature = "encryption")]
    fn decrypted_page(&mut self, page: &WalkPage, out: &mut LeafData) -> Result<PageInfo> {
        let stored = match self.source {
            SourceRef::Bytes(data) => super::walk::slice(data, 0, page.body.clone()),
            #[cfg(feature = "std")]
            SourceRef::Reader(_) => super::walk::slice(&self.buf, self.buf_at, page.body.clone()),
        }
        .unwrap_or(&[]);
        let verify = self.decoder.verifies_crc();
        let decrypted = self.walk.decrypt_page(page, stored, verify);
        let Some((header, plain)) = decrypted.map_err(Error::without_offset)? else {
            return Err(Error::out_of_spec(
                "a plaintext page read as an encrypted one",
            ));
        };
        self.decoder
            .decode_page(&header, &plain, out)
            .map_err(Error::without_offset)
    }

    /// Takes `buf` as the reused page-bytes buffer and the decoder's buffers (see
    /// [`ChunkBuffers`]).
    fn with_buffers(mut self, buf: Vec<u8>, decoder: DecoderBuffers) -> Self {
        self.buf = buf;
        self.decoder = self.decoder.with_buffers(decoder);
        self
    }

    pub(crate) fn decoder(&self) -> &PageDecoder<'a> {
        &self.decoder
    }
}

/// Reads one column chunk: page by page, as batches of level positions
/// ([`ColumnChunkReader::next_batch`]) or all at once ([`ColumnChunkReader::read_all`]).
///
/// Memory is bounded by the largest page (its body, decompressed bytes and decoded levels and
/// values), not by the chunk, except in [`ColumnChunkReader::read_all`].
///
/// ```
/// # fn main() -> parket::Result<()> {
/// # let bytes = parket::testing::corpus_file("alltypes_plain.parquet");
/// use parket::read::FileReader;
/// use parket::values::ValuesRef;
/// let file = FileReader::from_bytes(&bytes)?;
/// let mut ids = file.column_chunk(0, "id")?;
/// let mut seen = Vec::new();
/// while let Some(batch) = ids.next_batch(3)? {
///     assert!(batch.len() <= 3);
///     assert_eq!(batch.def_levels().len(), batch.len()); // optional column: one level each
///     if let ValuesRef::Int32(v) = batch.values() { seen.extend_from_slice(v) }
/// }
/// assert_eq!(seen, [4, 5, 6, 7, 2, 3, 0, 1]);
/// # Ok(()) }
/// ```
pub struct ColumnChunkReader<'a> {
    stream: PageStream<'a>,
    column: PageColumn,
    /// The current page's levels and values.
    page: LeafData,
    /// Next level position of `page` to hand out, and the next value.
    level_pos: usize,
    value_pos: usize,
    page_len: usize,
    /// Whether every level position of `page` holds a value (no nulls): batches then need no
    /// count of their definition levels.
    page_all_valid: bool,
    path: String,
    row_group: usize,
}

impl<'a> ColumnChunkReader<'a> {
    pub(crate) fn new(
        stream: PageStream<'a>,
        column: PageColumn,
        path: String,
        row_group: usize,
    ) -> Self {
        ColumnChunkReader {
            stream,
            column,
            page: column.new_leaf_data(),
            level_pos: 0,
            value_pos: 0,
            page_len: 0,
            page_all_valid: true,
            path,
            row_group,
        }
    }

    /// This reader reading a part of its chunk of `range` (see [`PageStream::in_part`]).
    pub(crate) fn in_part(mut self, range: ChunkRange, first: bool) -> Self {
        self.stream.range = range;
        self.stream = self.stream.in_part(first);
        self
    }

    fn locate(&self, e: Error) -> Error {
        e.in_column(&self.path).in_row_group(self.row_group)
    }

    /// The column's dotted path.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The column's physical type and max levels.
    pub fn column(&self) -> &PageColumn {
        &self.column
    }

    /// Checks that every BYTE_ARRAY value read is valid UTF-8 (see
    /// [`PageDecoder::check_utf8`]); set before the first page.
    #[cfg(feature = "arrow")]
    pub(crate) fn check_utf8(mut self, check: bool) -> Self {
        self.stream.decoder.check_utf8(check);
        self
    }

    /// The next at most `max_values` level positions (nulls included), or `None` at the end of
    /// the chunk. A batch never spans pages; buffers are reused from page to page.
    ///
    /// `max_values` of 0 is an [`ErrorKind::InvalidArgument`](crate::ErrorKind::InvalidArgument).
    pub fn next_batch(&mut self, max_values: usize) -> Result<Option<Batch<'_>>> {
        if max_values == 0 {
            return Err(Error::invalid_argument(
                "next_batch(0): ask for at least 1 value",
            ));
        }
        if self.level_pos >= self.page_len {
            self.page.def_levels.clear();
            self.page.rep_levels.clear();
            self.page.values.clear();
            self.level_pos = 0;
            self.value_pos = 0;
            self.page_len = 0;
            // Batches gather a dictionary-encoded page's strings one batch at a time.
            self.stream.decoder.defer_byte_array_gather(true);
            self.stream.decoder.defer_plain(false);
            let next = self.stream.next_data_page(&mut self.page);
            match next.map_err(|e| self.locate(e))? {
                None => return Ok(None),
                Some(info) => {
                    self.page_len = info.num_values;
                    self.page_all_valid = info.num_non_null == info.num_values;
                }
            }
        }
        let start = self.level_pos;
        let end = start + max_values.min(self.page_len - start);
        let def = self.page.def_levels.get(start..end).unwrap_or(&[]);
        let rep = self.page.rep_levels.get(start..end).unwrap_or(&[]);
        let n_values = if self.column.max_def_level > 0 && !self.page_all_valid {
            let max = self.column.max_def_level;
            crate::levels::count_level(def, max)
        } else {
            end - start
        };
        let v_start = self.value_pos;
        self.level_pos = end;
        // A page whose values the decoder left as dictionary indices (see
        // `PageDecoder::defer_byte_array_gather`): `page.values` holds only this batch's.
        let decoder = &self.stream.decoder;
        let values = match (decoder.deferred_indices(), decoder.dict()) {
            (Some(indices), Some(dict)) => {
                let v_end = (v_start + n_values).min(indices.len());
                self.page.values.clear();
                let batch = indices.get(v_start..v_end).unwrap_or(&[]);
                // The decoder checked every index against the dictionary.
                crate::page::decode::gather_reserved(dict, batch, &mut self.page.values)
                    .map_err(|e| self.locate(e))?;
                self.value_pos = v_end;
                self.page.values.as_ref()
            }
            _ => {
                let v_end = (v_start + n_values).min(self.page.values.len());
                self.value_pos = v_end;
                self.page.values.as_ref().slice_or_empty(v_start..v_end)
            }
        };
        Ok(Some(Batch {
            def_levels: def,
            rep_levels: rep,
            values,
            len: end - start,
            starts_page: start == 0,
        }))
    }

    /// Reads the rest of the chunk into one [`LeafData`] (levels only for max levels above 0).
    ///
    /// Allocation is the decoded chunk: bounded by the limits per page times the pages.
    pub fn read_all(mut self) -> Result<LeafData> {
        // A chunk's pages may hold far more positions than their bytes (runs): bound the
        // whole-chunk allocation by the declared num_values, which the pages may not exceed.
        let declared = self.stream.range.num_values;
        let limits = self.stream.limits;
        limits
            .check_values_per_read(declared)
            .map_err(|e| self.locate(e))?;
        let mut out = self.column.new_leaf_data();
        // What a caller's next_batch left of the current page.
        if self.level_pos < self.page_len {
            let (s, e) = (self.level_pos, self.page_len);
            out.def_levels
                .extend_from_slice(self.page.def_levels.get(s..e).unwrap_or(&[]));
            out.rep_levels
                .extend_from_slice(self.page.rep_levels.get(s..e).unwrap_or(&[]));
            let decoder = &self.stream.decoder;
            match (decoder.deferred_indices(), decoder.dict()) {
                (Some(indices), Some(dict)) => {
                    let rest = indices.get(self.value_pos..).unwrap_or(&[]);
                    crate::page::decode::gather_reserved(dict, rest, &mut out.values)
                        .map_err(|e| self.locate(e))?;
                }
                _ => {
                    let vals = self.page.values.as_ref();
                    out.values.extend_from(
                        vals.slice_or_empty(self.value_pos.min(vals.len())..vals.len()),
                    );
                }
            }
        }
        self.stream.decoder.defer_byte_array_gather(false);
        self.stream.decoder.defer_plain(false);
        loop {
            match self.stream.next_data_page(&mut out) {
                Ok(Some(_)) => {}
                Ok(None) => return Ok(out),
                Err(e) => return Err(self.locate(e)),
            }
        }
    }

    /// Appends the next data page's levels and values to `out` (made by
    /// [`ColumnChunkReader::new_leaf_data`]); false at the end of the chunk. For readers that
    /// take whole pages and never call [`ColumnChunkReader::next_batch`] (streamed records).
    pub(crate) fn append_page(&mut self, out: &mut LeafData) -> Result<bool> {
        self.append_page_as(out, false, false)
    }

    /// The next data page into `out`, its dictionary-encoded BYTE_ARRAY values left as
    /// indices where `indices`, its PLAIN values left encoded where `plain`.
    fn append_page_as(&mut self, out: &mut LeafData, indices: bool, plain: bool) -> Result<bool> {
        self.stream.decoder.defer_byte_array_gather(indices);
        self.stream.decoder.defer_plain(plain);
        match self.stream.next_data_page(out) {
            Ok(page) => Ok(page.is_some()),
            Err(e) => Err(self.locate(e)),
        }
    }

    /// As [`ColumnChunkReader::append_page`], except that a dictionary-encoded BYTE_ARRAY page
    /// leaves its values as indices ([`ColumnChunkReader::deferred_indices`]; `out` gets its
    /// levels only): the typed reader builds each `String` straight from the dictionary
    /// entry, without gathering the page's bytes first. Other pages decode as
    /// `append_page`'s do.
    pub(crate) fn append_page_indices(&mut self, out: &mut LeafData) -> Result<bool> {
        self.append_page_as(out, true, false)
    }

    /// Swaps the indices of the last page that [`ColumnChunkReader::append_page_indices`]
    /// left as indices (each checked against the dictionary) with `into` (whose buffer the
    /// decoder reuses); false, and nothing swapped, when it decoded its values.
    pub(crate) fn swap_deferred_indices(&mut self, into: &mut Vec<u32>) -> bool {
        self.stream.decoder.swap_deferred_indices(into)
    }

    /// The dictionary indices of the last page [`ColumnChunkReader::append_page_indices`]
    /// left as indices (each checked against the dictionary); `None` when it decoded its
    /// values.
    pub(crate) fn deferred_indices(&self) -> Option<&[u32]> {
        let d = &self.stream.decoder;
        d.dict().and(d.deferred_indices())
    }

    /// As [`ColumnChunkReader::append_page`], except that a dictionary-encoded BYTE_ARRAY page
    /// leaves its values as indices, and a page of PLAIN fixed-width values or of PLAIN,
    /// DELTA_LENGTH_BYTE_ARRAY or DELTA_BYTE_ARRAY byte arrays leaves them encoded (checked;
    /// `out` gets its levels only): the caller takes the values it keeps, in order, with
    /// [`ColumnChunkReader::gather_deferred`], straight into its output, instead of decoding
    /// the whole page and copying from it.
    pub(crate) fn append_page_deferred(&mut self, out: &mut LeafData) -> Result<bool> {
        self.append_page_as(out, true, true)
    }

    /// With `on`, the PLAIN fixed-width values of SNAPPY pages that
    /// [`ColumnChunkReader::append_page_deferred`] leaves encoded are decompressed only as
    /// far as [`ColumnChunkReader::gather_deferred`] takes them (a source in memory; see
    /// `PageDecoder::lazy_plain`): for a column read at a few rows of each page.
    pub(crate) fn lazy_values(mut self, on: bool) -> Self {
        self.stream.decoder.lazy_plain(on);
        self
    }

    /// How many values the last page [`ColumnChunkReader::append_page_deferred`] read left
    /// as dictionary indices or PLAIN values; `None` when it decoded them.
    pub(crate) fn deferred_values(&self) -> Option<usize> {
        let d = &self.stream.decoder;
        d.deferred_plain()
            .or_else(|| d.dict().and(d.deferred_indices()).map(<[u32]>::len))
    }

    /// The last page's dictionary ids and the chunk's dictionary, when
    /// [`ColumnChunkReader::append_page_deferred`] left its values as ids (a
    /// dictionary-encoded BYTE_ARRAY page); every id was checked against the dictionary.
    pub(crate) fn deferred_ids(&self) -> Option<(&[u32], crate::encoding::dictionary::Dict<'_>)> {
        let d = &self.stream.decoder;
        if d.deferred_plain().is_some() {
            return None;
        }
        Some((d.deferred_indices()?, d.dict()?))
    }

    /// Appends the values `range` of the last page's deferred values (see
    /// [`ColumnChunkReader::deferred_values`]) to `out`: decoded from the PLAIN section, or
    /// gathered from the dictionary.
    ///
    /// `reach` is how far into the page's values the caller's gathers of this call go (at
    /// least `range.end`): a page decompressed lazily is decompressed whole, by the faster
    /// whole-stream decoder, when they reach far into it.
    pub(crate) fn gather_deferred(
        &mut self,
        range: Range<usize>,
        reach: usize,
        out: &mut Values,
    ) -> Result<()> {
        if self.stream.decoder.deferred_plain().is_some() {
            let r = self.stream.decoder.gather_plain(range, reach, out);
            #[cfg(feature = "arrow")]
            let r = r.map_err(|e| e.in_page(self.stream.last_page));
            return r.map_err(|e| self.locate(e));
        }
        let d = &self.stream.decoder;
        let (Some(indices), Some(dict)) = (d.deferred_indices(), d.dict()) else {
            return Err(Error::invalid_argument("no deferred dictionary indices"));
        };
        let batch = indices.get(range).unwrap_or(&[]);
        // The decoder checked every index against the dictionary.
        crate::page::decode::gather_reserved(dict, batch, out).map_err(|e| self.locate(e))
    }

    /// The rows of the last page [`ColumnChunkReader::append_page`] read, when the offset
    /// index placed it.
    pub(crate) fn last_rows(&self) -> Option<Range<u64>> {
        self.stream.last_rows()
    }

    /// An empty [`LeafData`] of this column's kind.
    pub(crate) fn new_leaf_data(&self) -> LeafData {
        self.column.new_leaf_data()
    }

    /// The chunk's dictionary, once its dictionary page was read (see
    /// [`PageDecoder::dictionary`](crate::page::decode::PageDecoder::dictionary): a copy for a BYTE_ARRAY dictionary read in place).
    pub fn dictionary(&self) -> Option<alloc::borrow::Cow<'_, crate::values::Values>> {
        self.stream.decoder().dictionary()
    }

    /// Takes over `buffers` (from [`ColumnChunkReader::into_buffers`] of a reader that is
    /// done) to decode into, instead of allocating its own. Their contents are discarded.
    pub(crate) fn with_buffers(mut self, buffers: ChunkBuffers) -> Self {
        let ChunkBuffers {
            mut page_bytes,
            scratch,
            mut indices,
            decompressor,
            dict_bytes,
            mut def_levels,
            mut rep_levels,
            values,
        } = buffers;
        page_bytes.clear();
        // `scratch` is kept at its length: pages decompress over its bytes (see
        // `Decompressor::decompress_over`), so it is not zeroed again for every chunk.
        indices.clear();
        def_levels.clear();
        rep_levels.clear();
        self.stream = self
            .stream
            .with_buffers(page_bytes, (scratch, indices, decompressor, dict_bytes));
        self.page.def_levels = def_levels;
        self.page.rep_levels = rep_levels;
        // The values buffer, if it is of this column's kind.
        if let Some(mut mine) = values {
            if mine.physical_type() == self.page.values.physical_type()
                && fixed_width(&mine) == fixed_width(&self.page.values)
            {
                mine.clear();
                self.page.values = mine;
            }
        }
        self
    }

    /// Ends reading and gives back the buffers this reader decoded into, for
    /// [`FileReader::column_chunk_with`](super::FileReader::column_chunk_with): reading many
    /// chunks with one set of buffers allocates (and has the system map) their memory once
    /// instead of once per chunk.
    pub fn into_buffers(self) -> ChunkBuffers {
        let ColumnChunkReader { stream, page, .. } = self;
        let (scratch, indices, decompressor, dict_bytes) = stream.decoder.into_buffers();
        ChunkBuffers {
            page_bytes: stream.buf,
            scratch,
            indices,
            decompressor,
            dict_bytes,
            def_levels: page.def_levels,
            rep_levels: page.rep_levels,
            // Only this chunk's values buffer is handed on (and reused when the next chunk's
            // values are of its kind): keeping one per kind of values holds several large
            // buffers at once, and the memory the allocator then returns to the system at
            // the end costs more page faults than the reuse saves (taxi: 0 -> 481 a read).
            values: Some(page.values),
        }
    }
}

/// The width of FIXED_LEN_BYTE_ARRAY values, 0 for other kinds.
fn fixed_width(values: &Values) -> usize {
    match values {
        Values::FixedLenByteArray(f) => f.width(),
        _ => 0,
    }
}

/// The buffers a [`ColumnChunkReader`] decodes into: page bytes, decompressed pages, a
/// BYTE_ARRAY dictionary page that had to be copied or decompressed, dictionary indices,
/// levels and the last chunk's values; and its codec state (a ZSTD decompression context).
///
/// A reader allocates its buffers and keeps them from page to page. To keep them from chunk to
/// chunk as well, take them from a reader that is done with
/// [`ColumnChunkReader::into_buffers`] and hand them to the next with
/// [`FileReader::column_chunk_with`](super::FileReader::column_chunk_with). The values are the
/// same either way; only allocation changes.
///
/// ```
/// # fn main() -> parket::Result<()> {
/// # let bytes = parket::testing::corpus_file("alltypes_plain.parquet");
/// use parket::read::{ChunkBuffers, FileReader};
/// let file = FileReader::from_bytes(&bytes)?;
/// let mut buffers = ChunkBuffers::default();
/// let mut count = 0;
/// for row_group in 0..file.num_row_groups() {
///     for column in 0..file.schema().columns().len() {
///         let mut chunk = file.column_chunk_with(row_group, column, buffers)?;
///         while let Some(batch) = chunk.next_batch(1024)? {
///             count += batch.len();
///         }
///         buffers = chunk.into_buffers();
///     }
/// }
/// assert_eq!(count, 11 * 8); // 11 columns of 8 rows
/// # Ok(()) }
/// ```
#[derive(Debug, Default)]
pub struct ChunkBuffers {
    page_bytes: Vec<u8>,
    scratch: Vec<u8>,
    indices: Vec<u32>,
    decompressor: Decompressor,
    dict_bytes: Vec<u8>,
    def_levels: Vec<u16>,
    rep_levels: Vec<u16>,
    values: Option<Values>,
}
