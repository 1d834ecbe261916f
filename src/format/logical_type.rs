//! `LogicalType`: what the stored values mean (LogicalTypes.md), the union that supersedes
//! [`ConvertedType`](crate::format::ConvertedType).

use alloc::string::String;

use crate::format::EdgeInterpolationAlgorithm;

/// Unit of TIME and TIMESTAMP values (Thrift union `TimeUnit`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TimeUnit {
    /// Milliseconds (field 1, `MILLIS`).
    Millis,
    /// Microseconds (field 2, `MICROS`).
    Micros,
    /// Nanoseconds (field 3, `NANOS`).
    Nanos,
}

impl TimeUnit {
    /// The spec's spelling: `MILLIS`, `MICROS`, `NANOS`.
    pub fn name(self) -> &'static str {
        match self {
            TimeUnit::Millis => "MILLIS",
            TimeUnit::Micros => "MICROS",
            TimeUnit::Nanos => "NANOS",
        }
    }
}

/// The logical type of a column (Thrift union `LogicalType`), one variant per union member,
/// in field-id order.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum LogicalType {
    /// Field 1: UTF-8 text.
    String,
    /// Field 2: a map.
    Map,
    /// Field 3: a list.
    List,
    /// Field 4: an enum stored as text.
    Enum,
    /// Field 5: a decimal `unscaled * 10^-scale`.
    Decimal {
        /// Digits after the point.
        scale: i32,
        /// Total digits.
        precision: i32,
    },
    /// Field 6: days since 1970-01-01.
    Date,
    /// Field 7: time of day.
    Time {
        /// Whether the time is in UTC (`isAdjustedToUTC`).
        is_adjusted_to_utc: bool,
        /// Unit.
        unit: TimeUnit,
    },
    /// Field 8: an instant or a local date-time.
    Timestamp {
        /// Whether the value is an instant in UTC (`isAdjustedToUTC`).
        is_adjusted_to_utc: bool,
        /// Unit.
        unit: TimeUnit,
    },
    /// Field 10: an integer of a given width and signedness.
    Integer {
        /// 8, 16, 32 or 64 (`bitWidth`).
        bit_width: i8,
        /// `isSigned`.
        is_signed: bool,
    },
    /// Field 11: always null (`NullType`).
    Unknown,
    /// Field 12: JSON text.
    Json,
    /// Field 13: a BSON document.
    Bson,
    /// Field 14: a UUID in a FIXED_LEN_BYTE_ARRAY(16).
    Uuid,
    /// Field 15: a half-precision float in a FIXED_LEN_BYTE_ARRAY(2).
    Float16,
    /// Field 16: a semi-structured value (metadata + value binaries).
    Variant {
        /// `specification_version`.
        specification_version: Option<i8>,
    },
    /// Field 17: geometry in WKB.
    Geometry {
        /// Coordinate reference system.
        crs: Option<String>,
    },
    /// Field 18: geography in WKB.
    Geography {
        /// Coordinate reference system.
        crs: Option<String>,
        /// Edge interpolation.
        algorithm: Option<EdgeInterpolationAlgorithm>,
    },
}
