//! VARIANT columns in records: the group's `metadata`, `value` and shredded `typed_value`
//! fields, reassembled into one [`VariantValue`].
//!
//! Spec: VariantShredding.md. A record holds a VARIANT group as its fields
//! (`Value::Group`, physical like every record value); [`variant_value`] is the logical view.
//! `value` and `typed_value` together give one value:
//!
//! | `value` | `typed_value` | meaning |
//! |---|---|---|
//! | null | null | missing (a field that is absent; the Variant null elsewhere) |
//! | non-null | null | the value in `value`, of any type |
//! | null | non-null | the shredded value |
//! | non-null | non-null | a partially shredded object: `value` holds the other fields |
//!
//! `typed_value` is a leaf (a primitive; the Parquet types of "Shredded Value Types"), a LIST
//! group of required `element` groups (an array; each element again `value` / `typed_value`),
//! or a plain group of required field groups (an object; a field whose two slots are null is
//! absent). These are errors, as the spec calls them invalid: both slots non-null except for
//! an object; a `value` that is not an object beside a shredded object; a field in `value`
//! that is also a shredded field; a missing array element; a `typed_value` of a type the
//! table does not list (unsigned integers, FIXED_LEN_BYTE_ARRAY other than UUID or DECIMAL,
//! ...).
//!
//! Worked example (VariantShredding.md, "Value Shredding"), `measurement` shredded as int64:
//!
//! ```
//! use parket::record::{variant::variant_value, Value};
//! use parket::schema::Schema;
//! use parket::variant::{Primitive, VariantValue};
//! let schema = Schema::parse("message m { required group measurement (VARIANT(1)) {
//!     required binary metadata; optional binary value; optional int64 typed_value; } }")?;
//! let node = schema.node_index("measurement").unwrap();
//! let empty = vec![0x01, 0x00, 0x00]; // metadata: version 1, no strings
//! // 34 (shredded), then "n/a" (a short string 13 6E 2F 61 in `value`)
//! let rows = [
//!     Value::Group(vec![Value::Bytes(empty.clone()), Value::Null, Value::Int64(34)]),
//!     Value::Group(vec![Value::Bytes(empty), Value::Bytes(vec![0x0d, b'n', b'/', b'a']), Value::Null]),
//! ];
//! assert_eq!(variant_value(&schema, node, &rows[0])?, Some(Primitive::Int64(34).into()));
//! assert_eq!(
//!     variant_value(&schema, node, &rows[1])?,
//!     Some(VariantValue::Primitive(Primitive::String("n/a".into())))
//! );
//! # Ok::<(), parket::Error>(())
//! ```

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use crate::error::{Error, Result};
use crate::format::{LogicalType, PhysicalType, TimeUnit};
use crate::levels::shape::{shape_of, Shape};
use crate::record::logical::sign_extend;
use crate::record::Value;
use crate::schema::{NodeKind, Schema};
use crate::variant::{Metadata, Primitive, Variant, VariantValue, MAX_DEPTH};

/// Whether node `node` of `schema` is a group annotated VARIANT.
pub fn is_variant(schema: &Schema, node: usize) -> bool {
    schema.node(node).is_some_and(|n| {
        n.is_group() && matches!(n.logical_type, Some(LogicalType::Variant { .. }))
    })
}

/// The Variant held by `value`, the record value of the VARIANT group `node`: `None` for a
/// null group, else the value with its shredded parts merged in (a missing value reads as
/// the Variant null, as the spec asks).
///
/// Errors, located at the column: a group without a `metadata` BYTE_ARRAY, bytes that do not
/// decode, and the invalid shreddings listed in the module documentation.
pub fn variant_value(schema: &Schema, node: usize, value: &Value) -> Result<Option<VariantValue>> {
    variant_value_with_depth(schema, node, value, MAX_DEPTH)
}

