//! The expression tree of a predicate and its Rust builder.
//!
//! An [`Expr`] names columns by path and holds literals as written (a number keeps its text,
//! so a DECIMAL literal stays exact until it is bound to its column's type by
//! [`crate::predicate::Predicate::new`]). [`crate::predicate::Predicate::parse`] builds the
//! same tree from text:
//!
//! ```
//! use parket::predicate::{col, not, parse_expr};
//! let built = col("id").eq(42).and(not(col("name").in_list(["a", "b"])));
//! assert_eq!(parse_expr("id = 42 AND NOT name IN ('a', 'b')").unwrap(), built);
//! ```

use alloc::boxed::Box;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompareOp {
    /// `=`
    Eq,
    /// `!=` or `<>`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl CompareOp {
    /// Whether `value op literal` holds when `value` compares to the literal as `order`
    /// (`None`: unordered, a NaN on either side; then only `!=` holds).
    #[inline]
    pub fn holds(self, order: Option<core::cmp::Ordering>) -> bool {
        use core::cmp::Ordering::*;
        match (self, order) {
            (CompareOp::Ne, None) => true,
            (_, None) => false,
            (CompareOp::Eq, Some(o)) => o == Equal,
            (CompareOp::Ne, Some(o)) => o != Equal,
            (CompareOp::Lt, Some(o)) => o == Less,
            (CompareOp::Le, Some(o)) => o != Greater,
            (CompareOp::Gt, Some(o)) => o == Greater,
            (CompareOp::Ge, Some(o)) => o != Less,
        }
    }

    /// The operator as the text grammar spells it.
    pub fn symbol(self) -> &'static str {
        match self {
            CompareOp::Eq => "=",
            CompareOp::Ne => "!=",
            CompareOp::Lt => "<",
            CompareOp::Le => "<=",
            CompareOp::Gt => ">",
            CompareOp::Ge => ">=",
        }
    }
}

/// A literal as written, before it is typed by its column.
#[derive(Debug, Clone, PartialEq)]
pub enum Literal {
    /// A JSON number, as text (`42`, `-1.5`, `1e3`): read exactly for integer and DECIMAL
    /// columns, as the nearest value for float columns.
    Number(String),
    /// A `'text'` literal: a string, or the JSON form of a DATE, TIME, TIMESTAMP, UUID or
    /// DECIMAL value, base64 for other binary columns, `'NaN'` / `'Infinity'` /
    /// `'-Infinity'` for floats.
    Text(String),
    /// `TRUE` / `FALSE`.
    Boolean(bool),
    /// Raw bytes for a binary column (from Rust only; the text grammar uses base64).
    Bytes(Vec<u8>),
}

macro_rules! number_literal {
    ($($t:ty),*) => {$(
        impl From<$t> for Literal {
            fn from(v: $t) -> Literal {
                Literal::Number(v.to_string())
            }
        }
    )*};
}
number_literal!(i8, i16, i32, i64, i128, u8, u16, u32, u64, u128);

macro_rules! float_literal {
    ($($t:ty),*) => {$(
        impl From<$t> for Literal {
            /// A finite float is its shortest round-trip text; NaN and the infinities are
            /// the JSON special strings.
            fn from(v: $t) -> Literal {
                if v.is_nan() {
                    Literal::Text("NaN".into())
                } else if v.is_infinite() {
                    Literal::Text(if v > 0.0 { "Infinity" } else { "-Infinity" }.into())
                } else {
                    Literal::Number(alloc::format!("{v:?}"))
                }
            }
        }
    )*};
}
float_literal!(f32, f64);

impl From<bool> for Literal {
    fn from(v: bool) -> Literal {
        Literal::Boolean(v)
    }
}

impl From<&str> for Literal {
    fn from(v: &str) -> Literal {
        Literal::Text(v.into())
    }
}

impl From<String> for Literal {
    fn from(v: String) -> Literal {
        Literal::Text(v)
    }
}

impl From<&[u8]> for Literal {
    fn from(v: &[u8]) -> Literal {
        Literal::Bytes(v.to_vec())
    }
}

