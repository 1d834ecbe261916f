//! The column chunk encoder: levels and values in; pages, statistics and page index entries
//! out. No I/O: each page goes to a [`PageSink`] as it is closed (the column writer decides
//! whether it is held or written out), built by the page layer's
//! [`PageEncoder`](crate::page::encode::PageEncoder).
//!
//! Values arrive in batches of any size. They are cut into slices of about
//! [`SLICE_LEVELS`] levels that end at row boundaries (repetition level 0 next), appended to
//! the open page, and the page is closed *before* a slice that starts a new row once it has
//! reached its byte or row limit. So a page always holds whole rows (the page index's
//! `first_row_index` needs that), and a page is encoded and compressed as soon as it is
//! closed: memory is the chunk's encoded pages plus one open page.
//!
//! Dictionary encoding: values go into a [`DictionaryEncoder`] as they arrive; the open page
//! keeps only their ids. When the dictionary would pass its byte limit, the open page is
//! closed (dictionary-encoded) at the last row start before the value that did not fit, and
//! the rest of the chunk is written with the fallback encoding — no second dictionary is
//! started (as pyarrow does). Only when no row start is in reach (a batch continuing a row)
//! are the open page's ids turned back into values. The dictionary page goes to the sink when
//! the dictionary is complete: when the chunk falls back, or when it ends; data pages that use
//! it wait for it.
//!
//! For example, a chunk of `[a, b, a]` with the dictionary on, in one page: the dictionary
//! takes `a` (id 0) and `b` (id 1), the page holds the ids `0 1 0`, and the sink receives one
//! RLE_DICTIONARY data page (ids at bit width 1: `01 03 02`, the width then one bit-packed
//! group) and, when the chunk ends, the dictionary page of `a, b`.

use alloc::vec::Vec;

use crate::bloom::{hash_value, Sbbf};
use crate::encoding::dictionary::{self, DictionaryEncoder};
use crate::encoding::plain;
use crate::encoding::rle::{self, LevelEncoder};
use crate::error::{Error, Result};
use crate::format::{CompressionCodec, Encoding, GeospatialStatistics, PhysicalType, Statistics};
use crate::geospatial::ChunkGeoStats;
use crate::levels::count_level;
use crate::page::encode::{DataPage, EncodedPage, PageEncoder, PageValues};
use crate::schema::ColumnDescriptor;
use crate::statistics::{StatKind, StatisticsBuilder};
use crate::values::{Values, ValuesRef};

use super::open_page::OpenPage;
use super::options::ColumnSettings;
use super::page_index::{ChunkIndexes, PageEntry, PageIndexBuilder};

/// Levels per slice between page-full checks (pyarrow checks every 1024 values).
pub const SLICE_LEVELS: usize = 1024;