/// [`variant_value`] with a bound on the nesting of objects and arrays other than
/// [`MAX_DEPTH`].
pub fn variant_value_with_depth(
    schema: &Schema,
    node: usize,
    value: &Value,
    max_depth: usize,
) -> Result<Option<VariantValue>> {
    let located = |e: Error| e.in_column(&schema.node_path_string(node));
    let Value::Group(fields) = value else {
        return match value {
            Value::Null => Ok(None),
            _ => Err(located(Error::invalid_argument(
                "a VARIANT record value is not a group",
            ))),
        };
    };
    let r = Reassembly { schema, max_depth };
    r.check_slots(node, 0).map_err(located)?;
    let slots = r.slots(node, fields).map_err(located)?;
    let Some((_, Value::Bytes(metadata))) = r.child(node, fields, "metadata").map_err(located)?
    else {
        return Err(located(Error::out_of_spec(
            "a VARIANT group's `metadata` is missing or null",
        )));
    };
    let m = Metadata::decode(metadata)
        .map_err(|e| e.in_column(&(schema.node_path_string(node) + ".metadata")))?;
    Ok(Some(
        r.construct(m, slots, 0)?.unwrap_or(VariantValue::NULL),
    ))
}

struct Reassembly<'s> {
    schema: &'s Schema,
    max_depth: usize,
}

