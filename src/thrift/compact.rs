//! The struct decoder of builds for size (`cfg(parket_opt_size)`, set by `build.rs` for
//! `opt-level = "s"` or `"z"`), and its recursive skip.
//!
//! `thrift_struct!` gives each struct a table of `(field id, wire type)` pairs and one call
//! per field; the loop over field headers, the skipping of unknown fields and of fields of an
//! unexpected wire type, the error checks and the check of required fields live here once
//! ([`__StructState`]) instead of in every struct's decoder. Same values, bytes consumed and
//! errors (kind, message and location) as the default decoder; `format::tests` compares the
//! two on arbitrary bytes and on mutated footers, and `thrift::tests` the two skips.
//!
//! Measured (issue 23, valgrind instruction counts of decoding the 65 footers and first page
//! headers of the parquet-testing corpus): this decoder runs 34% more instructions on footers
//! and 50% more on page headers than the default one, so release builds keep the default and
//! only builds for size use this one. The choice is made once, in `thrift`'s module root.
//!
//! For `KeyValue { 1: required key: string, 2: optional value: string }` the table is
//! `[(1, 8), (2, 8)]` (8 = BINARY), the required mask `0b01`, and the bytes `18 01 6b 00`
//! (field 1, BINARY, "k", stop) take one turn of the loop.

use super::{
    Ctx, Reader, ThriftType, BOOL_FALSE, BOOL_TRUE, BYTE, I16, I32, I64, LIST, MAP, SET, STRUCT,
};
use crate::error::{Error, Result};

/// The state of the compact struct decoder, which builds for size (`cfg(parket_opt_size)`) use
/// for every `thrift_struct!`: where the struct started, the last field id, and which fields
/// of its table were read. The loop over field headers, the skipping of unknown fields and of
/// fields of an unexpected wire type, and the check of required fields live here once instead
/// of in every struct's decoder; a field's reader leaves its error in the [`Reader`]
/// ([`__read_req`]), which ends the loop ([`__StructState::next`]) and is returned by
/// [`__StructState::finish`], so that a field costs its decoder one call and no check.
#[doc(hidden)]
pub struct __StructState {
    start: u64,
    last: i16,
    seen: u64,
    entered: bool,
}

impl __StructState {
    /// The state of a struct that starts at the reader's position; the first
    /// [`__StructState::next`] enters it (counting one level of nesting). Out of line: a
    /// call is smaller than the initialization in each struct's decoder (256 bytes less).
    #[inline(never)]
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
    /// (the struct's name, then one field name per table position, each ended by a NUL
    /// character: the struct's name is stored once, not once per field).
    #[inline(never)]
    pub fn finish(&self, r: &mut Reader<'_>, required: u64, missing: &'static str) -> Result<()> {
        if let Some(e) = r.failed.take() {
            return Err(e);
        }
        let absent = required & !self.seen;
        if absent == 0 {
            return Ok(());
        }
        // The field of table position `n`: the NUL-terminated piece after the name's and `n`
        // others.
        let structure = nul_piece(missing, 0);
        let field = nul_piece(missing, absent.trailing_zeros() + 1);
        Err(Error::missing_field(structure, field).at_offset(self.start))
    }
}

