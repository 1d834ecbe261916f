//! Parquet schema to Arrow schema, as pyarrow maps it, and the plan that builds each Arrow
//! array from the levels of its leaves.
//!
//! | Parquet | Arrow |
//! |---|---|
//! | BOOLEAN | Boolean |
//! | INT32 (none, INT(32, true)) / INT(8/16, s) / INT(8/16/32, false) | Int32 / Int8, Int16 / UInt8, UInt16, UInt32 |
//! | INT64 (none, INT(64, true)) / INT(64, false) | Int64 / UInt64 |
//! | INT32 DATE / TIME(MILLIS) | Date32 / Time32(ms) |
//! | INT64 TIME(MICROS/NANOS) / TIMESTAMP(unit, utc) | Time64 / Timestamp(unit, "UTC" when utc) |
//! | INT32 / INT64 / FIXED_LEN_BYTE_ARRAY / BYTE_ARRAY DECIMAL(p, s) | Decimal128(p, s) (Decimal256 past 38 digits) |
//! | INT96 | Timestamp(ns) |
//! | FLOAT / DOUBLE / FIXED_LEN_BYTE_ARRAY(2) FLOAT16 | Float32 / Float64 / Float16 |
//! | BYTE_ARRAY STRING, JSON, ENUM / other BYTE_ARRAY | Utf8 / Binary |
//! | FIXED_LEN_BYTE_ARRAY(n) (UUID included) | FixedSizeBinary(n) |
//! | group / LIST / MAP (legacy shapes included) | Struct / List / Map |
//! | a repeated field outside a LIST or MAP | List of the non-null field |
//!
//! pyarrow stores the Arrow schema it wrote in the key `ARROW:schema` ([`super::ipc`]); where
//! a field's stored type is a variant of the mapped one it is used instead, as pyarrow does:
//! time zones (not units), Duration, LargeUtf8/LargeBinary/Utf8View/BinaryView,
//! LargeList, Dictionary; field and schema metadata are kept.
//!
//! For example `message m { optional group a (LIST) { repeated group list { optional int32
//! element; } } }` maps to `a: List(element: Int32)` whose plan reads entries at repetition
//! level 0, list slots valid at definition level 1, elements at (repetition 1, definition 2)
//! and element values present at definition level 3.

use alloc::boxed::Box;
use alloc::sync::Arc;
use alloc::vec::Vec;

use arrow_schema::{DataType, Field, Fields, Schema as ArrowSchema, TimeUnit as ArrowUnit};

use crate::error::{Error, Result};
use crate::format::{FieldRepetitionType, LogicalType, PhysicalType, TimeUnit};
use crate::levels::shape::{shape_of, Shape, MAX_DEPTH};
use crate::schema::{NodeKind, Schema};

/// How a leaf's Parquet values become the values of its Arrow array.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Conv {
    /// The physical values as they are (the Arrow type has the same layout).
    Same,
    /// INT32 narrowed or reinterpreted (Int8, Int16, UInt8, UInt16, UInt32).
    Int32To,
    /// INT64 reinterpreted as UInt64.
    Int64To,
    /// INT32/INT64 unscaled decimals, widened to 128 (or 256) bits.
    IntDecimal,
    /// Big-endian two's complement bytes (FIXED_LEN_BYTE_ARRAY or BYTE_ARRAY) to decimals.
    BytesDecimal,
    /// INT96 legacy timestamps to nanoseconds.
    Int96,
    /// FIXED_LEN_BYTE_ARRAY(2) little-endian halves.
    Float16,
    /// A string/binary column dictionary-encoded in Arrow (Int32 keys of distinct values).
    Dictionary,
}

/// How one Arrow field is built from the levels of the leaves under it.
#[derive(Debug, Clone)]
pub(crate) struct Plan {
    pub field: Field,
    /// Entries (slots of this array) are the level positions with `rep <= ctx_rep` and
    /// `def >= ctx_def`: those of the innermost repeated ancestor.
    pub ctx_rep: u16,
    pub ctx_def: u16,
    /// A slot is valid (non-null) when `def >= valid_def`.
    pub valid_def: u16,
    pub kind: Kind,
}

#[derive(Debug, Clone)]
pub(crate) enum Kind {
    /// A leaf: its column in the (projected) schema.
    Leaf {
        column: usize,
        conv: Conv,
    },
    Struct(Vec<Plan>),
    /// A list or map: elements are the positions with `rep <= elem_rep`, `def >= elem_def`.
    List {
        elem_rep: u16,
        elem_def: u16,
        child: Box<Plan>,
    },
}

