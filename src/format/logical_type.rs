//! `LogicalType`: what the stored values mean (LogicalTypes.md), the union that supersedes
//! [`ConvertedType`](crate::format::ConvertedType), and `TimeUnit`.
//!
//! Spec: parquet.thrift, `union LogicalType` and the structs of its members:
//!
//! ```text
//! union LogicalType {
//!   1: StringType STRING   2: MapType MAP   3: ListType LIST   4: EnumType ENUM
//!   5: DecimalType DECIMAL 6: DateType DATE 7: TimeType TIME   8: TimestampType TIMESTAMP
//!   10: IntType INTEGER    11: NullType UNKNOWN 12: JsonType JSON 13: BsonType BSON
//!   14: UUIDType UUID      15: Float16Type FLOAT16 16: VariantType VARIANT
//!   17: GeometryType GEOMETRY 18: GeographyType GEOGRAPHY 19: FileType FILE
//! }
//! union TimeUnit { 1: MilliSeconds MILLIS 2: MicroSeconds MICROS 3: NanoSeconds NANOS }
//! ```
//!
//! A union is a struct with exactly one field set. Worked example,
//! `TIMESTAMP(isAdjustedToUTC = true, unit = MICROS)`:
//!
//! ```text
//! 8c          field 8 (delta 8), type 12 = STRUCT: TimestampType
//!   11        field 1 (delta 1), BOOL_TRUE: isAdjustedToUTC = true
//!   1c        field 2 (delta 1), STRUCT: TimeUnit
//!     2c      field 2 (delta 2), STRUCT: MicroSeconds
//!       00    stop (MicroSeconds is empty)
//!     00      stop (TimeUnit)
//!   00        stop (TimestampType)
//! 00          stop (LogicalType)
//! ```
//!
//! ```
//! use parket::format::{LogicalType, TimeUnit};
//! let t = LogicalType::Timestamp { is_adjusted_to_utc: true, unit: TimeUnit::Micros };
//! let mut out = Vec::new();
//! t.encode(&mut out);
//! assert_eq!(out, [0x8c, 0x11, 0x1c, 0x2c, 0x00, 0x00, 0x00, 0x00]);
//! assert_eq!(LogicalType::decode(&out).unwrap(), (t, 8));
//! ```
//!
//! A member this crate does not know (a newer spec's) decodes as
//! [`LogicalType::Unrecognized`], so that the column stays readable by its physical type.

use alloc::string::String;
use alloc::vec::Vec;

use crate::error::Result;
use crate::format::EdgeInterpolationAlgorithm;
use crate::thrift::{
    read_empty, read_empty_union, read_union, thrift_struct, write_empty, Ctx, FieldDef, Reader,
    StructDef, ThriftType, Ty, Writer, BINARY, BOOL_FALSE, BOOL_TRUE, BYTE, I32, STRUCT,
};

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
    /// Field 19: a group that refers to a file or a byte range (`FileType`).
    File,
    /// A member this crate does not know (from a newer spec), by field id; its contents were
    /// skipped. Re-encoded as an empty struct with that id.
    Unrecognized {
        /// The union member's field id.
        field_id: i16,
    },
}

