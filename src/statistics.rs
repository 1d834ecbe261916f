//! Layer 4: column statistics — sort orders, min/max/null_count accumulation, the PLAIN
//! encoding of min/max in `format::Statistics`, truncation, and the reverse for readers.
//!
//! This module owns the *meaning* of `Statistics` and `ColumnIndex` min/max bytes; the Thrift
//! structs themselves are in [`crate::format`].
//!
//! Spec: parquet.thrift `ColumnOrder` / `TypeDefinedOrder` ("the sort order of the logical
//! type, or of the physical type when there is none") and LogicalTypes.md ("Sort order" of
//! each annotation):
//!
//! ```text
//! BOOLEAN                         false < true
//! INT32, INT64                    signed            (DATE, TIME, TIMESTAMP, DECIMAL, INT(_, true))
//! INT32, INT64 + INTEGER(_,false) unsigned          (also UINT_8 .. UINT_64)
//! FLOAT, DOUBLE                   signed float; NaN never a min/max; zeros: min -0.0, max +0.0
//! BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY  unsigned byte-wise lexicographic (STRING, ENUM, JSON, UUID, ..)
//! DECIMAL on BYTE_ARRAY / FLBA    signed two's complement, big-endian, any length
//! FLOAT16 on FLBA(2)              float order of the half-precision value (rules as FLOAT)
//! INT96, INTERVAL                 undefined: no min/max is written or trusted
//! ```
//!
//! Writing, the floating-point kinds also count NaNs (`nan_count`, written "even if it is
//! zero"), and may use the `IEEE_754_TOTAL_ORDER` column order instead
//! ([`StatisticsBuilder::with_total_order`]): totalOrder min/max, zeros kept as they are,
//! NaN bounds when every value is NaN.
//!
//! `min_value` / `max_value` hold the PLAIN encoding of the value *without* the 4-byte length
//! prefix of BYTE_ARRAY. Worked example: an OPTIONAL DOUBLE column holding
//! `[1.5, -0.0, NaN, null]` has
//!
//! ```text
//! null_count = 1
//! min_value  = 00 00 00 00 00 00 00 80     -0.0 (the NaN is ignored)
//! max_value  = 00 00 00 00 00 00 f8 3f     1.5
//! ```
//!
//! ```
//! use parket::statistics::{StatKind, StatisticsBuilder};
//! use parket::values::ValuesRef;
//! let mut s = StatisticsBuilder::new(StatKind::Double);
//! s.update(ValuesRef::Double(&[1.5, -0.0, f64::NAN])).unwrap();
//! s.add_nulls(1);
//! let f = s.to_format(None);
//! assert_eq!(f.null_count, Some(1));
//! assert_eq!(f.min_value.unwrap(), [0, 0, 0, 0, 0, 0, 0, 0x80]);
//! assert_eq!(f.max_value.unwrap(), [0, 0, 0, 0, 0, 0, 0xf8, 0x3f]);
//! ```
//!
//! The deprecated `min` / `max` fields were computed by old writers in *signed* order (also for
//! byte arrays, compared as signed bytes). This crate writes them only where that order is the
//! column's (BOOLEAN, signed integers, FLOAT, DOUBLE), as parquet-cpp does, and [`decode`]
//! reads them only there.

use alloc::vec::Vec;
use core::cmp::Ordering;

use crate::error::{Error, Result};
use crate::format::{ColumnOrder, ConvertedType, LogicalType, PhysicalType, Statistics};
use crate::values::{ByteArraysRef, ValuesRef};

/// The sort order class of a column (parquet.thrift's `SortOrder` of the reference
/// implementations: SIGNED, UNSIGNED, UNKNOWN).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortOrder {
    /// Signed comparison (integers, floats, decimals, booleans).
    Signed,
    /// Unsigned comparison (unsigned integers, byte-wise strings).
    Unsigned,
    /// No order defined: no min/max.
    Undefined,
}

