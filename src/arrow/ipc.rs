//! The `ARROW:schema` key-value metadata: the Arrow schema a writer stored, read and written
//! without arrow-rs's IPC crate (a bounds-checked reader and a small builder of the
//! FlatBuffers tables of Arrow's `format/Schema.fbs` and `Message.fbs`).
//!
//! The value is base64 (standard alphabet, padded) of an encapsulated IPC message: the
//! continuation marker `ff ff ff ff`, the flatbuffer's length as a little-endian `i32`, then
//! the flatbuffer of a `Message` whose header is a `Schema`:
//!
//! ```text
//! ff ff ff ff | <length, i32 LE> | Message { version: V5, header_type: Schema (1),
//!                                             header: Schema { fields: [Field], custom_metadata } }
//! Field { name, nullable, type_type, type, dictionary, children: [Field], custom_metadata }
//! ```
//!
//! Base64 maps each 3 bytes to 4 characters: `Man` (`4d 61 6e`) is `TWFu`, `Ma` is `TWE=`.
//!
//! Only what reading Parquet needs is decoded: names, nullability, types (the union's tables
//! with their units, time zones, widths), dictionary index types, children and key-value
//! metadata. Writing stores the same subset. A value that does not decode is ignored (the
//! Parquet schema alone is mapped), as pyarrow does with a warning.

use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;
use std::collections::HashMap;

use arrow_schema::{DataType, Field, Fields, IntervalUnit, Schema, TimeUnit, UnionMode};

use crate::bytes::base64::{self, encode as encode_base64};
use crate::error::Result;
use crate::format::FileMetaData;

/// The key pyarrow (and arrow-rs) store the Arrow schema under.
pub const ARROW_SCHEMA_KEY: &str = "ARROW:schema";

/// The Arrow schema stored in `meta`'s key-value metadata, if any decodes.
pub(crate) fn stored_schema(meta: &FileMetaData) -> Result<Option<Schema>> {
    let Some(kv) = meta.key_value_metadata.as_ref() else {
        return Ok(None);
    };
    let Some(v) = kv
        .iter()
        .find(|kv| kv.key == ARROW_SCHEMA_KEY)
        .and_then(|kv| kv.value.as_deref())
    else {
        return Ok(None);
    };
    Ok(schema_from_metadata(v))
}

// ---------------------------------------------------------------------------------------
// base64

/// Standard base64, padding optional (pyarrow pads); `None` on any other byte.
pub fn decode_base64(s: &[u8]) -> Option<Vec<u8>> {
    base64::decode(s, base64::Padding::Optional)
}

// ---------------------------------------------------------------------------------------
// FlatBuffers: reading

/// A table of a flatbuffer: its position and its vtable's field offsets.
#[derive(Clone, Copy)]
struct Table<'b> {
    buf: &'b [u8],
    pos: usize,
    vtable: usize,
    vt_len: usize,
}

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(
        b.get(at..at.checked_add(2)?)?.try_into().ok()?,
    ))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(
        b.get(at..at.checked_add(4)?)?.try_into().ok()?,
    ))
}

impl<'b> Table<'b> {
    fn at(buf: &'b [u8], pos: usize) -> Option<Self> {
        let soffset = u32_at(buf, pos)? as i32;
        let vtable = usize::try_from(pos as i64 - i64::from(soffset)).ok()?;
        let vt_len = usize::from(u16_at(buf, vtable)?);
        if vt_len < 4 || vtable.checked_add(vt_len)? > buf.len() {
            return None;
        }
        Some(Table {
            buf,
            pos,
            vtable,
            vt_len,
        })
    }

    /// Absolute position of field `i`, if present.
    fn field(&self, i: usize) -> Option<usize> {
        let slot = 4 + 2 * i;
        if slot + 2 > self.vt_len {
            return None;
        }
        let off = u16_at(self.buf, self.vtable + slot)?;
        (off != 0).then(|| self.pos + usize::from(off))
    }

    fn u8(&self, i: usize, default: u8) -> u8 {
        self.field(i)
            .and_then(|p| self.buf.get(p).copied())
            .unwrap_or(default)
    }