impl From<Vec<u8>> for Literal {
    fn from(v: Vec<u8>) -> Literal {
        Literal::Bytes(v)
    }
}

/// A predicate over the leaf columns of a schema, unbound (columns by path, literals as
/// written). SQL semantics: see the [module documentation](crate::predicate).
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// `column op literal`.
    Compare {
        /// The leaf's path, one name per schema level.
        column: Vec<String>,
        /// The operator.
        op: CompareOp,
        /// The literal.
        value: Literal,
    },
    /// `column IN (values...)`: `column = v1 OR column = v2 ...`.
    In {
        /// The leaf's path.
        column: Vec<String>,
        /// The literals (at least one).
        values: Vec<Literal>,
    },
    /// `column IS NULL`.
    IsNull {
        /// The leaf's path.
        column: Vec<String>,
    },
    /// Both.
    And(Box<Expr>, Box<Expr>),
    /// Either.
    Or(Box<Expr>, Box<Expr>),
    /// Negation (`NOT unknown` is unknown).
    Not(Box<Expr>),
}

/// A column reference, the start of a leaf test: `col("a.b").lt(3)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Column {
    path: Vec<String>,
}

/// The column at a dotted path (`"a.b"`, as `parket schema` spells it). For names that hold
/// dots, use [`col_path`].
pub fn col(dotted: &str) -> Column {
    Column {
        path: dotted.split('.').map(String::from).collect(),
    }
}

/// The column at a path given name by name.
///
/// ```
/// use parket::predicate::{col_path, parse_expr};
/// assert_eq!(col_path(["my col", "x"]).is_null(), parse_expr("\"my col\".x IS NULL").unwrap());
/// ```
pub fn col_path<S: Into<String>>(names: impl IntoIterator<Item = S>) -> Column {
    Column {
        path: names.into_iter().map(Into::into).collect(),
    }
}

/// `NOT expr` (also `!expr`).
pub fn not(expr: Expr) -> Expr {
    Expr::Not(Box::new(expr))
}

impl Column {
    fn compare(self, op: CompareOp, value: impl Into<Literal>) -> Expr {
        Expr::Compare {
            column: self.path,
            op,
            value: value.into(),
        }
    }
    /// `column = value`.
    pub fn eq(self, value: impl Into<Literal>) -> Expr {
        self.compare(CompareOp::Eq, value)
    }
    /// `column != value`.
    pub fn ne(self, value: impl Into<Literal>) -> Expr {
        self.compare(CompareOp::Ne, value)
    }
    /// `column < value`.
    pub fn lt(self, value: impl Into<Literal>) -> Expr {
        self.compare(CompareOp::Lt, value)
    }
    /// `column <= value`.
    pub fn le(self, value: impl Into<Literal>) -> Expr {
        self.compare(CompareOp::Le, value)
    }
    /// `column > value`.
    pub fn gt(self, value: impl Into<Literal>) -> Expr {
        self.compare(CompareOp::Gt, value)
    }
    /// `column >= value`.
    pub fn ge(self, value: impl Into<Literal>) -> Expr {
        self.compare(CompareOp::Ge, value)
    }
    /// `column IN (values...)`.
    pub fn in_list<L: Into<Literal>>(self, values: impl IntoIterator<Item = L>) -> Expr {
        Expr::In {
            column: self.path,
            values: values.into_iter().map(Into::into).collect(),
        }
    }
    /// `column IS NULL`.
    pub fn is_null(self) -> Expr {
        Expr::IsNull { column: self.path }
    }
    /// `column IS NOT NULL` (`NOT column IS NULL`).
    pub fn is_not_null(self) -> Expr {
        not(self.is_null())
    }
}

impl Expr {
    /// `self AND other`.
    pub fn and(self, other: Expr) -> Expr {
        Expr::And(Box::new(self), Box::new(other))
    }
    /// `self OR other`.
    pub fn or(self, other: Expr) -> Expr {
        Expr::Or(Box::new(self), Box::new(other))
    }
}

impl core::ops::Not for Expr {
    type Output = Expr;
    fn not(self) -> Expr {
        not(self)
    }
}
