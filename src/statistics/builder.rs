//! The writer's side of statistics: [`StatisticsBuilder`] accumulates a page's or a column
//! chunk's null count, NaN count, min and max, and writes them as `format::Statistics`.
//!
//! Spec: parquet.thrift `Statistics` (`min_value` / `max_value` are the PLAIN encoding
//! without the BYTE_ARRAY length prefix; `nan_count` for FLOAT, DOUBLE and FLOAT16) and
//! `ColumnOrder` (NaN is never a min or max; a zero min is written `-0.0`, a zero max `+0.0`;
//! under `IEEE_754_TOTAL_ORDER` the totalOrder bounds, NaN ones when every value is NaN).
//!
//! Worked example: an INT32 column annotated `INTEGER(32, false)` holding `[5, -1, 0]`
//! compares unsigned, so `-1` (`ff ff ff ff`) is the max; the deprecated signed `min` / `max`
//! would say otherwise and are not written:
//!
//! ```text
//! min_value = 00 00 00 00     0
//! max_value = ff ff ff ff     4294967295
//! min, max  = absent
//! ```
//!
//! ```
//! use parket::statistics::{StatKind, StatisticsBuilder};
//! use parket::values::ValuesRef;
//! let mut s = StatisticsBuilder::new(StatKind::UInt32);
//! s.update(ValuesRef::Int32(&[5, -1, 0])).unwrap();
//! let f = s.to_format(None);
//! assert_eq!(f.min_value.unwrap(), [0x00, 0x00, 0x00, 0x00]);
//! assert_eq!(f.max_value.unwrap(), [0xff, 0xff, 0xff, 0xff]);
//! assert_eq!((f.min, f.max), (None, None));
//! ```

use alloc::vec::Vec;
use core::cmp::Ordering;

use super::order::{
    compare_bytes, compare_decimal, compare_in, half_of, int96_key, Scalar, StatKind,
};
use super::truncate::{truncate_max, truncate_min};
use crate::error::{Error, Result};
use crate::format::Statistics;
use crate::values::{ByteArraysRef, ValuesRef};

/// Accumulates the statistics of a page or a column chunk: null count, min and max.
#[derive(Debug, Clone)]
pub struct StatisticsBuilder {
    kind: StatKind,
    null_count: u64,
    nan_count: u64,
    min: Option<Scalar>,
    max: Option<Scalar>,
    /// `IEEE_754_TOTAL_ORDER` (floating-point kinds only): min/max by totalOrder, and the
    /// NaN bounds below for when every value is NaN.
    total_order: bool,
    nan_min: Option<Scalar>,
    nan_max: Option<Scalar>,
}

impl StatisticsBuilder {
    /// No values yet.
    pub fn new(kind: StatKind) -> Self {
        StatisticsBuilder {
            kind,
            null_count: 0,
            nan_count: 0,
            min: None,
            max: None,
            total_order: false,
            nan_min: None,
            nan_max: None,
        }
    }

    /// Orders a floating-point kind by the `IEEE_754_TOTAL_ORDER` column order when `on`
    /// (no effect on other kinds). Spec (parquet.thrift, `ColumnOrder`): min and max are
    /// "the smallest and largest non-NaN values respectively, or if all non-null values are
    /// NaN, the smallest and largest NaN values as defined by IEEE 754 total order"; zeros
    /// keep their sign (`-0.0 < +0.0`).
    ///
    /// ```
    /// use parket::statistics::{StatKind, StatisticsBuilder};
    /// use parket::values::ValuesRef;
    /// let mut b = StatisticsBuilder::new(StatKind::Double).with_total_order(true);
    /// b.update(ValuesRef::Double(&[0.0, -0.0, f64::NAN])).unwrap();
    /// assert_eq!(b.min_plain().unwrap(), (-0.0f64).to_le_bytes()); // -0 < +0
    /// assert_eq!(b.max_plain().unwrap(), 0.0f64.to_le_bytes());
    /// ```
    pub fn with_total_order(mut self, on: bool) -> Self {
        self.total_order = on && self.kind.is_floating();
        self
    }

