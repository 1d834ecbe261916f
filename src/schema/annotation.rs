//! Annotations: which LogicalType / ConvertedType may annotate which node, and how the two
//! representations map onto each other (LogicalTypes.md, "Compatibility" and the
//! backward/forward-compatibility tables of each type).
//!
//! The schema tree keeps one *canonical* annotation per node: the logical type (read from the
//! file or derived from a ConvertedType with the backward-compatibility table) and the
//! ConvertedType that the forward-compatibility table pairs with it. Only two ConvertedTypes
//! have no LogicalType: `INTERVAL` (FIXED_LEN_BYTE_ARRAY(12)) and `MAP_KEY_VALUE` (a group);
//! they are kept as the node's converted type alone.

use crate::format::{ConvertedType, LogicalType, PhysicalType, TimeUnit};

/// The ConvertedType written next to a LogicalType, for old readers (LogicalTypes.md,
/// "forward compatibility" tables). `None` when the logical type has no ConvertedType
/// counterpart (TIME/TIMESTAMP with NANOS, UUID, FLOAT16, UNKNOWN, VARIANT, GEOMETRY,
/// GEOGRAPHY).
pub fn converted_type_of(logical: &LogicalType) -> Option<ConvertedType> {
    use ConvertedType as C;
    Some(match logical {
        LogicalType::String => C::Utf8,
        LogicalType::Map => C::Map,
        LogicalType::List => C::List,
        LogicalType::Enum => C::Enum,
        LogicalType::Decimal { .. } => C::Decimal,
        LogicalType::Date => C::Date,
        // Spec: writers "must annotate local time with legacy annotations too", so the
        // converted type does not depend on isAdjustedToUTC.
        LogicalType::Time { unit, .. } => match unit {
            TimeUnit::Millis => C::TimeMillis,
            TimeUnit::Micros => C::TimeMicros,
            TimeUnit::Nanos => return None,
        },
        LogicalType::Timestamp { unit, .. } => match unit {
            TimeUnit::Millis => C::TimestampMillis,
            TimeUnit::Micros => C::TimestampMicros,
            TimeUnit::Nanos => return None,
        },
        LogicalType::Integer {
            bit_width,
            is_signed,
        } => match (bit_width, is_signed) {
            (8, true) => C::Int8,
            (16, true) => C::Int16,
            (32, true) => C::Int32,
            (64, true) => C::Int64,
            (8, false) => C::Uint8,
            (16, false) => C::Uint16,
            (32, false) => C::Uint32,
            (64, false) => C::Uint64,
            _ => return None,
        },
        LogicalType::Json => C::Json,
        LogicalType::Bson => C::Bson,
        LogicalType::Unknown
        | LogicalType::Uuid
        | LogicalType::Float16
        | LogicalType::Variant { .. }
        | LogicalType::Geometry { .. }
        | LogicalType::Geography { .. }
        | LogicalType::File
        | LogicalType::Unrecognized { .. } => return None,
    })
}

/// The LogicalType a ConvertedType stands for (LogicalTypes.md, "backward compatibility"
/// tables): `TIMESTAMP_MILLIS` is `TIMESTAMP(MILLIS, isAdjustedToUTC=true)`, `UINT_8` is
/// `INTEGER(8, false)`, `DECIMAL` takes the element's scale (0 when absent, as the spec says)
/// and precision (required: `None` without it). `None` for `INTERVAL` and `MAP_KEY_VALUE`,
/// which have no LogicalType.
pub fn logical_type_of(
    converted: ConvertedType,
    scale: Option<i32>,
    precision: Option<i32>,
) -> Option<LogicalType> {
    use ConvertedType as C;
    let int = |bit_width: i8, is_signed: bool| LogicalType::Integer {
        bit_width,
        is_signed,
    };
    Some(match converted {
        C::Utf8 => LogicalType::String,
        C::Map => LogicalType::Map,
        C::List => LogicalType::List,
        C::Enum => LogicalType::Enum,
        C::Decimal => LogicalType::Decimal {
            // Spec: "If not specified, the scale is 0." Precision is required.
            scale: scale.unwrap_or(0),
            precision: precision?,
        },
        C::Date => LogicalType::Date,
        C::TimeMillis => LogicalType::Time {
            is_adjusted_to_utc: true,
            unit: TimeUnit::Millis,
        },
        C::TimeMicros => LogicalType::Time {
            is_adjusted_to_utc: true,
            unit: TimeUnit::Micros,
        },
        C::TimestampMillis => LogicalType::Timestamp {
            is_adjusted_to_utc: true,
            unit: TimeUnit::Millis,
        },
        C::TimestampMicros => LogicalType::Timestamp {
            is_adjusted_to_utc: true,
            unit: TimeUnit::Micros,
        },
        C::Uint8 => int(8, false),
        C::Uint16 => int(16, false),
        C::Uint32 => int(32, false),
        C::Uint64 => int(64, false),
        C::Int8 => int(8, true),
        C::Int16 => int(16, true),
        C::Int32 => int(32, true),
        C::Int64 => int(64, true),
        C::Json => LogicalType::Json,
        C::Bson => LogicalType::Bson,
        C::MapKeyValue | C::Interval => return None,
    })
}

