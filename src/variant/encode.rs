//! The Variant encoder: a [`VariantValue`] to its metadata and value bytes.
//!
//! Spec: VariantEncoding.md, the grammar of "Metadata encoding" and "Value encoding". The
//! encoder writes one dictionary per value with every field name once, sorted
//! (`sorted_strings` set), and picks the smallest sizes the spec allows: `offset_size`,
//! `field_id_size` and `field_offset_size` of 1 to 4 bytes as the largest number needs,
//! `is_large` only beyond 255 elements, a short string below 64 bytes. Objects list their
//! fields in name order and store the values in that order too.
//!
//! ```
//! use parket::variant::{encode, Primitive, VariantValue};
//! let v = VariantValue::Object(vec![("a".into(), Primitive::Int8(1).into())]);
//! let (metadata, value) = encode(&v)?;
//! assert_eq!(metadata, [0x11, 0x01, 0x00, 0x01, b'a']);
//! assert_eq!(value, [0x02, 0x01, 0x00, 0x00, 0x02, 0x0c, 0x01]);
//! # Ok::<(), parket::Error>(())
//! ```

use alloc::collections::BTreeSet;
use alloc::vec::Vec;

use crate::error::{Error, Result};
use crate::variant::value::{check_depth, Primitive};
use crate::variant::{VariantValue, MAX_DEPTH};

/// Encodes `v` as (metadata, value).
///
/// Errors: objects and arrays nested deeper than [`MAX_DEPTH`]; an object whose names are not
/// unique; a string, binary or container larger than 4 GiB; a decimal scale above 38.
pub fn encode(v: &VariantValue) -> Result<(Vec<u8>, Vec<u8>)> {
    let names = field_names(v)?;
    let metadata = encode_metadata(&names)?;
    let value = encode_with(v, &names)?;
    Ok((metadata, value))
}

/// Every field name in `v`, unique and in byte order: the dictionary [`encode`] writes.
pub fn field_names(v: &VariantValue) -> Result<Vec<&str>> {
    let mut names = BTreeSet::new();
    collect_names(v, &mut names, 0)?;
    Ok(names.into_iter().collect())
}

/// The value bytes of `v` against the dictionary `names` (sorted and unique, holding every
/// field name of `v`): how the parts of one shredded value share its metadata.
pub fn encode_with(v: &VariantValue, names: &[&str]) -> Result<Vec<u8>> {
    let mut value = Vec::new();
    encode_value(v, names, &mut value)?;
    Ok(value)
}

fn collect_names<'v>(v: &'v VariantValue, out: &mut BTreeSet<&'v str>, depth: usize) -> Result<()> {
    match v {
        VariantValue::Primitive(_) => Ok(()),
        VariantValue::Object(fields) => {
            check_depth(depth, MAX_DEPTH)?;
            for (name, value) in fields {
                out.insert(name.as_str());
                collect_names(value, out, depth + 1)?;
            }
            Ok(())
        }
        VariantValue::Array(items) => {
            check_depth(depth, MAX_DEPTH)?;
            items
                .iter()
                .try_for_each(|x| collect_names(x, out, depth + 1))
        }
    }
}

/// Bytes needed for an unsigned `n` (1 to 4).
fn size_for(n: usize) -> Result<usize> {
    match n {
        0..=0xff => Ok(1),
        0x100..=0xffff => Ok(2),
        0x1_0000..=0xff_ffff => Ok(3),
        _ if u32::try_from(n).is_ok() => Ok(4),
        _ => Err(Error::limit(
            "Variant size or count",
            n as u64,
            u32::MAX.into(),
        )),
    }
}

fn push_uint(out: &mut Vec<u8>, n: usize, size: usize) {
    out.extend_from_slice(&(n as u32).to_le_bytes()[..size]);
}

/// The metadata of the sorted, unique dictionary `names`.
pub fn encode_metadata(names: &[&str]) -> Result<Vec<u8>> {
    let total: usize = names.iter().map(|n| n.len()).sum();
    let size = size_for(total.max(names.len()))?;
    // Spec: version 1, sorted_strings (the names come from a BTreeSet: unique and in order).
    let mut out = Vec::with_capacity(1 + size * (names.len() + 2) + total);
    out.push(0x01 | 0x10 | ((size as u8 - 1) << 6));
    push_uint(&mut out, names.len(), size);
    let mut offset = 0;
    push_uint(&mut out, 0, size);
    for n in names {
        offset += n.len();
        push_uint(&mut out, offset, size);
    }
    for n in names {
        out.extend_from_slice(n.as_bytes());
    }
    Ok(out)
}