    /// Whether min/max follow `IEEE_754_TOTAL_ORDER`.
    pub fn total_order(&self) -> bool {
        self.total_order
    }

    /// The kind.
    pub fn kind(&self) -> StatKind {
        self.kind
    }

    /// Counts `n` more nulls.
    pub fn add_nulls(&mut self, n: u64) {
        self.null_count += n;
    }

    /// The null count.
    pub fn null_count(&self) -> u64 {
        self.null_count
    }

    /// Counts the NaNs among `values` (FLOAT, DOUBLE, FLOAT16; nothing for other kinds).
    /// Separate from [`StatisticsBuilder::update`], which may see each distinct value once
    /// (dictionary entries) where the count needs every value.
    pub fn count_nans(&mut self, values: ValuesRef<'_>) {
        self.nan_count += nans_in(self.kind, values);
    }

    /// The NaN count.
    pub fn nan_count(&self) -> u64 {
        self.nan_count
    }

    /// The minimum so far (never NaN; a zero keeps the sign it was seen with).
    pub fn min(&self) -> Option<&Scalar> {
        self.min.as_ref()
    }

    /// The maximum so far.
    pub fn max(&self) -> Option<&Scalar> {
        self.max.as_ref()
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.null_count = 0;
        self.nan_count = 0;
        self.min = None;
        self.max = None;
        self.nan_min = None;
        self.nan_max = None;
    }

    fn offer(&mut self, lo: Scalar, hi: Scalar) {
        let (k, t) = (self.kind, self.total_order);
        match &self.min {
            Some(m) if compare_in(k, t, &lo, m) != Ordering::Less => {}
            _ => self.min = Some(lo),
        }
        match &self.max {
            Some(m) if compare_in(k, t, &hi, m) != Ordering::Greater => {}
            _ => self.max = Some(hi),
        }
    }

    /// Under total order: each value into the non-NaN bounds or the NaN bounds.
    fn update_total_order(&mut self, values: ValuesRef<'_>) {
        let take = |b: &mut Self, x: Scalar, nan: bool| {
            let k = b.kind;
            let (lo, hi) = if nan {
                (&mut b.nan_min, &mut b.nan_max)
            } else {
                (&mut b.min, &mut b.max)
            };
            if lo
                .as_ref()
                .is_none_or(|m| compare_in(k, true, &x, m).is_lt())
            {
                *lo = Some(x.clone());
            }
            if hi
                .as_ref()
                .is_none_or(|m| compare_in(k, true, &x, m).is_gt())
            {
                *hi = Some(x);
            }
        };
        match values {
            ValuesRef::Float(v) => v
                .iter()
                .for_each(|&x| take(self, Scalar::Float(x), x.is_nan())),
            ValuesRef::Double(v) => v
                .iter()
                .for_each(|&x| take(self, Scalar::Double(x), x.is_nan())),
            ValuesRef::FixedLenByteArray(v) => v
                .iter()
                .for_each(|x| take(self, Scalar::Bytes(x.to_vec()), half_of(x).is_nan())),
            _ => {}
        }
    }

    fn offer_bytes(&mut self, lo: &[u8], hi: &[u8]) {
        let k = self.kind;
        match &self.min {
            Some(Scalar::Bytes(m)) if compare_bytes(k, lo, m) != Ordering::Less => {}
            _ => self.min = Some(Scalar::Bytes(lo.to_vec())),
        }
        match &self.max {
            Some(Scalar::Bytes(m)) if compare_bytes(k, hi, m) != Ordering::Greater => {}
            _ => self.max = Some(Scalar::Bytes(hi.to_vec())),
        }
    }

