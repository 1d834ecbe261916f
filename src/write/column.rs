//! The column chunk writer: levels + values in, encoded and compressed pages out.
//!
//! Values arrive in batches of any size. They are cut into slices of about
//! [`SLICE_LEVELS`] levels that end at row boundaries (repetition level 0 next), appended to
//! the open page, and the page is closed *before* a slice that starts a new row once it has
//! reached its byte or row limit. So a page always holds whole rows (the page index's
//! `first_row_index` needs that), and a page is encoded and compressed as soon as it is
//! closed: memory is the chunk's encoded pages plus one open page. A chunk at the front of its
//! row group (every column before it written out, see
//! [`RowGroupWriter::write`](crate::write::RowGroupWriter::write)) holds no pages: each goes
//! to the file as it is closed, once the chunk's dictionary is settled.
//!
//! Dictionary encoding: values go into a [`DictionaryEncoder`] as they arrive; the open page
//! keeps only their indices. When the dictionary would pass its byte limit, the open page is
//! closed (dictionary-encoded) at the last row start before the value that did not fit, and
//! the rest of the chunk is written with the fallback encoding — no second dictionary is
//! started (as pyarrow does). Only when no row start is in reach (a batch continuing a row)
//! are the open page's indices turned back into values. The dictionary page is written
//! before the data pages when the chunk ends, or when it falls back, because only then is the
//! dictionary complete; pages that use it wait for it.

use alloc::vec::Vec;

use crate::bloom::{hash_value, Sbbf};
use crate::encoding::dictionary::{self, DictionaryEncoder};
use crate::encoding::{
    byte_stream_split, delta_binary_packed, delta_byte_array, delta_length_byte_array, plain, rle,
};
use crate::error::{Error, Result};
use crate::format::{
    BoundaryOrder, ColumnChunk, ColumnIndex, ColumnMetaData, Encoding, OffsetIndex,
    PageEncodingStats, PageLocation, PageType, PhysicalType, SizeStatistics,
};
use crate::levels::count_level;
use crate::page::encode::{dictionary_page, v1_levels};
use crate::schema::ColumnDescriptor;
use crate::statistics::{compare, Scalar, StatKind, StatisticsBuilder};
use crate::values::{Values, ValuesRef};

use super::options::{ColumnSettings, PageVersion};
use super::page::{BodyLayout, PageAssembler, PageFields};
use super::Out;

/// Levels per slice between page-full checks (pyarrow checks every 1024 values).
pub const SLICE_LEVELS: usize = 1024;

/// Where a chunk's bytes went once they started going to the sink.
#[derive(Debug, Clone, Copy)]
struct Streamed {
    /// File offset of the chunk's first byte.
    start: u64,
    /// Bytes of the dictionary page written first (0 without one).
    dict_len: usize,
    /// The dictionary page's compressed and uncompressed sizes, header included.
    dict: Option<(i64, i64)>,
}

/// One data page of the chunk.
#[derive(Debug, Clone)]
struct PageRecord {
    offset: usize,
    size: usize,
    first_row: i64,
}

/// Writes the pages of one column chunk. Obtained from
/// [`RowGroupWriter::column`](crate::write::RowGroupWriter::column).
#[derive(Debug)]
pub struct ColumnWriter {
    descr: ColumnDescriptor,
    s: ColumnSettings,
    kind: StatKind,
    width: usize,
    // Open page.
    def: Vec<u16>,
    rep: Vec<u16>,
    page_rows: usize,
    page_nulls: usize,
    raw: Values,
    /// PLAIN-encoded BYTE_ARRAY values of the open page, encoded as they arrive instead of
    /// kept in `raw` (see `direct_plain`), and how many.
    plain_values: Vec<u8>,
    plain_count: usize,
    indices: Vec<u32>,
    page_stats: StatisticsBuilder,
    page_ba_bytes: i64,
    page_def_hist: Vec<i64>,
    page_rep_hist: Vec<i64>,
    // Dictionary: Some from the start when enabled; `dict_active` false after fallback.
    dict: Option<DictionaryEncoder>,
    dict_active: bool,
    dict_pages: i32,
    /// Dictionary ids used by the open page since its statistics were last brought up to
    /// date (a bitset over ids, and the ids in the order first seen): a dictionary-encoded
    /// page's min/max are those of its distinct entries, computed once per entry at flush
    /// instead of once per value.
    seen_bits: Vec<u64>,
    seen_ids: Vec<u32>,
    /// The dictionary ids of the slice being appended (reused).
    slice_indices: Vec<u32>,
    // Chunk.
    started: bool,
    chunk_stats: StatisticsBuilder,
    /// The encoded pages not yet in the sink, one buffer each (exactly sized): a single
    /// growing buffer would hold up to twice the chunk, and a copy at the end a third time.
    pages: Vec<Vec<u8>>,
    /// Bytes of the chunk's data pages so far, in the sink or in `pages`.
    pages_len: usize,
    /// Set once the chunk's bytes started going to the sink (see [`ColumnWriter::drain`]).
    streamed: Option<Streamed>,
    records: Vec<PageRecord>,
    ci_null_pages: Vec<bool>,
    ci_min: Vec<Vec<u8>>,
    ci_max: Vec<Vec<u8>>,
    ci_null_counts: Vec<i64>,
    ci_def_hist: Vec<i64>,
    ci_rep_hist: Vec<i64>,
    ci_valid: bool,
    oi_ba_bytes: Vec<i64>,
    encodings: Vec<Encoding>,
    encoding_stats: Vec<PageEncodingStats>,
    num_values: i64,
    num_rows: i64,
    total_uncompressed: i64,
    total_compressed: i64,
    ba_bytes: i64,
    def_hist: Vec<i64>,
    rep_hist: Vec<i64>,
    bloom_hashes: Vec<u64>,
    assembler: PageAssembler,
}

/// The buffers a column writer fills and empties page after page, and its codec state: handed
/// from a finished writer to one that has not started (the next column of a row group, the
/// first of the next row group), which then finds them at their full size instead of growing
/// its own through its first page (a page of a nested column holds hundreds of thousands of
/// levels and indices; growing them was a tenth of a nested write, in page faults).
#[derive(Debug, Default)]
pub(crate) struct WriterScratch {
    def: Vec<u16>,
    rep: Vec<u16>,
    indices: Vec<u32>,
    slice_indices: Vec<u32>,
    plain_values: Vec<u8>,
    assembler: PageAssembler,
}