impl Plan {
    /// The first leaf column under this plan.
    pub fn first_column(&self) -> Option<usize> {
        match &self.kind {
            Kind::Leaf { column, .. } => Some(*column),
            Kind::Struct(c) => c.iter().find_map(Plan::first_column),
            Kind::List { child, .. } => child.first_column(),
        }
    }
}

/// The Arrow schema of a Parquet schema (see the [module documentation](self)) and the plan of
/// each top-level field. `hint` is the Arrow schema the file stores, if any.
pub(crate) fn plan_schema(
    schema: &Schema,
    hint: Option<&ArrowSchema>,
) -> Result<(ArrowSchema, Vec<Plan>)> {
    let root = schema.root();
    let mut plans = Vec::with_capacity(root.children().len());
    for &c in root.children() {
        let name = &schema.nodes()[c].name;
        let h = hint.and_then(|h| h.field_with_name(name).ok());
        plans.push(plan_node(schema, c, (0, 0), h, false, 0)?);
    }
    let fields: Vec<Field> = plans.iter().map(|p| p.field.clone()).collect();
    let metadata = hint.map(|h| h.metadata().clone()).unwrap_or_default();
    Ok((ArrowSchema::new_with_metadata(fields, metadata), plans))
}

fn unmappable(schema: &Schema, i: usize, what: &'static str) -> Error {
    Error::unsupported(what).in_column(&schema.node_path_string(i))
}

/// Plans node `i`. `ctx` is (rep, def) of its innermost repeated ancestor; `element` is set
/// when `i` is a repeated node read as a list's element (not wrapped in a list again).
fn plan_node(
    schema: &Schema,
    i: usize,
    ctx: (u16, u16),
    hint: Option<&Field>,
    element: bool,
    depth: usize,
) -> Result<Plan> {
    if depth > MAX_DEPTH {
        return Err(unmappable(schema, i, "schema nested too deeply"));
    }
    let node = &schema.nodes()[i];
    if node.repetition == FieldRepetitionType::Repeated && !element {
        // A bare repeated field: a list of non-null elements, itself never null.
        let hint_child = hint.and_then(|h| list_child(h.data_type()));
        let child = plan_node(
            schema,
            i,
            (node.max_rep_level, node.max_def_level),
            hint_child,
            true,
            depth + 1,
        )?;
        let large = matches!(hint.map(Field::data_type), Some(DataType::LargeList(_)));
        let item = Arc::new(child.field.clone());
        let dt = if large {
            DataType::LargeList(item)
        } else {
            DataType::List(item)
        };
        return Ok(Plan {
            field: with_metadata(Field::new(&node.name, dt, false), hint),
            ctx_rep: ctx.0,
            ctx_def: ctx.1,
            valid_def: ctx.1,
            kind: Kind::List {
                elem_rep: node.max_rep_level,
                elem_def: node.max_def_level,
                child: Box::new(child),
            },
        });
    }
    let nullable = node.repetition == FieldRepetitionType::Optional;
    let valid_def = node.max_def_level;
    let shape = match shape_of(schema, i) {
        // A repeated group read as an element is a plain group, unless it is a LIST itself
        // (`old_list_structure.parquet`: `repeated group array (LIST) { repeated int32
        // array; }` is a list of lists).
        Shape::Map { .. } | Shape::KeyValue if element => Shape::Group,
        s => s,
    };
    let (dt, kind) = match shape {
        Shape::Leaf(column) => {
            let (dt, conv) = leaf_type(schema, i, hint)?;
            (dt, Kind::Leaf { column, conv })
        }
        Shape::Group | Shape::KeyValue => {
            let hint_fields = hint.and_then(|h| match h.data_type() {
                DataType::Struct(f) => Some(f.clone()),
                _ => None,
            });
            let mut children = Vec::new();
            for &c in node.children() {
                let cname = &schema.nodes()[c].name;
                let h = hint_fields
                    .as_ref()
                    .and_then(|f| f.iter().find(|f| f.name() == cname));
                children.push(plan_node(
                    schema,
                    c,
                    ctx,
                    h.map(|f| &**f),
                    false,
                    depth + 1,
                )?);
            }
            if children.is_empty() {
                return Err(unmappable(
                    schema,
                    i,
                    "a group without fields has no Arrow type",
                ));
            }
            let fields: Fields = children.iter().map(|c| c.field.clone()).collect();
            (DataType::Struct(fields), Kind::Struct(children))
        }
        Shape::List {
            repeated,
            three_level,
        } => {
            let rep = &schema.nodes()[repeated];
            let inner = (rep.max_rep_level, rep.max_def_level);
            let hint_child = hint.and_then(|h| list_child(h.data_type()));
            let child = if three_level {
                let only = rep.children()[0];
                plan_node(schema, only, inner, hint_child, false, depth + 1)?
            } else {
                plan_node(schema, repeated, inner, hint_child, true, depth + 1)?
            };
            let item = Arc::new(child.field.clone());
            let dt = match hint.map(Field::data_type) {
                Some(DataType::LargeList(_)) => DataType::LargeList(item),
                _ => DataType::List(item),
            };
            (
                dt,
                Kind::List {
                    elem_rep: inner.0,
                    elem_def: inner.1,
                    child: Box::new(child),
                },
            )
        }
        Shape::Map { repeated } => {
            let kv = &schema.nodes()[repeated];
            if kv.children().len() != 2 {
                // A set of keys (`map_no_value.parquet`): pyarrow reads a list of the keys.
                let inner = (kv.max_rep_level, kv.max_def_level);
                let key = kv.children()[0];
                let child = plan_node(schema, key, inner, None, false, depth + 1)?;
                let item = Arc::new(child.field.clone().with_nullable(false));
                let mut child = child;
                child.field = (*item).clone();
                let field = Field::new(&node.name, DataType::List(item), nullable);
                return Ok(Plan {
                    field,
                    ctx_rep: ctx.0,
                    ctx_def: ctx.1,
                    valid_def,
                    kind: Kind::List {
                        elem_rep: inner.0,
                        elem_def: inner.1,
                        child: Box::new(child),
                    },
                });
            }
            let inner = (kv.max_rep_level, kv.max_def_level);
            let hint_entries = hint.and_then(|h| match h.data_type() {
                DataType::Map(e, _) => Some(e.clone()),
                _ => None,
            });
            let hint_entries = hint_entries.as_deref();
            let entries = plan_node(schema, repeated, inner, hint_entries, true, depth + 1)?;
            let mut entries = entries;
            // Arrow: the entries struct and its key are never null. pyarrow (26) names the
            // entries field after the map field itself, whatever the file or the stored
            // schema say; so does this reader.
            if let Kind::Struct(ch) = &mut entries.kind {
                if let Some(k) = ch.first_mut() {
                    k.field = k.field.clone().with_nullable(false);
                }
                let fields: Fields = ch.iter().map(|c| c.field.clone()).collect();
                entries.field = Field::new(&node.name, DataType::Struct(fields), false);
            }
            let sorted = matches!(hint.map(Field::data_type), Some(DataType::Map(_, true)));
            (
                DataType::Map(Arc::new(entries.field.clone()), sorted),
                Kind::List {
                    elem_rep: inner.0,
                    elem_def: inner.1,
                    child: Box::new(entries),
                },
            )
        }
    };
    let field = with_metadata(Field::new(&node.name, dt, nullable && !element), hint);
    Ok(Plan {
        field,
        ctx_rep: ctx.0,
        ctx_def: ctx.1,
        valid_def,
        kind,
    })
}