    /// Takes byte-string values (BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY) into the min and max,
    /// as [`StatisticsBuilder::update`] does with the same values: for callers whose values
    /// are not in one buffer (entries of a dictionary picked by id). Ignored for kinds whose
    /// values are not compared as bytes.
    pub fn update_byte_strings<'a>(&mut self, values: impl Iterator<Item = &'a [u8]>) {
        if matches!(self.kind, StatKind::Bytes | StatKind::Decimal) {
            if let Some((l, h)) = bytes_min_max(self.kind, values) {
                self.offer_bytes(l, h);
            }
        }
    }

    /// Takes the non-null `values` into the min and max. Errors when their physical type
    /// does not fit the kind.
    pub fn update(&mut self, values: ValuesRef<'_>) -> Result<()> {
        if values.is_empty() || self.kind == StatKind::Undefined {
            return Ok(());
        }
        if self.total_order
            && matches!(
                (self.kind, values),
                (StatKind::Float, ValuesRef::Float(_))
                    | (StatKind::Double, ValuesRef::Double(_))
                    | (StatKind::Float16, ValuesRef::FixedLenByteArray(_))
            )
        {
            self.update_total_order(values);
            return Ok(());
        }
        match (self.kind, values) {
            (StatKind::Boolean, ValuesRef::Boolean(v)) => {
                let any_false = v.iter().any(|b| !b);
                let any_true = v.iter().any(|&b| b);
                self.offer(Scalar::Boolean(!any_false), Scalar::Boolean(any_true));
            }
            (StatKind::Int32, ValuesRef::Int32(v)) => {
                if let Some((lo, hi)) = min_max_by(v, |a, b| a < b) {
                    self.offer(Scalar::Int32(lo), Scalar::Int32(hi));
                }
            }
            (StatKind::UInt32, ValuesRef::Int32(v)) => {
                if let Some((lo, hi)) = min_max_by(v, |a, b| (*a as u32) < (*b as u32)) {
                    self.offer(Scalar::Int32(lo), Scalar::Int32(hi));
                }
            }
            (StatKind::Int64, ValuesRef::Int64(v)) => {
                if let Some((lo, hi)) = min_max_by(v, |a, b| a < b) {
                    self.offer(Scalar::Int64(lo), Scalar::Int64(hi));
                }
            }
            (StatKind::UInt64, ValuesRef::Int64(v)) => {
                if let Some((lo, hi)) = min_max_by(v, |a, b| (*a as u64) < (*b as u64)) {
                    self.offer(Scalar::Int64(lo), Scalar::Int64(hi));
                }
            }
            (StatKind::Float, ValuesRef::Float(v)) => {
                if let Some((lo, hi)) = min_max_ignoring_nan(v, f32::INFINITY, f32::NEG_INFINITY) {
                    self.offer(Scalar::Float(lo), Scalar::Float(hi));
                }
            }
            (StatKind::Double, ValuesRef::Double(v)) => {
                if let Some((lo, hi)) = min_max_ignoring_nan(v, f64::INFINITY, f64::NEG_INFINITY) {
                    self.offer(Scalar::Double(lo), Scalar::Double(hi));
                }
            }
            (StatKind::Float16, ValuesRef::FixedLenByteArray(v)) if v.width() == 2 => {
                let mut best: Option<(&[u8], f32, &[u8], f32)> = None;
                for x in v.iter() {
                    let f = half_of(x);
                    if f.is_nan() {
                        continue;
                    }
                    best = Some(match best {
                        None => (x, f, x, f),
                        Some((l, lf, h, hf)) => {
                            let (l, lf) = if f < lf { (x, f) } else { (l, lf) };
                            let (h, hf) = if f > hf { (x, f) } else { (h, hf) };
                            (l, lf, h, hf)
                        }
                    });
                }
                if let Some((l, _, h, _)) = best {
                    self.offer_bytes(l, h);
                }
            }
            (StatKind::Bytes, ValuesRef::ByteArray(v)) => {
                if let Some((l, h)) = keyed_min_max(keyed(v)) {
                    self.offer_bytes(l, h);
                }
            }
            (StatKind::Decimal, ValuesRef::ByteArray(v)) => {
                if let Some((l, h)) = bytes_min_max(self.kind, v.iter()) {
                    self.offer_bytes(l, h);
                }
            }
            (StatKind::Int96, ValuesRef::Int96(v)) => {
                if let Some((lo, hi)) = min_max_by(v, |a, b| int96_key(a) < int96_key(b)) {
                    self.offer_bytes(&lo, &hi);
                }
            }
            (StatKind::Bytes | StatKind::Decimal, ValuesRef::FixedLenByteArray(v)) => {
                if let Some((l, h)) = bytes_min_max(self.kind, v.iter()) {
                    self.offer_bytes(l, h);
                }
            }
            (k, v) => {
                return Err(Error::invalid_argument(alloc::format!(
                    "statistics of {k:?} given values of {}",
                    v.physical_type()
                )))
            }
        }
        Ok(())
    }

    /// Merges another builder of the same kind (a page into its chunk).
    pub fn merge(&mut self, other: &StatisticsBuilder) {
        self.null_count += other.null_count;
        self.nan_count += other.nan_count;
        if let (Some(lo), Some(hi)) = (&other.min, &other.max) {
            self.offer(lo.clone(), hi.clone());
        }
        if let (Some(lo), Some(hi)) = (&other.nan_min, &other.nan_max) {
            let k = self.kind;
            if self
                .nan_min
                .as_ref()
                .is_none_or(|m| compare_in(k, true, lo, m).is_lt())
            {
                self.nan_min = Some(lo.clone());
            }
            if self
                .nan_max
                .as_ref()
                .is_none_or(|m| compare_in(k, true, hi, m).is_gt())
            {
                self.nan_max = Some(hi.clone());
            }
        }
    }

    /// The min as written: PLAIN bytes, with a zero written as `-0.0`.
    pub fn min_plain(&self) -> Option<Vec<u8>> {
        if self.total_order {
            // Total order: the value as it is (a zero keeps its sign), or the NaN bound.
            return Some(self.min.as_ref().or(self.nan_min.as_ref())?.to_plain());
        }
        // Spec (parquet.thrift, ColumnOrder): "When writing statistics, if the computed
        // min is a zero (whether negative or positive), `-0.0` should be written".
        Some(match self.min.as_ref()? {
            Scalar::Float(x) if *x == 0.0 => (-0.0f32).to_le_bytes().to_vec(),
            Scalar::Double(x) if *x == 0.0 => (-0.0f64).to_le_bytes().to_vec(),
            Scalar::Bytes(b) if self.kind == StatKind::Float16 && half_of(b) == 0.0 => {
                alloc::vec![0x00, 0x80]
            }
            s => s.to_plain(),
        })
    }

    /// The max as written: PLAIN bytes, with a zero written as `+0.0`.
    pub fn max_plain(&self) -> Option<Vec<u8>> {
        if self.total_order {
            return Some(self.max.as_ref().or(self.nan_max.as_ref())?.to_plain());
        }
        // Spec: "if the computed max is a zero (whether negative or positive), `+0.0` should
        // be written into the max statistics field."
        Some(match self.max.as_ref()? {
            Scalar::Float(x) if *x == 0.0 => 0.0f32.to_le_bytes().to_vec(),
            Scalar::Double(x) if *x == 0.0 => 0.0f64.to_le_bytes().to_vec(),
            Scalar::Bytes(b) if self.kind == StatKind::Float16 && half_of(b) == 0.0 => {
                alloc::vec![0x00, 0x00]
            }
            s => s.to_plain(),
        })
    }

    /// The min and max as written, truncated to `truncate` bytes where the kind allows it
    /// (unsigned byte order only): `(min, min_exact, max, max_exact)`.
    pub fn min_max_plain(&self, truncate: Option<usize>) -> Option<(Vec<u8>, bool, Vec<u8>, bool)> {
        let (lo, hi) = (self.min_plain()?, self.max_plain()?);
        match truncate {
            Some(n) if self.kind == StatKind::Bytes => {
                let (lo, lo_exact) = truncate_min(lo, n);
                let (hi, hi_exact) = truncate_max(hi, n);
                Some((lo, lo_exact, hi, hi_exact))
            }
            _ => Some((lo, true, hi, true)),
        }
    }

    /// The Thrift `Statistics`: null_count, nan_count for floating-point kinds (the spec
    /// requires it "even if it is zero"), and min/max when there are non-NaN values (with
    /// the exactness flags, and the deprecated fields where valid).
    pub fn to_format(&self, truncate: Option<usize>) -> Statistics {
        let mut s = Statistics {
            null_count: Some(self.null_count as i64),
            nan_count: self.kind.is_floating().then_some(self.nan_count as i64),
            ..Default::default()
        };
        if let Some((lo, lo_exact, hi, hi_exact)) = self.min_max_plain(truncate) {
            // The deprecated fields are TYPE_ORDER's: not under total order.
            if self.kind.legacy_min_max_valid() && !self.total_order {
                s.min = Some(lo.clone());
                s.max = Some(hi.clone());
            }
            s.min_value = Some(lo);
            s.max_value = Some(hi);
            s.is_min_value_exact = Some(lo_exact);
            s.is_max_value_exact = Some(hi_exact);
        }
        s
    }
}