/// A `value` / `typed_value` pair: each its node and record value, when the schema has it.
#[derive(Clone, Copy)]
struct Slots<'v> {
    value: Option<(usize, &'v Value)>,
    typed: Option<(usize, &'v Value)>,
}

impl<'s> Reassembly<'s> {
    fn path(&self, node: usize) -> String {
        self.schema.node_path_string(node)
    }

    /// The child of group `node` called `name`, and its record value.
    fn child<'v>(
        &self,
        node: usize,
        fields: &'v [Value],
        name: &str,
    ) -> Result<Option<(usize, &'v Value)>> {
        let children = self.schema.node(node).map_or(&[][..], |n| n.children());
        if children.len() != fields.len() {
            return Err(Error::invalid_argument(
                "a VARIANT record value does not have its group's fields",
            ));
        }
        Ok(children
            .iter()
            .zip(fields)
            .find(|(c, _)| self.schema.node(**c).is_some_and(|n| n.name == name))
            .map(|(c, v)| (*c, v)))
    }

    fn slots<'v>(&self, node: usize, fields: &'v [Value]) -> Result<Slots<'v>> {
        Ok(Slots {
            value: self.child(node, fields, "value")?,
            typed: self.child(node, fields, "typed_value")?,
        })
    }

    /// Checks the shredding schema under the group `node` (the VARIANT group, an array
    /// element or an object field): its `value` is BYTE_ARRAY and its `typed_value` has a
    /// shape and types that VariantShredding.md allows, whether or not any row uses them.
    fn check_slots(&self, node: usize, depth: usize) -> Result<()> {
        if depth >= crate::levels::shape::MAX_DEPTH {
            return Err(Error::limit(
                "shredded Variant schema depth",
                depth as u64,
                crate::levels::shape::MAX_DEPTH as u64,
            ));
        }
        let children = self.schema.node(node).map_or(&[][..], |n| n.children());
        for &c in children {
            let Some(child) = self.schema.node(c) else {
                continue;
            };
            match (child.name.as_str(), &child.kind) {
                (
                    "metadata" | "value",
                    NodeKind::Primitive {
                        physical_type: PhysicalType::ByteArray,
                        ..
                    },
                ) => {}
                ("metadata" | "value", _) => {
                    return Err(
                        self.err(c, "a Variant `metadata` or `value` field is not BYTE_ARRAY")
                    )
                }
                (
                    "typed_value",
                    NodeKind::Primitive {
                        physical_type,
                        type_length,
                        ..
                    },
                ) => {
                    // A type is supported exactly when a zero of its physical type converts.
                    let zero = match physical_type {
                        PhysicalType::Boolean => Value::Boolean(false),
                        PhysicalType::Int32 => Value::Int32(0),
                        PhysicalType::Int64 => Value::Int64(0),
                        PhysicalType::Float => Value::Float(0.0),
                        PhysicalType::Double => Value::Double(0.0),
                        PhysicalType::ByteArray => Value::Bytes(Vec::new()),
                        PhysicalType::FixedLenByteArray => {
                            Value::Bytes(alloc::vec![0; type_length.unwrap_or(0).min(17)])
                        }
                        PhysicalType::Int96 => Value::Int96(Default::default()),
                    };
                    self.primitive(c, &zero)?;
                }
                ("typed_value", NodeKind::Group { children }) => match shape_of(self.schema, c) {
                    Shape::List {
                        repeated,
                        three_level,
                    } => {
                        let element = if three_level {
                            self.schema
                                .node(repeated)
                                .and_then(|r| r.children().first().copied())
                        } else {
                            Some(repeated)
                        };
                        match element.and_then(|e| self.schema.node(e).map(|n| (e, n))) {
                            Some((e, n)) if n.is_group() => self.check_slots(e, depth + 1)?,
                            _ => {
                                return Err(self.err(c, "a shredded array's element is not a group"))
                            }
                        }
                    }
                    Shape::Group => {
                        for &f in children {
                            if !self.schema.node(f).is_some_and(|n| n.is_group()) {
                                return Err(self.err(f, "a shredded object field is not a group"));
                            }
                            self.check_slots(f, depth + 1)?;
                        }
                    }
                    _ => {
                        return Err(self.err(
                            c,
                            "a shredded `typed_value` group is neither a LIST nor an object",
                        ))
                    }
                },
                _ => {}
            }
        }
        Ok(())
    }

    fn err(&self, node: usize, what: &'static str) -> Error {
        Error::out_of_spec(what).in_column(&self.path(node))
    }

    /// VariantShredding.md, "Reconstructing a Shredded Variant": `None` when missing.
    fn construct(
        &self,
        m: Metadata<'_>,
        s: Slots<'_>,
        depth: usize,
    ) -> Result<Option<VariantValue>> {
        if depth >= self.max_depth {
            return Err(Error::limit(
                "Variant nesting depth",
                depth as u64 + 1,
                self.max_depth as u64,
            ));
        }
        let value = match s.value {
            Some((n, Value::Bytes(b))) => Some((n, b.as_slice())),
            Some((_, Value::Null)) | None => None,
            Some((n, _)) => return Err(self.err(n, "a Variant `value` is not BYTE_ARRAY")),
        };
        let decoded = |(n, b): (usize, &[u8])| -> Result<VariantValue> {
            let v = Variant::decode(m, b).map_err(|e| e.in_column(&self.path(n)))?;
            VariantValue::from_variant(&v, self.max_depth - depth)
                .map_err(|e| e.in_column(&self.path(n)))
        };
        let Some((tn, typed)) = s.typed.filter(|(_, v)| !v.is_null()) else {
            return value.map(decoded).transpose();
        };
        let node = self
            .schema
            .node(tn)
            .ok_or_else(|| Error::invalid_argument("bad node"))?;
        match (&node.kind, shape_of(self.schema, tn), typed) {
            (NodeKind::Primitive { .. }, _, leaf) => {
                if let Some((n, _)) = value {
                    return Err(self.err(
                        n,
                        "Variant `value` and `typed_value` are both set (a shredded primitive)",
                    ));
                }
                self.primitive(tn, leaf).map(|p| Some(p.into()))
            }
            (
                _,
                Shape::List {
                    repeated,
                    three_level,
                },
                Value::List(items),
            ) => {
                if let Some((n, _)) = value {
                    return Err(self.err(
                        n,
                        "Variant `value` and `typed_value` are both set (a shredded array)",
                    ));
                }
                let element = if three_level {
                    self.schema
                        .node(repeated)
                        .and_then(|r| r.children().first().copied())
                } else {
                    Some(repeated)
                }
                .ok_or_else(|| self.err(tn, "a shredded array's LIST has no element"))?;
                let mut out = Vec::new();
                for item in items {
                    let Value::Group(fields) = item else {
                        return Err(self.err(element, "a shredded array element is not a group"));
                    };
                    let slots = self
                        .slots(element, fields)
                        .map_err(|e| e.in_column(&self.path(element)))?;
                    // Spec: a missing value where one is required reads as the Variant null.
                    out.push(
                        self.construct(m, slots, depth + 1)?
                            .unwrap_or(VariantValue::NULL),
                    );
                }
                Ok(Some(VariantValue::Array(out)))
            }
            (_, Shape::Group, Value::Group(fields)) => {
                let mut out: Vec<(String, VariantValue)> = Vec::new();
                for (&f, field) in node.children().iter().zip(fields) {
                    let name = self.schema.node(f).map_or("", |n| n.name.as_str());
                    let Value::Group(slots) = field else {
                        // An optional field group that is null: the field is missing.
                        if field.is_null() {
                            continue;
                        }
                        return Err(self.err(f, "a shredded object field is not a group"));
                    };
                    let slots = self
                        .slots(f, slots)
                        .map_err(|e| e.in_column(&self.path(f)))?;
                    if let Some(v) = self.construct(m, slots, depth + 1)? {
                        out.push((name.into(), v));
                    }
                }
                if let Some((n, bytes)) = value {
                    // A partially shredded object: `value` holds the other fields.
                    let VariantValue::Object(rest) = decoded((n, bytes))? else {
                        return Err(self.err(
                            n,
                            "a Variant `value` beside shredded object fields is not an object",
                        ));
                    };
                    for (name, v) in rest {
                        if node
                            .children()
                            .iter()
                            .any(|&c| self.schema.node(c).is_some_and(|x| x.name == name))
                        {
                            return Err(self.err(n, "a field of a partially shredded object is both in `value` and shredded"));
                        }
                        out.push((name, v));
                    }
                }
                // Spec: fields are listed in the byte order of their names.
                out.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
                Ok(Some(VariantValue::Object(out)))
            }
            _ => Err(self.err(
                tn,
                "a shredded `typed_value` has neither a primitive, a LIST nor an object's shape",
            )),
        }
    }

    /// A shredded leaf as the Variant primitive its Parquet type stands for (VariantShredding.md,
    /// "Shredded Value Types").
    fn primitive(&self, node: usize, v: &Value) -> Result<Primitive<'static>> {
        let unsupported = || {
            Error::unsupported(
                "a shredded `typed_value` of a type that VariantShredding.md does not list",
            )
            .in_column(&self.path(node))
        };
        let col = self.schema.node(node).and_then(|n| match n.kind {
            NodeKind::Primitive { column, .. } => self.schema.column(column),
            NodeKind::Group { .. } => None,
        });
        let Some(col) = col else {
            return Err(unsupported());
        };
        let lt = col.logical_type.as_ref();
        let range = |what, v: i64| Error::out_of_range(what, v).in_column(&self.path(node));
        Ok(match (col.physical_type, lt, v) {
            (PhysicalType::Boolean, None, Value::Boolean(b)) => Primitive::Boolean(*b),
            (PhysicalType::Int32, None, Value::Int32(x)) => Primitive::Int32(*x),
            (
                PhysicalType::Int32,
                Some(LogicalType::Integer {
                    bit_width,
                    is_signed: true,
                }),
                Value::Int32(x),
            ) => match bit_width {
                8 => Primitive::Int8(
                    i8::try_from(*x).map_err(|_| range("INT(8) value", i64::from(*x)))?,
                ),
                16 => Primitive::Int16(
                    i16::try_from(*x).map_err(|_| range("INT(16) value", i64::from(*x)))?,
                ),
                32 => Primitive::Int32(*x),
                _ => return Err(unsupported()),
            },
            (PhysicalType::Int32, Some(LogicalType::Decimal { scale, .. }), Value::Int32(x)) => {
                Primitive::Decimal4 {
                    unscaled: *x,
                    scale: scale_of(*scale).ok_or_else(unsupported)?,
                }
            }
            (PhysicalType::Int32, Some(LogicalType::Date), Value::Int32(x)) => Primitive::Date(*x),
            (
                PhysicalType::Int64,
                None
                | Some(LogicalType::Integer {
                    bit_width: 64,
                    is_signed: true,
                }),
                Value::Int64(x),
            ) => Primitive::Int64(*x),
            (PhysicalType::Int64, Some(LogicalType::Decimal { scale, .. }), Value::Int64(x)) => {
                Primitive::Decimal8 {
                    unscaled: *x,
                    scale: scale_of(*scale).ok_or_else(unsupported)?,
                }
            }
            (
                PhysicalType::Int64,
                Some(LogicalType::Time {
                    is_adjusted_to_utc: false,
                    unit: TimeUnit::Micros,
                }),
                Value::Int64(x),
            ) => Primitive::TimeNtz(*x),
            (
                PhysicalType::Int64,
                Some(LogicalType::Timestamp {
                    is_adjusted_to_utc,
                    unit,
                }),
                Value::Int64(x),
            ) => match (is_adjusted_to_utc, unit) {
                (true, TimeUnit::Micros) => Primitive::Timestamp(*x),
                (false, TimeUnit::Micros) => Primitive::TimestampNtz(*x),
                (true, TimeUnit::Nanos) => Primitive::TimestampNanos(*x),
                (false, TimeUnit::Nanos) => Primitive::TimestampNtzNanos(*x),
                _ => return Err(unsupported()),
            },
            (PhysicalType::Float, None, Value::Float(x)) => Primitive::Float(*x),
            (PhysicalType::Double, None, Value::Double(x)) => Primitive::Double(*x),
            (PhysicalType::ByteArray, None, Value::Bytes(b)) => {
                Primitive::Binary(Cow::Owned(b.clone()))
            }
            (PhysicalType::ByteArray, Some(LogicalType::String), Value::Bytes(b)) => {
                let s = core::str::from_utf8(b).map_err(|_| {
                    Error::out_of_spec("invalid UTF-8 in a shredded STRING")
                        .in_column(&self.path(node))
                })?;
                Primitive::String(Cow::Owned(s.into()))
            }
            (
                PhysicalType::ByteArray | PhysicalType::FixedLenByteArray,
                Some(LogicalType::Decimal { scale, .. }),
                Value::Bytes(b),
            ) => {
                let be = sign_extend(b, 16)
                    .ok_or_else(|| range("DECIMAL width (at most 16 bytes)", b.len() as i64))?;
                let be: [u8; 16] = be
                    .try_into()
                    .map_err(|_| range("DECIMAL width (at most 16 bytes)", b.len() as i64))?;
                Primitive::Decimal16 {
                    unscaled: i128::from_be_bytes(be),
                    scale: scale_of(*scale).ok_or_else(unsupported)?,
                }
            }
            (PhysicalType::FixedLenByteArray, Some(LogicalType::Uuid), Value::Bytes(b)) => {
                Primitive::Uuid(
                    b.as_slice()
                        .try_into()
                        .map_err(|_| range("UUID width (16 bytes)", b.len() as i64))?,
                )
            }
            _ => return Err(unsupported()),
        })
    }
}