/// Where the chunk encoder's pages go, in the order of the chunk: the dictionary page first
/// (it may arrive after data pages that use it, which wait for it), then the data pages.
pub(crate) trait PageSink {
    /// The chunk's dictionary page, complete.
    fn dictionary_page(&mut self, page: &EncodedPage<'_>) -> Result<Stored>;

    /// A data page; `uses_dictionary` when its values are dictionary ids. The sink may take
    /// the page without its last part ([`EncodedPage::to_vec_without_input`],
    /// [`Stored::keeps_values`]): the encoder then hands the buffer of that part to
    /// [`PageSink::values_buffer`].
    fn data_page(&mut self, page: &EncodedPage<'_>, uses_dictionary: bool) -> Result<Stored>;

    /// The buffer of the last data page's encoded values, which ends that page.
    fn values_buffer(&mut self, values: Vec<u8>);
}

/// A page as its sink stores it: the bytes it takes in the file (an encrypted page's header
/// and body are modules, larger than the page built).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Stored {
    /// Bytes of the page, header included.
    pub total: usize,
    /// Bytes of its header.
    pub header_len: usize,
    /// The sink took the page without its last part, whose buffer it wants.
    pub keeps_values: bool,
}

impl Stored {
    /// `page` stored as built.
    pub fn as_built(page: &EncodedPage<'_>, keeps_values: bool) -> Stored {
        Stored {
            total: page.total_compressed(),
            header_len: page.header_len(),
            keeps_values,
        }
    }
}

/// The buffers a chunk encoder fills and empties page after page, and its page encoder: handed
/// from a finished encoder to one that has not started (the next column of a row group, the
/// first of the next row group), which then finds them at their full size instead of growing
/// its own through its first page (a page of a nested column holds hundreds of thousands of
/// levels and ids; growing them was a tenth of a nested write, in page faults).
#[derive(Debug)]
pub(crate) struct EncoderScratch {
    def: LevelEncoder,
    rep: LevelEncoder,
    ids: Vec<u32>,
    slice_ids: Vec<u32>,
    plain: Vec<u8>,
    pages: PageEncoder,
}

/// A chunk encoded: what its metadata says of its pages.
pub(crate) struct EncodedChunk {
    pub codec: CompressionCodec,
    pub num_values: i64,
    /// Data pages' bytes, header included, as written and before compression.
    pub total_compressed: i64,
    pub total_uncompressed: i64,
    /// The dictionary page's sizes likewise, when the chunk has one.
    pub dictionary_page: Option<(i64, i64)>,
    pub statistics: Option<Statistics>,
    /// GEOMETRY / GEOGRAPHY columns: bounding box and type codes.
    pub geospatial_statistics: Option<GeospatialStatistics>,
    pub indexes: ChunkIndexes,
    /// Whether `indexes` should give the file a column index and an offset index.
    pub page_index: bool,
    pub bloom: Option<Sbbf>,
}

/// The dictionary ids of the values `ChunkEncoder::add_to_page` appends.
#[derive(Clone, Copy)]
enum Ids<'a> {
    /// Not dictionary-encoded: the values themselves go into the page.
    None,
    /// These ids, to append to the page's.
    Given(&'a [u32]),
    /// Already at the end of the page's ids, from this index on.
    Placed(usize),
}

/// Encodes one column chunk.
#[derive(Debug)]
pub(crate) struct ChunkEncoder {
    descr: ColumnDescriptor,
    settings: ColumnSettings,
    kind: StatKind,
    width: usize,
    page: OpenPage,
    /// Some from the start when enabled; `dictionary_active` false after fallback.
    dictionary: Option<DictionaryEncoder>,
    dictionary_active: bool,
    dictionary_pages: i32,
    /// The dictionary ids of the slice being appended (reused).
    slice_ids: Vec<u32>,
    started: bool,
    chunk_stats: StatisticsBuilder,
    /// GEOMETRY / GEOGRAPHY columns with statistics on: every value's box and type.
    geo: Option<ChunkGeoStats>,
    /// Bytes of the chunk's data pages so far.
    data_bytes: usize,
    num_values: i64,
    num_rows: i64,
    total_uncompressed: i64,
    total_compressed: i64,
    dictionary_page: Option<(i64, i64)>,
    bloom_hashes: Vec<u64>,
    pages: PageEncoder,
    index: PageIndexBuilder,
}

impl ChunkEncoder {
    pub fn new(descr: ColumnDescriptor, settings: ColumnSettings) -> Result<ChunkEncoder> {
        let kind = StatKind::of_column(&descr);
        let width = descr.type_length.unwrap_or(0);
        let dictionary = if settings.dictionary {
            Some(DictionaryEncoder::new(
                descr.physical_type,
                width,
                settings.dictionary_page_size_limit,
            )?)
        } else {
            None
        };
        let (max_def, max_rep) = (descr.max_def_level, descr.max_rep_level);
        let byte_array = descr.physical_type == PhysicalType::ByteArray;
        let total = settings.ieee_754_total_order && kind.is_floating();
        let pages = PageEncoder::new(settings.page_version, settings.codec, settings.crc);
        let page = OpenPage::new(
            descr.physical_type,
            width,
            kind,
            max_def,
            max_rep,
            total,
            pages.levels_for_codec(),
        );
        Ok(ChunkEncoder {
            page,
            kind,
            width,
            dictionary_active: dictionary.is_some(),
            dictionary,
            dictionary_pages: 0,
            slice_ids: Vec::new(),
            started: false,
            chunk_stats: StatisticsBuilder::new(kind).with_total_order(total),
            geo: match &descr.logical_type {
                Some(l) if settings.statistics => ChunkGeoStats::new(l),
                _ => None,
            },
            data_bytes: 0,
            num_values: 0,
            num_rows: 0,
            total_uncompressed: 0,
            total_compressed: 0,
            dictionary_page: None,
            bloom_hashes: Vec::new(),
            pages,
            index: PageIndexBuilder::new(kind, max_def, max_rep, byte_array, total),
            settings,
            descr,
        })
    }

