//! The compact-protocol reader over `&[u8]`.
//!
//! Spec: Thrift compact protocol (see [`crate::thrift`] for the grammar). Every read checks the
//! bytes that remain; every length and element count is checked against them *before* any
//! allocation (every list element takes at least one byte, a bool element included; every map
//! entry at least two); struct nesting is bounded by the depth given to [`Reader::new`], and
//! [`Reader::skip`] is iterative, so no input can make it recurse (built for size, it recurses
//! one level per nested container, each counted against that same depth limit).
//!
//! A hand-worked example: `list<i32> [1, -1]` is
//!
//! ```text
//! 25      list header: size 2 (high nibble), element type 5 = I32 (low nibble)
//! 02      zigzag(1) = 2
//! 01      zigzag(-1) = 1
//! ```
//!
//! ```
//! use parket::thrift::{Reader, I32};
//! let mut r = Reader::new(&[0x25, 0x02, 0x01], 64);
//! assert_eq!(r.list_header().unwrap(), (I32, 2));
//! assert_eq!((r.i32().unwrap(), r.i32().unwrap()), (1, -1));
//! // A size larger than the bytes that remain is an error before anything is allocated.
//! assert!(Reader::new(&[0xF5, 0xFF, 0xFF, 0xFF, 0x0F], 64).list_header().is_err());
//! ```

use alloc::vec::Vec;

use super::{BINARY, BOOL_FALSE, BOOL_TRUE, BYTE, DOUBLE, I16, I32, I64, LIST, MAP, SET, STRUCT};
use crate::bytes::Cursor;
use crate::error::{Error, Result};

/// A compact-protocol reader over a byte slice. Never panics, for any input.
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    cur: Cursor<'a>,
    depth: u32,
    max_depth: u32,
    /// The compact struct decoder's pending error (see `thrift::compact`); unused by the
    /// default decoder.
    #[allow(dead_code)]
    pub(crate) failed: Option<Error>,
    /// Tests only: read structs with the compact decoder of builds for size.
    #[cfg(test)]
    pub(crate) compact: bool,
}

/// One level of an iterative [`Reader::skip`].
#[allow(dead_code)]
pub(crate) enum Frame {
    Struct { last_id: i16 },
    List { elem: u8, remaining: u64 },
    Map { key: u8, value: u8, remaining: u64 },
}

impl<'a> Reader<'a> {
    /// A reader at the start of `buf`; structs (and containers, when skipped) may nest at most
    /// `max_depth` deep.
    pub fn new(buf: &'a [u8], max_depth: u32) -> Self {
        Reader {
            cur: Cursor::new(buf),
            depth: 0,
            max_depth,
            failed: None,
            #[cfg(test)]
            compact: false,
        }
    }

    /// Bytes consumed so far.
    pub fn position(&self) -> usize {
        self.cur.position()
    }

    /// Bytes that remain.
    pub fn remaining(&self) -> usize {
        self.cur.remaining()
    }

    /// An unsigned varint (at most 10 bytes, at most 64 bits).
    pub fn varint(&mut self) -> Result<u64> {
        self.cur.uleb128("Thrift varint")
    }

    /// A `byte` (i8).
    pub fn i8(&mut self) -> Result<i8> {
        Ok(self.cur.u8("Thrift byte")? as i8)
    }

    /// An `i16`: zigzag varint, range-checked.
    pub fn i16(&mut self) -> Result<i16> {
        let pos = self.position();
        let v = self.cur.zigzag("Thrift i16")?;
        i16::try_from(v).map_err(|_| Error::out_of_range("Thrift i16", v).at_offset(pos as u64))
    }

    /// An `i32`: zigzag varint, range-checked.
    pub fn i32(&mut self) -> Result<i32> {
        let pos = self.position();
        let v = self.cur.zigzag("Thrift i32")?;
        i32::try_from(v).map_err(|_| Error::out_of_range("Thrift i32", v).at_offset(pos as u64))
    }

    /// An enum's `i32`, which must be a number whose bit is set in `valid` (numbers 0 to 31):
    /// else an out-of-range error naming `what`, at the number's offset. One function for
    /// every enum type.
    #[inline(never)]
    pub fn enum_value(&mut self, what: &'static str, valid: u32) -> Result<u8> {
        let pos = self.position();
        let v = self.i32()?;
        match u32::try_from(v) {
            Ok(n) if n < 32 && valid >> n & 1 == 1 => Ok(n as u8),
            _ => Err(Error::out_of_range(what, v.into()).at_offset(pos as u64)),
        }
    }

