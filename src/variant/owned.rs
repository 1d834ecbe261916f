//! An owned Variant value: a tree that outlives the bytes it was read from, the form that
//! shredded reassembly builds and that the encoder writes.
//!
//! Objects keep their fields in the byte order of the names (the order the encoding lists
//! them), unique; arrays keep their order.
//!
//! ```
//! use parket::variant::{Metadata, Primitive, Variant, VariantValue, MAX_DEPTH};
//! // {"a": 1} with the metadata ["a"]
//! let m = Metadata::decode(&[0x11, 0x01, 0x00, 0x01, b'a'])?;
//! let v = Variant::decode(m, &[0x02, 0x01, 0x00, 0x00, 0x02, 0x0c, 0x01])?;
//! let owned = VariantValue::from_variant(&v, MAX_DEPTH)?;
//! assert_eq!(owned, VariantValue::Object(vec![("a".into(), Primitive::Int8(1).into())]));
//! # Ok::<(), parket::Error>(())
//! ```

use alloc::string::String;
use alloc::vec::Vec;

use crate::error::Result;
use crate::variant::value::{check_depth, Primitive, Variant};

/// A Variant value that owns its contents.
#[derive(Debug, Clone, PartialEq)]
pub enum VariantValue {
    /// A primitive or a string.
    Primitive(Primitive<'static>),
    /// An object: (name, value) pairs, names unique and in byte order.
    Object(Vec<(String, VariantValue)>),
    /// An array.
    Array(Vec<VariantValue>),
}

impl From<Primitive<'static>> for VariantValue {
    fn from(p: Primitive<'static>) -> Self {
        VariantValue::Primitive(p)
    }
}

impl VariantValue {
    /// The Variant null.
    pub const NULL: VariantValue = VariantValue::Primitive(Primitive::Null);

    /// Copies a decoded value, checking all of it as [`Variant::validate`] does (nesting at
    /// most `max_depth` deep, field names unique and in order, every offset and id in range).
    pub fn from_variant(v: &Variant<'_>, max_depth: usize) -> Result<VariantValue> {
        Self::copy(v, 0, max_depth)
    }

    fn copy(v: &Variant<'_>, depth: usize, max_depth: usize) -> Result<VariantValue> {
        Ok(match v {
            Variant::Primitive(p) => VariantValue::Primitive(p.clone().into_owned()),
            Variant::Object(o) => {
                check_depth(depth, max_depth)?;
                // No reservation from the count: each field costs bytes that were checked.
                let mut fields: Vec<(String, VariantValue)> = Vec::new();
                for i in 0..o.len() {
                    let (name, value) = o.field(i)?;
                    o.check_order(fields.last().map(|(n, _)| n.as_str()), name, i)?;
                    fields.push((name.into(), Self::copy(&value, depth + 1, max_depth)?));
                }
                VariantValue::Object(fields)
            }
            Variant::Array(a) => {
                check_depth(depth, max_depth)?;
                let mut items = Vec::new();
                for i in 0..a.len() {
                    items.push(Self::copy(&a.get(i)?, depth + 1, max_depth)?);
                }
                VariantValue::Array(items)
            }
        })
    }

    /// Equality that compares floats bit for bit (NaN payloads and the sign of zero count).
    pub fn bit_eq(&self, other: &VariantValue) -> bool {
        match (self, other) {
            (VariantValue::Primitive(a), VariantValue::Primitive(b)) => a.bit_eq(b),
            (VariantValue::Object(a), VariantValue::Object(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .zip(b)
                        .all(|((n1, v1), (n2, v2))| n1 == n2 && v1.bit_eq(v2))
            }
            (VariantValue::Array(a), VariantValue::Array(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.bit_eq(y))
            }
            _ => false,
        }
    }

    /// The value of field `name` of an object (`None` for a missing field or a non-object).
    pub fn get(&self, name: &str) -> Option<&VariantValue> {
        match self {
            VariantValue::Object(fields) => fields
                .binary_search_by(|(n, _)| n.as_bytes().cmp(name.as_bytes()))
                .ok()
                .and_then(|i| fields.get(i))
                .map(|(_, v)| v),
            _ => None,
        }
    }
}
