//! Scans: the rows you ask for, and only the pages that hold them.
//!
//! A [`ScanBuilder`] (from [`FileReader::scan`]) chooses columns (leaf or group paths, as
//! [`Schema::project`] takes them), row groups, a selection of rows ([`RowRanges`] of row
//! ordinals in the file), `offset` / `limit` (counted in selected rows) and a batch size. The
//! [`Scan`] yields row-aligned batches: for the same rows, the levels and values of every
//! selected leaf ([`ScanBatch`]), which [`Scan::records`] assembles into records.
//!
//! Where a chunk has an offset index (PageIndex.md), its walk ([`PageWalk::with_offset_index`])
//! asks only for the data pages that hold selected rows: the others are never read or
//! decompressed. In a page that is read, PLAIN fixed-width values and dictionary-encoded byte
//! arrays are left encoded (as the page's bytes, as its dictionary indices) and only the
//! selected rows' values are decoded into the batch; the levels, and the values of the
//! other encodings, are decoded for the whole page and the rows not selected skipped. An index
//! that contradicts its chunk is not used (every page is read, the rows are the same); a page
//! read through it that holds another number of rows than it says, or whose header disagrees
//! with its location, is an error; a column index that does not hold together (lengths that
//! differ from the page count, null pages with bounds, min above max) prunes nothing
//! (`tests/scan_hostile.rs`). One lie cannot be caught without reading the pages a scan
//! skips: first rows shifted for pages in the middle of a chunk, where the pages read hold as
//! many rows as the index says (the pages whose count is then wrong are caught when read).
//!
//! With a [predicate](ScanBuilder::predicate), each row group the selection leaves goes
//! through the stages in this order, each exact or conservative (a stage that cannot read
//! what it needs prunes nothing): its chunks' statistics; the dictionaries of its chunks whose
//! data pages are all dictionary-encoded; the page index (the predicate columns' column and
//! offset indexes, giving row ranges); the Bloom filters of the columns an `=` or `IN` probes.
//! A Bloom filter can only save the pages still to read, and only when the value is absent, so
//! it is read only when it is smaller than they are (`bloom_filter_length` against the bytes
//! of the pages left of every column read: a point lookup on a sorted column, narrowed to one
//! page per column, does not read a filter of megabytes; a selective equality on an unsorted
//! column, whose pages all stay, does). [`ScanBuilder::explain`] reports what each stage did
//! ([`Explain`]); it plans through the same code as [`ScanBuilder::build`].
//!
//! The rows read are then evaluated, a batch at a time, with two shortcuts that give the same
//! rows. Where the chunks' statistics or the column indexes say that every row matches (a
//! range over a sorted column that covers whole pages), the batch's own values are checked
//! instead: their exact min / max, nulls and NaNs must prove the predicate true for every
//! row, else the rows are evaluated; so metadata that lies costs time, never rows (it is a
//! hint here, as it is not in the pruning above, which trusts the metadata as arrow-rs and
//! parquet-java do). A batch whose rows all match is handed out as read, as a scan without a
//! predicate reads it. A predicate column whose page is dictionary-encoded BYTE_ARRAY is
//! tested on the page's dictionary ids: each entry of the chunk's dictionary once, then one
//! lookup per row (batches end with such a page); its strings are gathered only for the
//! rows kept.
//!
//! ```
//! # fn main() -> parket::Result<()> {
//! # let bytes = parket::testing::corpus_file("alltypes_plain.parquet");
//! use parket::read::{FileReader, RowRanges};
//! use parket::record::Value;
//! let file = FileReader::from_bytes(&bytes)?;
//! let mut scan = file
//!     .scan()
//!     .columns(&["id"])
//!     .rows(RowRanges::from_ranges([1..3, 5..8]))
//!     .offset(1)
//!     .limit(3)
//!     .batch_size(2)
//!     .build()?;
//! let batch = scan.next().unwrap()?;
//! assert_eq!((batch.row_group, batch.num_rows()), (0, 2));
//! assert_eq!(batch.rows, [2..3, 5..6]);                 // rows 1 (offset), 2, 5, 6 (limit)
//! let records: Vec<Value> = scan.records().collect::<Result<_, _>>()?;
//! assert_eq!(records, [Value::Group(vec![Value::Int32(0)])]); // row 6; id is 4 5 6 7 2 3 0 1
//! # Ok(()) }
//! ```

use alloc::string::String;
use alloc::vec::Vec;
use core::ops::Range;

use super::chunk::{ChunkBuffers, ColumnChunkReader};
use super::walk::PageWalk;
use super::FileReader;
use crate::bloom::Sbbf;
use crate::error::{Error, Result};
use crate::format::{BloomFilterHeader, ColumnIndex, Encoding, OffsetIndex, PageType};
use crate::levels::assemble::level_count;
use crate::levels::LeafData;
use crate::page::decode::{PageColumn, PageDecoder};
use crate::predicate::eval::Input;
use crate::predicate::RowRanges;
use crate::predicate::{ColumnBatch, Predicate};
use crate::record::Value;
use crate::schema::Schema;

/// Rows per batch unless [`ScanBuilder::batch_size`] says otherwise.
pub const DEFAULT_BATCH_ROWS: usize = 8192;

/// The most level positions a flat column's batch reserves before it is read.
const RESERVE_ROWS: u64 = 1 << 16;

/// Chooses what a [`Scan`] reads: see the [module documentation](self).
#[derive(Clone)]
#[must_use = "a ScanBuilder reads nothing until .run() (or .records(), .explain())"]
pub struct ScanBuilder<'f, 'a> {
    file: &'f FileReader<'a>,
    columns: Option<Vec<String>>,
    row_groups: Option<Vec<usize>>,
    rows: Option<RowRanges>,
    offset: u64,
    limit: Option<u64>,
    batch_rows: usize,
    page_index: bool,
    predicate: Option<Predicate>,
    threads: usize,
}

/// What a scan will read of one row group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowGroupPlan {
    /// The row group's ordinal.
    pub row_group: usize,
    /// The selected rows, as row ordinals within the row group.
    pub rows: RowRanges,
}

impl<'f, 'a> ScanBuilder<'f, 'a> {
    pub(super) fn new(file: &'f FileReader<'a>) -> Self {
        ScanBuilder {
            file,
            columns: None,
            row_groups: None,
            rows: None,
            offset: 0,
            limit: None,
            batch_rows: DEFAULT_BATCH_ROWS,
            page_index: true,
            predicate: None,
            threads: default_threads(),
        }
    }

    /// Decodes the columns of each batch on up to `n` threads (at least 1; default every core,
    /// [`parallel::threads_default`](super::parallel::threads_default)). A batch with little
    /// to decode (few rows times columns: a selective read, a batch of a few columns) stays
    /// on the calling thread, where spawning threads would cost more than they save (see
    /// `batch_threads` in the source). The batches are the same whatever `n`: each column is
    /// decoded by one thread at a time, in page order, and the batch is handed out once every
    /// column has its rows, so memory stays one batch (and a decoded page per column).
    /// Without `std` scans are single-threaded.
    #[cfg(feature = "std")]
    pub fn threads(mut self, n: usize) -> Self {
        self.threads = n.max(1);
        self
    }

    /// Keeps only the rows for which `predicate` (bound to this file's schema) is true. Row
    /// groups are pruned by their statistics, pages by the column and offset indexes, and the
    /// rows read are evaluated, so the scan gives exactly the matching rows; `offset` and
    /// `limit` then count matching rows. The predicate's columns are read even when not
    /// selected.
    pub fn predicate(mut self, predicate: Predicate) -> Self {
        self.predicate = Some(predicate);
        self
    }

    /// The file the scan reads.
    pub fn file(&self) -> &'f FileReader<'a> {
        self.file
    }

    /// Reads only these columns (dotted leaf or group paths; default all).
    pub fn columns(mut self, paths: &[&str]) -> Self {
        self.columns = Some(paths.iter().map(|p| String::from(*p)).collect());
        self
    }

    /// Reads only these row groups (default all), in file order whatever the order given.
    pub fn row_groups<I: IntoIterator<Item = usize>>(mut self, row_groups: I) -> Self {
        let mut v: Vec<usize> = row_groups.into_iter().collect();
        v.sort_unstable();
        v.dedup();
        self.row_groups = Some(v);
        self
    }

    /// Reads only these rows (row ordinals in the file, counted across row groups).
    pub fn rows(mut self, rows: RowRanges) -> Self {
        self.rows = Some(rows);
        self
    }

    /// Skips the first `n` selected rows.
    pub fn offset(mut self, n: u64) -> Self {
        self.offset = n;
        self
    }

    /// Stops after `n` selected rows (after the offset).
    pub fn limit(mut self, n: u64) -> Self {
        self.limit = Some(n);
        self
    }

    /// Rows per batch (at least 1; default [`DEFAULT_BATCH_ROWS`]).
    pub fn batch_size(mut self, rows: usize) -> Self {
        self.batch_rows = rows.max(1);
        self
    }

    /// Whether to read pages through offset indexes when chunks have them (default true).
    pub fn use_page_index(mut self, on: bool) -> Self {
        self.page_index = on;
        self
    }

    /// The row groups to read and their selected rows (after offset and limit); row groups
    /// with no selected row are left out.
    pub fn plan(&self) -> Result<Vec<RowGroupPlan>> {
        self.plan_keeping(&mut Vec::new(), &mut Explain::default(), &mut Vec::new())
    }

