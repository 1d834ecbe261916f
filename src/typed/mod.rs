//! Rust types as Parquet rows: the [`Record`] trait that `#[derive(parket::Record)]`
//! implements, and the machinery its generated code calls. No I/O here: the file writer's
//! `write::TypedWriter` and the file reader's `read_typed` drive it.
//!
//! Spec: LogicalTypes.md (the annotations below, LIST and MAP) and the Dremel levels of
//! the format's README ("Nested Encoding"). Each Rust type maps to one schema node:
//!
//! | Rust | Parquet |
//! |---|---|
//! | `bool`, `f32`, `f64` | BOOLEAN, FLOAT, DOUBLE |
//! | `i8`, `i16`, `i32`, `i64` | INT32 / INT64 with `INTEGER(n, true)` below 32 bits |
//! | `u8`, `u16`, `u32`, `u64` | INT32 / INT64 with `INTEGER(n, false)` |
//! | `String`, `Vec<u8>`, `[u8; N]` | BYTE_ARRAY (STRING), BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY(N) |
//! | `Option<T>` | T, OPTIONAL |
//! | `Vec<T>` | `group (LIST) { repeated group list { T element; } }` |
//! | `BTreeMap<K, V>`, `HashMap<K, V>` | `group (MAP) { repeated group key_value { K key; V value; } }` |
//! | a struct deriving `Record` | a group of its fields |
//! | a unit-only enum deriving `Record` | BYTE_ARRAY (ENUM), the variant's name |
//! | `chrono::NaiveDate` (feature `chrono`) | INT32 (DATE) |
//! | `chrono::NaiveDateTime`, `DateTime<Utc>` (feature `chrono`) | INT64 (TIMESTAMP(MICROS), isAdjustedToUTC false / true) |
//! | `uuid::Uuid` (feature `uuid`) | FIXED_LEN_BYTE_ARRAY(16) (UUID) |
//!
//! Writing walks the structs and stripes them straight into one [`LeafData`] per leaf
//! column (definition and repetition levels plus values: the Dremel shredding of
//! `levels::shred`, without a `Value` tree). A small worked example: for
//! `struct R { a: Option<i32>, b: Vec<i64> }` and the rows `{a: Some(7), b: [1, 2]}`,
//! `{a: None, b: []}`, column `a` gets definition levels `[1, 0]` and values `[7]`;
//! column `b.list.element` gets definition levels `[1, 1, 0]`, repetition levels
//! `[0, 1, 0]` and values `[1, 2]` (the test `worked_example` checks these).
//! `write::TypedWriter` shreds each batch of rows a column at a time (`shred`:
//! [`Field::write_many`]), which gives every column the same levels and values.
//!
//! Reading binds the struct to the file's schema by field name first (a [`Plan`]: which
//! column feeds which field, with the LIST and MAP shapes of `levels::shape`, legacy ones
//! included), so that a missing required field or an incompatible type is an error before
//! any row; then each row is read from the levels of the bound columns only.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::ops::Range;

use crate::error::{Error, Result};
use crate::format::{Encoding, FieldRepetitionType as Rep, TimeUnit};
use crate::levels::shape::{shape_of, Shape};
use crate::schema::{NodeKind, Schema, Type};
use crate::values::{LeafData, Values};

mod batch;
mod bind;
mod cursors;
#[cfg(any(feature = "chrono", feature = "uuid"))]
mod external;
mod leaves;
mod shred;

pub(crate) use batch::MAX_BATCH;
pub use batch::{read_member_at, read_member_many, Rows};
pub use bind::Binder;
use cursors::{check_text, Text};
pub use cursors::{ColumnCursor, ColumnCursors, CursorState, DictStrings, PageSource, Row};
pub use shred::Entries;

#[doc(hidden)]
pub use crate::enum_field;

/// A Rust struct that is a Parquet row. Implement it with `#[derive(parket::Record)]`
/// (feature `derive`), which also implements the hidden [`Field`] codec that does the work.
///
/// Field attributes: `#[parket(name = "col")]`, `#[parket(skip)]` (not written; reading
/// fills `Default`), `#[parket(date)]` on `i32`, `#[parket(time(unit = "micros"))]` and
/// `#[parket(timestamp(unit = "millis" | "micros" | "nanos", utc = true | false))]` on `i64`
/// (`time` on `i32` takes `millis`), `#[parket(decimal(precision = P, scale = S))]` on
/// `i32`/`i64`/`i128`, `#[parket(uuid)]` on `[u8; 16]`, `#[parket(json)]` on `String`,
/// `#[parket(encoding = "DELTA_BINARY_PACKED")]` (the spec's encoding names). On an
/// `Option<T>`, `Vec<T>` or map field the attribute applies to `T` (to the map's values).
pub trait Record: Field + Elem {
    /// The schema rows of this type are written with (a message named after the type).
    fn schema() -> Result<Schema>;
}

