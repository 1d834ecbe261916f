//! The JSON row contract (shared/json-mapping.md): one record as one JSON line, and back.
//!
//! Output is the canonical form `json.dumps(obj, separators=(",", ":"), ensure_ascii=False)`:
//! no spaces, keys in schema order, floats as Python's `repr`. Leaf values follow
//! `parket::record::logical`; nesting follows the record shapes of `parket::levels::shape`
//! (a LIST is an array, a MAP an array of `{"key": k, "value": v}`, a repeated field outside
//! LIST / MAP an array of its values).
//!
//! ```text
//! message m { required int64 id; optional group tags (LIST) { repeated group list {
//!   optional binary element (STRING); } } optional group m (MAP) { repeated group key_value {
//!   required int32 key; } } }
//! Group[Int64(7), List[Bytes("a"), Null], Map[(Int32(1), Null)]]
//!   -> {"id":7,"tags":["a",null],"m":[{"key":1,"value":null}]}
//! ```
#![allow(dead_code)]

use std::collections::HashSet;

use parket::format::{ConvertedType, LogicalType, PhysicalType, TimeUnit};
use parket::levels::shape::{shapes, Shape};
use parket::record::logical::{self, Logical};
use parket::record::{variant, Value};
use parket::schema::{ColumnDescriptor, Schema};
use parket::variant::{Primitive, VariantValue};
use serde_json::Value as Json;

use crate::json::{push_f32, push_f64, push_str};

/// Appends `record` (a `Value::Group` of the root's fields) as one JSON line, `\n` included.
pub fn record_to_json(schema: &Schema, record: &Value, out: &mut String) -> Result<(), String> {
    let shapes = shapes(schema).map_err(|e| e.to_string())?;
    let w = Writer {
        schema,
        shapes: &shapes,
    };
    w.inner(0, record, out)?;
    out.push('\n');
    Ok(())
}

struct Writer<'a> {
    schema: &'a Schema,
    shapes: &'a [Shape],
}

impl Writer<'_> {
    fn err(&self, n: usize, why: impl std::fmt::Display) -> String {
        format!("column {}: {}", self.schema.node_path_string(n), why)
    }

    fn children(&self, n: usize) -> &[usize] {
        self.schema.node(n).map_or(&[][..], |x| x.children())
    }

    fn slot(&self, n: usize, v: &Value, out: &mut String) -> Result<(), String> {
        let node = self.schema.node(n).ok_or("bad node")?;
        if node.repetition == parket::format::FieldRepetitionType::Repeated {
            return match (self.shapes.get(n), v) {
                (Some(Shape::KeyValue), Value::Map(entries)) => self.entries(n, entries, out),
                (_, Value::List(items)) => {
                    out.push('[');
                    for (i, item) in items.iter().enumerate() {
                        if i > 0 {
                            out.push(',');
                        }
                        self.inner(n, item, out)?;
                    }
                    out.push(']');
                    Ok(())
                }
                (_, Value::Null) => {
                    out.push_str("[]");
                    Ok(())
                }
                _ => Err(self.err(n, "a repeated field's value is not a list")),
            };
        }
        if v.is_null() {
            out.push_str("null");
            return Ok(());
        }
        self.inner(n, v, out)
    }

    fn entries(
        &self,
        kv: usize,
        entries: &[(Value, Value)],
        out: &mut String,
    ) -> Result<(), String> {
        let ch = self.children(kv);
        out.push('[');
        for (i, (k, v)) in entries.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str("{\"key\":");
            match ch.first() {
                Some(&kn) => self.slot(kn, k, out)?,
                None => out.push_str("null"),
            }
            out.push_str(",\"value\":");
            match ch.get(1) {
                Some(&vn) => self.slot(vn, v, out)?,
                None => out.push_str("null"),
            }
            out.push('}');
        }
        out.push(']');
        Ok(())
    }

    fn inner(&self, n: usize, v: &Value, out: &mut String) -> Result<(), String> {
        match (self.shapes.get(n).copied().unwrap_or(Shape::Group), v) {
            (Shape::Leaf(c), v) => {
                let desc = self.schema.column(c).ok_or("bad column")?;
                leaf_to_json(v, desc, out).map_err(|e| self.err(n, e))
            }
            (Shape::Group, Value::Group(_)) if variant::is_variant(self.schema, n) => {
                // json-mapping.md, VARIANT: the value, shredded parts merged in.
                match variant::variant_value(self.schema, n, v).map_err(|e| e.to_string())? {
                    Some(value) => variant_to_json(&value, out),
                    None => {
                        out.push_str("null");
                        Ok(())
                    }
                }
            }
            (Shape::Group | Shape::KeyValue, Value::Group(fields)) => {
                let ch = self.children(n);
                if ch.len() != fields.len() {
                    return Err(self.err(n, "a group of the wrong number of fields"));
                }
                out.push('{');
                for (i, (&c, f)) in ch.iter().zip(fields).enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    let name = self.schema.node(c).map_or("", |x| x.name.as_str());
                    push_str(out, name);
                    out.push(':');
                    self.slot(c, f, out)?;
                }
                out.push('}');
                Ok(())
            }
            (
                Shape::List {
                    repeated,
                    three_level,
                },
                Value::List(items),
            ) => {
                let element = self.children(repeated).first().copied();
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    match (three_level, element) {
                        (true, Some(el)) => self.slot(el, item, out)?,
                        _ => self.inner(repeated, item, out)?,
                    }
                }
                out.push(']');
                Ok(())
            }
            (Shape::Map { repeated }, Value::Map(entries)) => self.entries(repeated, entries, out),
            _ => Err(self.err(n, "the record does not have the schema's shape")),
        }
    }
}

