//! How a Rust type maps to an IDL type, and the table-driven struct codec.
//!
//! Each Rust type that appears in a Thrift struct implements [`ThriftType`]: its IDL type
//! ([`ThriftType::TY`]), its compact wire type, how it is read and written. A struct is declared once
//! with `thrift_struct!`, as a table of `id: requiredness name: Type`; the macro writes the Rust
//! struct, its decoder, its encoder and its [`StructDef::FIELDS`] table. The IDL type in that
//! table is `<Type as ThriftType>::TY`, the very type the decoder uses, so a test that compares the
//! table with `thrift/parquet.thrift` checks the codec itself: reading field 5 as `i32` where
//! the IDL says `i64` makes the table say `i32`, and the test fail.
//!
//! Decoding a struct: fields may come in any order; an unknown field id is skipped (newer
//! writers add fields); so is a known id with the wrong wire type (as Thrift's generated code
//! does, and as one real file needs); a repeated field keeps its last value (as Thrift does); a missing required field is an error
//! naming the struct and the field.
//!
//! Worked example, `KeyValue { key: "k", value: None }`:
//!
//! ```text
//! 18 01 6b   field 1 (delta 1), type 8 = BINARY; length 1; "k"
//! 00         stop
//! ```

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use super::{Reader, Writer, BINARY, BOOL_FALSE, BOOL_TRUE, BYTE, DOUBLE, I16, I32, I64, LIST};
use crate::error::{Error, Result};

/// An IDL type, as `thrift/parquet.thrift` spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ty {
    /// `bool`
    Bool,
    /// `i8` (`byte`)
    I8,
    /// `i16`
    I16,
    /// `i32`
    I32,
    /// `i64`
    I64,
    /// `double`
    Double,
    /// `binary`
    Binary,
    /// `string`
    String,
    /// An enum (stored as i32), by IDL name.
    Enum(&'static str),
    /// A struct or union, by IDL name.
    Struct(&'static str),
    /// `list<T>`
    List(&'static Ty),
}

impl fmt::Display for Ty {
    /// The IDL spelling: `i64`, `list<string>`, `ColumnChunk`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Bool => f.write_str("bool"),
            Ty::I8 => f.write_str("i8"),
            Ty::I16 => f.write_str("i16"),
            Ty::I32 => f.write_str("i32"),
            Ty::I64 => f.write_str("i64"),
            Ty::Double => f.write_str("double"),
            Ty::Binary => f.write_str("binary"),
            Ty::String => f.write_str("string"),
            Ty::Enum(n) | Ty::Struct(n) => f.write_str(n),
            Ty::List(t) => write!(f, "list<{t}>"),
        }
    }
}

/// One field of a struct or one member of a union, as the codec reads and writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldDef {
    /// Field id.
    pub id: i16,
    /// Rust field name (snake_case of the IDL name; `type_` for `type`) or, for a union, the
    /// IDL member name (`STRING`, `TYPE_ORDER`).
    pub name: &'static str,
    /// IDL type.
    pub ty: Ty,
    /// `required` (false for `optional` and for union members).
    pub required: bool,
}

/// A struct or union with its field table.
pub trait StructDef {
    /// IDL name.
    const NAME: &'static str;
    /// True for a `union`.
    const IS_UNION: bool;
    /// The fields, in id order.
    const FIELDS: &'static [FieldDef];
}

/// Names a field for error messages, built at compile time by `thrift_struct!`.
#[derive(Debug, Clone, Copy)]
pub struct Ctx {
    /// `Struct.field`.
    pub field: &'static str,
    /// The message for a string field that is not UTF-8.
    pub not_utf8: &'static str,
}

impl Ctx {
    /// A context for values read outside any named field.
    pub const NONE: Ctx = Ctx {
        field: "Thrift value",
        not_utf8: "Thrift string is not valid UTF-8",
    };
}

