//! Pruning: which row groups and rows *may* hold a matching row, from metadata alone.
//!
//! Every stage over-approximates. For each leaf test it computes the set of outcomes the
//! test *may* have on some row of the unit (a row group, a page's rows): `T` (true), `F`
//! (false), `U` (unknown: a null value). The sets combine through the tree as the SQL
//! truth tables do, pairwise (`AND` of `{T, U}` and `{F}` is `{F}`), `NOT` swaps `T` and
//! `F`, and a unit is pruned only when `T` is not in the root's set. So `NOT` needs no
//! special care: `NOT x = 5` on a chunk whose bounds are `5..=5` with no nulls and no NaN has
//! leaf outcomes `{T}`, root `{F}`: pruned; with an unknown null count `{T, U}` -> `{F, U}`:
//! still pruned; on a float column with unknown `nan_count`, `x = 5` may be `F` (a NaN) and
//! the chunk is kept.
//!
//! A leaf's outcomes from what is known of its column (`lo..=hi` bounds every non-null,
//! non-NaN value, exact or truncated alike):
//!
//! ```text
//! x = v    T if lo <= v <= hi      F if not lo = hi = v, or a NaN may be there
//! x != v   T if not lo = hi = v, or NaN     F if lo <= v <= hi
//! x < v    T if lo < v             F if hi >= v, or NaN      (<=, >, >= alike)
//! x IN (.) T if some v in lo..=hi  F if not lo = hi = some v, or NaN
//! U        if a null may be there;  IS NULL: T if a null may be there, F if a value may
//! ```
//!
//! A float column whose every non-null value is NaN has only the NaN outcomes (`F`, `T` for
//! `!=`). The statistics say so (parquet.thrift, `ColumnOrder`) under `IEEE_754_TOTAL_ORDER`
//! by a NaN min or max (chunk or page), and under any order by `nan_count + null_count =
//! num_values` (a page: its row count). Other NaN bounds are ignored. INT96 needs nothing
//! here: predicates cannot compare it, and `IS NULL` uses counts only.
//!
//! ```
//! use parket::predicate::Predicate;
//! use parket::schema::Schema;
//! use parket::format::{ColumnChunk, ColumnMetaData, ColumnOrder, RowGroup, Statistics};
//! let schema = Schema::parse("message m { optional int64 id; }")?;
//! let stats = Statistics {
//!     null_count: Some(0),
//!     min_value: Some(10i64.to_le_bytes().to_vec()),
//!     max_value: Some(20i64.to_le_bytes().to_vec()),
//!     ..Default::default()
//! };
//! # let rg = parket::predicate::testing_row_group(&[(stats, 100)]);
//! let orders = [ColumnOrder::TypeOrder];
//! let may = |t: &str| Predicate::parse(t, &schema).unwrap().row_group_may_match(&rg, Some(&orders));
//! assert!(may("id = 15"));
//! assert!(!may("id = 21"));
//! assert!(!may("id < 10"));
//! assert!(!may("id IS NULL"));
//! assert!(!may("NOT (id >= 10)"));
//! assert!(may("id != 15"));
//! // Without column_orders, min_value / max_value mean nothing (parquet.thrift): kept.
//! assert!(Predicate::parse("id = 21", &schema)?.row_group_may_match(&rg, None));
//! # Ok::<(), parket::Error>(())
//! ```

use alloc::vec::Vec;
use core::cmp::Ordering;

use super::bind::{order, Kind, Node, Predicate, Slot, Test};
use super::eval::{value_truth, ColumnBatch};
use super::expr::CompareOp;
use super::row_ranges::RowRanges;
use crate::format::{ColumnIndex, ColumnOrder, OffsetIndex, RowGroup, Statistics};
use crate::statistics::{decode, Scalar};
use crate::values::ValuesRef;

/// A set of possible outcomes: bit 0 true, bit 1 false, bit 2 unknown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Outcomes(u8);

const T: u8 = 1;
const F: u8 = 2;
const U: u8 = 4;

impl Outcomes {
    const ALL: Outcomes = Outcomes(T | F | U);

    fn has(self, o: u8) -> bool {
        self.0 & o != 0
    }

    /// Every outcome of `op(x, y)` for `x` in `self`, `y` in `other`.
    fn combine(self, other: Outcomes, op: fn(u8, u8) -> u8) -> Outcomes {
        let mut out = 0;
        for x in [T, F, U] {
            for y in [T, F, U] {
                if self.has(x) && other.has(y) {
                    out |= op(x, y);
                }
            }
        }
        Outcomes(out)
    }