    /// An `i64`: zigzag varint.
    pub fn i64(&mut self) -> Result<i64> {
        self.cur.zigzag("Thrift i64")
    }

    /// A `double`: 8 bytes, little-endian IEEE 754.
    pub fn double(&mut self) -> Result<f64> {
        Ok(f64::from_le_bytes(self.cur.array::<8>("Thrift double")?))
    }

    /// A `binary` (or `string`): varint length, then that many bytes, borrowed.
    pub fn binary(&mut self) -> Result<&'a [u8]> {
        let pos = self.position();
        let len = self.varint()?;
        // Spec: the length is checked against the bytes that remain before anything is taken.
        if len > self.remaining() as u64 {
            return Err(
                Error::truncated("Thrift binary", len, self.remaining() as u64)
                    .at_offset(pos as u64),
            );
        }
        self.cur.take(len as usize, "Thrift binary")
    }

    /// A bool that is a list element: one byte, 1 = true, 2 or 0 = false.
    pub fn bool_element(&mut self) -> Result<bool> {
        let pos = self.position();
        // Seen in the wild: the Java and C++ writers write 2 for false (the type id of
        // BOOL_FALSE); the protocol document says 0. Both are accepted.
        match self.cur.u8("Thrift bool")? {
            1 => Ok(true),
            0 | 2 => Ok(false),
            b => {
                Err(Error::out_of_range("Thrift bool list element", b as i64).at_offset(pos as u64))
            }
        }
    }

    /// The value of a bool *field*, which lives in its field header's type nibble.
    pub fn bool_field(&self, field_type: u8) -> Result<bool> {
        match field_type {
            BOOL_TRUE => Ok(true),
            BOOL_FALSE => Ok(false),
            t => Err(Error::out_of_range("Thrift bool field type", t as i64)),
        }
    }

    /// Enters a struct: counts one level of nesting against the depth limit.
    pub fn struct_begin(&mut self) -> Result<()> {
        if self.depth >= self.max_depth {
            return Err(Error::limit(
                "Thrift nesting depth",
                self.depth as u64 + 1,
                self.max_depth as u64,
            )
            .at_offset(self.position() as u64));
        }
        self.depth += 1;
        Ok(())
    }

    /// Leaves a struct entered with [`Reader::struct_begin`] (after its stop field was read).
    pub fn struct_end(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// The next field header of the current struct: `Some((id, type))`, or `None` at the stop
    /// field. `last_id` is the previous field's id (0 at the start of a struct) and is updated.
    pub fn field_header(&mut self, last_id: &mut i16) -> Result<Option<(i16, u8)>> {
        let pos = self.position();
        let b = self.cur.u8("Thrift field header")?;
        if b == 0 {
            return Ok(None);
        }
        let field_type = b & 0x0f;
        let delta = b >> 4;
        let id = if delta != 0 {
            // Spec: short form, the id is the previous id plus the delta.
            last_id.checked_add(delta as i16).ok_or_else(|| {
                Error::out_of_range("Thrift field id", *last_id as i64 + delta as i64)
                    .at_offset(pos as u64)
            })?
        } else {
            // Spec: long form, a zigzag varint i16 id follows.
            self.i16()?
        };
        if !(BOOL_TRUE..=STRUCT).contains(&field_type) {
            return Err(
                Error::out_of_range("Thrift field type", field_type as i64).at_offset(pos as u64)
            );
        }
        *last_id = id;
        Ok(Some((id, field_type)))
    }

    /// A list (or set) header: `(element type, size)`. The size is checked against the bytes
    /// that remain (each element takes at least one byte).
    pub fn list_header(&mut self) -> Result<(u8, usize)> {
        let pos = self.position();
        let b = self.cur.u8("Thrift list header")?;
        let elem = b & 0x0f;
        let size = match b >> 4 {
            0x0f => self.varint()?,
            n => n as u64,
        };
        if size > self.remaining() as u64 {
            return Err(
                Error::truncated("Thrift list", size, self.remaining() as u64)
                    .at_offset(pos as u64),
            );
        }
        if size > 0 && !(BOOL_TRUE..=STRUCT).contains(&elem) {
            return Err(
                Error::out_of_range("Thrift list element type", elem as i64).at_offset(pos as u64)
            );
        }
        Ok((elem, size as usize))
    }

    /// A map header: `(key type, value type, size)`; each entry takes at least two bytes.
    pub fn map_header(&mut self) -> Result<(u8, u8, usize)> {
        let pos = self.position();
        let size = self.varint()?;
        if size == 0 {
            return Ok((0, 0, 0));
        }
        let kv = self.cur.u8("Thrift map key and value types")?;
        let (key, value) = (kv >> 4, kv & 0x0f);
        if size > (self.remaining() / 2) as u64 {
            return Err(Error::truncated(
                "Thrift map",
                size.saturating_mul(2),
                self.remaining() as u64,
            )
            .at_offset(pos as u64));
        }
        for t in [key, value] {
            if !(BOOL_TRUE..=STRUCT).contains(&t) {
                return Err(
                    Error::out_of_range("Thrift map key or value type", t as i64)
                        .at_offset(pos as u64),
                );
            }
        }
        Ok((key, value, size as usize))
    }

    /// Skips one value of `field_type` that is a struct *field* (so a bool takes no bytes).
    ///
    /// Iterative: nested structs, lists, sets and maps are tracked on an explicit stack that is
    /// bounded by the depth limit; every step consumes at least one byte. (Builds for size skip
    /// recursively, one level per container, bounded by the same depth limit.)
    pub fn skip(&mut self, field_type: u8) -> Result<()> {
        let base_depth = self.depth;
        let result = super::skip_any(self, field_type);
        self.depth = base_depth;
        result
    }

    #[allow(dead_code)] // unused in builds for size
    pub(crate) fn skip_loop(&mut self, field_type: u8, stack: &mut Vec<Frame>) -> Result<()> {
        self.skip_one(field_type, false, stack)?;
        while let Some(top) = stack.last_mut() {
            match top {
                Frame::Struct { last_id } => {
                    let mut id = *last_id;
                    match self.field_header(&mut id)? {
                        None => {
                            stack.pop();
                            self.struct_end();
                        }
                        Some((_, t)) => {
                            *last_id = id;
                            self.skip_one(t, false, stack)?;
                        }
                    }
                }
                Frame::List { elem, remaining } => {
                    if *remaining == 0 {
                        stack.pop();
                        self.struct_end();
                    } else {
                        *remaining -= 1;
                        let e = *elem;
                        self.skip_one(e, true, stack)?;
                    }
                }
                Frame::Map {
                    key,
                    value,
                    remaining,
                } => {
                    if *remaining == 0 {
                        stack.pop();
                        self.struct_end();
                    } else {
                        // Entries alternate key, value: an even count left means a key is next.
                        let t = if *remaining % 2 == 0 { *key } else { *value };
                        *remaining -= 1;
                        self.skip_one(t, true, stack)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// Skips a value of scalar type `t` (a bool inside a container, `element`, is a byte of
    /// its own); false, reading nothing, when `t` is not a scalar type.
    pub(crate) fn skip_scalar(&mut self, t: u8, element: bool) -> Result<bool> {
        match t {
            BOOL_TRUE | BOOL_FALSE => {
                if element {
                    self.bool_element()?;
                }
            }
            BYTE => {
                self.i8()?;
            }
            I16 | I32 | I64 => {
                self.varint()?;
            }
            DOUBLE => {
                self.double()?;
            }
            BINARY => {
                self.binary()?;
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Skips a scalar, or reads a container's header and pushes its frame.
    #[allow(dead_code)]
    fn skip_one(&mut self, t: u8, element: bool, stack: &mut Vec<Frame>) -> Result<()> {
        if self.skip_scalar(t, element)? {
            return Ok(());
        }
        match t {
            LIST | SET => {
                let (elem, size) = self.list_header()?;
                self.struct_begin()?;
                stack.push(Frame::List {
                    elem,
                    remaining: size as u64,
                });
            }
            MAP => {
                let (key, value, size) = self.map_header()?;
                self.struct_begin()?;
                stack.push(Frame::Map {
                    key,
                    value,
                    remaining: size as u64 * 2,
                });
            }
            STRUCT => {
                self.struct_begin()?;
                stack.push(Frame::Struct { last_id: 0 });
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

/// [`Reader::skip`] in the default builds: iterative, on a stack of frames (see
/// `thrift::skip_any`, the point of choice).
#[allow(dead_code)] // unused in builds for size
pub(crate) fn skip_iterative(r: &mut Reader<'_>, t: u8) -> Result<()> {
    r.skip_loop(t, &mut Vec::new())
}
