//! Binding: an [`Expr`] checked against a schema, each literal typed by its column's physical
//! and logical type, into a [`Predicate`] that the evaluation and pruning stages use.
//!
//! A literal becomes the value as the column stores it ([`Scalar`]: the PLAIN value, without
//! a length prefix): `'2024-01-02'` for a DATE column is `Int32(19724)`, `12.5` for a
//! DECIMAL(5, 2) on FIXED_LEN_BYTE_ARRAY(3) is the bytes `00 04 e2` (1250), `-1` for an
//! INT(8, false) column is an error, `4294967295` for INT(32, false) is `Int32(-1)` (the
//! same bits; it compares as unsigned).
//!
//! ```
//! use parket::predicate::Predicate;
//! use parket::schema::Schema;
//! let schema = Schema::parse("message m { required int32 d (DATE);
//!     required fixed_len_byte_array(3) p (DECIMAL(5, 2)); optional int32 u (INTEGER(32, false)); }")?;
//! let p = Predicate::parse("d >= '2024-01-02' and p = 12.5 and u < 4294967295", &schema)?;
//! assert_eq!(p.columns(), &[0, 1, 2]);
//! let e = Predicate::parse("u = -1", &schema).unwrap_err();
//! assert!(e.to_string().contains("column u"), "{e}");
//! assert!(e.to_string().contains("byte 4"), "{e}");
//! # Ok::<(), parket::Error>(())
//! ```

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::cmp::Ordering;

use super::expr::{CompareOp, Expr, Literal};
use super::parse::{parse_with_spans, LeafSpan};
use crate::error::{Error, Result};
use crate::format::{ConvertedType, LogicalType, PhysicalType};
use crate::record::logical as lg;
use crate::schema::{ColumnDescriptor, Schema};
use crate::statistics::{compare_decimal, half_of, Scalar, StatKind};

/// How values of a column compare: the column's logical order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Bool,
    I32,
    U32,
    I64,
    U64,
    F32,
    F64,
    F16,
    Bytes,
    Decimal,
}

/// The order of `a` and `b` (values of `kind`); `None` when a float is NaN.
#[inline]
pub(crate) fn order(kind: Kind, a: &Scalar, b: &Scalar) -> Option<Ordering> {
    match (a, b) {
        (Scalar::Boolean(x), Scalar::Boolean(y)) => Some(x.cmp(y)),
        (Scalar::Int32(x), Scalar::Int32(y)) if kind == Kind::U32 => {
            Some((*x as u32).cmp(&(*y as u32)))
        }
        (Scalar::Int32(x), Scalar::Int32(y)) => Some(x.cmp(y)),
        (Scalar::Int64(x), Scalar::Int64(y)) if kind == Kind::U64 => {
            Some((*x as u64).cmp(&(*y as u64)))
        }
        (Scalar::Int64(x), Scalar::Int64(y)) => Some(x.cmp(y)),
        (Scalar::Float(x), Scalar::Float(y)) => x.partial_cmp(y),
        (Scalar::Double(x), Scalar::Double(y)) => x.partial_cmp(y),
        (Scalar::Bytes(x), Scalar::Bytes(y)) => order_bytes(kind, x, y),
        _ => None,
    }
}

/// The order of two byte-string values of `kind` (Bytes, Decimal, F16).
#[inline]
pub(crate) fn order_bytes(kind: Kind, a: &[u8], b: &[u8]) -> Option<Ordering> {
    match kind {
        Kind::Decimal => Some(compare_decimal(a, b)),
        Kind::F16 => half_of(a).partial_cmp(&half_of(b)),
        _ => Some(a.cmp(b)),
    }
}

/// One leaf test, bound.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Test {
    Cmp(CompareOp, Scalar),
    In(Vec<Scalar>),
    IsNull,
}

/// A leaf: which column (its slot in [`Predicate::columns`]) and the test.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Leaf {
    pub slot: usize,
    pub test: Test,
}

/// The bound tree; leaves index [`Predicate`]'s leaf list.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node {
    Leaf(usize),
    And(Box<Node>, Box<Node>),
    Or(Box<Node>, Box<Node>),
    Not(Box<Node>),
}