/// How a column's values compare: the typed view of its sort order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatKind {
    /// BOOLEAN: false < true.
    Boolean,
    /// INT32, signed.
    Int32,
    /// INT32 annotated unsigned (stored as the same bits).
    UInt32,
    /// INT64, signed.
    Int64,
    /// INT64 annotated unsigned.
    UInt64,
    /// FLOAT.
    Float,
    /// DOUBLE.
    Double,
    /// FIXED_LEN_BYTE_ARRAY(2) annotated FLOAT16 (little-endian IEEE half).
    Float16,
    /// BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY in unsigned lexicographic order.
    Bytes,
    /// DECIMAL on BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY: signed two's complement, big-endian.
    Decimal,
    /// INT96 (legacy timestamps), ordered only under the `INT96_TIMESTAMP_ORDER` column order:
    /// chronologically, by the Julian day (bytes 8..12, i32 little-endian), then the
    /// nanoseconds of the day (bytes 0..8, i64 little-endian). Under `TYPE_ORDER` its order is
    /// undefined and its min/max are ignored.
    Int96,
    /// Undefined order (INT96, INTERVAL, geospatial, VARIANT): null counts only.
    Undefined,
}

impl StatKind {
    /// The kind of a leaf column of `physical` type with these annotations.
    pub fn of(
        physical: PhysicalType,
        type_length: Option<usize>,
        logical: Option<&LogicalType>,
        converted: Option<ConvertedType>,
    ) -> StatKind {
        use PhysicalType as P;
        let unsigned = matches!(
            logical,
            Some(LogicalType::Integer {
                is_signed: false,
                ..
            })
        ) || matches!(
            converted,
            Some(
                ConvertedType::Uint8
                    | ConvertedType::Uint16
                    | ConvertedType::Uint32
                    | ConvertedType::Uint64
            )
        );
        let decimal = matches!(logical, Some(LogicalType::Decimal { .. }))
            || converted == Some(ConvertedType::Decimal);
        let undefined_annotation = matches!(
            logical,
            Some(
                LogicalType::Geometry { .. }
                    | LogicalType::Geography { .. }
                    | LogicalType::Variant { .. }
                    | LogicalType::Unrecognized { .. }
            )
        ) || converted == Some(ConvertedType::Interval);
        if undefined_annotation {
            return StatKind::Undefined;
        }
        match physical {
            P::Boolean => StatKind::Boolean,
            P::Int32 if unsigned => StatKind::UInt32,
            P::Int32 => StatKind::Int32,
            P::Int64 if unsigned => StatKind::UInt64,
            P::Int64 => StatKind::Int64,
            P::Int96 => StatKind::Int96,
            P::Float => StatKind::Float,
            P::Double => StatKind::Double,
            P::FixedLenByteArray
                if matches!(logical, Some(LogicalType::Float16)) && type_length == Some(2) =>
            {
                StatKind::Float16
            }
            P::ByteArray | P::FixedLenByteArray if decimal => StatKind::Decimal,
            P::ByteArray | P::FixedLenByteArray => StatKind::Bytes,
        }
    }

    /// The kind of a schema leaf.
    pub fn of_column(column: &crate::schema::ColumnDescriptor) -> StatKind {
        StatKind::of(
            column.physical_type,
            column.type_length,
            column.logical_type.as_ref(),
            column.converted_type,
        )
    }

    /// The sort order class.
    pub fn sort_order(self) -> SortOrder {
        match self {
            StatKind::UInt32 | StatKind::UInt64 | StatKind::Bytes => SortOrder::Unsigned,
            StatKind::Undefined => SortOrder::Undefined,
            _ => SortOrder::Signed,
        }
    }

    /// True for FLOAT, DOUBLE and FLOAT16: the kinds with NaN, `nan_count` and the
    /// `IEEE_754_TOTAL_ORDER` column order.
    pub fn is_floating(self) -> bool {
        matches!(self, StatKind::Float | StatKind::Double | StatKind::Float16)
    }

