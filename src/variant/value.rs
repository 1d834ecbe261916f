//! The Variant value: a typed, zero-copy view of the encoded bytes.
//!
//! Spec: VariantEncoding.md, "Value encoding" and "Encoding types". The first byte is
//! `basic_type` (bits 0-1) and a 6-bit `value_header` (bits 2-7):
//!
//! | basic_type | value_header | value_data |
//! |---|---|---|
//! | 0 primitive | type id 0-20 (see [`Primitive`]) | fixed-width little-endian, or a 4-byte length and bytes for binary / string |
//! | 1 short string | length 0-63 | UTF-8 bytes |
//! | 2 object | `is_large << 4 \| (field_id_size - 1) << 2 \| (field_offset_size - 1)` | `num_elements`, field ids, `num_elements + 1` offsets, values |
//! | 3 array | `is_large << 2 \| (field_offset_size - 1)` | `num_elements`, `num_elements + 1` offsets, values |
//!
//! `num_elements` is 4 bytes when `is_large`, else 1. Offsets count from the first byte of the
//! first value; the last is the length of all values. An object's field ids are listed in the
//! byte order of their names, while its values may be stored in any order.
//!
//! Worked example, `{"a": 1, "b": [true]}` with the metadata `["a", "b"]`:
//!
//! ```text
//! 02              object, 1-byte ids, 1-byte offsets, 1-byte num_elements
//! 02              num_elements 2
//! 00 01           field ids: "a", "b"
//! 00 02 07        offsets: "a" at 0, "b" at 2, values end at 7
//! 0c 01           "a": primitive int8 (3 << 2), 1
//! 03 01 00 01 04  "b": array, 1 element, offsets 0 1; primitive true (1 << 2)
//! ```
//!
//! Every read is checked: a header that announces more bytes than remain, an offset past the
//! values, a field id past the dictionary is an error at the byte offset (within the value's
//! bytes) where it was found. Containers decode one level at a time; [`Variant::validate`] walks
//! the whole value, within a nesting depth.

use alloc::borrow::Cow;

use crate::error::{Error, Result};
use crate::variant::metadata::{read_uint, Metadata};