    pub fn descriptor(&self) -> &ColumnDescriptor {
        &self.descr
    }

    /// Rows so far, the open page's included.
    pub fn num_rows(&self) -> u64 {
        (self.num_rows + self.page.rows as i64) as u64
    }

    /// Bytes of the chunk's data pages so far, plus an estimate of the open page.
    pub fn buffered_bytes(&self) -> usize {
        self.data_bytes + self.page_estimate()
    }

    /// Whether the chunk's data pages no longer wait for a dictionary page: the dictionary
    /// is off, or the chunk fell back (its dictionary page, if any page used it, is built).
    pub fn dictionary_settled(&self) -> bool {
        !self.dictionary_active
    }

    /// Levels in the open page plus entries in the dictionary: roughly the work `finish`
    /// has left (encoding the last page, the dictionary page, the Bloom filter).
    pub fn closing_work(&self) -> usize {
        self.page_levels() + self.dictionary.as_ref().map_or(0, |d| d.len())
    }

    /// Whether nothing was written yet.
    pub fn is_empty(&self) -> bool {
        !self.started && self.page_levels() == 0 && self.index.num_pages() == 0
    }

    /// Encodes a batch (see [`ColumnWriter::write`](super::ColumnWriter::write)): closed
    /// pages go to `sink`.
    pub fn write(
        &mut self,
        values: ValuesRef<'_>,
        def_levels: &[u16],
        rep_levels: &[u16],
        sink: &mut dyn PageSink,
    ) -> Result<()> {
        self.check(values, def_levels, rep_levels)?;
        if let (Some(geo), ValuesRef::ByteArray(b)) = (&mut self.geo, values) {
            for v in b.iter() {
                geo.add(v);
            }
        }
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
            if row_start && self.page_levels() > 0 && self.page_full() {
                self.flush_page(sink)?;
            }
            // At most the rows the open page still has room for (a slice of k levels holds
            // at most k rows), so max_rows_per_page holds exactly.
            let room = self
                .settings
                .max_rows_per_page
                .saturating_sub(self.page.rows)
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
            self.append(end - lv, d, r, values.slice(vv..vv + nv), sink)?;
            lv = end;
            vv += nv;
        }
        Ok(())
    }