    fn and(self, other: Outcomes) -> Outcomes {
        self.combine(other, |x, y| {
            if x == F || y == F {
                F
            } else if x == U || y == U {
                U
            } else {
                T
            }
        })
    }

    fn or(self, other: Outcomes) -> Outcomes {
        self.combine(other, |x, y| {
            if x == T || y == T {
                T
            } else if x == U || y == U {
                U
            } else {
                F
            }
        })
    }

    fn not(self) -> Outcomes {
        Outcomes((self.0 & U) | ((self.0 & T) << 1) | ((self.0 & F) >> 1))
    }
}

/// What is known of one column over a set of rows.
#[derive(Debug, Clone)]
pub(crate) struct Facts {
    /// Every non-null, non-NaN value lies in `lo..=hi` (in the column's order).
    pub bounds: Option<(Scalar, Scalar)>,
    pub may_null: bool,
    pub may_value: bool,
    pub may_nan: bool,
    /// A non-null value other than NaN may be there (false when every non-null value is NaN,
    /// which the statistics can say: see [`all_nan`]).
    pub may_non_nan: bool,
}

impl Facts {
    fn unknown(slot: &Slot) -> Facts {
        Facts {
            bounds: None,
            may_null: slot.max_def > 0,
            may_value: true,
            may_nan: is_float(slot.kind),
            may_non_nan: true,
        }
    }
}

/// Whether the statistics of a float column say that every non-null value is NaN
/// (parquet.thrift, `ColumnOrder`): under `IEEE_754_TOTAL_ORDER` when the min or max is a NaN
/// ("the presence of a NaN value in min_values or max_values indicates that all non-null
/// values are NaN"), under any order when `nan_count + null_count == num_values`
/// (`values`: the unit's value count, nulls included). A `nan_count` of 0 beside a NaN bound
/// contradicts it: then nothing is concluded.
fn all_nan(
    slot: &Slot,
    order: Option<&ColumnOrder>,
    bounds: Option<(&[u8], &[u8])>,
    nans: Option<u64>,
    nulls: Option<u64>,
    values: Option<u64>,
) -> bool {
    if !is_float(slot.kind) || nans == Some(0) {
        return false;
    }
    let is_nan = |b: &[u8]| match Scalar::from_plain(slot.stat_kind, b) {
        Some(Scalar::Float(x)) => x.is_nan(),
        Some(Scalar::Double(x)) => x.is_nan(),
        // FLOAT16: exponent all ones, mantissa not zero.
        Some(Scalar::Bytes(h)) => match h[..] {
            [a, b] => {
                let bits = u16::from_le_bytes([a, b]);
                bits & 0x7c00 == 0x7c00 && bits & 0x03ff != 0
            }
            _ => false,
        },
        _ => false,
    };
    let nan_bound = matches!(order, Some(ColumnOrder::Ieee754TotalOrder))
        && bounds.is_some_and(|(lo, hi)| is_nan(lo) || is_nan(hi));
    let counted =
        matches!((nans, nulls, values), (Some(a), Some(b), Some(n)) if a.checked_add(b) == Some(n));
    nan_bound || counted
}

fn is_float(k: Kind) -> bool {
    matches!(k, Kind::F32 | Kind::F64 | Kind::F16)
}

/// The outcomes of `test` on a column with these facts.
pub(crate) fn leaf_outcomes(slot: &Slot, test: &Test, facts: &Facts) -> Outcomes {
    let mut out = 0;
    if let Test::IsNull = test {
        if facts.may_null {
            out |= T;
        }
        if facts.may_value {
            out |= F;
        }
        return Outcomes(out);
    }
    if facts.may_null {
        out |= U;
    }
    if facts.may_value {
        out |= value_outcomes(slot.kind, test, facts);
    }
    Outcomes(out)
}

