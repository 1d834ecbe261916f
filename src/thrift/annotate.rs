//! An annotating walk over one compact-protocol struct: which bytes are which field, for tools
//! that show a learner the bytes (`parket dump`). No Parquet knowledge: the caller passes the
//! root struct's field table and a lookup from a struct's IDL name to its table (for nested
//! structs); unknown ids are still walked and shown, unnamed.
//!
//! Worked example: `{ 1: i32 num_values = 3, 3: bool is_sorted = true }`:
//!
//! ```text
//! 15 06   depth 0, field 1, I32, value 3
//! 21      depth 0, field 3, BOOL_TRUE, value true
//! 00      depth 0, stop
//! ```
//!
//! ```
//! use parket::thrift::{annotate, Annotated, FieldDef, Ty};
//! const FIELDS: &[FieldDef] = &[
//!     FieldDef { id: 1, name: "num_values", ty: Ty::I32, required: true },
//!     FieldDef { id: 3, name: "is_sorted", ty: Ty::Bool, required: false },
//! ];
//! let (items, used) = annotate(&[0x15, 0x06, 0x21, 0x00], FIELDS, &|_| None, 16).unwrap();
//! assert_eq!(used, 4);
//! assert_eq!(items[0].range, 0..2);
//! assert_eq!(items[0].field.map(|f| f.name), Some("num_values"));
//! assert_eq!(items[0].value, Annotated::Int(3));
//! assert_eq!((items[1].range.clone(), items[1].value.clone()), (2..3, Annotated::Bool(true)));
//! assert_eq!((items[2].range.clone(), items[2].value.clone()), (3..4, Annotated::Stop));
//! ```
//!
//! Never panics, for any input; nesting is bounded by `max_depth` and every annotation
//! consumes at least one byte, so the output is at most one item per input byte.

use alloc::vec::Vec;
use core::ops::Range;

use super::{FieldDef, Reader, Ty};
use super::{BINARY, BOOL_FALSE, BOOL_TRUE, BYTE, DOUBLE, I16, I32, I64, LIST, MAP, SET, STRUCT};
use crate::error::{Error, Result};

/// What a run of bytes holds.
#[derive(Debug, Clone, PartialEq)]
pub enum Annotated {
    /// A bool (a field's, in its header's type nibble, or a list element's byte).
    Bool(bool),
    /// A byte, i16, i32 or i64 (zigzag varint, decoded).
    Int(i64),
    /// A double (8 bytes little-endian).
    Double(f64),
    /// A binary or string: the byte range of its contents (after the varint length).
    Binary(Range<usize>),
    /// A struct starts: its fields follow one level deeper, then a [`Annotated::Stop`].
    Struct,
    /// A list or set starts: `size` elements of compact type `elem_type` follow one level
    /// deeper.
    List {
        /// Compact type id of the elements.
        elem_type: u8,
        /// Number of elements.
        size: usize,
    },
    /// A map starts: `size` key/value pairs follow one level deeper.
    Map {
        /// Number of entries.
        size: usize,
    },
    /// The stop field that ends a struct.
    Stop,
}

/// One annotated run of bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct Annotation {
    /// The bytes: a field's header and (for scalars) its value; a container's header; a list
    /// element; a stop byte.
    pub range: Range<usize>,
    /// Nesting depth: 0 for the root struct's fields.
    pub depth: u32,
    /// The field id, for a struct field (`None` for list elements, map entries and stops).
    pub field_id: Option<i16>,
    /// The field's entry in its struct's table, when the id is known.
    pub field: Option<FieldDef>,
    /// The IDL type when known (the field's, or a list's element type).
    pub ty: Option<Ty>,
    /// The compact wire type id.
    pub wire_type: u8,
    /// The value.
    pub value: Annotated,
}

/// Looks up the field table of a struct by IDL name.
pub type StructLookup<'l> = dyn Fn(&str) -> Option<&'static [FieldDef]> + 'l;

