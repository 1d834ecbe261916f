//! Record assembly: leaf columns (levels + values) back into nested records.
//!
//! Spec: the Dremel paper's record assembly, as parquet-format's README ("Nested Encoding")
//! describes the levels: the *definition level* of an entry counts the optional and repeated
//! fields on the column's path that are present; the *repetition level* says at which
//! repeated field on the path the entry starts a new element (0: a new record). LIST and MAP
//! shapes, legacy forms included, follow LogicalTypes.md (see `shape.rs`).
//!
//! # Worked example
//!
//! ```text
//! message m {
//!   required int64 id;                                      id: def 0, rep 0
//!   optional group tags (LIST) {                            tags.list.element:
//!     repeated group list { optional binary element; } }    max_def 3, max_rep 1
//! }
//!
//! record                        id    tags.list.element (def, rep, value)
//! {id: 1, tags: ["a", null]}    1     (3, 0, "a") (2, 1, -)
//! {id: 2, tags: []}             2     (1, 0, -)
//! {id: 3, tags: null}           3     (0, 0, -)
//! ```
//!
//! Column `id` has max_def_level 0 and max_rep_level 0, so its levels are empty and it holds
//! one value per record.
//!
//! ```
//! use parket::levels::{assemble, LeafData};
//! use parket::record::Value;
//! use parket::schema::Schema;
//! use parket::values::{ByteArrays, Values};
//! let schema = Schema::parse("message m { required int64 id; optional group tags (LIST) { \
//!     repeated group list { optional binary element; } } }")?;
//! let id = LeafData { def_levels: vec![], rep_levels: vec![], values: Values::Int64(vec![1, 2, 3]) };
//! let tags = LeafData {
//!     def_levels: vec![3, 2, 1, 0],
//!     rep_levels: vec![0, 1, 0, 0],
//!     values: Values::ByteArray(["a"].into_iter().collect::<ByteArrays>()),
//! };
//! let records = assemble(&schema, &[id, tags])?;
//! assert_eq!(records, vec![
//!     Value::Group(vec![Value::Int64(1), Value::List(vec![Value::Bytes(b"a".to_vec()), Value::Null])]),
//!     Value::Group(vec![Value::Int64(2), Value::List(vec![])]),
//!     Value::Group(vec![Value::Int64(3), Value::Null]),
//! ]);
//! # Ok::<(), parket::Error>(())
//! ```
//!
//! # Algorithm
//!
//! One cursor per column (level position, value position); for each record the schema tree
//! is walked once, and at each node the first column below it is peeked to decide between
//! null, empty and present, and, after each element of a repeated field, whether the next
//! entry continues it (its repetition level equals the field's). Every entry consumed is
//! checked against what the structure so far implies (its repetition level, and for nulls its
//! exact definition level), so columns that disagree are an error, never a wrong record. The
//! recursion follows the schema's depth (bounded), never the data.

use alloc::vec::Vec;

use crate::error::{Error, Result};
use crate::format::FieldRepetitionType;
use crate::levels::shape::{shapes, Shape};
use crate::levels::LeafData;
use crate::record::Value;
use crate::schema::Schema;
use crate::values::Values;

/// Assembles the records held by `columns`, one [`LeafData`] per leaf column of `schema` in
/// column order (e.g. a whole row group). Returns one [`Value::Group`] per record.
///
/// Shapes: a group is a `Group` (children in schema order); a LIST (3-level, 2-level or
/// 1-level) is a `List`; a MAP / MAP_KEY_VALUE is a `Map` (value `Null` when the key/value
/// group has no value field); a repeated field outside LIST / MAP is a `List` of its values;
/// a null at any level is `Null`. A subtree without columns (an empty group) reads as an empty
/// `Group`, `Null` or empty `List` as its repetition says.
///
/// Errors (never panics, for any levels and values): a column count that is not the schema's;
/// level vectors of different lengths; a level above its maximum; a record's first repetition
/// level not 0; columns whose levels disagree on the structure of a record or on the number of
/// records; fewer values than definition levels at the maximum; values left over. Work is
/// linear in the levels plus the schema size per record.
pub fn assemble(schema: &Schema, columns: &[LeafData]) -> Result<Vec<Value>> {
    let mut starts = alloc::vec![Position::default(); columns.len()];
    let mut records = Vec::new();
    assemble_records(schema, columns, &mut starts, usize::MAX, &mut records)?;
    check_all_assembled(schema, columns, &starts)?;
    Ok(records)
}