/// The number of NaNs among `values` when `kind` is a floating-point kind, else 0.
fn nans_in(kind: StatKind, values: ValuesRef<'_>) -> u64 {
    match (kind, values) {
        (StatKind::Float, ValuesRef::Float(v)) => v.iter().filter(|x| x.is_nan()).count() as u64,
        (StatKind::Double, ValuesRef::Double(v)) => v.iter().filter(|x| x.is_nan()).count() as u64,
        (StatKind::Float16, ValuesRef::FixedLenByteArray(v)) => {
            v.iter().filter(|x| half_of(x).is_nan()).count() as u64
        }
        _ => 0,
    }
}

/// The min and max of FLOAT or DOUBLE values, `None` when every value is NaN.
///
/// Spec: NaN is never a min or max. A NaN is the one value unordered with itself; `<` and `>`
/// are false for it, so it could not win anyway, but it must not count as "a value seen".
/// Min and max of the values that are not NaN, or `None` when all are NaN. `inf` and
/// `neg_inf` are the type's infinities: the lanes start there, so a NaN (never less or
/// greater than anything) is never taken, and eight lanes are compared at once (min/max
/// instructions). Of two zeros either may come out: a zero is written as `-0.0` for the min
/// and `+0.0` for the max whatever its sign.
fn min_max_ignoring_nan<T: Copy + PartialOrd>(v: &[T], inf: T, neg_inf: T) -> Option<(T, T)> {
    const LANES: usize = 8;
    let (mut lo, mut hi) = ([inf; LANES], [neg_inf; LANES]);
    let mut chunks = v.chunks_exact(LANES);
    for c in &mut chunks {
        for ((l, h), &x) in lo.iter_mut().zip(hi.iter_mut()).zip(c) {
            *l = if x < *l { x } else { *l };
            *h = if x > *h { x } else { *h };
        }
    }
    for &x in chunks.remainder() {
        lo[0] = if x < lo[0] { x } else { lo[0] };
        hi[0] = if x > hi[0] { x } else { hi[0] };
    }
    let (mut l, mut h) = (lo[0], hi[0]);
    for (&x, &y) in lo.iter().zip(&hi) {
        l = if x < l { x } else { l };
        h = if y > h { y } else { h };
    }
    // Any value that is not NaN leaves l <= value <= h; all NaN leaves l = inf > h = -inf.
    (l <= h).then_some((l, h))
}