fn value_outcomes(kind: Kind, test: &Test, facts: &Facts) -> u8 {
    let nan = if !facts.may_nan {
        0
    } else if matches!(test, Test::Cmp(CompareOp::Ne, _)) {
        T
    } else {
        F
    };
    if !facts.may_non_nan {
        return nan;
    }
    let Some((lo, hi)) = &facts.bounds else {
        return T | F;
    };
    // Where v sits against the bounds: lo <= v and v <= hi; lo = hi = v.
    let place = |v: &Scalar| -> Option<(Ordering, Ordering)> {
        Some((order(kind, lo, v)?, order(kind, hi, v)?))
    };
    let within = |(l, h): (Ordering, Ordering)| l != Ordering::Greater && h != Ordering::Less;
    let only = |(l, h): (Ordering, Ordering)| l == Ordering::Equal && h == Ordering::Equal;
    let out = match test {
        Test::Cmp(op, v) => match place(v) {
            // A NaN literal: only != holds, for every value.
            None if *op == CompareOp::Ne => T,
            None => F,
            Some(p @ (l, h)) => {
                use Ordering::*;
                let (t, f) = match op {
                    CompareOp::Eq => (within(p), !only(p)),
                    CompareOp::Ne => (!only(p), within(p)),
                    CompareOp::Lt => (l == Less, h != Less),
                    CompareOp::Le => (l != Greater, h == Greater),
                    CompareOp::Gt => (h == Greater, l != Greater),
                    CompareOp::Ge => (h != Less, l == Less),
                };
                (if t { T } else { 0 }) | (if f { F } else { 0 })
            }
        },
        Test::In(list) => {
            let places: Vec<_> = list.iter().filter_map(place).collect();
            let t = places.iter().any(|&p| within(p));
            let f = !places.iter().any(|&p| only(p));
            (if t { T } else { 0 }) | (if f { F } else { 0 })
        }
        Test::IsNull => F,
    };
    out | nan
}

/// The trusted bounds of `stats` for `slot`: none without `column_orders` except the
/// deprecated signed `min` / `max` where they are valid, and none when min is above max.
fn bounds(
    slot: &Slot,
    stats: &Statistics,
    order: Option<&ColumnOrder>,
    has_orders: bool,
) -> (
    Option<(Scalar, Scalar)>,
    crate::statistics::DecodedStatistics,
) {
    let d = if has_orders {
        decode(stats, slot.stat_kind, order)
    } else {
        // parquet.thrift, FileMetaData.column_orders: "Without column_orders, the meaning
        // of the min_value and max_value fields ... is undefined."
        let legacy = Statistics {
            min_value: None,
            max_value: None,
            ..stats.clone()
        };
        decode(&legacy, slot.stat_kind, None)
    };
    let b = match (&d.min, &d.max) {
        // Bounds with min above max (a lying writer, or a hostile file) bound nothing: using
        // them would rule out every value.
        (Some(lo), Some(hi))
            if super::bind::order(slot.kind, lo, hi) != Some(Ordering::Greater) =>
        {
            Some((lo.clone(), hi.clone()))
        }
        _ => None,
    };
    (b, d)
}

impl Predicate {
    /// The outcome set of the whole tree, given each leaf's.
    fn tree(&self, node: &Node, leaf: &mut dyn FnMut(usize) -> Outcomes) -> Outcomes {
        match node {
            Node::Leaf(i) => leaf(*i),
            Node::Not(a) => self.tree(a, leaf).not(),
            Node::And(a, b) => self.tree(a, leaf).and(self.tree(b, leaf)),
            Node::Or(a, b) => self.tree(a, leaf).or(self.tree(b, leaf)),
        }
    }

    fn may_match(&self, facts: &[Facts]) -> bool {
        self.outcomes(facts).has(T)
    }

    /// The root's outcome set, given each column's facts.
    fn outcomes(&self, facts: &[Facts]) -> Outcomes {
        self.tree(&self.root, &mut |i| {
            let l = &self.leaves[i];
            match facts.get(l.slot) {
                Some(f) => leaf_outcomes(&self.slots[l.slot], &l.test, f),
                None => Outcomes::ALL,
            }
        })
    }

    fn chunk_facts(
        &self,
        slot: &Slot,
        row_group: &RowGroup,
        column_orders: Option<&[ColumnOrder]>,
    ) -> Facts {
        let mut f = Facts::unknown(slot);
        let Some(meta) = row_group
            .columns
            .get(slot.column)
            .and_then(|c| c.meta_data.as_ref())
        else {
            return f;
        };
        let Some(stats) = &meta.statistics else {
            return f;
        };
        let order = column_orders.and_then(|o| o.get(slot.column));
        let (b, d) = bounds(slot, stats, order, column_orders.is_some());
        f.bounds = b;
        if let Some(n) = d.null_count {
            f.may_null = n > 0;
            // Non-repeated leaf: num_values counts every row, nulls included.
            if u64::try_from(meta.num_values).ok() == Some(n) {
                f.may_value = false;
            }
        }
        if is_float(slot.kind) {
            f.may_nan = d.nan_count.is_none_or(|n| n > 0);
            let raw = stats.min_value.as_deref().zip(stats.max_value.as_deref());
            let values = u64::try_from(meta.num_values).ok();
            if all_nan(slot, order, raw, d.nan_count, d.null_count, values) {
                f.may_non_nan = false;
                f.may_nan = true;
            }
        }
        f
    }