macro_rules! empty_structs {
    ($($(#[$m:meta])* $name:ident),* $(,)?) => {
        $(
            thrift_struct! {
                $(#[$m])*
                #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
                pub struct $name {}
            }
        )*
    };
}

empty_structs! {
    /// `StringType` (LogicalType member STRING).
    StringType,
    /// `UUIDType` (member UUID).
    UUIDType,
    /// `MapType` (member MAP).
    MapType,
    /// `ListType` (member LIST).
    ListType,
    /// `EnumType` (member ENUM).
    EnumType,
    /// `DateType` (member DATE).
    DateType,
    /// `Float16Type` (member FLOAT16).
    Float16Type,
    /// `NullType` (member UNKNOWN).
    NullType,
    /// `MilliSeconds` (TimeUnit member MILLIS).
    MilliSeconds,
    /// `MicroSeconds` (TimeUnit member MICROS).
    MicroSeconds,
    /// `NanoSeconds` (TimeUnit member NANOS).
    NanoSeconds,
    /// `JsonType` (member JSON).
    JsonType,
    /// `BsonType` (member BSON).
    BsonType,
    /// `FileType` (member FILE).
    FileType,
}

thrift_struct! {
    /// `DecimalType` (member DECIMAL).
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct DecimalType {
        /// Digits after the point.
        1: required scale: i32,
        /// Total digits.
        2: required precision: i32,
    }
}

thrift_struct! {
    /// `TimestampType` (member TIMESTAMP).
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct TimestampType {
        /// `isAdjustedToUTC`.
        1: required is_adjusted_to_utc: bool,
        /// Unit.
        2: required unit: TimeUnit,
    }
}

thrift_struct! {
    /// `TimeType` (member TIME).
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct TimeType {
        /// `isAdjustedToUTC`.
        1: required is_adjusted_to_utc: bool,
        /// Unit.
        2: required unit: TimeUnit,
    }
}

thrift_struct! {
    /// `IntType` (member INTEGER).
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct IntType {
        /// `bitWidth`: 8, 16, 32 or 64.
        1: required bit_width: i8,
        /// `isSigned`.
        2: required is_signed: bool,
    }
}

thrift_struct! {
    /// `VariantType` (member VARIANT).
    #[derive(Debug, Clone, PartialEq, Eq, Default)]
    pub struct VariantType {
        /// Version of the Variant specification.
        1: optional specification_version: i8,
    }
}

thrift_struct! {
    /// `GeometryType` (member GEOMETRY).
    #[derive(Debug, Clone, PartialEq, Eq, Default)]
    pub struct GeometryType {
        /// Coordinate reference system.
        1: optional crs: String,
    }
}

thrift_struct! {
    /// `GeographyType` (member GEOGRAPHY).
    #[derive(Debug, Clone, PartialEq, Eq, Default)]
    pub struct GeographyType {
        /// Coordinate reference system.
        1: optional crs: String,
        /// Edge interpolation.
        2: optional algorithm: EdgeInterpolationAlgorithm,
    }
}

const fn member(id: i16, name: &'static str, ty: &'static str) -> FieldDef {
    FieldDef {
        id,
        name,
        ty: Ty::Struct(ty),
        required: false,
    }
}

impl StructDef for TimeUnit {
    const NAME: &'static str = "TimeUnit";
    const IS_UNION: bool = true;
    const FIELDS: &'static [FieldDef] = &[
        member(1, "MILLIS", "MilliSeconds"),
        member(2, "MICROS", "MicroSeconds"),
        member(3, "NANOS", "NanoSeconds"),
    ];
}

impl crate::thrift::__Placeholder for TimeUnit {
    fn placeholder() -> Self {
        TimeUnit::Millis
    }
}

impl ThriftType for TimeUnit {
    const TY: Ty = Ty::Struct("TimeUnit");
    const WIRE: u8 = STRUCT;
    fn read(r: &mut Reader<'_>, _: Ctx) -> Result<Self> {
        // Members 1, 2 and 3; any other is an error.
        let id = read_empty_union(
            r,
            "TimeUnit must have exactly one member",
            "TimeUnit union member",
            0b1110,
            false,
        )?;
        Ok(match id {
            1 => TimeUnit::Millis,
            2 => TimeUnit::Micros,
            _ => TimeUnit::Nanos,
        })
    }
    fn write(&self, w: &mut Writer<'_>) {
        let saved = w.struct_begin();
        let id = match self {
            TimeUnit::Millis => 1,
            TimeUnit::Micros => 2,
            TimeUnit::Nanos => 3,
        };
        write_empty(w, id);
        w.struct_end(saved);
    }
}

impl StructDef for LogicalType {
    const NAME: &'static str = "LogicalType";
    const IS_UNION: bool = true;
    const FIELDS: &'static [FieldDef] = &[
        member(1, "STRING", "StringType"),
        member(2, "MAP", "MapType"),
        member(3, "LIST", "ListType"),
        member(4, "ENUM", "EnumType"),
        member(5, "DECIMAL", "DecimalType"),
        member(6, "DATE", "DateType"),
        member(7, "TIME", "TimeType"),
        member(8, "TIMESTAMP", "TimestampType"),
        member(10, "INTEGER", "IntType"),
        member(11, "UNKNOWN", "NullType"),
        member(12, "JSON", "JsonType"),
        member(13, "BSON", "BsonType"),
        member(14, "UUID", "UUIDType"),
        member(15, "FLOAT16", "Float16Type"),
        member(16, "VARIANT", "VariantType"),
        member(17, "GEOMETRY", "GeometryType"),
        member(18, "GEOGRAPHY", "GeographyType"),
        member(19, "FILE", "FileType"),
    ];
}

/// What a field of a member struct of `LogicalType` holds, for [`read_member`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum Field {
    /// No such field: skipped as unknown.
    Absent,
    /// An `i32`.
    Int32,
    /// An `i8` (`byte`).
    Byte,
    /// A `bool`.
    Bool,
    /// A [`TimeUnit`].
    Unit,
    /// A `string` (`crs`).
    Crs,
    /// An [`EdgeInterpolationAlgorithm`].
    Algorithm,
}