/// A non-container Variant value (the spec's primitive types, and the short string).
///
/// Borrowed (`Cow::Borrowed`) when read from bytes, owned in a
/// [`VariantValue`](crate::variant::VariantValue).
#[derive(Debug, Clone, PartialEq)]
pub enum Primitive<'a> {
    /// Type id 0: null.
    Null,
    /// Type ids 1 (true) and 2 (false).
    Boolean(bool),
    /// Type id 3.
    Int8(i8),
    /// Type id 4.
    Int16(i16),
    /// Type id 5.
    Int32(i32),
    /// Type id 6.
    Int64(i64),
    /// Type id 7.
    Double(f64),
    /// Type id 8: a 1-byte scale (0 to 38), then the unscaled value in 4 bytes.
    Decimal4 {
        /// The unscaled value.
        unscaled: i32,
        /// Digits after the point.
        scale: u8,
    },
    /// Type id 9: scale, then 8 bytes.
    Decimal8 {
        /// The unscaled value.
        unscaled: i64,
        /// Digits after the point.
        scale: u8,
    },
    /// Type id 10: scale, then 16 bytes.
    Decimal16 {
        /// The unscaled value.
        unscaled: i128,
        /// Digits after the point.
        scale: u8,
    },
    /// Type id 11: days since 1970-01-01.
    Date(i32),
    /// Type id 12: microseconds since the epoch, UTC (TIMESTAMP(true, MICROS)).
    Timestamp(i64),
    /// Type id 13: microseconds, local time (TIMESTAMP(false, MICROS)).
    TimestampNtz(i64),
    /// Type id 14.
    Float(f32),
    /// Type id 15: a 4-byte length, then the bytes.
    Binary(Cow<'a, [u8]>),
    /// Type id 16 (a 4-byte length, then UTF-8), or basic type 1 (a short string).
    String(Cow<'a, str>),
    /// Type id 17: microseconds since midnight, no time zone (TIME(false, MICROS)).
    TimeNtz(i64),
    /// Type id 18: nanoseconds since the epoch, UTC (TIMESTAMP(true, NANOS)).
    TimestampNanos(i64),
    /// Type id 19: nanoseconds, local time (TIMESTAMP(false, NANOS)).
    TimestampNtzNanos(i64),
    /// Type id 20: 16 bytes, big-endian (RFC 9562 byte order).
    Uuid([u8; 16]),
}

impl Primitive<'_> {
    /// The same value, owning its bytes.
    pub fn into_owned(self) -> Primitive<'static> {
        match self {
            Primitive::Binary(b) => Primitive::Binary(Cow::Owned(b.into_owned())),
            Primitive::String(s) => Primitive::String(Cow::Owned(s.into_owned())),
            Primitive::Null => Primitive::Null,
            Primitive::Boolean(x) => Primitive::Boolean(x),
            Primitive::Int8(x) => Primitive::Int8(x),
            Primitive::Int16(x) => Primitive::Int16(x),
            Primitive::Int32(x) => Primitive::Int32(x),
            Primitive::Int64(x) => Primitive::Int64(x),
            Primitive::Double(x) => Primitive::Double(x),
            Primitive::Decimal4 { unscaled, scale } => Primitive::Decimal4 { unscaled, scale },
            Primitive::Decimal8 { unscaled, scale } => Primitive::Decimal8 { unscaled, scale },
            Primitive::Decimal16 { unscaled, scale } => Primitive::Decimal16 { unscaled, scale },
            Primitive::Date(x) => Primitive::Date(x),
            Primitive::Timestamp(x) => Primitive::Timestamp(x),
            Primitive::TimestampNtz(x) => Primitive::TimestampNtz(x),
            Primitive::Float(x) => Primitive::Float(x),
            Primitive::TimeNtz(x) => Primitive::TimeNtz(x),
            Primitive::TimestampNanos(x) => Primitive::TimestampNanos(x),
            Primitive::TimestampNtzNanos(x) => Primitive::TimestampNtzNanos(x),
            Primitive::Uuid(x) => Primitive::Uuid(x),
        }
    }

    /// Equality that compares floats bit for bit (NaN payloads and the sign of zero count).
    pub fn bit_eq(&self, other: &Primitive<'_>) -> bool {
        match (self, other) {
            (Primitive::Double(a), Primitive::Double(b)) => a.to_bits() == b.to_bits(),
            (Primitive::Float(a), Primitive::Float(b)) => a.to_bits() == b.to_bits(),
            (a, b) => a == b,
        }
    }
}

/// A Variant value read from bytes: a primitive, or a view of an object or an array.
#[derive(Debug, Clone, PartialEq)]
pub enum Variant<'a> {
    /// A primitive or a string.
    Primitive(Primitive<'a>),
    /// An object.
    Object(Object<'a>),
    /// An array.
    Array(Array<'a>),
}

/// A view of an encoded object: its fields are decoded on access.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Object<'a> {
    metadata: Metadata<'a>,
    list: List<'a>,
    id_size: usize,
    /// Absolute position of the first field id.
    ids: usize,
}

/// A view of an encoded array: its elements are decoded on access.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Array<'a> {
    metadata: Metadata<'a>,
    list: List<'a>,
}

/// What objects and arrays share: the element count, the offsets and the values' extent.
#[derive(Debug, Clone, Copy, PartialEq)]
struct List<'a> {
    /// The whole top-level value's bytes (positions below are absolute, for error offsets).
    buf: &'a [u8],
    len: usize,
    offset_size: usize,
    /// Absolute position of the first offset.
    offsets: usize,
    /// Absolute position of the first value.
    values: usize,
    /// Absolute position just past the last value (`values` + the last offset).
    end: usize,
}

fn truncated(what: &'static str, needed: usize, pos: usize, end: usize) -> Error {
    Error::truncated(what, needed as u64, end.saturating_sub(pos) as u64).at_offset(pos as u64)
}

/// `N` bytes at `pos`, within `..end`.
fn fixed<const N: usize>(
    buf: &[u8],
    pos: usize,
    end: usize,
    what: &'static str,
) -> Result<[u8; N]> {
    buf.get(pos..end)
        .and_then(|b| b.get(..N))
        .and_then(|b| <[u8; N]>::try_from(b).ok())
        .ok_or_else(|| truncated(what, N, pos, end))
}

/// A 4-byte length at `pos`, then that many bytes, within `..end`.
fn sized<'a>(buf: &'a [u8], pos: usize, end: usize, what: &'static str) -> Result<&'a [u8]> {
    let n = u32::from_le_bytes(fixed(buf, pos, end, what)?) as usize;
    let start = pos + 4;
    buf.get(start..end)
        .and_then(|b| b.get(..n))
        .ok_or_else(|| truncated(what, n, start, end))
}

