//! The compact-protocol writer over `Vec<u8>`.
//!
//! Spec: Thrift compact protocol (see [`crate::thrift`]). Field headers use the short form
//! (`delta << 4 | type`) when the id is 1..=15 above the previous one, and the long form
//! (`type`, then the id as a zigzag varint i16) otherwise. Bool list elements are written as one
//! byte, 1 for true and 2 for false, as the Java and C++ implementations write them (their
//! readers and the protocol document's reading rules accept that).
//!
//! Worked example: field 20 of type i64 right after field 1, value -2:
//!
//! ```text
//! 06 28   long form: type 6 = I64, then zigzag(20) = 40 = 0x28
//! 03      zigzag(-2) = 3
//! ```
//!
//! ```
//! use parket::thrift::{Writer, I64};
//! let mut out = Vec::new();
//! let mut w = Writer::new(&mut out);
//! let saved = w.struct_begin();
//! w.field_header(1, I64);
//! w.i64(0);
//! w.field_header(20, I64);
//! w.i64(-2);
//! w.struct_end(saved);
//! assert_eq!(out, [0x16, 0x00, 0x06, 0x28, 0x03, 0x00]);
//! ```

use alloc::vec::Vec;

use super::{BOOL_FALSE, BOOL_TRUE};
use crate::bytes::varint::{encode_uleb128, zigzag_encode};

/// A compact-protocol writer appending to a `Vec<u8>`.
#[derive(Debug)]
pub struct Writer<'a> {
    out: &'a mut Vec<u8>,
    last_id: i16,
}

impl<'a> Writer<'a> {
    /// A writer appending to `out`.
    pub fn new(out: &'a mut Vec<u8>) -> Self {
        Writer { out, last_id: 0 }
    }

    /// Starts a struct; returns the enclosing struct's last field id, for [`Writer::struct_end`].
    pub fn struct_begin(&mut self) -> i16 {
        core::mem::replace(&mut self.last_id, 0)
    }

    /// Writes the stop field and restores the enclosing struct's last field id.
    pub fn struct_end(&mut self, saved: i16) {
        self.out.push(0);
        self.last_id = saved;
    }

    /// A field header: short form when the id is 1..=15 above the previous one.
    pub fn field_header(&mut self, id: i16, field_type: u8) {
        let delta = i32::from(id) - i32::from(self.last_id);
        if (1..=15).contains(&delta) {
            self.out.push(((delta as u8) << 4) | field_type);
        } else {
            self.out.push(field_type);
            self.i16(id);
        }
        self.last_id = id;
    }

    /// A bool field: the value goes in the header's type nibble.
    pub fn bool_field(&mut self, id: i16, v: bool) {
        self.field_header(id, if v { BOOL_TRUE } else { BOOL_FALSE });
    }

    /// A bool list element: one byte.
    pub fn bool_element(&mut self, v: bool) {
        self.out.push(if v { BOOL_TRUE } else { BOOL_FALSE });
    }

    /// An unsigned varint.
    pub fn varint(&mut self, v: u64) {
        encode_uleb128(v, self.out);
    }

    /// A `byte`.
    pub fn i8(&mut self, v: i8) {
        self.out.push(v as u8);
    }

    /// An `i16` (zigzag varint).
    pub fn i16(&mut self, v: i16) {
        self.varint(zigzag_encode(v.into()));
    }

    /// An `i32` (zigzag varint).
    pub fn i32(&mut self, v: i32) {
        self.varint(zigzag_encode(v.into()));
    }

    /// An `i64` (zigzag varint).
    pub fn i64(&mut self, v: i64) {
        self.varint(zigzag_encode(v));
    }

    /// A `double`, 8 bytes little-endian.
    pub fn double(&mut self, v: f64) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }

    /// A `binary` or `string`: varint length, then the bytes.
    pub fn binary(&mut self, v: &[u8]) {
        self.varint(v.len() as u64);
        self.out.extend_from_slice(v);
    }

    /// A list header: short form for sizes up to 14.
    pub fn list_header(&mut self, elem_type: u8, size: usize) {
        if size < 15 {
            self.out.push(((size as u8) << 4) | elem_type);
        } else {
            self.out.push(0xf0 | elem_type);
            self.varint(size as u64);
        }
    }

    /// A map header.
    pub fn map_header(&mut self, key_type: u8, value_type: u8, size: usize) {
        self.varint(size as u64);
        if size > 0 {
            self.out.push((key_type << 4) | value_type);
        }
    }
}
