//! The leaf types of the typed mapping: which column a Rust scalar writes (with its
//! annotation attribute) and which columns it reads (LogicalTypes.md: INTEGER, DATE, TIME,
//! TIMESTAMP, DECIMAL, STRING, ENUM, UUID, JSON).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{
    batch, Annotation, Attrs, Binder, ColumnCursors, Elem, Field, Lv, Plan, SchemaCtx, Shredder,
    Val,
};
use crate::error::{Error, Result};
use crate::format::{FieldRepetitionType as Rep, LogicalType, PhysicalType, TimeUnit};
use crate::schema::{NodeKind, Type};
use crate::values::{ByteArrays, FixedLenByteArrays, Values};

/// How a bound column's values convert to the field's type.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Conv {
    /// The column holds unsigned integers (INT32/INT64 bits to reinterpret).
    pub unsigned: bool,
    /// The unit of a TIMESTAMP column read into a date-time type (`None`: INT96 or not a
    /// timestamp).
    pub unit: Option<TimeUnit>,
}

pub(super) fn leaf(physical: PhysicalType, name: &str, rep: Rep) -> Type {
    Type::primitive(name, rep, physical)
}

/// Bytes of a FIXED_LEN_BYTE_ARRAY that hold `precision` decimal digits (the smallest).
fn decimal_bytes(precision: i32) -> usize {
    (1..=16)
        .find(|&n| crate::schema::max_decimal_precision_for_flba(n as u64) >= precision as u64)
        .unwrap_or(16)
}

/// A column pass's value buffer of each physical type (see `Shredder::leaf_many`).
macro_rules! buffers {
    ($($f:ident $variant:ident $t:ty;)*) => {$(
        pub(super) fn $f(v: &mut Values) -> Option<&mut $t> {
            match v {
                Values::$variant(o) => Some(o),
                _ => None,
            }
        }
    )*};
}
buffers! {
    booleans Boolean Vec<bool>;
    int32s Int32 Vec<i32>;
    int64s Int64 Vec<i64>;
    floats Float Vec<f32>;
    doubles Double Vec<f64>;
    byte_arrays ByteArray ByteArrays;
    fixed_len FixedLenByteArray FixedLenByteArrays;
}