fn utf8(b: &[u8], pos: usize) -> Result<&str> {
    core::str::from_utf8(b)
        .map_err(|_| Error::out_of_spec("Variant string is not valid UTF-8").at_offset(pos as u64))
}

impl<'a> Variant<'a> {
    /// Decodes the value at the start of `value` (one level: an object's or array's elements
    /// are decoded on access). Bytes after the value are ignored.
    ///
    /// Never panics, for any input; allocates nothing.
    ///
    /// ```
    /// use parket::variant::{Metadata, Primitive, Variant};
    /// let m = Metadata::decode(&[0x01, 0x00, 0x00])?; // empty dictionary
    /// // 0x0d = short string (basic type 1) of length 3
    /// let v = Variant::decode(m, &[0x0d, b'n', b'/', b'a'])?;
    /// assert_eq!(v, Variant::Primitive(Primitive::String("n/a".into())));
    /// # Ok::<(), parket::Error>(())
    /// ```
    pub fn decode(metadata: Metadata<'a>, value: &'a [u8]) -> Result<Variant<'a>> {
        decode_at(metadata, value, 0, value.len())
    }

    /// The primitive, if this is one.
    pub fn as_primitive(&self) -> Option<&Primitive<'a>> {
        match self {
            Variant::Primitive(p) => Some(p),
            _ => None,
        }
    }

    /// Checks the whole value: every nested value decodes, every field id is in the
    /// dictionary, each object's field names are unique and in byte order, and containers
    /// nest at most `max_depth` deep.
    ///
    /// Never panics; allocates nothing; recursion is bounded by `max_depth`.
    pub fn validate(&self, max_depth: usize) -> Result<()> {
        self.walk(0, max_depth)
    }

    fn walk(&self, depth: usize, max_depth: usize) -> Result<()> {
        match self {
            Variant::Primitive(_) => Ok(()),
            Variant::Object(o) => {
                check_depth(depth, max_depth)?;
                let mut prev: Option<&str> = None;
                for i in 0..o.len() {
                    let (name, v) = o.field(i)?;
                    o.check_order(prev, name, i)?;
                    prev = Some(name);
                    v.walk(depth + 1, max_depth)?;
                }
                Ok(())
            }
            Variant::Array(a) => {
                check_depth(depth, max_depth)?;
                for i in 0..a.len() {
                    a.get(i)?.walk(depth + 1, max_depth)?;
                }
                Ok(())
            }
        }
    }
}

pub(crate) fn check_depth(depth: usize, max_depth: usize) -> Result<()> {
    if depth >= max_depth {
        Err(Error::limit(
            "Variant nesting depth",
            depth as u64 + 1,
            max_depth as u64,
        ))
    } else {
        Ok(())
    }
}

/// Decodes the value at `buf[pos..]`, which must end by `end`.
fn decode_at<'a>(m: Metadata<'a>, buf: &'a [u8], pos: usize, end: usize) -> Result<Variant<'a>> {
    let header = *buf
        .get(pos..end)
        .and_then(|b| b.first())
        .ok_or_else(|| truncated("Variant value header", 1, pos, end))?;
    let vh = header >> 2;
    let data = pos + 1;
    let p = match header & 0x03 {
        0 => primitive(vh, buf, data, end)?,
        1 => {
            let b = buf
                .get(data..end)
                .and_then(|b| b.get(..usize::from(vh)))
                .ok_or_else(|| truncated("Variant short string", vh.into(), data, end))?;
            Primitive::String(Cow::Borrowed(utf8(b, data)?))
        }
        2 => {
            let id_size = usize::from((vh >> 2) & 0x03) + 1;
            let list = List::decode(buf, pos, end, vh & 0x10 != 0, vh & 0x03, id_size)?;
            return Ok(Variant::Object(Object {
                metadata: m,
                list,
                id_size,
                ids: list.offsets - list.len * id_size,
            }));
        }
        _ => {
            let list = List::decode(buf, pos, end, vh & 0x04 != 0, vh & 0x03, 0)?;
            return Ok(Variant::Array(Array { metadata: m, list }));
        }
    };
    Ok(Variant::Primitive(p))
}