/// Walks the struct at the start of `buf` whose fields are `root`, naming nested structs'
/// fields through `lookup`; returns the annotations in byte order and the bytes used.
///
/// Errors as [`Reader`] does (truncation, bad types, nesting deeper than `max_depth`).
pub fn annotate(
    buf: &[u8],
    root: &'static [FieldDef],
    lookup: &StructLookup<'_>,
    max_depth: u32,
) -> Result<(Vec<Annotation>, usize)> {
    let mut w = Walker {
        r: Reader::new(buf, max_depth),
        lookup,
        out: Vec::new(),
        max_depth,
    };
    w.r.struct_begin()?;
    w.fields(Some(root), 0)?;
    w.r.struct_end();
    Ok((w.out, w.r.position()))
}

struct Walker<'a, 'l> {
    r: Reader<'a>,
    lookup: &'l StructLookup<'l>,
    out: Vec<Annotation>,
    max_depth: u32,
}

impl Walker<'_, '_> {
    fn fields(&mut self, table: Option<&'static [FieldDef]>, depth: u32) -> Result<()> {
        let mut last = 0i16;
        loop {
            let start = self.r.position();
            match self.r.field_header(&mut last)? {
                None => {
                    self.out.push(Annotation {
                        range: start..self.r.position(),
                        depth,
                        field_id: None,
                        field: None,
                        ty: None,
                        wire_type: 0,
                        value: Annotated::Stop,
                    });
                    return Ok(());
                }
                Some((id, wire)) => {
                    let field = table.and_then(|t| t.iter().find(|f| f.id == id)).copied();
                    let ty = field.map(|f| f.ty);
                    self.value(start, Some(id), field, ty, wire, depth, true)?;
                }
            }
        }
    }

