//! What a column chunk's pages add up to, page by page: the column index, the offset index,
//! the size statistics (level histograms, unencoded byte-array bytes) and the page encoding
//! statistics. The chunk encoder adds one [`PageEntry`] per data page; the column writer turns
//! the lot into the chunk's `ColumnMetaData` fields and its two indexes.
//!
//! Spec: PageIndex.md (`ColumnIndex`, `OffsetIndex`, `BoundaryOrder`), parquet.thrift
//! (`SizeStatistics`, `PageEncodingStats`, `ColumnMetaData.encodings`).
//!
//! The column index's histograms are the pages' histograms end to end: for an OPTIONAL column
//! (max definition level 1) of two pages, one of 3 values and a null, one of 2 nulls,
//! `definition_level_histograms = [1, 3, 2, 0]` (page 1: one 0 and three 1s; page 2: two 0s),
//! and the chunk's `SizeStatistics.definition_level_histogram = [3, 3]`, their sum.

use alloc::vec::Vec;

use crate::format::{
    BoundaryOrder, ColumnIndex, Encoding, OffsetIndex, PageEncodingStats, PageLocation, PageType,
    SizeStatistics,
};
use crate::statistics::{compare_in, Scalar, StatKind};

/// One data page, as the indexes and the chunk's statistics see it.
pub(crate) struct PageEntry<'a> {
    /// Bytes of the chunk's data pages before this one.
    pub offset: usize,
    /// The page's bytes, header included.
    pub size: usize,
    /// Rows of the chunk before this page.
    pub first_row: i64,
    pub page_type: PageType,
    pub encoding: Encoding,
    pub null_count: i64,
    /// The page's NaNs, for floating-point columns.
    pub nan_count: Option<i64>,
    /// Whether every value of the page is null.
    pub null_page: bool,
    /// The page's bounds, PLAIN-encoded (truncated as the options say), if it has any.
    pub bounds: Option<(Vec<u8>, Vec<u8>)>,
    pub def_histogram: &'a [i64],
    pub rep_histogram: &'a [i64],
    /// Bytes of the page's BYTE_ARRAY values, unencoded.
    pub byte_array_bytes: i64,
}

/// Collects the page index entries and the size and encoding statistics of one chunk.
#[derive(Debug)]
pub(crate) struct PageIndexBuilder {
    kind: StatKind,
    /// `IEEE_754_TOTAL_ORDER`: bounds compared by totalOrder, NaN bounds are valid.
    total_order: bool,
    max_def_level: u16,
    max_rep_level: u16,
    byte_array: bool,
    locations: Vec<PageLocation>,
    null_pages: Vec<bool>,
    min_values: Vec<Vec<u8>>,
    max_values: Vec<Vec<u8>>,
    null_counts: Vec<i64>,
    /// `None` once a page has no NaN count (not a floating-point column).
    nan_counts: Option<Vec<i64>>,
    def_histograms: Vec<i64>,
    rep_histograms: Vec<i64>,
    /// False once a page that is not all nulls has no bounds (only NaNs): no column index.
    bounds_valid: bool,
    page_byte_array_bytes: Vec<i64>,
    encodings: Vec<Encoding>,
    encoding_stats: Vec<PageEncodingStats>,
    byte_array_bytes: i64,
    def_histogram: Vec<i64>,
    rep_histogram: Vec<i64>,
}

/// What a finished chunk's pages add up to.
pub(crate) struct ChunkIndexes {
    /// The data pages' encodings (RLE first when there are levels), without the dictionary
    /// page's.
    pub encodings: Vec<Encoding>,
    pub encoding_stats: Vec<PageEncodingStats>,
    pub size_statistics: SizeStatistics,
    /// Page locations relative to the chunk's first data page.
    pub offset_index: OffsetIndex,
    /// `None` when a page has no valid bounds or the column has no sort order.
    pub column_index: Option<ColumnIndex>,
}

