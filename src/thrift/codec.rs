//! How a Rust type maps to an IDL type, and the table-driven struct codec.
//!
//! Each Rust type that appears in a Thrift struct implements [`Codec`]: its IDL type
//! ([`Codec::TY`]), its compact wire type, how it is read and written. A struct is declared once
//! with `thrift_struct!`, as a table of `id: requiredness name: Type`; the macro writes the Rust
//! struct, its decoder, its encoder and its [`StructDef::FIELDS`] table. The IDL type in that
//! table is `<Type as Codec>::TY`, the very type the decoder uses, so a test that compares the
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
pub trait Codec: Sized {
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
}

impl Codec for bool {
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
}

macro_rules! scalar_codec {
    ($t:ty, $ty:ident, $wire:ident, $read:ident, $write:ident) => {
        impl Codec for $t {
            const TY: Ty = Ty::$ty;
            const WIRE: u8 = $wire;
            fn read(r: &mut Reader<'_>, _: Ctx) -> Result<Self> {
                r.$read()
            }
            fn write(&self, w: &mut Writer<'_>) {
                w.$write(*self)
            }
        }
    };
}

scalar_codec!(i8, I8, BYTE, i8, i8);
scalar_codec!(i16, I16, I16, i16, i16);
scalar_codec!(i32, I32, I32, i32, i32);
scalar_codec!(i64, I64, I64, i64, i64);
scalar_codec!(f64, Double, DOUBLE, double, double);

impl Codec for Vec<u8> {
    const TY: Ty = Ty::Binary;
    const WIRE: u8 = BINARY;
    fn read(r: &mut Reader<'_>, _: Ctx) -> Result<Self> {
        Ok(r.binary()?.to_vec())
    }
    fn write(&self, w: &mut Writer<'_>) {
        w.binary(self)
    }
}

impl Codec for String {
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
}