    /// True when the deprecated `min` / `max` fields (signed order, as old writers computed
    /// them) agree with this kind's order, so they may be written and read.
    pub fn legacy_min_max_valid(self) -> bool {
        matches!(
            self,
            StatKind::Boolean
                | StatKind::Int32
                | StatKind::Int64
                | StatKind::Float
                | StatKind::Double
        )
    }
}

/// One typed min or max value.
#[derive(Debug, Clone, PartialEq)]
pub enum Scalar {
    /// BOOLEAN.
    Boolean(bool),
    /// INT32 (the bits, for unsigned kinds too).
    Int32(i32),
    /// INT64 (the bits, for unsigned kinds too).
    Int64(i64),
    /// FLOAT.
    Float(f32),
    /// DOUBLE.
    Double(f64),
    /// BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY (FLOAT16 too: its 2 bytes).
    Bytes(Vec<u8>),
}

impl Scalar {
    /// The PLAIN encoding without length prefix (what `min_value` / `max_value` hold).
    pub fn to_plain(&self) -> Vec<u8> {
        match self {
            Scalar::Boolean(b) => alloc::vec![*b as u8],
            Scalar::Int32(v) => v.to_le_bytes().to_vec(),
            Scalar::Int64(v) => v.to_le_bytes().to_vec(),
            Scalar::Float(v) => v.to_bits().to_le_bytes().to_vec(),
            Scalar::Double(v) => v.to_bits().to_le_bytes().to_vec(),
            Scalar::Bytes(b) => b.clone(),
        }
    }

    /// Decodes the PLAIN bytes of a min/max of `kind`; `None` when the length is wrong for
    /// the kind or the kind has no order. Never panics.
    pub fn from_plain(kind: StatKind, bytes: &[u8]) -> Option<Scalar> {
        Some(match kind {
            StatKind::Boolean => match bytes {
                [b] if *b <= 1 => Scalar::Boolean(*b == 1),
                _ => return None,
            },
            StatKind::Int32 | StatKind::UInt32 => {
                Scalar::Int32(i32::from_le_bytes(bytes.try_into().ok()?))
            }
            StatKind::Int64 | StatKind::UInt64 => {
                Scalar::Int64(i64::from_le_bytes(bytes.try_into().ok()?))
            }
            StatKind::Float => Scalar::Float(f32::from_le_bytes(bytes.try_into().ok()?)),
            StatKind::Double => Scalar::Double(f64::from_le_bytes(bytes.try_into().ok()?)),
            StatKind::Float16 if bytes.len() == 2 => Scalar::Bytes(bytes.to_vec()),
            StatKind::Bytes | StatKind::Decimal => Scalar::Bytes(bytes.to_vec()),
            StatKind::Int96 if bytes.len() == 12 => Scalar::Bytes(bytes.to_vec()),
            StatKind::Float16 | StatKind::Int96 | StatKind::Undefined => return None,
        })
    }
}

/// [`compare`], or under `IEEE_754_TOTAL_ORDER` (`total`, floating-point kinds) IEEE 754
/// totalOrder: `-NaN < -inf < .. < -0.0 < +0.0 < .. < +inf < +NaN`, NaNs by payload.
pub fn compare_in(kind: StatKind, total: bool, a: &Scalar, b: &Scalar) -> Ordering {
    match (a, b) {
        (Scalar::Float(x), Scalar::Float(y)) if total => x.total_cmp(y),
        (Scalar::Double(x), Scalar::Double(y)) if total => x.total_cmp(y),
        (Scalar::Bytes(x), Scalar::Bytes(y)) if total && kind == StatKind::Float16 => {
            half_total_key(x).cmp(&half_total_key(y))
        }
        _ => compare(kind, a, b),
    }
}

/// The totalOrder key of a little-endian half: the bits as a signed integer, with the
/// magnitude bits flipped for negative values (as `f32::total_cmp` does).
fn half_total_key(b: &[u8]) -> i16 {
    let bits = match b {
        [lo, hi] => i16::from_le_bytes([*lo, *hi]),
        _ => 0,
    };
    bits ^ ((((bits >> 15) as u16) >> 1) as i16)
}

