//! The Variant metadata: a dictionary of the field names that a value's objects refer to by id.
//!
//! Spec: VariantEncoding.md, "Metadata encoding":
//!
//! ```text
//! metadata: <header> <dictionary_size> <offset>{dictionary_size + 1} <bytes>
//! header:   version (bits 0-3, must be 1) | sorted_strings << 4 | (offset_size - 1) << 6
//! ```
//!
//! `dictionary_size` and every offset are `offset_size` bytes, little-endian; offsets count from
//! the start of `bytes`, the first is 0 and the last is the length of `bytes`. With
//! `sorted_strings` set, the strings are unique and in byte order, so a name can be found by
//! binary search; without it, they may be in any order and repeat.
//!
//! Worked example (the dictionary `["a", "bc"]`, sorted, 1-byte offsets):
//!
//! ```text
//! 11        header: version 1, sorted_strings 1, offset_size 1
//! 02        dictionary_size 2
//! 00 01 03  offsets: "a" is bytes[0..1], "bc" is bytes[1..3]
//! 61 62 63  bytes "abc"
//! ```
//!
//! ```
//! use parket::variant::Metadata;
//! let m = Metadata::decode(&[0x11, 0x02, 0x00, 0x01, 0x03, b'a', b'b', b'c'])?;
//! assert_eq!((m.len(), m.is_sorted()), (2, true));
//! assert_eq!(m.get(1)?, "bc");
//! assert_eq!(m.find("bc"), Some(1));
//! # Ok::<(), parket::Error>(())
//! ```

use crate::error::{Error, Result};

/// A decoded metadata dictionary, borrowing its bytes.
///
/// [`Metadata::decode`] checks the whole dictionary once (header, every offset in order and in
/// bounds, every string valid UTF-8, and the order that `sorted_strings` promises), so lookups
/// afterwards cannot fail on a well-formed id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Metadata<'a> {
    bytes: &'a [u8],
    offset_size: usize,
    len: usize,
    sorted: bool,
    /// Where `bytes` (the strings) start.
    strings: usize,
    /// The length of the encoded metadata (header to the end of the last string).
    encoded_len: usize,
}

/// Reads an unsigned little-endian integer of `size` (1 to 4) bytes at `pos`.
pub(crate) fn read_uint(buf: &[u8], pos: usize, size: usize, what: &'static str) -> Result<usize> {
    let end = pos.checked_add(size);
    match end.and_then(|end| buf.get(pos..end)) {
        Some(b) => Ok(b
            .iter()
            .rev()
            .fold(0usize, |acc, &x| (acc << 8) | usize::from(x))),
        None => Err(
            Error::truncated(what, size as u64, buf.len().saturating_sub(pos) as u64)
                .at_offset(pos as u64),
        ),
    }
}