impl<T: Codec> Codec for Vec<T> {
    const TY: Ty = Ty::List(&T::TY);
    const WIRE: u8 = LIST;
    fn read(r: &mut Reader<'_>, ctx: Ctx) -> Result<Self> {
        let size = list_of(r, T::WIRE)?;
        // `size` was checked against the bytes that remain (one byte per element at least);
        // reserve a bounded amount up front and let the vector grow as elements really decode.
        let mut out = Vec::with_capacity(size.min(1024));
        for _ in 0..size {
            out.push(T::read(r, ctx)?);
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
/// which is what [`Codec::accepts`] says for every type here); returns the size. Not generic:
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
pub fn decode_prefix<T: Codec>(buf: &[u8], max_depth: u32) -> Result<(T, usize)> {
    let mut r = Reader::new(buf, max_depth);
    let v = T::read(&mut r, Ctx::NONE)?;
    Ok((v, r.position()))
}

/// Appends the encoding of `v` to `out`.
pub fn encode<T: Codec>(v: &T, out: &mut Vec<u8>) {
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
/// (`thrift_struct!` calls it for each field), which keeps the footer decoder small.
#[doc(hidden)]
#[inline(never)]
pub fn __read_field<T: Codec>(
    r: &mut Reader<'_>,
    wire: u8,
    slot: &mut Option<T>,
    ctx: &'static Ctx,
) -> Result<()> {
    __read_field_inline(r, wire, slot, ctx)
}

/// The body of [`__read_field`], inlined into its caller. Builds for size
/// (`cfg(parket_opt_size)`) read the fields of struct type with it: each struct type is the
/// type of few fields, so its decoder is inlined where it is used instead of standing alone as
/// `__read_field::<S>` with its own frame and unwind table entry.
#[doc(hidden)]
#[inline(always)]
pub fn __read_field_inline<T: Codec>(
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

/// The state of the compact struct decoder, which builds for size (`cfg(parket_opt_size)`) use
/// for every `thrift_struct!`: where the struct started, the last field id, and which fields
/// of its table were read. The loop over field headers, the skipping of unknown fields and of
/// fields of an unexpected wire type, and the check of required fields live here once instead
/// of in every struct's decoder; a field's reader leaves its error in the [`Reader`]
/// ([`__read_req`]), which ends the loop ([`__StructState::next`]) and is returned by
/// [`__StructState::finish`], so that a field costs its decoder one call and no check.
#[doc(hidden)]
#[cfg(any(parket_opt_size, test))]
pub struct __StructState {
    start: u64,
    last: i16,
    seen: u64,
    entered: bool,
}

#[cfg(any(parket_opt_size, test))]
impl __StructState {
    /// The state of a struct that starts at the reader's position; the first
    /// [`__StructState::next`] enters it (counting one level of nesting).
    #[inline(always)]
    pub fn new(r: &Reader<'_>) -> Self {
        __StructState {
            start: r.position() as u64,
            last: 0,
            seen: 0,
            entered: false,
        }
    }

    /// The next field to read: `(id, wire type)` of a field of `table` (pairs of id and
    /// expected wire type) whose header has that wire type (a bool field's either). `None`
    /// after the stop field, or when reading failed (the error is then left in the reader for
    /// [`__StructState::finish`]). Unknown fields and fields of another wire type are
    /// skipped, as the default decoder skips them.
    #[inline(never)]
    pub fn next(&mut self, r: &mut Reader<'_>, table: &[(u8, u8)]) -> Option<(i16, u8)> {
        if r.failed.is_some() {
            return None;
        }
        let entered = core::mem::replace(&mut self.entered, true);
        let step = |r: &mut Reader<'_>, last: &mut i16| -> Result<Option<(usize, i16, u8)>> {
            if !entered {
                r.struct_begin()?;
            }
            while let Some((id, wire)) = r.field_header(last)? {
                let known = table.iter().position(|&(i, w)| {
                    i16::from(i) == id && (w == wire || (w == BOOL_TRUE && wire == BOOL_FALSE))
                });
                if let Some(i) = known {
                    return Ok(Some((i, id, wire)));
                }
                r.skip(wire)?;
            }
            r.struct_end();
            Ok(None)
        };
        match step(r, &mut self.last) {
            Ok(Some((i, id, wire))) => {
                self.seen |= 1u64.checked_shl(i as u32).unwrap_or(0);
                Some((id, wire))
            }
            Ok(None) => None,
            Err(e) => {
                r.failed = Some(e);
                None
            }
        }
    }

    /// The error a field's reader left, if any; else checks that every field of `required`
    /// (a bit per table position) was read, naming the first one missing from `missing`
    /// (one message per table position, each ended by a NUL character).
    #[inline(never)]
    pub fn finish(&self, r: &mut Reader<'_>, required: u64, missing: &'static str) -> Result<()> {
        if let Some(e) = r.failed.take() {
            return Err(e);
        }
        let absent = required & !self.seen;
        if absent == 0 {
            return Ok(());
        }
        // The message of table position `n`: the `n`-th NUL-terminated piece.
        let mut rest = missing;
        for _ in 0..absent.trailing_zeros() {
            let end = rest.bytes().position(|b| b == 0).unwrap_or(rest.len());
            rest = rest.get(end + 1..).unwrap_or("");
        }
        let end = rest.bytes().position(|b| b == 0).unwrap_or(rest.len());
        let what = rest.get(..end).unwrap_or("missing required field");
        Err(Error::out_of_spec(what).at_offset(self.start))
    }
}

/// A bit per field that is required, by table position (for [`__StructState::finish`]).
#[doc(hidden)]
#[cfg(any(parket_opt_size, test))]
pub const fn __required_mask(required: &[bool]) -> u64 {
    let mut mask = 0u64;
    let mut i = 0;
    while i < required.len() && i < 64 {
        if required[i] {
            mask |= 1 << i;
        }
        i += 1;
    }
    mask
}

/// Reads the value of a required field that [`__StructState::next`] returned into `slot`, or
/// leaves the error in the reader. One instance per field type, shared by every struct.
#[doc(hidden)]
#[cfg(any(parket_opt_size, test))]
#[inline(never)]
pub fn __read_req<T: Codec>(r: &mut Reader<'_>, wire: u8, slot: &mut T, ctx: &'static Ctx) {
    match T::read_field(r, wire, *ctx) {
        Ok(v) => *slot = v,
        Err(e) => r.failed = Some(e),
    }
}

/// [`__read_req`] for an optional field.
#[doc(hidden)]
#[cfg(any(parket_opt_size, test))]
#[inline(never)]
pub fn __read_opt<T: Codec>(r: &mut Reader<'_>, wire: u8, slot: &mut Option<T>, ctx: &'static Ctx) {
    match T::read_field(r, wire, *ctx) {
        Ok(v) => *slot = Some(v),
        Err(e) => r.failed = Some(e),
    }
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

/// Declares a Thrift struct: the Rust struct, its [`Codec`] and its [`StructDef`] table.
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
/// A field's doc comment may be followed by `#[extra]` (optional fields only): the field is
/// then decoded only when the `metadata-extras` feature is on. Without it the decoder skips
/// the field's bytes (as it skips an unknown field) and leaves it `None`, so a lean reader
/// links no decoder for statistics, encryption details and the like. The field's type, its
/// entry in [`StructDef::FIELDS`] and its encoding do not change.
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
                    ty: <$ty as $crate::thrift::Codec>::TY,
                    required: $crate::thrift::__is_required!($req),
                }, )*
            ];
        }