    fn i16(&self, i: usize, default: i16) -> i16 {
        self.field(i)
            .and_then(|p| u16_at(self.buf, p))
            .map_or(default, |v| v as i16)
    }

    fn i32(&self, i: usize, default: i32) -> i32 {
        self.field(i)
            .and_then(|p| u32_at(self.buf, p))
            .map_or(default, |v| v as i32)
    }

    /// The position an offset field points to.
    fn indirect(&self, i: usize) -> Option<usize> {
        let p = self.field(i)?;
        p.checked_add(u32_at(self.buf, p)? as usize)
    }

    fn table(&self, i: usize) -> Option<Table<'b>> {
        Table::at(self.buf, self.indirect(i)?)
    }

    fn str(&self, i: usize) -> Option<&'b str> {
        let p = self.indirect(i)?;
        let n = u32_at(self.buf, p)? as usize;
        core::str::from_utf8(self.buf.get(p + 4..p.checked_add(4)?.checked_add(n)?)?).ok()
    }

    /// The tables of a vector-of-tables field (empty when absent).
    fn tables(&self, i: usize) -> Option<Vec<Table<'b>>> {
        let Some(p) = self.indirect(i) else {
            return Some(Vec::new());
        };
        let n = u32_at(self.buf, p)? as usize;
        if n > self.buf.len() / 4 {
            return None;
        }
        let mut out = Vec::with_capacity(n);
        for k in 0..n {
            let e = p + 4 + 4 * k;
            out.push(Table::at(
                self.buf,
                e.checked_add(u32_at(self.buf, e)? as usize)?,
            )?);
        }
        Some(out)
    }
}

/// The schema in an `ARROW:schema` value (base64 of an IPC message); `None` when it does not
/// decode.
pub fn schema_from_metadata(value: &str) -> Option<Schema> {
    decode_message(&decode_base64(value.as_bytes())?)
}

/// An encapsulated IPC message holding a schema (or the bare flatbuffer, as old writers
/// stored it).
fn decode_message(b: &[u8]) -> Option<Schema> {
    let body = if b.get(..4) == Some(&[0xff; 4]) {
        let n = u32_at(b, 4)? as usize;
        b.get(8..8usize.checked_add(n)?)?
    } else {
        let n = u32_at(b, 0)? as usize;
        b.get(4..4usize.checked_add(n)?)?
    };
    let message = Table::at(body, u32_at(body, 0)? as usize)?;
    if message.u8(1, 0) != 1 {
        return None; // header_type is not Schema
    }
    let schema = message.table(2)?;
    let mut fields = Vec::new();
    // Offsets may point at one table many times: children `[a, a]` on every level of a
    // 64-deep chain are 2^64 fields from a few KiB. A tree of distinct tables has fewer
    // fields than bytes, so at most that many are decoded.
    let mut budget = body.len();
    for f in schema.tables(1)? {
        fields.push(decode_field(f, 0, &mut budget)?);
    }
    Some(Schema::new_with_metadata(fields, metadata(&schema, 2)?))
}

fn metadata(t: &Table<'_>, i: usize) -> Option<HashMap<String, String>> {
    let mut m = HashMap::new();
    for kv in t.tables(i)? {
        m.insert(kv.str(0)?.into(), kv.str(1).unwrap_or("").into());
    }
    Some(m)
}

fn unit(u: i16) -> Option<TimeUnit> {
    Some(match u {
        0 => TimeUnit::Second,
        1 => TimeUnit::Millisecond,
        2 => TimeUnit::Microsecond,
        3 => TimeUnit::Nanosecond,
        _ => return None,
    })
}