fn primitive(type_id: u8, buf: &[u8], pos: usize, end: usize) -> Result<Primitive<'_>> {
    let scale = |buf: &[u8]| -> Result<u8> {
        let [s] = fixed::<1>(buf, pos, end, "Variant decimal scale")?;
        if s > 38 {
            return Err(
                Error::out_of_range("Variant decimal scale (0 to 38)", s.into())
                    .at_offset(pos as u64),
            );
        }
        Ok(s)
    };
    Ok(match type_id {
        0 => Primitive::Null,
        1 => Primitive::Boolean(true),
        2 => Primitive::Boolean(false),
        3 => Primitive::Int8(i8::from_le_bytes(fixed(buf, pos, end, "Variant int8")?)),
        4 => Primitive::Int16(i16::from_le_bytes(fixed(buf, pos, end, "Variant int16")?)),
        5 => Primitive::Int32(i32::from_le_bytes(fixed(buf, pos, end, "Variant int32")?)),
        6 => Primitive::Int64(i64::from_le_bytes(fixed(buf, pos, end, "Variant int64")?)),
        7 => Primitive::Double(f64::from_le_bytes(fixed(buf, pos, end, "Variant double")?)),
        8 => Primitive::Decimal4 {
            scale: scale(buf)?,
            unscaled: i32::from_le_bytes(fixed(buf, pos + 1, end, "Variant decimal4")?),
        },
        9 => Primitive::Decimal8 {
            scale: scale(buf)?,
            unscaled: i64::from_le_bytes(fixed(buf, pos + 1, end, "Variant decimal8")?),
        },
        10 => Primitive::Decimal16 {
            scale: scale(buf)?,
            unscaled: i128::from_le_bytes(fixed(buf, pos + 1, end, "Variant decimal16")?),
        },
        11 => Primitive::Date(i32::from_le_bytes(fixed(buf, pos, end, "Variant date")?)),
        12 => Primitive::Timestamp(i64::from_le_bytes(fixed(
            buf,
            pos,
            end,
            "Variant timestamp",
        )?)),
        13 => Primitive::TimestampNtz(i64::from_le_bytes(fixed(
            buf,
            pos,
            end,
            "Variant timestamp_ntz",
        )?)),
        14 => Primitive::Float(f32::from_le_bytes(fixed(buf, pos, end, "Variant float")?)),
        15 => Primitive::Binary(Cow::Borrowed(sized(buf, pos, end, "Variant binary")?)),
        16 => {
            let b = sized(buf, pos, end, "Variant string")?;
            Primitive::String(Cow::Borrowed(utf8(b, pos + 4)?))
        }
        17 => Primitive::TimeNtz(i64::from_le_bytes(fixed(buf, pos, end, "Variant time")?)),
        18 => Primitive::TimestampNanos(i64::from_le_bytes(fixed(
            buf,
            pos,
            end,
            "Variant timestamp_nanos",
        )?)),
        19 => Primitive::TimestampNtzNanos(i64::from_le_bytes(fixed(
            buf,
            pos,
            end,
            "Variant timestamp_ntz_nanos",
        )?)),
        20 => Primitive::Uuid(fixed(buf, pos, end, "Variant uuid")?),
        t => {
            return Err(Error::out_of_range(
                "Variant primitive type id (0 to 20 are defined)",
                t.into(),
            )
            .at_offset(pos.saturating_sub(1) as u64))
        }
    })
}