    fn page_levels(&self) -> usize {
        if self.descr.max_def_level > 0 {
            self.page.def.len()
        } else if self.descr.max_rep_level > 0 {
            self.page.rep.len()
        } else if self.dictionary_active {
            self.page.ids.len()
        } else {
            self.page.values.len() + self.page.plain_count
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
        sink: &mut dyn PageSink,
    ) -> Result<()> {
        if n == 0 {
            return Ok(());
        }
        self.started = true;
        if !self.dictionary_active {
            return self.add_to_page(d, r, vals, Ids::None);
        }
        // The slice's ids go straight to the end of the open page's.
        self.reserve_ids(vals.len());
        let dict = self
            .dictionary
            .as_mut()
            .ok_or(Error::unsupported("dictionary state"))?;
        let start = self.page.ids.len();
        let taken = dict.put_into(vals, &mut self.page.ids)?;
        debug_assert_eq!(self.page.ids.len() - start, taken);
        if taken == vals.len() {
            return self.add_to_page(d, r, vals, Ids::Placed(start));
        }
        // The dictionary filled up within the slice: its ids out of the page again, into a
        // buffer reused from slice to slice.
        let mut ids = core::mem::take(&mut self.slice_ids);
        ids.clear();
        ids.extend_from_slice(self.page.ids.get(start..).unwrap_or(&[]));
        self.page.ids.truncate(start);
        let result = self.append_ids(n, d, r, vals, &ids, sink);
        self.slice_ids = ids;
        result
    }

    /// `append` once the dictionary took the first `ids.len()` values of the slice, whose ids
    /// are `ids`.
    fn append_ids(
        &mut self,
        n: usize,
        d: &[u16],
        r: &[u16],
        vals: ValuesRef<'_>,
        ids: &[u32],
        sink: &mut dyn PageSink,
    ) -> Result<()> {
        let taken = ids.len();
        if taken == vals.len() {
            return self.add_to_page(d, r, vals, Ids::Given(ids));
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
            // No row boundary to cut at: the open page's ids become values again.
            self.add_to_page(d, r, vals.slice(0..taken), Ids::Given(ids))?;
            return self.fall_back_within_page(vals, taken, sink);
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
                Ids::Given(&ids[..kv]),
            )?;
        }
        if self.page_levels() > 0 {
            self.flush_page(sink)?;
        }
        self.dictionary_active = false;
        self.dictionary_complete(sink)?;
        let d2 = if max_def > 0 { &d[p..] } else { &[][..] };
        let r2 = if max_rep > 0 { &r[p..] } else { &[][..] };
        self.add_to_page(d2, r2, vals.slice(kv..vals.len()), Ids::None)
    }

    /// Fallback without a row boundary in reach: the levels of the slice are already in the
    /// open page with the first `taken` values as ids; turn the page's ids into values and
    /// append the slice's remaining values.
    fn fall_back_within_page(
        &mut self,
        vals: ValuesRef<'_>,
        taken: usize,
        sink: &mut dyn PageSink,
    ) -> Result<()> {
        self.fall_back(sink)?;
        let rest = vals.slice(taken..vals.len());
        if self.settings.statistics {
            self.page.stats.update(rest)?;
            self.page.stats.count_nans(rest);
        }
        if let ValuesRef::ByteArray(b) = rest {
            self.page.byte_array_bytes += b.total_bytes() as i64;
        }
        self.push_values(rest)
    }

    /// Appends levels and values to the open page: as dictionary ids when `ids` gives or
    /// placed them, else as values. Levels of a slice whose values are split (see `append`) must all be
    /// passed with the first part.
    fn add_to_page(
        &mut self,
        d: &[u16],
        r: &[u16],
        vals: ValuesRef<'_>,
        ids: Ids<'_>,
    ) -> Result<()> {
        let n = if self.descr.max_def_level > 0 {
            d.len()
        } else if self.descr.max_rep_level > 0 {
            r.len()
        } else {
            vals.len()
        };
        let (max_def, max_rep) = (self.descr.max_def_level, self.descr.max_rep_level);
        let given = match ids {
            Ids::Given(i) => i.len(),
            _ => 0,
        };
        self.reserve_ids(given);
        self.page.add_levels(d, r, n, max_def, max_rep);
        if self.settings.statistics {
            self.page.stats.count_nans(vals);
            match ids {
                // Integers: a branch-free min/max over the values beats marking their ids.
                Ids::Given(_) | Ids::Placed(_)
                    if matches!(
                        self.kind,
                        StatKind::Int32 | StatKind::UInt32 | StatKind::Int64 | StatKind::UInt64
                    ) =>
                {
                    self.page.stats.update(vals)?
                }
                Ids::Given(ids) => self.page.mark_seen(ids),
                Ids::Placed(start) => self.page.mark_seen_from(start),
                Ids::None => self.page.stats.update(vals)?,
            }
        }
        if let ValuesRef::ByteArray(b) = vals {
            self.page.byte_array_bytes += b.total_bytes() as i64;
        }
        match ids {
            Ids::Given(i) => self.page.ids.extend_from_slice(i),
            Ids::Placed(_) => {}
            Ids::None => self.push_values(vals)?,
        }
        Ok(())
    }