/// What the stages need of one column the predicate names.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Slot {
    pub column: usize,
    pub path: String,
    pub kind: Kind,
    pub stat_kind: StatKind,
    pub physical: PhysicalType,
    pub max_def: u16,
}

/// A predicate bound to a schema: every column found, a leaf outside repeated fields, every
/// literal typed. Build it with [`Predicate::new`] (from an [`Expr`]) or
/// [`Predicate::parse`] (from text).
#[derive(Debug, Clone, PartialEq)]
pub struct Predicate {
    expr: Expr,
    pub(crate) root: Node,
    pub(crate) leaves: Vec<Leaf>,
    pub(crate) slots: Vec<Slot>,
    columns: Vec<usize>,
}

impl Predicate {
    /// Binds `expr` to `schema`. Errors name the column: unknown, a group, inside a repeated
    /// field, an INT96 column, or a literal that does not fit its type.
    pub fn new(expr: Expr, schema: &Schema) -> Result<Predicate> {
        Self::bind(expr, schema, &[])
    }

    /// Parses `text` (the grammar of json-mapping.md, "Row selection"; see
    /// [`crate::predicate::parse_expr`]) and binds it to `schema`. Errors give the byte offset
    /// in `text`.
    pub fn parse(text: &str, schema: &Schema) -> Result<Predicate> {
        let (expr, spans) = parse_with_spans(text)?;
        Self::bind(expr, schema, &spans)
    }

    fn bind(expr: Expr, schema: &Schema, spans: &[LeafSpan]) -> Result<Predicate> {
        let mut b = Binder {
            schema,
            spans,
            leaves: Vec::new(),
            slots: Vec::new(),
        };
        let root = b.node(&expr)?;
        let (leaves, slots) = (b.leaves, b.slots);
        let columns = slots.iter().map(|s| s.column).collect();
        Ok(Predicate {
            expr,
            root,
            leaves,
            slots,
            columns,
        })
    }

    /// The unbound expression.
    pub fn expr(&self) -> &Expr {
        &self.expr
    }

    /// The leaf columns the predicate names (indexes into [`Schema::columns`]), each once,
    /// in the order they first appear. Row batches and per-column metadata passed to the
    /// other methods are aligned with this list.
    pub fn columns(&self) -> &[usize] {
        &self.columns
    }
}

struct Binder<'a> {
    schema: &'a Schema,
    spans: &'a [LeafSpan],
    leaves: Vec<Leaf>,
    slots: Vec<Slot>,
}

impl<'a> Binder<'a> {
    fn node(&mut self, e: &Expr) -> Result<Node> {
        Ok(match e {
            Expr::And(a, b) => Node::And(Box::new(self.node(a)?), Box::new(self.node(b)?)),
            Expr::Or(a, b) => Node::Or(Box::new(self.node(a)?), Box::new(self.node(b)?)),
            Expr::Not(a) => Node::Not(Box::new(self.node(a)?)),
            Expr::Compare { column, op, value } => {
                let (slot, span) = self.slot(column)?;
                let v = self.literal(slot, span, 0, value)?;
                self.leaf(slot, Test::Cmp(*op, v))
            }
            Expr::In { column, values } => {
                let (slot, span) = self.slot(column)?;
                if values.is_empty() {
                    return Err(self.error(slot, span.map(|s| s.column), "IN needs a value"));
                }
                let vs = values
                    .iter()
                    .enumerate()
                    .map(|(i, v)| self.literal(slot, span, i, v))
                    .collect::<Result<Vec<_>>>()?;
                self.leaf(slot, Test::In(vs))
            }
            Expr::IsNull { column } => {
                let (slot, _) = self.slot(column)?;
                self.leaf(slot, Test::IsNull)
            }
        })
    }

    fn leaf(&mut self, slot: usize, test: Test) -> Node {
        self.leaves.push(Leaf { slot, test });
        Node::Leaf(self.leaves.len() - 1)
    }

    fn error(&self, slot: usize, at: Option<usize>, what: impl core::fmt::Display) -> Error {
        let path = self.slots.get(slot).map_or("", |s| s.path.as_str());
        column_error(path, at, what)
    }

