//! The open page of a column chunk: its levels and values as they arrive, and what its
//! header, the page index and the statistics will say of it. The chunk encoder
//! ([`super::chunk`]) decides what goes in and when the page is closed.
//!
//! The level histograms (spec: `SizeStatistics`, one counter per level 0..=max) are counted
//! as levels arrive, and give the page's values and rows on the way: an OPTIONAL column
//! receiving definition levels `1 0 1` has the histogram `[1, 2]`, so 2 values and 1 null.

use alloc::vec::Vec;

use crate::encoding::dictionary;
use crate::encoding::rle::{bit_width, LevelEncoder};
use crate::error::Result;
use crate::levels::count_level;
use crate::statistics::{StatKind, StatisticsBuilder};
use crate::values::Values;

use super::page_index::empty_histogram;

/// The open page: its levels, its values (dictionary ids, values, or PLAIN bytes encoded as
/// they arrived), and what its header, the page index and the statistics will say of it.
#[derive(Debug)]
pub(super) struct OpenPage {
    /// The page's levels, encoded as they arrive (not kept: a page of a nested column holds
    /// hundreds of thousands).
    pub(super) def: LevelEncoder,
    pub(super) rep: LevelEncoder,
    pub(super) rows: usize,
    pub(super) nulls: usize,
    /// Values not dictionary-encoded (unless PLAIN-encoded on arrival, see `plain`).
    pub(super) values: Values,
    /// PLAIN-encoded BYTE_ARRAY values, encoded as they arrive instead of kept in `values`
    /// (see `ChunkEncoder::direct_plain`), and how many.
    pub(super) plain: Vec<u8>,
    pub(super) plain_count: usize,
    /// Dictionary ids of the values, while the dictionary is in use.
    pub(super) ids: Vec<u32>,
    pub(super) stats: StatisticsBuilder,
    pub(super) byte_array_bytes: i64,
    pub(super) def_histogram: Vec<i64>,
    pub(super) rep_histogram: Vec<i64>,
    /// Dictionary ids used by the page since its statistics were last brought up to date (a
    /// bitset over ids, and the ids in the order first seen): a dictionary-encoded page's
    /// min/max are those of its distinct entries, computed once per entry at its end instead
    /// of once per value.
    pub(super) seen_bits: Vec<u64>,
    pub(super) seen_ids: Vec<u32>,
}

impl OpenPage {
    pub fn clear(&mut self) {
        self.def.clear();
        self.rep.clear();
        self.rows = 0;
        self.nulls = 0;
        self.values.clear();
        self.plain.clear();
        self.plain_count = 0;
        self.ids.clear();
        self.stats.clear();
        self.byte_array_bytes = 0;
        self.def_histogram.iter_mut().for_each(|x| *x = 0);
        self.rep_histogram.iter_mut().for_each(|x| *x = 0);
    }

    /// `levels_for_codec`: the levels' runs are chosen for a codec (see
    /// [`LevelEncoder::for_codec`]).
    pub fn new(
        physical_type: crate::format::PhysicalType,
        width: usize,
        kind: StatKind,
        max_def: u16,
        max_rep: u16,
        total_order: bool,
        levels_for_codec: bool,
    ) -> OpenPage {
        let levels = |max: u16| {
            let mut e = LevelEncoder::default();
            e.reset(bit_width(u64::from(max)), levels_for_codec);
            e
        };
        OpenPage {
            def: levels(max_def),
            rep: levels(max_rep),
            rows: 0,
            nulls: 0,
            values: Values::new(physical_type, width),
            plain: Vec::new(),
            plain_count: 0,
            ids: Vec::new(),
            stats: StatisticsBuilder::new(kind).with_total_order(total_order),
            byte_array_bytes: 0,
            def_histogram: empty_histogram(max_def),
            rep_histogram: empty_histogram(max_rep),
            seen_bits: Vec::new(),
            seen_ids: Vec::new(),
        }
    }