/// A column chunk written out: what the footer and the page indexes say of it.
pub(crate) struct FinishedChunk {
    pub chunk: ColumnChunk,
    pub column_index: Option<ColumnIndex>,
    pub offset_index: Option<OffsetIndex>,
    pub bloom: Option<Sbbf>,
}

impl ColumnWriter {
    pub(crate) fn new(descr: ColumnDescriptor, s: ColumnSettings) -> Result<ColumnWriter> {
        let kind = StatKind::of_column(&descr);
        let width = descr.type_length.unwrap_or(0);
        let dict = if s.dictionary {
            Some(DictionaryEncoder::new(
                descr.physical_type,
                width,
                s.dictionary_page_size_limit,
            )?)
        } else {
            None
        };
        let hist = |max: u16| alloc::vec![0i64; if max > 0 { max as usize + 1 } else { 0 }];
        Ok(ColumnWriter {
            raw: Values::new(descr.physical_type, width),
            plain_values: Vec::new(),
            plain_count: 0,
            kind,
            width,
            def: Vec::new(),
            rep: Vec::new(),
            page_rows: 0,
            page_nulls: 0,
            indices: Vec::new(),
            page_stats: StatisticsBuilder::new(kind),
            page_ba_bytes: 0,
            page_def_hist: hist(descr.max_def_level),
            page_rep_hist: hist(descr.max_rep_level),
            dict_active: dict.is_some(),
            dict,
            dict_pages: 0,
            seen_bits: Vec::new(),
            seen_ids: Vec::new(),
            slice_indices: Vec::new(),
            started: false,
            chunk_stats: StatisticsBuilder::new(kind),
            pages: Vec::new(),
            pages_len: 0,
            streamed: None,
            records: Vec::new(),
            ci_null_pages: Vec::new(),
            ci_min: Vec::new(),
            ci_max: Vec::new(),
            ci_null_counts: Vec::new(),
            ci_def_hist: Vec::new(),
            ci_rep_hist: Vec::new(),
            ci_valid: true,
            oi_ba_bytes: Vec::new(),
            encodings: Vec::new(),
            encoding_stats: Vec::new(),
            num_values: 0,
            num_rows: 0,
            total_uncompressed: 0,
            total_compressed: 0,
            ba_bytes: 0,
            def_hist: hist(descr.max_def_level),
            rep_hist: hist(descr.max_rep_level),
            bloom_hashes: Vec::new(),
            assembler: PageAssembler::default(),
            s,
            descr,
        })
    }

    /// The column written.
    pub fn descriptor(&self) -> &ColumnDescriptor {
        &self.descr
    }

    /// Rows written so far (repetition level 0 positions).
    pub fn num_rows(&self) -> u64 {
        (self.num_rows + self.page_rows as i64) as u64
    }

    /// Bytes of the chunk's encoded pages so far (held or already in the file), plus an
    /// estimate of the open page.
    pub fn buffered_bytes(&self) -> usize {
        self.pages_len + self.page_estimate()
    }

    /// Writes a batch: `values` are the non-null values; `def_levels` has one level per
    /// position (empty when the column's `max_def_level` is 0); `rep_levels` likewise for
    /// `max_rep_level`. A batch may end inside a row; the next batch continues it.
    ///
    /// Errors (and writes nothing) when a level exceeds its maximum, the number of values is
    /// not the number of definition levels at `max_def_level`, the level arrays differ in
    /// length, the chunk's first repetition level is not 0, or the values are not of the
    /// column's physical type.
    pub fn write(
        &mut self,
        values: ValuesRef<'_>,
        def_levels: &[u16],
        rep_levels: &[u16],
    ) -> Result<()> {
        self.write_to(values, def_levels, rep_levels, None)
    }

    /// `write`, with the pages going straight to `out` once the chunk's dictionary is settled
    /// (the chunk is at the front of its row group: see [`RowGroupWriter::write`]).
    ///
    /// [`RowGroupWriter::write`]: crate::write::RowGroupWriter::write
    pub(crate) fn write_to(
        &mut self,
        values: ValuesRef<'_>,
        def_levels: &[u16],
        rep_levels: &[u16],
        mut out: Option<&mut Out<'_>>,
    ) -> Result<()> {
        let path = self.descr.path_string();
        self.check(values, def_levels, rep_levels)
            .map_err(|e| e.in_column(&path))?;
        let (max_def, max_rep) = (self.descr.max_def_level, self.descr.max_rep_level);
        let n = if max_def > 0 {
            def_levels.len()
        } else if max_rep > 0 {
            rep_levels.len()
        } else {
            values.len()
        };
        let (mut lv, mut vv) = (0, 0);
        while lv < n {
            let row_start = max_rep == 0 || rep_levels[lv] == 0;
            if row_start && !self.def_or_len_empty() && self.page_full() {
                self.flush_page(out.as_deref_mut())
                    .map_err(|e| e.in_column(&path))?;
            }
            // At most the rows the open page still has room for (a slice of k levels holds
            // at most k rows), so max_rows_per_page holds exactly.
            let room = self
                .s
                .max_rows_per_page
                .saturating_sub(self.page_rows)
                .max(1);
            let mut end = (lv + SLICE_LEVELS.min(room).min(self.byte_room())).min(n);
            if max_rep > 0 {
                while end < n && rep_levels[end] != 0 {
                    end += 1;
                }
            }
            let d = if max_def > 0 {
                &def_levels[lv..end]
            } else {
                &[][..]
            };
            let r = if max_rep > 0 {
                &rep_levels[lv..end]
            } else {
                &[][..]
            };
            let nv = if max_def > 0 {
                count_level(d, max_def)
            } else {
                end - lv
            };
            self.append(
                end - lv,
                d,
                r,
                values.slice(vv..vv + nv),
                out.as_deref_mut(),
            )
            .map_err(|e| e.in_column(&path))?;
            lv = end;
            vv += nv;
        }
        Ok(())
    }

    fn def_or_len_empty(&self) -> bool {
        self.page_levels() == 0
    }