    /// [`ScanBuilder::plan`], keeping the offset indexes that the page index stage read (by
    /// row group and column) so that the scan does not read them again, and counting in
    /// `report` what each stage pruned. [`ScanBuilder::build`] and [`ScanBuilder::explain`]
    /// both plan through here: the report is what the scan does. With a predicate, `sure`
    /// gets for each row group planned the rows whose every row the metadata says matches
    /// (see [`OpenGroup::filtered_batch`]: a hint, checked against the values).
    fn plan_keeping(
        &self,
        kept_indexes: &mut Vec<KeptIndex>,
        report: &mut Explain,
        sure: &mut Vec<(usize, RowRanges)>,
    ) -> Result<Vec<RowGroupPlan>> {
        let groups = &self.file.metadata().row_groups;
        report.file_bytes = self.file.file_len();
        report.row_groups_total = groups.len();
        let mut base = 0u64;
        // With a predicate, offset and limit count matching rows: applied as rows are read.
        let trim = self.predicate.is_none();
        let mut offset = if trim { self.offset } else { 0 };
        let mut limit = if trim {
            self.limit.unwrap_or(u64::MAX)
        } else {
            u64::MAX
        };
        let mut out = Vec::new();
        for (i, rg) in groups.iter().enumerate() {
            let n = u64::try_from(rg.num_rows).map_err(|_| {
                Error::out_of_range("RowGroup.num_rows", rg.num_rows).in_row_group(i)
            })?;
            report.rows_total = report.rows_total.saturating_add(n);
            let start = base;
            base = base.saturating_add(n);
            if self.limit == Some(0)
                || self
                    .row_groups
                    .as_ref()
                    .is_some_and(|v| v.binary_search(&i).is_err())
            {
                continue;
            }
            let mut local = match &self.rows {
                None => RowRanges::all(n),
                Some(r) => RowRanges::from_ranges(r.ranges().iter().filter_map(|x| {
                    let (s, e) = (x.start.max(start), x.end.min(start.saturating_add(n)));
                    (s < e).then(|| s - start..e - start)
                })),
            };
            if local.is_empty() {
                continue;
            }
            report.row_groups_selected += 1;
            let mut all_match = RowRanges::empty();
            if let Some(p) = &self.predicate {
                let orders = self.file.metadata().column_orders.as_deref();
                if !p.row_group_may_match(rg, orders) {
                    report.pruned_by_statistics += 1;
                    continue;
                }
                if p.row_group_all_match(rg, orders) {
                    all_match = RowRanges::all(n);
                }
                if !self.dictionaries_may_match(p, i) {
                    report.pruned_by_dictionary += 1;
                    continue;
                }
                // The page index before the Bloom filters, which are read only when they are
                // smaller than the pages still to read (see `blooms_worth_reading`).
                if self.page_index {
                    let (pages, all) = self.page_ranges(p, i, kept_indexes)?;
                    if all_match.is_empty() {
                        all_match = all;
                    }
                    local = local.intersect(&pages);
                    if local.is_empty() {
                        report.pruned_by_page_index += 1;
                        continue;
                    }
                }
                match self.blooms_worth_reading(p, i, &local, kept_indexes) {
                    Blooms::None => {}
                    Blooms::Read(bytes) => {
                        report.bloom_filter_bytes = report.bloom_filter_bytes.saturating_add(bytes);
                        let (read, may) = self.blooms_may_match(p, i);
                        report.bloom_filters_read += read;
                        if !may {
                            report.pruned_by_bloom_filter += 1;
                            continue;
                        }
                    }
                    Blooms::Skip => report.bloom_filters_skipped += 1,
                }
            }
            report.rows_after_pruning = report.rows_after_pruning.saturating_add(local.row_count());
            let mut kept = Vec::new();
            for r in local.ranges() {
                let len = r.end - r.start;
                let skip = offset.min(len);
                offset -= skip;
                let take = (len - skip).min(limit);
                limit -= take;
                if take > 0 {
                    kept.push(r.start + skip..r.start + skip + take);
                }
            }
            if !kept.is_empty() {
                if !all_match.is_empty() {
                    sure.push((i, all_match));
                }
                out.push(RowGroupPlan {
                    row_group: i,
                    rows: RowRanges::from_ranges(kept),
                });
            }
        }
        if let Some(v) = &self.row_groups {
            if let Some(&bad) = v.iter().find(|&&i| i >= groups.len()) {
                return Err(Error::invalid_argument_fmt(format_args!(
                    "row group {bad} does not exist: the file has {}",
                    groups.len()
                )));
            }
        }
        report.row_groups = out.len();
        report.rows = out.iter().map(|p| p.rows.row_count()).sum();
        Ok(out)
    }

    /// Whether to read the Bloom filters of row group `rg`, whose rows `rows` are left after
    /// the page index: [`Blooms::Read`] (their bytes) when they are fewer than the bytes of
    /// the pages still to read.
    ///
    /// A filter can only save the pages left (and only when the value is absent), so it is
    /// read when it is smaller than they are. The filters counted are those of the
    /// predicate's columns that an `=` or `IN` probes (a range predicate reads none), by
    /// `bloom_filter_length`; a filter whose length the file does not record counts as read
    /// only when the page index left the whole row group. The pages left are, for each
    /// column the scan reads, the data pages the offset index keeps (for the predicate's
    /// columns, whose indexes the page index stage read) or the chunk's
    /// `total_compressed_size` in proportion to the rows left (the other columns, whose
    /// indexes are not read for this). A point lookup on a sorted column: a 2 MB filter
    /// against the few kilobytes of one page per column is not read; a selective equality on
    /// an unsorted column, whose pages all stay: a filter is a small part of the chunk and is
    /// read.
    fn blooms_worth_reading(
        &self,
        p: &Predicate,
        rg: usize,
        rows: &RowRanges,
        kept_indexes: &[KeptIndex],
    ) -> Blooms {
        let Some(group) = self.file.metadata().row_groups.get(rg) else {
            return Blooms::None;
        };
        let probed = bloom_columns(p);
        let meta = |c: usize| group.columns.get(c).and_then(|c| c.meta_data.as_ref());
        let mut filter_bytes = 0u64;
        let mut unknown = false;
        for &c in &probed {
            let Some(m) = meta(c) else { continue };
            if m.bloom_filter_offset.is_none() {
                continue;
            }
            match m.bloom_filter_length.and_then(|l| u64::try_from(l).ok()) {
                Some(l) => filter_bytes = filter_bytes.saturating_add(l),
                None => unknown = true,
            }
        }
        if filter_bytes == 0 && !unknown {
            return Blooms::None;
        }
        let n = u64::try_from(group.num_rows).unwrap_or(0);
        let whole = rows.row_count() >= n;
        let read = |yes: bool| {
            if yes {
                Blooms::Read(filter_bytes)
            } else {
                Blooms::Skip
            }
        };
        if unknown {
            return read(whole);
        }
        let Ok(leaves) = self.read_leaves() else {
            return Blooms::Read(filter_bytes);
        };
        let mut pages = 0u64;
        for c in leaves {
            let chunk = meta(c)
                .and_then(|m| u64::try_from(m.total_compressed_size).ok())
                .unwrap_or(0);
            let index = kept_indexes
                .iter()
                .find(|(k, _)| *k == (rg, c))
                .map(|(_, oi)| oi);
            let bytes = match index {
                Some(oi) if !whole => oi
                    .page_locations
                    .iter()
                    .enumerate()
                    .filter(|(k, loc)| {
                        let first = u64::try_from(loc.first_row_index).unwrap_or(0);
                        let next = oi
                            .page_locations
                            .get(k + 1)
                            .and_then(|l| u64::try_from(l.first_row_index).ok())
                            .unwrap_or(n);
                        first < next && rows.overlaps(first..next)
                    })
                    .map(|(_, loc)| u64::try_from(loc.compressed_page_size).unwrap_or(0))
                    .fold(0, u64::saturating_add),
                _ if whole || n == 0 => chunk,
                _ => (u128::from(chunk) * u128::from(rows.row_count())).div_ceil(u128::from(n))
                    as u64,
            };
            pages = pages.saturating_add(bytes);
        }
        read(filter_bytes < pages)
    }

    /// The leaves the scan reads: the projection's, then the predicate's not among them.
    fn read_leaves(&self) -> Result<Vec<usize>> {
        let (_, mut leaves) = self.projection()?;
        if let Some(p) = &self.predicate {
            for &c in p.columns() {
                if !leaves.contains(&c) {
                    leaves.push(c);
                }
            }
        }
        Ok(leaves)
    }

    /// Stage 2: the dictionaries of the predicate's chunks whose data pages are all
    /// dictionary-encoded (per `encoding_stats`; a chunk without them is not used). A
    /// dictionary that cannot be read tells nothing (the rows are evaluated anyway).
    fn dictionaries_may_match(&self, p: &Predicate, rg: usize) -> bool {
        let groups = &self.file.metadata().row_groups;
        let Some(group) = groups.get(rg) else {
            return true;
        };
        let mut dicts: Vec<Option<crate::values::Values>> = Vec::new();
        for &c in p.columns() {
            let meta = group.columns.get(c).and_then(|c| c.meta_data.as_ref());
            let all_dict = meta
                .and_then(|m| m.encoding_stats.as_ref())
                .is_some_and(|st| {
                    st.iter().any(|e| e.page_type == PageType::DictionaryPage)
                        && st.iter().all(|e| {
                            !matches!(e.page_type, PageType::DataPage | PageType::DataPageV2)
                                || e.count == 0
                                || matches!(
                                    e.encoding,
                                    Encoding::PlainDictionary | Encoding::RleDictionary
                                )
                        })
                });
            dicts.push(if all_dict {
                self.dictionary(rg, c).ok().flatten()
            } else {
                None
            });
        }
        if dicts.iter().all(Option::is_none) {
            return true;
        }
        let refs: Vec<_> = dicts
            .iter()
            .map(|d| d.as_ref().map(|v| v.as_ref()))
            .collect();
        p.dictionaries_may_match(&refs)
    }

    /// The dictionary page of a chunk, decoded (`None` when its first page is not one).
    fn dictionary(&self, rg: usize, c: usize) -> Result<Option<crate::values::Values>> {
        let Some(first) = self.file.pages(rg, c)?.next().transpose()? else {
            return Ok(None);
        };
        if first.header.type_ != PageType::DictionaryPage {
            return Ok(None);
        }
        let (meta, _, _) = self.file.locate_chunk(rg, c)?;
        let desc = self
            .file
            .schema()
            .column(c)
            .ok_or_else(|| Error::invalid_argument("column index out of range"))?;
        let column = PageColumn::from(desc);
        let mut decoder = PageDecoder::new(column, meta.codec, *self.file.limits());
        let mut sink = column.new_leaf_data();
        decoder.decode_page(&first.header, &first.body, &mut sink)?;
        Ok(decoder.dictionary().map(alloc::borrow::Cow::into_owned))
    }