/// The `n`-th NUL-terminated piece of `s` (empty past the last).
fn nul_piece(s: &'static str, n: u32) -> &'static str {
    let mut rest = s;
    for _ in 0..n {
        let end = rest.bytes().position(|b| b == 0).unwrap_or(rest.len());
        rest = rest.get(end + 1..).unwrap_or("");
    }
    let end = rest.bytes().position(|b| b == 0).unwrap_or(rest.len());
    rest.get(..end).unwrap_or("")
}

/// A bit per field that is required, by table position (for [`__StructState::finish`]).
#[doc(hidden)]
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
#[inline(never)]
pub fn __read_req<T: ThriftType>(r: &mut Reader<'_>, wire: u8, slot: &mut T, ctx: &'static Ctx) {
    match T::read_field(r, wire, *ctx) {
        Ok(v) => *slot = v,
        Err(e) => r.failed = Some(e),
    }
}

/// Reads the value of an integer or bool field that [`__StructState::next`] returned, by
/// the wire type of its header (`wire`): a byte, a range-checked i16 or i32, an i64, or a
/// bool field's value (1 or 0); 0 with the error left in the reader. One function for every
/// integer type and bool instead of an instance of [`__read_req`] and [`__read_opt`] each
/// (128 bytes less in the size probe); the caller narrows the value to its field's type,
/// which the range checks make exact.
#[doc(hidden)]
#[inline(never)]
pub fn __read_int(r: &mut Reader<'_>, wire: u8) -> i64 {
    let v = match wire {
        BYTE => r.i8().map(i64::from),
        I16 => r.i16().map(i64::from),
        I32 => r.i32().map(i64::from),
        I64 => r.i64(),
        _ => r.bool_field(wire).map(i64::from),
    };
    v.unwrap_or_else(|e| {
        r.failed = Some(e);
        0
    })
}

/// Reads the value of a string field; an empty string with the error left in the reader.
/// One function for required and optional string fields (the caller wraps the value).
#[doc(hidden)]
#[inline(never)]
pub fn __read_string(r: &mut Reader<'_>, ctx: &'static Ctx) -> alloc::string::String {
    <alloc::string::String as ThriftType>::read(r, *ctx).unwrap_or_else(|e| {
        r.failed = Some(e);
        alloc::string::String::new()
    })
}

/// [`__read_req`] for an optional field.
#[doc(hidden)]
#[inline(never)]
pub fn __read_opt<T: ThriftType>(
    r: &mut Reader<'_>,
    wire: u8,
    slot: &mut Option<T>,
    ctx: &'static Ctx,
) {
    match T::read_field(r, wire, *ctx) {
        Ok(v) => *slot = Some(v),
        Err(e) => r.failed = Some(e),
    }
}

impl Reader<'_> {
    /// [`Reader::skip`] in builds for size: recursive, one level per
    /// struct, list, set or map, which [`Reader::struct_begin`] bounds by the depth limit (as
    /// it bounds the struct decoders' own recursion); no stack of frames to allocate. The same
    /// reads in the same order as the iterative skip, hence the same result and the same
    /// bytes consumed (a property test compares them).
    pub(crate) fn skip_nested(&mut self, t: u8, element: bool) -> Result<()> {
        if self.skip_scalar(t, element)? {
            return Ok(());
        }
        match t {
            LIST | SET | MAP => {
                // A list's elements, or a map's keys and values in turn.
                let (key, value, n) = if t == MAP {
                    let (k, v, size) = self.map_header()?;
                    (k, v, size * 2)
                } else {
                    let (e, size) = self.list_header()?;
                    (e, e, size)
                };
                self.struct_begin()?;
                for i in 0..n {
                    self.skip_nested(if i % 2 == 0 { key } else { value }, true)?;
                }
                self.struct_end();
            }
            STRUCT => {
                self.struct_begin()?;
                let mut last = 0;
                while let Some((_, t)) = self.field_header(&mut last)? {
                    self.skip_nested(t, false)?;
                }
                self.struct_end();
            }
            _ => {
                return Err(
                    Error::out_of_range("Thrift type", t as i64).at_offset(self.position() as u64)
                );
            }
        }
        Ok(())
    }
}

/// [`Reader::skip`] in builds for size: [`Reader::skip_nested`] (see `thrift::skip_any`,
/// the point of choice).
#[cfg_attr(test, allow(dead_code))]
pub(crate) fn skip_recursive(r: &mut Reader<'_>, t: u8) -> Result<()> {
    r.skip_nested(t, false)
}

pub use super::codec::{FLAT_INT, NOT_FLAT};
/// The flat path's code of a required `#[extra]` field without `metadata-extras`: skipped
/// (and left empty), whatever its type.
#[doc(hidden)]
pub const FLAT_SKIP: u8 = u8::MAX - 1;

/// Whether every field of a struct is read by the flat path (no code is [`NOT_FLAT`]).
#[doc(hidden)]
pub const fn __all_flat(codes: &[u8]) -> bool {
    let mut i = 0;
    while i < codes.len() {
        if codes[i] == NOT_FLAT {
            return false;
        }
        i += 1;
    }
    true
}

/// The enums' table of a struct's field types ([`ThriftType::__ENUMS`]): the first that is
/// not empty (every enum type gives the same one).
#[doc(hidden)]
pub const fn __enums(tables: &[&'static [(&'static str, u32)]]) -> &'static [(&'static str, u32)] {
    let mut i = 0;
    while i < tables.len() {
        if !tables[i].is_empty() {
            return tables[i];
        }
        i += 1;
    }
    &[]
}

