//! Records: one row of a file as a dynamic, nested value.
//!
//! A [`Value`] mirrors the schema: a group is a [`Value::Group`] with one value per child in
//! schema order; a LIST (any of its shapes) or a repeated field is a [`Value::List`]; a MAP is a
//! [`Value::Map`] of key/value pairs in file order; a leaf holds its *physical* value
//! (`Int32`, `Bytes`, ...). What the physical value means (a DATE, a DECIMAL, a UTF-8 string)
//! is given by the leaf's annotation in the schema; [`crate::record::Value`] stays physical so
//! that writing and reading lose nothing, and the logical view is computed on demand.
//!
//! A null at any level (an absent optional group, a null list, a null element) is
//! [`Value::Null`].
//!
//! ```
//! use parket::record::Value;
//! // message m { required int64 id; optional group tags (LIST) { repeated group list {
//! //   optional binary element (STRING); } } }
//! let row = Value::Group(vec![
//!     Value::Int64(7),
//!     Value::List(vec![Value::Bytes(b"a".to_vec()), Value::Null]),
//! ]);
//! assert_eq!(row.as_group().unwrap().len(), 2);
//! ```

use alloc::vec::Vec;

pub mod logical;
pub mod variant;

use crate::values::Int96;

/// One value of a record, at any nesting level.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// Absent: a null leaf, group, list, map or element.
    Null,
    /// BOOLEAN.
    Boolean(bool),
    /// INT32 (whatever its annotation: DATE, TIME(MILLIS), DECIMAL, INTEGER(8, false), ...).
    Int32(i32),
    /// INT64 (whatever its annotation).
    Int64(i64),
    /// INT96.
    Int96(Int96),
    /// FLOAT.
    Float(f32),
    /// DOUBLE.
    Double(f64),
    /// BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY (whatever its annotation: STRING, DECIMAL, UUID, ...).
    Bytes(Vec<u8>),
    /// A group: one value per child, in schema order.
    Group(Vec<Value>),
    /// A LIST, or the values of a repeated field outside LIST / MAP.
    List(Vec<Value>),
    /// A MAP: key/value pairs in file order.
    Map(Vec<(Value, Value)>),
}

impl Value {
    /// The children of a group.
    pub fn as_group(&self) -> Option<&[Value]> {
        match self {
            Value::Group(v) => Some(v),
            _ => None,
        }
    }

    /// True for [`Value::Null`].
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// Equality that compares floats bit for bit (NaN payloads and the sign of zero count).
    pub fn bit_eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Float(a), Value::Float(b)) => a.to_bits() == b.to_bits(),
            (Value::Double(a), Value::Double(b)) => a.to_bits() == b.to_bits(),
            (Value::Group(a), Value::Group(b)) | (Value::List(a), Value::List(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.bit_eq(y))
            }
            (Value::Map(a), Value::Map(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .zip(b)
                        .all(|((k1, v1), (k2, v2))| k1.bit_eq(k2) && v1.bit_eq(v2))
            }
            (a, b) => a == b,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn bit_eq_sees_nan_and_signed_zero() {
        let a = Value::List(vec![Value::Double(f64::NAN), Value::Float(-0.0)]);
        let b = Value::List(vec![Value::Double(f64::NAN), Value::Float(0.0)]);
        assert!(a.bit_eq(&a.clone()));
        assert!(!a.bit_eq(&b));
        assert_ne!(a, a.clone(), "IEEE equality: NaN != NaN");
    }
}