/// Once the last record is assembled, every column must be at its end: `ends` (from
/// [`assemble_records`]) past every level entry and every value.
pub(crate) fn check_all_assembled(
    schema: &Schema,
    columns: &[LeafData],
    ends: &[Position],
) -> Result<()> {
    for (i, c) in columns.iter().enumerate() {
        let levels = level_count(c, schema.column(i).map_or(0, |d| d.max_def_level));
        let end = ends.get(i).copied().unwrap_or_default();
        if end.level < levels {
            return Err(err_in(
                schema,
                i,
                Error::out_of_spec("columns disagree on the number of records"),
            ));
        }
        if end.value < c.values.len() {
            return Err(err_in(
                schema,
                i,
                Error::out_of_spec("values left over after the last definition level"),
            ));
        }
    }
    Ok(())
}

/// Where a column's next record starts: its level position and its value position.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Position {
    /// Level position (for a column without levels, the value position).
    pub(crate) level: usize,
    /// Value position.
    pub(crate) value: usize,
}

/// The level positions of a column (its values when it has no levels).
pub(crate) fn level_count(data: &LeafData, max_def_level: u16) -> usize {
    if !data.def_levels.is_empty() {
        data.def_levels.len()
    } else if max_def_level == 0 {
        data.values.len()
    } else {
        0
    }
}

fn err_in(schema: &Schema, col: usize, e: Error) -> Error {
    match schema.column(col) {
        Some(c) => e.in_column(&c.path_string()),
        None => e,
    }
}

/// Assembles up to `max_records` records from `columns`, each column starting at its entry of
/// `starts`, which is advanced past what was consumed; stops early when the first column has
/// no entry left. Appends the records to `out`. A record is only complete when every column
/// holds its entries up to the next record's first entry (or its last entry), which the
/// caller ensures when it streams (see `read::records`).
pub(crate) fn assemble_records(
    schema: &Schema,
    columns: &[LeafData],
    starts: &mut [Position],
    max_records: usize,
    out: &mut Vec<Value>,
) -> Result<()> {
    let mut a = Assembler::new(schema, columns)?;
    if a.cols.is_empty() {
        return Ok(());
    }
    for (c, s) in a.cols.iter_mut().zip(starts.iter()) {
        c.pos = s.level.min(c.n);
        c.vpos = s.value.min(c.data.values.len());
    }
    let mut made = 0;
    while made < max_records && a.cols.first().is_some_and(|c| c.pos < c.n) {
        out.push(a.read_inner(0, 0)?);
        made += 1;
    }
    for (c, s) in a.cols.iter().zip(starts.iter_mut()) {
        *s = Position {
            level: c.pos,
            value: c.vpos,
        };
    }
    Ok(())
}

/// One column's read position.
struct Cursor<'a> {
    data: &'a LeafData,
    /// Level entries.
    n: usize,
    pos: usize,
    vpos: usize,
    max_def: u16,
    max_rep: u16,
}

struct Assembler<'a> {
    schema: &'a Schema,
    shapes: Vec<Shape>,
    cols: Vec<Cursor<'a>>,
}

impl<'a> Assembler<'a> {
    fn new(schema: &'a Schema, columns: &'a [LeafData]) -> Result<Self> {
        if columns.len() != schema.columns().len() {
            return Err(Error::invalid_argument(alloc::format!(
                "assemble: {} columns given for a schema of {} leaf columns",
                columns.len(),
                schema.columns().len()
            )));
        }
        let shapes = shapes(schema)?;
        let mut cols = Vec::with_capacity(columns.len());
        for (data, desc) in columns.iter().zip(schema.columns()) {
            let n = level_count(data, desc.max_def_level);
            let rep_ok = if data.rep_levels.is_empty() {
                desc.max_rep_level == 0 || n == 0
            } else {
                data.rep_levels.len() == n
            };
            if !rep_ok {
                return Err(
                    Error::out_of_spec("repetition and definition level counts differ")
                        .in_column(&desc.path_string()),
                );
            }
            cols.push(Cursor {
                data,
                n,
                pos: 0,
                vpos: 0,
                max_def: desc.max_def_level,
                max_rep: desc.max_rep_level,
            });
        }
        Ok(Assembler {
            schema,
            shapes,
            cols,
        })
    }