/// A field and its children; `None` past 64 levels, or past `budget` fields in all.
fn decode_field(f: Table<'_>, depth: usize, budget: &mut usize) -> Option<Field> {
    if depth > 64 {
        return None;
    }
    *budget = budget.checked_sub(1)?;
    let name = f.str(0).unwrap_or("");
    let nullable = f.u8(1, 0) != 0;
    let mut children = Vec::new();
    for c in f.tables(5)? {
        children.push(decode_field(c, depth + 1, budget)?);
    }
    let t = f.table(3);
    let int = |t: Option<Table<'_>>| -> Option<DataType> {
        let t = t?;
        Some(match (t.i32(0, 0), t.u8(1, 0) != 0) {
            (8, true) => DataType::Int8,
            (16, true) => DataType::Int16,
            (32, true) => DataType::Int32,
            (64, true) => DataType::Int64,
            (8, false) => DataType::UInt8,
            (16, false) => DataType::UInt16,
            (32, false) => DataType::UInt32,
            (64, false) => DataType::UInt64,
            _ => return None,
        })
    };
    let child = |k: usize| children.get(k).cloned().map(Arc::new);
    let dt = match f.u8(2, 0) {
        1 => DataType::Null,
        2 => int(t)?,
        3 => match t?.i16(0, 0) {
            0 => DataType::Float16,
            1 => DataType::Float32,
            _ => DataType::Float64,
        },
        4 => DataType::Binary,
        5 => DataType::Utf8,
        6 => DataType::Boolean,
        7 => {
            let t = t?;
            let (p, s) = (
                u8::try_from(t.i32(0, 0)).ok()?,
                i8::try_from(t.i32(1, 0)).ok()?,
            );
            match t.i32(2, 128) {
                32 => DataType::Decimal32(p, s),
                64 => DataType::Decimal64(p, s),
                256 => DataType::Decimal256(p, s),
                _ => DataType::Decimal128(p, s),
            }
        }
        8 => match t.map_or(1, |t| t.i16(0, 1)) {
            0 => DataType::Date32,
            _ => DataType::Date64,
        },
        9 => {
            let u = unit(t.map_or(1, |t| t.i16(0, 1)))?;
            match u {
                TimeUnit::Second | TimeUnit::Millisecond => DataType::Time32(u),
                _ => DataType::Time64(u),
            }
        }
        10 => {
            let t = t?;
            DataType::Timestamp(unit(t.i16(0, 0))?, t.str(1).map(Arc::from))
        }
        11 => DataType::Interval(match t.map_or(0, |t| t.i16(0, 0)) {
            0 => IntervalUnit::YearMonth,
            1 => IntervalUnit::DayTime,
            _ => IntervalUnit::MonthDayNano,
        }),
        12 => DataType::List(child(0)?),
        13 => DataType::Struct(Fields::from(children.clone())),
        14 => {
            let mode = match t.map_or(0, |t| t.i16(0, 0)) {
                0 => UnionMode::Sparse,
                _ => UnionMode::Dense,
            };
            let ids: Vec<i8> = (0..children.len() as i8).collect();
            DataType::Union(
                arrow_schema::UnionFields::try_new(ids, children.clone()).ok()?,
                mode,
            )
        }
        15 => DataType::FixedSizeBinary(t?.i32(0, 0)),
        16 => DataType::FixedSizeList(child(0)?, t?.i32(0, 0)),
        17 => DataType::Map(child(0)?, t.is_some_and(|t| t.u8(0, 0) != 0)),
        18 => DataType::Duration(unit(t.map_or(1, |t| t.i16(0, 1)))?),
        19 => DataType::LargeBinary,
        20 => DataType::LargeUtf8,
        21 => DataType::LargeList(child(0)?),
        23 => DataType::BinaryView,
        24 => DataType::Utf8View,
        25 => DataType::ListView(child(0)?),
        26 => DataType::LargeListView(child(0)?),
        _ => return None,
    };
    let dt = match f.table(4) {
        Some(d) => {
            let key = int(d.table(1)).unwrap_or(DataType::Int32);
            DataType::Dictionary(alloc::boxed::Box::new(key), alloc::boxed::Box::new(dt))
        }
        None => dt,
    };
    Some(Field::new(name, dt, nullable).with_metadata(metadata(&f, 6)?))
}

// ---------------------------------------------------------------------------------------
// FlatBuffers: writing

/// Builds a flatbuffer back to front, as FlatBuffers does: `buf` holds the tail of the buffer,
/// and a position is counted from the end.
struct Builder {
    buf: Vec<u8>,
}