/// Implements `Field::write_many` for a leaf: the column pass pushes `$push(o, x)` for
/// each value `x` present into the buffer `$pick` gives.
macro_rules! leaf_many {
    ($pick:path, |$o:ident, $x:ident| $push:expr) => {
        #[inline]
        fn write_many<'a, I>(items: I, s: &mut Shredder, col: usize) -> Result<()>
        where
            Self: 'a,
            I: Iterator<Item = (Option<&'a Self>, Lv)> + Clone,
        {
            s.leaf_many(col, items, $pick, |$o, $x: &Self| $push)
        }
    };
}

/// What a Rust integer type is: bits, signedness and the annotations it may carry.
#[derive(Clone, Copy)]
struct Int {
    bits: u32,
    signed: bool,
    rust: &'static str,
}

impl Int {
    fn physical(self) -> PhysicalType {
        if self.bits <= 32 {
            PhysicalType::Int32
        } else {
            PhysicalType::Int64
        }
    }

    /// Most decimal digits the type holds.
    fn max_precision(self) -> i32 {
        match self.bits {
            32 => 9,
            64 => 18,
            128 => 38,
            _ => 0,
        }
    }

    fn field_type(self, ctx: &mut SchemaCtx, name: &str, rep: Rep, attrs: &Attrs) -> Result<Type> {
        let bad = |ctx: &SchemaCtx| Err(ctx.bad_attr(name, self.rust));
        let physical = self.physical();
        let t = match (attrs.annotation, self.signed, self.bits) {
            (Annotation::None, _, 128) => return bad(ctx),
            (Annotation::None, true, 32 | 64) => leaf(physical, name, rep),
            (Annotation::None, signed, bits) => {
                leaf(physical, name, rep).logical_type(LogicalType::Integer {
                    bit_width: bits as i8,
                    is_signed: signed,
                })
            }
            (Annotation::Date, true, 32) => {
                leaf(physical, name, rep).logical_type(LogicalType::Date)
            }
            (Annotation::Time { unit, utc }, true, bits)
                if (bits == 32) == (unit == crate::format::TimeUnit::Millis) && bits >= 32 =>
            {
                leaf(physical, name, rep).logical_type(LogicalType::Time {
                    is_adjusted_to_utc: utc,
                    unit,
                })
            }
            (Annotation::Timestamp { unit, utc }, true, 64) => leaf(physical, name, rep)
                .logical_type(LogicalType::Timestamp {
                    is_adjusted_to_utc: utc,
                    unit,
                }),
            (Annotation::Decimal { precision, scale }, true, bits)
                if precision <= self.max_precision() && bits >= 32 =>
            {
                let t = if bits == 128 {
                    Type::fixed_len_byte_array(name, rep, decimal_bytes(precision))
                } else {
                    leaf(physical, name, rep)
                };
                t.logical_type(LogicalType::Decimal { scale, precision })
            }
            _ => return bad(ctx),
        };
        Ok(ctx.leaf(name, attrs, t))
    }

    fn bind(self, b: &mut Binder<'_>, node: usize, attrs: &Attrs) -> Result<Plan> {
        let (cur, n) = b.leaf_cursor(node)?;
        let NodeKind::Primitive { physical_type, .. } = n.kind else {
            return Err(b.incompatible(node, self.rust));
        };
        let int_physical = matches!(physical_type, PhysicalType::Int32 | PhysicalType::Int64);
        let col_bits = if physical_type == PhysicalType::Int32 {
            32
        } else {
            64
        };
        let mut unsigned = false;
        let ok = match (attrs.annotation, &n.logical_type) {
            // UNKNOWN (always null) reads as any type.
            (Annotation::None, None | Some(LogicalType::Unknown)) => {
                int_physical && self.signed && col_bits <= self.bits
            }
            (
                Annotation::None,
                Some(LogicalType::Integer {
                    bit_width,
                    is_signed,
                }),
            ) => {
                let cb = *bit_width as u32;
                unsigned = !is_signed;
                int_physical
                    && ((*is_signed == self.signed && cb <= self.bits)
                        || (!is_signed && self.signed && cb < self.bits))
            }
            (Annotation::Date, Some(LogicalType::Date)) => int_physical && self.bits >= 32,
            (Annotation::Time { unit, .. }, Some(LogicalType::Time { unit: u, .. })) => {
                int_physical && unit == *u && col_bits <= self.bits
            }
            (Annotation::Timestamp { unit, .. }, Some(LogicalType::Timestamp { unit: u, .. })) => {
                int_physical && unit == *u && col_bits <= self.bits
            }
            (
                Annotation::Decimal { scale, .. },
                Some(LogicalType::Decimal {
                    scale: s,
                    precision: p,
                }),
            ) => scale == *s && *p <= self.max_precision(),
            _ => false,
        };
        if !ok {
            return Err(b.incompatible(node, self.rust));
        }
        Ok(Plan::Leaf {
            cur,
            conv: Conv {
                unsigned,
                unit: None,
            },
        })
    }

    /// The column value as an i128 (integers of any physical width, decimals of any
    /// physical type).
    #[inline(always)]
    fn read(self, plan: &Plan, c: &mut ColumnCursors<'_>) -> Result<i128> {
        let Plan::Leaf { cur, conv } = plan else {
            return Err(Error::invalid_argument("a leaf bound to a non-leaf plan"));
        };
        let v = c.take(*cur)?;
        match wide(v, conv.unsigned) {
            Some(v) => Ok(v),
            None => Err(int_error(c, *cur, None, self.rust)),
        }
    }
}

/// A stored integer or decimal as an i128: INT32/INT64 (as unsigned bits where `unsigned`),
/// or big-endian two's complement bytes (sign-extended); `None` for any other value.
#[inline(always)]
fn wide(v: Val<'_>, unsigned: bool) -> Option<i128> {
    Some(match v {
        Val::I32(x) if unsigned => i128::from(x as u32),
        Val::I64(x) if unsigned => i128::from(x as u64),
        Val::I32(x) => i128::from(x),
        Val::I64(x) => i128::from(x),
        Val::Bytes(b) if b.len() <= 16 => {
            let fill = if b.first().is_some_and(|&x| x & 0x80 != 0) {
                0xff
            } else {
                0
            };
            let mut buf = [fill; 16];
            buf[16 - b.len()..].copy_from_slice(b);
            i128::from_be_bytes(buf)
        }
        _ => return None,
    })
}

/// Reads an integer field of Rust type `T`: an INT32/INT64 value converts straight (as
/// its unsigned bits where the column is unsigned; a compare where `T` is narrower, nothing
/// where it is as wide), without going through i128; decimal bytes go through [`wide`].
#[inline(always)]
fn read_int<T>(plan: &Plan, c: &mut ColumnCursors<'_>, int: Int) -> Result<T>
where
    T: TryFrom<i32> + TryFrom<u32> + TryFrom<i64> + TryFrom<u64> + TryFrom<i128>,
{
    let Plan::Leaf { cur, conv } = plan else {
        return Err(Error::invalid_argument("a leaf bound to a non-leaf plan"));
    };
    let (values, k) = c.advance_ref(*cur)?;
    // The value as stored, and as `T` where it fits.
    let (w, t) = match (values, conv.unsigned) {
        (Values::Int32(v), false) => fits(v.get(k).copied()),
        (Values::Int32(v), true) => fits(v.get(k).map(|&x| x as u32)),
        (Values::Int64(v), false) => fits(v.get(k).copied()),
        (Values::Int64(v), true) => fits(v.get(k).map(|&x| x as u64)),
        // DECIMAL bytes (a cursor feeds one field, so an integer's never had its bytes
        // taken as text).
        (Values::FixedLenByteArray(v), _) => {
            let w = v.get(k).and_then(|b| wide(Val::Bytes(b), false));
            (w, w.and_then(|w| T::try_from(w).ok()))
        }
        (Values::ByteArray(v), _) => {
            let w = v.get(k).and_then(|b| wide(Val::Bytes(b), false));
            (w, w.and_then(|w| T::try_from(w).ok()))
        }
        _ => (None, None),
    };
    match t {
        Some(t) => Ok(t),
        None => Err(int_error(c, *cur, w, int.rust)),
    }
}

/// A stored integer `x` as an i128 (for errors) and as `T` where it fits.
#[inline(always)]
fn fits<X: Copy, T: TryFrom<X>>(x: Option<X>) -> (Option<i128>, Option<T>)
where
    i128: From<X>,
{
    match x {
        Some(x) => (Some(i128::from(x)), T::try_from(x).ok()),
        None => (None, None),
    }
}

/// The column loop of an integer field (`S`: [`batch::Required`]) or of an `Option` of one
/// (`S`: [`batch::Nullable`]) for [`batch::leaf_read`]: signed INT32/INT64 columns; false
/// for the rest (read one by one).
#[inline]
fn ints_many<S: batch::Slot<T>, T>(
    cur: usize,
    conv: Conv,
    c: &mut ColumnCursors<'_>,
    slots: &[bool],
    out: &mut impl batch::Put<S::Out>,
) -> Result<bool>
where
    T: Field + TryFrom<i32> + TryFrom<i64>,
{
    Ok(!conv.unsigned
        && (c.leaf_many::<S, _, _>(cur, slots, out, batch::int32s_of, |x| T::try_from(x).ok())?
            || c.leaf_many::<S, _, _>(cur, slots, out, batch::int64s_of, |x| T::try_from(x).ok())?))
}

/// A leaf's [`Field::read_many`] and `read_many_opt` ([`batch::leaf_read`]): the column
/// loop `$fast` (false where it does not apply), in which `$s` is the [`batch::Slot`] and
/// `$cur`, `$conv`, `$c`, `$slots` and `$out` are the leaf's cursor and conversion, the
/// cursors, the slots and the output.
macro_rules! leaf_read_many {
    ($s:ident, $cur:ident, $conv:ident, $c:ident, $slots:ident, $out:ident => $fast:expr) => {
        fn read_many(
            plan: &Plan,
            $c: &mut ColumnCursors<'_>,
            $slots: &[bool],
            $out: &mut Vec<Self>,
        ) -> Result<()> {
            type $s = batch::Required;
            batch::leaf_read::<$s, Self>(plan, $c, $slots, $out, |$cur, $conv, $c, $out| $fast)
        }
        fn read_many_opt(
            plan: &Plan,
            $c: &mut ColumnCursors<'_>,
            $slots: &[bool],
            $out: &mut Vec<Option<Self>>,
        ) -> Result<()> {
            type $s = batch::Nullable;
            batch::leaf_read::<$s, Self>(plan, $c, $slots, $out, |$cur, $conv, $c, $out| $fast)
        }
        #[inline]
        fn read_many_at<R>(
            plan: &Plan,
            $c: &mut ColumnCursors<'_>,
            $slots: &[bool],
            rows: &mut [R],
            at: impl FnMut(&mut R) -> &mut Self,
        ) -> Result<()> {
            type $s = batch::Required;
            batch::leaf_read_at::<$s, Self, R, _>(
                plan,
                $c,
                $slots,
                rows,
                at,
                |$cur, $conv, $c, $out| $fast,
            )
        }
        #[inline]
        fn read_many_opt_at<R>(
            plan: &Plan,
            $c: &mut ColumnCursors<'_>,
            $slots: &[bool],
            rows: &mut [R],
            at: impl FnMut(&mut R) -> &mut Option<Self>,
        ) -> Result<()> {
            type $s = batch::Nullable;
            batch::leaf_read_at::<$s, Self, R, _>(
                plan,
                $c,
                $slots,
                rows,
                at,
                |$cur, $conv, $c, $out| $fast,
            )
        }
    };
}

/// The fixed-width leaves' [`Field::read_many`] and `read_many_opt`: the column's values of
/// `pick` in one loop (as `conv` makes them), else one by one.
macro_rules! fixed_many {
    ($($pick:path => $conv:expr),*) => {
        leaf_read_many!(S, cur, _conv, c, slots, out => {
            Ok(false $(|| c.leaf_many::<S, _, _>(cur, slots, out, $pick, $conv)?)*)
        });
    };
}

/// The error of [`read_int`]: a value that is no integer, or one out of `rust`'s range.
#[cold]
fn int_error(c: &ColumnCursors<'_>, cur: usize, v: Option<i128>, rust: &str) -> Error {
    let path = c.column_path(cur);
    Error::invalid_argument(match v {
        Some(v) => format!("value {v} of column {path} does not fit a {rust}"),
        None => format!("a value of column {path} does not fit a {rust}"),
    })
}

/// The [`Int`] description of a Rust integer type.
trait IntInfo {
    const INT: Int;
}

macro_rules! ints {
    ($($t:ident $bits:literal $signed:literal $val:ident $phys:ident $pick:ident, $elem:literal;)*) => {$(
        impl IntInfo for $t {
            const INT: Int = Int { bits: $bits, signed: $signed, rust: stringify!($t) };
        }
        impl Field for $t {
            const LEAVES: usize = 1;
            fn field_type(ctx: &mut SchemaCtx, name: &str, rep: Rep, attrs: &Attrs) -> Result<Type> {
                Self::INT.field_type(ctx, name, rep, attrs)
            }
            fn write(&self, s: &mut Shredder, col: usize, lv: Lv) -> Result<()> {
                s.value(col, lv, Val::$val(*self as $phys))
            }
            leaf_many!($pick, |o, x| {
                o.push(*x as $phys);
                true
            });
            fn bind(b: &mut Binder<'_>, node: usize, attrs: &Attrs) -> Result<Plan> {
                Self::INT.bind(b, node, attrs)
            }
            fn read(plan: &Plan, c: &mut ColumnCursors<'_>) -> Result<Self> {
                read_int::<$t>(plan, c, Self::INT)
            }
            #[inline(always)]
            fn placeholder() -> Option<Self> {
                Some(0)
            }
            leaf_read_many!(S, cur, conv, c, slots, out => ints_many::<S, $t>(cur, conv, c, slots, out));
        }
    )*};
}

// Unsigned values are stored as the bits of the signed physical type (LogicalTypes.md,
// INTEGER: "the unsigned value is stored as a signed value of the same width").
ints! {
    i8 8 true I32 i32 int32s, true;
    i16 16 true I32 i32 int32s, true;
    i32 32 true I32 i32 int32s, true;
    i64 64 true I64 i64 int64s, true;
    u8 8 false I32 i32 int32s, false;
    u16 16 false I32 i32 int32s, true;
    u32 32 false I32 i32 int32s, true;
    u64 64 false I64 i64 int64s, true;
}
// u8 is a Field (UINT_8) but not an Elem: `Vec<u8>` is a BYTE_ARRAY.
impl Elem for i8 {}
impl Elem for i16 {}
impl Elem for i32 {}
impl Elem for i64 {}
impl Elem for u16 {}
impl Elem for u32 {}
impl Elem for u64 {}

/// i128: decimals only, as a FIXED_LEN_BYTE_ARRAY of the fewest bytes for the precision.
const I128: Int = Int {
    bits: 128,
    signed: true,
    rust: "i128",
};

impl Field for i128 {
    const LEAVES: usize = 1;
    fn field_type(ctx: &mut SchemaCtx, name: &str, rep: Rep, attrs: &Attrs) -> Result<Type> {
        I128.field_type(ctx, name, rep, attrs)
    }
    fn write(&self, s: &mut Shredder, col: usize, lv: Lv) -> Result<()> {
        let w = s.width(col);
        let bytes = self.to_be_bytes();
        let (head, tail) = bytes.split_at(16 - w.min(16));
        // The dropped bytes must be sign extension of what is kept.
        let fill = if *self < 0 { 0xff } else { 0 };
        let sign_ok = tail.first().is_none_or(|&b| (b & 0x80 != 0) == (*self < 0));
        if w == 0 || head.iter().any(|&b| b != fill) || !sign_ok {
            return Err(Error::invalid_argument(format!(
                "decimal {self} does not fit its column's {w} bytes"
            )));
        }
        s.value(col, lv, Val::Bytes(tail))
    }
    fn bind(b: &mut Binder<'_>, node: usize, attrs: &Attrs) -> Result<Plan> {
        I128.bind(b, node, attrs)
    }
    fn read(plan: &Plan, c: &mut ColumnCursors<'_>) -> Result<Self> {
        I128.read(plan, c)
    }
    #[inline(always)]
    fn placeholder() -> Option<Self> {
        Some(0)
    }
}
impl Elem for i128 {}

pub(super) fn leaf_plan(
    b: &mut Binder<'_>,
    node: usize,
    ok: impl Fn(PhysicalType, Option<usize>, &Option<LogicalType>) -> bool,
    rust: &str,
) -> Result<Plan> {
    let (cur, n) = b.leaf_cursor(node)?;
    let NodeKind::Primitive {
        physical_type,
        type_length,
        ..
    } = n.kind
    else {
        return Err(b.incompatible(node, rust));
    };
    if !ok(physical_type, type_length, &n.logical_type) {
        return Err(b.incompatible(node, rust));
    }
    Ok(Plan::Leaf {
        cur,
        conv: Conv {
            unsigned: false,
            unit: None,
        },
    })
}

#[inline(always)]
pub(super) fn leaf_cur(plan: &Plan) -> Result<usize> {
    match plan {
        Plan::Leaf { cur, .. } => Ok(*cur),
        _ => Err(Error::invalid_argument("a leaf bound to a non-leaf plan")),
    }
}

fn no_annotation(ctx: &SchemaCtx, name: &str, attrs: &Attrs, rust: &str) -> Result<()> {
    if attrs.annotation != Annotation::None {
        return Err(ctx.bad_attr(name, rust));
    }
    Ok(())
}

#[cold]
pub(super) fn bad_value(c: &ColumnCursors<'_>, cur: usize, rust: &str) -> Error {
    Error::invalid_argument(format!(
        "a value of column {} is not a {rust}",
        c.column_path(cur)
    ))
}

impl Field for bool {
    const LEAVES: usize = 1;
    fn field_type(ctx: &mut SchemaCtx, name: &str, rep: Rep, attrs: &Attrs) -> Result<Type> {
        no_annotation(ctx, name, attrs, "bool")?;
        Ok(ctx.leaf(name, attrs, leaf(PhysicalType::Boolean, name, rep)))
    }
    fn write(&self, s: &mut Shredder, col: usize, lv: Lv) -> Result<()> {
        s.value(col, lv, Val::Bool(*self))
    }
    leaf_many!(booleans, |o, x| {
        o.push(*x);
        true
    });
    fn bind(b: &mut Binder<'_>, node: usize, attrs: &Attrs) -> Result<Plan> {
        let plain = *attrs == Attrs::NONE || attrs.annotation == Annotation::None;
        leaf_plan(
            b,
            node,
            |p, _, _| plain && p == PhysicalType::Boolean,
            "bool",
        )
    }
    fn read(plan: &Plan, c: &mut ColumnCursors<'_>) -> Result<Self> {
        let cur = leaf_cur(plan)?;
        match c.advance_ref(cur)? {
            (Values::Boolean(v), k) => v.get(k).copied(),
            _ => None,
        }
        .ok_or_else(|| bad_value(c, cur, "bool"))
    }
    #[inline(always)]
    fn placeholder() -> Option<Self> {
        Some(false)
    }
    fixed_many!(batch::bools_of => Some);
}
impl Elem for bool {}

impl Field for f32 {
    const LEAVES: usize = 1;
    fn field_type(ctx: &mut SchemaCtx, name: &str, rep: Rep, attrs: &Attrs) -> Result<Type> {
        no_annotation(ctx, name, attrs, "f32")?;
        Ok(ctx.leaf(name, attrs, leaf(PhysicalType::Float, name, rep)))
    }
    fn write(&self, s: &mut Shredder, col: usize, lv: Lv) -> Result<()> {
        s.value(col, lv, Val::F32(*self))
    }
    leaf_many!(floats, |o, x| {
        o.push(*x);
        true
    });
    fn bind(b: &mut Binder<'_>, node: usize, attrs: &Attrs) -> Result<Plan> {
        let plain = attrs.annotation == Annotation::None;
        leaf_plan(b, node, |p, _, _| plain && p == PhysicalType::Float, "f32")
    }
    fn read(plan: &Plan, c: &mut ColumnCursors<'_>) -> Result<Self> {
        let cur = leaf_cur(plan)?;
        match c.advance_ref(cur)? {
            (Values::Float(v), k) => v.get(k).copied(),
            _ => None,
        }
        .ok_or_else(|| bad_value(c, cur, "f32"))
    }
    #[inline(always)]
    fn placeholder() -> Option<Self> {
        Some(0.0)
    }
    fixed_many!(batch::floats_of => Some);
}
impl Elem for f32 {}

impl Field for f64 {
    const LEAVES: usize = 1;
    fn field_type(ctx: &mut SchemaCtx, name: &str, rep: Rep, attrs: &Attrs) -> Result<Type> {
        no_annotation(ctx, name, attrs, "f64")?;
        Ok(ctx.leaf(name, attrs, leaf(PhysicalType::Double, name, rep)))
    }
    fn write(&self, s: &mut Shredder, col: usize, lv: Lv) -> Result<()> {
        s.value(col, lv, Val::F64(*self))
    }
    leaf_many!(doubles, |o, x| {
        o.push(*x);
        true
    });
    fn bind(b: &mut Binder<'_>, node: usize, attrs: &Attrs) -> Result<Plan> {
        let plain = attrs.annotation == Annotation::None;
        leaf_plan(
            b,
            node,
            |p, _, _| plain && matches!(p, PhysicalType::Double | PhysicalType::Float),
            "f64",
        )
    }
    fn read(plan: &Plan, c: &mut ColumnCursors<'_>) -> Result<Self> {
        let cur = leaf_cur(plan)?;
        match c.advance_ref(cur)? {
            (Values::Double(v), k) => v.get(k).copied(),
            (Values::Float(v), k) => v.get(k).map(|&x| f64::from(x)),
            _ => None,
        }
        .ok_or_else(|| bad_value(c, cur, "f64"))
    }
    #[inline(always)]
    fn placeholder() -> Option<Self> {
        Some(0.0)
    }
    fixed_many!(batch::doubles_of => Some, batch::floats_of => |x| Some(f64::from(x)));
}
impl Elem for f64 {}

impl Field for String {
    const LEAVES: usize = 1;
    fn field_type(ctx: &mut SchemaCtx, name: &str, rep: Rep, attrs: &Attrs) -> Result<Type> {
        let logical = match attrs.annotation {
            Annotation::None => LogicalType::String,
            Annotation::Json => LogicalType::Json,
            _ => return Err(ctx.bad_attr(name, "String")),
        };
        let t = leaf(PhysicalType::ByteArray, name, rep).logical_type(logical);
        Ok(ctx.leaf(name, attrs, t))
    }
    fn write(&self, s: &mut Shredder, col: usize, lv: Lv) -> Result<()> {
        s.value(col, lv, Val::Bytes(self.as_bytes()))
    }
    leaf_many!(byte_arrays, |o, x| {
        o.push(x.as_bytes());
        true
    });
    fn bind(b: &mut Binder<'_>, node: usize, attrs: &Attrs) -> Result<Plan> {
        let json = attrs.annotation == Annotation::Json;
        let plain = attrs.annotation == Annotation::None;
        let plan = leaf_plan(
            b,
            node,
            |p, _, l| {
                p == PhysicalType::ByteArray
                    && match l {
                        Some(LogicalType::Json) => json || plain,
                        Some(LogicalType::String | LogicalType::Enum) | None => plain,
                        _ => false,
                    }
            },
            "String",
        )?;
        if let Plan::Leaf { cur, .. } = plan {
            b.text.push(cur);
        }
        Ok(plan)
    }
    fn read(plan: &Plan, c: &mut ColumnCursors<'_>) -> Result<Self> {
        let cur = leaf_cur(plan)?;
        match c.take_str(cur)? {
            Some(s) => Ok(String::from(s)),
            None => Err(bad_value(c, cur, "UTF-8 string")),
        }
    }
    #[inline(always)]
    fn placeholder() -> Option<Self> {
        Some(String::new())
    }
    leaf_read_many!(S, cur, _conv, c, slots, out => c.strings_many::<S>(cur, slots, out));
}
impl Elem for String {}

impl Field for Vec<u8> {
    const LEAVES: usize = 1;
    fn field_type(ctx: &mut SchemaCtx, name: &str, rep: Rep, attrs: &Attrs) -> Result<Type> {
        no_annotation(ctx, name, attrs, "Vec<u8>")?;
        Ok(ctx.leaf(name, attrs, leaf(PhysicalType::ByteArray, name, rep)))
    }
    fn write(&self, s: &mut Shredder, col: usize, lv: Lv) -> Result<()> {
        s.value(col, lv, Val::Bytes(self))
    }
    leaf_many!(byte_arrays, |o, x| {
        o.push(x);
        true
    });
    fn bind(b: &mut Binder<'_>, node: usize, attrs: &Attrs) -> Result<Plan> {
        let plain = attrs.annotation == Annotation::None;
        leaf_plan(
            b,
            node,
            |p, _, _| {
                plain && matches!(p, PhysicalType::ByteArray | PhysicalType::FixedLenByteArray)
            },
            "Vec<u8>",
        )
    }
    fn read(plan: &Plan, c: &mut ColumnCursors<'_>) -> Result<Self> {
        let cur = leaf_cur(plan)?;
        match c.take(cur)? {
            Val::Bytes(b) => Ok(b.to_vec()),
            _ => Err(bad_value(c, cur, "Vec<u8>")),
        }
    }
    #[inline(always)]
    fn placeholder() -> Option<Self> {
        Some(Vec::new())
    }
}
impl Elem for Vec<u8> {}

impl<const N: usize> Field for [u8; N] {
    const LEAVES: usize = 1;
    fn field_type(ctx: &mut SchemaCtx, name: &str, rep: Rep, attrs: &Attrs) -> Result<Type> {
        let t = Type::fixed_len_byte_array(name, rep, N);
        let t = match attrs.annotation {
            Annotation::None => t,
            Annotation::Uuid if N == 16 => t.logical_type(LogicalType::Uuid),
            _ => return Err(ctx.bad_attr(name, "[u8; N]")),
        };
        Ok(ctx.leaf(name, attrs, t))
    }
    fn write(&self, s: &mut Shredder, col: usize, lv: Lv) -> Result<()> {
        s.value(col, lv, Val::Bytes(self))
    }
    leaf_many!(fixed_len, |o, x| o.push(x).is_some());
    fn bind(b: &mut Binder<'_>, node: usize, attrs: &Attrs) -> Result<Plan> {
        let uuid = attrs.annotation == Annotation::Uuid;
        let plain = attrs.annotation == Annotation::None;
        leaf_plan(
            b,
            node,
            |p, w, l| {
                p == PhysicalType::FixedLenByteArray
                    && w == Some(N)
                    && (plain || (uuid && matches!(l, Some(LogicalType::Uuid))))
            },
            "[u8; N]",
        )
    }
    fn read(plan: &Plan, c: &mut ColumnCursors<'_>) -> Result<Self> {
        let cur = leaf_cur(plan)?;
        match c.take(cur)? {
            Val::Bytes(b) => match <[u8; N]>::try_from(b) {
                Ok(a) => Ok(a),
                Err(_) => Err(bad_value(c, cur, "[u8; N]")),
            },
            _ => Err(bad_value(c, cur, "[u8; N]")),
        }
    }
    #[inline(always)]
    fn placeholder() -> Option<Self> {
        Some([0; N])
    }
}
impl<const N: usize> Elem for [u8; N] {}

/// The schema node of an enum field.
#[doc(hidden)]
pub fn enum_type(ctx: &mut SchemaCtx, name: &str, rep: Rep, attrs: &Attrs) -> Result<Type> {
    no_annotation(ctx, name, attrs, "enum")?;
    let t = leaf(PhysicalType::ByteArray, name, rep).logical_type(LogicalType::Enum);
    Ok(ctx.leaf(name, attrs, t))
}

/// Writes an enum's variant name.
#[doc(hidden)]
pub fn write_enum(s: &mut Shredder, col: usize, lv: Lv, name: &str) -> Result<()> {
    s.value(col, lv, Val::Bytes(name.as_bytes()))
}

/// Binds an enum field to a STRING or ENUM column.
#[doc(hidden)]
pub fn bind_enum(b: &mut Binder<'_>, node: usize, attrs: &Attrs) -> Result<Plan> {
    let plain = attrs.annotation == Annotation::None;
    leaf_plan(
        b,
        node,
        |p, _, l| {
            plain
                && p == PhysicalType::ByteArray
                && matches!(l, Some(LogicalType::String | LogicalType::Enum) | None)
        },
        "enum",
    )
}

/// Reads an enum by variant name.
#[doc(hidden)]
pub fn read_enum<T>(
    plan: &Plan,
    c: &mut ColumnCursors<'_>,
    from_name: fn(&[u8]) -> Option<T>,
) -> Result<T> {
    let cur = leaf_cur(plan)?;
    let v = c.take(cur)?;
    if let Val::Bytes(b) = v {
        if let Some(t) = from_name(b) {
            return Ok(t);
        }
        let shown: String = String::from_utf8_lossy(b).chars().take(64).collect();
        return Err(Error::invalid_argument(format!(
            "column {} holds {shown:?}, which names no variant of the enum",
            c.column_path(cur)
        )));
    }
    Err(bad_value(c, cur, "enum"))
}