/// Compares two values of `kind` in its sort order. Floats: by value (`-0.0 == 0.0`), NaN
/// compares equal to everything (callers keep NaN out). `Undefined` is always `Equal`.
pub fn compare(kind: StatKind, a: &Scalar, b: &Scalar) -> Ordering {
    match (a, b) {
        (Scalar::Boolean(x), Scalar::Boolean(y)) => x.cmp(y),
        (Scalar::Int32(x), Scalar::Int32(y)) if kind == StatKind::UInt32 => {
            (*x as u32).cmp(&(*y as u32))
        }
        (Scalar::Int32(x), Scalar::Int32(y)) => x.cmp(y),
        (Scalar::Int64(x), Scalar::Int64(y)) if kind == StatKind::UInt64 => {
            (*x as u64).cmp(&(*y as u64))
        }
        (Scalar::Int64(x), Scalar::Int64(y)) => x.cmp(y),
        (Scalar::Float(x), Scalar::Float(y)) => x.partial_cmp(y).unwrap_or(Ordering::Equal),
        (Scalar::Double(x), Scalar::Double(y)) => x.partial_cmp(y).unwrap_or(Ordering::Equal),
        (Scalar::Bytes(x), Scalar::Bytes(y)) => compare_bytes(kind, x, y),
        _ => Ordering::Equal,
    }
}

/// Compares byte-array values of `kind` (Bytes, Decimal, Float16, Int96).
pub fn compare_bytes(kind: StatKind, a: &[u8], b: &[u8]) -> Ordering {
    match kind {
        StatKind::Decimal => compare_decimal(a, b),
        StatKind::Int96 => int96_key(a).cmp(&int96_key(b)),
        StatKind::Float16 => {
            let (x, y) = (half_of(a), half_of(b));
            x.partial_cmp(&y).unwrap_or(Ordering::Equal)
        }
        _ => a.cmp(b),
    }
}

/// The chronological key of an INT96 timestamp (parquet.thrift, `Int96TimestampOrder`): the
/// Julian day, then the nanoseconds of the day. Other lengths sort first.
fn int96_key(b: &[u8]) -> Option<(i32, i64)> {
    let day = i32::from_le_bytes(b.get(8..12)?.try_into().ok()?);
    let nanos = i64::from_le_bytes(b.get(0..8)?.try_into().ok()?);
    Some((day, nanos))
}

/// Signed comparison of two big-endian two's-complement integers of any lengths (an empty
/// one is 0).
// Spec (LogicalTypes.md, DECIMAL): "sorted by ... signed comparison of the unscaled value".
pub fn compare_decimal(a: &[u8], b: &[u8]) -> Ordering {
    let neg = |v: &[u8]| v.first().is_some_and(|&x| x & 0x80 != 0);
    let (na, nb) = (neg(a), neg(b));
    if na != nb {
        return if na {
            Ordering::Less
        } else {
            Ordering::Greater
        };
    }
    // Same sign: sign-extend the shorter one, then compare bytes unsigned.
    let pad = if na { 0xffu8 } else { 0 };
    let n = a.len().max(b.len());
    for i in 0..n {
        let x = if i + a.len() >= n {
            a[i + a.len() - n]
        } else {
            pad
        };
        let y = if i + b.len() >= n {
            b[i + b.len() - n]
        } else {
            pad
        };
        match x.cmp(&y) {
            Ordering::Equal => {}
            o => return o,
        }
    }
    Ordering::Equal
}

/// The value of a little-endian IEEE 754 half (2 bytes), as f32; NaN for other lengths.
pub fn half_of(bytes: &[u8]) -> f32 {
    match bytes {
        [lo, hi] => crate::bytes::float16::f16_to_f32(u16::from_le_bytes([*lo, *hi])),
        _ => f32::NAN,
    }
}

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