/// Appends one leaf value per the contract's table.
pub fn leaf_to_json(v: &Value, desc: &ColumnDescriptor, out: &mut String) -> Result<(), String> {
    use std::fmt::Write as _;
    match logical::logical_value(v, desc).map_err(|e| e.to_string())? {
        Logical::Null => out.push_str("null"),
        Logical::Boolean(b) => out.push_str(if b { "true" } else { "false" }),
        Logical::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Logical::UInt(u) => {
            let _ = write!(out, "{u}");
        }
        Logical::Float(x) => push_f32(out, x),
        Logical::Double(x) => push_f64(out, x),
        Logical::Str(s) => push_str(out, s),
        Logical::Text(s) => push_str(out, &s),
        Logical::Interval {
            months,
            days,
            millis,
        } => {
            let _ = write!(
                out,
                "{{\"months\":{months},\"days\":{days},\"millis\":{millis}}}"
            );
        }
        Logical::Binary(b) => push_str(out, &logical::base64_encode(b)),
    }
    Ok(())
}

/// Appends a Variant value per the contract's VARIANT table: primitives as the Parquet type
/// they stand for (a decimal as DECIMAL, a timestamp as TIMESTAMP, ...), objects with their
/// fields in stored order, arrays.
pub fn variant_to_json(v: &VariantValue, out: &mut String) -> Result<(), String> {
    use std::fmt::Write as _;
    match v {
        VariantValue::Object(fields) => {
            out.push('{');
            for (i, (name, value)) in fields.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                push_str(out, name);
                out.push(':');
                variant_to_json(value, out)?;
            }
            out.push('}');
        }
        VariantValue::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                variant_to_json(item, out)?;
            }
            out.push(']');
        }
        VariantValue::Primitive(p) => {
            let decimal = |out: &mut String, be: &[u8], scale: u8| -> Result<(), String> {
                let text =
                    logical::decimal_to_string(be, scale.into()).map_err(|e| e.to_string())?;
                if scale == 0 {
                    out.push_str(&text);
                } else {
                    push_str(out, &text);
                }
                Ok(())
            };
            match p {
                Primitive::Null => out.push_str("null"),
                Primitive::Boolean(b) => out.push_str(if *b { "true" } else { "false" }),
                Primitive::Int8(x) => {
                    let _ = write!(out, "{x}");
                }
                Primitive::Int16(x) => {
                    let _ = write!(out, "{x}");
                }
                Primitive::Int32(x) => {
                    let _ = write!(out, "{x}");
                }
                Primitive::Int64(x) => {
                    let _ = write!(out, "{x}");
                }
                Primitive::Float(x) => push_f32(out, *x),
                Primitive::Double(x) => push_f64(out, *x),
                Primitive::Decimal4 { unscaled, scale } => {
                    decimal(out, &unscaled.to_be_bytes(), *scale)?
                }
                Primitive::Decimal8 { unscaled, scale } => {
                    decimal(out, &unscaled.to_be_bytes(), *scale)?
                }
                Primitive::Decimal16 { unscaled, scale } => {
                    decimal(out, &unscaled.to_be_bytes(), *scale)?
                }
                Primitive::Date(d) => push_str(out, &logical::date_to_string(i64::from(*d))),
                Primitive::TimeNtz(t) => push_str(
                    out,
                    &logical::time_to_string(*t, TimeUnit::Micros).map_err(|e| e.to_string())?,
                ),
                Primitive::Timestamp(t) => push_str(
                    out,
                    &logical::timestamp_to_string(*t, TimeUnit::Micros, true),
                ),
                Primitive::TimestampNtz(t) => push_str(
                    out,
                    &logical::timestamp_to_string(*t, TimeUnit::Micros, false),
                ),
                Primitive::TimestampNanos(t) => push_str(
                    out,
                    &logical::timestamp_to_string(*t, TimeUnit::Nanos, true),
                ),
                Primitive::TimestampNtzNanos(t) => push_str(
                    out,
                    &logical::timestamp_to_string(*t, TimeUnit::Nanos, false),
                ),
                Primitive::Binary(b) => push_str(out, &logical::base64_encode(b)),
                Primitive::String(s) => push_str(out, s),
                Primitive::Uuid(u) => {
                    push_str(out, &logical::uuid_to_string(u).map_err(|e| e.to_string())?)
                }
            }
        }
    }
    Ok(())
}