    /// Stage 3: the Bloom filters of the predicate's chunks, for `=` and `IN` (a filter that
    /// cannot be read tells nothing): the filters read, and whether a row may match.
    fn blooms_may_match(&self, p: &Predicate, rg: usize) -> (usize, bool) {
        let mut filters: Vec<(usize, Option<Sbbf>)> = Vec::new();
        for c in bloom_columns(p) {
            filters.push((c, self.file.bloom_filter(rg, c).ok().flatten()));
        }
        let read = filters.iter().filter(|(_, f)| f.is_some()).count();
        if read == 0 {
            return (0, true);
        }
        let may = p.bloom_may_match(|column, bytes| {
            filters
                .iter()
                .find(|(c, _)| *c == column)
                .and_then(|(_, f)| f.as_ref())
                .is_none_or(|f| f.check_hash(crate::bloom::hash_bytes(bytes)))
        });
        (read, may)
    }

    /// The rows of row group `rg` whose pages the predicate's column indexes do not rule out
    /// (every row when a column has no usable index: unreadable indexes are not used), and
    /// those whose pages they say match whole (a hint: [`Predicate::page_row_sets`]).
    fn page_ranges(
        &self,
        p: &Predicate,
        rg: usize,
        kept_indexes: &mut Vec<KeptIndex>,
    ) -> Result<(RowRanges, RowRanges)> {
        let mut owned = Vec::with_capacity(p.columns().len());
        for &c in p.columns() {
            let ci = self.file.column_index(rg, c).ok().flatten();
            let oi = self.file.offset_index(rg, c).ok().flatten();
            owned.push(ci.zip(oi));
        }
        let refs: Vec<_> = owned
            .iter()
            .map(|x| x.as_ref().map(|(c, o)| (c, o)))
            .collect();
        let groups = &self.file.metadata().row_groups;
        let Some(group) = groups.get(rg) else {
            return Ok((RowRanges::empty(), RowRanges::empty()));
        };
        let orders = self.file.metadata().column_orders.as_deref();
        let ranges = p.page_row_sets(group, orders, &refs);
        for (&c, x) in p.columns().iter().zip(owned) {
            if let Some((_, oi)) = x {
                kept_indexes.push(((rg, c), oi));
            }
        }
        Ok(ranges)
    }

    /// The projected schema and its leaf columns.
    fn projection(&self) -> Result<(Schema, Vec<usize>)> {
        let schema = self.file.schema();
        match &self.columns {
            Some(paths) => {
                let p: Vec<&str> = paths.iter().map(String::as_str).collect();
                schema.project(&p)
            }
            None => Ok((schema.clone(), (0..schema.columns().len()).collect())),
        }
    }

    /// The file bytes the scan's pages occupy, sorted, ranges less than `gap` bytes apart
    /// merged: what a caller who does its own IO would fetch. Chunks read through their
    /// offset index contribute their dictionary page and the selected data pages; the others
    /// their whole byte range. (The offset indexes themselves are read to make this plan.)
    pub fn byte_ranges(&self, gap: u64) -> Result<Vec<Range<u64>>> {
        let (_, leaves) = self.projection()?;
        let mut ranges = Vec::new();
        for plan in self.plan()? {
            for &leaf in &leaves {
                let walk = self.walk(plan.row_group, leaf, &plan.rows)?;
                match (walk.dictionary_range(), walk.planned_ranges()) {
                    (Some(d), Some(pages)) => {
                        ranges.push(d);
                        ranges.extend(pages);
                    }
                    _ => ranges.push(walk.chunk_range()),
                }
            }
        }
        Ok(coalesce(ranges, gap))
    }

    /// What the scan would read, stage by stage, without reading a data page: see
    /// [`Explain`]. The plan is made by the same code as [`ScanBuilder::build`]'s (the
    /// indexes, dictionaries and Bloom filters it consults are read again).
    pub fn explain(&self) -> Result<Explain> {
        let leaves = self.read_leaves()?;
        let mut e = Explain::default();
        let mut kept = Vec::new();
        let plan = self.plan_keeping(&mut kept, &mut e, &mut Vec::new())?;
        let mut ranges = Vec::new();
        for p in &plan {
            for &leaf in &leaves {
                e.chunks += 1;
                let key = (p.row_group, leaf);
                let index = kept.iter().position(|(k, _)| *k == key);
                let index = index.map(|at| kept.swap_remove(at).1);
                let walk = self.walk_with(p.row_group, leaf, &p.rows, index)?;
                match (walk.dictionary_range(), walk.planned_ranges()) {
                    (Some(d), Some(pages)) => {
                        e.indexed_chunks += 1;
                        e.index_pages += walk.index_pages();
                        e.pages += pages.len();
                        ranges.push(d);
                        ranges.extend(pages);
                    }
                    _ => ranges.push(walk.chunk_range()),
                }
            }
        }
        e.bytes = coalesce(ranges, 0).iter().map(|r| r.end - r.start).sum();
        Ok(e)
    }

    /// The file bytes of the offset indexes of the chunks the scan reads (sorted, merged when
    /// less than `gap` apart): what a caller who does its own IO pushes before asking for
    /// [`ScanBuilder::byte_ranges`], which reads them to plan (empty when
    /// [`ScanBuilder::use_page_index`] is off).
    pub fn index_ranges(&self, gap: u64) -> Result<Vec<Range<u64>>> {
        if !self.page_index {
            return Ok(Vec::new());
        }
        let (_, leaves) = self.projection()?;
        let groups = &self.file.metadata().row_groups;
        let mut ranges = Vec::new();
        for plan in self.plan()? {
            for &leaf in &leaves {
                let chunk = groups
                    .get(plan.row_group)
                    .and_then(|rg| rg.columns.get(leaf));
                if let Some((Ok(off), Ok(len))) = chunk.and_then(|c| {
                    Some((
                        u64::try_from(c.offset_index_offset?),
                        u64::try_from(c.offset_index_length?),
                    ))
                }) {
                    ranges.push(off..off.saturating_add(len));
                }
            }
        }
        Ok(coalesce(ranges, gap))
    }

    /// The walk of one chunk for `rows`, through its offset index when there is a usable one.
    fn walk(&self, row_group: usize, leaf: usize, rows: &RowRanges) -> Result<PageWalk> {
        self.walk_with(row_group, leaf, rows, None)
    }

    /// [`ScanBuilder::walk`], with the chunk's offset index when it was read already.
    fn walk_with(
        &self,
        row_group: usize,
        leaf: usize,
        rows: &RowRanges,
        index: Option<OffsetIndex>,
    ) -> Result<PageWalk> {
        let (_, range, _) = self.file.locate_chunk(row_group, leaf)?;
        let walk = PageWalk::from_range(range, self.file.file_len(), *self.file.limits());
        #[cfg(feature = "encryption")]
        let walk = walk.with_decryptor(self.file.chunk_decryptor(row_group, leaf)?);
        if !self.page_index {
            return Ok(walk);
        }
        // An offset index that cannot be read or decoded is not used: the pages are walked
        // in order instead, which reads more and gives the same rows.
        match index
            .map(|i| Ok(Some(i)))
            .unwrap_or_else(|| self.file.offset_index(row_group, leaf))
        {
            Ok(Some(index)) => Ok(walk.with_offset_index(&index, rows)),
            _ => Ok(walk),
        }
    }

    /// Starts the scan. Errors: a column path that names no field, a row group that does not
    /// exist; errors reading pages come from the scan's iterator.
    pub fn build(self) -> Result<Scan<'f, 'a>> {
        let (schema, leaves) = self.projection()?;
        let mut kept_indexes = Vec::new();
        let mut sure = Vec::new();
        let plan = self.plan_keeping(&mut kept_indexes, &mut Explain::default(), &mut sure)?;
        let out_columns = leaves.len();
        let mut read = leaves;
        let mut slots = Vec::new();
        if let Some(p) = &self.predicate {
            for &c in p.columns() {
                let at = match read.iter().position(|&l| l == c) {
                    Some(at) => at,
                    None => {
                        read.push(c);
                        read.len() - 1
                    }
                };
                slots.push(at);
            }
        }
        Ok(Scan {
            skip: if self.predicate.is_some() {
                self.offset
            } else {
                0
            },
            take: if self.predicate.is_some() {
                self.limit.unwrap_or(u64::MAX)
            } else {
                u64::MAX
            },
            out_columns,
            slots,
            builder: self,
            schema,
            leaves: read,
            plan: plan.into_iter(),
            kept_indexes,
            sure,
            open: None,
            spare: Vec::new(),
            failed: false,
            stats: ScanStats::default(),
            #[cfg(feature = "arrow")]
            utf8: Vec::new(),
        })
    }
}

/// What the Bloom filter stage does with a row group.
enum Blooms {
    /// There is no filter to probe.
    None,
    /// The filters are larger than the pages left: not read.
    Skip,
    /// The filters are read: their bytes.
    Read(u64),
}

/// The columns whose Bloom filters `p` probes (those of its `=` and `IN` tests).
fn bloom_columns(p: &Predicate) -> Vec<usize> {
    let mut probed: Vec<usize> = Vec::new();
    p.bloom_may_match(|c, _| {
        if !probed.contains(&c) {
            probed.push(c);
        }
        true
    });
    probed
}

/// The thread count of a new scan: every core with `std`, else one.
fn default_threads() -> usize {
    #[cfg(feature = "std")]
    return super::parallel::threads_default();
    #[cfg(not(feature = "std"))]
    1
}

/// Level positions of a batch each thread must have to decode before the batch is spread
/// over threads: see [`batch_threads`].
const POSITIONS_PER_THREAD: u64 = 1 << 15;