    fn page_levels(&self) -> usize {
        if self.descr.max_def_level > 0 {
            self.def.len()
        } else if self.descr.max_rep_level > 0 {
            self.rep.len()
        } else if self.dict_active {
            self.indices.len()
        } else {
            self.raw.len() + self.plain_count
        }
    }

    fn check(&self, values: ValuesRef<'_>, def: &[u16], rep: &[u16]) -> Result<()> {
        let (max_def, max_rep) = (self.descr.max_def_level, self.descr.max_rep_level);
        let pt = self.descr.physical_type;
        if values.physical_type() != pt {
            return Err(Error::invalid_argument(alloc::format!(
                "values of {} written to a {pt} column",
                values.physical_type()
            )));
        }
        if let ValuesRef::FixedLenByteArray(f) = values {
            if f.width() != self.width && !f.is_empty() {
                return Err(Error::invalid_argument(alloc::format!(
                    "values of {} bytes written to a FIXED_LEN_BYTE_ARRAY({}) column",
                    f.width(),
                    self.width
                )));
            }
        }
        if max_def == 0 && !def.is_empty() {
            return Err(Error::invalid_argument(
                "definition levels given for a column whose max_def_level is 0",
            ));
        }
        if max_rep == 0 && !rep.is_empty() {
            return Err(Error::invalid_argument(
                "repetition levels given for a column whose max_rep_level is 0",
            ));
        }
        if max_def > 0 && max_rep > 0 && def.len() != rep.len() {
            return Err(Error::invalid_argument(alloc::format!(
                "{} definition levels but {} repetition levels",
                def.len(),
                rep.len()
            )));
        }
        // A branch-free maximum first (vectorised): the search for the culprit only on error.
        if max_of(def) > max_def {
            if let Some(&bad) = def.iter().find(|&&d| d > max_def) {
                return Err(Error::out_of_range("definition level", bad as i64));
            }
        }
        if max_of(rep) > max_rep {
            if let Some(&bad) = rep.iter().find(|&&r| r > max_rep) {
                return Err(Error::out_of_range("repetition level", bad as i64));
            }
        }
        let expected = if max_def > 0 {
            count_level(def, max_def)
        } else if max_rep > 0 {
            rep.len()
        } else {
            values.len()
        };
        if values.len() != expected {
            return Err(Error::invalid_argument(alloc::format!(
                "{} values given for {expected} definition levels at max_def_level",
                values.len()
            )));
        }
        if max_rep > 0 && !self.started && rep.first().is_some_and(|&r| r != 0) {
            return Err(Error::invalid_argument(
                "the first repetition level of a column chunk must be 0 (a row starts there)",
            ));
        }
        Ok(())
    }

    fn append(
        &mut self,
        n: usize,
        d: &[u16],
        r: &[u16],
        vals: ValuesRef<'_>,
        out: Option<&mut Out<'_>>,
    ) -> Result<()> {
        if n == 0 {
            return Ok(());
        }
        self.started = true;
        if !self.dict_active {
            return self.add_to_page(d, r, vals, None);
        }
        let dict = self
            .dict
            .as_mut()
            .ok_or(Error::unsupported("dictionary state"))?;
        let taken = dict.put(vals)?;
        // The slice's indices, in a buffer reused from slice to slice.
        let mut idx = core::mem::take(&mut self.slice_indices);
        dict.swap_indices(&mut idx);
        debug_assert_eq!(idx.len(), taken);
        let result = self.append_indexed(n, d, r, vals, &idx, out);
        self.slice_indices = idx;
        result
    }

    /// `append` once the dictionary took the first `idx.len()` values of the slice, whose ids
    /// are `idx`.
    fn append_indexed(
        &mut self,
        n: usize,
        d: &[u16],
        r: &[u16],
        vals: ValuesRef<'_>,
        idx: &[u32],
        out: Option<&mut Out<'_>>,
    ) -> Result<()> {
        let taken = idx.len();
        if taken == vals.len() {
            return self.add_to_page(d, r, vals, Some(idx));
        }
        // The dictionary is full at value `taken`. Cut the slice at the last row start at or
        // before that value's level: the part before goes into the open page, which is then
        // closed as a dictionary page; the rest starts the fallback encoding. Values between
        // the cut and `taken` (part of one row) are both in the dictionary and written again.
        let (max_def, max_rep) = (self.descr.max_def_level, self.descr.max_rep_level);
        let mut p = if max_def > 0 {
            let mut seen = 0;
            d.iter()
                .position(|&x| {
                    let hit = x == max_def && seen == taken;
                    seen += (x == max_def) as usize;
                    hit
                })
                .unwrap_or(n)
        } else {
            taken
        };
        if max_rep > 0 {
            while p > 0 && r[p] != 0 {
                p -= 1;
            }
        }
        let slice_starts_row = max_rep == 0 || r.first() == Some(&0);
        if p == 0 && !slice_starts_row {
            // No row boundary to cut at: the open page's indices become values again.
            self.add_to_page(d, r, vals.slice(0..taken), Some(idx))?;
            self.remove_last_values_for_fallback(vals, taken)?;
            return Ok(());
        }
        let kv = if max_def > 0 {
            d[..p].iter().filter(|&&x| x == max_def).count()
        } else {
            p
        };
        if p > 0 {
            self.add_to_page(
                &d[..p.min(d.len())],
                &r[..p.min(r.len())],
                vals.slice(0..kv),
                Some(&idx[..kv]),
            )?;
        }
        if self.page_levels() > 0 {
            self.flush_page(out)?;
        }
        self.dict_active = false;
        let d2 = if max_def > 0 { &d[p..] } else { &[][..] };
        let r2 = if max_rep > 0 { &r[p..] } else { &[][..] };
        self.add_to_page(d2, r2, vals.slice(kv..vals.len()), None)
    }

    /// Fallback without a row boundary in reach: the levels of the slice are already in the
    /// open page with the first `taken` values as indices; turn the page's indices into
    /// values and append the slice's remaining values.
    fn remove_last_values_for_fallback(&mut self, vals: ValuesRef<'_>, taken: usize) -> Result<()> {
        self.fall_back()?;
        let rest = vals.slice(taken..vals.len());
        if self.s.statistics {
            self.page_stats.update(rest)?;
        }
        if let ValuesRef::ByteArray(b) = rest {
            self.page_ba_bytes += b.total_bytes() as i64;
        }
        self.push_raw(rest)
    }

