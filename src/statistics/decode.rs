//! The reader's side of statistics: what of a footer's or page header's `Statistics` a reader
//! may trust ([`decode`] into [`DecodedStatistics`]), under the column's order.
//!
//! Spec: parquet.thrift `ColumnOrder` ("If the reader does not support the value of this
//! union, min and max stats for this column should be ignored"; INT96 only under
//! `INT96_TIMESTAMP_ORDER`) and `Statistics` (the deprecated `min` / `max` were computed in
//! signed order; readers must assume a zero bound may be either zero; negative counts mean
//! nothing).
//!
//! Worked example: an old writer's INT32 statistics with only the deprecated fields,
//! `min = ff ff ff ff`, `max = 01 00 00 00`, `null_count = -3`, read as min -1, max 1, no null
//! count; for an unsigned column the same bytes are not trusted (they are in signed order).
//!
//! ```
//! use parket::format::Statistics;
//! use parket::statistics::{decode, Scalar, StatKind};
//! let st = Statistics {
//!     min: Some(vec![0xff, 0xff, 0xff, 0xff]),
//!     max: Some(vec![0x01, 0x00, 0x00, 0x00]),
//!     null_count: Some(-3),
//!     ..Default::default()
//! };
//! let d = decode(&st, StatKind::Int32, None);
//! assert_eq!((d.min, d.max, d.null_count), (Some(Scalar::Int32(-1)), Some(Scalar::Int32(1)), None));
//! assert_eq!(decode(&st, StatKind::UInt32, None).min, None);
//! ```

use super::order::{half_of, Scalar, StatKind};
use crate::format::{ColumnOrder, Statistics};

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
    use alloc::vec;

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