/// Min and max of `v` in the order `less` (`None` when empty), over eight independent lanes
/// (no chain of dependent compares; vector compares where the target has them).
fn min_max_by<T: Copy>(v: &[T], less: impl Fn(&T, &T) -> bool) -> Option<(T, T)> {
    const LANES: usize = 8;
    let &first = v.first()?;
    let (mut lo, mut hi) = ([first; LANES], [first; LANES]);
    let mut chunks = v.chunks_exact(LANES);
    for c in &mut chunks {
        for ((l, h), x) in lo.iter_mut().zip(hi.iter_mut()).zip(c) {
            *l = if less(x, l) { *x } else { *l };
            *h = if less(h, x) { *x } else { *h };
        }
    }
    let (mut l, mut h) = (first, first);
    for x in lo.iter().chain(chunks.remainder()) {
        l = if less(x, &l) { *x } else { l };
    }
    for x in hi.iter().chain(chunks.remainder()) {
        h = if less(&h, x) { *x } else { h };
    }
    Some((l, h))
}

fn bytes_min_max<'a>(
    kind: StatKind,
    mut it: impl Iterator<Item = &'a [u8]>,
) -> Option<(&'a [u8], &'a [u8])> {
    let first = it.next()?;
    let (mut lo, mut hi) = (first, first);
    if kind == StatKind::Decimal {
        for x in it {
            if compare_decimal(x, lo) == Ordering::Less {
                lo = x;
            }
            if compare_decimal(x, hi) == Ordering::Greater {
                hi = x;
            }
        }
    } else {
        return keyed_min_max(
            core::iter::once(first)
                .chain(it)
                .map(|x| (prefix_key(x), x)),
        );
    }
    Some((lo, hi))
}