/// Reads member `id` of `LogicalType` when it is one of the seven structs with fields
/// (`DecimalType`, `TimeType`, `TimestampType`, `IntType`, `VariantType`, `GeometryType`,
/// `GeographyType`: at most two fields, ids 1 and 2). One function for the seven instead of
/// a decoder each (their `thrift_struct!` decoders, which the tests compare it with, on
/// arbitrary bytes): the same values, bytes consumed and errors. As every struct decoder
/// here, it skips an unknown field and one of an unexpected wire type, keeps the last value of
/// a repeated field, and fails, at the struct's offset, naming the first required field that
/// is missing.
#[inline(never)]
fn read_member(r: &mut Reader<'_>, wire: u8, id: i16) -> Result<LogicalType> {
    use Field::{Absent, Algorithm, Bool, Byte, Crs, Int32, Unit};
    use LogicalType as L;
    if wire != STRUCT {
        return Err(
            crate::error::Error::out_of_spec("union member is not a struct")
                .at_offset(r.position() as u64),
        );
    }
    let fields = match id {
        5 => [Int32, Int32],
        7 | 8 => [Bool, Unit],
        10 => [Byte, Bool],
        16 => [Byte, Absent],
        17 => [Crs, Absent],
        _ => [Crs, Algorithm],
    };
    let start = r.position() as u64;
    r.struct_begin()?;
    // Integers, bools and the algorithm's number by field, and whether each was read.
    let mut int = [0i64; 2];
    let mut seen = [false; 2];
    let mut unit = TimeUnit::Millis;
    let mut crs = None;
    let mut last = 0i16;
    while let Some((field_id, wire)) = r.field_header(&mut last)? {
        let i = usize::from(field_id == 2);
        let field = if field_id == 1 || field_id == 2 {
            fields[i]
        } else {
            Absent
        };
        let accepts = match field {
            Absent => false,
            Int32 | Algorithm => wire == I32,
            Byte => wire == BYTE,
            Bool => wire == BOOL_TRUE || wire == BOOL_FALSE,
            Unit => wire == STRUCT,
            Crs => wire == BINARY,
        };
        if !accepts {
            r.skip(wire)?;
            continue;
        }
        int[i] = match field {
            Int32 => r.i32()?.into(),
            Byte => r.i8()?.into(),
            Algorithm => r
                .enum_value(
                    EdgeInterpolationAlgorithm::WHAT,
                    EdgeInterpolationAlgorithm::VALID,
                )?
                .into(),
            Unit => {
                unit = TimeUnit::read(r, Ctx::NONE)?;
                0
            }
            Crs => {
                let not_utf8 = if id == 17 {
                    "string field GeometryType.crs is not valid UTF-8"
                } else {
                    "string field GeographyType.crs is not valid UTF-8"
                };
                crs = Some(String::read(
                    r,
                    Ctx {
                        field: "",
                        not_utf8,
                    },
                )?);
                0
            }
            // Bool (`Absent` accepts no wire type).
            _ => r.bool_field(wire)?.into(),
        };
        seen[i] = true;
    }
    r.struct_end();
    // The fields of DECIMAL, TIME, TIMESTAMP and INTEGER are required, the others optional.
    if matches!(id, 5 | 7 | 8 | 10) {
        if let Some(i) = seen.iter().position(|&s| !s) {
            let structure = match id {
                5 => "DecimalType",
                7 => "TimeType",
                8 => "TimestampType",
                _ => "IntType",
            };
            let field = match (id, i) {
                (5, 0) => "scale",
                (5, _) => "precision",
                (7 | 8, 0) => "is_adjusted_to_utc",
                (7 | 8, _) => "unit",
                (_, 0) => "bit_width",
                _ => "is_signed",
            };
            let e = crate::error::Error::missing_field(structure, field);
            return Err(e.at_offset(start));
        }
    }
    // Each integer is in range for its field's type (`Reader::i32`, `i8`).
    let [a, b] = int;
    Ok(match id {
        5 => L::Decimal {
            scale: a as i32,
            precision: b as i32,
        },
        7 => L::Time {
            is_adjusted_to_utc: a != 0,
            unit,
        },
        8 => L::Timestamp {
            is_adjusted_to_utc: a != 0,
            unit,
        },
        10 => L::Integer {
            bit_width: a as i8,
            is_signed: b != 0,
        },
        16 => L::Variant {
            specification_version: seen[0].then_some(a as i8),
        },
        17 => L::Geometry { crs },
        _ => L::Geography {
            crs,
            algorithm: seen[1].then(|| EdgeInterpolationAlgorithm::from_valid(b as u8)),
        },
    })
}