/// A type annotation a field attribute asks for.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Annotation {
    /// None: the type's own mapping.
    None,
    /// `date`.
    Date,
    /// `time(unit = ..)`.
    Time {
        /// Unit.
        unit: TimeUnit,
        /// isAdjustedToUTC.
        utc: bool,
    },
    /// `timestamp(unit = .., utc = ..)`.
    Timestamp {
        /// Unit.
        unit: TimeUnit,
        /// isAdjustedToUTC.
        utc: bool,
    },
    /// `decimal(precision = P, scale = S)`.
    Decimal {
        /// Digits.
        precision: i32,
        /// Digits after the point.
        scale: i32,
    },
    /// `uuid`.
    Uuid,
    /// `json`.
    Json,
}

/// The attributes of one field.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Attrs {
    /// Type annotation.
    pub annotation: Annotation,
    /// Column encoding.
    pub encoding: Option<Encoding>,
}

impl Attrs {
    /// No attributes.
    pub const NONE: Attrs = Attrs {
        annotation: Annotation::None,
        encoding: None,
    };
}

/// Where schema building is: the dotted path so far and the column encodings asked for.
#[doc(hidden)]
#[derive(Debug, Default)]
pub struct SchemaCtx {
    path: Vec<String>,
    /// `(column path, encoding)` of every field with an `encoding` attribute.
    pub encodings: Vec<(String, Encoding)>,
}

impl SchemaCtx {
    /// Enters a group named `name` (a struct: takes no annotation).
    pub fn enter(&mut self, name: &str, attrs: &Attrs, rust: &str) -> Result<()> {
        if attrs.annotation != Annotation::None || attrs.encoding.is_some() {
            return Err(self.bad_attr(name, rust));
        }
        self.path.push(name.to_string());
        Ok(())
    }

    /// Leaves the group entered last.
    pub fn leave(&mut self) {
        self.path.pop();
    }

    fn path_of(&self, name: &str) -> String {
        let mut p = self.path.join(".");
        if !p.is_empty() {
            p.push('.');
        }
        p.push_str(name);
        p
    }

    /// The error for an attribute that does not fit the Rust type.
    pub fn bad_attr(&self, name: &str, rust: &str) -> Error {
        Error::invalid_argument(format!(
            "field {}: this attribute does not apply to a {rust}",
            self.path_of(name)
        ))
    }

    /// A leaf field's type, noting its encoding.
    fn leaf(&mut self, name: &str, attrs: &Attrs, t: Type) -> Type {
        if let Some(e) = attrs.encoding {
            let p = self.path_of(name);
            self.encodings.push((p, e));
        }
        t
    }
}

/// Levels where a value is being written: the definition and repetition levels of its
/// first entry and the repetition depth (repeated ancestors) around it.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lv {
    /// Definition level reached.
    pub def: u16,
    /// Repetition level of the first entry.
    pub rep: u16,
    /// Repeated ancestors.
    pub depth: u16,
}

/// The leaf columns being filled by shredding.
#[doc(hidden)]
#[derive(Debug)]
pub struct Shredder {
    /// One per leaf column, in schema order.
    pub leaves: Vec<LeafData>,
    has_def: Vec<bool>,
    has_rep: Vec<bool>,
    paths: Vec<String>,
    /// The unit of each TIMESTAMP column (what date-time types convert to).
    units: Vec<Option<TimeUnit>>,
}

impl Shredder {
    /// Empty columns for `schema`.
    pub fn new(schema: &Schema) -> Shredder {
        let cols = schema.columns();
        Shredder {
            leaves: cols
                .iter()
                .map(|c| LeafData {
                    def_levels: Vec::new(),
                    rep_levels: Vec::new(),
                    values: Values::new(c.physical_type, c.type_length.unwrap_or(0)),
                })
                .collect(),
            has_def: cols.iter().map(|c| c.max_def_level > 0).collect(),
            has_rep: cols.iter().map(|c| c.max_rep_level > 0).collect(),
            paths: cols.iter().map(|c| c.path_string()).collect(),
            units: cols
                .iter()
                .map(|c| match c.logical_type {
                    Some(crate::format::LogicalType::Timestamp { unit, .. }) => Some(unit),
                    _ => None,
                })
                .collect(),
        }
    }