/// Parses one JSON line (without its `\n`) into a record of `schema`, per the contract's
/// input rules. Errors name the line number and the dotted column path.
pub fn json_to_record(schema: &Schema, line: &str, line_no: usize) -> Result<Value, String> {
    let at = |path: &str, why: &str| {
        if path.is_empty() {
            format!("line {line_no}: {why}")
        } else {
            format!("line {line_no}, column {path}: {why}")
        }
    };
    if line.trim().is_empty() {
        return Err(at("", "blank line"));
    }
    let json: Json = serde_json::from_str(line).map_err(|e| at("", &format!("not JSON: {e}")))?;
    if let Some((object, key)) = crate::json_keys::duplicate_key(line) {
        let mut key_text = String::new();
        push_str(&mut key_text, &key);
        return Err(at(
            "",
            &format!(
                "duplicate key {key_text} in the object at {object} (each key may appear once; a \
                 VARIANT object cannot hold a field name twice)"
            ),
        ));
    }
    let shapes = shapes(schema).map_err(|e| at("", &e.to_string()))?;
    let r = Reader {
        schema,
        shapes: &shapes,
    };
    r.inner(0, &json)
        .map_err(|(n, why)| at(&schema.node_path_string(n), &why))
}

/// A JSON value as a Variant (json-mapping.md, VARIANT): an integer literal as the smallest of
/// int8 to int64 that holds it, else decimal16 up to 38 digits, else double; any other number
/// as double; objects with their keys sorted.
fn json_to_variant(j: &Json, depth: usize) -> Result<VariantValue, String> {
    if depth > parket::variant::MAX_DEPTH {
        return Err(format!(
            "a VARIANT value nested deeper than {}",
            parket::variant::MAX_DEPTH
        ));
    }
    Ok(match j {
        Json::Null => Primitive::Null.into(),
        Json::Bool(b) => Primitive::Boolean(*b).into(),
        Json::String(s) => Primitive::String(s.clone().into()).into(),
        Json::Number(num) => {
            let text = num.to_string();
            let digits = text.strip_prefix('-').unwrap_or(&text);
            let double = || {
                text.parse::<f64>()
                    .map(|x| Primitive::Double(x).into())
                    .map_err(|e| format!("number {text}: {e}"))
            };
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return double();
            }
            match text.parse::<i64>() {
                Ok(x) => match (i8::try_from(x), i16::try_from(x), i32::try_from(x)) {
                    (Ok(x), _, _) => Primitive::Int8(x),
                    (_, Ok(x), _) => Primitive::Int16(x),
                    (_, _, Ok(x)) => Primitive::Int32(x),
                    _ => Primitive::Int64(x),
                }
                .into(),
                Err(_) if digits.trim_start_matches('0').len() <= 38 => {
                    match text.parse::<i128>() {
                        Ok(unscaled) => Primitive::Decimal16 { unscaled, scale: 0 }.into(),
                        Err(_) => return double(),
                    }
                }
                Err(_) => return double(),
            }
        }
        Json::Array(items) => VariantValue::Array(
            items
                .iter()
                .map(|x| json_to_variant(x, depth + 1))
                .collect::<Result<_, _>>()?,
        ),
        Json::Object(o) => {
            let mut fields = o
                .iter()
                .map(|(k, v)| Ok((k.clone(), json_to_variant(v, depth + 1)?)))
                .collect::<Result<Vec<_>, String>>()?;
            fields.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            VariantValue::Object(fields)
        }
    })
}