    fn err_col(&self, col: usize, e: Error) -> Error {
        err_in(self.schema, col, e)
    }

    /// The (def, rep) of the next entry of column `c`.
    #[inline]
    fn peek(&self, c: usize) -> Option<(u16, u16)> {
        let col = self.cols.get(c)?;
        if col.pos >= col.n {
            return None;
        }
        let d = col.data.def_levels.get(col.pos).copied().unwrap_or(0);
        let r = col.data.rep_levels.get(col.pos).copied().unwrap_or(0);
        Some((d, r))
    }

    /// The definition level of the next entry of the first column below node `n`.
    fn peek_def(&self, n: usize) -> Result<u16> {
        let c = self.first_column(n);
        match self.peek(c) {
            Some((d, _)) => Ok(d),
            None => Err(self.err_col(
                c,
                Error::out_of_spec("a column ends before the other columns of its record"),
            )),
        }
    }

    fn first_column(&self, n: usize) -> usize {
        self.schema
            .nodes()
            .get(n)
            .map_or(0, |node| node.columns.start)
    }

    /// Consumes the next entry of column `c`, which must have repetition level `rep`.
    /// Returns its definition level.
    #[inline]
    fn take(&mut self, c: usize, rep: u16) -> Result<u16> {
        let Some((d, r)) = self.peek(c) else {
            return Err(self.err_col(
                c,
                Error::out_of_spec("a column ends before the other columns of its record"),
            ));
        };
        let (max_def, max_rep) = (self.cols[c].max_def, self.cols[c].max_rep);
        if d > max_def {
            return Err(self.err_col(
                c,
                Error::out_of_range("definition level above max_def_level", d as i64),
            ));
        }
        if r != rep {
            let e = if r > max_rep {
                Error::out_of_range("repetition level above max_rep_level", r as i64)
            } else if rep == 0 {
                // Spec: repetition level 0 starts a record; a column's first entry starts one.
                Error::out_of_range(
                    "repetition level at the start of a record (must be 0)",
                    r as i64,
                )
            } else {
                Error::out_of_spec("repetition levels of the columns of one record disagree")
            };
            return Err(self.err_col(c, e));
        }
        self.cols[c].pos += 1;
        Ok(d)
    }

    /// Consumes one entry in every column below node `n`, which is absent (null or an empty
    /// repeated field): each entry must say exactly that.
    fn consume_null(&mut self, n: usize, rep: u16) -> Result<()> {
        let Some(node) = self.schema.nodes().get(n) else {
            return Ok(());
        };
        // Spec: an absent optional or repeated node leaves the definition level at its
        // parent's, one below its own.
        let expected = node.max_def_level.saturating_sub(1);
        for c in node.columns.clone() {
            let d = self.take(c, rep)?;
            if d != expected {
                return Err(self.err_col(
                    c,
                    Error::out_of_spec("definition levels of the columns of one record disagree"),
                ));
            }
        }
        Ok(())
    }

    /// Whether the next entry below repeated node `r` continues it with another element.
    #[inline]
    fn continues(&self, r: usize, r_level: u16) -> bool {
        matches!(self.peek(self.first_column(r)), Some((_, rep)) if rep == r_level)
    }

    /// Whether repeated node `r` has at least one element here; if not, its absence is
    /// consumed.
    fn repeated_present(&mut self, r: usize, rep: u16) -> Result<bool> {
        let d_r = self.schema.nodes().get(r).map_or(0, |n| n.max_def_level);
        if self.peek_def(r)? < d_r {
            self.consume_null(r, rep)?;
            return Ok(false);
        }
        Ok(true)
    }