/// Truncates a minimum to at most `n` bytes (at a UTF-8 character boundary when it is
/// UTF-8): a prefix is never greater. Returns the value and whether it is exact.
pub fn truncate_min(mut v: Vec<u8>, n: usize) -> (Vec<u8>, bool) {
    if v.len() <= n {
        return (v, true);
    }
    let mut cut = n;
    if let Ok(s) = core::str::from_utf8(&v) {
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
    }
    v.truncate(cut);
    (v, false)
}

/// Truncates a maximum to at most `n` bytes and rounds it up so it stays an upper bound:
/// the last byte (or, for UTF-8, the last character) is incremented, dropping those that
/// cannot be. When nothing can be incremented the value is kept whole (exact).
pub fn truncate_max(v: Vec<u8>, n: usize) -> (Vec<u8>, bool) {
    if v.len() <= n {
        return (v, true);
    }
    if let Ok(s) = core::str::from_utf8(&v) {
        let mut cut = n;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        let mut out: alloc::string::String = s[..cut].into();
        while let Some(c) = out.pop() {
            let mut next = c as u32 + 1;
            if (0xd800..0xe000).contains(&next) {
                next = 0xe000;
            }
            if let Some(c2) = char::from_u32(next) {
                out.push(c2);
                return (out.into_bytes(), false);
            }
        }
        return (v, true);
    }
    let mut out = v[..n].to_vec();
    while let Some(last) = out.pop() {
        if last != 0xff {
            out.push(last + 1);
            return (out, false);
        }
    }
    (v, true)
}

/// Statistics of a column chunk or page as a reader may trust them.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DecodedStatistics {
    /// Number of nulls (absent when not written or negative).
    pub null_count: Option<u64>,
    /// Number of distinct values, when written.
    pub distinct_count: Option<u64>,
    /// Number of NaN values, when written.
    pub nan_count: Option<u64>,
    /// Lower bound of the non-null, non-NaN values.
    pub min: Option<Scalar>,
    /// Upper bound of the non-null, non-NaN values.
    pub max: Option<Scalar>,
    /// Whether `min` is a value of the data (not a truncated bound).
    pub is_min_exact: bool,
    /// Whether `max` is a value of the data.
    pub is_max_exact: bool,
}

/// Whether min/max of a column of `kind` mean something under `column_order` (`None`: the
/// footer has no `column_orders`). Spec (parquet.thrift, `ColumnOrder`): "If the reader does
/// not support the value of this union, min and max stats for this column should be ignored";
/// `IEEE_754_TOTAL_ORDER` is for floating-point columns; INT96 is ordered only by
/// `INT96_TIMESTAMP_ORDER` ("If TYPE_ORDER is used for an INT96 column, readers should ignore
/// all statistics").
pub fn orders_min_max(kind: StatKind, column_order: Option<&ColumnOrder>) -> bool {
    match column_order {
        None | Some(ColumnOrder::TypeOrder) => {
            !matches!(kind, StatKind::Undefined | StatKind::Int96)
        }
        Some(ColumnOrder::Ieee754TotalOrder) => kind.is_floating(),
        Some(ColumnOrder::Int96TimestampOrder) => kind == StatKind::Int96,
        Some(ColumnOrder::Unknown { .. }) => false,
    }
}

