//! Shredding (Dremel striping): nested records into leaf columns of levels + values, the
//! inverse of [`crate::levels::assemble()`].
//!
//! Spec: parquet-format's README, "Nested Encoding": each leaf value is written with the
//! definition level (how many optional / repeated fields on its path are present) and the
//! repetition level (at which repeated field on the path it starts a new element; 0 starts a
//! record). A null or an empty repeated field writes one entry with the definition level of
//! the deepest node present and no value. LIST and MAP are written in the shape the schema
//! has: the canonical 3-level form when the schema says so, 2-level and bare repeated fields
//! otherwise (see `shape.rs` for how a LIST's shape is recognised).
//!
//! # Worked example: the Dremel paper's Document
//!
//! ```text
//! message Document {
//!   required int64 DocId;
//!   optional group Links { repeated int64 Backward; repeated int64 Forward; }
//!   repeated group Name {
//!     repeated group Language { required binary Code; optional binary Country; }
//!     optional binary Url; }
//! }
//!
//! r1 = {DocId: 10, Links: {Backward: [], Forward: [20, 40, 60]},
//!       Name: [{Language: [{Code: "en-us", Country: "us"}, {Code: "en", Country: null}],
//!               Url: "http://A"},
//!              {Language: [], Url: "http://B"},
//!              {Language: [{Code: "en-gb", Country: "gb"}], Url: null}]}
//!
//! Name.Language.Code     (max_def 2, max_rep 2)   value    def  rep
//!                                                 en-us     2    0
//!                                                 en        2    2
//!                                                 -         1    1   (Name[1] has no Language)
//!                                                 en-gb     2    1
//! Name.Language.Country  (max_def 3, max_rep 2)   us        3    0
//!                                                 -         2    2   (Country null)
//!                                                 -         1    1
//!                                                 gb        3    1
//! Links.Backward         (max_def 2, max_rep 1)   -         1    0   (empty list)
//! ```
//!
//! The tests (`tests/records.rs`) write the whole table out and check both directions.
//!
//! ```
//! use parket::levels::shred;
//! use parket::record::Value;
//! use parket::schema::Schema;
//! use parket::values::Values;
//! let schema = Schema::parse("message m { optional group a (LIST) { \
//!     repeated group list { optional int32 element; } } }")?;
//! let records = [
//!     Value::Group(vec![Value::List(vec![Value::Int32(1), Value::Null])]),
//!     Value::Group(vec![Value::List(vec![])]),
//!     Value::Group(vec![Value::Null]),
//! ];
//! let columns = shred(&schema, &records)?;
//! assert_eq!(columns[0].def_levels, [3, 2, 1, 0]);
//! assert_eq!(columns[0].rep_levels, [0, 1, 0, 0]);
//! assert_eq!(columns[0].values, Values::Int32(vec![1]));
//! # Ok::<(), parket::Error>(())
//! ```

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::error::{Error, Result};
use crate::format::FieldRepetitionType;
use crate::levels::shape::{shapes, Shape};
use crate::levels::LeafData;
use crate::record::Value;
use crate::schema::Schema;
use crate::values::Values;

/// Empty [`LeafData`] for every leaf column of `schema`, ready for [`shred_into`].
pub fn empty_columns(schema: &Schema) -> Vec<LeafData> {
    schema
        .columns()
        .iter()
        .map(|c| LeafData {
            def_levels: Vec::new(),
            rep_levels: Vec::new(),
            values: Values::new(c.physical_type, c.type_length.unwrap_or(0)),
        })
        .collect()
}

/// Shreds `records` (one [`Value::Group`] per record, shaped as [`crate::levels::assemble()`]
/// returns them) into one [`LeafData`] per leaf column of `schema`.
///
/// Errors ([`Error::invalid_argument`], naming the record index and the dotted column path):
/// a record that is not a group; `Null` where the schema says REQUIRED; a leaf value of the
/// wrong physical type or a FIXED_LEN_BYTE_ARRAY value of the wrong width; a group with the
/// wrong number of fields; a value of the wrong shape (a `List` where a `Map` belongs, ...);
/// a map key that is `Null`; a map value given where the key/value group has no value field.
/// `Null` for a repeated field outside LIST / MAP is taken as no repetitions.
pub fn shred(schema: &Schema, records: &[Value]) -> Result<Vec<LeafData>> {
    let mut out = empty_columns(schema);
    shred_into(schema, records, &mut out)?;
    Ok(out)
}

