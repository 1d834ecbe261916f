//! Sort orders: how the min and max of each column type compare, and the typed value
//! ([`Scalar`]) a min or max is.
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
//! Worked example: the same bytes in two orders. `ff 00` is the DECIMAL -256 and `7f` is 127
//! (big-endian two's complement, sign-extended to the longer length), so as DECIMAL
//! `ff 00 < 7f`; as a plain BYTE_ARRAY the first byte decides, `ff > 7f`.
//!
//! ```
//! use core::cmp::Ordering;
//! use parket::statistics::{compare_bytes, StatKind};
//! assert_eq!(compare_bytes(StatKind::Decimal, &[0xff, 0x00], &[0x7f]), Ordering::Less);
//! assert_eq!(compare_bytes(StatKind::Bytes, &[0xff, 0x00], &[0x7f]), Ordering::Greater);
//! ```

use alloc::vec::Vec;
use core::cmp::Ordering;

use crate::format::{ConvertedType, LogicalType, PhysicalType};

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
pub(super) fn int96_key(b: &[u8]) -> Option<(i32, i64)> {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