    fn struct_table(&self, ty: Option<Ty>) -> Option<&'static [FieldDef]> {
        match ty {
            Some(Ty::Struct(name)) => (self.lookup)(name),
            _ => None,
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn value(
        &mut self,
        start: usize,
        field_id: Option<i16>,
        field: Option<FieldDef>,
        ty: Option<Ty>,
        wire: u8,
        depth: u32,
        is_field: bool,
    ) -> Result<()> {
        if depth >= self.max_depth {
            return Err(Error::limit(
                "Thrift nesting depth",
                u64::from(depth) + 1,
                u64::from(self.max_depth),
            )
            .at_offset(start as u64));
        }
        let value = match wire {
            BOOL_TRUE | BOOL_FALSE if is_field => Annotated::Bool(wire == BOOL_TRUE),
            BOOL_TRUE | BOOL_FALSE => Annotated::Bool(self.r.bool_element()?),
            BYTE => Annotated::Int(self.r.i8()?.into()),
            I16 => Annotated::Int(self.r.i16()?.into()),
            I32 => Annotated::Int(self.r.i32()?.into()),
            I64 => Annotated::Int(self.r.i64()?),
            DOUBLE => Annotated::Double(self.r.double()?),
            BINARY => {
                let b = self.r.binary()?;
                let end = self.r.position();
                Annotated::Binary(end - b.len()..end)
            }
            STRUCT => {
                self.push(start, field_id, field, ty, wire, depth, Annotated::Struct);
                let table = self.struct_table(ty);
                self.r.struct_begin()?;
                self.fields(table, depth + 1)?;
                self.r.struct_end();
                return Ok(());
            }
            LIST | SET => {
                let (elem_type, size) = self.r.list_header()?;
                let value = Annotated::List { elem_type, size };
                self.push(start, field_id, field, ty, wire, depth, value);
                let elem_ty = match ty {
                    Some(Ty::List(t)) => Some(*t),
                    _ => None,
                };
                for _ in 0..size {
                    let at = self.r.position();
                    self.value(at, None, None, elem_ty, elem_type, depth + 1, false)?;
                }
                return Ok(());
            }
            MAP => {
                let (k, v, size) = self.r.map_header()?;
                self.push(
                    start,
                    field_id,
                    field,
                    ty,
                    wire,
                    depth,
                    Annotated::Map { size },
                );
                for _ in 0..size {
                    for t in [k, v] {
                        let at = self.r.position();
                        self.value(at, None, None, None, t, depth + 1, false)?;
                    }
                }
                return Ok(());
            }
            t => return Err(Error::out_of_range("Thrift type", t.into()).at_offset(start as u64)),
        };
        self.push(start, field_id, field, ty, wire, depth, value);
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn push(
        &mut self,
        start: usize,
        field_id: Option<i16>,
        field: Option<FieldDef>,
        ty: Option<Ty>,
        wire_type: u8,
        depth: u32,
        value: Annotated,
    ) {
        self.out.push(Annotation {
            range: start..self.r.position(),
            depth,
            field_id,
            field,
            ty,
            wire_type,
            value,
        });
    }
}

/// The protocol's name of a compact type id (`I32`, `STRUCT`, ...).
pub fn wire_type_name(t: u8) -> &'static str {
    match t {
        0 => "STOP",
        BOOL_TRUE => "BOOL_TRUE",
        BOOL_FALSE => "BOOL_FALSE",
        BYTE => "BYTE",
        I16 => "I16",
        I32 => "I32",
        I64 => "I64",
        DOUBLE => "DOUBLE",
        BINARY => "BINARY",
        LIST => "LIST",
        SET => "SET",
        MAP => "MAP",
        STRUCT => "STRUCT",
        _ => "?",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{DataPageHeader, PageHeader, Statistics};
    use crate::thrift::StructDef;
    use proptest::prelude::*;

    fn lookup(name: &str) -> Option<&'static [FieldDef]> {
        match name {
            "DataPageHeader" => Some(DataPageHeader::FIELDS),
            "Statistics" => Some(Statistics::FIELDS),
            _ => None,
        }
    }

    /// The worked example of `crate::page::decode`: a V1 header, annotated by hand.
    #[test]
    fn page_header_by_hand() {
        let h = [
            0x15, 0x00, 0x15, 0x1c, 0x15, 0x1c, 0x2c, 0x15, 0x06, 0x15, 0x00, 0x15, 0x06, 0x15,
            0x06, 0x00, 0x00,
        ];
        let (items, used) = annotate(&h, PageHeader::FIELDS, &lookup, 16).unwrap();
        assert_eq!(used, 17);
        let seen: Vec<(Range<usize>, u32, Option<&str>, Annotated)> = items
            .iter()
            .map(|a| {
                (
                    a.range.clone(),
                    a.depth,
                    a.field.map(|f| f.name),
                    a.value.clone(),
                )
            })
            .collect();
        assert_eq!(
            seen,
            [
                (0..2, 0, Some("type_"), Annotated::Int(0)),
                (2..4, 0, Some("uncompressed_page_size"), Annotated::Int(14)),
                (4..6, 0, Some("compressed_page_size"), Annotated::Int(14)),
                (6..7, 0, Some("data_page_header"), Annotated::Struct),
                (7..9, 1, Some("num_values"), Annotated::Int(3)),
                (9..11, 1, Some("encoding"), Annotated::Int(0)),
                (
                    11..13,
                    1,
                    Some("definition_level_encoding"),
                    Annotated::Int(3)
                ),
                (
                    13..15,
                    1,
                    Some("repetition_level_encoding"),
                    Annotated::Int(3)
                ),
                (15..16, 1, None, Annotated::Stop),
                (16..17, 0, None, Annotated::Stop),
            ]
        );
    }

    proptest! {
        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            if let Ok((items, used)) = annotate(&bytes, PageHeader::FIELDS, &lookup, 8) {
                prop_assert!(used <= bytes.len());
                prop_assert!(items.len() <= used);
                for a in items {
                    prop_assert!(a.range.end <= used);
                }
            }
        }
    }
}