    /// Stage 1, row group statistics: `false` when no row of `row_group` can match, from the
    /// column chunks' `Statistics` (min / max in the column order, null and NaN counts).
    /// `column_orders` is `FileMetaData.column_orders`. Missing statistics, an unknown column
    /// order, INT96 or undefined orders, NaN bounds: that column tells nothing.
    pub fn row_group_may_match(
        &self,
        row_group: &RowGroup,
        column_orders: Option<&[ColumnOrder]>,
    ) -> bool {
        self.may_match(&self.row_group_facts(row_group, column_orders))
    }

    /// Each predicate column's facts from its chunk's statistics.
    fn row_group_facts(
        &self,
        row_group: &RowGroup,
        column_orders: Option<&[ColumnOrder]>,
    ) -> Vec<Facts> {
        self.slots
            .iter()
            .map(|s| self.chunk_facts(s, row_group, column_orders))
            .collect()
    }

    /// Stage 2, dictionaries: `false` when no row can match, given the decoded dictionary of
    /// each column whose chunk is dictionary-encoded in *every* data page (the caller checks
    /// `encoding_stats`; `None` for the other columns). `dictionaries` is aligned with
    /// [`Predicate::columns`].
    ///
    /// ```
    /// use parket::predicate::Predicate;
    /// use parket::schema::Schema;
    /// use parket::values::{ByteArrays, ValuesRef};
    /// let schema = Schema::parse("message m { optional binary s (STRING); }")?;
    /// let dict: ByteArrays = ["apple", "pear"].into_iter().collect();
    /// let may = |t: &str| Predicate::parse(t, &schema).unwrap()
    ///     .dictionaries_may_match(&[Some(ValuesRef::ByteArray(dict.as_ref()))]);
    /// assert!(may("s = 'pear'"));
    /// assert!(!may("s IN ('fig', 'kiwi')"));
    /// assert!(!may("s > 'pear'"));
    /// assert!(!may("NOT s IN ('apple', 'pear')")); // every value is in it: false or unknown
    /// # Ok::<(), parket::Error>(())
    /// ```
    pub fn dictionaries_may_match(&self, dictionaries: &[Option<ValuesRef<'_>>]) -> bool {
        let mut scratch = Vec::new();
        self.tree(&self.root, &mut |i| {
            let l = &self.leaves[i];
            let slot = &self.slots[l.slot];
            let Some(Some(dict)) = dictionaries.get(l.slot) else {
                return Outcomes::ALL;
            };
            let null = if slot.max_def > 0 { U } else { 0 };
            if l.test == Test::IsNull {
                let value = if dict.is_empty() { 0 } else { F };
                return Outcomes(if null != 0 { T } else { 0 } | value);
            }
            if value_truth(slot, *dict, &l.test, &mut scratch).is_err() {
                return Outcomes::ALL;
            }
            let t = if scratch.iter().any(|&x| x) { T } else { 0 };
            let f = if scratch.iter().any(|&x| !x) { F } else { 0 };
            Outcomes(t | f | null)
        })
        .has(T)
    }

    /// Stage 3, Bloom filters: `false` when no row can match. For each `=` and `IN` literal
    /// the function calls `probe(column, plain_bytes)` (the column's index in the schema and
    /// the literal's PLAIN encoding without length prefix, what BloomFilter.md hashes with
    /// XXH64); `probe` answers whether the column chunk's filter may hold it (`true` when the
    /// chunk has no filter). A float zero probes both `0.0` and `-0.0`; a DECIMAL on
    /// BYTE_ARRAY and BOOLEAN columns are never probed (their bytes are not unique).
    ///
    /// ```
    /// use parket::bloom::{hash_bytes, Sbbf};
    /// use parket::predicate::Predicate;
    /// use parket::schema::Schema;
    /// let schema = Schema::parse("message m { required int64 id; }")?;
    /// let mut filter = Sbbf::new(64);
    /// filter.insert_hash(hash_bytes(&7i64.to_le_bytes()));
    /// let probe = |_column: usize, bytes: &[u8]| filter.check_hash(hash_bytes(bytes));
    /// assert!(Predicate::parse("id = 7", &schema)?.bloom_may_match(probe));
    /// assert!(!Predicate::parse("id IN (8, 9)", &schema)?.bloom_may_match(probe));
    /// assert!(Predicate::parse("id != 8", &schema)?.bloom_may_match(probe));
    /// # Ok::<(), parket::Error>(())
    /// ```
    pub fn bloom_may_match(&self, mut probe: impl FnMut(usize, &[u8]) -> bool) -> bool {
        self.tree(&self.root, &mut |i| {
            let l = &self.leaves[i];
            let slot = &self.slots[l.slot];
            let values: &[Scalar] = match &l.test {
                Test::Cmp(CompareOp::Eq, v) => core::slice::from_ref(v),
                Test::In(list) => list,
                _ => return Outcomes::ALL,
            };
            let unique = !(slot.kind == Kind::Bool
                || (slot.kind == Kind::Decimal
                    && slot.physical == crate::format::PhysicalType::ByteArray));
            if !unique {
                return Outcomes::ALL;
            }
            let mut any = false;
            for v in values {
                for bytes in bloom_forms(slot.kind, v) {
                    any |= probe(slot.column, &bytes);
                }
            }
            if any {
                Outcomes::ALL
            } else {
                Outcomes(F | U)
            }
        })
        .has(T)
    }

    /// Stage 4, the page index: the rows of the row group (`0..row_group.num_rows`) that may
    /// match, from each column's `ColumnIndex` and `OffsetIndex` (`indexes` aligned with
    /// [`Predicate::columns`]; `None` where a column has no index). Ranges of different
    /// columns are intersected and united as the tree says; rows outside the result hold no
    /// match, so pages that overlap none of it need not be read.
    ///
    /// An index that does not hold together (lengths that differ from the page count,
    /// `first_row_index` not starting at 0 or not increasing or past the row count, page
    /// offsets not increasing, a null page with bounds or with a null count of 0) prunes
    /// nothing for its column.
    ///
    /// ```
    /// use parket::format::{BoundaryOrder, ColumnIndex, ColumnOrder, OffsetIndex, PageLocation};
    /// use parket::predicate::{Predicate, RowRanges};
    /// use parket::schema::Schema;
    /// let schema = Schema::parse("message m { required int32 id; }")?;
    /// # let rg = parket::predicate::testing_row_group(&[(Default::default(), 300)]);
    /// // Three pages of 100 rows: ids 0..=99, 100..=199, 200..=299.
    /// let ci = ColumnIndex {
    ///     null_pages: vec![false; 3],
    ///     min_values: [0i32, 100, 200].iter().map(|v| v.to_le_bytes().to_vec()).collect(),
    ///     max_values: [99i32, 199, 299].iter().map(|v| v.to_le_bytes().to_vec()).collect(),
    ///     boundary_order: BoundaryOrder::Ascending,
    ///     null_counts: Some(vec![0; 3]),
    ///     repetition_level_histograms: None, definition_level_histograms: None, nan_counts: None,
    /// };
    /// let oi = OffsetIndex {
    ///     page_locations: (0..3).map(|i| PageLocation {
    ///         offset: 4 + 1000 * i, compressed_page_size: 1000, first_row_index: 100 * i,
    ///     }).collect(),
    ///     unencoded_byte_array_data_bytes: None,
    /// };
    /// let orders = [ColumnOrder::TypeOrder];
    /// let rows = |t: &str| Predicate::parse(t, &schema).unwrap()
    ///     .page_row_ranges(&rg, Some(&orders), &[Some((&ci, &oi))]);
    /// assert_eq!(rows("id = 150"), RowRanges::from_ranges([100..200]));
    /// assert_eq!(rows("id < 50 OR id >= 250"), RowRanges::from_ranges([0..100, 200..300]));
    /// assert_eq!(rows("NOT id < 100"), RowRanges::from_ranges([100..300]));
    /// # Ok::<(), parket::Error>(())
    /// ```
    pub fn page_row_ranges(
        &self,
        row_group: &RowGroup,
        column_orders: Option<&[ColumnOrder]>,
        indexes: &[Option<(&ColumnIndex, &OffsetIndex)>],
    ) -> RowRanges {
        let [t, _, _] = self.page_outcome_rows(row_group, column_orders, indexes);
        t
    }

    /// Where each outcome may occur, `[true, false, unknown]`, from the page indexes.
    fn page_outcome_rows(
        &self,
        row_group: &RowGroup,
        column_orders: Option<&[ColumnOrder]>,
        indexes: &[Option<(&ColumnIndex, &OffsetIndex)>],
    ) -> [RowRanges; 3] {
        let rows = u64::try_from(row_group.num_rows).unwrap_or(0);
        // Per slot: the pages' row ranges and facts, or None (no usable index).
        let pages: Vec<Option<Vec<PageFacts>>> = self
            .slots
            .iter()
            .enumerate()
            .map(|(i, slot)| {
                let (ci, oi) = (*indexes.get(i)?)?;
                page_facts(slot, ci, oi, rows, column_orders)
            })
            .collect();
        let all = RowRanges::all(rows);
        self.ranges(&self.root, &mut |i| {
            let l = &self.leaves[i];
            let slot = &self.slots[l.slot];
            let Some(Some(pages)) = pages.get(l.slot) else {
                return [all.clone(), all.clone(), all.clone()];
            };
            let mut out: [Vec<core::ops::Range<u64>>; 3] = Default::default();
            for (r, f) in pages {
                let o = leaf_outcomes(slot, &l.test, f);
                for (k, bit) in [T, F, U].into_iter().enumerate() {
                    if o.has(bit) {
                        out[k].push(r.clone());
                    }
                }
            }
            out.map(RowRanges::from_ranges)
        })
    }

    /// [`Predicate::page_row_ranges`], and the rows where the indexes say the predicate
    /// can only be true (in no page where it may be false or unknown): `(may, sure)`. The
    /// sure rows are a hint, not a proof: a scan takes them as a reason to try proving a
    /// batch whole from its own values ([`Predicate::batch_all_true`]), never as a reason to
    /// keep a row.
    pub(crate) fn page_row_sets(
        &self,
        row_group: &RowGroup,
        column_orders: Option<&[ColumnOrder]>,
        indexes: &[Option<(&ColumnIndex, &OffsetIndex)>],
    ) -> (RowRanges, RowRanges) {
        let rows = u64::try_from(row_group.num_rows).unwrap_or(0);
        let [t, f, u] = self.page_outcome_rows(row_group, column_orders, indexes);
        let sure = t.intersect(&f.union(&u).complement(rows));
        (t, sure)
    }

    /// Stage 1's other side: `true` when the chunks' statistics say that every row of
    /// `row_group` satisfies the predicate (a hint, as [`Predicate::page_row_sets`]'s sure
    /// rows are).
    pub(crate) fn row_group_all_match(
        &self,
        row_group: &RowGroup,
        column_orders: Option<&[ColumnOrder]>,
    ) -> bool {
        self.only_true(&self.row_group_facts(row_group, column_orders))
    }

    /// Whether the predicate is true for every row of a batch, from the batch's own values:
    /// the exact bounds, nulls and NaNs of each column in `batches` (aligned with
    /// [`Predicate::columns`]; `None`: nothing known of that column) run through the same
    /// outcome sets as the pruning stages. `true` only when no row can be false or unknown,
    /// so it is exact whatever the file's metadata says: the scan evaluates every row of a
    /// batch this cannot prove.
    pub(crate) fn batch_all_true(&self, batches: &[Option<ColumnBatch<'_>>]) -> bool {
        let facts: Vec<Facts> = self
            .slots
            .iter()
            .enumerate()
            .map(|(i, s)| match batches.get(i) {
                Some(Some(b)) => batch_facts(s, b),
                _ => Facts::unknown(s),
            })
            .collect();
        self.only_true(&facts)
    }

    /// Whether the root's outcome set, given each column's facts, holds nothing but true.
    fn only_true(&self, facts: &[Facts]) -> bool {
        let o = self.outcomes(facts);
        o.has(T) && !o.has(F) && !o.has(U)
    }

    /// Where each outcome may occur: `[true, false, unknown]` row sets of `node`.
    fn ranges(&self, node: &Node, leaf: &mut dyn FnMut(usize) -> [RowRanges; 3]) -> [RowRanges; 3] {
        match node {
            Node::Leaf(i) => leaf(*i),
            Node::Not(a) => {
                let [t, f, u] = self.ranges(a, leaf);
                [f, t, u]
            }
            Node::And(a, b) => {
                let [t1, f1, u1] = self.ranges(a, leaf);
                let [t2, f2, u2] = self.ranges(b, leaf);
                let u = u1
                    .intersect(&u2.union(&t2))
                    .union(&u2.intersect(&u1.union(&t1)));
                [t1.intersect(&t2), f1.union(&f2), u]
            }
            Node::Or(a, b) => {
                let [t1, f1, u1] = self.ranges(a, leaf);
                let [t2, f2, u2] = self.ranges(b, leaf);
                let u = u1
                    .intersect(&u2.union(&f2))
                    .union(&u2.intersect(&u1.union(&f1)));
                [t1.union(&t2), f1.intersect(&f2), u]
            }
        }
    }
}

/// What a batch's own values say of its column: their exact bounds (in the column's
/// order), whether a null, a NaN or another value is among them. A column whose values have
/// no cheap order here (FLOAT16, INT96) gets no bounds, which proves nothing but `IS NULL`
/// tests.
fn batch_facts(slot: &Slot, b: &ColumnBatch<'_>) -> Facts {
    /// The least and greatest of `v` by `key` (an order-preserving map to a signed
    /// integer): eight lanes at a time, which the compiler vectorizes.
    fn fold<T: Copy + From<K>, K: Copy + Ord>(v: &[T], key: impl Fn(T) -> K) -> Option<(T, T)> {
        let &first = v.first()?;
        let (mut lo, mut hi) = ([key(first); 8], [key(first); 8]);
        let chunks = v.chunks_exact(8);
        let rest = chunks.remainder();
        for c in chunks {
            for i in 0..8 {
                lo[i] = lo[i].min(key(c[i]));
                hi[i] = hi[i].max(key(c[i]));
            }
        }
        let (mut l, mut h) = (lo[0], hi[0]);
        for i in 1..8 {
            l = l.min(lo[i]);
            h = h.max(hi[i]);
        }
        for &x in rest {
            l = l.min(key(x));
            h = h.max(key(x));
        }
        Some((T::from(l), T::from(h)))
    }
    fn floats<T: Copy + PartialOrd>(v: &[T], nan: impl Fn(T) -> bool) -> (Option<(T, T)>, bool) {
        let mut any_nan = false;
        let mut out: Option<(T, T)> = None;
        for &x in v {
            if nan(x) {
                any_nan = true;
                continue;
            }
            out = Some(match out {
                None => (x, x),
                Some((lo, hi)) => (if x < lo { x } else { lo }, if hi < x { x } else { hi }),
            });
        }
        (out, any_nan)
    }
    let kind = slot.kind;
    let null = slot.max_def > 0 && b.def_levels.iter().any(|&d| d != slot.max_def);
    let mut nan = false;
    let bounds = match b.values {
        ValuesRef::Boolean(v) => {
            fold(v, |x| x).map(|(l, h)| (Scalar::Boolean(l), Scalar::Boolean(h)))
        }
        // Unsigned order is signed order with the sign bit flipped (and back).
        ValuesRef::Int32(v) if kind == Kind::U32 => fold(v, |x| x ^ i32::MIN)
            .map(|(l, h)| (Scalar::Int32(l ^ i32::MIN), Scalar::Int32(h ^ i32::MIN))),
        ValuesRef::Int32(v) => fold(v, |x| x).map(|(l, h)| (Scalar::Int32(l), Scalar::Int32(h))),
        ValuesRef::Int64(v) if kind == Kind::U64 => fold(v, |x| x ^ i64::MIN)
            .map(|(l, h)| (Scalar::Int64(l ^ i64::MIN), Scalar::Int64(h ^ i64::MIN))),
        ValuesRef::Int64(v) => fold(v, |x| x).map(|(l, h)| (Scalar::Int64(l), Scalar::Int64(h))),
        ValuesRef::Float(v) => {
            let (b, n) = floats(v, f32::is_nan);
            nan = n;
            b.map(|(l, h)| (Scalar::Float(l), Scalar::Float(h)))
        }
        ValuesRef::Double(v) => {
            let (b, n) = floats(v, f64::is_nan);
            nan = n;
            b.map(|(l, h)| (Scalar::Double(l), Scalar::Double(h)))
        }
        ValuesRef::ByteArray(v) if matches!(kind, Kind::Bytes | Kind::Decimal) => {
            bytes_bounds(kind, v.iter())
        }
        ValuesRef::FixedLenByteArray(v) if matches!(kind, Kind::Bytes | Kind::Decimal) => {
            bytes_bounds(kind, v.iter())
        }
        _ => {
            let mut f = Facts::unknown(slot);
            f.may_null = null;
            f.may_value = !b.values.is_empty();
            return f;
        }
    };
    Facts {
        may_non_nan: bounds.is_some(),
        bounds,
        may_null: null,
        may_value: !b.values.is_empty(),
        may_nan: nan,
    }
}

/// The least and greatest of byte-string values of `kind` (Bytes or Decimal: total orders).
fn bytes_bounds<'a>(kind: Kind, mut v: impl Iterator<Item = &'a [u8]>) -> Option<(Scalar, Scalar)> {
    let first = v.next()?;
    let less = |a: &[u8], b: &[u8]| super::bind::order_bytes(kind, a, b) == Some(Ordering::Less);
    let (lo, hi) = v.fold((first, first), |(lo, hi), x| {
        (
            if less(x, lo) { x } else { lo },
            if less(hi, x) { x } else { hi },
        )
    });
    Some((Scalar::Bytes(lo.to_vec()), Scalar::Bytes(hi.to_vec())))
}

/// A page's rows and what is known of its values.
type PageFacts = (core::ops::Range<u64>, Facts);

/// The PLAIN bytes a Bloom filter holds for a value equal to `v`.
fn bloom_forms(kind: Kind, v: &Scalar) -> Vec<Vec<u8>> {
    let zero_pair = match (kind, v) {
        (Kind::F32, Scalar::Float(x)) if x.is_nan() => return Vec::new(),
        (Kind::F64, Scalar::Double(x)) if x.is_nan() => return Vec::new(),
        (Kind::F16, Scalar::Bytes(b)) if crate::statistics::half_of(b).is_nan() => {
            return Vec::new()
        }
        (Kind::F32, Scalar::Float(x)) if *x == 0.0 => {
            Some((0f32.to_le_bytes().to_vec(), (-0f32).to_le_bytes().to_vec()))
        }
        (Kind::F64, Scalar::Double(x)) if *x == 0.0 => {
            Some((0f64.to_le_bytes().to_vec(), (-0f64).to_le_bytes().to_vec()))
        }
        (Kind::F16, Scalar::Bytes(b)) if crate::statistics::half_of(b) == 0.0 => {
            Some((alloc::vec![0, 0], alloc::vec![0, 0x80]))
        }
        _ => None,
    };
    match zero_pair {
        Some((a, b)) => alloc::vec![a, b],
        None => alloc::vec![v.to_plain()],
    }
}

/// Each page's rows and facts from a column's page index, or `None` when the index does
/// not hold together.
fn page_facts(
    slot: &Slot,
    ci: &ColumnIndex,
    oi: &OffsetIndex,
    rows: u64,
    column_orders: Option<&[ColumnOrder]>,
) -> Option<Vec<PageFacts>> {
    let locs = &oi.page_locations;
    let n = locs.len();
    let same = |len: usize| len == n;
    if n == 0
        || !same(ci.null_pages.len())
        || !same(ci.min_values.len())
        || !same(ci.max_values.len())
        || !ci.null_counts.as_ref().is_none_or(|v| same(v.len()))
        || !ci.nan_counts.as_ref().is_none_or(|v| same(v.len()))
        || locs.first().map(|l| l.first_row_index) != Some(0)
        || locs
            .windows(2)
            .any(|w| w[1].first_row_index <= w[0].first_row_index || w[1].offset <= w[0].offset)
        || locs.iter().any(|l| {
            l.offset < 0
                || l.compressed_page_size <= 0
                || u64::try_from(l.first_row_index).is_ok_and(|r| r >= rows)
        })
    {
        return None;
    }
    let order = column_orders.and_then(|o| o.get(slot.column));
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let start = u64::try_from(locs[i].first_row_index).ok()?;
        let end = match locs.get(i + 1) {
            Some(l) => u64::try_from(l.first_row_index).ok()?,
            None => rows,
        };
        let nulls = ci
            .null_counts
            .as_ref()
            .and_then(|v| u64::try_from(v[i]).ok());
        let nans = ci
            .nan_counts
            .as_ref()
            .and_then(|v| u64::try_from(v[i]).ok());
        let (lo, hi) = (&ci.min_values[i], &ci.max_values[i]);
        let facts = if ci.null_pages[i] {
            if !lo.is_empty() || !hi.is_empty() || nulls == Some(0) {
                return None;
            }
            Facts {
                bounds: None,
                may_null: true,
                may_value: false,
                may_nan: false,
                may_non_nan: false,
            }
        } else {
            let stats = Statistics {
                min_value: Some(lo.clone()),
                max_value: Some(hi.clone()),
                ..Default::default()
            };
            let (b, _) = bounds(slot, &stats, order, column_orders.is_some());
            // A predicate's leaf is never repeated: the page's rows are its values.
            let all_nan = all_nan(
                slot,
                order,
                Some((lo, hi)),
                nans,
                nulls,
                Some(end.saturating_sub(start)),
            );
            Facts {
                bounds: b,
                may_null: nulls.map_or(slot.max_def > 0, |c| c > 0),
                may_value: true,
                may_nan: is_float(slot.kind) && (all_nan || nans.is_none_or(|c| c > 0)),
                may_non_nan: !all_nan,
            }
        };
        out.push((start..end, facts));
    }
    Some(out)
}

#[cfg(test)]
mod tests;