    /// Makes room in the open page's id buffer for `i` ids more. A buffer that must grow
    /// grows at once to the levels a full page is estimated to hold, when that is at least
    /// twice its capacity, instead of doubling: the first page of a chunk (later pages reuse
    /// its buffer) otherwise reallocates and copies its ids a dozen times and faults in twice
    /// their memory. Otherwise (the estimate fell short) it doubles as before.
    ///
    /// The estimate is the levels so far plus those the page has room for by its byte
    /// limit ([`ChunkEncoder::byte_room`]) and by its row limit (at the levels per row so
    /// far), plus an eighth and a slice. It is never more than the levels a page can hold at
    /// one bit per level (8 x `data_page_size`), the most the byte limit lets a page reach:
    /// the buffer's capacity stays within the larger of that and what doubling gives it; and
    /// capacity reserved and never written is address space, not resident memory.
    fn reserve_ids(&mut self, i: usize) {
        let page = &self.page;
        if i == 0 || page.ids.capacity() - page.ids.len() >= i {
            return;
        }
        let levels = self.page_levels();
        if levels == 0 || page.rows == 0 {
            return; // Nothing to estimate from: the buffer grows as it needs.
        }
        let by_bytes = self.byte_room();
        let by_rows = self
            .settings
            .max_rows_per_page
            .saturating_sub(page.rows)
            .saturating_mul(levels.div_ceil(page.rows));
        let full = levels.saturating_add(by_bytes.min(by_rows));
        let target = full
            .saturating_add(full / 8 + SLICE_LEVELS)
            .min(self.settings.data_page_size.saturating_mul(8));
        reserve_to(&mut self.page.ids, i, target);
    }

    /// Appends values (not dictionary-encoded) to the open page.
    fn push_values(&mut self, vals: ValuesRef<'_>) -> Result<()> {
        if self.settings.bloom_filter.is_some() {
            for i in 0..vals.len() {
                if let Some(h) = hash_value(vals, i) {
                    self.bloom_hashes.push(h);
                }
            }
        }
        if self.direct_plain() {
            self.page.plain_count += vals.len();
            return plain::encode(vals, &mut self.page.plain);
        }
        self.page.values.extend_from(vals);
        Ok(())
    }

    /// Whether values that are not dictionary-encoded are PLAIN-encoded on arrival: BYTE_ARRAY
    /// (a copy into `values` and a pass at the page's end saved) written PLAIN.
    fn direct_plain(&self) -> bool {
        !self.dictionary_active
            && self.settings.encoding == Encoding::Plain
            && self.descr.physical_type == PhysicalType::ByteArray
    }