impl<'a> Metadata<'a> {
    /// Decodes and checks the metadata at the start of `bytes`; bytes after its end (the last
    /// offset) are ignored, and [`Metadata::encoded_len`] says where it ended.
    ///
    /// Never panics, for any input; allocates nothing; reads each byte of the dictionary once
    /// (twice for the order check of a sorted one).
    pub fn decode(bytes: &'a [u8]) -> Result<Metadata<'a>> {
        let header = *bytes
            .first()
            .ok_or_else(|| Error::truncated("Variant metadata header", 1, 0))?;
        if header & 0x0f != 1 {
            return Err(Error::out_of_range(
                "Variant metadata version (must be 1)",
                i64::from(header & 0x0f),
            )
            .at_offset(0));
        }
        let sorted = header & 0x10 != 0;
        let offset_size = usize::from(header >> 6) + 1;
        let len = read_uint(bytes, 1, offset_size, "Variant metadata dictionary_size")?;
        let offsets = 1 + offset_size;
        // Spec: dictionary_size + 1 offsets follow; check they fit before reading any.
        let table = len
            .checked_add(1)
            .and_then(|n| n.checked_mul(offset_size))
            .filter(|&t| t <= bytes.len() - offsets)
            .ok_or_else(|| {
                Error::truncated(
                    "Variant metadata offsets",
                    (len as u64 + 1) * offset_size as u64,
                    (bytes.len() - offsets) as u64,
                )
                .at_offset(offsets as u64)
            })?;
        let strings = offsets + table;
        let m = Metadata {
            bytes,
            offset_size,
            len,
            sorted,
            strings,
            encoded_len: 0,
        };
        if m.offset(0)? != 0 {
            return Err(
                Error::out_of_spec("Variant metadata: the first offset is not 0")
                    .at_offset(offsets as u64),
            );
        }
        let mut prev: Option<&str> = None;
        for i in 0..len {
            let s = m.string_at(i)?;
            if sorted {
                if let Some(p) = prev {
                    if p.as_bytes() >= s.as_bytes() {
                        return Err(Error::out_of_spec(
                            "Variant metadata: sorted_strings is set but the strings are not \
                             unique and in byte order",
                        )
                        .at_offset(m.offset_pos(i) as u64));
                    }
                }
                prev = Some(s);
            }
        }
        let encoded_len = strings + m.offset(len)?;
        Ok(Metadata { encoded_len, ..m })
    }

    fn offset_pos(&self, i: usize) -> usize {
        1 + self.offset_size * (i + 1)
    }

    fn offset(&self, i: usize) -> Result<usize> {
        read_uint(
            self.bytes,
            self.offset_pos(i),
            self.offset_size,
            "Variant metadata offset",
        )
    }

    /// String `i`, checking its offsets (used by `decode`, which checks them all once).
    fn string_at(&self, i: usize) -> Result<&'a str> {
        let (start, end) = (self.offset(i)?, self.offset(i + 1)?);
        if end < start {
            return Err(Error::out_of_spec("Variant metadata: offsets decrease")
                .at_offset(self.offset_pos(i + 1) as u64));
        }
        let at = self.strings + start;
        let b = self.bytes.get(at..self.strings + end).ok_or_else(|| {
            Error::truncated(
                "Variant metadata string",
                (end - start) as u64,
                self.bytes.len().saturating_sub(at) as u64,
            )
            .at_offset(at as u64)
        })?;
        core::str::from_utf8(b).map_err(|_| {
            Error::out_of_spec("Variant metadata: a string is not valid UTF-8").at_offset(at as u64)
        })
    }

    /// The number of strings (`dictionary_size`).
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when the dictionary holds no strings.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether `sorted_strings` is set (and, `decode` checked, true).
    pub fn is_sorted(&self) -> bool {
        self.sorted
    }

    /// The length in bytes of the encoded metadata.
    pub fn encoded_len(&self) -> usize {
        self.encoded_len
    }