fn list_child(dt: &DataType) -> Option<&Field> {
    match dt {
        DataType::List(f) | DataType::LargeList(f) => Some(f),
        _ => None,
    }
}

fn with_metadata(field: Field, hint: Option<&Field>) -> Field {
    match hint {
        Some(h) if !h.metadata().is_empty() => field.with_metadata(h.metadata().clone()),
        _ => field,
    }
}

fn arrow_unit(u: TimeUnit) -> ArrowUnit {
    match u {
        TimeUnit::Millis => ArrowUnit::Millisecond,
        TimeUnit::Micros => ArrowUnit::Microsecond,
        TimeUnit::Nanos => ArrowUnit::Nanosecond,
    }
}

fn decimal_type(precision: i32, scale: i32) -> Option<DataType> {
    let p = u8::try_from(precision)
        .ok()
        .filter(|p| (1..=76).contains(p))?;
    let s = i8::try_from(scale).ok()?;
    Some(if p <= 38 {
        DataType::Decimal128(p, s)
    } else {
        DataType::Decimal256(p, s)
    })
}

/// The Arrow type of leaf `i` and how its values convert.
fn leaf_type(schema: &Schema, i: usize, hint: Option<&Field>) -> Result<(DataType, Conv)> {
    let node = &schema.nodes()[i];
    let NodeKind::Primitive {
        physical_type,
        type_length,
        ..
    } = node.kind
    else {
        return Err(unmappable(schema, i, "not a leaf"));
    };
    use PhysicalType as P;
    let logical = node.logical_type.as_ref();
    let (dt, conv) = match (physical_type, logical) {
        (P::Boolean, _) => (DataType::Boolean, Conv::Same),
        (
            P::Int32 | P::Int64 | P::ByteArray | P::FixedLenByteArray,
            Some(LogicalType::Decimal { scale, precision }),
        ) => {
            let dt = decimal_type(*precision, *scale)
                .ok_or_else(|| unmappable(schema, i, "DECIMAL precision or scale out of range"))?;
            let conv = match physical_type {
                P::Int32 | P::Int64 => Conv::IntDecimal,
                _ => Conv::BytesDecimal,
            };
            (dt, conv)
        }
        (
            P::Int32,
            Some(LogicalType::Integer {
                bit_width,
                is_signed,
            }),
        ) => {
            let dt = match (bit_width, is_signed) {
                (8, true) => DataType::Int8,
                (16, true) => DataType::Int16,
                (8, false) => DataType::UInt8,
                (16, false) => DataType::UInt16,
                (32, false) => DataType::UInt32,
                _ => DataType::Int32,
            };
            let conv = if dt == DataType::Int32 {
                Conv::Same
            } else {
                Conv::Int32To
            };
            (dt, conv)
        }
        (P::Int32, Some(LogicalType::Date)) => (DataType::Date32, Conv::Same),
        (
            P::Int32,
            Some(LogicalType::Time {
                unit: TimeUnit::Millis,
                ..
            }),
        ) => (DataType::Time32(ArrowUnit::Millisecond), Conv::Same),
        (P::Int32, Some(LogicalType::Unknown))
        | (P::Int64, Some(LogicalType::Unknown))
        | (P::ByteArray, Some(LogicalType::Unknown)) => (DataType::Null, Conv::Same),
        (P::Int32, _) => (DataType::Int32, Conv::Same),
        (
            P::Int64,
            Some(LogicalType::Integer {
                bit_width: 64,
                is_signed: false,
            }),
        ) => (DataType::UInt64, Conv::Int64To),
        (P::Int64, Some(LogicalType::Time { unit, .. })) if *unit != TimeUnit::Millis => {
            (DataType::Time64(arrow_unit(*unit)), Conv::Same)
        }
        (
            P::Int64,
            Some(LogicalType::Timestamp {
                is_adjusted_to_utc,
                unit,
            }),
        ) => {
            let tz = is_adjusted_to_utc.then(|| Arc::<str>::from("UTC"));
            (DataType::Timestamp(arrow_unit(*unit), tz), Conv::Same)
        }
        (P::Int64, _) => (DataType::Int64, Conv::Same),
        (P::Int96, _) => (
            DataType::Timestamp(ArrowUnit::Nanosecond, None),
            Conv::Int96,
        ),
        (P::Float, _) => (DataType::Float32, Conv::Same),
        (P::Double, _) => (DataType::Float64, Conv::Same),
        (P::ByteArray, Some(LogicalType::String | LogicalType::Json | LogicalType::Enum)) => {
            (DataType::Utf8, Conv::Same)
        }
        (P::ByteArray, _) => (DataType::Binary, Conv::Same),
        (P::FixedLenByteArray, Some(LogicalType::Float16)) if type_length == Some(2) => {
            (DataType::Float16, Conv::Float16)
        }
        (P::FixedLenByteArray, _) => {
            if node.converted_type == Some(crate::format::ConvertedType::Interval) {
                return Err(unmappable(schema, i, "INTERVAL has no Arrow type here"));
            }
            let n = type_length
                .and_then(|n| i32::try_from(n).ok())
                .ok_or_else(|| unmappable(schema, i, "FIXED_LEN_BYTE_ARRAY without a length"))?;
            (DataType::FixedSizeBinary(n), Conv::Same)
        }
    };
    Ok(match hint.map(Field::data_type) {
        Some(h) => refine(dt, conv, h),
        None => (dt, conv),
    })
}

/// The stored Arrow type `h` where it is a variant of the mapped `dt`.
fn refine(dt: DataType, conv: Conv, h: &DataType) -> (DataType, Conv) {
    use DataType as D;
    let same = conv == Conv::Same;
    match (&dt, h) {
        // pyarrow takes the time zone, not the unit (a stored `timestamp[s]` reads as the
        // `ms` it was written as).
        (D::Timestamp(u, _), D::Timestamp(_, tz)) => (D::Timestamp(*u, tz.clone()), conv),
        (D::Int64, D::Duration(_)) if same => (h.clone(), Conv::Same),
        (D::Utf8, D::LargeUtf8 | D::Utf8View) | (D::Binary, D::LargeBinary | D::BinaryView)
            if same =>
        {
            (h.clone(), Conv::Same)
        }
        (D::Utf8 | D::Binary, D::Dictionary(k, v)) if same && **k == D::Int32 && **v == dt => {
            (h.clone(), Conv::Dictionary)
        }
        (D::FixedSizeBinary(_), D::FixedSizeBinary(_)) => (dt, conv),
        _ => (dt, conv),
    }
}