/// The threads that decode a batch of `rows` of `columns` columns, of the `threads` a scan may
/// use: one per [`POSITIONS_PER_THREAD`] of the batch's rows times its columns (for a flat
/// column one level position per row), at most one per column, at least one.
///
/// Threads are spawned for each batch: spawning and joining costs tens of microseconds, the
/// order of decoding a default batch (8,192 rows) of one column from a decoded page. A
/// selective read (a point lookup: a page of the predicate's column, then one row of the
/// others) or a batch of a few columns stays on the calling thread, where a thread per column
/// made the lookup benchmark slower (point 1.71 ms against 1.44 ms on one thread, a million
/// rows in batches of three columns 68.6 ms against 56.5 ms); a batch of many columns (8 and
/// more at the default batch size) is decoded on several. The batches are the same either
/// way (each column is decoded in page order by one thread at a time).
fn batch_threads(threads: usize, columns: usize, rows: &[Range<u64>]) -> usize {
    let n = rows.iter().map(|r| r.end - r.start).sum::<u64>();
    let work = n.saturating_mul(columns as u64) / POSITIONS_PER_THREAD;
    let most = usize::try_from(work).unwrap_or(usize::MAX);
    threads.min(columns).min(most).max(1)
}

/// An offset index read while planning: (row group, column) and the index.
type KeptIndex = ((usize, usize), OffsetIndex);

/// Sorts `ranges` and merges those that overlap or are less than `gap` bytes apart.
pub fn coalesce(mut ranges: Vec<Range<u64>>, gap: u64) -> Vec<Range<u64>> {
    ranges.retain(|r| r.start < r.end);
    ranges.sort_by_key(|r| r.start);
    let mut out: Vec<Range<u64>> = Vec::with_capacity(ranges.len());
    for r in ranges {
        match out.last_mut() {
            Some(last) if r.start <= last.end.saturating_add(gap) => last.end = last.end.max(r.end),
            _ => out.push(r),
        }
    }
    out
}

/// What a scan reads, stage by stage: [`ScanBuilder::explain`] (what `parket cat --explain`
/// prints). The stages run in this order, each on the row groups the one before kept:
/// the row group and row selection, statistics, dictionaries, the page index (column and
/// offset indexes of the predicate's columns), Bloom filters; then `offset` / `limit` (without
/// a predicate) and the walk of the chunks' pages.
///
/// ```
/// # fn main() -> parket::Result<()> {
/// # let bytes = parket::testing::corpus_file("alltypes_tiny_pages.parquet");
/// use parket::predicate::Predicate;
/// use parket::read::FileReader;
/// let file = FileReader::from_bytes(&bytes)?; // 7300 rows, pages of a few rows, a page index
/// let p = Predicate::parse("id = 1234", file.schema())?;
/// let e = file.scan().columns(&["id", "string_col"]).predicate(p).explain()?;
/// assert_eq!((e.row_groups_total, e.row_groups, e.pruned_by_statistics), (1, 1, 0));
/// assert_eq!(e.rows_total, 7300);
/// assert!(e.rows < e.rows_total);            // the rows of the pages whose bounds hold 1234
/// assert_eq!(e.indexed_chunks, 2);            // id and string_col, through their offset index
/// assert!(e.pages < e.index_pages && e.bytes < e.file_bytes);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Explain {
    /// The file's length in bytes.
    pub file_bytes: u64,
    /// Row groups in the file.
    pub row_groups_total: usize,
    /// Rows in the file.
    pub rows_total: u64,
    /// Row groups left by [`ScanBuilder::row_groups`] and [`ScanBuilder::rows`] (all without
    /// them): the ones the predicate's stages look at.
    pub row_groups_selected: usize,
    /// Row groups the predicate ruled out by their column chunks' statistics.
    pub pruned_by_statistics: usize,
    /// Row groups ruled out by the dictionaries of chunks whose data pages are all
    /// dictionary-encoded.
    pub pruned_by_dictionary: usize,
    /// Row groups whose every page the column indexes ruled out.
    pub pruned_by_page_index: usize,
    /// Row groups ruled out by the Bloom filters.
    pub pruned_by_bloom_filter: usize,
    /// Bloom filters read (of row groups still in after the page index), and their bytes
    /// (by `bloom_filter_length`).
    pub bloom_filters_read: usize,
    /// Bytes of the Bloom filters read.
    pub bloom_filter_bytes: u64,
    /// Row groups whose Bloom filters were not read: none is probed (no `=` or `IN`, no
    /// filter) or they are larger than the pages left to read.
    pub bloom_filters_skipped: usize,
    /// Rows of the row groups kept that the page index leaves (before `offset` / `limit`).
    pub rows_after_pruning: u64,
    /// Row groups read.
    pub row_groups: usize,
    /// Rows read (after `offset` and `limit` when there is no predicate: with one, they
    /// count matching rows as the rows are evaluated).
    pub rows: u64,
    /// Column chunks read (the selected columns' and the predicate's).
    pub chunks: usize,
    /// Chunks read through their offset index.
    pub indexed_chunks: usize,
    /// Data pages the offset indexes of those chunks list.
    pub index_pages: usize,
    /// Data pages read of the indexed chunks (the others are read whole).
    pub pages: usize,
    /// Bytes of pages to read (dictionary pages and selected data pages of the indexed
    /// chunks, whole chunks otherwise), overlaps counted once.
    pub bytes: u64,
}

/// Rows of one row group for the same rows of every selected leaf.
#[derive(Debug, Clone, PartialEq)]
pub struct ScanBatch {
    /// The row group's ordinal.
    pub row_group: usize,
    /// The rows, as row ordinals within the row group.
    pub rows: Vec<Range<u64>>,
    /// One per selected leaf (in schema order): the levels and non-null values of those rows.
    pub columns: Vec<LeafData>,
}

impl ScanBatch {
    /// Rows in the batch.
    pub fn num_rows(&self) -> u64 {
        self.rows.iter().map(|r| r.end - r.start).sum()
    }
}

/// What a scan has done so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ScanStats {
    /// Row groups opened.
    pub row_groups: usize,
    /// Column chunks read through their offset index.
    pub indexed_chunks: usize,
    /// Data pages the offset indexes of those chunks list, and those read.
    pub index_pages: usize,
    /// Data pages read (all chunks).
    pub pages_read: usize,
    /// Rows handed out.
    pub rows: u64,
}

/// A scan in progress: an iterator of [`ScanBatch`]es. See the [module documentation](self).
pub struct Scan<'f, 'a> {
    builder: ScanBuilder<'f, 'a>,
    schema: Schema,
    leaves: Vec<usize>,
    plan: alloc::vec::IntoIter<RowGroupPlan>,
    /// Offset indexes the plan read, used (and dropped) when their row group opens.
    kept_indexes: Vec<KeptIndex>,
    /// Per row group planned: the rows the metadata says match whole (with a predicate).
    sure: Vec<(usize, RowRanges)>,
    open: Option<OpenGroup<'f>>,
    /// The buffers of the last row group's columns (in `leaves` order), for the next one's.
    spare: Vec<(ChunkBuffers, LeafData)>,
    failed: bool,
    stats: ScanStats,
    /// The first `out_columns` of `leaves` are the output; the predicate's columns are
    /// `leaves[slots[i]]`.
    out_columns: usize,
    slots: Vec<usize>,
    /// Matching rows still to skip (offset) and to hand out (limit), with a predicate.
    skip: u64,
    take: u64,
    /// Per output column: whether its BYTE_ARRAY values are checked to be UTF-8
    /// ([`Scan::check_utf8`]).
    #[cfg(feature = "arrow")]
    utf8: Vec<bool>,
}

/// The row group being scanned.
struct OpenGroup<'f> {
    row_group: usize,
    rows: Vec<Range<u64>>,
    /// The next row to hand out: `rows[next.0].start + next.1`.
    next: (usize, u64),
    cursors: Vec<Cursor<'f>>,
    /// The rows the metadata says match whole (see [`OpenGroup::filtered_batch`]).
    sure: RowRanges,
}

impl<'f, 'a> Scan<'f, 'a> {
    /// The projected schema the batches and records follow.
    pub fn schema(&self) -> &Schema {
        &self.schema
    }

    /// What the scan has done so far.
    pub fn stats(&self) -> ScanStats {
        let mut s = self.stats;
        if let Some(open) = &self.open {
            s.pages_read += open.cursors.iter().map(|c| c.pages).sum::<usize>();
        }
        s
    }

    /// Checks that every BYTE_ARRAY value of the output columns marked in `columns` (one
    /// flag per column of [`Scan::schema`]) is valid UTF-8, each on its own, as their pages are read
    /// (see [`PageDecoder::check_utf8`](crate::page::decode::PageDecoder::check_utf8)): a
    /// batch of those columns then holds valid UTF-8 only, which the Arrow reader relies on.
    /// Before the first batch only (an error after it).
    #[cfg(feature = "arrow")]
    pub(crate) fn check_utf8(&mut self, columns: Vec<bool>) -> Result<()> {
        if self.open.is_some() || self.stats.row_groups > 0 || self.failed {
            return Err(Error::invalid_argument(
                "UTF-8 checks chosen after the scan started",
            ));
        }
        self.utf8 = columns;
        Ok(())
    }

    /// Per output column, whether the scan checks its values as UTF-8 ([`Scan::check_utf8`]):
    /// what a reader may build Arrow string arrays from without Arrow's own check.
    #[cfg(feature = "arrow")]
    pub(crate) fn checked_utf8(&self) -> &[bool] {
        &self.utf8
    }

    /// The records of the rest of the scan, assembled batch by batch.
    pub fn records(self) -> ScanRecords<'f, 'a> {
        ScanRecords {
            scan: self,
            ready: Vec::new().into_iter(),
        }
    }

    /// Ends the open row group, keeping its columns' buffers for the next one.
    fn close(&mut self) {
        if let Some(old) = self.open.take() {
            self.stats.pages_read += old.cursors.iter().map(|c| c.pages).sum::<usize>();
            self.spare = old.cursors.into_iter().map(Cursor::into_buffers).collect();
        }
    }