/// Interprets `stats` of a column of `kind` whose footer gives `column_order` (`None` when
/// the footer has no `column_orders`, as in files before format 2.4).
///
/// Rules: `min_value` / `max_value` are used when present and the column order is known;
/// the deprecated `min` / `max` only when the kind's order is the signed order they were
/// computed in; a min or max of the wrong length, or a NaN one, drops both; a zero min reads
/// as `-0.0` and a zero max as `+0.0` (Spec: readers must assume either zero may be there).
/// Never panics, for any input.
pub fn decode(
    stats: &Statistics,
    kind: StatKind,
    column_order: Option<&ColumnOrder>,
) -> DecodedStatistics {
    let count = |v: Option<i64>| v.and_then(|n| u64::try_from(n).ok());
    let mut out = DecodedStatistics {
        null_count: count(stats.null_count),
        distinct_count: count(stats.distinct_count),
        nan_count: count(stats.nan_count),
        ..Default::default()
    };
    // Spec: "If the reader does not support the value of this union, min and max stats for
    // this column should be ignored."
    if !orders_min_max(kind, column_order) {
        return out;
    }
    let (lo, hi, lo_exact, hi_exact) = match (&stats.min_value, &stats.max_value) {
        (Some(lo), Some(hi)) => (
            lo,
            hi,
            stats.is_min_value_exact.unwrap_or(true),
            stats.is_max_value_exact.unwrap_or(true),
        ),
        _ => match (&stats.min, &stats.max) {
            (Some(lo), Some(hi)) if kind.legacy_min_max_valid() => (lo, hi, true, true),
            _ => return out,
        },
    };
    let (Some(mut lo), Some(mut hi)) = (Scalar::from_plain(kind, lo), Scalar::from_plain(kind, hi))
    else {
        return out;
    };
    match (&mut lo, &mut hi) {
        (Scalar::Float(a), Scalar::Float(b)) => {
            if a.is_nan() || b.is_nan() {
                return out;
            }
            if *a == 0.0 {
                *a = -0.0;
            }
            if *b == 0.0 {
                *b = 0.0;
            }
        }
        (Scalar::Double(a), Scalar::Double(b)) => {
            if a.is_nan() || b.is_nan() {
                return out;
            }
            if *a == 0.0 {
                *a = -0.0;
            }
            if *b == 0.0 {
                *b = 0.0;
            }
        }
        (Scalar::Bytes(a), Scalar::Bytes(b)) if kind == StatKind::Float16 => {
            if half_of(a).is_nan() || half_of(b).is_nan() {
                return out;
            }
            if half_of(a) == 0.0 {
                *a = alloc::vec![0x00, 0x80];
            }
            if half_of(b) == 0.0 {
                *b = alloc::vec![0x00, 0x00];
            }
        }
        _ => {}
    }
    out.min = Some(lo);
    out.max = Some(hi);
    out.is_min_exact = lo_exact;
    out.is_max_exact = hi_exact;
    out
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
    fn sort_orders_from_annotations() {
        use LogicalType as L;
        use PhysicalType as P;
        let int = |bit_width, is_signed| L::Integer {
            bit_width,
            is_signed,
        };
        assert_eq!(StatKind::of(P::Int32, None, None, None), StatKind::Int32);
        assert_eq!(
            StatKind::of(P::Int32, None, Some(&int(8, false)), None),
            StatKind::UInt32
        );
        assert_eq!(
            StatKind::of(P::Int64, None, None, Some(ConvertedType::Uint64)),
            StatKind::UInt64
        );
        assert_eq!(StatKind::of(P::Int96, None, None, None), StatKind::Int96);
        assert_eq!(
            StatKind::of(
                P::FixedLenByteArray,
                Some(12),
                None,
                Some(ConvertedType::Interval)
            ),
            StatKind::Undefined
        );
        let dec = L::Decimal {
            scale: 2,
            precision: 9,
        };
        assert_eq!(
            StatKind::of(P::Int32, None, Some(&dec), None),
            StatKind::Int32
        );
        assert_eq!(
            StatKind::of(P::FixedLenByteArray, Some(4), Some(&dec), None),
            StatKind::Decimal
        );
        assert_eq!(
            StatKind::of(P::FixedLenByteArray, Some(2), Some(&L::Float16), None),
            StatKind::Float16
        );
        assert_eq!(
            StatKind::of(P::ByteArray, None, Some(&L::String), None),
            StatKind::Bytes
        );
        assert_eq!(StatKind::Bytes.sort_order(), SortOrder::Unsigned);
        assert_eq!(StatKind::Decimal.sort_order(), SortOrder::Signed);
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
    fn truncation() {
        assert_eq!(
            truncate_min(b"abcdef".to_vec(), 3),
            (b"abc".to_vec(), false)
        );
        assert_eq!(
            truncate_max(b"abcdef".to_vec(), 3),
            (b"abd".to_vec(), false)
        );
        assert_eq!(truncate_max(b"abc".to_vec(), 3), (b"abc".to_vec(), true));
        assert_eq!(
            truncate_max(vec![0x61, 0xff, 0xff, 0xfe, 0x80], 3),
            (vec![0x62], false)
        );
        // Not UTF-8 (0xff) and nothing to increment: kept whole.
        assert_eq!(truncate_max(vec![0xff; 5], 3), (vec![0xff; 5], true));
        // UTF-8: "ééé" cut at 3 bytes -> "é" (2 bytes), max rounds up to "ê".
        let s = "ééé".as_bytes().to_vec();
        assert_eq!(truncate_min(s.clone(), 3), ("é".as_bytes().to_vec(), false));
        assert_eq!(truncate_max(s, 3), ("ê".as_bytes().to_vec(), false));
        let mut b = StatisticsBuilder::new(StatKind::Bytes);
        b.update(ValuesRef::ByteArray(strings(&["aaaa", "bbbb"]).as_ref()))
            .unwrap();
        let f = b.to_format(Some(2));
        assert_eq!(f.min_value.unwrap(), b"aa");
        assert_eq!(f.max_value.unwrap(), b"bc");
        assert_eq!(
            (f.is_min_value_exact, f.is_max_value_exact),
            (Some(false), Some(false))
        );
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

    #[test]
    fn decode_rules() {
        let st = Statistics {
            min: Some(vec![0xff, 0xff, 0xff, 0xff]),
            max: Some(vec![1, 0, 0, 0]),
            null_count: Some(-3),
            ..Default::default()
        };
        let d = decode(&st, StatKind::Int32, None);
        assert_eq!(d.min, Some(Scalar::Int32(-1)));
        assert_eq!(d.null_count, None);
        // The deprecated fields are signed: not usable for unsigned or strings.
        assert_eq!(decode(&st, StatKind::UInt32, None).min, None);
        let st = Statistics {
            min: Some(b"a".to_vec()),
            max: Some(b"z".to_vec()),
            ..Default::default()
        };
        assert_eq!(
            decode(&st, StatKind::Bytes, Some(&ColumnOrder::TypeOrder)).min,
            None
        );
        // NaN drops both; zeros widen.
        let st = Statistics {
            min_value: Some(0f64.to_le_bytes().to_vec()),
            max_value: Some((-0f64).to_le_bytes().to_vec()),
            ..Default::default()
        };
        let d = decode(&st, StatKind::Double, Some(&ColumnOrder::TypeOrder));
        assert_eq!(d.min.unwrap().to_plain(), (-0f64).to_le_bytes());
        assert_eq!(d.max.unwrap().to_plain(), 0f64.to_le_bytes());
        let st = Statistics {
            min_value: Some(f64::NAN.to_le_bytes().to_vec()),
            max_value: Some(1f64.to_le_bytes().to_vec()),
            ..Default::default()
        };
        assert_eq!(
            decode(&st, StatKind::Double, Some(&ColumnOrder::TypeOrder)).min,
            None
        );
        // Wrong length, unknown order: ignored.
        let st = Statistics {
            min_value: Some(vec![1, 2]),
            max_value: Some(vec![1, 2, 3, 4]),
            ..Default::default()
        };
        assert_eq!(
            decode(&st, StatKind::Int32, Some(&ColumnOrder::TypeOrder)).max,
            None
        );
        let st = Statistics {
            min_value: Some(vec![1, 0, 0, 0]),
            max_value: Some(vec![2, 0, 0, 0]),
            is_max_value_exact: Some(false),
            ..Default::default()
        };
        let d = decode(&st, StatKind::Int32, Some(&ColumnOrder::TypeOrder));
        assert_eq!((d.is_min_exact, d.is_max_exact), (true, false));
        let unknown = ColumnOrder::Unknown { field_id: 9 };
        assert_eq!(decode(&st, StatKind::Int32, Some(&unknown)).min, None);
    }
}