struct Reader<'a> {
    schema: &'a Schema,
    shapes: &'a [Shape],
}

type RResult<T> = Result<T, (usize, String)>;

fn json_kind(j: &Json) -> &'static str {
    match j {
        Json::Null => "null",
        Json::Bool(_) => "a boolean",
        Json::Number(_) => "a number",
        Json::String(_) => "a string",
        Json::Array(_) => "an array",
        Json::Object(_) => "an object",
    }
}

impl Reader<'_> {
    fn children(&self, n: usize) -> &[usize] {
        self.schema.node(n).map_or(&[][..], |x| x.children())
    }

    fn slot(&self, n: usize, j: &Json) -> RResult<Value> {
        let node = self.schema.node(n).ok_or((n, "bad node".to_string()))?;
        use parket::format::FieldRepetitionType as R;
        match node.repetition {
            R::Repeated => {
                let items: &[Json] = match j {
                    Json::Null => &[],
                    Json::Array(a) => a,
                    other => {
                        return Err((n, format!("expected an array, found {}", json_kind(other))))
                    }
                };
                if self.shapes.get(n) == Some(&Shape::KeyValue) {
                    return Ok(Value::Map(self.entries(n, items)?));
                }
                Ok(Value::List(
                    items
                        .iter()
                        .map(|i| self.inner(n, i))
                        .collect::<RResult<_>>()?,
                ))
            }
            // A required VARIANT cannot be a null group: JSON null is the Variant null there.
            _ if j.is_null()
                && variant::is_variant(self.schema, n)
                && node.repetition == R::Required =>
            {
                self.variant(n, j)
            }
            _ if j.is_null() => {
                if node.repetition == R::Required {
                    Err((n, "missing or null value for a required field".to_string()))
                } else {
                    Ok(Value::Null)
                }
            }
            _ => self.inner(n, j),
        }
    }

    /// A VARIANT group's fields for the JSON value `j`, encoded as json-mapping.md says.
    fn variant(&self, n: usize, j: &Json) -> RResult<Value> {
        let v = json_to_variant(j, 0).map_err(|why| (n, why))?;
        // Shredded into `typed_value` where the schema has one (VariantShredding.md).
        variant::shred(self.schema, n, &v).map_err(|e| (n, e.to_string()))
    }

    fn entries(&self, kv: usize, items: &[Json]) -> RResult<Vec<(Value, Value)>> {
        let ch = self.children(kv).to_vec();
        let mut seen = HashSet::new();
        let mut out = Vec::with_capacity(items.len());
        for item in items {
            let Json::Object(o) = item else {
                return Err((
                    kv,
                    format!("a map entry is {}, not an object", json_kind(item)),
                ));
            };
            if let Some(k) = o.keys().find(|k| *k != "key" && *k != "value") {
                return Err((kv, format!("unknown key {k:?} in a map entry")));
            }
            let kj = o.get("key").unwrap_or(&Json::Null);
            let Some(&kn) = ch.first() else {
                return Err((kv, "map without a key field".to_string()));
            };
            if kj.is_null() {
                return Err((kn, "null map key".to_string()));
            }
            let key = self.slot(kn, kj)?;
            if !seen.insert(format!("{key:?}")) {
                return Err((kn, format!("duplicate map key {kj}")));
            }
            let vj = o.get("value").unwrap_or(&Json::Null);
            let value = match ch.get(1) {
                Some(&vn) => self.slot(vn, vj)?,
                None if vj.is_null() => Value::Null,
                None => return Err((kv, "a value for a map that has no value field".to_string())),
            };
            out.push((key, value));
        }
        Ok(out)
    }

    fn inner(&self, n: usize, j: &Json) -> RResult<Value> {
        match self.shapes.get(n).copied().unwrap_or(Shape::Group) {
            Shape::Leaf(c) => {
                let desc = self.schema.column(c).ok_or((n, "bad column".to_string()))?;
                json_to_leaf(j, desc).map_err(|why| (n, why))
            }
            Shape::Group if variant::is_variant(self.schema, n) => self.variant(n, j),
            Shape::Group | Shape::KeyValue => {
                let Json::Object(o) = j else {
                    return Err((n, format!("expected an object, found {}", json_kind(j))));
                };
                let ch = self.children(n);
                for k in o.keys() {
                    if !ch
                        .iter()
                        .any(|&c| self.schema.node(c).is_some_and(|x| &x.name == k))
                    {
                        return Err((n, format!("unknown key {k:?}")));
                    }
                }
                let mut fields = Vec::with_capacity(ch.len());
                for &c in ch {
                    let name = self.schema.node(c).map_or("", |x| x.name.as_str());
                    fields.push(self.slot(c, o.get(name).unwrap_or(&Json::Null))?);
                }
                Ok(Value::Group(fields))
            }
            Shape::List {
                repeated,
                three_level,
            } => {
                let Json::Array(items) = j else {
                    return Err((n, format!("expected an array, found {}", json_kind(j))));
                };
                let element = self.children(repeated).first().copied();
                let mut out = Vec::with_capacity(items.len());
                for item in items {
                    out.push(match (three_level, element) {
                        (true, Some(el)) => self.slot(el, item)?,
                        _ => self.inner(repeated, item)?,
                    });
                }
                Ok(Value::List(out))
            }
            Shape::Map { repeated } => {
                let Json::Array(items) = j else {
                    return Err((
                        n,
                        format!("expected an array of entries, found {}", json_kind(j)),
                    ));
                };
                Ok(Value::Map(self.entries(repeated, items)?))
            }
        }
    }
}