/// A Rust type that is read and written as one IDL type.
pub trait ThriftType: Sized {
    /// The IDL type.
    const TY: Ty;
    /// The compact wire type of a field of this type.
    const WIRE: u8;
    /// Reads a value that is not a bool field (a list element, or a field's value after its
    /// header).
    fn read(r: &mut Reader<'_>, ctx: Ctx) -> Result<Self>;
    /// Writes a value (as a list element, or a field's value after its header).
    fn write(&self, w: &mut Writer<'_>);
    /// Whether a field header with this wire type can hold this type.
    fn accepts(wire: u8) -> bool {
        wire == Self::WIRE
    }
    /// Reads the value of a field whose header said `wire`.
    fn read_field(r: &mut Reader<'_>, wire: u8, ctx: Ctx) -> Result<Self> {
        let _ = wire;
        Self::read(r, ctx)
    }
    /// Writes a field: header, then value.
    fn write_field(&self, w: &mut Writer<'_>, id: i16) {
        w.field_header(id, Self::WIRE);
        self.write(w);
    }
    /// The compact struct decoder's read of a required field into `slot` (an error is left
    /// in the reader): [`super::compact::__read_req`], one function per type; enums read
    /// their number through one function for all, and convert it where the field is read.
    #[doc(hidden)]
    #[cfg(any(parket_opt_size, test))]
    #[inline(always)]
    fn __compact_req(r: &mut Reader<'_>, wire: u8, slot: &mut Self, ctx: &'static Ctx) {
        super::compact::__read_req(r, wire, slot, ctx)
    }
    /// [`ThriftType::__compact_req`] for an optional field.
    #[doc(hidden)]
    #[cfg(any(parket_opt_size, test))]
    #[inline(always)]
    fn __compact_opt(r: &mut Reader<'_>, wire: u8, slot: &mut Option<Self>, ctx: &'static Ctx) {
        super::compact::__read_opt(r, wire, slot, ctx)
    }
    /// How the compact decoder's flat path ([`super::compact::__read_flat`]) reads a field
    /// of this type: [`FLAT_INT`] for an integer or bool, an enum's code (its position in
    /// [`ThriftType::__ENUMS`], plus one), or [`NOT_FLAT`] for any other type, which leaves
    /// its struct to the general path. (Only builds for size and tests read it.)
    #[doc(hidden)]
    const __FLAT: u8 = NOT_FLAT;
    /// The value of a field that the flat path read as `v` (an integer in range for the type,
    /// a bool as 0 or 1, an enum's valid number); `None` for a type that is not flat.
    #[doc(hidden)]
    #[inline(always)]
    fn __from_flat(v: i64) -> Option<Self> {
        let _ = v;
        None
    }
    /// An enum's table of every enum's `(what, valid)`, by code (see
    /// [`ThriftType::__FLAT`]); empty for the other types.
    #[doc(hidden)]
    const __ENUMS: &'static [(&'static str, u32)] = &[];
}

/// [`ThriftType::__FLAT`] of an integer or bool type.
#[doc(hidden)]
pub const FLAT_INT: u8 = 0;
/// [`ThriftType::__FLAT`] of a type that is not an integer, bool or enum.
#[doc(hidden)]
pub const NOT_FLAT: u8 = u8::MAX;

/// [`ThriftType::__FLAT`] and [`ThriftType::__from_flat`] of an integer or bool type: `$v`,
/// the value of the type for the flat path's `i64` `v`.
macro_rules! flat_int {
    ($v:ident => $value:expr) => {
        const __FLAT: u8 = FLAT_INT;
        #[inline(always)]
        fn __from_flat($v: i64) -> Option<Self> {
            Some($value)
        }
    };
}

/// The compact struct decoder's reads of a required and of an optional field
/// ([`ThriftType::__compact_req`], [`ThriftType::__compact_opt`]) for a type that is read by
/// a function shared with other types: `$value`, an expression of the reader `$r`, the wire
/// type `$wire` of the field's header and the field's context `$ctx`, which leaves an error in
/// the reader (and gives any value).
macro_rules! compact_through {
    ($r:ident, $wire:ident, $ctx:ident => $value:expr) => {
        #[cfg(any(parket_opt_size, test))]
        #[inline(always)]
        #[allow(unused_variables)]
        fn __compact_req($r: &mut Reader<'_>, $wire: u8, slot: &mut Self, $ctx: &'static Ctx) {
            *slot = $value;
        }
        #[cfg(any(parket_opt_size, test))]
        #[inline(always)]
        #[allow(unused_variables)]
        fn __compact_opt(
            $r: &mut Reader<'_>,
            $wire: u8,
            slot: &mut Option<Self>,
            $ctx: &'static Ctx,
        ) {
            *slot = Some($value);
        }
    };
}