    /// The slot of the column at `path` (added on first use) and the leaf's text span.
    fn slot(&mut self, path: &[String]) -> Result<(usize, Option<&'a LeafSpan>)> {
        let spans: &'a [LeafSpan] = self.spans;
        let span = spans.get(self.leaves.len());
        let at = span.map(|s| s.column);
        let dotted = path.join(".");
        let node = self
            .schema
            .node_index_by_path(path)
            .ok_or_else(|| column_error(&dotted, at, "no such column"))?;
        let Some(column) = self.schema.columns().iter().position(|c| c.node == node) else {
            return Err(column_error(
                &dotted,
                at,
                "is a group; a predicate tests leaf columns",
            ));
        };
        if let Some(i) = self.slots.iter().position(|s| s.column == column) {
            return Ok((i, span));
        }
        let c = &self.schema.columns()[column];
        if c.max_rep_level > 0 {
            return Err(column_error(
                &dotted,
                at,
                "is inside a repeated field (a list element or map entry); a predicate tests one value per row",
            ));
        }
        let kind = kind_of(c).ok_or_else(|| {
            column_error(&dotted, at, "is INT96, which a predicate cannot compare")
        })?;
        self.slots.push(Slot {
            column,
            path: dotted,
            kind,
            stat_kind: StatKind::of_column(c),
            physical: c.physical_type,
            max_def: c.max_def_level,
        });
        Ok((self.slots.len() - 1, span))
    }

    fn literal(
        &self,
        slot: usize,
        span: Option<&LeafSpan>,
        i: usize,
        lit: &Literal,
    ) -> Result<Scalar> {
        let c = &self.schema.columns()[self.slots[slot].column];
        bind_literal(c, self.slots[slot].kind, lit)
            .map_err(|m| self.error(slot, span.and_then(|s| s.literals.get(i).copied()), m))
    }
}

fn column_error(path: &str, at: Option<usize>, what: impl core::fmt::Display) -> Error {
    let e = match at {
        Some(at) => {
            Error::invalid_argument(format!("predicate: column {path} (at byte {at}): {what}"))
                .at_offset(at as u64)
        }
        None => Error::invalid_argument(format!("predicate: column {path}: {what}")),
    };
    e.in_column(path)
}

fn kind_of(c: &ColumnDescriptor) -> Option<Kind> {
    use PhysicalType as P;
    let lt = c.logical_type.as_ref();
    let unsigned = matches!(
        lt,
        Some(LogicalType::Integer {
            is_signed: false,
            ..
        })
    );
    Some(match c.physical_type {
        P::Boolean => Kind::Bool,
        P::Int32 if unsigned => Kind::U32,
        P::Int32 => Kind::I32,
        P::Int64 if unsigned => Kind::U64,
        P::Int64 => Kind::I64,
        P::Int96 => return None,
        P::Float => Kind::F32,
        P::Double => Kind::F64,
        P::FixedLenByteArray
            if matches!(lt, Some(LogicalType::Float16)) && c.type_length == Some(2) =>
        {
            Kind::F16
        }
        P::ByteArray | P::FixedLenByteArray if matches!(lt, Some(LogicalType::Decimal { .. })) => {
            Kind::Decimal
        }
        P::ByteArray | P::FixedLenByteArray => Kind::Bytes,
    })
}

fn type_name(c: &ColumnDescriptor) -> String {
    match (&c.logical_type, c.converted_type) {
        (Some(l), _) => format!("{l:?} on {}", c.physical_type),
        (None, Some(ConvertedType::Interval)) => "INTERVAL".into(),
        _ => format!("{}", c.physical_type),
    }
}

/// An integer literal read exactly (`1e3` and `2.0` are integers; `1.5` is not).
fn integer(text: &str) -> Option<i128> {
    let b = lg::parse_decimal(text, 39, 0).ok()?;
    let b: [u8; 16] = lg::sign_extend(&b, 16)?.try_into().ok()?;
    Some(i128::from_be_bytes(b))
}

fn float_special(text: &str) -> Option<f64> {
    match text {
        "NaN" => Some(f64::NAN),
        "Infinity" => Some(f64::INFINITY),
        "-Infinity" => Some(f64::NEG_INFINITY),
        _ => None,
    }
}

