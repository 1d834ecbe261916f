//! Row selections: which rows of a row group a scan reads, as sorted half-open ranges of row
//! ordinals within the row group (`first_row_index` of PageIndex.md counts the same way).
//!
//! ```
//! use parket::read::RowRanges;
//! let a = RowRanges::from_ranges([0..10, 20..30]);
//! let b = RowRanges::from_ranges([5..25]);
//! assert_eq!(a.intersection(&b).ranges(), [5..10, 20..25]);
//! assert_eq!(a.row_count(), 20);
//! assert!(a.intersects(9..12) && !a.intersects(10..20));
//! ```

use alloc::vec::Vec;
use core::ops::Range;

/// Sorted, disjoint, non-adjacent, non-empty half-open ranges of row ordinals.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RowRanges {
    ranges: Vec<Range<u64>>,
}

impl RowRanges {
    /// No rows.
    pub fn none() -> Self {
        RowRanges::default()
    }

    /// Rows `0..n`.
    pub fn all(n: u64) -> Self {
        Self::from_ranges(core::iter::once(0..n))
    }

    /// The union of `ranges` (in any order, overlapping or empty ones allowed).
    pub fn from_ranges<I: IntoIterator<Item = Range<u64>>>(ranges: I) -> Self {
        let mut v: Vec<Range<u64>> = ranges.into_iter().filter(|r| r.start < r.end).collect();
        v.sort_by_key(|r| r.start);
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

    /// Rows selected.
    pub fn row_count(&self) -> u64 {
        self.ranges.iter().map(|r| r.end - r.start).sum()
    }

    /// Whether no row is selected.
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// Whether any row of `rows` is selected.
    pub fn intersects(&self, rows: Range<u64>) -> bool {
        let i = self.ranges.partition_point(|r| r.end <= rows.start);
        self.ranges
            .get(i)
            .is_some_and(|r| r.start < rows.end && rows.start < rows.end)
    }

    /// The rows in both.
    pub fn intersection(&self, other: &RowRanges) -> RowRanges {
        let (mut i, mut j, mut out) = (0, 0, Vec::new());
        while let (Some(a), Some(b)) = (self.ranges.get(i), other.ranges.get(j)) {
            let (s, e) = (a.start.max(b.start), a.end.min(b.end));
            if s < e {
                out.push(s..e);
            }
            if a.end <= b.end {
                i += 1;
            } else {
                j += 1;
            }
        }
        RowRanges { ranges: out }
    }

    /// The selected rows of `rows`, as ranges clipped to it.
    pub(crate) fn within(&self, rows: Range<u64>) -> impl Iterator<Item = Range<u64>> + '_ {
        let i = self.ranges.partition_point(|r| r.end <= rows.start);
        self.ranges
            .get(i..)
            .unwrap_or(&[])
            .iter()
            .take_while(move |r| r.start < rows.end)
            .map(move |r| r.start.max(rows.start)..r.end.min(rows.end))
            .filter(|r| r.start < r.end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn matches_a_bitmap(a in proptest::collection::vec((0u64..60, 0u64..10), 0..6),
                            b in proptest::collection::vec((0u64..60, 0u64..10), 0..6),
                            probe in (0u64..70, 0u64..10)) {
            let ra = RowRanges::from_ranges(a.iter().map(|&(s, l)| s..s + l));
            let rb = RowRanges::from_ranges(b.iter().map(|&(s, l)| s..s + l));
            let bits = |v: &[(u64, u64)], x: u64| v.iter().any(|&(s, l)| s <= x && x < s + l);
            let both = ra.intersection(&rb);
            for x in 0..80 {
                prop_assert_eq!(both.ranges().iter().any(|r| r.contains(&x)), bits(&a, x) && bits(&b, x));
            }
            prop_assert_eq!(ra.row_count(), (0..80).filter(|&x| bits(&a, x)).count() as u64);
            let p = probe.0..probe.0 + probe.1;
            prop_assert_eq!(ra.intersects(p.clone()), p.clone().any(|x| bits(&a, x)));
            let inside: u64 = ra.within(p.clone()).map(|r| r.end - r.start).sum();
            prop_assert_eq!(inside, p.filter(|&x| bits(&a, x)).count() as u64);
        }
    }
}
