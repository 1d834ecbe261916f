//! A checked cursor over a byte slice.
//!
//! Every read names what it reads; if fewer bytes remain than it needs, the read returns
//! [`Error::truncated`] with that name and the offset within the slice, and never panics.
//!
//! ```
//! use parket::bytes::Cursor;
//! let mut c = Cursor::new(&[0x04, 0, 0, 0, b'a', b'b']);
//! assert_eq!(c.u32_le("length prefix").unwrap(), 4);
//! let e = c.take(4, "BYTE_ARRAY value").unwrap_err();
//! assert_eq!(e.to_string(), "truncated BYTE_ARRAY value: needed 4 bytes, 2 available (byte offset 4)");
//! ```

use crate::error::{Error, Result};

/// A position in a byte slice, with reads that check the bytes that remain.
#[derive(Debug, Clone)]
pub struct Cursor<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `buf`.
    pub fn new(buf: &'a [u8]) -> Self {
        Cursor { buf, pos: 0 }
    }

    /// Bytes read so far.
    #[inline]
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Bytes that remain.
    #[inline]
    pub fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }

    /// True when no bytes remain.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.remaining() == 0
    }

    /// The bytes that remain, without consuming them.
    #[inline]
    pub fn rest(&self) -> &'a [u8] {
        // pos <= buf.len() is an invariant of every method (`get`: no panic path to link).
        self.buf.get(self.pos..).unwrap_or(&[])
    }

    /// The whole underlying slice.
    #[inline]
    pub fn buffer(&self) -> &'a [u8] {
        self.buf
    }

    /// The error for a read of `needed` bytes of `what` that does not fit.
    #[cold]
    pub fn truncated(&self, what: &'static str, needed: usize) -> Error {
        Error::truncated(what, needed as u64, self.remaining() as u64).at_offset(self.pos as u64)
    }

    /// Consumes and returns the next `n` bytes.
    #[inline]
    pub fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8]> {
        match self.rest().get(..n) {
            Some(s) => {
                self.pos += n;
                Ok(s)
            }
            None => Err(self.truncated(what, n)),
        }
    }

    /// Skips `n` bytes.
    #[inline]
    pub fn skip(&mut self, n: usize, what: &'static str) -> Result<()> {
        self.take(n, what).map(|_| ())
    }

    /// Consumes the next `N` bytes as an array.
    #[inline]
    pub fn array<const N: usize>(&mut self, what: &'static str) -> Result<[u8; N]> {
        let s = self.take(N, what)?;
        // `take` returned exactly N bytes: the fallback is never used.
        Ok(<[u8; N]>::try_from(s).unwrap_or([0; N]))
    }

    /// One byte.
    #[inline]
    pub fn u8(&mut self, what: &'static str) -> Result<u8> {
        match self.buf.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => Err(self.truncated(what, 1)),
        }
    }

    /// A little-endian u32.
    #[inline]
    pub fn u32_le(&mut self, what: &'static str) -> Result<u32> {
        self.array::<4>(what).map(u32::from_le_bytes)
    }

    /// A little-endian i32.
    #[inline]
    pub fn i32_le(&mut self, what: &'static str) -> Result<i32> {
        self.array::<4>(what).map(i32::from_le_bytes)
    }

    /// A little-endian i64.
    #[inline]
    pub fn i64_le(&mut self, what: &'static str) -> Result<i64> {
        self.array::<8>(what).map(i64::from_le_bytes)
    }

    /// A ULEB128 varint (see [`crate::bytes::varint`]).
    #[inline]
    pub fn uleb128(&mut self, what: &'static str) -> Result<u64> {
        let (v, n) = crate::bytes::varint::decode_uleb128(self.rest())
            .map_err(|e| e.at_offset(self.pos as u64))?;
        let _ = what;
        self.pos += n;
        Ok(v)
    }

    /// A zigzag-encoded ULEB128 varint.
    #[inline]
    pub fn zigzag(&mut self, what: &'static str) -> Result<i64> {
        self.uleb128(what).map(crate::bytes::varint::zigzag_decode)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_truncation() {
        let mut c = Cursor::new(&[1, 2, 3, 4, 5]);
        assert_eq!(c.u8("a").unwrap(), 1);
        assert_eq!(c.array::<2>("b").unwrap(), [2, 3]);
        assert_eq!(c.remaining(), 2);
        assert!(c.u32_le("c").is_err());
        // A failed read consumes nothing.
        assert_eq!(c.position(), 3);
        assert_eq!(c.take(2, "d").unwrap(), &[4, 5]);
        assert!(c.is_empty());
        assert!(c.u8("e").is_err());
    }
}