    /// Appends levels and values to the open page: as dictionary indices when `idx` is given,
    /// else as values. Levels of a slice whose values are split (see `append`) must all be
    /// passed with the first part.
    fn add_to_page(
        &mut self,
        d: &[u16],
        r: &[u16],
        vals: ValuesRef<'_>,
        idx: Option<&[u32]>,
    ) -> Result<()> {
        let n = if self.descr.max_def_level > 0 {
            d.len()
        } else if self.descr.max_rep_level > 0 {
            r.len()
        } else {
            vals.len()
        };
        self.def.extend_from_slice(d);
        self.rep.extend_from_slice(r);
        // One pass per level array: the histogram also counts the values (levels at
        // max_def_level) and the rows (repetition levels 0).
        let (max_def, max_rep) = (self.descr.max_def_level, self.descr.max_rep_level);
        let values_in_levels = if max_def > 0 {
            let before = self.page_def_hist[max_def as usize];
            add_to_histogram(&mut self.page_def_hist, d);
            (self.page_def_hist[max_def as usize] - before) as usize
        } else {
            n
        };
        self.page_rows += if max_rep > 0 {
            let before = self.page_rep_hist[0];
            add_to_histogram(&mut self.page_rep_hist, r);
            (self.page_rep_hist[0] - before) as usize
        } else {
            n
        };
        let nulls = n - values_in_levels;
        self.page_nulls += nulls;
        self.page_stats.add_nulls(nulls as u64);
        if self.s.statistics {
            match idx {
                // Integers: a branch-free min/max over the values beats marking their ids.
                Some(_)
                    if matches!(
                        self.kind,
                        StatKind::Int32 | StatKind::UInt32 | StatKind::Int64 | StatKind::UInt64
                    ) =>
                {
                    self.page_stats.update(vals)?
                }
                Some(ids) => self.mark_seen(ids),
                None => self.page_stats.update(vals)?,
            }
        }
        if let ValuesRef::ByteArray(b) = vals {
            self.page_ba_bytes += b.total_bytes() as i64;
        }
        match idx {
            Some(i) => self.indices.extend_from_slice(i),
            None => self.push_raw(vals)?,
        }
        Ok(())
    }

    /// Marks dictionary ids as used by the open page (see `seen_ids`).
    fn mark_seen(&mut self, ids: &[u32]) {
        let mut last = u32::MAX;
        for &id in ids {
            // Runs of one id are common (sorted or low-cardinality data).
            if id == last {
                continue;
            }
            last = id;
            let (word, bit) = (id as usize / 64, id % 64);
            if word >= self.seen_bits.len() {
                self.seen_bits.resize(word + 1, 0);
            }
            let w = &mut self.seen_bits[word];
            if *w & (1 << bit) == 0 {
                *w |= 1 << bit;
                self.seen_ids.push(id);
            }
        }
    }

    /// Brings the open page's statistics up to date with the dictionary entries it used:
    /// min/max over the distinct entries equal min/max over the values (ties are equal
    /// values, and float zeros are normalised when written).
    fn settle_seen(&mut self) -> Result<()> {
        if self.seen_ids.is_empty() {
            return Ok(());
        }
        match self.dict.as_ref().map(|d| d.dictionary()) {
            // Byte strings compared in place, not gathered into a copy first.
            Some(Values::ByteArray(d))
                if matches!(self.kind, StatKind::Bytes | StatKind::Decimal) =>
            {
                self.page_stats
                    .update_byte_strings(self.seen_ids.iter().filter_map(|&id| d.get(id as usize)));
            }
            _ => self.settle_seen_gathered()?,
        }
        for &id in &self.seen_ids {
            if let Some(w) = self.seen_bits.get_mut(id as usize / 64) {
                *w = 0;
            }
        }
        self.seen_ids.clear();
        Ok(())
    }

    /// `settle_seen`'s statistics update through a gather of the entries.
    fn settle_seen_gathered(&mut self) -> Result<()> {
        if let Some(dict) = &self.dict {
            let mut entries = Values::new(self.descr.physical_type, self.width);
            dictionary::gather(dict.dictionary().as_ref(), &self.seen_ids, &mut entries)?;
            self.page_stats.update(entries.as_ref())?;
        }
        Ok(())
    }

    fn push_raw(&mut self, vals: ValuesRef<'_>) -> Result<()> {
        if self.s.bloom_filter.is_some() {
            for i in 0..vals.len() {
                if let Some(h) = hash_value(vals, i) {
                    self.bloom_hashes.push(h);
                }
            }
        }
        if self.direct_plain() {
            self.plain_count += vals.len();
            return plain::encode(vals, &mut self.plain_values);
        }
        self.raw.extend_from(vals);
        Ok(())
    }

    /// Whether values that are not dictionary-encoded are PLAIN-encoded on arrival: BYTE_ARRAY
    /// (a copy into `raw` and a pass at the page's end saved) written PLAIN.
    fn direct_plain(&self) -> bool {
        !self.dict_active
            && self.s.encoding == Encoding::Plain
            && self.descr.physical_type == PhysicalType::ByteArray
    }

    /// Whether to keep the dictionary for the chunk's first page, about to be written
    /// dictionary-encoded. It is dropped when the page's values are nearly all distinct (at
    /// least 9 in 10 are dictionary entries: ids, timestamps, free text, UUIDs) *and* its
    /// indices plus the whole dictionary page are no smaller than its values PLAIN. The chunk
    /// then falls back before any page uses the dictionary, so no dictionary page is written:
    /// the file is smaller and the rest of the chunk is not hashed.
    ///
    /// parquet-java makes the size check alone; pyarrow keeps the dictionary until it reaches
    /// its byte limit. The size check alone loses when later pages repeat the first page's
    /// values: 500k values drawn from 100k, in pages of 50k, have 78% distinct values on the
    /// first page, where the dictionary does not pay yet, but pays over the chunk (a third
    /// smaller than PLAIN). Hence the distinct-values condition.
    fn dictionary_pays(&self) -> bool {
        let Some(dict) = &self.dict else {
            return false;
        };
        let n = self.indices.len();
        if dict.len().saturating_mul(10) < n.saturating_mul(9) {
            return true;
        }
        let ids = (n * rle::bit_width(dict.len() as u64) as usize).div_ceil(8) + 1;
        let plain = match dict.dictionary() {
            Values::ByteArray(b) => self
                .indices
                .iter()
                .map(|&i| 4 + b.get(i as usize).map_or(0, <[u8]>::len))
                .sum(),
            Values::Boolean(_) => n.div_ceil(8),
            Values::Int32(_) | Values::Float(_) => 4 * n,
            Values::Int64(_) | Values::Double(_) => 8 * n,
            Values::Int96(_) => 12 * n,
            Values::FixedLenByteArray(f) => f.width() * n,
        };
        dict.dictionary_plain_bytes() + ids < plain
    }