    /// The value of node `n` in its parent's slot (a repeated node gives all its elements).
    fn read_node(&mut self, n: usize, rep: u16) -> Result<Value> {
        let schema = self.schema;
        let Some(node) = schema.nodes().get(n) else {
            return Ok(Value::Null);
        };
        if node.columns.is_empty() {
            return Ok(self.empty_value(n));
        }
        match node.repetition {
            FieldRepetitionType::Repeated => {
                let r_level = node.max_rep_level;
                if self.shapes.get(n) == Some(&Shape::KeyValue) {
                    let mut entries = Vec::new();
                    if self.repeated_present(n, rep)? {
                        let mut e = rep;
                        loop {
                            entries.push(self.read_entry(n, e)?);
                            e = r_level;
                            if !self.continues(n, r_level) {
                                break;
                            }
                        }
                    }
                    return Ok(Value::Map(entries));
                }
                let mut items = Vec::new();
                if self.repeated_present(n, rep)? {
                    let mut e = rep;
                    loop {
                        items.push(self.read_inner(n, e)?);
                        e = r_level;
                        if !self.continues(n, r_level) {
                            break;
                        }
                    }
                }
                Ok(Value::List(items))
            }
            FieldRepetitionType::Optional => {
                if self.peek_def(n)? < node.max_def_level {
                    self.consume_null(n, rep)?;
                    Ok(Value::Null)
                } else {
                    self.read_inner(n, rep)
                }
            }
            FieldRepetitionType::Required => self.read_inner(n, rep),
        }
    }

    /// The value of node `n`, known to be present, ignoring its own repetition.
    fn read_inner(&mut self, n: usize, rep: u16) -> Result<Value> {
        let schema = self.schema;
        let Some(node) = schema.nodes().get(n) else {
            return Ok(Value::Null);
        };
        match self.shapes.get(n).copied().unwrap_or(Shape::Group) {
            Shape::Leaf(c) => {
                let d = self.take(c, rep)?;
                if d != self.cols[c].max_def {
                    return Err(self.err_col(
                        c,
                        Error::out_of_spec(
                            "definition levels of the columns of one record disagree",
                        ),
                    ));
                }
                let col = &self.cols[c];
                let Some(v) = value_at(&col.data.values, col.vpos) else {
                    return Err(self.err_col(
                        c,
                        Error::out_of_spec("fewer values than definition levels at the maximum"),
                    ));
                };
                self.cols[c].vpos += 1;
                Ok(v)
            }
            Shape::Group | Shape::KeyValue => {
                let mut fields = Vec::with_capacity(node.children().len());
                for &child in node.children() {
                    self.push_node(child, rep, &mut fields)?;
                }
                Ok(Value::Group(fields))
            }
            Shape::List {
                repeated,
                three_level,
            } => {
                let r_level = schema.nodes().get(repeated).map_or(0, |r| r.max_rep_level);
                let element = schema
                    .nodes()
                    .get(repeated)
                    .and_then(|r| r.children().first().copied());
                let mut items = Vec::new();
                if self.repeated_present(repeated, rep)? {
                    let mut e = rep;
                    loop {
                        match (three_level, element) {
                            (true, Some(el)) => self.push_node(el, e, &mut items)?,
                            _ => items.push(self.read_inner(repeated, e)?),
                        }
                        e = r_level;
                        if !self.continues(repeated, r_level) {
                            break;
                        }
                    }
                }
                Ok(Value::List(items))
            }
            Shape::Map { repeated } => {
                let r_level = schema.nodes().get(repeated).map_or(0, |r| r.max_rep_level);
                let mut entries = Vec::new();
                if self.repeated_present(repeated, rep)? {
                    let mut e = rep;
                    loop {
                        entries.push(self.read_entry(repeated, e)?);
                        e = r_level;
                        if !self.continues(repeated, r_level) {
                            break;
                        }
                    }
                }
                Ok(Value::Map(entries))
            }
        }
    }

    /// [`Assembler::read_node`]'s value of node `n`, pushed onto `out`: a leaf that is not
    /// repeated is read here (see [`Assembler::push_leaf`]).
    #[inline(always)]
    fn push_node(&mut self, n: usize, rep: u16, out: &mut Vec<Value>) -> Result<()> {
        let repetition = self.schema.nodes().get(n).map(|node| node.repetition);
        match (self.shapes.get(n), repetition) {
            (Some(&Shape::Leaf(c)), Some(FieldRepetitionType::Required)) => {
                self.push_leaf(c, false, rep, out)
            }
            (Some(&Shape::Leaf(c)), Some(FieldRepetitionType::Optional)) => {
                self.push_leaf(c, true, rep, out)
            }
            _ => {
                out.push(self.read_node(n, rep)?);
                Ok(())
            }
        }
    }