/// `lit` as a value of column `c` (of comparison kind `kind`), or why not.
fn bind_literal(
    c: &ColumnDescriptor,
    kind: Kind,
    lit: &Literal,
) -> core::result::Result<Scalar, String> {
    let ty = type_name(c);
    let shown = match lit {
        Literal::Number(n) => n.clone(),
        Literal::Text(t) => format!("'{t}'"),
        Literal::Boolean(b) => String::from(if *b { "TRUE" } else { "FALSE" }),
        Literal::Bytes(b) => format!("{} raw bytes", b.len()),
    };
    let bad = |why: &str| format!("the literal {shown} does not fit its type {ty}{why}");
    let lt = c.logical_type.as_ref();
    match kind {
        Kind::Bool => match lit {
            Literal::Boolean(b) => Ok(Scalar::Boolean(*b)),
            _ => Err(bad(": write TRUE or FALSE")),
        },
        Kind::I32 | Kind::U32 | Kind::I64 | Kind::U64 => {
            let wide = matches!(kind, Kind::I64 | Kind::U64);
            let v: i128 = match (lt, lit) {
                (
                    Some(LogicalType::Decimal { scale, precision }),
                    Literal::Number(t) | Literal::Text(t),
                ) => {
                    let b = lg::parse_decimal(t, *precision, *scale)
                        .map_err(|e| bad(&format!(" ({e})")))?;
                    i128::from(lg::be_to_i64(&b).ok_or_else(|| bad(""))?)
                }
                (Some(LogicalType::Date), Literal::Text(t)) => {
                    i128::from(lg::parse_date_days(t).map_err(|e| bad(&format!(" ({e})")))?)
                }
                (Some(LogicalType::Time { unit, .. }), Literal::Text(t)) => {
                    i128::from(lg::parse_time(t, *unit).map_err(|e| bad(&format!(" ({e})")))?)
                }
                (
                    Some(LogicalType::Timestamp {
                        unit,
                        is_adjusted_to_utc,
                    }),
                    Literal::Text(t),
                ) => i128::from(
                    lg::parse_timestamp(t, *unit, *is_adjusted_to_utc)
                        .map_err(|e| bad(&format!(" ({e})")))?,
                ),
                (_, Literal::Number(t)) => integer(t).ok_or_else(|| bad(": not an integer"))?,
                _ => return Err(bad(": write a number")),
            };
            let (lo, hi): (i128, i128) = match lt {
                Some(LogicalType::Integer {
                    bit_width,
                    is_signed,
                }) => {
                    let w = u32::from((*bit_width).clamp(8, 64) as u8);
                    if *is_signed {
                        (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1)
                    } else {
                        (0, (1i128 << w) - 1)
                    }
                }
                _ if wide => (i128::from(i64::MIN), i128::from(i64::MAX)),
                _ => (i128::from(i32::MIN), i128::from(i32::MAX)),
            };
            if v < lo || v > hi {
                return Err(bad(&format!(": out of range {lo}..={hi}")));
            }
            Ok(if wide {
                Scalar::Int64(v as i64)
            } else {
                Scalar::Int32(v as i32)
            })
        }
        Kind::F32 | Kind::F64 | Kind::F16 => {
            let v: f64 = match lit {
                Literal::Number(t) if kind == Kind::F32 || kind == Kind::F16 => {
                    f64::from(t.parse::<f32>().map_err(|_| bad(""))?)
                }
                Literal::Number(t) => t.parse::<f64>().map_err(|_| bad(""))?,
                Literal::Text(t) => float_special(t)
                    .ok_or_else(|| bad(": write a number, 'NaN', 'Infinity' or '-Infinity'"))?,
                _ => return Err(bad(": write a number")),
            };
            Ok(match kind {
                Kind::F32 => Scalar::Float(v as f32),
                Kind::F64 => Scalar::Double(v),
                _ => Scalar::Bytes(lg::f32_to_f16(v as f32).to_le_bytes().to_vec()),
            })
        }
        Kind::Bytes | Kind::Decimal => {
            let bytes = match (lt, lit) {
                (
                    Some(LogicalType::Decimal { scale, precision }),
                    Literal::Number(t) | Literal::Text(t),
                ) => {
                    let b = lg::parse_decimal(t, *precision, *scale)
                        .map_err(|e| bad(&format!(" ({e})")))?;
                    match c.type_length {
                        Some(w) if c.physical_type == PhysicalType::FixedLenByteArray => {
                            lg::sign_extend(&b, w).ok_or_else(|| bad(""))?
                        }
                        _ => b,
                    }
                }
                (Some(LogicalType::Uuid), Literal::Text(t)) => lg::parse_uuid(t)
                    .map_err(|e| bad(&format!(" ({e})")))?
                    .to_vec(),
                (
                    Some(LogicalType::String | LogicalType::Enum | LogicalType::Json),
                    Literal::Text(t),
                ) => t.as_bytes().to_vec(),
                (_, Literal::Bytes(b)) => b.clone(),
                (_, Literal::Text(t)) => {
                    lg::base64_decode(t).map_err(|e| bad(&format!(" ({e})")))?
                }
                _ => return Err(bad(": write a 'text' literal")),
            };
            if c.physical_type == PhysicalType::FixedLenByteArray
                && c.type_length != Some(bytes.len())
            {
                return Err(bad(&format!(
                    ": {} bytes, the column holds {}",
                    bytes.len(),
                    c.type_length.unwrap_or(0)
                )));
            }
            Ok(Scalar::Bytes(bytes))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::predicate::col;

    fn schema() -> Schema {
        Schema::parse(
            "message m {
               required int32 i8 (INTEGER(8, true));
               required int32 u8 (INTEGER(8, false));
               required int64 u64 (INTEGER(64, false));
               required int64 i64;
               required float f;
               required double d;
               required binary s (STRING);
               required binary raw;
               required fixed_len_byte_array(16) id (UUID);
               required fixed_len_byte_array(4) dec (DECIMAL(9, 2));
               required binary bdec (DECIMAL(20, 3));
               required int64 idec (DECIMAL(18, 4));
               required int32 day (DATE);
               required int32 tms (TIME(MILLIS, true));
               required int64 tsn (TIMESTAMP(NANOS, false));
               required int64 tsu (TIMESTAMP(MICROS, true));
               required boolean b;
               required fixed_len_byte_array(2) h (FLOAT16);
               required int96 old;
               optional group l (LIST) { repeated group list { optional int32 element; } }
               optional group g { optional int32 x; }
             }",
        )
        .unwrap()
    }

    fn lit(text: &str) -> Scalar {
        let p = Predicate::parse(text, &schema()).unwrap_or_else(|e| panic!("{text}: {e}"));
        match &p.leaves[0].test {
            Test::Cmp(_, v) => v.clone(),
            t => panic!("{t:?}"),
        }
    }

    #[test]
    fn literals_take_the_column_type() {
        assert_eq!(lit("i8 = -128"), Scalar::Int32(-128));
        assert_eq!(lit("u8 = 255"), Scalar::Int32(255));
        assert_eq!(lit("u64 = 18446744073709551615"), Scalar::Int64(-1));
        assert_eq!(lit("i64 = 1e3"), Scalar::Int64(1000));
        assert_eq!(lit("f = 0.1"), Scalar::Float(0.1f32));
        assert_eq!(lit("d = 0.1"), Scalar::Double(0.1));
        assert!(matches!(lit("d = 'NaN'"), Scalar::Double(x) if x.is_nan()));
        assert_eq!(lit("s = 'it''s'"), Scalar::Bytes(b"it's".to_vec()));
        assert_eq!(lit("raw = 'AAH/'"), Scalar::Bytes(alloc::vec![0, 1, 0xff]));
        assert_eq!(
            lit("id = '0f8fad5b-d9cb-469f-a165-70867728950e'"),
            Scalar::Bytes(alloc::vec![
                0x0f, 0x8f, 0xad, 0x5b, 0xd9, 0xcb, 0x46, 0x9f, 0xa1, 0x65, 0x70, 0x86, 0x77, 0x28,
                0x95, 0x0e
            ])
        );
        // -1.5 at scale 2 is -150 = 0xffffff6a in 4 bytes.
        assert_eq!(
            lit("dec = -1.5"),
            Scalar::Bytes(alloc::vec![0xff, 0xff, 0xff, 0x6a])
        );
        assert_eq!(
            lit("dec = '-1.50'"),
            Scalar::Bytes(alloc::vec![0xff, 0xff, 0xff, 0x6a])
        );
        // 1.000 at scale 3: 1000 = 0x03e8, minimal.
        assert_eq!(lit("bdec = 1"), Scalar::Bytes(alloc::vec![0x03, 0xe8]));
        assert_eq!(lit("idec = 0.0001"), Scalar::Int64(1));
        // 2024-01-02: 19724 days after 1970-01-01 (54 years, 13 leap days: 54*365+13+1).
        assert_eq!(lit("day = '2024-01-02'"), Scalar::Int32(19724));
        assert_eq!(lit("day = 5"), Scalar::Int32(5));
        assert_eq!(lit("tms = '01:00:00.5'"), Scalar::Int32(3_600_500));
        assert_eq!(
            lit("tsn = '1970-01-01T00:00:01'"),
            Scalar::Int64(1_000_000_000)
        );
        assert_eq!(
            lit("tsu = '1970-01-02T00:00:00Z'"),
            Scalar::Int64(86_400_000_000)
        );
        assert_eq!(lit("b = true"), Scalar::Boolean(true));
        // FLOAT16 1.0 = 0x3c00.
        assert_eq!(lit("h = 1"), Scalar::Bytes(alloc::vec![0x00, 0x3c]));
        assert_eq!(lit("g.x = 1"), Scalar::Int32(1));
    }

    #[test]
    fn bad_literals_and_columns_are_errors_that_say_where() {
        let s = schema();
        for (text, needle) in [
            ("i8 = 128", "column i8 (at byte 5)"),
            ("u8 = -1", "column u8 (at byte 5)"),
            ("i64 = 1.5", "not an integer"),
            ("i64 = 'x'", "write a number"),
            ("s = 1", "column s"),
            ("b = 1", "TRUE or FALSE"),
            ("id = 'nope'", "UUID"),
            ("dec = 1.234", "column dec"),
            ("dec = 10000000", "column dec"),
            ("tsu = '1970-01-02T00:00:00'", "column tsu"),
            ("tsn = '1970-01-02T00:00:00Z'", "column tsn"),
            ("nope = 1", "column nope (at byte 0): no such column"),
            (
                "i8 = 1 and l.list.element = 1",
                "column l.list.element (at byte 11): is inside a repeated",
            ),
            ("g = 1", "is a group"),
            ("old = 1", "INT96"),
            ("s in ('a', 2)", "at byte 11"),
        ] {
            let e = Predicate::parse(text, &s).unwrap_err().to_string();
            assert!(e.contains(needle), "{text}: {e}");
        }
        let e = Predicate::new(col("i8").eq(1000), &s).unwrap_err();
        assert_eq!(e.location().column.as_deref(), Some("i8"));
    }

    #[test]
    fn builder_and_text_bind_alike() {
        let s = schema();
        let a = Predicate::new(col("i64").gt(3).or(col("s").in_list(["x", "y"])), &s).unwrap();
        let b = Predicate::parse("i64 > 3 OR s IN ('x', 'y')", &s).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.columns(), &[3, 6]);
    }

    #[test]
    fn order_of_kinds() {
        use Ordering::*;
        assert_eq!(
            order(Kind::U32, &Scalar::Int32(-1), &Scalar::Int32(1)),
            Some(Greater)
        );
        assert_eq!(
            order(Kind::I32, &Scalar::Int32(-1), &Scalar::Int32(1)),
            Some(Less)
        );
        assert_eq!(
            order(Kind::F64, &Scalar::Double(f64::NAN), &Scalar::Double(1.0)),
            None
        );
        assert_eq!(
            order(Kind::F64, &Scalar::Double(-0.0), &Scalar::Double(0.0)),
            Some(Equal)
        );
        assert_eq!(
            order_bytes(Kind::Decimal, &[0xff], &[0x00, 0x01]),
            Some(Less)
        );
        assert_eq!(
            order_bytes(Kind::Bytes, &[0xff], &[0x00, 0x01]),
            Some(Greater)
        );
        assert_eq!(order_bytes(Kind::F16, &[0x00, 0x7e], &[0x00, 0x3c]), None);
    }
}