    /// The dictionary is full: the open page's indices become values again and the rest of
    /// the chunk uses the fallback encoding.
    fn fall_back(&mut self) -> Result<()> {
        self.settle_seen()?;
        self.dict_active = false;
        if let Some(dict) = &self.dict {
            dictionary::gather(dict.dictionary().as_ref(), &self.indices, &mut self.raw)?;
        }
        self.indices.clear();
        if self.direct_plain() && !self.raw.is_empty() {
            // The open page's values so far, before the ones still to come.
            self.plain_count += self.raw.len();
            plain::encode(self.raw.as_ref(), &mut self.plain_values)?;
            self.raw.clear();
        }
        Ok(())
    }

    fn page_estimate(&self) -> usize {
        let levels = (self.def.len() * rle::bit_width(self.descr.max_def_level as u64) as usize
            + self.rep.len() * rle::bit_width(self.descr.max_rep_level as u64) as usize)
            / 8;
        let values = if self.dict_active {
            let entries = self.dict.as_ref().map_or(0, |d| d.len());
            self.indices.len() * rle::bit_width(entries as u64) as usize / 8 + 1
        } else {
            match &self.raw {
                Values::Boolean(v) => v.len() / 8,
                Values::Int32(v) => v.len() * 4,
                Values::Float(v) => v.len() * 4,
                Values::Int64(v) => v.len() * 8,
                Values::Double(v) => v.len() * 8,
                Values::Int96(v) => v.len() * 12,
                Values::ByteArray(v) => v.data().len() + 4 * v.len() + self.plain_values.len(),
                Values::FixedLenByteArray(v) => v.data().len(),
            }
        };
        levels + values
    }

    /// Levels the open page has room for before its byte limit, estimated from the bytes
    /// per level so far (or the type's width for an empty page); at least 1.
    fn byte_room(&self) -> usize {
        let levels = self.page_levels();
        let estimate = self.page_estimate();
        let per_level = if levels > 0 {
            estimate.div_ceil(levels)
        } else {
            match self.descr.physical_type {
                PhysicalType::Boolean => 1,
                PhysicalType::Int32 | PhysicalType::Float => 4,
                PhysicalType::Int96 => 12,
                PhysicalType::FixedLenByteArray => self.width,
                _ => 8,
            }
        }
        .max(1);
        (self.s.data_page_size.saturating_sub(estimate) / per_level).max(1)
    }

    fn page_full(&self) -> bool {
        self.page_rows >= self.s.max_rows_per_page || self.page_estimate() >= self.s.data_page_size
    }

    /// Appends the open page's values, encoded, to `out`.
    fn encode_values(&self, out: &mut Vec<u8>) -> Result<Encoding> {
        if self.dict_active {
            let entries = self.dict.as_ref().map_or(0, |d| d.len());
            dictionary::encode_indices(&self.indices, entries, out);
            return Ok(Encoding::RleDictionary);
        }
        let v = self.raw.as_ref();
        match self.s.encoding {
            // Already encoded: `flush_page` passes `plain_values` to the page on its own.
            Encoding::Plain if self.plain_count > 0 => {}
            Encoding::Plain => plain::encode(v, out)?,
            Encoding::Rle => match v {
                ValuesRef::Boolean(b) => rle::encode_booleans(b, out),
                _ => return Err(Error::unsupported("RLE encoding of non-BOOLEAN values")),
            },
            Encoding::DeltaBinaryPacked => delta_binary_packed::encode(v, out)?,
            Encoding::DeltaLengthByteArray => delta_length_byte_array::encode(v, out)?,
            Encoding::DeltaByteArray => delta_byte_array::encode(v, out)?,
            Encoding::ByteStreamSplit => byte_stream_split::encode(v, out)?,
            _ => return Err(Error::unsupported("value encoding for the writer")),
        }
        Ok(self.s.encoding)
    }