        impl $crate::thrift::Codec for $name {
            const TY: $crate::thrift::Ty = $crate::thrift::Ty::Struct(stringify!($name));
            const WIRE: u8 = $crate::thrift::STRUCT;

            #[allow(unused_variables, unused_mut, unreachable_code)]
            fn read(
                __r: &mut $crate::thrift::Reader<'_>,
                _: $crate::thrift::Ctx,
            ) -> $crate::error::Result<Self> {
                // Built for size, every struct is read by the compact decoder (see
                // `__StructState`); tests switch a reader to it to compare the two.
                #[cfg(parket_opt_size)]
                return Self::__read_compact(__r);
                #[cfg(all(test, not(parket_opt_size)))]
                if __r.compact {
                    return Self::__read_compact(__r);
                }
                #[cfg(not(parket_opt_size))]
                {
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
                                        __r.skip(__wire)?;
                                        continue;
                                    }
                                )?
                                // Built for size, fields of struct type are read inline
                                // (see `__read_field_inline`).
                                #[cfg(parket_opt_size)]
                                let __read = if <$ty as $crate::thrift::Codec>::WIRE
                                    == $crate::thrift::STRUCT
                                {
                                    $crate::thrift::__read_field_inline
                                } else {
                                    $crate::thrift::__read_field
                                };
                                #[cfg(not(parket_opt_size))]
                                let __read = $crate::thrift::__read_field;
                                __read(
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
                $crate::thrift::Codec::write(self, &mut $crate::thrift::Writer::new(out));
            }