    /// Whether to keep the dictionary for the chunk's first page, about to be written
    /// dictionary-encoded. It is dropped when the page's values are nearly all distinct (at
    /// least 9 in 10 are dictionary entries: ids, timestamps, free text, UUIDs) *and* its
    /// ids plus the whole dictionary page are no smaller than its values PLAIN. The chunk
    /// then falls back before any page uses the dictionary, so no dictionary page is written:
    /// the file is smaller and the rest of the chunk is not hashed.
    ///
    /// parquet-java makes the size check alone; pyarrow keeps the dictionary until it reaches
    /// its byte limit. The size check alone loses when later pages repeat the first page's
    /// values: 500k values drawn from 100k, in pages of 50k, have 78% distinct values on the
    /// first page, where the dictionary does not pay yet, but pays over the chunk (a third
    /// smaller than PLAIN). Hence the distinct-values condition.
    fn dictionary_pays(&self) -> bool {
        let Some(dict) = &self.dictionary else {
            return false;
        };
        let ids = &self.page.ids;
        let n = ids.len();
        if dict.len().saturating_mul(10) < n.saturating_mul(9) {
            return true;
        }
        let id_bytes = (n * rle::bit_width(dict.len() as u64) as usize).div_ceil(8) + 1;
        let plain = match dict.dictionary() {
            Values::ByteArray(b) => ids
                .iter()
                .map(|&i| 4 + b.get(i as usize).map_or(0, <[u8]>::len))
                .sum(),
            Values::Boolean(_) => n.div_ceil(8),
            Values::Int32(_) | Values::Float(_) => 4 * n,
            Values::Int64(_) | Values::Double(_) => 8 * n,
            Values::Int96(_) => 12 * n,
            Values::FixedLenByteArray(f) => f.width() * n,
        };
        dict.dictionary_plain_bytes() + id_bytes < plain
    }

    /// The dictionary is full or does not pay: the open page's ids become values again and
    /// the rest of the chunk uses the fallback encoding.
    fn fall_back(&mut self, sink: &mut dyn PageSink) -> Result<()> {
        self.page
            .settle_seen(self.dictionary.as_ref().map(|d| d.dictionary()), self.kind)?;
        self.dictionary_active = false;
        self.dictionary_complete(sink)?;
        if let Some(dict) = &self.dictionary {
            dictionary::gather(
                dict.dictionary().as_ref(),
                &self.page.ids,
                &mut self.page.values,
            )?;
        }
        self.page.ids.clear();
        if self.direct_plain() && !self.page.values.is_empty() {
            // The open page's values so far, before the ones still to come.
            self.page.plain_count += self.page.values.len();
            plain::encode(self.page.values.as_ref(), &mut self.page.plain)?;
            self.page.values.clear();
        }
        Ok(())
    }

    /// The dictionary takes no more entries: its page goes to the sink when data pages use
    /// it.
    fn dictionary_complete(&mut self, sink: &mut dyn PageSink) -> Result<()> {
        let (Some(dict), true) = (&self.dictionary, self.dictionary_pages > 0) else {
            return Ok(());
        };
        if self.dictionary_page.is_some() {
            return Ok(());
        }
        let page = self.pages.dictionary_page(dict.dictionary().as_ref())?;
        let stored = sink.dictionary_page(&page)?;
        self.dictionary_page = Some((
            stored.total as i64,
            (stored.header_len + page.uncompressed_page_size()) as i64,
        ));
        Ok(())
    }