    /// Closes the open page: into `pages`, or with `out` and the dictionary settled straight
    /// into the sink, after the pages held before it.
    fn flush_page(&mut self, mut out: Option<&mut Out<'_>>) -> Result<()> {
        if self.dict_active && self.dict_pages == 0 && !self.dictionary_pays() {
            self.fall_back()?;
        }
        if self.dict_active {
            out = None;
        }
        if let Some(o) = out.as_deref_mut() {
            self.drain(o)?;
        }
        self.settle_seen()?;
        let levels = self.page_levels();
        if levels == 0 && !self.records.is_empty() {
            return Ok(());
        }
        let num_non_null = levels - self.page_nulls;
        let header_stats = (self.s.statistics && !self.s.page_index)
            .then(|| self.page_stats.to_format(self.s.statistics_truncate_length));
        // Levels, then values, straight into the reused body buffer.
        let mut body = core::mem::take(&mut self.assembler.body);
        body.clear();
        let (max_def, max_rep) = (self.descr.max_def_level, self.descr.max_rep_level);
        let (wd, wr) = (
            rle::bit_width(max_def as u64),
            rle::bit_width(max_rep as u64),
        );
        let mut layout = BodyLayout {
            rep_len: 0,
            def_len: 0,
        };
        let encoded = match self.s.page_version {
            PageVersion::V1 => {
                let levels = [(&self.rep[..], max_rep), (&self.def[..], max_def)];
                v1_levels(levels, self.s.codec, &mut body);
                self.encode_values(&mut body)
            }
            PageVersion::V2 => {
                if max_rep > 0 {
                    rle::encode_levels(&self.rep, wr, &mut body);
                }
                layout.rep_len = body.len();
                if max_def > 0 {
                    rle::encode_levels(&self.def, wd, &mut body);
                }
                layout.def_len = body.len() - layout.rep_len;
                self.encode_values(&mut body)
            }
        };
        self.assembler.body = body;
        let encoding = encoded?;
        let fields = PageFields {
            num_values: u32_of(levels)?,
            num_nulls: u32_of(self.page_nulls)?,
            num_rows: u32_of(self.page_rows)?,
            encoding,
            statistics: header_stats,
        };
        let offset = self.pages_len;
        // Values PLAIN-encoded on arrival go to the page from their own buffer.
        let extra: &[u8] = if !self.dict_active && self.plain_count > 0 {
            &self.plain_values
        } else {
            &[]
        };
        let page = match self.s.page_version {
            PageVersion::V1 => self
                .assembler
                .finish_v1(fields, self.s.codec, self.s.crc, extra)?,
            PageVersion::V2 => {
                self.assembler
                    .finish_v2(fields, layout, self.s.codec, self.s.crc, extra)?
            }
        };
        let total_compressed = page.header_len + page.compressed_body;
        let total_uncompressed = page.header_len + page.uncompressed_body;
        self.pages_len += total_compressed;
        if let Some(o) = out {
            for part in self.assembler.parts(&page, extra) {
                o.put(part)?;
            }
        } else {
            // When the values end the page uncompressed, they are not copied: their buffer
            // itself is kept as the page's last part.
            let (bytes, detached) = self.assembler.to_bytes(&page, extra, true);
            self.pages.push(bytes);
            if detached {
                // The next page's values are likely about as many bytes.
                let next =
                    Vec::with_capacity(self.plain_values.len() + self.plain_values.len() / 8);
                let mut values = core::mem::replace(&mut self.plain_values, next);
                values.shrink_to_fit();
                self.pages.push(values);
            }
        }
        self.records.push(PageRecord {
            offset,
            size: total_compressed,
            first_row: self.num_rows,
        });
        self.total_compressed += total_compressed as i64;
        self.total_uncompressed += total_uncompressed as i64;
        if self.descr.max_def_level > 0 || self.descr.max_rep_level > 0 {
            push_unique(&mut self.encodings, Encoding::Rle);
        }
        push_unique(&mut self.encodings, encoding);
        let page_type = match self.s.page_version {
            PageVersion::V1 => PageType::DataPage,
            PageVersion::V2 => PageType::DataPageV2,
        };
        match self
            .encoding_stats
            .iter_mut()
            .find(|e| e.page_type == page_type && e.encoding == encoding)
        {
            Some(e) => e.count += 1,
            None => self.encoding_stats.push(PageEncodingStats {
                page_type,
                encoding,
                count: 1,
            }),
        }
        if encoding == Encoding::RleDictionary {
            self.dict_pages += 1;
        }
        // Column index entry.
        let null_page = num_non_null == 0;
        self.ci_null_pages.push(null_page);
        self.ci_null_counts.push(self.page_nulls as i64);
        match self
            .page_stats
            .min_max_plain(self.s.column_index_truncate_length)
        {
            Some((lo, _, hi, _)) => {
                self.ci_min.push(lo);
                self.ci_max.push(hi);
            }
            None => {
                // Spec: a null page has empty min/max; a page of only NaNs has no valid
                // bounds, so the chunk gets no column index.
                if !null_page {
                    self.ci_valid = false;
                }
                self.ci_min.push(Vec::new());
                self.ci_max.push(Vec::new());
            }
        }
        self.ci_def_hist.extend_from_slice(&self.page_def_hist);
        self.ci_rep_hist.extend_from_slice(&self.page_rep_hist);
        for (a, b) in self.def_hist.iter_mut().zip(&self.page_def_hist) {
            *a += b;
        }
        for (a, b) in self.rep_hist.iter_mut().zip(&self.page_rep_hist) {
            *a += b;
        }
        self.page_def_hist.iter_mut().for_each(|x| *x = 0);
        self.page_rep_hist.iter_mut().for_each(|x| *x = 0);
        self.oi_ba_bytes.push(self.page_ba_bytes);
        self.ba_bytes += self.page_ba_bytes;
        self.page_ba_bytes = 0;
        self.chunk_stats.merge(&self.page_stats);
        self.page_stats.clear();
        self.num_values += levels as i64;
        self.num_rows += self.page_rows as i64;
        self.page_rows = 0;
        self.page_nulls = 0;
        self.def.clear();
        self.rep.clear();
        self.raw.clear();
        self.plain_values.clear();
        self.plain_count = 0;
        self.indices.clear();
        Ok(())
    }

    /// Puts the pages held into `out` (the chunk is at the front of its row group, and its
    /// dictionary settled or the chunk ending), after the dictionary page when the chunk has
    /// one and this is the chunk's first output.
    fn drain(&mut self, out: &mut Out<'_>) -> Result<()> {
        if self.streamed.is_none() {
            let mut bytes = Vec::new();
            let dict = self.dictionary_page(&mut bytes)?;
            self.streamed = Some(Streamed {
                start: *out.offset,
                dict_len: bytes.len(),
                dict,
            });
            out.put(&bytes)?;
        }
        for page in self.pages.drain(..) {
            out.put(&page)?;
        }
        Ok(())
    }

    /// Encodes the dictionary page into `out` when data pages use the dictionary; returns
    /// its compressed and uncompressed sizes, header included.
    fn dictionary_page(&self, out: &mut Vec<u8>) -> Result<Option<(i64, i64)>> {
        let (Some(dict), true) = (&self.dict, self.dict_pages > 0) else {
            return Ok(None);
        };
        let mut plain_bytes = Vec::with_capacity(dict.dictionary_plain_bytes());
        plain::encode(dict.dictionary().as_ref(), &mut plain_bytes)?;
        let info = dictionary_page(
            &plain_bytes,
            u32_of(dict.len())?,
            self.s.codec,
            self.s.crc,
            out,
        )?;
        Ok(Some((
            info.total_compressed() as i64,
            info.total_uncompressed() as i64,
        )))
    }