    /// What [`Assembler::read_node`] gives for the leaf of column `c` when it is not
    /// repeated (`optional`, or required), pushed onto `out` instead of returned: a record's
    /// fields and list elements are mostly leaves, and a `Value` returned through a `Result`
    /// was written to memory piece by piece and read back whole, which stalled on every one.
    #[inline]
    fn push_leaf(
        &mut self,
        c: usize,
        optional: bool,
        rep: u16,
        out: &mut Vec<Value>,
    ) -> Result<()> {
        let d = self.take(c, rep)?;
        let Some(col) = self.cols.get_mut(c) else {
            // Not reached: `take` found the column.
            return Err(self.err_col(c, Error::out_of_spec("no such column")));
        };
        if d == col.max_def {
            if !push_value_at(&col.data.values, col.vpos, out) {
                return Err(self.err_col(
                    c,
                    Error::out_of_spec("fewer values than definition levels at the maximum"),
                ));
            }
            col.vpos += 1;
        } else if optional && d + 1 == col.max_def {
            // Spec: an absent optional node leaves the definition level at its parent's.
            out.push(Value::Null);
        } else {
            return Err(self.err_col(
                c,
                Error::out_of_spec("definition levels of the columns of one record disagree"),
            ));
        }
        Ok(())
    }

    /// One key/value pair of the key/value group `kv`.
    fn read_entry(&mut self, kv: usize, rep: u16) -> Result<(Value, Value)> {
        let schema = self.schema;
        let children = schema.nodes().get(kv).map_or(&[][..], |n| n.children());
        let key = match children.first() {
            Some(&k) => self.read_node(k, rep)?,
            None => Value::Null,
        };
        let value = match children.get(1) {
            Some(&v) => self.read_node(v, rep)?,
            None => Value::Null,
        };
        Ok((key, value))
    }

    /// The value of a subtree without columns (no levels say anything about it).
    fn empty_value(&self, n: usize) -> Value {
        let Some(node) = self.schema.nodes().get(n) else {
            return Value::Null;
        };
        match node.repetition {
            FieldRepetitionType::Repeated => Value::List(Vec::new()),
            FieldRepetitionType::Optional => Value::Null,
            FieldRepetitionType::Required => Value::Group(
                node.children()
                    .iter()
                    .map(|&c| self.empty_value(c))
                    .collect(),
            ),
        }
    }
}

/// Value `i` of `values` as a record leaf.
pub(crate) fn value_at(values: &Values, i: usize) -> Option<Value> {
    Some(match values {
        Values::Boolean(v) => Value::Boolean(*v.get(i)?),
        Values::Int32(v) => Value::Int32(*v.get(i)?),
        Values::Int64(v) => Value::Int64(*v.get(i)?),
        Values::Int96(v) => Value::Int96(*v.get(i)?),
        Values::Float(v) => Value::Float(*v.get(i)?),
        Values::Double(v) => Value::Double(*v.get(i)?),
        Values::ByteArray(v) => Value::Bytes(v.get(i)?.to_vec()),
        Values::FixedLenByteArray(v) => Value::Bytes(v.get(i)?.to_vec()),
    })
}

/// [`value_at`] pushed onto `out` (false when there is no value `i`): one push per kind of
/// value, so that no `Option<Value>` is built to be taken apart again.
#[inline(always)]
fn push_value_at(values: &Values, i: usize, out: &mut Vec<Value>) -> bool {
    match values {
        Values::Boolean(v) => v.get(i).map(|&x| out.push(Value::Boolean(x))),
        Values::Int32(v) => v.get(i).map(|&x| out.push(Value::Int32(x))),
        Values::Int64(v) => v.get(i).map(|&x| out.push(Value::Int64(x))),
        Values::Int96(v) => v.get(i).map(|&x| out.push(Value::Int96(x))),
        Values::Float(v) => v.get(i).map(|&x| out.push(Value::Float(x))),
        Values::Double(v) => v.get(i).map(|&x| out.push(Value::Double(x))),
        Values::ByteArray(v) => v.get(i).map(|x| out.push(Value::Bytes(x.to_vec()))),
        Values::FixedLenByteArray(v) => v.get(i).map(|x| out.push(Value::Bytes(x.to_vec()))),
    }
    .is_some()
}