/// A table's scalar or offset field being built: (field index, bytes or the end-position of
/// the referenced object).
enum Slot {
    U8(u8),
    I16(i16),
    I32(i32),
    I64(i64),
    Offset(usize),
}

impl Builder {
    fn pad_to(&mut self, align: usize) {
        while self.buf.len() % align != 0 {
            self.buf.push(0);
        }
    }

    /// Prepends `bytes` (reversed storage: we build reversed and flip at the end).
    fn prepend(&mut self, bytes: &[u8]) {
        self.buf.extend(bytes.iter().rev());
    }

    fn string(&mut self, s: &str) -> usize {
        // Forward: length, bytes, a NUL, padding; the length 4-aligned.
        while (self.buf.len() + s.len() + 1) % 4 != 0 {
            self.buf.push(0);
        }
        self.prepend(&[0]);
        self.prepend(s.as_bytes());
        self.prepend(&(s.len() as u32).to_le_bytes());
        self.buf.len()
    }

    /// A vector of offsets to objects at the given end-positions.
    fn vector(&mut self, items: &[usize]) -> usize {
        self.pad_to(4);
        for &it in items.iter().rev() {
            let here = self.buf.len() + 4;
            self.prepend(&((here - it) as u32).to_le_bytes());
        }
        self.prepend(&(items.len() as u32).to_le_bytes());
        self.buf.len()
    }

    /// A table with `slots` (field index, value); its own vtable is written just before it.
    fn table(&mut self, slots: &[(usize, Slot)]) -> usize {
        self.pad_to(8);
        let table_end = self.buf.len();
        // Fields, largest first so that each is aligned; remember each one's end-position.
        let mut at: Vec<(usize, usize)> = Vec::new();
        let mut order: Vec<&(usize, Slot)> = slots.iter().collect();
        let size = |s: &Slot| match s {
            Slot::U8(_) => 1,
            Slot::I16(_) => 2,
            Slot::I32(_) | Slot::Offset(_) => 4,
            Slot::I64(_) => 8,
        };
        order.sort_by_key(|(_, s)| core::cmp::Reverse(size(s)));
        for (i, s) in order.into_iter().rev() {
            let n = size(s);
            self.pad_to(n);
            match s {
                Slot::U8(v) => self.prepend(&[*v]),
                Slot::I16(v) => self.prepend(&v.to_le_bytes()),
                Slot::I32(v) => self.prepend(&v.to_le_bytes()),
                Slot::I64(v) => self.prepend(&v.to_le_bytes()),
                Slot::Offset(o) => {
                    let here = self.buf.len() + 4;
                    self.prepend(&((here - o) as u32).to_le_bytes());
                }
            }
            at.push((*i, self.buf.len()));
        }
        self.pad_to(4);
        // The soffset to the vtable (which we put right before the table).
        self.prepend(&[0; 4]);
        let table_pos = self.buf.len();
        let table_len = table_pos - table_end;
        let nfields = slots.iter().map(|(i, _)| i + 1).max().unwrap_or(0);
        let mut vt = alloc::vec![0u16; 2 + nfields];
        vt[0] = (4 + 2 * nfields) as u16;
        vt[1] = table_len as u16;
        for (i, end) in at {
            vt[2 + i] = (table_pos - end) as u16;
        }
        for v in vt.iter().rev() {
            self.prepend(&v.to_le_bytes());
        }
        let vt_pos = self.buf.len();
        // soffset = table - vtable (in forward positions): vtable comes first, so positive.
        let soff = (vt_pos - table_pos) as i32;
        let mut le = soff.to_le_bytes();
        le.reverse();
        if let Some(slot) = self.buf.get_mut(table_pos - 4..table_pos) {
            slot.copy_from_slice(&le);
        }
        table_pos
    }

    /// The finished buffer: root offset first.
    fn finish(mut self, root: usize) -> Vec<u8> {
        while (self.buf.len() + 4) % 8 != 0 {
            self.buf.push(0);
        }
        let here = self.buf.len() + 4;
        self.prepend(&((here - root) as u32).to_le_bytes());
        self.buf.reverse();
        self.buf
    }
}

