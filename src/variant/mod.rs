//! VARIANT: the Variant binary encoding (VariantEncoding.md), read without copying.
//!
//! A Variant value is two byte strings: the [`Metadata`] (a dictionary of field names) and the
//! value ([`Variant`]), which refers to names by their dictionary id. In Parquet they are the
//! `metadata` and `value` BYTE_ARRAY fields of a group annotated `VARIANT` (LogicalTypes.md);
//! shredded values (VariantShredding.md) add `typed_value` fields, which
//! `record::variant` merges back.
//!
//! | module | owns |
//! |---|---|
//! | [`metadata`] | the dictionary: header, offsets, strings, sorted lookup |
//! | [`value`] | the typed view: primitives, short strings, objects, arrays |
//! | [`owned`] | [`VariantValue`], a tree that owns its contents |
//! | [`mod@encode`] | [`VariantValue`] to metadata and value bytes |
//!
//! Worked example, `{"a": 1}` (hand-encoded; a test below checks it):
//!
//! ```text
//! metadata  11        version 1, sorted_strings, 1-byte offsets
//!           01        dictionary_size 1
//!           00 01     offsets
//!           61        "a"
//! value     02        object; 1-byte field ids, offsets and num_elements
//!           01        num_elements
//!           00        field id 0 ("a")
//!           00 02     offsets: the value at 0, the values end at 2
//!           0c 01     primitive int8 (type id 3 << 2), 1
//! ```
//!
//! ```
//! use parket::variant::{Metadata, Primitive, Variant};
//! let metadata = Metadata::decode(&[0x11, 0x01, 0x00, 0x01, b'a'])?;
//! let value = Variant::decode(metadata, &[0x02, 0x01, 0x00, 0x00, 0x02, 0x0c, 0x01])?;
//! let Variant::Object(object) = value else { unreachable!() };
//! assert_eq!(object.get("a")?, Some(Variant::Primitive(Primitive::Int8(1))));
//! # Ok::<(), parket::Error>(())
//! ```
//!
//! Limits: every length, count, offset and id is checked against the bytes that remain (or
//! the dictionary) before use, and nothing is allocated from a count; decoding is one level at
//! a time, and the deep walks ([`Variant::validate`], [`VariantValue::from_variant`]) stop at a
//! nesting depth ([`MAX_DEPTH`] by default). Errors carry the byte offset within the metadata
//! or the value where the fault is.

pub mod encode;
pub mod metadata;
pub mod owned;
pub mod value;

pub use encode::encode;
pub use metadata::Metadata;
pub use owned::VariantValue;
pub use value::{Array, Object, Primitive, Variant};

/// The default bound on the nesting of objects and arrays in one value.
pub const MAX_DEPTH: usize = 128;

#[cfg(test)]
mod tests;

/// Fuzzing harness (the `variant` target of `fuzz/`, replayed by `tests/fuzz_regressions.rs`):
/// `data` is metadata followed by a value, as parquet-testing's `*.variant.bin` files. Whatever
/// decodes must validate exactly when it converts to a [`VariantValue`], and that value must
/// encode and decode back to itself. Panics only if the decoder breaks one of these
/// guarantees.
#[cfg(any(test, feature = "fuzzing"))]
#[doc(hidden)]
pub fn fuzz_decode(data: &[u8]) {
    let Ok(m) = Metadata::decode(data) else {
        return;
    };
    let value = data.get(m.encoded_len()..).unwrap_or(&[]);
    let Ok(v) = Variant::decode(m, value) else {
        return;
    };
    let owned = VariantValue::from_variant(&v, MAX_DEPTH);
    assert_eq!(v.validate(MAX_DEPTH).is_ok(), owned.is_ok());
    if let Ok(owned) = owned {
        let (m2, v2) = encode(&owned).expect("a decoded value encodes");
        let m2 = Metadata::decode(&m2).expect("encoded metadata decodes");
        let back = Variant::decode(m2, &v2).expect("an encoded value decodes");
        let back = VariantValue::from_variant(&back, MAX_DEPTH).expect("and converts");
        assert!(back.bit_eq(&owned), "{back:?} != {owned:?}");
    }
}