    /// Empties every column (keeping the buffers).
    pub fn clear(&mut self) {
        for l in &mut self.leaves {
            l.def_levels.clear();
            l.rep_levels.clear();
            l.values.clear();
        }
    }

    /// Rows are written as one record: the root's levels.
    pub fn write_row<T: Field>(&mut self, row: &T) -> Result<()> {
        row.write(
            self,
            0,
            Lv {
                def: 0,
                rep: 0,
                depth: 0,
            },
        )
    }

    /// Column `col`'s buffers, and whether it has definition and repetition levels.
    #[inline]
    fn column(&mut self, col: usize) -> Result<(&mut LeafData, bool, bool)> {
        match (
            self.leaves.get_mut(col),
            self.has_def.get(col),
            self.has_rep.get(col),
        ) {
            (Some(leaf), Some(&d), Some(&r)) => Ok((leaf, d, r)),
            _ => Err(too_few_columns(col)),
        }
    }

    #[inline]
    fn levels(&mut self, col: usize, lv: Lv) -> Result<&mut Values> {
        let (leaf, d, r) = self.column(col)?;
        if d {
            leaf.def_levels.push(lv.def);
        }
        if r {
            leaf.rep_levels.push(lv.rep);
        }
        Ok(&mut leaf.values)
    }

    /// Null (or empty list) entries at `lv` in `n` columns from `col`.
    pub fn nulls(&mut self, col: usize, n: usize, lv: Lv) -> Result<()> {
        for c in col..col + n {
            self.levels(c, lv)?;
        }
        Ok(())
    }

    #[cold]
    fn mismatch(&self, col: usize) -> Error {
        Error::invalid_argument("the value does not match its column's physical type")
            .in_column(self.paths.get(col).map_or("?", |s| s.as_str()))
    }

    /// A present value.
    #[inline]
    pub(crate) fn value(&mut self, col: usize, lv: Lv, v: Val<'_>) -> Result<()> {
        let values = self.levels(col, lv)?;
        let ok = match (values, v) {
            (Values::Boolean(o), Val::Bool(b)) => {
                o.push(b);
                true
            }
            (Values::Int32(o), Val::I32(x)) => {
                o.push(x);
                true
            }
            (Values::Int64(o), Val::I64(x)) => {
                o.push(x);
                true
            }
            (Values::Float(o), Val::F32(x)) => {
                o.push(x);
                true
            }
            (Values::Double(o), Val::F64(x)) => {
                o.push(x);
                true
            }
            (Values::ByteArray(o), Val::Bytes(b)) => {
                o.push(b);
                true
            }
            (Values::FixedLenByteArray(o), Val::Bytes(b)) => o.push(b).is_some(),
            _ => false,
        };
        if ok {
            Ok(())
        } else {
            Err(self.mismatch(col))
        }
    }

    /// The unit of a TIMESTAMP column.
    #[cfg_attr(not(feature = "chrono"), allow(dead_code))]
    pub(crate) fn time_unit(&self, col: usize) -> Option<TimeUnit> {
        self.units.get(col).copied().flatten()
    }

    /// The column path of leaf `col`, for errors.
    #[cfg_attr(not(feature = "chrono"), allow(dead_code))]
    pub(crate) fn path(&self, col: usize) -> &str {
        self.paths.get(col).map_or("?", |s| s.as_str())
    }

    /// The byte width of a FIXED_LEN_BYTE_ARRAY column.
    pub(crate) fn width(&self, col: usize) -> usize {
        match self.leaves.get(col).map(|l| &l.values) {
            Some(Values::FixedLenByteArray(f)) => f.width(),
            _ => 0,
        }
    }
}

#[cold]
fn too_few_columns(col: usize) -> Error {
    Error::invalid_argument(format!(
        "the type has more leaf columns than its schema ({col})"
    ))
}