/// As [`shred`], appending to `columns` (one per leaf column, e.g. a row group being
/// buffered by a streaming writer). On error `columns` are left as they were before the call.
pub fn shred_into(schema: &Schema, records: &[Value], columns: &mut [LeafData]) -> Result<()> {
    if columns.len() != schema.columns().len() {
        return Err(Error::invalid_argument(format!(
            "shred: {} columns given for a schema of {} leaf columns",
            columns.len(),
            schema.columns().len()
        )));
    }
    for (c, desc) in columns.iter().zip(schema.columns()) {
        let width_ok = match &c.values {
            Values::FixedLenByteArray(f) => Some(f.width()) == desc.type_length,
            _ => true,
        };
        if c.values.physical_type() != desc.physical_type || !width_ok {
            return Err(Error::invalid_argument(format!(
                "shred: the values buffer of column {} is not of its physical type",
                desc.path_string()
            )));
        }
    }
    let marks: Vec<(usize, usize, usize)> = columns
        .iter()
        .map(|c| (c.def_levels.len(), c.rep_levels.len(), c.values.len()))
        .collect();
    let mut s = Shredder {
        schema,
        shapes: shapes(schema)?,
        out: columns,
        record: 0,
    };
    let mut result = Ok(());
    for (i, r) in records.iter().enumerate() {
        s.record = i;
        result = s.shred_inner(0, r, 0);
        if result.is_err() {
            break;
        }
    }
    if result.is_err() {
        for (c, (d, r, v)) in columns.iter_mut().zip(marks) {
            c.def_levels.truncate(d);
            c.rep_levels.truncate(r);
            truncate_values(&mut c.values, v);
        }
    }
    result
}

/// Keeps the first `n` values.
fn truncate_values(values: &mut Values, n: usize) {
    match values {
        Values::Boolean(v) => v.truncate(n),
        Values::Int32(v) => v.truncate(n),
        Values::Int64(v) => v.truncate(n),
        Values::Int96(v) => v.truncate(n),
        Values::Float(v) => v.truncate(n),
        Values::Double(v) => v.truncate(n),
        Values::ByteArray(b) => {
            let (offsets, data) = b.parts_mut();
            offsets.truncate(n + 1);
            let end = offsets.last().copied().unwrap_or(0);
            data.truncate(end);
        }
        Values::FixedLenByteArray(f) => {
            let w = f.width();
            f.data_mut().truncate(n.saturating_mul(w));
        }
    }
}

struct Shredder<'a> {
    schema: &'a Schema,
    shapes: Vec<Shape>,
    out: &'a mut [LeafData],
    record: usize,
}

fn kind_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Boolean(_) => "BOOLEAN",
        Value::Int32(_) => "INT32",
        Value::Int64(_) => "INT64",
        Value::Int96(_) => "INT96",
        Value::Float(_) => "FLOAT",
        Value::Double(_) => "DOUBLE",
        Value::Bytes(_) => "byte array",
        Value::Group(_) => "group",
        Value::List(_) => "list",
        Value::Map(_) => "map",
    }
}

