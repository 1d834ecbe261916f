//! `parket check`'s page-index half: a chunk's `OffsetIndex` and `ColumnIndex` against the
//! pages as walked and decoded (PageIndex.md).
//!
//! - `OffsetIndex`: one `PageLocation` per data page, with the page's offset, its size (header
//!   included) and its first row; `unencoded_byte_array_data_bytes` per page (Arrow C++'s
//!   DELTA_BYTE_ARRAY miscount a note, as for the chunk's `SizeStatistics`);
//! - `ColumnIndex`: per data page `null_pages`, `null_counts`, min/max (exact for fixed-width
//!   kinds, bounds for byte arrays, which may be truncated), the level histograms, and that
//!   `boundary_order` holds.
//!
//! For example, a column `a` of INT32 whose page 3's least value is 300, under a `ColumnIndex`
//! min patched from 300 (`2c 01 00 00`) to 299 (`2b 01 00 00`), prints (an exact kind: the min
//! must be the data's; `tests/cli_check.rs` patches a file so and expects the line)
//!
//! ```text
//! BAD a: row group 0: page 3: ColumnIndex min is 299 but the data's is 300
//! ```

use std::cmp::Ordering;

use parket::encryption::ModuleType;
use parket::format::{BoundaryOrder, ColumnIndex, ColumnOrder, Encoding, OffsetIndex, PageType};
use parket::statistics::{self, compare, Scalar, StatKind};

use super::{
    delta_suffix_miscount, is_nan, ChunkCheck, PageData, WalkedPage, DELTA_SUFFIX_MISCOUNT,
};

impl ChunkCheck<'_, '_> {
    pub(super) fn check_offset_index(
        &mut self,
        off: i64,
        len: i32,
        walked: &[WalkedPage],
        pages: &[PageData],
    ) {
        let bytes = match self.index_bytes(ModuleType::OffsetIndex, off, len) {
            Ok(b) => b,
            Err(e) => return self.bad(format!("OffsetIndex: {e}")),
        };
        let oi = match OffsetIndex::decode(&bytes) {
            Ok((oi, _)) => oi,
            Err(e) => return self.bad(format!("OffsetIndex does not decode: {e}")),
        };
        let data: Vec<&WalkedPage> = walked
            .iter()
            .filter(|w| matches!(w.type_, PageType::DataPage | PageType::DataPageV2))
            .collect();
        if oi.page_locations.len() != data.len() {
            return self.bad(format!(
                "OffsetIndex has {} page locations for {} data pages",
                oi.page_locations.len(),
                data.len()
            ));
        }
        // Rows before each data page (empty pages hold no rows and were not decoded).
        let mut first_rows = Vec::with_capacity(data.len());
        let (mut row, mut k) = (0u64, 0usize);
        for w in &data {
            first_rows.push(row);
            if w.num_values > 0 {
                row += pages.get(k).map_or(0, |p| p.rows);
                k += 1;
            }
        }
        for (n, (loc, w)) in oi.page_locations.iter().zip(&data).enumerate() {
            if loc.offset as u64 != w.offset || loc.compressed_page_size as u64 != w.size {
                self.bad(format!(
                    "OffsetIndex page {n}: offset {} size {}, but the page is at {} with {} bytes",
                    loc.offset, loc.compressed_page_size, w.offset, w.size
                ));
            }
            if loc.first_row_index as u64 != first_rows[n] {
                self.bad(format!(
                    "OffsetIndex page {n}: first_row_index {} but the page starts at row {}",
                    loc.first_row_index, first_rows[n]
                ));
            }
        }
        if let Some(u) = &oi.unencoded_byte_array_data_bytes {
            let ours = page_values(&data, pages, |p| p.unencoded_bytes as i64);
            let suffixes = page_values(&data, pages, |p| p.suffix_bytes as i64);
            let miscounted = u.len() == ours.len()
                && u.iter()
                    .zip(&ours)
                    .zip(&suffixes)
                    .zip(&data)
                    .all(|(((u, o), s), w)| {
                        u == o
                            || (w.encoding == Some(Encoding::DeltaByteArray)
                                && delta_suffix_miscount(*u, *o as u64, *s as u64))
                    });
            if *u != ours && miscounted {
                self.note(format!(
                    "OffsetIndex.unencoded_byte_array_data_bytes is {u:?} (the pages hold \
                     {ours:?}): {DELTA_SUFFIX_MISCOUNT}"
                ));
            } else if *u != ours {
                self.bad(format!(
                    "OffsetIndex.unencoded_byte_array_data_bytes is {u:?} but the pages hold {ours:?}"
                ));
            }
        }
    }