/// Most decimal digits a FIXED_LEN_BYTE_ARRAY(`n`) holds: `floor(log10(2^(8n-1) - 1))`
/// (LogicalTypes.md, DECIMAL). Since `2^m` is never a power of ten for `m > 0`, this equals
/// `floor((8n-1) * log10(2))`, computed in integers with log10(2) in binary fixed point,
/// `floor(log10(2) * 2^90)`: exact for every `n` below 2^31 (the error is below
/// `(8n-1) * 2^-90`), and no 128-bit division (which linked `__udivti3` into every reader).
pub fn max_decimal_precision_for_flba(n: u64) -> u64 {
    if n == 0 {
        return 0;
    }
    const LOG10_2_Q90: u128 = 0x0134_4135_09f7_9fef_311f_12b3; // floor(log10(2) * 2^90)
    const SPLIT: u32 = 45;
    let bits = 8 * n as u128 - 1;
    // (bits * LOG10_2_Q90) >> 90 in two products that cannot overflow: the constant's high
    // and low 45 bits.
    let hi = bits * (LOG10_2_Q90 >> SPLIT);
    let lo = bits * (LOG10_2_Q90 & ((1 << SPLIT) - 1));
    ((hi + (lo >> SPLIT)) >> SPLIT) as u64
}

/// Checks that `logical` may annotate a leaf of `physical` type (with `type_length` bytes
/// for FIXED_LEN_BYTE_ARRAY). `Err` says why not.
pub fn check_primitive<const STRICT: bool>(
    logical: &LogicalType,
    physical: PhysicalType,
    type_length: Option<usize>,
) -> Result<(), &'static str> {
    use PhysicalType as P;
    let ok = |cond: bool, message: &'static str| {
        if cond {
            Ok(())
        } else {
            Err(why::<STRICT>(message))
        }
    };
    match logical {
        // Spec: STRING "may only be used to annotate the BYTE_ARRAY primitive type"; ENUM,
        // JSON, BSON, GEOMETRY and GEOGRAPHY "annotate"/"must annotate" BYTE_ARRAY.
        LogicalType::String => ok(physical == P::ByteArray, "STRING annotates BYTE_ARRAY only"),
        LogicalType::Enum => ok(physical == P::ByteArray, "ENUM annotates BYTE_ARRAY only"),
        LogicalType::Json => ok(physical == P::ByteArray, "JSON annotates BYTE_ARRAY only"),
        LogicalType::Bson => ok(physical == P::ByteArray, "BSON annotates BYTE_ARRAY only"),
        LogicalType::Geometry { .. } => ok(
            physical == P::ByteArray,
            "GEOMETRY annotates BYTE_ARRAY only",
        ),
        LogicalType::Geography { .. } => ok(
            physical == P::ByteArray,
            "GEOGRAPHY annotates BYTE_ARRAY only",
        ),
        // Spec: UUID annotates a 16-byte FIXED_LEN_BYTE_ARRAY; FLOAT16 a 2-byte one.
        LogicalType::Uuid => ok(
            physical == P::FixedLenByteArray && type_length == Some(16),
            "UUID annotates FIXED_LEN_BYTE_ARRAY(16) only",
        ),
        LogicalType::Float16 => ok(
            physical == P::FixedLenByteArray && type_length == Some(2),
            "FLOAT16 annotates FIXED_LEN_BYTE_ARRAY(2) only",
        ),
        LogicalType::Date => ok(physical == P::Int32, "DATE annotates INT32 only"),
        // Spec: TIME MILLIS on int32; MICROS and NANOS on int64.
        LogicalType::Time { unit, .. } => match unit {
            TimeUnit::Millis => ok(physical == P::Int32, "TIME(MILLIS) annotates INT32 only"),
            _ => ok(
                physical == P::Int64,
                "TIME(MICROS) and TIME(NANOS) annotate INT64 only",
            ),
        },
        LogicalType::Timestamp { .. } => ok(physical == P::Int64, "TIMESTAMP annotates INT64 only"),
        // Spec: INT(8|16|32, _) annotate int32, INT(64, _) annotates int64.
        LogicalType::Integer { bit_width, .. } => match bit_width {
            8 | 16 | 32 => ok(
                physical == P::Int32,
                "INTEGER of 8, 16 or 32 bits annotates INT32 only",
            ),
            64 => ok(physical == P::Int64, "INTEGER(64) annotates INT64 only"),
            _ => Err(why::<STRICT>("INTEGER bit width must be 8, 16, 32 or 64")),
        },
        LogicalType::Decimal { scale, precision } => {
            // Spec: "Precision is required and must be a non-zero positive integer";
            // "Scale must be zero or a positive integer less than or equal to the precision".
            if *precision < 1 {
                return Err(why::<STRICT>("DECIMAL precision must be at least 1"));
            }
            if *scale < 0 || scale > precision {
                return Err(why::<STRICT>(
                    "DECIMAL scale must be between 0 and the precision",
                ));
            }
            let p = *precision as u64;
            match physical {
                P::Int32 => ok(p <= 9, "DECIMAL on INT32 allows precision 1..=9"),
                P::Int64 => ok(p <= 18, "DECIMAL on INT64 allows precision 1..=18"),
                P::FixedLenByteArray => ok(
                    p <= max_decimal_precision_for_flba(type_length.unwrap_or(0) as u64),
                    "DECIMAL precision exceeds what the FIXED_LEN_BYTE_ARRAY length holds",
                ),
                P::ByteArray => Ok(()),
                _ => Err(why::<STRICT>(
                    "DECIMAL annotates INT32, INT64, BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY",
                )),
            }
        }
        // Spec: UNKNOWN (NullType) "may be used to annotate any type" whose values are all null.
        LogicalType::Unknown => Ok(()),
        LogicalType::Map | LogicalType::List | LogicalType::Variant { .. } | LogicalType::File => {
            Err(why::<STRICT>(
                "MAP, LIST, VARIANT and FILE annotate groups only",
            ))
        }
        // A member of a newer spec: the column reads as its physical type.
        LogicalType::Unrecognized { .. } => Err(why::<STRICT>("unrecognized logical type")),
    }
}