/// A histogram of levels 0..=max: none for a maximum level of 0.
pub(crate) fn empty_histogram(max: u16) -> Vec<i64> {
    alloc::vec![0i64; if max > 0 { max as usize + 1 } else { 0 }]
}

impl PageIndexBuilder {
    pub fn new(
        kind: StatKind,
        max_def_level: u16,
        max_rep_level: u16,
        byte_array: bool,
        total_order: bool,
    ) -> Self {
        PageIndexBuilder {
            kind,
            total_order,
            max_def_level,
            max_rep_level,
            byte_array,
            locations: Vec::new(),
            null_pages: Vec::new(),
            min_values: Vec::new(),
            max_values: Vec::new(),
            null_counts: Vec::new(),
            nan_counts: Some(Vec::new()),
            def_histograms: Vec::new(),
            rep_histograms: Vec::new(),
            bounds_valid: true,
            page_byte_array_bytes: Vec::new(),
            encodings: Vec::new(),
            encoding_stats: Vec::new(),
            byte_array_bytes: 0,
            def_histogram: empty_histogram(max_def_level),
            rep_histogram: empty_histogram(max_rep_level),
        }
    }

    /// Data pages added so far.
    pub fn num_pages(&self) -> usize {
        self.locations.len()
    }

    /// Adds a data page.
    pub fn add(&mut self, page: PageEntry<'_>) {
        self.locations.push(PageLocation {
            offset: page.offset as i64,
            compressed_page_size: page.size as i32,
            first_row_index: page.first_row,
        });
        if self.max_def_level > 0 || self.max_rep_level > 0 {
            push_unique(&mut self.encodings, Encoding::Rle);
        }
        push_unique(&mut self.encodings, page.encoding);
        match self
            .encoding_stats
            .iter_mut()
            .find(|e| e.page_type == page.page_type && e.encoding == page.encoding)
        {
            Some(e) => e.count += 1,
            None => self.encoding_stats.push(PageEncodingStats {
                page_type: page.page_type,
                encoding: page.encoding,
                count: 1,
            }),
        }
        self.null_pages.push(page.null_page);
        self.null_counts.push(page.null_count);
        match (&mut self.nan_counts, page.nan_count) {
            (Some(v), Some(n)) => v.push(n),
            (counts, _) => *counts = None,
        }
        let (lo, hi) = page.bounds.unwrap_or_else(|| {
            // Spec: a null page has empty min/max; a page of only NaNs has no valid bounds,
            // so the chunk gets no column index.
            if !page.null_page {
                self.bounds_valid = false;
            }
            (Vec::new(), Vec::new())
        });
        self.min_values.push(lo);
        self.max_values.push(hi);
        self.def_histograms.extend_from_slice(page.def_histogram);
        self.rep_histograms.extend_from_slice(page.rep_histogram);
        for (a, b) in self.def_histogram.iter_mut().zip(page.def_histogram) {
            *a += b;
        }
        for (a, b) in self.rep_histogram.iter_mut().zip(page.rep_histogram) {
            *a += b;
        }
        self.page_byte_array_bytes.push(page.byte_array_bytes);
        self.byte_array_bytes += page.byte_array_bytes;
    }