    /// Appends the levels of `n` positions (`d` and `r` are empty for a maximum level of 0)
    /// and counts its rows and nulls.
    pub fn add_levels(&mut self, d: &[u16], r: &[u16], n: usize, max_def: u16, max_rep: u16) {
        self.def.put(d);
        self.rep.put(r);
        // One pass per level array: the histogram also counts the values (levels at
        // max_def_level) and the rows (repetition levels 0).
        let values_in_levels = if max_def > 0 {
            let before = self.def_histogram[max_def as usize];
            add_to_histogram(&mut self.def_histogram, d);
            (self.def_histogram[max_def as usize] - before) as usize
        } else {
            n
        };
        self.rows += if max_rep > 0 {
            let before = self.rep_histogram[0];
            add_to_histogram(&mut self.rep_histogram, r);
            (self.rep_histogram[0] - before) as usize
        } else {
            n
        };
        let nulls = n - values_in_levels;
        self.nulls += nulls;
        self.stats.add_nulls(nulls as u64);
    }

    /// Marks dictionary ids as used by the page (see `seen_ids`).
    pub fn mark_seen(&mut self, ids: &[u32]) {
        mark_seen(&mut self.seen_bits, &mut self.seen_ids, ids);
    }

    /// Marks the page's own ids from index `start` on as used (see `seen_ids`).
    pub fn mark_seen_from(&mut self, start: usize) {
        let ids = self.ids.get(start..).unwrap_or(&[]);
        mark_seen(&mut self.seen_bits, &mut self.seen_ids, ids);
    }

    /// Brings the page's statistics up to date with the entries of `dictionary` it used:
    /// min/max over the distinct entries equal min/max over the values (ties are equal
    /// values, and float zeros are normalised when written).
    pub fn settle_seen(&mut self, dictionary: Option<&Values>, kind: StatKind) -> Result<()> {
        if self.seen_ids.is_empty() {
            return Ok(());
        }
        match dictionary {
            // Byte strings compared in place, not gathered into a copy first.
            Some(Values::ByteArray(d)) if matches!(kind, StatKind::Bytes | StatKind::Decimal) => {
                self.stats
                    .update_byte_strings(self.seen_ids.iter().filter_map(|&id| d.get(id as usize)));
            }
            Some(d) => {
                let width = match d {
                    Values::FixedLenByteArray(f) => f.width(),
                    _ => 0,
                };
                let mut entries = Values::new(d.physical_type(), width);
                dictionary::gather(d.as_ref(), &self.seen_ids, &mut entries)?;
                self.stats.update(entries.as_ref())?;
            }
            None => {}
        }
        for &id in &self.seen_ids {
            if let Some(w) = self.seen_bits.get_mut(id as usize / 64) {
                *w = 0;
            }
        }
        self.seen_ids.clear();
        Ok(())
    }
}

/// Marks `ids` in the bitset `bits` and, the first time each, in `seen` (see
/// `OpenPage::seen_ids`).
fn mark_seen(bits: &mut Vec<u64>, seen: &mut Vec<u32>, ids: &[u32]) {
    // The bitset sized once for the largest id (a vectorised pass), so that the loop
    // neither grows it nor reloads the vectors' fields at every id.
    let words = ids.iter().fold(0, |m, &id| m.max(id)) as usize / 64 + 1;
    if words > bits.len() {
        bits.resize(words, 0);
    }
    let bits = &mut bits[..];
    let mut last = u32::MAX;
    for &id in ids {
        // Runs of one id are common (sorted or low-cardinality data).
        if id == last {
            continue;
        }
        last = id;
        let bit = 1u64 << (id % 64);
        if let Some(w) = bits.get_mut(id as usize / 64) {
            if *w & bit == 0 {
                *w |= bit;
                seen.push(id);
            }
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The module doc's example.
    #[test]
    fn levels_give_values_and_nulls() {
        let mut page = OpenPage::new(
            crate::format::PhysicalType::Int32,
            0,
            StatKind::Int32,
            1,
            0,
            false,
            false,
        );
        page.add_levels(&[1, 0, 1], &[], 3, 1, 0);
        assert_eq!(page.def_histogram, [1, 2]);
        assert_eq!((page.rows, page.nulls), (3, 1));
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
}