impl<'a> List<'a> {
    /// Reads a container's `num_elements` and offset table; `id_size` bytes per element of
    /// field ids (0 for an array) sit between them.
    fn decode(
        buf: &'a [u8],
        pos: usize,
        end: usize,
        is_large: bool,
        offset_size_minus_one: u8,
        id_size: usize,
    ) -> Result<List<'a>> {
        let count_size = if is_large { 4 } else { 1 };
        let offset_size = usize::from(offset_size_minus_one) + 1;
        let at = pos + 1;
        let window = buf.get(..end).unwrap_or(buf);
        let len = read_uint(window, at, count_size, "Variant num_elements")?;
        let ids = at + count_size;
        // Spec: num_elements ids, then num_elements + 1 offsets; check both fit before use.
        let offsets = len
            .checked_mul(id_size)
            .and_then(|n| ids.checked_add(n))
            .filter(|&o| o <= end);
        let values = offsets.and_then(|o| {
            len.checked_add(1)
                .and_then(|n| n.checked_mul(offset_size))
                .and_then(|n| o.checked_add(n))
                .filter(|&v| v <= end)
        });
        let (Some(offsets), Some(values)) = (offsets, values) else {
            let needed = (len as u128 * id_size as u128 + (len as u128 + 1) * offset_size as u128)
                .min(u64::MAX as u128) as usize;
            return Err(truncated("Variant field ids and offsets", needed, ids, end));
        };
        let mut list = List {
            buf,
            len,
            offset_size,
            offsets,
            values,
            end: values,
        };
        let last = list.offset(len)?;
        list.end = values
            .checked_add(last)
            .filter(|&e| e <= end)
            .ok_or_else(|| truncated("Variant container values", last, values, end))?;
        Ok(list)
    }

    fn offset(&self, i: usize) -> Result<usize> {
        read_uint(
            self.buf,
            self.offsets + i * self.offset_size,
            self.offset_size,
            "Variant field offset",
        )
    }

    /// Element `i` (the caller checked `i < len`).
    fn element(&self, m: Metadata<'a>, i: usize) -> Result<Variant<'a>> {
        let off = self.offset(i)?;
        let start = self.values + off;
        if start >= self.end {
            return Err(Error::out_of_range(
                "Variant field offset (past the container's values)",
                off as i64,
            )
            .at_offset((self.offsets + i * self.offset_size) as u64));
        }
        decode_at(m, self.buf, start, self.end)
    }

    fn check_index(&self, i: usize) -> Result<()> {
        if i < self.len {
            Ok(())
        } else {
            Err(Error::invalid_argument_fmt(format_args!(
                "Variant element index {i} out of bounds (length {})",
                self.len
            )))
        }
    }
}

impl<'a> Object<'a> {
    /// The number of fields.
    pub fn len(&self) -> usize {
        self.list.len
    }

    /// True for `{}`.
    pub fn is_empty(&self) -> bool {
        self.list.len == 0
    }

    /// The metadata that names the fields.
    pub fn metadata(&self) -> Metadata<'a> {
        self.metadata
    }

    /// The name of field `i` (fields are in the byte order of their names).
    pub fn name(&self, i: usize) -> Result<&'a str> {
        self.list.check_index(i)?;
        let at = self.ids + i * self.id_size;
        let id = read_uint(self.list.buf, at, self.id_size, "Variant field id")?;
        self.metadata.get(id).map_err(|e| e.at_offset(at as u64))
    }

    /// Field `i`: its name and value.
    pub fn field(&self, i: usize) -> Result<(&'a str, Variant<'a>)> {
        let name = self.name(i)?;
        Ok((name, self.list.element(self.metadata, i)?))
    }

    /// The value of the field called `name`, found by binary search on the names (the spec
    /// keeps them in byte order).
    pub fn get(&self, name: &str) -> Result<Option<Variant<'a>>> {
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.name(mid)?.as_bytes().cmp(name.as_bytes()) {
                core::cmp::Ordering::Less => lo = mid + 1,
                core::cmp::Ordering::Greater => hi = mid,
                core::cmp::Ordering::Equal => {
                    return self.list.element(self.metadata, mid).map(Some)
                }
            }
        }
        Ok(None)
    }

    /// The fields in stored order.
    pub fn iter(&self) -> impl Iterator<Item = Result<(&'a str, Variant<'a>)>> + '_ {
        (0..self.len()).map(|i| self.field(i))
    }

    /// Spec: field names are unique and listed in byte order.
    pub(crate) fn check_order(&self, prev: Option<&str>, name: &str, i: usize) -> Result<()> {
        match prev {
            Some(p) if p.as_bytes() >= name.as_bytes() => Err(Error::out_of_spec(
                "Variant object: field names are not unique and in byte order",
            )
            .at_offset((self.ids + i * self.id_size) as u64)),
            _ => Ok(()),
        }
    }
}

impl<'a> Array<'a> {
    /// The number of elements.
    pub fn len(&self) -> usize {
        self.list.len
    }

    /// True for `[]`.
    pub fn is_empty(&self) -> bool {
        self.list.len == 0
    }

    /// Element `i`.
    pub fn get(&self, i: usize) -> Result<Variant<'a>> {
        self.list.check_index(i)?;
        self.list.element(self.metadata, i)
    }

    /// The elements in order.
    pub fn iter(&self) -> impl Iterator<Item = Result<Variant<'a>>> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }
}