    /// The chunk's indexes and statistics; `column_index` asks for the column index (the
    /// options want one, with statistics, and the column has a sort order).
    pub fn finish(self, column_index: bool) -> ChunkIndexes {
        let (max_def, max_rep) = (self.max_def_level, self.max_rep_level);
        let column_index = (column_index && self.bounds_valid).then(|| ColumnIndex {
            boundary_order: boundary_order(
                self.kind,
                self.total_order,
                &self.null_pages,
                &self.min_values,
                &self.max_values,
            ),
            null_pages: self.null_pages,
            min_values: self.min_values,
            max_values: self.max_values,
            null_counts: Some(self.null_counts),
            repetition_level_histograms: (max_rep > 0).then_some(self.rep_histograms),
            definition_level_histograms: (max_def > 0).then_some(self.def_histograms),
            // Spec (ColumnIndex.nan_counts): "Only present for columns of physical type
            // FLOAT or DOUBLE, or logical type FLOAT16".
            nan_counts: self.nan_counts.filter(|_| self.kind.is_floating()),
        });
        ChunkIndexes {
            encodings: self.encodings,
            encoding_stats: self.encoding_stats,
            size_statistics: SizeStatistics {
                unencoded_byte_array_data_bytes: self.byte_array.then_some(self.byte_array_bytes),
                repetition_level_histogram: (max_rep > 0).then_some(self.rep_histogram),
                definition_level_histogram: (max_def > 0).then_some(self.def_histogram),
            },
            offset_index: OffsetIndex {
                page_locations: self.locations,
                unencoded_byte_array_data_bytes: self
                    .byte_array
                    .then_some(self.page_byte_array_bytes),
            },
            column_index,
        }
    }
}

pub(crate) fn push_unique(v: &mut Vec<Encoding>, e: Encoding) {
    if !v.contains(&e) {
        v.push(e);
    }
}

/// Spec (PageIndex.md): ASCENDING when the pages' min and max values both never decrease
/// (null pages skipped), DESCENDING when they never increase, else UNORDERED.
fn boundary_order(
    kind: StatKind,
    total: bool,
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
        let lo = compare_in(kind, total, &w[0].0, &w[1].0);
        let hi = compare_in(kind, total, &w[0].1, &w[1].1);
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

    fn entry<'a>(null_count: i64, def: &'a [i64], bounds: Option<(i32, i32)>) -> PageEntry<'a> {
        PageEntry {
            offset: 0,
            size: 10,
            first_row: 0,
            page_type: PageType::DataPage,
            encoding: Encoding::Plain,
            null_count,
            nan_count: None,
            null_page: bounds.is_none() && null_count > 0,
            bounds: bounds.map(|(a, b)| (a.to_le_bytes().to_vec(), b.to_le_bytes().to_vec())),
            def_histogram: def,
            rep_histogram: &[],
            byte_array_bytes: 0,
        }
    }

    /// The module doc's example: histograms per page end to end, and their sum.
    #[test]
    fn histograms_of_two_pages() {
        let mut b = PageIndexBuilder::new(StatKind::Int32, 1, 0, false, false);
        b.add(entry(1, &[1, 3], Some((1, 5))));
        b.add(entry(2, &[2, 0], None));
        let done = b.finish(true);
        let ci = done.column_index.unwrap();
        assert_eq!(
            ci.definition_level_histograms,
            Some(alloc::vec![1, 3, 2, 0])
        );
        assert_eq!(ci.null_pages, [false, true]);
        assert_eq!(ci.null_counts, Some(alloc::vec![1, 2]));
        assert_eq!(ci.boundary_order, BoundaryOrder::Ascending);
        assert_eq!(
            done.size_statistics.definition_level_histogram,
            Some(alloc::vec![3, 3])
        );
        assert_eq!(done.encodings, [Encoding::Rle, Encoding::Plain]);
        assert_eq!(done.encoding_stats[0].count, 2);
    }

    #[test]
    fn a_page_without_bounds_drops_the_column_index() {
        let mut b = PageIndexBuilder::new(StatKind::Double, 0, 0, false, false);
        b.add(entry(0, &[], None));
        assert!(b.finish(true).column_index.is_none());
    }

    #[test]
    fn boundary_orders() {
        let mut b = PageIndexBuilder::new(StatKind::Int32, 0, 0, false, false);
        b.add(entry(0, &[], Some((5, 9))));
        b.add(entry(0, &[], Some((1, 4))));
        let ci = b.finish(true).column_index.unwrap();
        assert_eq!(ci.boundary_order, BoundaryOrder::Descending);
    }
}