    /// Closes the chunk: flushes the open page and writes what is still held to `out`, where
    /// the chunk is at the front of its row group. Returns the chunk and the writer's
    /// buffers, for another writer to [`ColumnWriter::adopt`].
    pub(crate) fn finish(mut self, out: &mut Out<'_>) -> Result<(FinishedChunk, WriterScratch)> {
        let path = self.descr.path_string();
        let chunk = self.finish_inner(out).map_err(|e| e.in_column(&path))?;
        let scratch = WriterScratch {
            def: core::mem::take(&mut self.def),
            rep: core::mem::take(&mut self.rep),
            indices: core::mem::take(&mut self.indices),
            slice_indices: core::mem::take(&mut self.slice_indices),
            plain_values: core::mem::take(&mut self.plain_values),
            assembler: core::mem::take(&mut self.assembler),
        };
        Ok((chunk, scratch))
    }

    /// Takes over a finished writer's buffers (emptied) when this one has not started.
    pub(crate) fn adopt(&mut self, scratch: WriterScratch) {
        if self.started || self.page_levels() > 0 || !self.pages.is_empty() {
            return;
        }
        let WriterScratch {
            mut def,
            mut rep,
            mut indices,
            mut slice_indices,
            mut plain_values,
            assembler,
        } = scratch;
        def.clear();
        rep.clear();
        indices.clear();
        slice_indices.clear();
        plain_values.clear();
        self.def = def;
        self.rep = rep;
        self.indices = indices;
        self.slice_indices = slice_indices;
        self.plain_values = plain_values;
        self.assembler = assembler;
    }

    fn finish_inner(&mut self, out: &mut Out<'_>) -> Result<FinishedChunk> {
        if self.records.is_empty() && self.page_levels() == 0 {
            // No rows: one empty page, so data_page_offset points at a real page. It is
            // PLAIN: an RLE_DICTIONARY page would need a dictionary page.
            self.dict_active = false;
        }
        if self.page_levels() > 0 || self.records.is_empty() {
            self.flush_page(Some(&mut *out))?;
        }
        // The dictionary is complete now: everything held goes out.
        self.drain(out)?;
        let streamed = self
            .streamed
            .ok_or(Error::unsupported("a column chunk without pages"))?;
        let start = streamed.start;
        let mut dictionary_page_offset = None;
        let mut total_compressed = self.total_compressed;
        let mut total_uncompressed = self.total_uncompressed;
        let mut encodings = Vec::new();
        let mut encoding_stats = Vec::new();
        if let Some((compressed, uncompressed)) = streamed.dict {
            dictionary_page_offset = Some(start as i64);
            total_compressed += compressed;
            total_uncompressed += uncompressed;
            encodings.push(Encoding::Plain);
            encoding_stats.push(PageEncodingStats {
                page_type: PageType::DictionaryPage,
                encoding: Encoding::Plain,
                count: 1,
            });
        }
        for e in &self.encodings {
            push_unique(&mut encodings, *e);
        }
        encoding_stats.extend(self.encoding_stats.iter().cloned());
        let data_start = start + streamed.dict_len as u64;

        let bloom = match self.s.bloom_filter {
            None => None,
            Some(b) => {
                let mut hashes = core::mem::take(&mut self.bloom_hashes);
                if let Some(dict) = &self.dict {
                    let d = dict.dictionary().as_ref();
                    hashes.extend((0..d.len()).filter_map(|i| hash_value(d, i)));
                }
                hashes.sort_unstable();
                hashes.dedup();
                let ndv = b.ndv.unwrap_or(hashes.len() as u64);
                let mut f = Sbbf::with_ndv_fpp(ndv, b.fpp)?;
                for h in hashes {
                    f.insert_hash(h);
                }
                Some(f)
            }
        };

        let is_ba = self.descr.physical_type == PhysicalType::ByteArray;
        let has_order = self.kind != StatKind::Undefined;
        let statistics = self.s.statistics.then(|| {
            let mut st = self
                .chunk_stats
                .to_format(self.s.statistics_truncate_length);
            if !has_order {
                st.min_value = None;
                st.max_value = None;
            }
            st
        });
        let size_statistics = SizeStatistics {
            unencoded_byte_array_data_bytes: is_ba.then_some(self.ba_bytes),
            repetition_level_histogram: (self.descr.max_rep_level > 0)
                .then(|| self.rep_hist.clone()),
            definition_level_histogram: (self.descr.max_def_level > 0)
                .then(|| self.def_hist.clone()),
        };
        let offset_index = self.s.page_index.then(|| OffsetIndex {
            page_locations: self
                .records
                .iter()
                .map(|r| PageLocation {
                    offset: (data_start + r.offset as u64) as i64,
                    compressed_page_size: r.size as i32,
                    first_row_index: r.first_row,
                })
                .collect(),
            unencoded_byte_array_data_bytes: is_ba.then(|| self.oi_ba_bytes.clone()),
        });
        let column_index = (self.s.page_index && self.s.statistics && has_order && self.ci_valid)
            .then(|| ColumnIndex {
                boundary_order: boundary_order(
                    self.kind,
                    &self.ci_null_pages,
                    &self.ci_min,
                    &self.ci_max,
                ),
                null_pages: core::mem::take(&mut self.ci_null_pages),
                min_values: core::mem::take(&mut self.ci_min),
                max_values: core::mem::take(&mut self.ci_max),
                null_counts: Some(core::mem::take(&mut self.ci_null_counts)),
                repetition_level_histograms: (self.descr.max_rep_level > 0)
                    .then(|| core::mem::take(&mut self.ci_rep_hist)),
                definition_level_histograms: (self.descr.max_def_level > 0)
                    .then(|| core::mem::take(&mut self.ci_def_hist)),
                nan_counts: None,
            });
        let meta = ColumnMetaData {
            type_: self.descr.physical_type,
            encodings,
            path_in_schema: self.descr.path.clone(),
            codec: self.s.codec.to_spec(),
            num_values: self.num_values,
            total_uncompressed_size: total_uncompressed,
            total_compressed_size: total_compressed,
            key_value_metadata: None,
            data_page_offset: data_start as i64,
            index_page_offset: None,
            dictionary_page_offset,
            statistics,
            encoding_stats: Some(encoding_stats),
            bloom_filter_offset: None,
            bloom_filter_length: None,
            size_statistics: Some(size_statistics),
            geospatial_statistics: None,
        };
        Ok(FinishedChunk {
            chunk: ColumnChunk {
                file_path: None,
                file_offset: 0,
                meta_data: Some(meta),
                offset_index_offset: None,
                offset_index_length: None,
                column_index_offset: None,
                column_index_length: None,
                crypto_metadata: None,
                encrypted_column_metadata: None,
            },
            column_index,
            offset_index,
            bloom,
        })
    }
}