    /// The encoded metadata's bytes.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes.get(..self.encoded_len).unwrap_or(self.bytes)
    }

    /// The string with dictionary id `id`; an id past the dictionary is an error.
    pub fn get(&self, id: usize) -> Result<&'a str> {
        if id >= self.len {
            return Err(Error::out_of_range(
                "Variant field id (not in the metadata dictionary)",
                id as i64,
            ));
        }
        self.string_at(id)
    }

    /// The id of `name`: by binary search when the dictionary is sorted, else the first match.
    pub fn find(&self, name: &str) -> Option<usize> {
        if self.sorted {
            let (mut lo, mut hi) = (0, self.len);
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                match self.string_at(mid).ok()?.as_bytes().cmp(name.as_bytes()) {
                    core::cmp::Ordering::Less => lo = mid + 1,
                    core::cmp::Ordering::Greater => hi = mid,
                    core::cmp::Ordering::Equal => return Some(mid),
                }
            }
            None
        } else {
            (0..self.len).find(|&i| self.string_at(i).ok() == Some(name))
        }
    }

    /// The strings in id order.
    pub fn iter(&self) -> impl Iterator<Item = Result<&'a str>> + '_ {
        (0..self.len).map(|i| self.string_at(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use alloc::vec::Vec;

    #[test]
    fn every_offset_size_reads_the_same_dictionary() {
        // ["b", "a", "b"] unsorted (repeats allowed), with 1-, 2-, 3- and 4-byte offsets:
        // header = 0x01 | (size - 1) << 6; size, then 4 offsets 0,1,2,3 in `size` bytes each.
        for size in 1..=4usize {
            let mut m = vec![0x01 | ((size as u8 - 1) << 6)];
            for v in [3usize, 0, 1, 2, 3] {
                m.extend_from_slice(&v.to_le_bytes()[..size]);
            }
            m.extend_from_slice(b"bab");
            let d = Metadata::decode(&m).unwrap();
            assert_eq!(d.len(), 3);
            assert!(!d.is_sorted());
            let all: Vec<&str> = d.iter().map(|s| s.unwrap()).collect();
            assert_eq!(all, ["b", "a", "b"]);
            assert_eq!(d.find("b"), Some(0));
            assert_eq!(d.find("a"), Some(1));
            assert_eq!(d.find("c"), None);
            assert_eq!(d.encoded_len(), m.len());
        }
    }

    #[test]
    fn sorted_lookup_and_the_empty_dictionary() {
        // 0x11: version 1, sorted; ["a", "b", "c"].
        let m = Metadata::decode(&[0x11, 3, 0, 1, 2, 3, b'a', b'b', b'c', 0xff]).unwrap();
        assert_eq!(m.find("a"), Some(0));
        assert_eq!(m.find("c"), Some(2));
        assert_eq!(m.find("bb"), None);
        assert_eq!(
            m.encoded_len(),
            9,
            "the trailing 0xff is not the metadata's"
        );
        // The spec's empty metadata: 01 00 00 (version 1, size 0, one offset 0).
        let e = Metadata::decode(&[0x01, 0x00, 0x00]).unwrap();
        assert!(e.is_empty());
        assert!(e.get(0).is_err());
    }

    #[test]
    fn bad_metadata_is_a_located_error() {
        let cases: &[(&[u8], &str)] = &[
            (
                &[],
                "truncated Variant metadata header: needed 1 bytes, 0 available",
            ),
            (
                &[0x02, 0, 0],
                "Variant metadata version (must be 1) out of range: 2 (byte offset 0)",
            ),
            (
                &[0x01, 5, 0],
                "truncated Variant metadata offsets: needed 6 bytes, 1 available (byte offset 2)",
            ),
            (
                &[0x01, 1, 1, 1, b'a'],
                "Variant metadata: the first offset is not 0 (byte offset 2)",
            ),
            (
                &[0x01, 2, 0, 2, 1, b'a', b'b'],
                "Variant metadata: offsets decrease (byte offset 4)",
            ),
            (
                &[0x01, 1, 0, 3, b'a'],
                "truncated Variant metadata string: needed 3 bytes, 1 available (byte offset 4)",
            ),
            (
                &[0x01, 1, 0, 1, 0xff],
                "Variant metadata: a string is not valid UTF-8 (byte offset 4)",
            ),
            (
                &[0x11, 2, 0, 1, 2, b'b', b'a'],
                "Variant metadata: sorted_strings is set but the strings are not unique and in \
                 byte order (byte offset 3)",
            ),
            (
                &[0x11, 2, 0, 1, 2, b'a', b'a'],
                "Variant metadata: sorted_strings is set but the strings are not unique and in \
                 byte order (byte offset 3)",
            ),
        ];
        for (bytes, want) in cases {
            let e = Metadata::decode(bytes).unwrap_err();
            assert!(
                e.to_string().contains(want),
                "{bytes:x?}: {e} (want {want})"
            );
        }
    }
}