/// The least and greatest of byte strings in unsigned lexicographic order, each given with
/// its [`prefix_key`]. Most comparisons are decided by the first 8 bytes: compare those as
/// integers and the whole values only on a tie.
#[inline]
fn keyed_min_max<'a>(
    mut it: impl Iterator<Item = (u64, &'a [u8])>,
) -> Option<(&'a [u8], &'a [u8])> {
    let (k, first) = it.next()?;
    let (mut lo, mut hi, mut lo_k, mut hi_k) = (first, first, k, k);
    for (k, x) in it {
        if k < lo_k || (k == lo_k && x < lo) {
            lo = x;
            lo_k = k;
        } else if k > hi_k || (k == hi_k && x > hi) {
            hi = x;
            hi_k = k;
        }
    }
    Some((lo, hi))
}

/// The values of `v` with their [`prefix_key`], read as 8 bytes of the data buffer from the
/// value's start with the bytes past the value masked off: a short value needs no copy into
/// a padded word (the data buffer usually goes on past it).
fn keyed(v: ByteArraysRef<'_>) -> impl Iterator<Item = (u64, &[u8])> {
    let (offsets, data) = v.parts();
    offsets.windows(2).map(move |w| {
        let (s, e) = (w[0], w[1]);
        let x = data.get(s..e).unwrap_or(&[]);
        let key = match data.get(s..).and_then(|d| d.first_chunk::<8>()) {
            // Keep the value's bytes (at most 8), the most significant ones.
            Some(a) => {
                u64::from_be_bytes(*a)
                    & u64::MAX
                        .checked_shl(64 - 8 * x.len().min(8) as u32)
                        .unwrap_or(0)
            }
            None => prefix_key(x),
        };
        (key, x)
    })
}