fn number_text(j: &Json) -> Option<String> {
    match j {
        Json::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn int_of(j: &Json, min: i128, max: i128) -> Result<i128, String> {
    let Json::Number(n) = j else {
        return Err(format!("expected an integer, found {}", json_kind(j)));
    };
    let v: i128 = n
        .to_string()
        .parse()
        .map_err(|_| format!("expected an integer, found {n}"))?;
    if v < min || v > max {
        return Err(format!("integer {v} out of range"));
    }
    Ok(v)
}

fn float_of(j: &Json) -> Result<f64, String> {
    match j {
        Json::String(s) if s == "NaN" => Ok(f64::NAN),
        Json::String(s) if s == "Infinity" => Ok(f64::INFINITY),
        Json::String(s) if s == "-Infinity" => Ok(f64::NEG_INFINITY),
        Json::Number(n) => n
            .to_string()
            .parse()
            .map_err(|_| format!("not a number: {n}")),
        other => Err(format!("expected a number, found {}", json_kind(other))),
    }
}

fn f32_of(j: &Json) -> Result<f32, String> {
    // Parse the text as an f32 directly: one rounding, not two.
    match j {
        Json::Number(n) => n
            .to_string()
            .parse()
            .map_err(|_| format!("not a number: {n}")),
        other => float_of(other).map(|x| x as f32),
    }
}

fn str_of(j: &Json) -> Result<&str, String> {
    match j {
        Json::String(s) => Ok(s),
        other => Err(format!("expected a string, found {}", json_kind(other))),
    }
}

/// A JSON leaf into the column's physical value.
fn json_to_leaf(j: &Json, desc: &ColumnDescriptor) -> Result<Value, String> {
    let e = |err: parket::Error| err.to_string();
    let lt = desc.logical_type.as_ref();
    if lt == Some(&LogicalType::Unknown) {
        return Err("an UNKNOWN (null) column holds only nulls".to_string());
    }
    let decimal_bytes = |precision: i32, scale: i32| -> Result<Vec<u8>, String> {
        let text = match j {
            Json::String(s) => s.clone(),
            Json::Number(_) => number_text(j).unwrap_or_default(),
            other => {
                return Err(format!(
                    "expected a decimal string or number, found {}",
                    json_kind(other)
                ))
            }
        };
        logical::parse_decimal(&text, precision, scale).map_err(e)
    };
    Ok(match desc.physical_type {
        PhysicalType::Boolean => match j {
            Json::Bool(b) => Value::Boolean(*b),
            other => return Err(format!("expected a boolean, found {}", json_kind(other))),
        },
        PhysicalType::Int32 | PhysicalType::Int64 => {
            let is64 = desc.physical_type == PhysicalType::Int64;
            let v: i128 = match lt {
                Some(LogicalType::Decimal { precision, scale }) => {
                    let b = decimal_bytes(*precision, *scale)?;
                    i128::from(logical::be_to_i64(&b).ok_or("decimal out of range")?)
                }
                Some(LogicalType::Date) if j.is_string() => {
                    i128::from(logical::parse_date(str_of(j)?).map_err(e)?)
                }
                Some(LogicalType::Time { unit, .. }) if j.is_string() => {
                    i128::from(logical::parse_time(str_of(j)?, *unit).map_err(e)?)
                }
                Some(LogicalType::Timestamp {
                    unit,
                    is_adjusted_to_utc,
                }) if j.is_string() => i128::from(
                    logical::parse_timestamp(str_of(j)?, *unit, *is_adjusted_to_utc).map_err(e)?,
                ),
                Some(LogicalType::Integer {
                    bit_width,
                    is_signed: false,
                }) => {
                    let max = (1i128 << *bit_width) - 1;
                    let u = int_of(j, 0, max)?;
                    // Stored as the same bits, signed.
                    if is64 {
                        i128::from(u as u64 as i64)
                    } else {
                        i128::from(u as u32 as i32)
                    }
                }
                Some(LogicalType::Integer {
                    bit_width,
                    is_signed: true,
                }) => {
                    let half = 1i128 << (*bit_width - 1);
                    int_of(j, -half, half - 1)?
                }
                _ => int_of(j, i64::MIN.into(), i64::MAX.into())?,
            };
            if is64 {
                Value::Int64(i64::try_from(v).map_err(|_| format!("{v} out of the INT64 range"))?)
            } else {
                Value::Int32(i32::try_from(v).map_err(|_| format!("{v} out of the INT32 range"))?)
            }
        }
        PhysicalType::Int96 => match j {
            Json::String(s) => Value::Int96(logical::parse_int96(s).map_err(e)?),
            _ => {
                let v = int_of(j, i64::MIN.into(), i64::MAX.into())?;
                Value::Int96(logical::int96_from_epoch_nanos(v as i64))
            }
        },
        PhysicalType::Float => Value::Float(f32_of(j)?),
        PhysicalType::Double => Value::Double(float_of(j)?),
        PhysicalType::ByteArray | PhysicalType::FixedLenByteArray => {
            let bytes = match lt {
                Some(LogicalType::String | LogicalType::Enum | LogicalType::Json) => {
                    str_of(j)?.as_bytes().to_vec()
                }
                Some(LogicalType::Decimal { precision, scale }) => {
                    let b = decimal_bytes(*precision, *scale)?;
                    match desc.type_length {
                        Some(w) => logical::sign_extend(&b, w).ok_or("decimal out of range")?,
                        None => b,
                    }
                }
                Some(LogicalType::Uuid) => logical::parse_uuid(str_of(j)?).map_err(e)?.to_vec(),
                Some(LogicalType::Float16) => {
                    logical::f32_to_f16(f32_of(j)?).to_le_bytes().to_vec()
                }
                _ if desc.converted_type == Some(ConvertedType::Interval) => {
                    let Json::Object(o) = j else {
                        return Err(format!(
                            "expected an INTERVAL object, found {}",
                            json_kind(j)
                        ));
                    };
                    if let Some(k) = o
                        .keys()
                        .find(|k| !["months", "days", "millis"].contains(&k.as_str()))
                    {
                        return Err(format!("unknown key {k:?} in an INTERVAL"));
                    }
                    let mut b = Vec::with_capacity(12);
                    for k in ["months", "days", "millis"] {
                        let v = int_of(o.get(k).unwrap_or(&Json::Null), 0, u32::MAX.into())?;
                        b.extend_from_slice(&(v as u32).to_le_bytes());
                    }
                    b
                }
                _ => logical::base64_decode(str_of(j)?).map_err(e)?,
            };
            if let Some(w) = desc.type_length {
                if bytes.len() != w {
                    return Err(format!(
                        "a value of {} bytes in a FIXED_LEN_BYTE_ARRAY({w}) column",
                        bytes.len()
                    ));
                }
            }
            Value::Bytes(bytes)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(schema: &str, lines: &[&str]) {
        let schema = Schema::parse(schema).unwrap();
        for (i, line) in lines.iter().enumerate() {
            let v = json_to_record(&schema, line, i + 1).unwrap();
            let mut out = String::new();
            record_to_json(&schema, &v, &mut out).unwrap();
            assert_eq!(out, format!("{line}\n"));
        }
    }

    #[test]
    fn nesting_round_trips() {
        round_trip(
            "message m { required int64 id; optional group tags (LIST) { repeated group list {
               optional binary element (STRING); } }
             optional group m (MAP) { repeated group key_value { required int32 key; } }
             repeated group r { optional double x; }
             optional group a (LIST) { repeated group array (LIST) { repeated int32 array; } } }",
            &[
                r#"{"id":7,"tags":["a",null,"é\"\n"],"m":[{"key":1,"value":null}],"r":[{"x":1.5},{"x":null},{"x":"NaN"}],"a":[[1,2],[3,4]]}"#,
                r#"{"id":-1,"tags":null,"m":null,"r":[],"a":null}"#,
                r#"{"id":0,"tags":[],"m":[],"r":[{"x":-0.0}],"a":[[],[]]}"#,
            ],
        );
    }

    #[test]
    fn leaves_round_trip() {
        round_trip(
            "message m { optional int32 u8 (UINT_8); optional int64 u64 (INTEGER(64,false));
              optional int32 d (DECIMAL(9,2)); optional fixed_len_byte_array(16) big (DECIMAL(38,10));
              optional binary bd (DECIMAL(50,3)); optional int32 date (DATE);
              optional int32 tm (TIME(MILLIS,true)); optional int64 tn (TIME(NANOS,false));
              optional int64 ts (TIMESTAMP(MICROS,true)); optional int64 tl (TIMESTAMP(NANOS,false));
              optional int96 i96; optional fixed_len_byte_array(16) id (UUID);
              optional fixed_len_byte_array(2) h (FLOAT16); optional fixed_len_byte_array(12) iv (INTERVAL);
              optional binary raw; optional float f; optional boolean b; optional binary j (JSON); }",
            &[
                r#"{"u8":255,"u64":18446744073709551615,"d":"-12.50","big":"-0.0000000001","bd":"123456789012345678901234567890.125","date":"+290000-01-01","tm":"24:00:00.000","tn":"13:45:00.000000001","ts":"2009-01-01T00:00:00.000000Z","tl":"1677-09-21T00:12:43.145224192","i96":"+290000-01-01T01:00:00.000000000","id":"0f8fad5b-d9cb-469f-a165-70867728950e","h":5.9604645e-08,"iv":{"months":1,"days":2,"millis":3},"raw":"Zm9vYg==","f":0.1,"b":true,"j":"{\"a\": 1}"}"#,
                r#"{"u8":null,"u64":null,"d":null,"big":null,"bd":null,"date":null,"tm":null,"tn":null,"ts":null,"tl":null,"i96":null,"id":null,"h":"-Infinity","iv":null,"raw":"","f":3.4028235e+38,"b":false,"j":null}"#,
            ],
        );
    }

    #[test]
    fn input_rules() {
        let schema = Schema::parse(
            "message m { required int32 d (DECIMAL(5,2)); optional int32 date (DATE);
              optional int64 ts (TIMESTAMP(MILLIS,false));
              optional group m (MAP) { repeated group key_value { required binary key (STRING);
                optional int32 value; } } }",
        )
        .unwrap();
        let v = json_to_record(&schema, r#"{"d":1.5,"date":1,"ts":0}"#, 3).unwrap();
        let mut out = String::new();
        record_to_json(&schema, &v, &mut out).unwrap();
        assert_eq!(out, "{\"d\":\"1.50\",\"date\":\"1970-01-02\",\"ts\":\"1970-01-01T00:00:00.000\",\"m\":null}\n");
        let err = |line: &str| json_to_record(&schema, line, 9).unwrap_err();
        assert_eq!(err(""), "line 9: blank line");
        assert!(err(r#"{"date":1}"#).starts_with("line 9, column d: missing"));
        assert!(err(r#"{"d":"1.234"}"#).starts_with("line 9, column d:"));
        assert!(err(r#"{"d":1,"x":1}"#).contains("unknown key \"x\""));
        assert!(err(r#"{"d":1,"ts":"1970-01-01T00:00:00.000Z"}"#).starts_with("line 9, column ts:"));
        assert!(err(r#"{"d":1,"date":"2001-02-29"}"#).starts_with("line 9, column date:"));
        let dup = r#"{"d":1,"m":[{"key":"a"},{"key":"a","value":1}]}"#;
        assert!(err(dup).starts_with("line 9, column m.key_value.key: duplicate"));
        assert!(err(r#"{"d":1,"m":[{"value":1}]}"#).contains("null map key"));
        assert!(err(r#"{"d":99999999}"#).starts_with("line 9, column d:"));
    }
}