/// The flat path of the compact struct decoder, for a struct whose fields are all integers,
/// bools and enums (or skipped `#[extra]` fields): reads the fields of `table` into `out`
/// (by table position: integers and bools through [`__read_int`], enums, by their `codes`,
/// through [`__read_enum`] with their `(what, valid)` from `enums`), and returns which were
/// read (a bit per position). The same loop, skips, checks and errors as the general path,
/// in one function for every such struct instead of a `match` per struct; the struct's own
/// code only converts the values.
#[doc(hidden)]
#[inline(never)]
pub fn __read_flat(
    r: &mut Reader<'_>,
    table: &[(u8, u8)],
    codes: &[u8],
    enums: &[(&'static str, u32)],
    required: u64,
    missing: &'static str,
    out: &mut [i64],
) -> Result<u64> {
    let mut s = __StructState::new(r);
    while let Some((id, wire)) = s.next(r, table) {
        let Some(i) = table.iter().position(|&(t, _)| i16::from(t) == id) else {
            continue;
        };
        let v = match codes.get(i).copied().unwrap_or(FLAT_INT) {
            FLAT_INT => __read_int(r, wire),
            FLAT_SKIP => {
                __skip_field(r, wire);
                0
            }
            code => match enums.get(usize::from(code) - 1) {
                Some(&(what, valid)) => i64::from(__read_enum(r, what, valid)),
                None => 0,
            },
        };
        if let Some(slot) = out.get_mut(i) {
            *slot = v;
        }
    }
    s.finish(r, required, missing)?;
    Ok(s.seen)
}

/// The flat path's code of a field (see [`__read_flat`]): its type's, or [`FLAT_SKIP`] for
/// a required `#[extra]` field without `metadata-extras` (an optional one is not in the
/// table then, see [`__table_wire`], and never read).
macro_rules! __flat_code {
    ($c:expr, $req:ident) => {
        $c
    };
    ($c:expr, required, extra) => {
        if cfg!(feature = "metadata-extras") {
            $c
        } else {
            $crate::thrift::compact::FLAT_SKIP
        }
    };
    ($c:expr, optional, extra) => {
        if cfg!(feature = "metadata-extras") {
            $c
        } else {
            $crate::thrift::compact::FLAT_INT
        }
    };
}

/// A field's value from the flat path: `$v` converted, if the field was read (`$seen`);
/// for a required one that was skipped (`$skip`, see [`FLAT_SKIP`]) or not read (the struct
/// then failed), its placeholder, as the general path leaves it.
macro_rules! __flat_value {
    (required, $ty:ty, $v:expr, $seen:expr, $skip:expr) => {
        match <$ty as $crate::thrift::ThriftType>::__from_flat($v) {
            Some(v) if !$skip => v,
            _ => <$ty as $crate::thrift::__Placeholder>::placeholder(),
        }
    };
    (optional, $ty:ty, $v:expr, $seen:expr, $skip:expr) => {
        if $seen {
            <$ty as $crate::thrift::ThriftType>::__from_flat($v)
        } else {
            None
        }
    };
}

/// The compact struct decoder (see the module docs); expands to the body of
/// [`ThriftType::read`] for `$name`.
macro_rules! __read_struct_compact {
    ($r:ident, $name:ident {
        $( $(#[extra $($extra:tt)*])? $id:literal : $req:ident $field:ident : $ty:ty, )*
    }) => {{
        let __r = $r;
        // (id, wire type) of each field, in declaration order (every id of
        // parquet.thrift fits a byte); an optional `#[extra]` field gets wire type 0, which
        // no field header has, when `metadata-extras` is off (see `__table_wire`).
        const __TABLE: &[(u8, u8)] = &[
            $( ($id, $crate::thrift::compact::__table_wire!(
                <$ty as $crate::thrift::ThriftType>::WIRE, $req $(, extra $($extra)*)?
            )), )*
        ];
        const __REQUIRED: u64 = $crate::thrift::compact::__required_mask(&[
            $( $crate::thrift::__is_required!($req), )*
        ]);
        // The struct's name, then the name of each field that may be missing, in table
        // order (empty for optional fields), each ended by a NUL character.
        const __MISSING: &str = concat!(stringify!($name), "\0", $(
            $crate::thrift::compact::__missing!($req, $field), "\0",
        )*);
        // The flat path: a struct of integers, bools and enums only.
        const __CODES: &[u8] = &[
            $( $crate::thrift::compact::__flat_code!(
                <$ty as $crate::thrift::ThriftType>::__FLAT, $req $(, extra $($extra)*)?
            ), )*
        ];
        const __IS_FLAT: bool = $crate::thrift::compact::__all_flat(__CODES);
        if __IS_FLAT {
            const __ENUMS: &[(&str, u32)] = $crate::thrift::compact::__enums(&[
                $( <$ty as $crate::thrift::ThriftType>::__ENUMS, )*
            ]);
            let mut __v = [0i64; __TABLE.len()];
            let __seen = $crate::thrift::compact::__read_flat(
                __r, __TABLE, __CODES, __ENUMS, __REQUIRED, __MISSING, &mut __v,
            )?;
            let mut __i = 0usize;
            #[allow(unused_assignments)]
            return Ok($name {
                $( $field: {
                    let __at = __i;
                    __i += 1;
                    $crate::thrift::compact::__flat_value!(
                        $req,
                        $ty,
                        __v.get(__at).copied().unwrap_or(0),
                        __seen >> __at & 1 == 1,
                        __CODES.get(__at) == Some(&$crate::thrift::compact::FLAT_SKIP)
                    )
                }, )*
            });
        }
        let mut __s = $crate::thrift::compact::__StructState::new(__r);
        // Read in place: a required field holds a placeholder until it is read
        // (`finish` fails if it never is), an optional one `None`.
        let mut __out = $name {
            $( $field: $crate::thrift::compact::__init!($req, $ty), )*
        };
        while let Some((__id, __wire)) = __s.next(__r, __TABLE) {
            match __id {
                $( $id => {
                    $( $($extra)*
                        // An optional one is not in the table without `metadata-extras`
                        // (never returned); a required one is, so that its absence is
                        // still an error, and is skipped here. Either way its decoder
                        // stays out of the build.
                        if !cfg!(feature = "metadata-extras") {
                            $crate::thrift::compact::__skip_field(__r, __wire);
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
                    // A field of struct type is read inline: each struct type is the type
                    // of few fields, so its decoder is inlined where it is used instead of
                    // standing alone with its own frame and unwind table entry. The others
                    // by one function per type, which leaves an error in the reader for
                    // `next` and `finish`.
                    if <$ty as $crate::thrift::ThriftType>::WIRE == $crate::thrift::STRUCT {
                        let __v = <$ty as $crate::thrift::ThriftType>::read_field(
                            __r, __wire, *__ctx,
                        )?;
                        __out.$field = $crate::thrift::compact::__set!($req, __v);
                    } else {
                        $crate::thrift::compact::__read_into!($req, __r, __wire, &mut __out.$field, __ctx);
                    }
                } )*
                _ => {}
            }
        }
        __s.finish(__r, __REQUIRED, __MISSING)?;
        Ok(__out)
    }};
}

/// The wire type in the table of a field (`$w`). Of an `#[extra]` field without
/// `metadata-extras`: 0 for an optional one, which no field header has (skipped as unknown, left
/// `None`); a required one keeps its own, so that the struct still fails without it (its value
/// is skipped, and left empty).
macro_rules! __table_wire {
    ($w:expr, $req:ident) => {
        $w
    };
    ($w:expr, required, extra) => {
        $w
    };
    ($w:expr, optional, extra) => {
        if cfg!(feature = "metadata-extras") {
            $w
        } else {
            0
        }
    };
}

/// Skips the value of a required `#[extra]` field without `metadata-extras`, or leaves the
/// error in the reader (as [`__read_req`] does).
#[doc(hidden)]
#[inline(never)]
#[allow(dead_code)]
pub fn __skip_field(r: &mut Reader<'_>, wire: u8) {
    if let Err(e) = r.skip(wire) {
        r.failed = Some(e);
    }
}

macro_rules! __missing {
    (required, $f:ident) => {
        stringify!($f)
    };
    (optional, $f:ident) => {
        ""
    };
}

macro_rules! __init {
    (required, $t:ty) => {
        <$t as $crate::thrift::__Placeholder>::placeholder()
    };
    (optional, $t:ty) => {
        None
    };
}

macro_rules! __set {
    (required, $v:expr) => {
        $v
    };
    (optional, $v:expr) => {
        Some($v)
    };
}

macro_rules! __read_into {
    (required, $r:expr, $w:expr, $slot:expr, $ctx:expr) => {
        $crate::thrift::ThriftType::__compact_req($r, $w, $slot, $ctx)
    };
    (optional, $r:expr, $w:expr, $slot:expr, $ctx:expr) => {
        $crate::thrift::ThriftType::__compact_opt($r, $w, $slot, $ctx)
    };
}

/// Reads an enum field's number for the compact decoder (see [`Reader::enum_value`]): the
/// number, or 255 with the error left in the reader. One function for every enum type: the
/// enum's own code is the conversion of a valid number, inlined where the field is read.
#[doc(hidden)]
#[inline(never)]
pub fn __read_enum(r: &mut Reader<'_>, what: &'static str, valid: u32) -> u8 {
    match r.enum_value(what, valid) {
        Ok(v) => v,
        Err(e) => {
            r.failed = Some(e);
            u8::MAX
        }
    }
}

pub(crate) use {
    __flat_code, __flat_value, __init, __missing, __read_into, __read_struct_compact, __set,
    __table_wire,
};