/// Writes a union member that is a struct `T`.
fn write_member<T: ThriftType>(w: &mut Writer<'_>, id: i16, v: &T) {
    w.field_header(id, STRUCT);
    v.write(w);
}

impl ThriftType for LogicalType {
    const TY: Ty = Ty::Struct("LogicalType");
    const WIRE: u8 = STRUCT;
    fn read(r: &mut Reader<'_>, _: Ctx) -> Result<Self> {
        const WHAT: &str = "LogicalType union member is not a struct";
        read_union(
            r,
            "LogicalType must have exactly one member",
            |r, id, wire| {
                use LogicalType as L;
                let v = match id {
                    5 | 7 | 8 | 10 | 16 | 17 | 18 => return read_member(r, wire, id).map(Some),
                    // The members that are empty structs.
                    1 => L::String,
                    2 => L::Map,
                    3 => L::List,
                    4 => L::Enum,
                    6 => L::Date,
                    11 => L::Unknown,
                    12 => L::Json,
                    13 => L::Bson,
                    14 => L::Uuid,
                    15 => L::Float16,
                    19 => L::File,
                    _ => return Ok(None),
                };
                read_empty(r, wire, WHAT)?;
                Ok(Some(v))
            },
            // Forward compatibility: a newer logical type keeps the file readable.
            |field_id| Some(LogicalType::Unrecognized { field_id }),
        )
    }

    fn write(&self, w: &mut Writer<'_>) {
        use LogicalType as L;
        let saved = w.struct_begin();
        match self {
            L::String => write_empty(w, 1),
            L::Map => write_empty(w, 2),
            L::List => write_empty(w, 3),
            L::Enum => write_empty(w, 4),
            L::Decimal { scale, precision } => write_member(
                w,
                5,
                &DecimalType {
                    scale: *scale,
                    precision: *precision,
                },
            ),
            L::Date => write_empty(w, 6),
            L::Time {
                is_adjusted_to_utc,
                unit,
            } => write_member(
                w,
                7,
                &TimeType {
                    is_adjusted_to_utc: *is_adjusted_to_utc,
                    unit: *unit,
                },
            ),
            L::Timestamp {
                is_adjusted_to_utc,
                unit,
            } => write_member(
                w,
                8,
                &TimestampType {
                    is_adjusted_to_utc: *is_adjusted_to_utc,
                    unit: *unit,
                },
            ),
            L::Integer {
                bit_width,
                is_signed,
            } => write_member(
                w,
                10,
                &IntType {
                    bit_width: *bit_width,
                    is_signed: *is_signed,
                },
            ),
            L::Unknown => write_empty(w, 11),
            L::Json => write_empty(w, 12),
            L::Bson => write_empty(w, 13),
            L::Uuid => write_empty(w, 14),
            L::Float16 => write_empty(w, 15),
            L::Variant {
                specification_version,
            } => write_member(
                w,
                16,
                &VariantType {
                    specification_version: *specification_version,
                },
            ),
            L::Geometry { crs } => write_member(w, 17, &GeometryType { crs: crs.clone() }),
            L::Geography { crs, algorithm } => write_member(
                w,
                18,
                &GeographyType {
                    crs: crs.clone(),
                    algorithm: *algorithm,
                },
            ),
            L::File => write_empty(w, 19),
            L::Unrecognized { field_id } => write_empty(w, *field_id),
        }
        w.struct_end(saved);
    }
}