    fn open(&mut self, plan: RowGroupPlan) -> Result<()> {
        self.close();
        let b = &self.builder;
        let mut cursors = Vec::with_capacity(self.leaves.len());
        // The last row group's buffers, column by column (the same leaves in the same order):
        // a scan of many row groups allocates (and has the system map) them once.
        let mut spare = core::mem::take(&mut self.spare).into_iter();
        for (i, &leaf) in self.leaves.iter().enumerate() {
            let key = (plan.row_group, leaf);
            let index = match self.kept_indexes.iter().position(|(k, _)| *k == key) {
                Some(at) => Some(self.kept_indexes.swap_remove(at).1),
                None => None,
            };
            let walk = b.walk_with(plan.row_group, leaf, &plan.rows, index)?;
            if walk.uses_index() {
                self.stats.indexed_chunks += 1;
                self.stats.index_pages += walk.index_pages();
            }
            // A column the predicate does not read is read at the rows it keeps: its pages
            // are decompressed as far as those rows reach.
            let lazy = b.predicate.is_some() && !self.slots.contains(&i);
            let located = b.file.locate_chunk(plan.row_group, leaf)?;
            let reader = b
                .file
                .chunk_reader_walk(plan.row_group, leaf, located, walk)?
                .lazy_values(lazy);
            // `cursors.len()`: this column's place in the output.
            #[cfg(feature = "arrow")]
            let reader = reader.check_utf8(self.utf8.get(cursors.len()) == Some(&true));
            cursors.push(match spare.next() {
                Some((buffers, buf)) => Cursor::with_buffers(reader.with_buffers(buffers), buf),
                None => Cursor::new(reader),
            });
        }
        self.stats.row_groups += 1;
        let sure = match self.sure.iter().position(|(g, _)| *g == plan.row_group) {
            Some(at) => self.sure.swap_remove(at).1,
            None => RowRanges::empty(),
        };
        self.open = Some(OpenGroup {
            row_group: plan.row_group,
            rows: plan.rows.ranges().to_vec(),
            next: (0, 0),
            cursors,
            sure,
        });
        Ok(())
    }

    /// The next batch, or `None` at the end of the scan.
    pub fn next_batch(&mut self) -> Result<Option<ScanBatch>> {
        loop {
            if let Some(open) = self.open.as_mut() {
                let limits = *self.builder.file.limits();
                let rg = open.row_group;
                if self.take == 0 {
                    return Ok(None);
                }
                let batch = match &self.builder.predicate {
                    None => open.batch(self.builder.batch_rows, self.builder.threads, &limits),
                    Some(p) => open.filtered_batch(
                        self.builder.batch_rows,
                        self.builder.threads,
                        &limits,
                        Filter {
                            predicate: p,
                            slots: &self.slots,
                            out_columns: self.out_columns,
                            skip: &mut self.skip,
                            take: &mut self.take,
                        },
                    ),
                };
                if let Some(batch) = batch.map_err(|e| e.in_row_group(rg))? {
                    if batch.rows.is_empty() {
                        continue;
                    }
                    self.stats.rows += batch.num_rows();
                    return Ok(Some(batch));
                }
                self.close();
            }
            let Some(plan) = self.plan.next() else {
                return Ok(None);
            };
            let rg = plan.row_group;
            self.open(plan).map_err(|e| e.in_row_group(rg))?;
        }
    }
}

impl Iterator for Scan<'_, '_> {
    type Item = Result<ScanBatch>;

    /// The next batch; after an error the scan ends.
    fn next(&mut self) -> Option<Result<ScanBatch>> {
        if self.failed {
            return None;
        }
        let r = self.next_batch().transpose();
        self.failed = matches!(r, Some(Err(_)));
        r
    }
}

/// The records of a [`Scan`]: [`Scan::records`].
pub struct ScanRecords<'f, 'a> {
    scan: Scan<'f, 'a>,
    ready: alloc::vec::IntoIter<Value>,
}

impl ScanRecords<'_, '_> {
    /// The projected schema the records follow.
    pub fn schema(&self) -> &Schema {
        &self.scan.schema
    }

    /// What the scan has done so far.
    pub fn stats(&self) -> ScanStats {
        self.scan.stats()
    }
}

impl Iterator for ScanRecords<'_, '_> {
    type Item = Result<Value>;

    fn next(&mut self) -> Option<Result<Value>> {
        loop {
            if let Some(v) = self.ready.next() {
                return Some(Ok(v));
            }
            let batch = match self.scan.next()? {
                Ok(b) => b,
                Err(e) => return Some(Err(e)),
            };
            match crate::levels::assemble(&self.scan.schema, &batch.columns) {
                Ok(records) => self.ready = records.into_iter(),
                Err(e) => {
                    self.scan.failed = true;
                    return Some(Err(e.in_row_group(batch.row_group)));
                }
            }
        }
    }
}

/// What [`OpenGroup::filtered_batch`] needs of the scan's predicate.
struct Filter<'p> {
    predicate: &'p Predicate,
    /// The predicate's columns, as positions in the open group's cursors.
    slots: &'p [usize],
    /// The first `out_columns` cursors are the output.
    out_columns: usize,
    /// Matching rows still to skip (offset) and to hand out (limit).
    skip: &'p mut u64,
    take: &'p mut u64,
}

impl OpenGroup<'_> {
    /// The next rows to read, at most `max_rows` of them (empty at the group's end).
    fn next_rows(&mut self, max_rows: usize) -> Vec<Range<u64>> {
        self.next_rows_before(max_rows, u64::MAX)
    }

    /// The next row to read, if any.
    fn next_row(&self) -> Option<u64> {
        self.rows.get(self.next.0).map(|r| r.start + self.next.1)
    }

    /// [`OpenGroup::next_rows`], only rows before `end` (at least the next one).
    fn next_rows_before(&mut self, max_rows: usize, end: u64) -> Vec<Range<u64>> {
        let mut want = max_rows as u64;
        let mut rows = Vec::new();
        while want > 0 {
            let Some(r) = self.rows.get(self.next.0) else {
                break;
            };
            let start = r.start + self.next.1;
            let stop = if rows.is_empty() {
                r.end.min(end.max(start + 1))
            } else {
                r.end.min(end)
            };
            if stop <= start {
                break;
            }
            let n = (stop - start).min(want);
            rows.push(start..start + n);
            want -= n;
            if start + n == r.end {
                self.next = (self.next.0 + 1, 0);
            } else {
                self.next.1 += n;
            }
        }
        rows
    }

    /// The levels and values of `rows` of the cursors `which` (ascending, distinct), in that
    /// order, on up to `threads` threads; the levels they hold are checked against `limits`.
    fn read_columns(
        &mut self,
        which: &[usize],
        rows: &[Range<u64>],
        threads: usize,
        limits: &crate::Limits,
    ) -> Result<Vec<LeafData>> {
        let mut held = 0u64;
        let mut picked: Vec<&mut Cursor<'_>> = self
            .cursors
            .iter_mut()
            .enumerate()
            .filter(|(i, _)| which.binary_search(i).is_ok())
            .map(|(_, c)| c)
            .collect();
        let mut columns = Vec::with_capacity(picked.len());
        let threads = batch_threads(threads, picked.len(), rows);
        #[cfg(feature = "std")]
        if threads > 1 {
            for out in cursor_rows_parallel(&mut picked, rows, threads) {
                let (out, max_def) = out?;
                held = held.saturating_add(level_count(&out, max_def) as u64);
                limits.check_values_per_read(held)?;
                columns.push(out);
            }
            return Ok(columns);
        }
        let _ = threads;
        for c in &mut picked {
            let out = c.rows(rows)?;
            held = held.saturating_add(level_count(&out, c.max_def) as u64);
            limits.check_values_per_read(held)?;
            columns.push(out);
        }
        Ok(columns)
    }

    /// The next batch of at most `max_rows` selected rows.
    fn batch(
        &mut self,
        max_rows: usize,
        threads: usize,
        limits: &crate::Limits,
    ) -> Result<Option<ScanBatch>> {
        let rows = self.next_rows(max_rows);
        if rows.is_empty() {
            return Ok(None);
        }
        let all: Vec<usize> = (0..self.cursors.len()).collect();
        let columns = self.read_columns(&all, &rows, threads, limits)?;
        Ok(Some(ScanBatch {
            row_group: self.row_group,
            rows,
            columns,
        }))
    }

    /// The next batch of at most `max_rows` selected rows, keeping those for which the
    /// predicate is true (less the first `*skip` of them, and past `*take`). Its `rows` are
    /// empty when none is kept.
    ///
    /// The predicate's columns are read for every row, the other output columns only for the
    /// rows kept (the rows between are skipped without being copied). A predicate column
    /// whose page holds dictionary ids (a dictionary-encoded BYTE_ARRAY page) is not
    /// gathered: each dictionary entry is tested once per chunk, each row looks its id up,
    /// and the column is then read like the others, at the rows kept (the batch ends with
    /// the page, so the ids stay at hand). Where the metadata says every row matches (the
    /// chunks' statistics, or the column indexes: `sure`), the batch's own values are checked
    /// instead of evaluated: their exact bounds, nulls and NaNs must prove every row true
    /// ([`Predicate::batch_all_true`]), else the rows are evaluated, so metadata that lies
    /// costs time, never rows. A batch whose rows are all kept is handed out as read, as a
    /// scan without predicate reads it.
    fn filtered_batch(
        &mut self,
        max_rows: usize,
        threads: usize,
        limits: &crate::Limits,
        f: Filter<'_>,
    ) -> Result<Option<ScanBatch>> {
        let Some(first) = self.next_row() else {
            return Ok(None);
        };
        // The predicate's cursors, each once; those at a page of ids bound the batch to it.
        let mut pred: Vec<usize> = f.slots.to_vec();
        pred.sort_unstable();
        pred.dedup();
        let mut end = u64::MAX;
        for &c in &pred {
            let cursor = self
                .cursors
                .get_mut(c)
                .ok_or_else(|| Error::invalid_argument("predicate column out of range"))?;
            if let Some(page_end) = cursor.ids_until(first)? {
                end = end.min(page_end);
            }
        }
        let rows = self.next_rows_before(max_rows, end);
        if rows.is_empty() {
            return Ok(None);
        }
        let n = rows.iter().map(|r| r.end - r.start).sum::<u64>();
        let with_ids: Vec<bool> = pred.iter().map(|&c| self.cursors[c].holds_ids()).collect();
        let valued: Vec<usize> = pred
            .iter()
            .zip(&with_ids)
            .filter(|(_, ids)| !**ids)
            .map(|(&c, _)| c)
            .collect();
        let data = self.read_columns(&valued, &rows, threads, limits)?;
        let mut read: Vec<Option<LeafData>> = (0..self.cursors.len()).map(|_| None).collect();
        for (&c, d) in valued.iter().zip(data) {
            read[c] = Some(d);
        }
        // Every row true? Proven from the values where the metadata says so, else evaluated.
        let sure = with_ids.iter().all(|x| !x) && rows.iter().all(|r| self.sure.covers(r));
        let batch = |c: usize| {
            read.get(c).and_then(Option::as_ref).map(|d| ColumnBatch {
                values: d.values.as_ref(),
                def_levels: &d.def_levels,
            })
        };
        let proven = sure && {
            let cols: Vec<Option<ColumnBatch<'_>>> = f.slots.iter().map(|&c| batch(c)).collect();
            f.predicate.batch_all_true(&cols)
        };
        let mut keep = Vec::new();
        if !proven {
            let mut ids = Vec::with_capacity(f.slots.len());
            for (i, &c) in f.slots.iter().enumerate() {
                let cursor = &mut self.cursors[c];
                ids.push(if cursor.holds_ids() {
                    Some(cursor.peek_ids(&rows, f.predicate, i)?)
                } else {
                    None
                });
            }
            let mut inputs = Vec::with_capacity(f.slots.len());
            for (&c, ids) in f.slots.iter().zip(&ids) {
                inputs.push(match (ids, batch(c)) {
                    (Some((levels, ids)), _) => Input::Ids {
                        ids,
                        def_levels: levels,
                        truths: self.cursors[c].truths.as_deref().unwrap_or(&[]),
                    },
                    (None, Some(b)) => Input::Values(b),
                    (None, None) => {
                        return Err(Error::invalid_argument("predicate column not read"))
                    }
                });
            }
            f.predicate.evaluate_inputs(&inputs, &mut keep)?;
        }
        let kept_all = proven && *f.skip == 0 && *f.take >= n;
        let kept = if kept_all {
            *f.take -= n;
            rows.clone()
        } else {
            if proven {
                keep = alloc::vec![true; n as usize];
            }
            for k in keep.iter_mut().filter(|k| **k) {
                if *f.skip > 0 {
                    *f.skip -= 1;
                    *k = false;
                } else if *f.take == 0 {
                    *k = false;
                } else {
                    *f.take -= 1;
                }
            }
            kept_rows(&rows, &keep)
        };
        let all = kept_all || kept == rows;
        // The other output columns, only the kept rows of them.
        let rest: Vec<usize> = (0..f.out_columns)
            .filter(|&c| read.get(c).is_some_and(Option::is_none))
            .collect();
        let mut rest = match kept.is_empty() {
            true => Vec::new(),
            false => self.read_columns(&rest, &kept, threads, limits)?,
        }
        .into_iter();
        let mut columns = Vec::with_capacity(f.out_columns);
        for c in 0..f.out_columns {
            let cursor = self
                .cursors
                .get(c)
                .ok_or_else(|| Error::invalid_argument("scan column out of range"))?;
            let data = match read.get_mut(c).and_then(Option::take) {
                Some(d) if all => d,
                Some(d) => filter_rows(&d, cursor.max_def, cursor.max_rep, &keep),
                None if kept.is_empty() => cursor.reader.new_leaf_data(),
                None => rest
                    .next()
                    .ok_or_else(|| Error::invalid_argument("scan column out of range"))?,
            };
            columns.push(data);
        }
        Ok(Some(ScanBatch {
            row_group: self.row_group,
            rows: kept,
            columns,
        }))
    }
}