impl Shredder<'_> {
    fn err(&self, node: usize, why: String) -> Error {
        let path = self.schema.node_path_string(node);
        let path = if path.is_empty() { "<root>" } else { &path };
        Error::invalid_argument(format!("record {}, column {}: {}", self.record, path, why))
    }

    #[inline]
    fn push_levels(&mut self, c: usize, def: u16, rep: u16) {
        let (max_def, max_rep) = match self.schema.column(c) {
            Some(d) => (d.max_def_level, d.max_rep_level),
            None => return,
        };
        if let Some(col) = self.out.get_mut(c) {
            if max_def > 0 {
                col.def_levels.push(def);
            }
            if max_rep > 0 {
                col.rep_levels.push(rep);
            }
        }
    }

    /// One entry in every column below absent node `n` (null, or repeated with no element).
    fn emit_null(&mut self, n: usize, rep: u16) {
        let Some(node) = self.schema.nodes().get(n) else {
            return;
        };
        // Spec: the definition level stops at the parent, one below the node's own.
        let def = node.max_def_level.saturating_sub(1);
        for c in node.columns.clone() {
            self.push_levels(c, def, rep);
        }
    }

    /// Node `n` in its parent's slot, with its own repetition.
    fn shred_node(&mut self, n: usize, v: &Value, rep: u16) -> Result<()> {
        let schema = self.schema;
        let Some(node) = schema.nodes().get(n) else {
            return Ok(());
        };
        if node.columns.is_empty() {
            return Ok(());
        }
        match node.repetition {
            FieldRepetitionType::Repeated => {
                let r_level = node.max_rep_level;
                if self.shapes.get(n) == Some(&Shape::KeyValue) {
                    let entries: &[(Value, Value)] = match v {
                        Value::Map(e) => e,
                        Value::Null => &[],
                        other => {
                            return Err(
                                self.err(n, format!("expected a map, found {}", kind_name(other)))
                            )
                        }
                    };
                    if entries.is_empty() {
                        self.emit_null(n, rep);
                    }
                    for (i, (k, val)) in entries.iter().enumerate() {
                        self.shred_entry(n, k, val, if i == 0 { rep } else { r_level })?;
                    }
                    return Ok(());
                }
                let items: &[Value] = match v {
                    Value::List(items) => items,
                    Value::Null => &[],
                    other => {
                        return Err(self.err(
                            n,
                            format!(
                                "expected a list (repeated field), found {}",
                                kind_name(other)
                            ),
                        ))
                    }
                };
                if items.is_empty() {
                    self.emit_null(n, rep);
                }
                for (i, item) in items.iter().enumerate() {
                    self.shred_inner(n, item, if i == 0 { rep } else { r_level })?;
                }
                Ok(())
            }
            FieldRepetitionType::Optional => {
                if v.is_null() {
                    self.emit_null(n, rep);
                    Ok(())
                } else {
                    self.shred_inner(n, v, rep)
                }
            }
            FieldRepetitionType::Required => {
                if v.is_null() {
                    return Err(self.err(n, String::from("null in a required field")));
                }
                self.shred_inner(n, v, rep)
            }
        }
    }

    /// Node `n`'s value, known to be present, ignoring its own repetition.
    fn shred_inner(&mut self, n: usize, v: &Value, rep: u16) -> Result<()> {
        let schema = self.schema;
        let Some(node) = schema.nodes().get(n) else {
            return Ok(());
        };
        match self.shapes.get(n).copied().unwrap_or(Shape::Group) {
            Shape::Leaf(c) => {
                self.push_value(n, c, v)?;
                self.push_levels(c, node.max_def_level, rep);
                Ok(())
            }
            Shape::Group | Shape::KeyValue => {
                let Value::Group(fields) = v else {
                    return Err(self.err(n, format!("expected a group, found {}", kind_name(v))));
                };
                if fields.len() != node.children().len() {
                    return Err(self.err(
                        n,
                        format!(
                            "a group of {} fields where the schema has {}",
                            fields.len(),
                            node.children().len()
                        ),
                    ));
                }
                for (&child, f) in node.children().iter().zip(fields) {
                    self.shred_node(child, f, rep)?;
                }
                Ok(())
            }
            Shape::List {
                repeated,
                three_level,
            } => {
                let Value::List(items) = v else {
                    return Err(self.err(n, format!("expected a list, found {}", kind_name(v))));
                };
                if items.is_empty() {
                    self.emit_null(repeated, rep);
                    return Ok(());
                }
                let r_node = schema.nodes().get(repeated);
                let r_level = r_node.map_or(0, |r| r.max_rep_level);
                let element = r_node.and_then(|r| r.children().first().copied());
                for (i, item) in items.iter().enumerate() {
                    let e = if i == 0 { rep } else { r_level };
                    match (three_level, element) {
                        (true, Some(el)) => self.shred_node(el, item, e)?,
                        _ => self.shred_inner(repeated, item, e)?,
                    }
                }
                Ok(())
            }
            Shape::Map { repeated } => {
                let Value::Map(entries) = v else {
                    return Err(self.err(n, format!("expected a map, found {}", kind_name(v))));
                };
                if entries.is_empty() {
                    self.emit_null(repeated, rep);
                    return Ok(());
                }
                let r_level = schema.nodes().get(repeated).map_or(0, |r| r.max_rep_level);
                for (i, (k, val)) in entries.iter().enumerate() {
                    self.shred_entry(repeated, k, val, if i == 0 { rep } else { r_level })?;
                }
                Ok(())
            }
        }
    }

    /// One key/value pair into the key/value group `kv`.
    fn shred_entry(&mut self, kv: usize, key: &Value, value: &Value, rep: u16) -> Result<()> {
        let schema = self.schema;
        let children = schema.nodes().get(kv).map_or(&[][..], |n| n.children());
        let Some(&k) = children.first() else {
            return Ok(());
        };
        if key.is_null() {
            return Err(self.err(k, String::from("null map key")));
        }
        self.shred_node(k, key, rep)?;
        match children.get(1) {
            Some(&vn) => self.shred_node(vn, value, rep),
            None if value.is_null() => Ok(()),
            None => Err(self.err(
                kv,
                String::from("a map value where the key/value group has no value field"),
            )),
        }
    }

    fn push_value(&mut self, n: usize, c: usize, v: &Value) -> Result<()> {
        let Some(col) = self.out.get_mut(c) else {
            return Ok(());
        };
        let ok = match (&mut col.values, v) {
            (Values::Boolean(a), Value::Boolean(x)) => {
                a.push(*x);
                true
            }
            (Values::Int32(a), Value::Int32(x)) => {
                a.push(*x);
                true
            }
            (Values::Int64(a), Value::Int64(x)) => {
                a.push(*x);
                true
            }
            (Values::Int96(a), Value::Int96(x)) => {
                a.push(*x);
                true
            }
            (Values::Float(a), Value::Float(x)) => {
                a.push(*x);
                true
            }
            (Values::Double(a), Value::Double(x)) => {
                a.push(*x);
                true
            }
            (Values::ByteArray(a), Value::Bytes(x)) => {
                a.push(x);
                true
            }
            (Values::FixedLenByteArray(a), Value::Bytes(x)) => {
                let w = a.width();
                if a.push(x).is_none() {
                    return Err(self.err(
                        n,
                        format!(
                            "a value of {} bytes in a FIXED_LEN_BYTE_ARRAY({}) column",
                            x.len(),
                            w
                        ),
                    ));
                }
                true
            }
            _ => false,
        };
        if ok {
            return Ok(());
        }
        let physical = self
            .schema
            .column(c)
            .map_or("?", |d| d.physical_type.name());
        Err(self.err(
            n,
            format!("a {} value in a {} column", kind_name(v), physical),
        ))
    }
}