/// A DECIMAL scale as a Variant decimal's (0 to 38).
fn scale_of(scale: i32) -> Option<u8> {
    u8::try_from(scale).ok().filter(|s| *s <= 38)
}

/// The record value of the VARIANT group `node` that holds `v`: `metadata` and `value`, and
/// with a `typed_value` in the schema, `v` shredded into it (VariantShredding.md): a primitive
/// whose Variant type is exactly the `typed_value` column's goes there, an array into a LIST
/// `typed_value`, an object's fields into their field groups (the rest in `value`); anything
/// else goes to `value`. An integer also shreds into a wider integer column (int8 1 into an
/// int64 `typed_value` reads back as int64 1: the same number, the same JSON). Otherwise
/// [`variant_value`] of the result gives back `v` exactly.
///
/// Errors: a value that fits neither slot (no `value` field and not the shredded type), a
/// shredding schema that VariantShredding.md does not allow, and the encoder's errors.
pub fn shred(schema: &Schema, node: usize, v: &VariantValue) -> Result<Value> {
    let r = Reassembly {
        schema,
        max_depth: MAX_DEPTH,
    };
    r.check_slots(node, 0)
        .map_err(|e| e.in_column(&schema.node_path_string(node)))?;
    let names = crate::variant::encode::field_names(v)?;
    let metadata = crate::variant::encode::encode_metadata(&names)?;
    let mut fields = r.shred_slots(node, Some(v), &names)?;
    let children = schema.node(node).map_or(&[][..], |n| n.children());
    for (c, f) in children.iter().zip(fields.iter_mut()) {
        if schema.node(*c).is_some_and(|n| n.name == "metadata") {
            *f = Value::Bytes(metadata.clone());
        }
    }
    Ok(Value::Group(fields))
}

