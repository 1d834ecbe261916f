//! Row ranges: sorted, disjoint, non-empty, non-adjacent half-open ranges of row numbers
//! within a row group, with the set operations that page pruning combines across columns.
//!
//! ```
//! use parket::predicate::RowRanges;
//! let a = RowRanges::from_ranges([0..10, 20..30]);
//! let b = RowRanges::from_ranges([5..25]);
//! assert_eq!(a.intersect(&b).ranges(), &[5..10, 20..25]);
//! assert_eq!(a.union(&b).ranges(), &[0..30]);
//! assert_eq!(a.complement(40).ranges(), &[10..20, 30..40]);
//! assert_eq!(a.row_count(), 20);
//! ```

use alloc::vec::Vec;
use core::ops::Range;

/// A set of rows as sorted, disjoint, non-adjacent, non-empty half-open ranges.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RowRanges {
    ranges: Vec<Range<u64>>,
}

impl RowRanges {
    /// No rows.
    pub fn empty() -> Self {
        RowRanges { ranges: Vec::new() }
    }

    /// Rows `0..rows`.
    pub fn all(rows: u64) -> Self {
        Self::from_ranges(core::iter::once(0..rows))
    }

    /// The union of `ranges`, in any order, overlapping or empty.
    pub fn from_ranges(ranges: impl IntoIterator<Item = Range<u64>>) -> Self {
        let mut v: Vec<Range<u64>> = ranges.into_iter().filter(|r| r.start < r.end).collect();
        v.sort_unstable_by_key(|r| r.start);
        let mut out: Vec<Range<u64>> = Vec::with_capacity(v.len());
        for r in v {
            match out.last_mut() {
                Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
                _ => out.push(r),
            }
        }
        RowRanges { ranges: out }
    }

    /// The ranges, sorted and disjoint.
    pub fn ranges(&self) -> &[Range<u64>] {
        &self.ranges
    }

    /// True when there are no rows.
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// Number of rows.
    pub fn row_count(&self) -> u64 {
        self.ranges.iter().map(|r| r.end - r.start).sum()
    }

    /// Whether `row` is in the set.
    pub fn contains(&self, row: u64) -> bool {
        let i = self.ranges.partition_point(|r| r.end <= row);
        self.ranges.get(i).is_some_and(|r| r.start <= row)
    }

    /// Whether every row of `range` is in the set.
    pub(crate) fn covers(&self, range: &Range<u64>) -> bool {
        let i = self.ranges.partition_point(|r| r.end <= range.start);
        range.is_empty()
            || self
                .ranges
                .get(i)
                .is_some_and(|r| r.start <= range.start && range.end <= r.end)
    }

    /// Whether any row of `range` is in the set (a page that must be read).
    pub fn overlaps(&self, range: Range<u64>) -> bool {
        let i = self.ranges.partition_point(|r| r.end <= range.start);
        self.ranges
            .get(i)
            .is_some_and(|r| r.start < range.end && range.start < range.end)
    }

    /// Rows in both.
    pub fn intersect(&self, other: &RowRanges) -> RowRanges {
        let (a, b) = (&self.ranges, &other.ranges);
        let (mut i, mut j) = (0, 0);
        let mut out = Vec::new();
        while i < a.len() && j < b.len() {
            let s = a[i].start.max(b[j].start);
            let e = a[i].end.min(b[j].end);
            if s < e {
                out.push(s..e);
            }
            if a[i].end < b[j].end {
                i += 1;
            } else {
                j += 1;
            }
        }
        RowRanges { ranges: out }
    }

    /// Rows in either.
    pub fn union(&self, other: &RowRanges) -> RowRanges {
        Self::from_ranges(self.ranges.iter().chain(&other.ranges).cloned())
    }

    /// Rows of `0..rows` not in the set.
    pub fn complement(&self, rows: u64) -> RowRanges {
        let mut out = Vec::new();
        let mut at = 0;
        for r in &self.ranges {
            if r.start >= rows {
                break;
            }
            if at < r.start {
                out.push(at..r.start);
            }
            at = r.end;
        }
        if at < rows {
            out.push(at..rows);
        }
        RowRanges { ranges: out }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn set(r: &RowRanges, n: u64) -> Vec<bool> {
        (0..n).map(|i| r.contains(i)).collect()
    }

    fn arb() -> impl Strategy<Value = RowRanges> {
        proptest::collection::vec((0u64..60, 0u64..12), 0..6)
            .prop_map(|v| RowRanges::from_ranges(v.into_iter().map(|(s, l)| s..s + l)))
    }

    proptest! {
        #[test]
        fn set_operations_match_bitsets(a in arb(), b in arb()) {
            let n = 80;
            let (sa, sb) = (set(&a, n), set(&b, n));
            let i: Vec<bool> = sa.iter().zip(&sb).map(|(x, y)| *x && *y).collect();
            let u: Vec<bool> = sa.iter().zip(&sb).map(|(x, y)| *x || *y).collect();
            let c: Vec<bool> = sa.iter().map(|x| !x).collect();
            prop_assert_eq!(set(&a.intersect(&b), n), i);
            prop_assert_eq!(set(&a.union(&b), n), u);
            prop_assert_eq!(set(&a.complement(n), n), c);
            prop_assert_eq!(a.row_count(), sa.iter().filter(|x| **x).count() as u64);
            for w in a.ranges().windows(2) {
                prop_assert!(w[0].end < w[1].start);
            }
            for s in 0..n {
                prop_assert_eq!(a.overlaps(s..s + 3), (s..s + 3).any(|r| a.contains(r)));
                prop_assert_eq!(a.covers(&(s..s + 3)), (s..s + 3).all(|r| a.contains(r)));
            }
        }
    }
}