/// One value of a leaf, as stored.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Val<'a> {
    /// BOOLEAN.
    Bool(bool),
    /// INT32.
    I32(i32),
    /// INT64.
    I64(i64),
    /// FLOAT.
    F32(f32),
    /// DOUBLE.
    F64(f64),
    /// BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY.
    Bytes(&'a [u8]),
    /// INT96.
    Int96([u8; 12]),
}

/// How the columns of a file feed one Rust value (see the module doc).
#[doc(hidden)]
#[derive(Debug, Clone, PartialEq)]
pub enum Plan {
    /// A leaf column: cursor index and what the leaf impl needs to convert.
    Leaf {
        /// Column cursor index.
        cur: usize,
        /// The column's conversion.
        conv: leaves::Conv,
    },
    /// An OPTIONAL node: null where the first cursor's definition level is below `def`.
    Nullable {
        /// Column cursors of the subtree.
        curs: Range<usize>,
        /// Definition level of the node when present.
        def: u16,
        /// Repetition level of the node (its repeated ancestors).
        rep: u16,
        /// The value.
        inner: Box<Plan>,
        /// Rust field path and column path, for the error of a null in a required field.
        what: Box<(String, String)>,
    },
    /// A repeated node: a list (`key`: None) or a map.
    Repeated {
        /// Column cursors of the subtree.
        curs: Range<usize>,
        /// Definition level of the repeated node.
        def: u16,
        /// Repetition level of the repeated node.
        rep: u16,
        /// Element, or map key.
        first: Box<Plan>,
        /// Map value (`None` for a list).
        second: Option<Box<Plan>>,
    },
    /// A struct: one plan per field not skipped.
    Group(Vec<Plan>),
    /// A field the file does not have (an `Option`: reads `None`).
    Absent,
}

impl Plan {
    /// The field plans of a struct.
    pub fn group_fields(&self) -> Result<&[Plan]> {
        match self {
            Plan::Group(f) => Ok(f),
            _ => Err(Error::invalid_argument(
                "a struct bound to a non-group plan",
            )),
        }
    }
}

/// Reads a field's value per its plan: a null in a required field is an error naming it.
#[doc(hidden)]
#[inline(always)]
pub fn read_field<T: Field>(plan: Option<&Plan>, c: &mut ColumnCursors<'_>) -> Result<T> {
    match plan {
        Some(plan) => read_member(plan, c),
        None => Err(no_member()),
    }
}

#[cold]
fn no_member() -> Error {
    Error::invalid_argument("a struct plan lacks a field")
}

/// The error of a struct plan with other fields than the struct.
#[doc(hidden)]
#[cold]
pub fn group_mismatch() -> Error {
    Error::invalid_argument("a struct plan has other fields than its struct")
}

/// [`read_field`] of a field whose plan is there: what the derive's `read` calls per field.
#[doc(hidden)]
#[inline(always)]
pub fn read_member<T: Field>(plan: &Plan, c: &mut ColumnCursors<'_>) -> Result<T> {
    if T::NULLABLE {
        return T::read(plan, c);
    }
    match plan {
        Plan::Nullable {
            curs,
            def,
            inner,
            what,
            ..
        } => {
            let i = curs.start;
            // A leaf that is the optional node: the leaf's read finds a null itself (as an
            // error, reworded here), so its definition level is looked at once.
            if matches!(**inner, Plan::Leaf { .. }) && c.leaf_at(i, *def) {
                return match T::read(inner, c) {
                    Ok(v) => Ok(v),
                    Err(e) => Err(c.null_or(i, *def, what, e)),
                };
            }
            if c.peek_def(i)? < *def {
                return Err(c.null_in_field(what));
            }
            T::read(inner, c)
        }
        Plan::Absent => Err(Error::invalid_argument("a required field has no column")),
        p => T::read(p, c),
    }
}

/// The schema of a `Record` type: a message named `name` of its fields.
#[doc(hidden)]
pub fn schema_of<T: Field>(name: &str) -> Result<Schema> {
    Ok(schema_and_encodings::<T>(name)?.0)
}

/// The schema and the encodings the fields' attributes ask for.
#[doc(hidden)]
pub fn schema_and_encodings<T: Field>(name: &str) -> Result<(Schema, Vec<(String, Encoding)>)> {
    let mut ctx = SchemaCtx::default();
    let t = T::field_type(&mut ctx, "", Rep::Required, &Attrs::NONE)?;
    let fields = t.into_children();
    let schema = Schema::new(name, fields)?;
    Ok((schema, ctx.encodings))
}