/// The first 8 bytes of `x` as a big-endian integer, zero-padded. For values `a`, `b`:
/// `prefix_key(a) < prefix_key(b)` implies `a < b` (unsigned lexicographic order; at the
/// first differing byte of the padded prefixes, a padding zero of the shorter value means it
/// is a prefix of the other, and a prefix is smaller). Equal keys decide nothing.
#[inline]
fn prefix_key(x: &[u8]) -> u64 {
    match x.first_chunk::<8>() {
        Some(a) => u64::from_be_bytes(*a),
        // Byte by byte: a variable-length copy would be a call per value.
        None => x
            .iter()
            .enumerate()
            .fold(0u64, |acc, (i, &b)| acc | (u64::from(b) << (56 - 8 * i))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::values::{ByteArrays, FixedLenByteArraysRef};
    use alloc::vec;

    fn strings(v: &[&str]) -> ByteArrays {
        v.iter().collect()
    }

    proptest::proptest! {
        // The eight-lane float min/max against a plain fold over the values that are not
        // NaN: NaNs, infinities and both zeros are where the lanes could go wrong.
        #[test]
        fn float_min_max_matches_a_fold(
            raw in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::strategy::Just(f64::NAN),
                    proptest::strategy::Just(f64::INFINITY),
                    proptest::strategy::Just(f64::NEG_INFINITY),
                    proptest::strategy::Just(0.0),
                    proptest::strategy::Just(-0.0),
                    proptest::prelude::any::<f64>(),
                ],
                0..40,
            ),
        ) {
            // A plain fold over the values that are not NaN.
            fn fold<T: Copy + PartialOrd>(v: &[T]) -> Option<(T, T)> {
                v.iter().copied().filter(|x| x == x).fold(None, |acc, x| {
                    Some(match acc {
                        None => (x, x),
                        Some((l, h)) => (if x < l { x } else { l }, if x > h { x } else { h }),
                    })
                })
            }
            // By value: of two zeros either may come out.
            let got = min_max_ignoring_nan(&raw, f64::INFINITY, f64::NEG_INFINITY);
            proptest::prop_assert_eq!(got, fold(&raw));
            let narrow: Vec<f32> = raw.iter().map(|&x| x as f32).collect();
            let got = min_max_ignoring_nan(&narrow, f32::INFINITY, f32::NEG_INFINITY);
            proptest::prop_assert_eq!(got, fold(&narrow));
        }

        // The eight-lane integer min/max against the slice's own min and max, signed and
        // unsigned, for lengths around the lane count.
        #[test]
        fn integer_min_max_matches_iter(raw in proptest::collection::vec(proptest::prelude::any::<i64>(), 0..40)) {
            let got = min_max_by(&raw, |a, b| a < b);
            proptest::prop_assert_eq!(got, raw.iter().min().zip(raw.iter().max()).map(|(a, b)| (*a, *b)));
            let got = min_max_by(&raw, |a, b| (*a as u64) < (*b as u64));
            let lo = raw.iter().min_by_key(|x| **x as u64).copied();
            let hi = raw.iter().max_by_key(|x| **x as u64).copied();
            proptest::prop_assert_eq!(got, lo.zip(hi));
        }

        // The prefix-key comparison against plain slice order: short values, zero bytes
        // and shared 8-byte prefixes are where a wrong key order would show.
        #[test]
        fn bytes_min_max_matches_slice_order(
            raw in proptest::collection::vec(
                proptest::collection::vec(proptest::prop_oneof![proptest::strategy::Just(0u8), 0u8..3, proptest::prelude::any::<u8>()], 0..12),
                1..40,
            ),
        ) {
            let shared: Vec<Vec<u8>> = raw
                .iter()
                .enumerate()
                .map(|(i, v)| if i % 3 == 0 { [&b"prefix00"[..], v].concat() } else { v.clone() })
                .collect();
            for values in [&raw, &shared] {
                let lo = values.iter().min().unwrap();
                let hi = values.iter().max().unwrap();
                let got = bytes_min_max(StatKind::Bytes, values.iter().map(|v| &v[..])).unwrap();
                proptest::prop_assert_eq!((got.0, got.1), (&lo[..], &hi[..]));
                // From a ByteArrays: keys read from the data buffer past short values.
                let arrays: crate::values::ByteArrays = values.iter().collect();
                let got = keyed_min_max(keyed(arrays.as_ref())).unwrap();
                proptest::prop_assert_eq!((got.0, got.1), (&lo[..], &hi[..]));
            }
        }
    }

    #[test]
    fn strings_min_max() {
        // Golden: "b", "a", "c" -> min "a" max "c"; unsigned bytes put "\u{e9}" after "z".
        let mut s = StatisticsBuilder::new(StatKind::Bytes);
        s.update(ValuesRef::ByteArray(strings(&["b", "a", "c"]).as_ref()))
            .unwrap();
        let f = s.to_format(None);
        assert_eq!(f.min_value.as_deref(), Some(&b"a"[..]));
        assert_eq!(f.max_value.as_deref(), Some(&b"c"[..]));
        assert_eq!(
            (f.min, f.max),
            (None, None),
            "no deprecated fields for strings"
        );
        s.update(ValuesRef::ByteArray(strings(&["z", "\u{e9}"]).as_ref()))
            .unwrap();
        assert_eq!(s.max_plain().unwrap(), [0xc3, 0xa9]);
    }

    #[test]
    fn doubles_nan_and_zeros() {
        let mut s = StatisticsBuilder::new(StatKind::Double);
        s.update(ValuesRef::Double(&[f64::NAN, 0.0, -0.0, f64::NAN]))
            .unwrap();
        let f = s.to_format(None);
        // min -0.0 = 00..00 80, max +0.0 = 00..00 00.
        assert_eq!(f.min_value.unwrap(), [0, 0, 0, 0, 0, 0, 0, 0x80]);
        assert_eq!(f.max_value.unwrap(), [0; 8]);
        let mut n = StatisticsBuilder::new(StatKind::Float);
        n.update(ValuesRef::Float(&[f32::NAN])).unwrap();
        n.add_nulls(2);
        let f = n.to_format(None);
        assert_eq!(
            (f.min_value, f.max_value, f.null_count),
            (None, None, Some(2))
        );
        let mut m = StatisticsBuilder::new(StatKind::Float);
        m.update(ValuesRef::Float(&[3.0, f32::NAN, -2.5])).unwrap();
        let f = m.to_format(None);
        assert_eq!(f.min_value.unwrap(), (-2.5f32).to_le_bytes());
        assert_eq!(
            f.max.unwrap(),
            3.0f32.to_le_bytes(),
            "deprecated max for floats"
        );
    }

    #[test]
    fn unsigned_int32_minus_one_is_max() {
        let mut s = StatisticsBuilder::new(StatKind::UInt32);
        s.update(ValuesRef::Int32(&[5, -1, 0])).unwrap();
        let f = s.to_format(None);
        assert_eq!(f.min_value.unwrap(), [0, 0, 0, 0]);
        assert_eq!(f.max_value.unwrap(), [0xff, 0xff, 0xff, 0xff]);
        assert_eq!(f.min, None, "signed deprecated fields would be wrong");
        let mut s = StatisticsBuilder::new(StatKind::Int32);
        s.update(ValuesRef::Int32(&[5, -1, 0])).unwrap();
        assert_eq!(s.to_format(None).min.unwrap(), [0xff; 4]);
    }

    #[test]
    fn decimal_signed_two_complement() {
        // -1 (ff), 1 (00 01), -256 (ff 00), 127 (7f)
        let v = [vec![0xffu8], vec![0, 1], vec![0xff, 0], vec![0x7f]];
        let b: ByteArrays = v.iter().collect();
        let mut s = StatisticsBuilder::new(StatKind::Decimal);
        s.update(ValuesRef::ByteArray(b.as_ref())).unwrap();
        assert_eq!(s.min_plain().unwrap(), [0xff, 0]);
        assert_eq!(s.max_plain().unwrap(), [0x7f]);
        assert_eq!(compare_decimal(&[0xff, 0xff], &[0xff]), Ordering::Equal);
    }

    #[test]
    fn float16_order() {
        // 1.0 = 3c00, -2.0 = c000, NaN = 7e00, 0.5 = 3800 (little-endian bytes)
        let data = [0x00, 0x3c, 0x00, 0xc0, 0x00, 0x7e, 0x00, 0x38];
        let v = FixedLenByteArraysRef::new(2, &data).unwrap();
        let mut s = StatisticsBuilder::new(StatKind::Float16);
        s.update(ValuesRef::FixedLenByteArray(v)).unwrap();
        assert_eq!(s.min_plain().unwrap(), [0x00, 0xc0]);
        assert_eq!(s.max_plain().unwrap(), [0x00, 0x3c]);
        assert_eq!(half_of(&[0x01, 0x00]), 1.0 / 16_777_216.0);
    }

    #[test]
    fn booleans() {
        let mut s = StatisticsBuilder::new(StatKind::Boolean);
        s.update(ValuesRef::Boolean(&[true, true])).unwrap();
        assert_eq!(s.to_format(None).min_value.unwrap(), [1]);
        s.update(ValuesRef::Boolean(&[false])).unwrap();
        assert_eq!(s.to_format(None).min_value.unwrap(), [0]);
    }

    #[test]
    fn merge_pages() {
        let mut a = StatisticsBuilder::new(StatKind::Int64);
        a.update(ValuesRef::Int64(&[3, 9])).unwrap();
        let mut b = StatisticsBuilder::new(StatKind::Int64);
        b.update(ValuesRef::Int64(&[-4])).unwrap();
        b.add_nulls(3);
        a.merge(&b);
        assert_eq!(a.min(), Some(&Scalar::Int64(-4)));
        assert_eq!(a.max(), Some(&Scalar::Int64(9)));
        assert_eq!(a.null_count(), 3);
        assert!(StatisticsBuilder::new(StatKind::Int64)
            .update(ValuesRef::Int32(&[1]))
            .is_err());
    }
}