impl ThriftType for bool {
    const TY: Ty = Ty::Bool;
    const WIRE: u8 = BOOL_TRUE;
    fn read(r: &mut Reader<'_>, _: Ctx) -> Result<Self> {
        r.bool_element()
    }
    fn write(&self, w: &mut Writer<'_>) {
        w.bool_element(*self)
    }
    fn accepts(wire: u8) -> bool {
        wire == BOOL_TRUE || wire == BOOL_FALSE
    }
    fn read_field(r: &mut Reader<'_>, wire: u8, _: Ctx) -> Result<Self> {
        r.bool_field(wire)
    }
    fn write_field(&self, w: &mut Writer<'_>, id: i16) {
        w.bool_field(id, *self)
    }
    compact_through!(r, wire, ctx => super::compact::__read_int(r, wire) != 0);
    flat_int!(v => v != 0);
}

macro_rules! scalar_codec {
    ($t:ty, $ty:ident, $wire:ident, $read:ident, $write:ident $(, { $($compact:tt)* })?) => {
        impl ThriftType for $t {
            const TY: Ty = Ty::$ty;
            const WIRE: u8 = $wire;
            fn read(r: &mut Reader<'_>, _: Ctx) -> Result<Self> {
                r.$read()
            }
            fn write(&self, w: &mut Writer<'_>) {
                w.$write(*self)
            }
            $($($compact)*)?
        }
    };
    // An integer type: the compact struct decoder reads its fields through one function for
    // every integer type (and bool), `compact::__read_int`, instead of an instance each; the
    // value is in range for the type (`__read_int` range-checks it for the header's wire
    // type, which `__StructState::next` matched with this type's).
    ($t:ty, $ty:ident, $wire:ident, $read:ident, $write:ident, int) => {
        scalar_codec!($t, $ty, $wire, $read, $write, {
            compact_through!(r, wire, ctx => super::compact::__read_int(r, wire) as $t);
            flat_int!(v => v as $t);
        });
    };
}

scalar_codec!(i8, I8, BYTE, i8, i8, int);
scalar_codec!(i16, I16, I16, i16, i16, int);
scalar_codec!(i32, I32, I32, i32, i32, int);
scalar_codec!(i64, I64, I64, i64, i64, int);
scalar_codec!(f64, Double, DOUBLE, double, double);

impl ThriftType for Vec<u8> {
    const TY: Ty = Ty::Binary;
    const WIRE: u8 = BINARY;
    fn read(r: &mut Reader<'_>, _: Ctx) -> Result<Self> {
        Ok(r.binary()?.to_vec())
    }
    fn write(&self, w: &mut Writer<'_>) {
        w.binary(self)
    }
}

impl ThriftType for String {
    const TY: Ty = Ty::String;
    const WIRE: u8 = BINARY;
    fn read(r: &mut Reader<'_>, ctx: Ctx) -> Result<Self> {
        let pos = r.position();
        let bytes = r.binary()?;
        match core::str::from_utf8(bytes) {
            Ok(s) => Ok(String::from(s)),
            Err(_) => Err(Error::out_of_spec(ctx.not_utf8).at_offset(pos as u64)),
        }
    }
    fn write(&self, w: &mut Writer<'_>) {
        w.binary(self.as_bytes())
    }
    compact_through!(r, wire, ctx => super::compact::__read_string(r, ctx));
}

impl<T: ThriftType> ThriftType for Vec<T> {
    const TY: Ty = Ty::List(&T::TY);
    const WIRE: u8 = LIST;
    fn read(r: &mut Reader<'_>, ctx: Ctx) -> Result<Self> {
        let size = list_of(r, T::WIRE)?;
        // `size` was checked against the bytes that remain (one byte per element at least);
        // reserve a bounded amount first (at the first element) and let the vector grow as
        // elements really decode, fallibly: a footer or page index of 256 MiB may hold 2 GiB
        // of 8-byte elements.
        let mut out = Vec::new();
        for i in 0..size {
            if out.len() == out.capacity() {
                // Doubling, as `push` would, but an error when the memory is not there.
                let more = out.len().max(1024).min(size - i);
                crate::limits::reserve(&mut out, more, "a Thrift list")?;
            }
            let v = T::read(r, ctx)?;
            // Always true (reserved above); checked so that no `push` grows the vector, which
            // links no growth path per element type (the size probe).
            if out.len() < out.capacity() {
                out.push(v);
            }
        }
        Ok(out)
    }
    fn write(&self, w: &mut Writer<'_>) {
        // Spec: a bool list's element type is BOOL_TRUE (1), as the Java and C++ writers use.
        w.list_header(T::WIRE, self.len());
        for v in self {
            v.write(w);
        }
    }
}