impl LogicalType {
    /// Decodes a `LogicalType` from the start of `buf`: the value and the bytes it took.
    /// Never panics, for any input.
    pub fn decode(buf: &[u8]) -> Result<(LogicalType, usize)> {
        crate::thrift::decode_prefix(buf, crate::Limits::default().nesting_depth)
    }

    /// Appends the Thrift compact encoding of `self` to `out`.
    pub fn encode(&self, out: &mut Vec<u8>) {
        crate::thrift::encode(self, out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;
    use proptest::prelude::*;

    /// The reader `LogicalType` had before [`read_member`]: each member struct through its own
    /// `thrift_struct!` decoder (the default one, or the compact one when the reader says so).
    fn read_by_member_structs(r: &mut Reader<'_>) -> Result<LogicalType> {
        fn member<T: ThriftType>(r: &mut Reader<'_>, wire: u8) -> Result<T> {
            if wire != STRUCT {
                return Err(
                    crate::error::Error::out_of_spec("union member is not a struct")
                        .at_offset(r.position() as u64),
                );
            }
            T::read(r, Ctx::NONE)
        }
        const WHAT: &str = "LogicalType union member is not a struct";
        read_union(
            r,
            "LogicalType must have exactly one member",
            |r, id, wire| {
                use LogicalType as L;
                let empty = |r: &mut Reader<'_>, v: L| read_empty(r, wire, WHAT).map(|_| Some(v));
                match id {
                    1 => empty(r, L::String),
                    2 => empty(r, L::Map),
                    3 => empty(r, L::List),
                    4 => empty(r, L::Enum),
                    5 => member(r, wire).map(|d: DecimalType| {
                        Some(L::Decimal {
                            scale: d.scale,
                            precision: d.precision,
                        })
                    }),
                    6 => empty(r, L::Date),
                    7 => member(r, wire).map(|t: TimeType| {
                        Some(L::Time {
                            is_adjusted_to_utc: t.is_adjusted_to_utc,
                            unit: t.unit,
                        })
                    }),
                    8 => member(r, wire).map(|t: TimestampType| {
                        Some(L::Timestamp {
                            is_adjusted_to_utc: t.is_adjusted_to_utc,
                            unit: t.unit,
                        })
                    }),
                    10 => member(r, wire).map(|t: IntType| {
                        Some(L::Integer {
                            bit_width: t.bit_width,
                            is_signed: t.is_signed,
                        })
                    }),
                    11 => empty(r, L::Unknown),
                    12 => empty(r, L::Json),
                    13 => empty(r, L::Bson),
                    14 => empty(r, L::Uuid),
                    15 => empty(r, L::Float16),
                    16 => member(r, wire).map(|t: VariantType| {
                        Some(L::Variant {
                            specification_version: t.specification_version,
                        })
                    }),
                    17 => member(r, wire).map(|t: GeometryType| Some(L::Geometry { crs: t.crs })),
                    18 => member(r, wire).map(|t: GeographyType| {
                        Some(L::Geography {
                            crs: t.crs,
                            algorithm: t.algorithm,
                        })
                    }),
                    19 => empty(r, L::File),
                    _ => Ok(None),
                }
            },
            |field_id| Some(LogicalType::Unrecognized { field_id }),
        )
    }

    /// `LogicalType::read` and the reference, with both struct decoders: value and bytes
    /// consumed, or the error with its location, as text.
    fn compare(data: &[u8], depth: u32) -> core::result::Result<(), TestCaseError> {
        let new = {
            let mut r = Reader::new(data, depth);
            let v = LogicalType::read(&mut r, Ctx::NONE).map(|v| (v, r.position()));
            format!("{v:?}")
        };
        for compact in [false, true] {
            let mut r = Reader::new(data, depth);
            r.compact = compact;
            let v = read_by_member_structs(&mut r).map(|v| (v, r.position()));
            prop_assert_eq!(&new, &format!("{v:?}"));
        }
        Ok(())
    }

    /// The member structs with fields, encoded by their own encoders with arbitrary field
    /// values (absent ones too), inside a union member of any id from 0 to 20.
    fn member_bytes() -> impl Strategy<Value = Vec<u8>> {
        let unit = prop_oneof![
            Just(TimeUnit::Millis),
            Just(TimeUnit::Micros),
            Just(TimeUnit::Nanos)
        ];
        let algorithm = prop::sample::select(EdgeInterpolationAlgorithm::ALL);
        (
            0i16..21,
            any::<i32>(),
            any::<i32>(),
            any::<bool>(),
            unit,
            proptest::option::of(any::<i8>()),
            proptest::option::of(".{0,3}"),
            proptest::option::of(algorithm),
            0u8..7,
        )
            .prop_map(|(id, a, b, flag, unit, byte, crs, algorithm, which)| {
                let mut out = Vec::new();
                let mut w = Writer::new(&mut out);
                let saved = w.struct_begin();
                match which {
                    0 => write_member(
                        &mut w,
                        id,
                        &DecimalType {
                            scale: a,
                            precision: b,
                        },
                    ),
                    1 => write_member(
                        &mut w,
                        id,
                        &TimeType {
                            is_adjusted_to_utc: flag,
                            unit,
                        },
                    ),
                    2 => write_member(
                        &mut w,
                        id,
                        &IntType {
                            bit_width: a as i8,
                            is_signed: flag,
                        },
                    ),
                    3 => write_member(
                        &mut w,
                        id,
                        &VariantType {
                            specification_version: byte,
                        },
                    ),
                    4 => write_member(&mut w, id, &GeometryType { crs }),
                    5 => write_member(&mut w, id, &GeographyType { crs, algorithm }),
                    _ => write_empty(&mut w, id),
                }
                w.struct_end(saved);
                out
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]

        /// [`read_member`] reads what the member structs' own decoders read, on arbitrary
        /// bytes ...
        #[test]
        fn read_member_matches_member_structs_on_arbitrary_bytes(
            data in proptest::collection::vec(any::<u8>(), 0..40),
            depth in prop_oneof![Just(64u32), 1u32..5],
        ) {
            compare(&data, depth)?;
        }

        /// ... and on members of every id holding every member struct, with up to three
        /// bytes changed (truncated, wrong wire types, missing or repeated fields).
        #[test]
        fn read_member_matches_member_structs_on_mutated_members(
            mut data in member_bytes(),
            flips in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..4),
            cut in any::<prop::sample::Index>(),
            depth in prop_oneof![Just(64u32), 1u32..5],
        ) {
            compare(&data, depth)?;
            for &(i, b) in &flips {
                let i = i.index(data.len());
                data[i] = b;
            }
            compare(&data, depth)?;
            data.truncate(cut.index(data.len() + 1));
            compare(&data, depth)?;
        }
    }

    /// Hand-worked bytes: `INTEGER(bitWidth = 8)` without `isSigned` fails naming it, at the
    /// member struct's offset (1); `DECIMAL` with field 2 sent as BINARY skips it and fails
    /// on the missing precision.
    #[test]
    fn missing_required_member_fields_are_named() {
        // ac: field 10 (delta 10), STRUCT; 13 08: field 1, BYTE, 8; 00 stop; 00 stop.
        let e = LogicalType::decode(&[0xac, 0x13, 0x08, 0x00, 0x00]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid file: missing required field IntType.is_signed (byte offset 1)"
        );
        // 5c: field 5, STRUCT; 15 04: field 1, I32, 2; 18 01 78: field 2, BINARY "x"; 00; 00.
        let e = LogicalType::decode(&[0x5c, 0x15, 0x04, 0x18, 0x01, b'x', 0x00, 0x00]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid file: missing required field DecimalType.precision (byte offset 1)"
        );
    }
}