impl Reassembly<'_> {
    /// The fields of the group `node` (holding `value` / `typed_value`) for `v`; `None` is a
    /// missing value (both null). `metadata` is left null for the caller.
    fn shred_slots(
        &self,
        node: usize,
        v: Option<&VariantValue>,
        names: &[&str],
    ) -> Result<Vec<Value>> {
        let children = self.schema.node(node).map_or(&[][..], |n| n.children());
        let find = |name: &str| {
            children
                .iter()
                .position(|&c| self.schema.node(c).is_some_and(|n| n.name == name))
        };
        let mut out = alloc::vec![Value::Null; children.len()];
        let Some(v) = v else { return Ok(out) };
        let (value_at, typed_at) = (find("value"), find("typed_value"));
        let mut rest = Some(v.clone());
        if let Some(t) = typed_at {
            let tn = children[t];
            let (typed, left) = self.shred_typed(tn, v, names)?;
            out[t] = typed;
            rest = left;
        }
        if let Some(rest) = rest {
            let Some(at) = value_at else {
                return Err(Error::invalid_argument(
                    "a Variant value that is not of the shredded type, and no `value` field to hold it",
                )
                .in_column(&self.path(node)));
            };
            out[at] = Value::Bytes(crate::variant::encode::encode_with(&rest, names)?);
        }
        Ok(out)
    }

    /// (the `typed_value` record value, what is left for `value`).
    fn shred_typed(
        &self,
        tn: usize,
        v: &VariantValue,
        names: &[&str],
    ) -> Result<(Value, Option<VariantValue>)> {
        let node = self
            .schema
            .node(tn)
            .ok_or_else(|| Error::invalid_argument("bad node"))?;
        match (&node.kind, shape_of(self.schema, tn), v) {
            (NodeKind::Primitive { type_length, .. }, _, VariantValue::Primitive(p)) => {
                match physical_of(p, *type_length) {
                    // The reader's type table decides: shred exactly when it reads back the same.
                    Some(candidate)
                        if self.primitive(tn, &candidate).is_ok_and(|q| q.bit_eq(p))
                            && self.fits_precision(tn, p) =>
                    {
                        Ok((candidate, None))
                    }
                    // An integer also goes into a wider integer column (one equivalence class,
                    // "Exact Numeric", in VariantEncoding.md): JSON's small numbers are int8.
                    _ => {
                        let wider = integer_of(p).and_then(|x| {
                            let wide = [
                                i32::try_from(x).ok().map(Value::Int32),
                                Some(Value::Int64(x)),
                            ];
                            wide.into_iter().flatten().find(|c| {
                                self.primitive(tn, c)
                                    .is_ok_and(|q| integer_of(&q) == Some(x))
                            })
                        });
                        match wider {
                            Some(c) => Ok((c, None)),
                            None => Ok((Value::Null, Some(v.clone()))),
                        }
                    }
                }
            }
            (
                _,
                Shape::List {
                    repeated,
                    three_level,
                },
                VariantValue::Array(items),
            ) => {
                let element = if three_level {
                    self.schema
                        .node(repeated)
                        .and_then(|r| r.children().first().copied())
                } else {
                    Some(repeated)
                }
                .ok_or_else(|| self.err(tn, "a shredded array's LIST has no element"))?;
                let items = items
                    .iter()
                    .map(|x| self.shred_slots(element, Some(x), names).map(Value::Group))
                    .collect::<Result<Vec<_>>>()?;
                Ok((Value::List(items), None))
            }
            (NodeKind::Group { children }, Shape::Group, VariantValue::Object(fields)) => {
                let mut typed = Vec::with_capacity(children.len());
                for &f in children {
                    let name = self.schema.node(f).map_or("", |n| n.name.as_str());
                    typed.push(Value::Group(self.shred_slots(f, v.get(name), names)?));
                }
                let rest: Vec<(String, VariantValue)> = fields
                    .iter()
                    .filter(|(n, _)| {
                        !children
                            .iter()
                            .any(|&c| self.schema.node(c).is_some_and(|x| &x.name == n))
                    })
                    .cloned()
                    .collect();
                let rest = (!rest.is_empty()).then_some(VariantValue::Object(rest));
                Ok((Value::Group(typed), rest))
            }
            _ => Ok((Value::Null, Some(v.clone()))),
        }
    }
}

