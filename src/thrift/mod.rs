//! Layer 1: the Thrift compact protocol, by hand, with no Parquet knowledge.
//!
//! Spec: Apache Thrift, `doc/specs/thrift-compact-protocol.md` (the encoding Parquet uses for
//! every footer, page header, page index and bloom filter header). The grammar, as far as
//! Parquet needs it:
//!
//! ```text
//! struct        ::= ( field-header field-value )* stop-field
//! field-header  ::= short: 0bDDDDTTTT              (D = id delta 1..=15 from the previous id)
//!                 | long:  0b0000TTTT zigzag-varint-i16-id
//! stop-field    ::= 0x00
//! bool field    ::= the value lives in the type nibble: 1 = true, 2 = false (no value bytes)
//! byte          ::= 1 byte;  i16, i32, i64 ::= zigzag varint;  double ::= 8 bytes little-endian
//! binary/string ::= varint length, then the bytes
//! list / set    ::= 0bSSSSTTTT (size 0..=14 in the high nibble) | 0xFT varint-size; elements
//!                   (a bool element is one byte: 1 = true, 2 (or 0) = false)
//! map           ::= 0x00 (empty) | varint-size 0bKKKKVVVV; key value key value ...
//! types         ::= 1 BOOL_TRUE 2 BOOL_FALSE 3 BYTE 4 I16 5 I32 6 I64 7 DOUBLE 8 BINARY
//!                   9 LIST 10 SET 11 MAP 12 STRUCT
//! ```
//!
//! Worked example: a struct `{ 1: i32 num_values = 3, 3: bool is_sorted = true }`
//! (`DictionaryPageHeader` without its encoding) is
//!
//! ```text
//! 15 06   field 1 (delta 1), type 5 = I32; zigzag(3) = 6
//! 21      field 3 (delta 2), type 1 = BOOL_TRUE (the value is in the header)
//! 00      stop
//! ```
//!
//! ```
//! use parket::thrift::{Reader, Writer, I32, BOOL_TRUE};
//! let mut out = Vec::new();
//! let mut w = Writer::new(&mut out);
//! let saved = w.struct_begin();
//! w.field_header(1, I32);
//! w.i32(3);
//! w.bool_field(3, true);
//! w.struct_end(saved);
//! assert_eq!(out, [0x15, 0x06, 0x21, 0x00]);
//!
//! let mut r = Reader::new(&out, 64);
//! r.struct_begin().unwrap();
//! let mut last = 0;
//! assert_eq!(r.field_header(&mut last).unwrap(), Some((1, I32)));
//! assert_eq!(r.i32().unwrap(), 3);
//! assert_eq!(r.field_header(&mut last).unwrap(), Some((3, BOOL_TRUE)));
//! assert_eq!(r.field_header(&mut last).unwrap(), None);
//! r.struct_end();
//! ```
//!
//! Besides the reader and the writer, this module holds [`ThriftType`]: how one Rust type maps to
//! one IDL type, and the `thrift_struct!` macro that turns a table of `(id, requiredness,
//! name, type)` into a Rust struct with its decoder, its encoder and the [`FieldDef`] table
//! that `tests/thrift_idl.rs` checks against `thrift/parquet.thrift`.

mod annotate;
mod codec;
// The compact variant (its helpers are named by path, `thrift::compact::..`, in the code
// that `thrift_struct!` generates); tests compile both variants to compare them.
#[cfg(any(parket_opt_size, test))]
pub(crate) mod compact;
mod reader;
mod writer;

pub use annotate::{annotate, wire_type_name, Annotated, Annotation, StructLookup};
#[doc(hidden)]
pub use codec::{__Placeholder, __read_field};
pub(crate) use codec::{__field_ty, __is_required, __write, thrift_struct};
#[allow(unused_imports)] // unused in builds for size
pub(crate) use codec::{__skipped, __take};
pub use codec::{
    decode_prefix, encode, read_empty, read_empty_union, read_union, write_empty, Ctx, FieldDef,
    StructDef, ThriftType, Ty,
};

// The one point of choice between the two struct decoders and the two skips (see
// [`Reader::skip`]): the default ones (one loop per struct type; an iterative skip), or, built
// for size (`cfg(parket_opt_size)`), the table-driven decoder and the recursive skip of
// `compact`, which are smaller and measurably slower (see `compact`).
#[cfg(not(parket_opt_size))]
pub(crate) use {
    codec::__read_struct_default as __read_struct, reader::skip_iterative as skip_any,
};
#[cfg(parket_opt_size)]
pub(crate) use {
    compact::__read_struct_compact as __read_struct, compact::skip_recursive as skip_any,
};

pub use reader::Reader;
pub use writer::Writer;

/// Compact type id of the stop field (end of a struct).
pub const STOP: u8 = 0;
/// Compact type id of a bool field whose value is true (also a bool list's element type).
pub const BOOL_TRUE: u8 = 1;
/// Compact type id of a bool field whose value is false.
pub const BOOL_FALSE: u8 = 2;
/// Compact type id of `byte` (i8).
pub const BYTE: u8 = 3;
/// Compact type id of `i16`.
pub const I16: u8 = 4;
/// Compact type id of `i32`.
pub const I32: u8 = 5;
/// Compact type id of `i64`.
pub const I64: u8 = 6;
/// Compact type id of `double`.
pub const DOUBLE: u8 = 7;
/// Compact type id of `binary` and `string`.
pub const BINARY: u8 = 8;
/// Compact type id of `list`.
pub const LIST: u8 = 9;
/// Compact type id of `set`.
pub const SET: u8 = 10;
/// Compact type id of `map`.
pub const MAP: u8 = 11;
/// Compact type id of `struct` (and `union`).
pub const STRUCT: u8 = 12;

#[cfg(test)]
mod tests;