/// Whether this build leaves dictionary ids ungathered (builds for size never do).
fn variant_defers() -> bool {
    !cfg!(parket_opt_size)
}

/// The runs of `keep` that are true, as position ranges (maximal: none touches the next).
/// Falses are passed over 64 at a time (an OR the compiler vectorises): a point lookup keeps
/// one row of a page of 20,000, and a step per row cost more than evaluating them.
fn true_runs(keep: &[bool]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < keep.len() {
        if keep.get(i) != Some(&true) {
            while let Some(c) = keep.get(i..i + 64) {
                if c.iter().fold(false, |a, &k| a | k) {
                    break;
                }
                i += 64;
            }
            while keep.get(i) == Some(&false) {
                i += 1;
            }
            continue;
        }
        let start = i;
        while keep.get(i) == Some(&true) {
            i += 1;
        }
        out.push(start..i);
    }
    out
}

/// The rows of `rows` (ascending) whose entry in `keep` is true, as ranges (`keep` has an
/// entry per row of `rows`, in order; entries past them are not rows).
fn kept_rows(rows: &[Range<u64>], keep: &[bool]) -> Vec<Range<u64>> {
    let mut out: Vec<Range<u64>> = Vec::new();
    // `rows[r]` holds the positions from `at` on.
    let (mut r, mut at) = (0usize, 0usize);
    for run in true_runs(keep) {
        let mut a = run.start;
        while a < run.end {
            let Some(range) = rows.get(r) else {
                return out;
            };
            let len = (range.end - range.start) as usize;
            if a >= at + len {
                at += len;
                r += 1;
                continue;
            }
            let end = run.end.min(at + len);
            let from = range.start + (a - at) as u64;
            let to = range.start + (end - at) as u64;
            match out.last_mut() {
                Some(last) if last.end == from => last.end = to,
                _ => out.push(from..to),
            }
            a = end;
        }
    }
    out
}

/// [`Cursor::rows`] of each cursor, on up to `threads` threads (the caller's one of them):
/// each thread takes the next column not yet taken, so a slow column does not hold back the
/// others. In the cursors' order, each with its `max_def`.
#[cfg(feature = "std")]
fn cursor_rows_parallel(
    cursors: &mut [&mut Cursor<'_>],
    rows: &[Range<u64>],
    threads: usize,
) -> Vec<Result<(LeafData, u16)>> {
    let n = cursors.len();
    let todo = std::sync::Mutex::new(cursors.iter_mut().enumerate());
    let done = std::sync::Mutex::new(Vec::with_capacity(n));
    let run = || loop {
        let next = match todo.lock() {
            Ok(mut t) => t.next(),
            Err(_) => None,
        };
        let Some((i, c)) = next else { return };
        let out = c.rows(rows).map(|d| (d, c.max_def));
        if let Ok(mut d) = done.lock() {
            d.push((i, out));
        }
    };
    std::thread::scope(|s| {
        for _ in 1..threads.min(n) {
            s.spawn(run);
        }
        run();
    });
    let mut done = done.into_inner().unwrap_or_default();
    done.sort_unstable_by_key(|(i, _)| *i);
    if done.len() != n {
        return alloc::vec![Err(Error::invalid_argument(
            "a scan thread panicked while decoding"
        ))];
    }
    done.into_iter().map(|(_, r)| r).collect()
}

/// The rows of `data` (levels and values of whole rows) whose entry in `keep` is true.
fn filter_rows(data: &LeafData, max_def: u16, max_rep: u16, keep: &[bool]) -> LeafData {
    let mut out = LeafData {
        def_levels: Vec::new(),
        rep_levels: Vec::new(),
        values: data.values.as_ref().slice_or_empty(0..0).to_owned(),
    };
    let n = level_count(data, max_def);
    let (mut row, mut value) = (0usize, 0usize);
    let mut run: Option<(usize, usize)> = None; // start level, start value of a kept run
    let flush = |out: &mut LeafData, from: (usize, usize), to: (usize, usize)| {
        if max_def > 0 {
            out.def_levels
                .extend_from_slice(data.def_levels.get(from.0..to.0).unwrap_or(&[]));
        }
        if max_rep > 0 {
            out.rep_levels
                .extend_from_slice(data.rep_levels.get(from.0..to.0).unwrap_or(&[]));
        }
        out.values
            .extend_from(data.values.as_ref().slice_or_empty(from.1..to.1));
    };
    if max_rep == 0 {
        // A level position per row: the kept runs are copied, the values before each
        // counted from the levels (a vectorised count), not walked row by row.
        let values = |a: usize, b: usize| match max_def {
            0 => b - a,
            _ => crate::levels::count_level(data.def_levels.get(a..b).unwrap_or(&[]), max_def),
        };
        let (mut at, mut value) = (0usize, 0usize);
        for run in true_runs(keep.get(..n).unwrap_or(keep)) {
            value += values(at, run.start);
            let kept = values(run.start, run.end);
            flush(&mut out, (run.start, value), (run.end, value + kept));
            value += kept;
            at = run.end;
        }
        return out;
    }
    for i in 0..n {
        let starts = max_rep == 0 || data.rep_levels.get(i) == Some(&0);
        if starts {
            if i > 0 {
                row += 1;
            }
            let k = keep.get(row).copied().unwrap_or(false);
            match (k, run) {
                (true, None) => run = Some((i, value)),
                (false, Some(from)) => {
                    flush(&mut out, from, (i, value));
                    run = None;
                }
                _ => {}
            }
        }
        if max_def == 0 || data.def_levels.get(i) == Some(&max_def) {
            value += 1;
        }
    }
    if let Some(from) = run {
        flush(&mut out, from, (n, value));
    }
    out
}

/// One column of the open row group: its decoded page and where the scan stands in it.
struct Cursor<'f> {
    reader: ColumnChunkReader<'f>,
    buf: LeafData,
    max_def: u16,
    max_rep: u16,
    /// Values of the page left as dictionary indices or encoded in `reader` (`buf` holds
    /// its levels only): [`Cursor::take_to`] gathers or decodes the values it takes straight
    /// into its output.
    deferred: Option<usize>,
    /// The next level position and value of `buf`.
    level: usize,
    value: usize,
    /// Rows that start before `level` (the row `level` starts, when it starts one).
    row: u64,
    /// The end of the rows the current [`Cursor::rows`] call takes.
    reach: u64,
    pages: usize,
    /// A predicate column's: per leaf of the predicate, the truth of its test for each
    /// entry of the chunk's dictionary ([`Predicate::dictionary_truths`]), made when a page
    /// of ids is first evaluated (a chunk has one dictionary).
    truths: Option<Vec<Option<Vec<bool>>>>,
}