/// Reads a list header whose element type must be `wire` (either bool type for `BOOL_TRUE`,
/// which is what [`ThriftType::accepts`] says for every type here); returns the size. Not generic:
/// one copy for every list type.
fn list_of(r: &mut Reader<'_>, wire: u8) -> Result<usize> {
    let pos = r.position();
    let (elem, size) = r.list_header()?;
    let accepts = elem == wire || (wire == BOOL_TRUE && elem == BOOL_FALSE);
    if size > 0 && !accepts {
        return Err(
            Error::out_of_range("Thrift list element type", elem as i64).at_offset(pos as u64)
        );
    }
    Ok(size)
}

/// Decodes one `T` from the start of `buf`, structs nesting at most `max_depth` deep; returns
/// it and the bytes it took. Never panics, for any input.
pub fn decode_prefix<T: ThriftType>(buf: &[u8], max_depth: u32) -> Result<(T, usize)> {
    let mut r = Reader::new(buf, max_depth);
    let v = T::read(&mut r, Ctx::NONE)?;
    Ok((v, r.position()))
}

/// Appends the encoding of `v` to `out`.
pub fn encode<T: ThriftType>(v: &T, out: &mut Vec<u8>) {
    v.write(&mut Writer::new(out));
}

/// Reads a union: exactly one member. `member` reads the member with the given id and wire
/// type, or returns `None` for an id it does not know (the member is then skipped and
/// `unknown` decides: `Some(v)` to keep a placeholder, `None` to fail).
pub fn read_union<T>(
    r: &mut Reader<'_>,
    name: &'static str,
    mut member: impl FnMut(&mut Reader<'_>, i16, u8) -> Result<Option<T>>,
    unknown: impl Fn(i16) -> Option<T>,
) -> Result<T> {
    let start = r.position();
    r.struct_begin()?;
    let mut last = 0i16;
    let mut value: Option<T> = None;
    while let Some((id, wire)) = r.field_header(&mut last)? {
        if value.is_some() {
            return Err(Error::out_of_spec(name).at_offset(start as u64));
        }
        value = match member(r, id, wire)? {
            Some(v) => Some(v),
            None => {
                r.skip(wire)?;
                match unknown(id) {
                    Some(v) => Some(v),
                    None => {
                        return Err(Error::out_of_range(name, id.into()).at_offset(start as u64))
                    }
                }
            }
        };
    }
    r.struct_end();
    value.ok_or_else(|| Error::out_of_spec(name).at_offset(start as u64))
}

/// Reads a union whose members are all empty structs (`TimeUnit`, `ColumnOrder`, the Bloom
/// filter's unions): the id of its one member, which is known when its bit is set in `known`
/// (ids 0 to 31). What [`read_union`] does with a member that [`read_empty`] reads, and the
/// same errors (`name` for a union without exactly one member, `what` for a member that is
/// not a struct); a member not known is skipped, then kept (`keep_unknown`) or an error. Not
/// generic: one function for all such unions.
pub fn read_empty_union(
    r: &mut Reader<'_>,
    name: &'static str,
    what: &'static str,
    known: u32,
    keep_unknown: bool,
) -> Result<i16> {
    let start = r.position() as u64;
    r.struct_begin()?;
    let mut last = 0i16;
    let mut value: Option<i16> = None;
    while let Some((id, wire)) = r.field_header(&mut last)? {
        if value.is_some() {
            return Err(Error::out_of_spec(name).at_offset(start));
        }
        if (0..32).contains(&id) && known >> id & 1 == 1 {
            read_empty(r, wire, what)?;
        } else {
            r.skip(wire)?;
            if !keep_unknown {
                return Err(Error::out_of_range(name, id.into()).at_offset(start));
            }
        }
        value = Some(id);
    }
    r.struct_end();
    value.ok_or_else(|| Error::out_of_spec(name).at_offset(start))
}

/// Reads an empty struct (a union member such as `StringType`), skipping any fields a newer
/// writer put in it.
pub fn read_empty(r: &mut Reader<'_>, wire: u8, what: &'static str) -> Result<()> {
    if wire != super::STRUCT {
        return Err(Error::out_of_spec(what).at_offset(r.position() as u64));
    }
    r.skip(super::STRUCT)
}

/// Writes a union member that is an empty struct.
pub fn write_empty(w: &mut Writer<'_>, id: i16) {
    w.field_header(id, super::STRUCT);
    let saved = w.struct_begin();
    w.struct_end(saved);
}

/// Reads the value of a struct field whose header said `wire` into `slot` (a repeated field
/// keeps its last value, as Thrift does). One instance per field type, shared by every struct
/// (the default struct decoder calls it for each field), which keeps the footer decoder small.
#[doc(hidden)]
#[inline(never)]
pub fn __read_field<T: ThriftType>(
    r: &mut Reader<'_>,
    wire: u8,
    slot: &mut Option<T>,
    ctx: &'static Ctx,
) -> Result<()> {
    if !T::accepts(wire) {
        // Seen in the wild: a pre-release parquet-java wrote field 15 of ColumnMetaData as a
        // list of structs, where the released IDL has `i32 bloom_filter_length`
        // (dict-page-offset-zero.parquet). A field whose wire type does not match the IDL is
        // skipped, as Thrift's generated code does; if it was required, the struct then fails
        // as missing it.
        return r.skip(wire);
    }
    *slot = Some(T::read_field(r, wire, *ctx)?);
    Ok(())
}

/// The value a required field holds until it is read, in the compact struct decoder (which
/// fails the struct if the field is never read, so the placeholder is never seen).
#[doc(hidden)]
pub trait __Placeholder {
    /// Any value.
    fn placeholder() -> Self;
}

macro_rules! placeholder_default {
    ($($t:ty),*) => {
        $( impl __Placeholder for $t {
            fn placeholder() -> Self {
                Default::default()
            }
        } )*
    };
}

placeholder_default!(bool, i8, i16, i32, i64, f64, String);

impl<T> __Placeholder for Vec<T> {
    fn placeholder() -> Self {
        Vec::new()
    }
}

/// Declares a Thrift struct: the Rust struct, its [`ThriftType`] and its [`StructDef`] table.
///
/// ```text
/// thrift_struct! {
///     /// doc
///     #[derive(Debug, Clone, PartialEq)]
///     pub struct PageLocation {
///         /// doc
///         1: required offset: i64,
///         2: required compressed_page_size: i32,
///     }
/// }
/// ```
///
/// A field's doc comment may be followed by `#[extra]`: the field is then decoded only when
/// the `metadata-extras` feature is on. Without it the decoder skips the field's bytes (as it
/// skips an unknown field) and leaves it `None`, or, for a required field, empty (a struct
/// without it still fails as missing it), so a lean reader links no decoder for statistics,
/// encryption details and the like. The field's type, its entry in [`StructDef::FIELDS`] and
/// its encoding do not change.
macro_rules! thrift_struct {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $(
                $(#[doc = $doc:literal])*
                $(#[extra $($extra:tt)*])?
                $id:literal : $req:ident $field:ident : $ty:ty
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        pub struct $name {
            $( $(#[doc = $doc])* pub $field: $crate::thrift::__field_ty!($req, $ty), )*
        }

        impl $crate::thrift::StructDef for $name {
            const NAME: &'static str = stringify!($name);
            const IS_UNION: bool = false;
            const FIELDS: &'static [$crate::thrift::FieldDef] = &[
                $( $crate::thrift::FieldDef {
                    id: $id,
                    name: stringify!($field),
                    ty: <$ty as $crate::thrift::ThriftType>::TY,
                    required: $crate::thrift::__is_required!($req),
                }, )*
            ];
        }

        impl $crate::thrift::ThriftType for $name {
            const TY: $crate::thrift::Ty = $crate::thrift::Ty::Struct(stringify!($name));
            const WIRE: u8 = $crate::thrift::STRUCT;

            fn read(
                __r: &mut $crate::thrift::Reader<'_>,
                _: $crate::thrift::Ctx,
            ) -> $crate::error::Result<Self> {
                // Tests switch a reader to the compact decoder to compare the two.
                #[cfg(test)]
                if __r.compact {
                    return $crate::thrift::compact::__read_struct_compact!(__r, $name {
                        $( $(#[extra $($extra)*])? $id: $req $field: $ty, )*
                    });
                }
                // The decoder this build uses, chosen once (in `thrift`'s module root).
                $crate::thrift::__read_struct!(__r, $name {
                    $( $(#[extra $($extra)*])? $id: $req $field: $ty, )*
                })
            }

            fn write(&self, __w: &mut $crate::thrift::Writer<'_>) {
                let __saved = __w.struct_begin();
                $( $crate::thrift::__write!($req, __w, $id, &self.$field); )*
                __w.struct_end(__saved);
            }
        }

        #[allow(dead_code)]
        impl $name {
            /// Appends the Thrift compact encoding of `self` to `out`.
            pub fn encode(&self, out: &mut alloc::vec::Vec<u8>) {
                $crate::thrift::ThriftType::write(self, &mut $crate::thrift::Writer::new(out));
            }
        }
    };
}

/// The default struct decoder (builds for speed): one loop per struct type, a `match` on the
/// field id and one [`__read_field`] call per field. Used by `thrift_struct!` through
/// `thrift::__read_struct` (see the module docs of `thrift`); expands to the body of
/// [`ThriftType::read`].
macro_rules! __read_struct_default {
    ($r:ident, $name:ident {
        $( $(#[extra $($extra:tt)*])? $id:literal : $req:ident $field:ident : $ty:ty, )*
    }) => {
        {
            let __r = $r;
            let __start = __r.position() as u64;
            __r.struct_begin()?;
            $( let mut $field: Option<$ty> = None; )*
            let mut __last = 0i16;
            while let Some((__id, __wire)) = __r.field_header(&mut __last)? {
                match __id {
                    $( $id => {
                        $( $($extra)*
                            // An `#[extra]` field (statistics, encryption details, ...)
                            // is decoded only with the `metadata-extras` feature;
                            // without it the field is skipped and stays `None`, and its
                            // decoder is not linked in.
                            if !cfg!(feature = "metadata-extras") {
                                // A required one of the right wire type is present, and
                                // left empty (one of another type is skipped as missing, as
                                // `__read_field` does).
                                if <$ty as $crate::thrift::ThriftType>::accepts(__wire) {
                                    $field = $crate::thrift::__skipped!($req, $ty);
                                }
                                __r.skip(__wire)?;
                                continue;
                            }
                        )?
                        $crate::thrift::__read_field(
                            __r,
                            __wire,
                            &mut $field,
                            &$crate::thrift::Ctx {
                                field: concat!(stringify!($name), ".", stringify!($field)),
                                not_utf8: concat!(
                                    "string field ", stringify!($name), ".",
                                    stringify!($field), " is not valid UTF-8"
                                ),
                            },
                        )?;
                    } )*
                    // Spec: unknown fields are skipped (a newer writer added them).
                    _ => __r.skip(__wire)?,
                }
            }
            __r.struct_end();
            Ok($name {
                $( $field: $crate::thrift::__take!($req, $field, __start, $name), )*
            })
        }
    };
}

macro_rules! __field_ty {
    (required, $t:ty) => { $t };
    (optional, $t:ty) => { Option<$t> };
}

macro_rules! __is_required {
    (required) => {
        true
    };
    (optional) => {
        false
    };
}

/// The value of an `#[extra]` field that the default decoder skipped (without
/// `metadata-extras`): `None` for an optional one; for a required one, an empty value, read as
/// present.
macro_rules! __skipped {
    (required, $t:ty) => {
        Some(<$t as $crate::thrift::__Placeholder>::placeholder())
    };
    (optional, $t:ty) => {
        None
    };
}

macro_rules! __take {
    (required, $f:ident, $start:expr, $name:ident) => {
        match $f {
            Some(v) => v,
            None => {
                return Err(
                    $crate::error::Error::missing_field(stringify!($name), stringify!($f))
                        .at_offset($start),
                )
            }
        }
    };
    (optional, $f:ident, $start:expr, $name:ident) => {
        $f
    };
}

macro_rules! __write {
    (required, $w:expr, $id:literal, $v:expr) => {
        $crate::thrift::ThriftType::write_field($v, $w, $id)
    };
    (optional, $w:expr, $id:literal, $v:expr) => {
        if let Some(v) = $v {
            $crate::thrift::ThriftType::write_field(v, $w, $id)
        }
    };
}

pub(crate) use {__field_ty, __is_required, __write, thrift_struct};
// The default decoder and its helper: unused in builds for size (see `thrift`'s root).
#[allow(unused_imports)]
pub(crate) use {__read_struct_default, __skipped, __take};