impl Reassembly<'_> {
    /// Whether a decimal has at most the digits of the DECIMAL column `tn` (other values: yes).
    fn fits_precision(&self, tn: usize, p: &Primitive<'_>) -> bool {
        let unscaled: i128 = match p {
            Primitive::Decimal4 { unscaled, .. } => (*unscaled).into(),
            Primitive::Decimal8 { unscaled, .. } => (*unscaled).into(),
            Primitive::Decimal16 { unscaled, .. } => *unscaled,
            _ => return true,
        };
        let precision = match self.schema.node(tn).map(|n| &n.logical_type) {
            Some(Some(LogicalType::Decimal { precision, .. })) => *precision,
            _ => return true,
        };
        let digits = unscaled
            .unsigned_abs()
            .checked_ilog10()
            .map_or(1, |d| d + 1);
        i64::from(digits) <= i64::from(precision)
    }
}

/// The value of an integer primitive (int8 to int64).
fn integer_of(p: &Primitive<'_>) -> Option<i64> {
    match p {
        Primitive::Int8(x) => Some((*x).into()),
        Primitive::Int16(x) => Some((*x).into()),
        Primitive::Int32(x) => Some((*x).into()),
        Primitive::Int64(x) => Some(*x),
        _ => None,
    }
}

/// The physical record value a shredded column would hold for `p` (checked by the caller
/// against the column's type); `None` when no Parquet value can hold it.
fn physical_of(p: &Primitive<'_>, type_length: Option<usize>) -> Option<Value> {
    Some(match p {
        Primitive::Null => return None,
        Primitive::Boolean(b) => Value::Boolean(*b),
        Primitive::Int8(x) => Value::Int32((*x).into()),
        Primitive::Int16(x) => Value::Int32((*x).into()),
        Primitive::Int32(x) | Primitive::Date(x) | Primitive::Decimal4 { unscaled: x, .. } => {
            Value::Int32(*x)
        }
        Primitive::Int64(x)
        | Primitive::Decimal8 { unscaled: x, .. }
        | Primitive::Timestamp(x)
        | Primitive::TimestampNtz(x)
        | Primitive::TimeNtz(x)
        | Primitive::TimestampNanos(x)
        | Primitive::TimestampNtzNanos(x) => Value::Int64(*x),
        Primitive::Float(x) => Value::Float(*x),
        Primitive::Double(x) => Value::Double(*x),
        Primitive::Decimal16 { unscaled, .. } => {
            let be = unscaled.to_be_bytes();
            // FIXED_LEN_BYTE_ARRAY(n): the low n bytes, when the rest is sign extension.
            let n = type_length.unwrap_or(16).min(16);
            let (high, low) = be.split_at(16 - n);
            let sign = if low.first().is_some_and(|b| b & 0x80 != 0) {
                0xff
            } else {
                0
            };
            if high.iter().any(|&b| b != sign) {
                return None;
            }
            Value::Bytes(low.to_vec())
        }
        Primitive::Binary(b) => Value::Bytes(b.to_vec()),
        Primitive::String(s) => Value::Bytes(s.as_bytes().to_vec()),
        Primitive::Uuid(u) => Value::Bytes(u.to_vec()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use alloc::vec;
    use proptest::prelude::*;

    /// VariantShredding.md's `event` example, with `tags` (a LIST of strings) beside it.
    const EVENT: &str = "message m { optional group event (VARIANT(1)) { required binary metadata;
        optional binary value; optional group typed_value {
          required group event_type { optional binary value; optional binary typed_value (STRING); }
          required group event_ts { optional binary value;
            optional int64 typed_value (TIMESTAMP(MICROS, true)); }
          required group tags { optional binary value; optional group typed_value (LIST) {
            repeated group list { required group element { optional binary value;
              optional binary typed_value (STRING); } } } } } } }";

    fn s(x: &str) -> VariantValue {
        Primitive::String(Cow::Owned(x.to_string())).into()
    }

    fn obj(fields: Vec<(&str, VariantValue)>) -> VariantValue {
        VariantValue::Object(
            fields
                .into_iter()
                .map(|(n, v)| (n.to_string(), v))
                .collect(),
        )
    }

    #[test]
    fn the_spec_event_table_shreds_as_it_says() {
        let schema = Schema::parse(EVENT).unwrap();
        let node = schema.node_index("event").unwrap();
        // (event, value is null, event_type's (value, typed_value) null, event_ts's)
        let rows = [
            (
                obj(vec![
                    ("event_ts", Primitive::Timestamp(1729794114937).into()),
                    ("event_type", s("noop")),
                ]),
                true,
                (true, false),
                (true, false),
            ),
            (
                obj(vec![
                    ("email", s("user@example.com")),
                    ("event_ts", Primitive::Timestamp(1729794146402).into()),
                    ("event_type", s("login")),
                ]),
                false,
                (true, false),
                (true, false),
            ),
            (
                obj(vec![
                    ("event_ts", Primitive::Timestamp(1729794954163).into()),
                    ("event_type", VariantValue::NULL),
                ]),
                true,
                (false, true),
                (true, false),
            ),
            (
                obj(vec![
                    ("event_ts", s("2024-10-24")),
                    ("event_type", s("noop")),
                ]),
                true,
                (true, false),
                (false, true),
            ),
            (obj(vec![]), true, (true, true), (true, true)),
        ];
        for (event, value_null, et, ts) in rows {
            let Value::Group(f) = shred(&schema, node, &event).unwrap() else {
                panic!()
            };
            assert_eq!(f[1].is_null(), value_null, "{event:?}");
            let Value::Group(typed) = &f[2] else {
                panic!("typed_value is non-null for an object")
            };
            let slots = |g: &Value| match g {
                Value::Group(x) => (x[0].is_null(), x[1].is_null()),
                _ => panic!(),
            };
            assert_eq!(slots(&typed[0]), et, "event_type of {event:?}");
            assert_eq!(slots(&typed[1]), ts, "event_ts of {event:?}");
            assert_eq!(
                variant_value(&schema, node, &Value::Group(f)).unwrap(),
                Some(event)
            );
        }
        // Not an object: all in `value`, typed_value null.
        let Value::Group(f) = shred(&schema, node, &s("malformed")).unwrap() else {
            panic!()
        };
        assert!(
            f[1] == Value::Bytes(vec![
                0x25, b'm', b'a', b'l', b'f', b'o', b'r', b'm', b'e', b'd'
            ])
        );
        assert!(f[2].is_null());
    }

    fn leaf() -> impl Strategy<Value = VariantValue> {
        prop_oneof![
            Just(VariantValue::NULL),
            any::<bool>().prop_map(|b| Primitive::Boolean(b).into()),
            any::<i64>().prop_map(|x| Primitive::Timestamp(x).into()),
            any::<i16>().prop_map(|x| Primitive::Int16(x).into()),
            "[a-z]{0,5}".prop_map(|x| s(&x)),
        ]
    }

    fn value() -> impl Strategy<Value = VariantValue> {
        leaf().prop_recursive(3, 40, 5, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..5).prop_map(VariantValue::Array),
                proptest::collection::btree_map(
                    prop_oneof![
                        Just("event_type".to_string()),
                        Just("event_ts".to_string()),
                        Just("tags".to_string()),
                        "[a-z]{1,3}"
                    ],
                    inner,
                    0..5,
                )
                .prop_map(|m| VariantValue::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn shredding_then_reassembling_gives_the_value_back(v in value()) {
            let schema = Schema::parse(EVENT).unwrap();
            let node = schema.node_index("event").unwrap();
            let record = shred(&schema, node, &v).unwrap();
            let back = variant_value(&schema, node, &record).unwrap();
            prop_assert_eq!(back, Some(v));
        }
    }
}