/// The largest of `levels`, 0 for none (vectorised).
fn max_of(levels: &[u16]) -> u16 {
    levels.iter().fold(0, |m, &x| m.max(x))
}

/// Adds `levels` to `hist` (one counter per level 0..=max, levels already checked against
/// the max). Levels of at most 1 are counted without indexing.
fn add_to_histogram(hist: &mut [i64], levels: &[u16]) {
    // Few levels (max level below 8, as nearly always): one vectorised count per level
    // above 0, instead of an increment per value (a chain through the same counter).
    if hist.len() <= 8 {
        let mut counted = 0;
        for (level, h) in hist.iter_mut().enumerate().skip(1) {
            let k = count_level(levels, level as u16);
            *h += k as i64;
            counted += k;
        }
        if let Some(zeros) = hist.first_mut() {
            *zeros += (levels.len() - counted) as i64;
        }
        return;
    }
    for &x in levels {
        if let Some(h) = hist.get_mut(x as usize) {
            *h += 1;
        }
    }
}

fn u32_of(n: usize) -> Result<u32> {
    u32::try_from(n).map_err(|_| Error::limit("values in a page", n as u64, u32::MAX as u64))
}

fn push_unique(v: &mut Vec<Encoding>, e: Encoding) {
    if !v.contains(&e) {
        v.push(e);
    }
}

/// Spec (PageIndex.md): ASCENDING when the pages' min and max values both never decrease
/// (null pages skipped), DESCENDING when they never increase, else UNORDERED.
fn boundary_order(
    kind: StatKind,
    null_pages: &[bool],
    mins: &[Vec<u8>],
    maxs: &[Vec<u8>],
) -> BoundaryOrder {
    let pages: Vec<(Scalar, Scalar)> = null_pages
        .iter()
        .zip(mins.iter().zip(maxs))
        .filter(|(null, _)| !**null)
        .filter_map(|(_, (lo, hi))| {
            Some((Scalar::from_plain(kind, lo)?, Scalar::from_plain(kind, hi)?))
        })
        .collect();
    let (mut asc, mut desc) = (true, true);
    for w in pages.windows(2) {
        let lo = compare(kind, &w[0].0, &w[1].0);
        let hi = compare(kind, &w[0].1, &w[1].1);
        if lo.is_gt() || hi.is_gt() {
            asc = false;
        }
        if lo.is_lt() || hi.is_lt() {
            desc = false;
        }
    }
    if asc {
        BoundaryOrder::Ascending
    } else if desc {
        BoundaryOrder::Descending
    } else {
        BoundaryOrder::Unordered
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compression::Codec;
    use crate::schema::Schema;
    use crate::write::WriteOptions;
    use proptest::prelude::*;

    /// Writes one optional column whole and returns its chunk and column index.
    fn write_one(
        schema: &str,
        dictionary: bool,
        dict_limit: usize,
        values: ValuesRef<'_>,
        def: &[u16],
    ) -> FinishedChunk {
        let schema = Schema::parse(schema).unwrap();
        let descr = schema.columns()[0].clone();
        let options = WriteOptions::default()
            .codec(Codec::Uncompressed)
            .dictionary(dictionary)
            .dictionary_page_size_limit(dict_limit)
            .max_rows_per_page(1 << 20);
        let settings = options
            .resolve(&descr.path_string(), descr.physical_type)
            .unwrap();
        let mut w = ColumnWriter::new(descr, settings).unwrap();
        w.write(values, def, &[]).unwrap();
        let (mut sink, mut offset, mut failed) = (Vec::new(), 4, false);
        let mut out = Out {
            sink: &mut sink,
            offset: &mut offset,
            failed: &mut failed,
        };
        w.finish(&mut out).unwrap().0
    }

    fn stats_of(c: &FinishedChunk) -> Option<crate::format::Statistics> {
        c.chunk
            .meta_data
            .as_ref()
            .and_then(|m| m.statistics.clone())
    }

    proptest! {
        #[test]
        fn histogram_matches_a_count_per_level(
            max in 0u16..12,
            raw in proptest::collection::vec(any::<u16>(), 0..300),
            start in proptest::collection::vec(0i64..5, 13),
        ) {
            let levels: Vec<u16> = raw.iter().map(|&x| x % (max + 1)).collect();
            let mut hist = start[..=max as usize].to_vec();
            let mut expected = hist.clone();
            for &x in &levels {
                expected[x as usize] += 1;
            }
            add_to_histogram(&mut hist, &levels);
            prop_assert_eq!(hist, expected);
        }
    }

    proptest! {
        // The statistics of dictionary-encoded pages come from the page's distinct
        // entries; the reference is the per-value update of the plain path.
        #[test]
        fn dictionary_page_statistics_match_per_value(
            raw in proptest::collection::vec((0u8..12, any::<bool>()), 0..400),
            limit in prop_oneof![Just(1usize << 20), 8usize..64],
        ) {
            let def: Vec<u16> = raw.iter().map(|&(_, valid)| u16::from(valid)).collect();
            let picked: Vec<u8> = raw.iter().filter(|r| r.1).map(|r| r.0).collect();
            let doubles: Vec<f64> = picked
                .iter()
                .map(|&v| match v {
                    0 => -0.0,
                    1 => 0.0,
                    2 => f64::NAN,
                    v => f64::from(v) * 1.5 - 7.0,
                })
                .collect();
            let strings: crate::values::ByteArrays =
                picked.iter().map(|&v| alloc::format!("s{}", v * 7 % 11)).collect();
            let cases = [
                ("message m { optional double x; }", Values::Double(doubles)),
                ("message m { optional binary x (STRING); }", Values::ByteArray(strings)),
            ];
            for (schema, values) in cases {
                let dict = write_one(schema, true, limit, values.as_ref(), &def);
                let plain = write_one(schema, false, limit, values.as_ref(), &def);
                prop_assert_eq!(stats_of(&dict), stats_of(&plain));
                if limit == 1 << 20 {
                    // One page each: the page's statistics agree too.
                    prop_assert_eq!(&dict.column_index, &plain.column_index);
                }
            }
        }
    }
}