    pub(super) fn check_column_index(&mut self, off: i64, len: i32, pages: &[PageData]) {
        let bytes = match self.index_bytes(ModuleType::ColumnIndex, off, len) {
            Ok(b) => b,
            Err(e) => return self.bad(format!("ColumnIndex: {e}")),
        };
        let ci: ColumnIndex = match ColumnIndex::decode(&bytes) {
            Ok((ci, _)) => ci,
            Err(e) => return self.bad(format!("ColumnIndex does not decode: {e}")),
        };
        let n = pages.len();
        if ci.null_pages.len() != n || ci.min_values.len() != n || ci.max_values.len() != n {
            return self.bad(format!(
                "ColumnIndex has {} null_pages, {} min_values, {} max_values for {n} pages",
                ci.null_pages.len(),
                ci.min_values.len(),
                ci.max_values.len()
            ));
        }
        let order_known = statistics::orders_min_max(self.kind, self.order)
            && self.order != Some(&ColumnOrder::Ieee754TotalOrder);
        // Byte arrays in the page index may be truncated (PageIndex.md): only bounds then.
        let exact = !matches!(self.kind, StatKind::Bytes | StatKind::Decimal);
        let mut bounds: Vec<(usize, Scalar, Scalar)> = Vec::new();
        for (k, p) in pages.iter().enumerate() {
            let null_page = p.levels == p.nulls;
            if ci.null_pages[k] != null_page {
                self.bad(format!(
                    "ColumnIndex.null_pages[{k}] is {} but the page {} non-null values",
                    ci.null_pages[k],
                    if null_page { "has no" } else { "has" }
                ));
            }
            if let Some(nc) = ci.null_counts.as_ref().and_then(|v| v.get(k)) {
                if !self.null_count_ok(*nc, std::iter::once(&p.def_hist)) {
                    self.bad(format!(
                        "ColumnIndex.null_counts[{k}] is {nc} but the page has {} nulls",
                        p.nulls
                    ));
                }
            }
            if ci.null_pages[k] || !order_known {
                continue;
            }
            let lo = Scalar::from_plain(self.kind, &ci.min_values[k]);
            let hi = Scalar::from_plain(self.kind, &ci.max_values[k]);
            let (Some(lo), Some(hi)) = (lo, hi) else {
                self.bad(format!("ColumnIndex min/max of page {k} do not decode"));
                continue;
            };
            // A NaN bound (only NaNs in the page, or an old writer) is ignored.
            if is_nan(self.kind, &lo) || is_nan(self.kind, &hi) {
                continue;
            }
            let before = self.problems.len();
            self.check_bound("ColumnIndex min", Some(&lo), p.stats.min(), exact, true);
            self.check_bound("ColumnIndex max", Some(&hi), p.stats.max(), exact, false);
            for q in &mut self.problems[before..] {
                *q = format!("page {k}: {q}");
            }
            bounds.push((k, lo, hi));
        }
        let hist = |h: &Option<Vec<i64>>, f: fn(&PageData) -> &Vec<i64>| {
            h.as_ref().filter(|h| !h.is_empty()).map(|h| {
                (
                    h.clone(),
                    pages
                        .iter()
                        .flat_map(|p| f(p).clone())
                        .collect::<Vec<i64>>(),
                )
            })
        };
        if let Some((h, ours)) = hist(&ci.definition_level_histograms, |p| &p.def_hist) {
            if h != ours {
                self.bad(format!(
                    "ColumnIndex.definition_level_histograms is {h:?} but the pages have {ours:?}"
                ));
            }
        }
        if let Some((h, ours)) = hist(&ci.repetition_level_histograms, |p| &p.rep_hist) {
            if h != ours {
                self.bad(format!(
                    "ColumnIndex.repetition_level_histograms is {h:?} but the pages have {ours:?}"
                ));
            }
        }
        let want = match ci.boundary_order {
            BoundaryOrder::Ascending => Ordering::Less,
            BoundaryOrder::Descending => Ordering::Greater,
            _ => return,
        };
        for w in bounds.windows(2) {
            let (a, b) = (&w[0], &w[1]);
            let bad = compare(self.kind, &a.1, &b.1) == want.reverse()
                || compare(self.kind, &a.2, &b.2) == want.reverse();
            if bad {
                self.bad(format!(
                    "ColumnIndex.boundary_order is {} but pages {} and {} are not in that order",
                    ci.boundary_order, a.0, b.0
                ));
                break;
            }
        }
    }
}

/// `f` of each data page, with 0 for the pages without values (not decoded).
fn page_values(data: &[&WalkedPage], pages: &[PageData], f: fn(&PageData) -> i64) -> Vec<i64> {
    let mut k = 0;
    data.iter()
        .map(|w| {
            if w.num_values > 0 {
                k += 1;
                pages.get(k - 1).map_or(0, f)
            } else {
                0
            }
        })
        .collect()
}