fn unit_code(u: &TimeUnit) -> i16 {
    match u {
        TimeUnit::Second => 0,
        TimeUnit::Millisecond => 1,
        TimeUnit::Microsecond => 2,
        TimeUnit::Nanosecond => 3,
    }
}

fn write_kv(b: &mut Builder, m: &arrow_schema::Metadata) -> Option<usize> {
    if m.is_empty() {
        return None;
    }
    let mut items = Vec::new();
    for (k, v) in m.iter() {
        let ko = b.string(k);
        let vo = b.string(v);
        items.push(b.table(&[(0, Slot::Offset(ko)), (1, Slot::Offset(vo))]));
    }
    Some(b.vector(&items))
}

fn write_int(b: &mut Builder, dt: &DataType) -> Option<usize> {
    let (w, s) = match dt {
        DataType::Int8 => (8, true),
        DataType::Int16 => (16, true),
        DataType::Int32 => (32, true),
        DataType::Int64 => (64, true),
        DataType::UInt8 => (8, false),
        DataType::UInt16 => (16, false),
        DataType::UInt32 => (32, false),
        DataType::UInt64 => (64, false),
        _ => return None,
    };
    Some(b.table(&[(0, Slot::I32(w)), (1, Slot::U8(u8::from(s)))]))
}

fn write_field(b: &mut Builder, f: &Field, dict_id: &mut i64) -> Option<usize> {
    let (value_type, dict) = match f.data_type() {
        DataType::Dictionary(k, v) => (&**v, Some(&**k)),
        t => (t, None),
    };
    let children: Vec<&Field> = match value_type {
        DataType::List(c)
        | DataType::LargeList(c)
        | DataType::FixedSizeList(c, _)
        | DataType::Map(c, _)
        | DataType::ListView(c)
        | DataType::LargeListView(c) => alloc::vec![&**c],
        DataType::Struct(fs) => fs.iter().map(|f| &**f).collect(),
        _ => Vec::new(),
    };
    let mut child_offsets = Vec::new();
    for c in children {
        child_offsets.push(write_field(b, c, dict_id)?);
    }
    let children = b.vector(&child_offsets);
    let meta = write_kv(b, f.metadata());
    let dict = match dict {
        Some(k) => {
            let idx = write_int(b, k)?;
            let id = *dict_id;
            *dict_id += 1;
            Some(b.table(&[(0, Slot::I64(id)), (1, Slot::Offset(idx))]))
        }
        None => None,
    };
    use DataType as D;
    let (code, t): (u8, usize) = match value_type {
        D::Null => (1, b.table(&[])),
        D::Int8 | D::Int16 | D::Int32 | D::Int64 | D::UInt8 | D::UInt16 | D::UInt32 | D::UInt64 => {
            (2, write_int(b, value_type)?)
        }
        D::Float16 => (3, b.table(&[(0, Slot::I16(0))])),
        D::Float32 => (3, b.table(&[(0, Slot::I16(1))])),
        D::Float64 => (3, b.table(&[(0, Slot::I16(2))])),
        D::Binary => (4, b.table(&[])),
        D::Utf8 => (5, b.table(&[])),
        D::Boolean => (6, b.table(&[])),
        D::Decimal32(p, s) | D::Decimal64(p, s) | D::Decimal128(p, s) | D::Decimal256(p, s) => {
            let w = match value_type {
                D::Decimal32(..) => 32,
                D::Decimal64(..) => 64,
                D::Decimal256(..) => 256,
                _ => 128,
            };
            let slots = [
                (0, Slot::I32(i32::from(*p))),
                (1, Slot::I32(i32::from(*s))),
                (2, Slot::I32(w)),
            ];
            (7, b.table(&slots))
        }
        D::Date32 => (8, b.table(&[(0, Slot::I16(0))])),
        D::Date64 => (8, b.table(&[(0, Slot::I16(1))])),
        D::Time32(u) => (
            9,
            b.table(&[(0, Slot::I16(unit_code(u))), (1, Slot::I32(32))]),
        ),
        D::Time64(u) => (
            9,
            b.table(&[(0, Slot::I16(unit_code(u))), (1, Slot::I32(64))]),
        ),
        D::Timestamp(u, tz) => {
            let tz = tz.as_deref().map(|tz| b.string(tz));
            let mut slots = alloc::vec![(0, Slot::I16(unit_code(u)))];
            if let Some(tz) = tz {
                slots.push((1, Slot::Offset(tz)));
            }
            (10, b.table(&slots))
        }
        D::List(_) => (12, b.table(&[])),
        D::Struct(_) => (13, b.table(&[])),
        D::FixedSizeBinary(w) => (15, b.table(&[(0, Slot::I32(*w))])),
        D::FixedSizeList(_, n) => (16, b.table(&[(0, Slot::I32(*n))])),
        D::Map(_, sorted) => (17, b.table(&[(0, Slot::U8(u8::from(*sorted)))])),
        D::Duration(u) => (18, b.table(&[(0, Slot::I16(unit_code(u)))])),
        D::LargeBinary => (19, b.table(&[])),
        D::LargeUtf8 => (20, b.table(&[])),
        D::LargeList(_) => (21, b.table(&[])),
        D::BinaryView => (23, b.table(&[])),
        D::Utf8View => (24, b.table(&[])),
        _ => return None,
    };
    let name = b.string(f.name());
    let mut slots = alloc::vec![
        (0, Slot::Offset(name)),
        (1, Slot::U8(u8::from(f.is_nullable()))),
        (2, Slot::U8(code)),
        (3, Slot::Offset(t)),
        (5, Slot::Offset(children)),
    ];
    if let Some(d) = dict {
        slots.push((4, Slot::Offset(d)));
    }
    if let Some(m) = meta {
        slots.push((6, Slot::Offset(m)));
    }
    Some(b.table(&slots))
}