impl<'f> Cursor<'f> {
    fn new(reader: ColumnChunkReader<'f>) -> Self {
        let c = *reader.column();
        Cursor {
            buf: reader.new_leaf_data(),
            reader,
            max_def: c.max_def_level,
            max_rep: c.max_rep_level,
            deferred: None,
            level: 0,
            value: 0,
            row: 0,
            reach: 0,
            pages: 0,
            truths: None,
        }
    }

    /// [`Cursor::new`], decoding into `buf` (a page buffer of the same column's last row
    /// group: [`Cursor::into_buffers`]) instead of a new one.
    fn with_buffers(reader: ColumnChunkReader<'f>, mut buf: LeafData) -> Self {
        let mut c = Cursor::new(reader);
        buf.def_levels.clear();
        buf.rep_levels.clear();
        buf.values.clear();
        // The same leaf: the same kind of values (and width).
        if buf.values.physical_type() == c.buf.values.physical_type() {
            c.buf = buf;
        }
        c
    }

    /// The buffers this cursor decoded into, for the same column's next row group.
    fn into_buffers(self) -> (ChunkBuffers, LeafData) {
        (self.reader.into_buffers(), self.buf)
    }

    fn locate(&self, e: Error) -> Error {
        e.in_column(self.reader.path())
    }

    /// The levels and values of `rows` (ascending row ordinals of the row group).
    fn rows(&mut self, rows: &[Range<u64>]) -> Result<LeafData> {
        let mut out = self.reader.new_leaf_data();
        self.reach = rows.last().map_or(0, |r| r.end);
        if self.max_rep == 0 {
            // A flat column has one level position per row: its batch is sized once (not
            // grown page piece by page piece), up to a bound the row counts cannot raise.
            let n = rows.iter().map(|r| r.end - r.start).sum::<u64>();
            let n = usize::try_from(n.min(RESERVE_ROWS)).unwrap_or(0);
            if self.max_def > 0 {
                out.def_levels.reserve(n);
            }
            out.values.try_reserve(n, 0)?;
        }
        for r in rows {
            self.skip_to(r.start).map_err(|e| self.locate(e))?;
            self.take_to(r.end, &mut out).map_err(|e| self.locate(e))?;
        }
        Ok(out)
    }

    fn len(&self) -> usize {
        match self.deferred {
            Some(n) if self.max_def == 0 => n,
            _ => level_count(&self.buf, self.max_def),
        }
    }

    /// Values of the page in `buf` (or left as indices).
    fn values_len(&self) -> usize {
        self.deferred.unwrap_or_else(|| self.buf.values.len())
    }

    /// Whether level position `i` starts a row.
    fn starts_row(&self, i: usize) -> bool {
        self.max_rep == 0 || self.buf.rep_levels.get(i) == Some(&0)
    }

    /// Whether level position `i` holds a value.
    fn has_value(&self, i: usize) -> bool {
        self.max_def == 0 || self.buf.def_levels.get(i) == Some(&self.max_def)
    }

    /// Whether the current page's values are dictionary ids not yet gathered (a flat
    /// column's dictionary-encoded BYTE_ARRAY page).
    fn holds_ids(&self) -> bool {
        self.max_rep == 0
            && self.deferred.is_some()
            && self.level < self.len()
            && self.reader.deferred_ids().is_some()
    }

    /// Moves to row `row` (at or after the current one) and, when its page holds ids
    /// ([`Cursor::holds_ids`]), gives the row after that page's last.
    fn ids_until(&mut self, row: u64) -> Result<Option<u64>> {
        if self.max_rep != 0 || !variant_defers() {
            return Ok(None);
        }
        self.skip_to(row).map_err(|e| self.locate(e))?;
        Ok(self
            .holds_ids()
            .then(|| self.row + (self.len() - self.level) as u64))
    }

    /// The definition levels and dictionary ids of `rows` (ascending, from the current row
    /// on, within the current page, which [`Cursor::holds_ids`]), without moving; the first
    /// time, the truths of the chunk's dictionary for predicate column `slot` of `p`.
    fn peek_ids(
        &mut self,
        rows: &[Range<u64>],
        p: &Predicate,
        slot: usize,
    ) -> Result<(Vec<u16>, Vec<u32>)> {
        if self.truths.is_none() {
            let Some((_, dict)) = self.reader.deferred_ids() else {
                return Err(Error::invalid_argument("no dictionary ids to evaluate"));
            };
            self.truths = Some(
                p.dictionary_truths(slot, dict)
                    .map_err(|e| self.locate(e))?,
            );
        }
        let Some((all, _)) = self.reader.deferred_ids() else {
            return Err(Error::invalid_argument("no dictionary ids to evaluate"));
        };
        let len = self.len();
        let n = rows.iter().map(|r| r.end - r.start).sum::<u64>() as usize;
        let mut levels = Vec::with_capacity(if self.max_def > 0 { n } else { 0 });
        let mut ids = Vec::with_capacity(n);
        let (mut at, mut value, mut row) = (self.level, self.value, self.row);
        let outside = || Error::invalid_argument("dictionary ids asked for outside their page");
        for r in rows {
            if r.start < row || r.end - row > (len - at) as u64 {
                return Err(outside());
            }
            let skip = (r.start - row) as usize;
            value += self.count_values(at, at + skip);
            at += skip;
            let take = (r.end - r.start) as usize;
            let values = self.count_values(at, at + take);
            if self.max_def > 0 {
                levels
                    .extend_from_slice(self.buf.def_levels.get(at..at + take).ok_or_else(outside)?);
            }
            ids.extend_from_slice(all.get(value..value + values).ok_or_else(outside)?);
            at += take;
            value += values;
            row = r.end;
        }
        Ok((levels, ids))
    }

    /// Replaces the (consumed) buffer with the next data page; false at the chunk's end.
    fn load(&mut self) -> Result<bool> {
        self.buf.def_levels.clear();
        self.buf.rep_levels.clear();
        self.buf.values.clear();
        self.level = 0;
        self.value = 0;
        self.deferred = None;
        if !self.reader.append_page_deferred(&mut self.buf)? {
            return Ok(false);
        }
        self.deferred = self.reader.deferred_values();
        self.pages += 1;
        // A page the offset index placed: rows between may have been skipped.
        if let Some(rows) = self.reader.last_rows() {
            if rows.start < self.row {
                return Err(Error::out_of_spec(
                    "the offset index places a page before rows already read",
                ));
            }
            self.row = rows.start;
        }
        Ok(true)
    }

    /// Moves to the start of row `target` (at or after the current one) without copying.
    fn skip_to(&mut self, target: u64) -> Result<()> {
        loop {
            let len = self.len();
            if self.level >= len {
                if !self.load()? {
                    return Err(Error::out_of_spec(
                        "the column chunk ends before the rows the row group declares",
                    ));
                }
                continue;
            }
            if self.starts_row(self.level) && self.row == target {
                return Ok(());
            }
            if self.row > target {
                return Err(Error::out_of_spec(
                    "the column chunk's pages skip rows the scan needs",
                ));
            }
            if self.max_rep == 0 {
                // One position per row: jump.
                let n = ((target - self.row) as usize).min(len - self.level);
                let end = self.level + n;
                self.value += self.count_values(self.level, end);
                self.level = end;
                self.row += n as u64;
                continue;
            }
            if self.starts_row(self.level) {
                self.row += 1;
            }
            if self.has_value(self.level) {
                self.value += 1;
            }
            self.level += 1;
        }
    }

    /// Values among level positions `a..b` of the buffer.
    fn count_values(&self, a: usize, b: usize) -> usize {
        if self.max_def == 0 {
            b - a
        } else {
            crate::levels::count_level(self.buf.def_levels.get(a..b).unwrap_or(&[]), self.max_def)
        }
    }

    /// Appends the rows from the current one up to (not including) row `end` to `out`.
    fn take_to(&mut self, end: u64, out: &mut LeafData) -> Result<()> {
        loop {
            let len = self.len();
            // The positions of this buffer that belong to the rows wanted.
            let from = self.level;
            let mut at = from;
            let mut row = self.row;
            if self.max_rep == 0 {
                let n = (end.saturating_sub(row) as usize).min(len - at);
                at += n;
                row += n as u64;
            } else {
                while at < len {
                    if self.starts_row(at) {
                        if row == end {
                            break;
                        }
                        row += 1;
                    }
                    at += 1;
                }
            }
            let values = self.count_values(from, at);
            if self.max_def > 0 {
                out.def_levels
                    .extend_from_slice(self.buf.def_levels.get(from..at).unwrap_or(&[]));
            }
            if self.max_rep > 0 {
                out.rep_levels
                    .extend_from_slice(self.buf.rep_levels.get(from..at).unwrap_or(&[]));
            }
            let v_end = (self.value + values).min(self.values_len());
            let v_range = self.value.min(v_end)..v_end;
            if self.deferred.is_some() {
                // How far into the page's values this call's rows go (past this range when
                // later ranges are in the page too): a flat column's rows are its positions.
                let reach = match self.max_rep {
                    0 => {
                        let n = (self.reach.saturating_sub(self.row) as usize).min(len - from);
                        self.value + self.count_values(from, from + n)
                    }
                    _ => self.values_len(),
                };
                self.reader
                    .gather_deferred(v_range, reach, &mut out.values)?;
            } else {
                out.values
                    .extend_from(self.buf.values.as_ref().slice_or_empty(v_range));
            }
            self.level = at;
            self.value = v_end;
            self.row = row;
            if at < len || (self.max_rep == 0 && row == end) {
                return Ok(());
            }
            // The buffer is used up: the last row may go on in the next page (or the chunk
            // ends, which ends it).
            if !self.load()? {
                if row < end {
                    return Err(Error::out_of_spec(
                        "the column chunk ends before the rows the row group declares",
                    ));
                }
                return Ok(());
            }
            if self.starts_row(0) && self.row >= end {
                return Ok(());
            }
        }
    }
}

impl<'a> FileReader<'a> {
    /// A scan of this file: see [`mod@crate::read::scan`].
    pub fn scan(&self) -> ScanBuilder<'_, 'a> {
        ScanBuilder::new(self)
    }