/// Checks that `logical` may annotate a group: MAP, LIST and VARIANT only.
pub fn check_group<const STRICT: bool>(logical: &LogicalType) -> Result<(), &'static str> {
    match logical {
        LogicalType::Map | LogicalType::List | LogicalType::Variant { .. } | LogicalType::File => {
            Ok(())
        }
        _ => Err(why::<STRICT>(
            "only MAP, LIST, VARIANT and FILE annotate groups",
        )),
    }
}

/// Checks a ConvertedType that has no LogicalType (`INTERVAL`, `MAP_KEY_VALUE`) against the
/// node it annotates. `physical` is `None` for a group.
pub fn check_converted_only<const STRICT: bool>(
    converted: ConvertedType,
    physical: Option<PhysicalType>,
    type_length: Option<usize>,
) -> Result<(), &'static str> {
    match converted {
        // Spec: INTERVAL "must annotate a fixed_len_byte_array of length 12".
        ConvertedType::Interval => {
            if physical == Some(PhysicalType::FixedLenByteArray) && type_length == Some(12) {
                Ok(())
            } else {
                Err(why::<STRICT>(
                    "INTERVAL annotates FIXED_LEN_BYTE_ARRAY(12) only",
                ))
            }
        }
        ConvertedType::MapKeyValue => {
            if physical.is_none() {
                Ok(())
            } else {
                Err(why::<STRICT>("MAP_KEY_VALUE annotates groups only"))
            }
        }
        _ => Err(why::<STRICT>(
            "this converted type needs its DECIMAL precision",
        )),
    }
}

/// The reason an annotation does not fit, as the strict mode (builder, parser) reports it. A
/// reader of files (`STRICT = false`) drops such an annotation without a word, so its
/// instances of the checks above carry no message: the strings are not linked into a reader.
#[inline(always)]
fn why<const STRICT: bool>(message: &'static str) -> &'static str {
    if STRICT {
        message
    } else {
        ""
    }
}