/// `schema` as the base64 `ARROW:schema` value (an encapsulated IPC Schema message, metadata
/// version V5); `None` for a type this subset does not write.
pub fn schema_to_metadata(schema: &Schema) -> Option<String> {
    let mut b = Builder { buf: Vec::new() };
    let mut dict_id = 0;
    let mut fields = Vec::new();
    for f in schema.fields() {
        fields.push(write_field(&mut b, f, &mut dict_id)?);
    }
    let fields = b.vector(&fields);
    let meta = write_kv(&mut b, schema.metadata());
    let mut slots = alloc::vec![(1, Slot::Offset(fields))];
    if let Some(m) = meta {
        slots.push((2, Slot::Offset(m)));
    }
    let s = b.table(&slots);
    let message = b.table(&[
        (0, Slot::I16(4)), // MetadataVersion V5
        (1, Slot::U8(1)),  // MessageHeader Schema
        (2, Slot::Offset(s)),
        (3, Slot::I64(0)),
    ]);
    let fb = b.finish(message);
    let mut out = Vec::with_capacity(fb.len() + 8);
    out.extend_from_slice(&[0xff; 4]);
    out.extend_from_slice(&(fb.len() as u32).to_le_bytes());
    out.extend_from_slice(&fb);
    Some(encode_base64(&out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_worked_example() {
        assert_eq!(encode_base64(b"Man"), "TWFu");
        assert_eq!(encode_base64(b"Ma"), "TWE=");
        assert_eq!(encode_base64(b"M"), "TQ==");
        assert_eq!(decode_base64(b"TWFu").as_deref(), Some(&b"Man"[..]));
        assert_eq!(decode_base64(b"TWE=").as_deref(), Some(&b"Ma"[..]));
        assert_eq!(decode_base64(b"TQ==").as_deref(), Some(&b"M"[..]));
        assert_eq!(decode_base64(b"T\nQ=="), None);
        let all: Vec<u8> = (0..=255).collect();
        assert_eq!(decode_base64(encode_base64(&all).as_bytes()), Some(all));
    }

    #[test]
    fn message_framing_and_round_trip() {
        let s = Schema::new(vec![Field::new("a", DataType::Int32, false)]);
        let value = schema_to_metadata(&s).unwrap();
        let b = decode_base64(value.as_bytes()).unwrap();
        assert_eq!(&b[..4], &[0xff; 4]);
        let n = u32::from_le_bytes(b[4..8].try_into().unwrap()) as usize;
        assert_eq!(n + 8, b.len());
        assert_eq!(n % 8, 0);
        assert_eq!(schema_from_metadata(&value), Some(s));
    }

    /// An `ARROW:schema` (footer bytes) whose field tables share children: each of 64 struct
    /// fields lists the next one twice, so the tree they describe has 2^64 fields in 1.5 KiB.
    /// Decoding it followed every path (it never ended); now it stops at the budget of one
    /// field per byte. The same chain with one child each, 65 fields, still decodes.
    #[test]
    fn shared_children_are_bounded_by_the_bytes() {
        // Hand-laid, front to back, every offset forward: a table is its vtable, then
        // `soffset = vtable length`, then the fields. Field: `type_type` (slot 2) at +4,
        // `children` (slot 5) at +8.
        fn chain(children: u32) -> Vec<u8> {
            fn put(b: &mut Vec<u8>, v: &[u32], wide: bool) {
                for x in v {
                    if wide {
                        b.extend_from_slice(&x.to_le_bytes());
                    } else {
                        b.extend_from_slice(&(*x as u16).to_le_bytes());
                    }
                }
            }
            let mut b = Vec::new();
            // The root offset, set below.
            put(&mut b, &[0], true);
            // Message: header_type (slot 1) = 1 (Schema) at +4, header (slot 2) at +8.
            put(&mut b, &[10, 12, 0, 4, 8], false);
            let message = b.len() as u32;
            b[..4].copy_from_slice(&message.to_le_bytes());
            // The schema table follows this table and its own 8-byte vtable.
            put(&mut b, &[10, 1, 4 + 8], true);
            // Schema: fields (slot 1) at +4; the vector right after; its one field's table
            // after the field's 16-byte vtable.
            put(&mut b, &[8, 8, 0, 4], false);
            put(&mut b, &[8, 4], true);
            put(&mut b, &[1, 4 + 16], true);
            // Each field: vtable, table, then its children vector, the next field after it.
            for level in 0..=64u32 {
                let leaf = level == 64;
                put(
                    &mut b,
                    &[16, 12, 0, 0, 4, 0, 0, if leaf { 0 } else { 8 }],
                    false,
                );
                put(&mut b, &[16, if leaf { 1 } else { 13 }, 4], true);
                if !leaf {
                    put(&mut b, &[children], true);
                    // An element's offset is relative to itself: to the next table, past
                    // the rest of the vector and the next vtable.
                    for k in 0..children {
                        put(&mut b, &[4 * (children - k) + 16], true);
                    }
                }
            }
            let mut framed = (b.len() as u32).to_le_bytes().to_vec();
            framed.extend_from_slice(&b);
            framed
        }
        let one = decode_message(&chain(1)).expect("a chain of 65 fields decodes");
        let mut depth = 0;
        let mut f = one.fields()[0].clone();
        while let DataType::Struct(c) = f.data_type() {
            depth += 1;
            f = c[0].clone();
        }
        assert_eq!(depth, 64);
        let start = std::time::Instant::now();
        assert_eq!(decode_message(&chain(2)), None);
        assert!(start.elapsed() < std::time::Duration::from_secs(5));
    }

    #[test]
    fn garbage_never_panics() {
        let s = Schema::new(vec![Field::new(
            "l",
            DataType::List(Arc::new(Field::new("e", DataType::Utf8, true))),
            true,
        )]);
        let b = decode_base64(schema_to_metadata(&s).unwrap().as_bytes()).unwrap();
        for i in 0..b.len() {
            for x in [0u8, 1, 0x7f, 0xff] {
                let mut c = b.clone();
                c[i] = x;
                let _ = decode_message(&c);
            }
            let _ = decode_message(&b[..i]);
        }
    }
}