    /// The column index of a column chunk, when the chunk points to one (read and decoded on
    /// each call; its length is checked against [`Limits::metadata_bytes`](crate::Limits)).
    pub fn column_index(&self, row_group: usize, column: usize) -> Result<Option<ColumnIndex>> {
        let at = |c: &crate::format::ColumnChunk| (c.column_index_offset, c.column_index_length);
        #[cfg(feature = "encryption")]
        let at = (at, crate::encryption::ModuleType::ColumnIndex);
        self.page_index(row_group, column, at, ColumnIndex::decode)
    }

    /// The offset index of a column chunk, when the chunk points to one (read and decoded on
    /// each call; its length is checked against [`Limits::metadata_bytes`](crate::Limits)).
    pub fn offset_index(&self, row_group: usize, column: usize) -> Result<Option<OffsetIndex>> {
        let at = |c: &crate::format::ColumnChunk| (c.offset_index_offset, c.offset_index_length);
        #[cfg(feature = "encryption")]
        let at = (at, crate::encryption::ModuleType::OffsetIndex);
        self.page_index(row_group, column, at, OffsetIndex::decode)
    }

    /// The Bloom filter of a column chunk, when the chunk points to one (its size is checked
    /// against [`Limits::metadata_bytes`](crate::Limits) before it is read).
    pub fn bloom_filter(&self, row_group: usize, column: usize) -> Result<Option<Sbbf>> {
        let meta = self
            .metadata()
            .row_groups
            .get(row_group)
            .and_then(|rg| rg.columns.get(column))
            .and_then(|c| c.meta_data.as_ref())
            .ok_or_else(|| Error::invalid_argument("no such column chunk"))?;
        let Some(off) = meta.bloom_filter_offset else {
            return Ok(None);
        };
        let start =
            u64::try_from(off).map_err(|_| Error::out_of_range("bloom_filter_offset", off))?;
        #[cfg(feature = "encryption")]
        if let Some(d) = self.chunk_decryptor(row_group, column)? {
            return self.encrypted_bloom_filter(&d, start).map(Some);
        }
        // The header is a few bytes; read a prefix (within the file), then the bitset.
        let head_end = start.saturating_add(64).min(self.file_len());
        let head = self.read_range(start..head_end, "the Bloom filter header")?;
        let (header, used) = BloomFilterHeader::decode(&head).map_err(|e| e.offset_by(start))?;
        let n = u64::try_from(header.num_bytes).map_err(|_| {
            Error::out_of_range("BloomFilterHeader.num_bytes", header.num_bytes.into())
        })?;
        self.limits().check_metadata_bytes(n)?;
        let bits_at = start + used as u64;
        let bits = self.read_range(bits_at..bits_at.saturating_add(n), "the Bloom filter")?;
        Ok(Some(
            Sbbf::from_bytes(&bits).map_err(|e| e.at_offset(bits_at))?,
        ))
    }

    /// Reads and decodes the page index structure that `at` places for a chunk (with the
    /// `encryption` feature, `at` also names its module type: an encrypted chunk's is a module).
    fn page_index<T>(
        &self,
        row_group: usize,
        column: usize,
        #[cfg(not(feature = "encryption"))] at: impl Fn(
            &crate::format::ColumnChunk,
        ) -> (Option<i64>, Option<i32>),
        #[cfg(feature = "encryption")] (at, module): (
            impl Fn(&crate::format::ColumnChunk) -> (Option<i64>, Option<i32>),
            crate::encryption::ModuleType,
        ),
        decode: fn(&[u8]) -> Result<(T, usize)>,
    ) -> Result<Option<T>> {
        let chunk = self
            .metadata()
            .row_groups
            .get(row_group)
            .and_then(|rg| rg.columns.get(column))
            .ok_or_else(|| Error::invalid_argument("no such column chunk"))?;
        let (Some(off), Some(len)) = at(chunk) else {
            return Ok(None);
        };
        let start =
            u64::try_from(off).map_err(|_| Error::out_of_range("page index offset", off))?;
        let len =
            u64::try_from(len).map_err(|_| Error::out_of_range("page index length", len.into()))?;
        self.limits().check_metadata_bytes(len)?;
        let bytes = self.read_range(start..start.saturating_add(len), "the page index")?;
        #[cfg(feature = "encryption")]
        if let Some(d) = self.chunk_decryptor(row_group, column)? {
            let (plain, _) = d.module(module, &bytes).map_err(|e| e.at_offset(start))?;
            let (index, _) = decode(&plain).map_err(|e| e.without_offset().at_offset(start))?;
            return Ok(Some(index));
        }
        let (index, _) = decode(&bytes).map_err(|e| e.offset_by(start))?;
        Ok(Some(index))
    }
}

#[cfg(test)]
mod tests {
    use super::{batch_threads, filter_rows, kept_rows, true_runs};
    use crate::values::{LeafData, Values};
    use alloc::vec::Vec;
    use core::ops::Range;
    use proptest::prelude::*;

    /// `kept_rows` row by row (as it was written before the runs).
    fn kept_rows_by_row(rows: &[Range<u64>], keep: &[bool]) -> Vec<Range<u64>> {
        let mut out: Vec<Range<u64>> = Vec::new();
        let mut k = keep.iter();
        for row in rows.iter().flat_map(|r| r.clone()) {
            if k.next() == Some(&true) {
                match out.last_mut() {
                    Some(last) if last.end == row => last.end += 1,
                    _ => out.push(row..row + 1),
                }
            }
        }
        out
    }

    #[test]
    fn runs_of_a_point_and_of_edges() {
        let mut keep = alloc::vec![false; 20_000];
        keep[12_345] = true;
        assert_eq!(true_runs(&keep), alloc::vec![12_345..12_346; 1]);
        let rows = [100..10_100, 30_000..40_000];
        assert_eq!(kept_rows(&rows, &keep), one(32_345..32_346));
        keep[0] = true;
        keep[19_999] = true;
        keep[9_999] = true;
        keep[10_000] = true;
        assert_eq!(
            true_runs(&keep),
            [0..1, 9_999..10_001, 12_345..12_346, 19_999..20_000]
        );
        // A run across two ranges splits; ranges that touch merge.
        assert_eq!(
            kept_rows(&rows, &keep),
            [
                100..101,
                10_099..10_100,
                30_000..30_001,
                32_345..32_346,
                39_999..40_000
            ]
        );
        assert_eq!(
            kept_rows(&[5..10, 10..12], &[false, false, false, false, true, true]),
            one(9..11)
        );
        assert!(true_runs(&[]).is_empty());
    }

    proptest! {
        /// Runs found 64 falses at a time, rows and filtered levels and values from them,
        /// against the walk row by row, on sparse and dense picks.
        #[test]
        fn kept_runs_match_the_row_walk(
            keep in proptest::collection::vec(prop_oneof![10 => Just(false), 1 => Just(true), 3 => any::<bool>()], 0..300),
            cuts in proptest::collection::vec(0u64..40, 0..6),
            nulls in proptest::collection::vec(any::<bool>(), 300),
        ) {
            // Ranges of rows covering keep.len() positions (or fewer: entries past them).
            let mut rows = Vec::new();
            let (mut start, mut left) = (7u64, keep.len() as u64);
            for c in cuts {
                let n = c.min(left);
                rows.push(start..start + n);
                start += n + c % 3;
                left -= n;
            }
            rows.push(start..start + left);
            let runs = true_runs(&keep);
            let want: Vec<usize> = (0..keep.len()).filter(|&i| keep[i]).collect();
            let got: Vec<usize> = runs.iter().flat_map(|r| r.clone()).collect();
            prop_assert_eq!(got, want);
            prop_assert!(runs.windows(2).all(|w| w[0].end < w[1].start));
            prop_assert_eq!(kept_rows(&rows, &keep), kept_rows_by_row(&rows, &keep));
            let short = &rows[..rows.len() - 1];
            prop_assert_eq!(kept_rows(short, &keep), kept_rows_by_row(short, &keep));
            // A flat optional column: a level per row, values for the non-null ones.
            let levels: Vec<u16> = nulls[..keep.len()].iter().map(|&n| u16::from(!n)).collect();
            let values: Vec<i64> = (0..levels.iter().filter(|&&l| l == 1).count() as i64).collect();
            let data = LeafData { def_levels: levels.clone(), rep_levels: Vec::new(), values: Values::Int64(values.clone()) };
            let out = filter_rows(&data, 1, 0, &keep);
            let mut v = 0;
            let (mut want_levels, mut want_values) = (Vec::new(), Vec::new());
            for (i, &l) in levels.iter().enumerate() {
                if keep[i] {
                    want_levels.push(l);
                    if l == 1 { want_values.push(v); }
                }
                v += i64::from(l);
            }
            prop_assert_eq!(&out.def_levels, &want_levels);
            prop_assert!(matches!(&out.values, Values::Int64(x) if *x == want_values));
            // Required: no levels, a value per row.
            let data = LeafData { def_levels: Vec::new(), rep_levels: Vec::new(), values: Values::Int64((0..keep.len() as i64).collect()) };
            let out = filter_rows(&data, 0, 0, &keep);
            let want: Vec<i64> = (0..keep.len() as i64).filter(|&i| keep[i as usize]).collect();
            prop_assert!(matches!(&out.values, Values::Int64(x) if *x == want));
        }
    }

    /// One range of rows.
    fn one(r: Range<u64>) -> [Range<u64>; 1] {
        [r]
    }

    #[test]
    fn small_batches_stay_on_the_calling_thread() {
        // A point lookup's rows, one column or a default batch of three: one thread.
        assert_eq!(batch_threads(8, 3, &one(41..42)), 1);
        assert_eq!(batch_threads(8, 1, &one(0..1 << 20)), 1);
        assert_eq!(batch_threads(8, 3, &one(0..8192)), 1);
        // 8 columns of 8,192 rows: two threads of 32 Ki positions; never more than asked.
        assert_eq!(batch_threads(8, 8, &[0..4096, 10_000..14_096]), 2);
        assert_eq!(batch_threads(2, 30, &one(0..1 << 16)), 2);
        assert_eq!(batch_threads(1, 30, &one(0..1 << 16)), 1);
        assert_eq!(batch_threads(8, 0, &[]), 1);
    }
}