            /// The struct decoder of builds for size (see `__StructState`): one table, a
            /// placeholder and one call per field; the loop, the skipping of unknown fields,
            /// the error checks and the check of required fields are shared by every struct.
            /// Same values, bytes consumed and errors as the default decoder
            /// (`thrift::tests` compares them).
            #[cfg(any(parket_opt_size, test))]
            #[inline(always)]
            #[allow(unused_variables, unused_mut)]
            fn __read_compact(
                __r: &mut $crate::thrift::Reader<'_>,
            ) -> $crate::error::Result<Self> {
                // (id, wire type) of each field, in declaration order (every id of
                // parquet.thrift fits a byte); an `#[extra]` field gets wire type 0, which no
                // field header has, when `metadata-extras` is off.
                const __TABLE: &[(u8, u8)] = &[
                    $( ($id, {
                        let __w = <$ty as $crate::thrift::Codec>::WIRE;
                        $( $($extra)*
                            let __w = if cfg!(feature = "metadata-extras") { __w } else { 0 };
                        )?
                        __w
                    }), )*
                ];
                const __REQUIRED: u64 = $crate::thrift::__required_mask(&[
                    $( $crate::thrift::__is_required!($req), )*
                ]);
                // The message for each field that is missing, in table order, each ended by
                // a NUL character (empty for optional fields).
                const __MISSING: &str = concat!($(
                    $crate::thrift::__missing!($req, $name, $field), "\0",
                )*);
                let mut __s = $crate::thrift::__StructState::new(__r);
                // Read in place: a required field holds a placeholder until it is read
                // (`finish` fails if it never is), an optional one `None`.
                let mut __out = $name {
                    $( $field: $crate::thrift::__init!($req, $ty), )*
                };
                while let Some((__id, __wire)) = __s.next(__r, __TABLE) {
                    match __id {
                        $( $id => {
                            $( $($extra)*
                                // Not in the table without `metadata-extras` (never
                                // returned); this keeps its decoder out of the build.
                                if !cfg!(feature = "metadata-extras") {
                                    continue;
                                }
                            )?
                            let __ctx = &$crate::thrift::Ctx {
                                field: concat!(stringify!($name), ".", stringify!($field)),
                                not_utf8: concat!(
                                    "string field ", stringify!($name), ".",
                                    stringify!($field), " is not valid UTF-8"
                                ),
                            };
                            // A field of struct type is read inline (see
                            // `__read_field_inline`); the others by one function per type,
                            // which leaves an error in the reader for `next` and `finish`.
                            if <$ty as $crate::thrift::Codec>::WIRE == $crate::thrift::STRUCT {
                                let __v = <$ty as $crate::thrift::Codec>::read_field(
                                    __r, __wire, *__ctx,
                                )?;
                                __out.$field = $crate::thrift::__set!($req, __v);
                            } else {
                                $crate::thrift::__read_into!($req, __r, __wire, &mut __out.$field, __ctx);
                            }
                        } )*
                        _ => {}
                    }
                }
                __s.finish(__r, __REQUIRED, __MISSING)?;
                Ok(__out)
            }
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

#[cfg(not(parket_opt_size))]
macro_rules! __take {
    (required, $f:ident, $start:expr, $name:ident) => {
        match $f {
            Some(v) => v,
            None => {
                return Err($crate::error::Error::out_of_spec(concat!(
                    "missing required field ",
                    stringify!($name),
                    ".",
                    stringify!($f)
                ))
                .at_offset($start))
            }
        }
    };
    (optional, $f:ident, $start:expr, $name:ident) => {
        $f
    };
}

#[cfg(any(parket_opt_size, test))]
macro_rules! __missing {
    (required, $name:ident, $f:ident) => {
        concat!(
            "missing required field ",
            stringify!($name),
            ".",
            stringify!($f)
        )
    };
    (optional, $name:ident, $f:ident) => {
        ""
    };
}

#[cfg(any(parket_opt_size, test))]
macro_rules! __init {
    (required, $t:ty) => {
        <$t as $crate::thrift::__Placeholder>::placeholder()
    };
    (optional, $t:ty) => {
        None
    };
}

#[cfg(any(parket_opt_size, test))]
macro_rules! __set {
    (required, $v:expr) => {
        $v
    };
    (optional, $v:expr) => {
        Some($v)
    };
}

#[cfg(any(parket_opt_size, test))]
macro_rules! __read_into {
    (required, $r:expr, $w:expr, $slot:expr, $ctx:expr) => {
        $crate::thrift::__read_req($r, $w, $slot, $ctx)
    };
    (optional, $r:expr, $w:expr, $slot:expr, $ctx:expr) => {
        $crate::thrift::__read_opt($r, $w, $slot, $ctx)
    };
}

macro_rules! __write {
    (required, $w:expr, $id:literal, $v:expr) => {
        $crate::thrift::Codec::write_field($v, $w, $id)
    };
    (optional, $w:expr, $id:literal, $v:expr) => {
        if let Some(v) = $v {
            $crate::thrift::Codec::write_field(v, $w, $id)
        }
    };
}

#[cfg(not(parket_opt_size))]
pub(crate) use __take;
pub(crate) use {__field_ty, __is_required, __write, thrift_struct};
#[cfg(any(parket_opt_size, test))]
pub(crate) use {__init, __missing, __read_into, __set};