/// A Rust type that is a Parquet field: the codec that `#[derive(Record)]` implements
/// for structs and unit-only enums, and this module for the types in its table.
#[doc(hidden)]
pub trait Field: Sized {
    /// Number of leaf columns under this type.
    const LEAVES: usize;
    /// Whether the type is an `Option` (reads `None` where the file has no column).
    const NULLABLE: bool = false;
    /// The field's schema node.
    fn field_type(ctx: &mut SchemaCtx, name: &str, repetition: Rep, attrs: &Attrs) -> Result<Type>;
    /// Stripes the value into columns `col..col + LEAVES`.
    fn write(&self, s: &mut Shredder, col: usize, lv: Lv) -> Result<()>;
    /// Stripes a sequence of entries (a value, or `None` for a null or empty ancestor, with
    /// its levels) into columns `col..col + LEAVES`, a column at a time (see `shred`): each
    /// column gets what [`Field::write`] of each entry in turn would give it.
    #[inline]
    fn write_many<'a, I>(items: I, s: &mut Shredder, col: usize) -> Result<()>
    where
        Self: 'a,
        I: Iterator<Item = (Option<&'a Self>, Lv)> + Clone,
    {
        for (v, lv) in items {
            match v {
                Some(v) => v.write(s, col, lv)?,
                None => s.nulls(col, Self::LEAVES, lv)?,
            }
        }
        Ok(())
    }
    /// Binds the type to schema node `node` (its value: the node's optionality is the
    /// caller's, [`Binder::bind_field`]).
    fn bind(b: &mut Binder<'_>, node: usize, attrs: &Attrs) -> Result<Plan>;
    /// Reads one value.
    fn read(plan: &Plan, c: &mut ColumnCursors<'_>) -> Result<Self>;
    /// Reads one value per present slot of `slots` into `out`, a column at a time, from
    /// entries the cursors' current pages hold (see `typed::batch`); an absent slot steps
    /// over one entry in each of the type's columns. After an error the cursors are
    /// anywhere: the caller puts them back and reads row by row.
    #[inline]
    fn read_many(
        plan: &Plan,
        c: &mut ColumnCursors<'_>,
        slots: &[bool],
        out: &mut Vec<Self>,
    ) -> Result<()> {
        batch::one_by_one(plan, c, slots, out)
    }
    /// [`Field::read_many`] into `out`, a `Vec` or the lists of a `Vec<Self>` field (a
    /// struct is built where it is kept).
    #[inline]
    fn read_many_into<O: Rows<Self>>(
        plan: &Plan,
        c: &mut ColumnCursors<'_>,
        slots: &[bool],
        out: &mut O,
    ) -> Result<()> {
        let mut values = Vec::new();
        Self::read_many(plan, c, slots, &mut values)?;
        out.put(values.into_iter())
    }
    /// A value of the type that a struct is built around before its fields are read in
    /// place ([`Field::read_many_at`]): zero, empty, `None`, an enum's first variant.
    /// `None` where the type has no value (an enum without variants): a struct holding
    /// it is read one row at a time.
    #[inline(always)]
    fn placeholder() -> Option<Self> {
        None
    }
    /// [`Field::read_many`] into the rows' fields in place: `at(row)` for each of `rows`,
    /// one per present slot of `slots` (what a struct's fields read, a column at a time;
    /// the leaves write there from their column loop, the rest through a `Vec`).
    #[inline]
    fn read_many_at<R>(
        plan: &Plan,
        c: &mut ColumnCursors<'_>,
        slots: &[bool],
        rows: &mut [R],
        at: impl FnMut(&mut R) -> &mut Self,
    ) -> Result<()> {
        let mut values = Vec::with_capacity(rows.len());
        Self::read_many(plan, c, slots, &mut values)?;
        batch::assign(rows, at, values)
    }
    /// `Option<Self>`'s [`Field::read_many_at`].
    #[inline]
    fn read_many_opt_at<R>(
        plan: &Plan,
        c: &mut ColumnCursors<'_>,
        slots: &[bool],
        rows: &mut [R],
        at: impl FnMut(&mut R) -> &mut Option<Self>,
    ) -> Result<()> {
        let mut values = Vec::with_capacity(rows.len());
        Self::read_many_opt(plan, c, slots, &mut values)?;
        batch::assign(rows, at, values)
    }
    /// `Option<Self>`'s [`Field::read_many`] (the leaves read an optional leaf's values
    /// and nulls in one loop).
    #[inline]
    fn read_many_opt(
        plan: &Plan,
        c: &mut ColumnCursors<'_>,
        slots: &[bool],
        out: &mut Vec<Option<Self>>,
    ) -> Result<()> {
        batch::read_options(plan, c, slots, out)
    }
}

/// The types a `Vec<T>` holds as a LIST: every [`Field`] but `u8` (`Vec<u8>` is a
/// BYTE_ARRAY).
#[doc(hidden)]
pub trait Elem {}

impl<T: Field> Field for Option<T> {
    const LEAVES: usize = T::LEAVES;
    const NULLABLE: bool = true;
    fn field_type(ctx: &mut SchemaCtx, name: &str, repetition: Rep, attrs: &Attrs) -> Result<Type> {
        if repetition != Rep::Required {
            return Err(ctx.bad_attr(name, "Option<Option<_>> (Parquet has one null per node)"));
        }
        T::field_type(ctx, name, Rep::Optional, attrs)
    }
    fn write(&self, s: &mut Shredder, col: usize, lv: Lv) -> Result<()> {
        match self {
            None => s.nulls(col, T::LEAVES, lv),
            Some(v) => v.write(
                s,
                col,
                Lv {
                    def: lv.def + 1,
                    ..lv
                },
            ),
        }
    }
    #[inline]
    fn write_many<'a, I>(items: I, s: &mut Shredder, col: usize) -> Result<()>
    where
        Self: 'a,
        I: Iterator<Item = (Option<&'a Self>, Lv)> + Clone,
    {
        let present = |(v, lv): (Option<&'a Self>, Lv)| match v {
            Some(Some(v)) => (
                Some(v),
                Lv {
                    def: lv.def + 1,
                    ..lv
                },
            ),
            _ => (None, lv),
        };
        T::write_many(items.map(present), s, col)
    }
    fn bind(b: &mut Binder<'_>, node: usize, attrs: &Attrs) -> Result<Plan> {
        T::bind(b, node, attrs)
    }
    fn read(plan: &Plan, c: &mut ColumnCursors<'_>) -> Result<Self> {
        match plan {
            Plan::Absent => Ok(None),
            Plan::Nullable {
                curs, def, inner, ..
            } => {
                if c.peek_def(curs.start)? < *def {
                    c.skip(curs.clone());
                    Ok(None)
                } else {
                    T::read(inner, c).map(Some)
                }
            }
            p => T::read(p, c).map(Some),
        }
    }
    fn read_many(
        plan: &Plan,
        c: &mut ColumnCursors<'_>,
        slots: &[bool],
        out: &mut Vec<Self>,
    ) -> Result<()> {
        T::read_many_opt(plan, c, slots, out)
    }
    #[inline(always)]
    fn placeholder() -> Option<Self> {
        Some(None)
    }
    #[inline]
    fn read_many_at<R>(
        plan: &Plan,
        c: &mut ColumnCursors<'_>,
        slots: &[bool],
        rows: &mut [R],
        at: impl FnMut(&mut R) -> &mut Self,
    ) -> Result<()> {
        T::read_many_opt_at(plan, c, slots, rows, at)
    }
}

impl<T: Field> Elem for Option<T> {}

/// Writes the entries of a list or map: `first` per item, `second` after it for maps.
fn write_repeated<I, F>(
    s: &mut Shredder,
    col: usize,
    leaves: usize,
    lv: Lv,
    items: I,
    mut f: F,
) -> Result<()>
where
    I: IntoIterator,
    F: FnMut(&mut Shredder, I::Item, Lv) -> Result<()>,
{
    let mut any = false;
    let inner = Lv {
        def: lv.def + 1,
        rep: lv.rep,
        depth: lv.depth + 1,
    };
    for (k, item) in items.into_iter().enumerate() {
        any = true;
        let at = if k == 0 {
            inner
        } else {
            Lv {
                rep: inner.depth,
                ..inner
            }
        };
        f(s, item, at)?;
    }
    if !any {
        s.nulls(col, leaves, lv)?;
    }
    Ok(())
}

/// Reads the entries of a list (or map) plan, calling `reserve` with how many entries the
/// current page holds (a lower bound of the count) before `f` per entry.
fn read_repeated<S>(
    plan: &Plan,
    c: &mut ColumnCursors<'_>,
    out: &mut S,
    reserve: fn(&mut S, usize),
    mut f: impl FnMut(&mut S, &Plan, Option<&Plan>, &mut ColumnCursors<'_>) -> Result<()>,
) -> Result<()> {
    let Plan::Repeated {
        curs,
        def,
        rep,
        first,
        second,
    } = plan
    else {
        return Err(Error::invalid_argument("a list bound to a non-list plan"));
    };
    if curs.is_empty() {
        return Ok(());
    }
    if c.peek_def(curs.start)? < *def {
        c.skip(curs.clone());
        return Ok(());
    }
    reserve(out, c.entries_hint(curs.start, *rep));
    loop {
        f(out, first, second.as_deref(), c)?;
        if c.peek_rep(curs.start)? != Some(*rep) {
            return Ok(());
        }
    }
}

impl<T: Field + Elem> Field for Vec<T> {
    const LEAVES: usize = T::LEAVES;
    fn field_type(ctx: &mut SchemaCtx, name: &str, repetition: Rep, attrs: &Attrs) -> Result<Type> {
        ctx.path.push(name.to_string());
        ctx.path.push(String::from("list"));
        let element = T::field_type(ctx, "element", Rep::Required, attrs);
        ctx.path.truncate(ctx.path.len() - 2);
        Ok(Type::list(name, repetition, element?))
    }
    fn write(&self, s: &mut Shredder, col: usize, lv: Lv) -> Result<()> {
        write_repeated(s, col, T::LEAVES, lv, self, |s, v, at| v.write(s, col, at))
    }
    #[inline]
    fn write_many<'a, I>(items: I, s: &mut Shredder, col: usize) -> Result<()>
    where
        Self: 'a,
        I: Iterator<Item = (Option<&'a Self>, Lv)> + Clone,
    {
        let entries = |(v, lv): (Option<&'a Self>, Lv)| {
            Entries::new(v.map(|v| v.iter()), v.is_none_or(|v| v.is_empty()), lv)
        };
        T::write_many(items.flat_map(entries), s, col)
    }
    fn bind(b: &mut Binder<'_>, node: usize, attrs: &Attrs) -> Result<Plan> {
        b.bind_repeated::<T, T>(node, attrs, false, "Vec<_>")
    }
    fn read(plan: &Plan, c: &mut ColumnCursors<'_>) -> Result<Self> {
        let mut out = Vec::new();
        read_repeated(
            plan,
            c,
            &mut out,
            |out, n| out.reserve_exact(n),
            |out, p, _, c| {
                out.push(read_member::<T>(p, c)?);
                Ok(())
            },
        )?;
        Ok(out)
    }
    fn read_many(
        plan: &Plan,
        c: &mut ColumnCursors<'_>,
        slots: &[bool],
        out: &mut Vec<Self>,
    ) -> Result<()> {
        batch::read_vecs(plan, c, slots, out)
    }
    #[inline(always)]
    fn placeholder() -> Option<Self> {
        Some(Vec::new())
    }
}
impl<T: Field + Elem> Elem for Vec<T> {}

macro_rules! map_field {
    ($map:ident, $($bound:tt)*) => {
        impl<K: Field + $($bound)*, V: Field> Field for $map<K, V> {
            const LEAVES: usize = K::LEAVES + V::LEAVES;
            fn field_type(ctx: &mut SchemaCtx, name: &str, repetition: Rep, attrs: &Attrs) -> Result<Type> {
                ctx.path.push(name.to_string());
                ctx.path.push(String::from("key_value"));
                let key = K::field_type(ctx, "key", Rep::Required, &Attrs::NONE);
                let value = V::field_type(ctx, "value", Rep::Required, attrs);
                ctx.path.truncate(ctx.path.len() - 2);
                Ok(Type::map(name, repetition, key?, Some(value?)))
            }
            fn write(&self, s: &mut Shredder, col: usize, lv: Lv) -> Result<()> {
                write_repeated(s, col, Self::LEAVES, lv, self, |s, (k, v), at| {
                    k.write(s, col, at)?;
                    v.write(s, col + K::LEAVES, at)
                })
            }
            #[inline]
            fn write_many<'a, I>(items: I, s: &mut Shredder, col: usize) -> Result<()>
            where
                Self: 'a,
                I: Iterator<Item = (Option<&'a Self>, Lv)> + Clone,
            {
                // Keys, then values: a map iterates in the same order both times.
                let empty = |m: Option<&Self>| m.is_none_or(|m| m.is_empty());
                let keys = move |(m, lv): (Option<&'a Self>, Lv)| Entries::new(m.map(|m| m.keys()), empty(m), lv);
                let values = move |(m, lv): (Option<&'a Self>, Lv)| Entries::new(m.map(|m| m.values()), empty(m), lv);
                K::write_many(items.clone().flat_map(keys), s, col)?;
                V::write_many(items.flat_map(values), s, col + K::LEAVES)
            }
            fn bind(b: &mut Binder<'_>, node: usize, attrs: &Attrs) -> Result<Plan> {
                b.bind_repeated::<K, V>(node, attrs, true, "map")
            }
            fn read(plan: &Plan, c: &mut ColumnCursors<'_>) -> Result<Self> {
                let mut out = $map::new();
                read_repeated(plan, c, &mut out, |_, _| {}, |out, k, v, c| {
                    let key = read_member::<K>(k, c)?;
                    let value = read_field::<V>(v, c)?;
                    out.insert(key, value);
                    Ok(())
                })?;
                Ok(out)
            }
            fn read_many(
                plan: &Plan,
                c: &mut ColumnCursors<'_>,
                slots: &[bool],
                out: &mut Vec<Self>,
            ) -> Result<()> {
                batch::read_maps(plan, c, slots, out, $map::new, |m, k, v| {
                    m.insert(k, v);
                })
            }
            #[inline(always)]
            fn placeholder() -> Option<Self> {
                Some($map::new())
            }
        }
        impl<K: Field + $($bound)*, V: Field> Elem for $map<K, V> {}
    };
}

use alloc::collections::BTreeMap;
map_field!(BTreeMap, Ord);
#[cfg(feature = "std")]
use std::collections::HashMap;
#[cfg(feature = "std")]
map_field!(HashMap, Eq + core::hash::Hash);

/// A unit-only enum deriving `Record`: written as its variant's name (BYTE_ARRAY, ENUM).
#[doc(hidden)]
pub trait EnumField: Sized {
    /// Variant names, in declaration order.
    const VARIANTS: &'static [&'static str];
    /// The name of this variant.
    fn name(&self) -> &'static str;
    /// The variant named `name`.
    fn from_name(name: &[u8]) -> Option<Self>;
    /// The first variant (`None`: there is none), [`Field::placeholder`].
    const FIRST: Option<Self> = None;
}

/// Implements [`Field`] for a type implementing [`EnumField`] (what the derive expands to
/// for enums).
#[doc(hidden)]
#[macro_export]
macro_rules! enum_field {
    ($t:ty) => {
        impl $crate::typed::Field for $t {
            const LEAVES: usize = 1;
            fn field_type(
                ctx: &mut $crate::typed::SchemaCtx,
                name: &str,
                repetition: $crate::format::FieldRepetitionType,
                attrs: &$crate::typed::Attrs,
            ) -> $crate::Result<$crate::schema::Type> {
                $crate::typed::enum_type(ctx, name, repetition, attrs)
            }
            fn write(
                &self,
                s: &mut $crate::typed::Shredder,
                col: usize,
                lv: $crate::typed::Lv,
            ) -> $crate::Result<()> {
                $crate::typed::write_enum(s, col, lv, $crate::typed::EnumField::name(self))
            }
            fn bind(
                b: &mut $crate::typed::Binder<'_>,
                node: usize,
                attrs: &$crate::typed::Attrs,
            ) -> $crate::Result<$crate::typed::Plan> {
                $crate::typed::bind_enum(b, node, attrs)
            }
            fn read(
                plan: &$crate::typed::Plan,
                c: &mut $crate::typed::ColumnCursors<'_>,
            ) -> $crate::Result<Self> {
                $crate::typed::read_enum(plan, c, <Self as $crate::typed::EnumField>::from_name)
            }
            #[inline(always)]
            fn placeholder() -> ::core::option::Option<Self> {
                <Self as $crate::typed::EnumField>::FIRST
            }
        }
        impl $crate::typed::Elem for $t {}
    };
}

pub use leaves::{bind_enum, enum_type, read_enum, write_enum};

#[cfg(test)]
mod tests;