    fn page_estimate(&self) -> usize {
        let page = &self.page;
        let levels = (page.def.len() * rle::bit_width(self.descr.max_def_level as u64) as usize
            + page.rep.len() * rle::bit_width(self.descr.max_rep_level as u64) as usize)
            / 8;
        let values = if self.dictionary_active {
            let entries = self.dictionary.as_ref().map_or(0, |d| d.len());
            page.ids.len() * rle::bit_width(entries as u64) as usize / 8 + 1
        } else {
            match &page.values {
                Values::Boolean(v) => v.len() / 8,
                Values::Int32(v) => v.len() * 4,
                Values::Float(v) => v.len() * 4,
                Values::Int64(v) => v.len() * 8,
                Values::Double(v) => v.len() * 8,
                Values::Int96(v) => v.len() * 12,
                Values::ByteArray(v) => v.data().len() + 4 * v.len() + page.plain.len(),
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
        (self.settings.data_page_size.saturating_sub(estimate) / per_level).max(1)
    }

    fn page_full(&self) -> bool {
        self.page.rows >= self.settings.max_rows_per_page
            || self.page_estimate() >= self.settings.data_page_size
    }

    /// Closes the open page: a data page of its levels and values, header first, goes to
    /// `sink`; its entry goes to the page index, its statistics to the chunk's.
    fn flush_page(&mut self, sink: &mut dyn PageSink) -> Result<()> {
        if self.dictionary_active && self.dictionary_pages == 0 && !self.dictionary_pays() {
            self.fall_back(sink)?;
        }
        self.page
            .settle_seen(self.dictionary.as_ref().map(|d| d.dictionary()), self.kind)?;
        let levels = self.page_levels();
        if levels == 0 && self.index.num_pages() > 0 {
            return Ok(());
        }
        let settings = &self.settings;
        let OpenPage {
            def,
            rep,
            ids,
            plain,
            plain_count,
            values,
            nulls,
            rows,
            stats,
            ..
        } = &mut self.page;
        // Header: counts, encoding, statistics (in the column index instead when there is
        // one); body: repetition levels, definition levels (both encoded as they arrived),
        // values.
        let values = if self.dictionary_active {
            PageValues::DictionaryIds {
                ids,
                dictionary_len: self.dictionary.as_ref().map_or(0, |d| d.len()),
            }
        } else if *plain_count > 0 {
            PageValues::Encoded {
                bytes: plain,
                encoding: Encoding::Plain,
            }
        } else {
            PageValues::Values {
                values: values.as_ref(),
                encoding: settings.encoding,
            }
        };
        let encoding = values.encoding();
        let page = DataPage {
            num_values: u32_of(levels)?,
            num_nulls: u32_of(*nulls)?,
            num_rows: u32_of(*rows)?,
            rep_levels: &[],
            max_rep_level: self.descr.max_rep_level,
            def_levels: &[],
            max_def_level: self.descr.max_def_level,
            values,
            statistics: (settings.statistics && !settings.page_index)
                .then(|| stats.to_format(settings.statistics_truncate_length)),
        };
        let built = self.pages.data_page_streamed(page, rep, def)?;
        let stored = sink.data_page(&built, self.dictionary_active)?;
        let (size, uncompressed) = (
            stored.total,
            stored.header_len + built.uncompressed_page_size(),
        );
        drop(built);
        if stored.keeps_values {
            // The next page's values are likely about as many bytes.
            let len = self.page.plain.len();
            let next = Vec::with_capacity(len + len / 8);
            let mut values = core::mem::replace(&mut self.page.plain, next);
            values.shrink_to_fit();
            sink.values_buffer(values);
        }

        let page = &self.page;
        self.index.add(PageEntry {
            offset: self.data_bytes,
            size,
            first_row: self.num_rows,
            page_type: self.settings.page_version.page_type(),
            encoding,
            null_count: page.nulls as i64,
            nan_count: self
                .kind
                .is_floating()
                .then_some(page.stats.nan_count() as i64),
            null_page: levels == page.nulls,
            bounds: page
                .stats
                .min_max_plain(self.settings.column_index_truncate_length)
                .map(|(lo, _, hi, _)| (lo, hi)),
            def_histogram: &page.def_histogram,
            rep_histogram: &page.rep_histogram,
            byte_array_bytes: page.byte_array_bytes,
        });
        if encoding == Encoding::RleDictionary {
            self.dictionary_pages += 1;
        }
        self.data_bytes += size;
        self.total_compressed += size as i64;
        self.total_uncompressed += uncompressed as i64;
        self.chunk_stats.merge(&page.stats);
        self.num_values += levels as i64;
        self.num_rows += page.rows as i64;
        self.page.clear();
        Ok(())
    }

    /// Ends the chunk: closes the open page (or writes one empty page for a chunk without
    /// rows) and completes the dictionary. Returns what the chunk's metadata says of its
    /// pages, and the encoder's buffers for another encoder to [`ChunkEncoder::adopt`].
    pub fn finish(mut self, sink: &mut dyn PageSink) -> Result<(EncodedChunk, EncoderScratch)> {
        if self.index.num_pages() == 0 && self.page_levels() == 0 {
            // No rows: one empty page, so data_page_offset points at a real page. It is
            // PLAIN: an RLE_DICTIONARY page would need a dictionary page.
            self.dictionary_active = false;
        }
        if self.page_levels() > 0 || self.index.num_pages() == 0 {
            self.flush_page(sink)?;
        }
        self.dictionary_complete(sink)?;
        let bloom = match self.settings.bloom_filter {
            None => None,
            Some(b) => {
                let mut hashes = core::mem::take(&mut self.bloom_hashes);
                if let Some(dict) = &self.dictionary {
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
        let settings = &self.settings;
        let has_order = self.kind != StatKind::Undefined;
        let statistics = settings.statistics.then(|| {
            let mut st = self
                .chunk_stats
                .to_format(settings.statistics_truncate_length);
            if !has_order {
                st.min_value = None;
                st.max_value = None;
            }
            st
        });
        // A chunk without rows has no page to skip to: its one empty page (see above) is
        // left out of the indexes, as readers stop walking at `num_values` = 0.
        let page_index = settings.page_index && self.num_values > 0;
        let column_index = page_index && settings.statistics && has_order;
        let scratch = EncoderScratch {
            def: self.page.def,
            rep: self.page.rep,
            ids: self.page.ids,
            slice_ids: self.slice_ids,
            plain: self.page.plain,
            pages: self.pages,
        };
        let chunk = EncodedChunk {
            codec: settings.codec.to_spec(),
            num_values: self.num_values,
            total_compressed: self.total_compressed,
            total_uncompressed: self.total_uncompressed,
            dictionary_page: self.dictionary_page,
            statistics,
            geospatial_statistics: self.geo.and_then(ChunkGeoStats::finish),
            indexes: self.index.finish(column_index),
            page_index,
            bloom,
        };
        Ok((chunk, scratch))
    }

    /// Takes over a finished encoder's buffers (emptied) when this one has not started.
    pub fn adopt(&mut self, scratch: EncoderScratch) {
        if !self.is_empty() {
            return;
        }
        let EncoderScratch {
            mut def,
            mut rep,
            mut ids,
            mut slice_ids,
            mut plain,
            mut pages,
        } = scratch;
        ids.clear();
        slice_ids.clear();
        plain.clear();
        let s = &self.settings;
        pages.reset(s.page_version, s.codec, s.crc);
        let for_codec = pages.levels_for_codec();
        def.reset(rle::bit_width(self.descr.max_def_level.into()), for_codec);
        rep.reset(rle::bit_width(self.descr.max_rep_level.into()), for_codec);
        self.page.def = def;
        self.page.rep = rep;
        self.page.ids = ids;
        self.slice_ids = slice_ids;
        self.page.plain = plain;
        self.pages = pages;
    }
}

/// Room in `v` for `more` elements: capacity `target` when that is at least twice the
/// capacity now and enough, else the usual growth (see `ChunkEncoder::reserve_ids`).
fn reserve_to<T>(v: &mut Vec<T>, more: usize, target: usize) {
    if v.capacity() - v.len() >= more {
        return;
    }
    if target >= v.len() + more && target >= v.capacity().saturating_mul(2) {
        v.reserve_exact(target - v.len());
    } else {
        v.reserve(more);
    }
}

/// The largest of `levels`, 0 for none (vectorised).
fn max_of(levels: &[u16]) -> u16 {
    levels.iter().fold(0, |m, &x| m.max(x))
}

fn u32_of(n: usize) -> Result<u32> {
    u32::try_from(n).map_err(|_| Error::limit("values in a page", n as u64, u32::MAX as u64))
}