fn encode_value(v: &VariantValue, names: &[&str], out: &mut Vec<u8>) -> Result<()> {
    match v {
        VariantValue::Primitive(p) => encode_primitive(p, out),
        VariantValue::Array(items) => {
            let mut values = Vec::new();
            let mut offsets = Vec::with_capacity(items.len() + 1);
            for item in items {
                offsets.push(values.len());
                encode_value(item, names, &mut values)?;
            }
            offsets.push(values.len());
            let off_size = size_for(values.len())?;
            let large = items.len() > 0xff;
            // Spec: array_header = is_large << 2 | (field_offset_size - 1); basic type 3.
            out.push(0x03 | ((u8::from(large) << 2 | (off_size as u8 - 1)) << 2));
            push_uint(out, items.len(), if large { 4 } else { 1 });
            for o in offsets {
                push_uint(out, o, off_size);
            }
            out.extend_from_slice(&values);
            Ok(())
        }
        VariantValue::Object(fields) => {
            let mut order: Vec<usize> = (0..fields.len()).collect();
            order.sort_by(|&a, &b| {
                let (x, y) = (&fields[a].0, &fields[b].0);
                x.as_bytes().cmp(y.as_bytes())
            });
            if order.windows(2).any(|w| fields[w[0]].0 == fields[w[1]].0) {
                return Err(Error::invalid_argument(
                    "a Variant object with a repeated field name",
                ));
            }
            let mut values = Vec::new();
            let mut ids = Vec::with_capacity(fields.len());
            let mut offsets = Vec::with_capacity(fields.len() + 1);
            for &i in &order {
                let (name, value) = &fields[i];
                let id = names.binary_search(&name.as_str()).map_err(|_| {
                    Error::invalid_argument("a Variant field name not in the dictionary")
                })?;
                ids.push(id);
                offsets.push(values.len());
                encode_value(value, names, &mut values)?;
            }
            offsets.push(values.len());
            let id_size = size_for(names.len().saturating_sub(1))?;
            let off_size = size_for(values.len())?;
            let large = fields.len() > 0xff;
            // Spec: object_header = is_large << 4 | (field_id_size - 1) << 2 |
            // (field_offset_size - 1); basic type 2.
            let header = u8::from(large) << 4 | (id_size as u8 - 1) << 2 | (off_size as u8 - 1);
            out.push(0x02 | (header << 2));
            push_uint(out, fields.len(), if large { 4 } else { 1 });
            for id in ids {
                push_uint(out, id, id_size);
            }
            for o in offsets {
                push_uint(out, o, off_size);
            }
            out.extend_from_slice(&values);
            Ok(())
        }
    }
}

fn encode_primitive(p: &Primitive<'_>, out: &mut Vec<u8>) -> Result<()> {
    let mut typed = |id: u8, data: &[u8]| {
        out.push(id << 2);
        out.extend_from_slice(data);
    };
    let scale = |s: u8| {
        if s > 38 {
            Err(Error::out_of_range(
                "Variant decimal scale (0 to 38)",
                s.into(),
            ))
        } else {
            Ok(s)
        }
    };
    match p {
        Primitive::Null => typed(0, &[]),
        Primitive::Boolean(true) => typed(1, &[]),
        Primitive::Boolean(false) => typed(2, &[]),
        Primitive::Int8(x) => typed(3, &x.to_le_bytes()),
        Primitive::Int16(x) => typed(4, &x.to_le_bytes()),
        Primitive::Int32(x) => typed(5, &x.to_le_bytes()),
        Primitive::Int64(x) => typed(6, &x.to_le_bytes()),
        Primitive::Double(x) => typed(7, &x.to_le_bytes()),
        Primitive::Decimal4 { unscaled, scale: s } => {
            typed(8, &[scale(*s)?]);
            out.extend_from_slice(&unscaled.to_le_bytes());
        }
        Primitive::Decimal8 { unscaled, scale: s } => {
            typed(9, &[scale(*s)?]);
            out.extend_from_slice(&unscaled.to_le_bytes());
        }
        Primitive::Decimal16 { unscaled, scale: s } => {
            typed(10, &[scale(*s)?]);
            out.extend_from_slice(&unscaled.to_le_bytes());
        }
        Primitive::Date(x) => typed(11, &x.to_le_bytes()),
        Primitive::Timestamp(x) => typed(12, &x.to_le_bytes()),
        Primitive::TimestampNtz(x) => typed(13, &x.to_le_bytes()),
        Primitive::Float(x) => typed(14, &x.to_le_bytes()),
        Primitive::Binary(b) => {
            let n = u32::try_from(b.len()).map_err(|_| {
                Error::limit("Variant binary length", b.len() as u64, u32::MAX.into())
            })?;
            typed(15, &n.to_le_bytes());
            out.extend_from_slice(b);
        }
        Primitive::String(s) if s.len() < 64 => {
            // Spec: a short string, basic type 1 with the length in the header.
            out.push(0x01 | ((s.len() as u8) << 2));
            out.extend_from_slice(s.as_bytes());
        }
        Primitive::String(s) => {
            let n = u32::try_from(s.len()).map_err(|_| {
                Error::limit("Variant string length", s.len() as u64, u32::MAX.into())
            })?;
            typed(16, &n.to_le_bytes());
            out.extend_from_slice(s.as_bytes());
        }
        Primitive::TimeNtz(x) => typed(17, &x.to_le_bytes()),
        Primitive::TimestampNanos(x) => typed(18, &x.to_le_bytes()),
        Primitive::TimestampNtzNanos(x) => typed(19, &x.to_le_bytes()),
        Primitive::Uuid(u) => typed(20, u),
    }
    Ok(())
}
