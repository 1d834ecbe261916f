//! Value containers: one enum for all eight physical types, without per-value allocation.
//!
//! Fixed-width values live in one `Vec<T>`; byte arrays live in one data buffer plus an offsets
//! vector, so a page of a million strings costs two allocations. [`Values`] owns its values;
//! [`ValuesRef`] borrows a range of them (what the writer takes, what a batch lends out).
//!
//! Floats are kept bit for bit: a NaN payload or a `-0.0` survives every container operation.
//! (The derived `PartialEq` follows IEEE rules, so `NaN != NaN`; compare with
//! [`Values::bit_eq`] when bits matter.)
//!
//! ```
//! use parket::values::{ByteArrays, Values, ValuesRef};
//! let mut names = ByteArrays::new();
//! names.push(b"ab");
//! names.push(b"");
//! names.push(b"xyz");
//! assert_eq!(names.len(), 3);
//! assert_eq!(names.get(2), Some(&b"xyz"[..]));
//! assert_eq!(names.data(), b"abxyz");        // one buffer ...
//! assert_eq!(names.offsets(), &[0, 2, 2, 5]); // ... plus n + 1 offsets
//!
//! let v = Values::ByteArray(names);
//! let tail = v.as_ref().slice(1..3);
//! assert_eq!(tail.len(), 2);
//! let ValuesRef::ByteArray(t) = tail else { unreachable!() };
//! assert_eq!(t.get(1), Some(&b"xyz"[..]));
//! ```

use alloc::vec::Vec;
use core::ops::Range;

use crate::format::PhysicalType;

/// Byte arrays stored as one buffer and `len + 1` offsets into it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ByteArrays {
    offsets: Vec<usize>,
    data: Vec<u8>,
}

impl Default for ByteArrays {
    fn default() -> Self {
        Self::new()
    }
}

impl ByteArrays {
    /// No values.
    pub fn new() -> Self {
        ByteArrays {
            offsets: alloc::vec![0],
            data: Vec::new(),
        }
    }

    /// No values, with room for `values` values of `bytes` bytes in all.
    pub fn with_capacity(values: usize, bytes: usize) -> Self {
        let mut offsets = Vec::with_capacity(values + 1);
        offsets.push(0);
        ByteArrays {
            offsets,
            data: Vec::with_capacity(bytes),
        }
    }

    /// Builds from parts. `offsets` must start at 0, never decrease and end at `data.len()`;
    /// returns `None` otherwise.
    pub fn from_parts(offsets: Vec<usize>, data: Vec<u8>) -> Option<Self> {
        let ok = offsets.first() == Some(&0)
            && offsets.last() == Some(&data.len())
            && offsets.windows(2).all(|w| w[0] <= w[1]);
        ok.then_some(ByteArrays { offsets, data })
    }

    /// The offsets (`len + 1`, from 0) and the data buffer, without a copy.
    pub fn into_parts(self) -> (Vec<usize>, Vec<u8>) {
        (self.offsets, self.data)
    }

    /// Appends one value.
    #[inline]
    pub fn push(&mut self, value: &[u8]) {
        self.data.extend_from_slice(value);
        self.offsets.push(self.data.len());
    }

    /// Number of values.
    #[inline]
    pub fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    /// True when there are no values.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Value `i`.
    #[inline]
    pub fn get(&self, i: usize) -> Option<&[u8]> {
        self.as_ref().get(i)
    }

    /// All values' bytes, back to back.
    pub fn data(&self) -> &[u8] {
        &self.data
    }

    /// The `len + 1` offsets: value `i` is `data[offsets[i]..offsets[i + 1]]`.
    pub fn offsets(&self) -> &[usize] {
        &self.offsets
    }

    /// Mutable access to the data buffer and the offsets, for decoders that fill both.
    /// The caller keeps the invariant of [`ByteArrays::from_parts`].
    pub(crate) fn parts_mut(&mut self) -> (&mut Vec<usize>, &mut Vec<u8>) {
        (&mut self.offsets, &mut self.data)
    }

    /// Removes every value, keeping the allocations.
    pub fn clear(&mut self) {
        self.offsets.truncate(1);
        self.data.clear();
    }

    /// Iterates over the values.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &[u8]> + '_ {
        self.as_ref().iter()
    }

    /// Borrows all values.
    pub fn as_ref(&self) -> ByteArraysRef<'_> {
        ByteArraysRef {
            offsets: &self.offsets,
            data: &self.data,
        }
    }

    /// Appends every value of `other`.
    pub fn extend_from(&mut self, other: ByteArraysRef<'_>) {
        let (start, end) = other.byte_range();
        let base = self.data.len();
        self.data.extend_from_slice(&other.data[start..end]);
        self.offsets
            .extend(other.offsets[1..].iter().map(|&o| o - start + base));
    }
}

impl<A: AsRef<[u8]>> FromIterator<A> for ByteArrays {
    fn from_iter<I: IntoIterator<Item = A>>(iter: I) -> Self {
        let mut b = ByteArrays::new();
        for v in iter {
            b.push(v.as_ref());
        }
        b
    }
}

/// A borrowed run of byte arrays: `offsets.len() - 1` values in `data`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ByteArraysRef<'a> {
    offsets: &'a [usize],
    data: &'a [u8],
}

impl<'a> ByteArraysRef<'a> {
    /// Number of values.
    #[inline]
    pub fn len(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    /// True when there are no values.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Value `i`.
    #[inline]
    pub fn get(&self, i: usize) -> Option<&'a [u8]> {
        let start = *self.offsets.get(i)?;
        let end = *self.offsets.get(i + 1)?;
        self.data.get(start..end)
    }

    /// Iterates over the values.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &'a [u8]> + 'a {
        let data = self.data;
        self.offsets.windows(2).map(move |w| match *w {
            [start, end] => data.get(start..end).unwrap_or(&[]),
            _ => &[],
        })
    }

    /// Values `range`.
    pub fn slice(&self, range: Range<usize>) -> ByteArraysRef<'a> {
        ByteArraysRef {
            offsets: &self.offsets[range.start..range.end + 1],
            data: self.data,
        }
    }

    /// Values `range`, or none when it is out of bounds.
    fn slice_or_empty(&self, range: Range<usize>) -> ByteArraysRef<'a> {
        let end = range.end.saturating_add(1);
        ByteArraysRef {
            offsets: self.offsets.get(range.start..end).unwrap_or(&[]),
            data: self.data,
        }
    }

    /// The offsets (`len + 1`, indexing into `data`) and the data, for decoders' inner loops.
    #[inline]
    pub(crate) fn parts(&self) -> (&'a [usize], &'a [u8]) {
        (self.offsets, self.data)
    }

    /// Total bytes of the values (without length prefixes).
    pub fn total_bytes(&self) -> usize {
        let (s, e) = self.byte_range();
        e - s
    }

    /// Where the values' bytes start and end in the data buffer.
    pub(crate) fn byte_range(&self) -> (usize, usize) {
        match (self.offsets.first(), self.offsets.last()) {
            (Some(&s), Some(&e)) => (s, e),
            _ => (0, 0),
        }
    }
}

/// Fixed-length byte arrays: `width` bytes each, back to back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FixedLenByteArrays {
    width: usize,
    data: Vec<u8>,
}

impl FixedLenByteArrays {
    /// No values of `width` bytes.
    pub fn new(width: usize) -> Self {
        FixedLenByteArrays {
            width,
            data: Vec::new(),
        }
    }

    /// Builds from a buffer whose length is a multiple of `width`; `None` otherwise.
    /// A `width` of 0 holds no values.
    pub fn from_parts(width: usize, data: Vec<u8>) -> Option<Self> {
        let ok = if width == 0 {
            data.is_empty()
        } else {
            data.len() % width == 0
        };
        ok.then_some(FixedLenByteArrays { width, data })
    }

    /// Appends one value; `None` if its length is not `width`.
    pub fn push(&mut self, value: &[u8]) -> Option<()> {
        (value.len() == self.width).then(|| self.data.extend_from_slice(value))
    }

    /// Bytes per value.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of values.
    pub fn len(&self) -> usize {
        self.as_ref().len()
    }

    /// True when there are no values.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Value `i`.
    pub fn get(&self, i: usize) -> Option<&[u8]> {
        self.as_ref().get(i)
    }

    /// All values' bytes.
    pub fn data(&self) -> &[u8] {
        &self.data
    }

    /// Mutable access to the data buffer, for decoders. The caller keeps its length a
    /// multiple of `width`.
    pub(crate) fn data_mut(&mut self) -> &mut Vec<u8> {
        &mut self.data
    }

    /// Removes every value, keeping the allocation.
    pub fn clear(&mut self) {
        self.data.clear();
    }

    /// Borrows all values.
    pub fn as_ref(&self) -> FixedLenByteArraysRef<'_> {
        FixedLenByteArraysRef {
            width: self.width,
            data: &self.data,
        }
    }
}

/// A borrowed run of fixed-length byte arrays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FixedLenByteArraysRef<'a> {
    width: usize,
    data: &'a [u8],
}

impl<'a> FixedLenByteArraysRef<'a> {
    /// Borrows `data` as values of `width` bytes; `None` unless the length is a multiple.
    pub fn new(width: usize, data: &'a [u8]) -> Option<Self> {
        let ok = if width == 0 {
            data.is_empty()
        } else {
            data.len() % width == 0
        };
        ok.then_some(FixedLenByteArraysRef { width, data })
    }

    /// Bytes per value.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of values.
    pub fn len(&self) -> usize {
        self.data.len().checked_div(self.width).unwrap_or(0)
    }

    /// True when there are no values.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Value `i`.
    pub fn get(&self, i: usize) -> Option<&'a [u8]> {
        let start = i.checked_mul(self.width)?;
        self.data.get(start..start.checked_add(self.width)?)
    }

    /// All values' bytes.
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// Iterates over the values.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &'a [u8]> + 'a {
        let (w, d) = (self.width.max(1), self.data);
        let n = self.len();
        (0..n).map(move |i| &d[i * w..(i + 1) * w])
    }

    /// Values `range`.
    pub fn slice(&self, range: Range<usize>) -> FixedLenByteArraysRef<'a> {
        FixedLenByteArraysRef {
            width: self.width,
            data: &self.data[range.start * self.width..range.end * self.width],
        }
    }

    /// Values `range`, or none when it is out of bounds.
    fn slice_or_empty(&self, range: Range<usize>) -> FixedLenByteArraysRef<'a> {
        let w = self.width;
        let bytes = range.start.saturating_mul(w)..range.end.saturating_mul(w);
        FixedLenByteArraysRef {
            width: w,
            data: self.data.get(bytes).unwrap_or(&[]),
        }
    }
}

/// An INT96 value as stored: 12 bytes, little-endian. Legacy timestamps put nanoseconds of the
/// day in the first 8 bytes and the Julian day number in the last 4.
pub type Int96 = [u8; 12];

/// Owned values of one physical type.
#[derive(Debug, Clone, PartialEq)]
pub enum Values {
    /// BOOLEAN.
    Boolean(Vec<bool>),
    /// INT32.
    Int32(Vec<i32>),
    /// INT64.
    Int64(Vec<i64>),
    /// INT96.
    Int96(Vec<Int96>),
    /// FLOAT.
    Float(Vec<f32>),
    /// DOUBLE.
    Double(Vec<f64>),
    /// BYTE_ARRAY.
    ByteArray(ByteArrays),
    /// FIXED_LEN_BYTE_ARRAY.
    FixedLenByteArray(FixedLenByteArrays),
}

/// Borrowed values of one physical type.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ValuesRef<'a> {
    /// BOOLEAN.
    Boolean(&'a [bool]),
    /// INT32.
    Int32(&'a [i32]),
    /// INT64.
    Int64(&'a [i64]),
    /// INT96.
    Int96(&'a [Int96]),
    /// FLOAT.
    Float(&'a [f32]),
    /// DOUBLE.
    Double(&'a [f64]),
    /// BYTE_ARRAY.
    ByteArray(ByteArraysRef<'a>),
    /// FIXED_LEN_BYTE_ARRAY.
    FixedLenByteArray(FixedLenByteArraysRef<'a>),
}

impl Values {
    /// Empty values of `physical_type`; `type_length` is the width of FIXED_LEN_BYTE_ARRAY.
    pub fn new(physical_type: PhysicalType, type_length: usize) -> Self {
        match physical_type {
            PhysicalType::Boolean => Values::Boolean(Vec::new()),
            PhysicalType::Int32 => Values::Int32(Vec::new()),
            PhysicalType::Int64 => Values::Int64(Vec::new()),
            PhysicalType::Int96 => Values::Int96(Vec::new()),
            PhysicalType::Float => Values::Float(Vec::new()),
            PhysicalType::Double => Values::Double(Vec::new()),
            PhysicalType::ByteArray => Values::ByteArray(ByteArrays::new()),
            PhysicalType::FixedLenByteArray => {
                Values::FixedLenByteArray(FixedLenByteArrays::new(type_length))
            }
        }
    }

    /// The physical type.
    pub fn physical_type(&self) -> PhysicalType {
        self.as_ref().physical_type()
    }

    /// Number of values.
    pub fn len(&self) -> usize {
        self.as_ref().len()
    }

    /// True when there are no values.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Makes room for `n` more values (and, for BYTE_ARRAY, `bytes` more bytes of data) at
    /// once, fallibly (through the crate's one reservation: amortized growth, else exactly
    /// the room asked for): a size that comes from a file
    /// and does not fit in memory becomes an error naming the bytes asked for, not an abort.
    ///
    /// ```
    /// use parket::values::Values;
    /// use parket::format::PhysicalType;
    /// let mut v = Values::new(PhysicalType::Int64, 0);
    /// v.try_reserve(1000, 0).unwrap();
    /// let e = v.try_reserve(usize::MAX / 16, 0).unwrap_err();
    /// assert!(e.to_string().starts_with("cannot allocate "), "{e}");
    /// ```
    pub fn try_reserve(&mut self, n: usize, bytes: usize) -> crate::error::Result<()> {
        fn grow<T>(v: &mut Vec<T>, n: usize) -> crate::error::Result<()> {
            crate::limits::reserve(v, n, "the values of a page")
        }
        match self {
            Values::Boolean(v) => grow(v, n),
            Values::Int32(v) => grow(v, n),
            Values::Int64(v) => grow(v, n),
            Values::Int96(v) => grow(v, n),
            Values::Float(v) => grow(v, n),
            Values::Double(v) => grow(v, n),
            Values::ByteArray(v) => grow(&mut v.offsets, n).and_then(|()| grow(&mut v.data, bytes)),
            Values::FixedLenByteArray(v) => grow(&mut v.data, n.saturating_mul(v.width)),
        }
    }

    /// Removes every value, keeping the allocations.
    pub fn clear(&mut self) {
        match self {
            Values::Boolean(v) => v.clear(),
            Values::Int32(v) => v.clear(),
            Values::Int64(v) => v.clear(),
            Values::Int96(v) => v.clear(),
            Values::Float(v) => v.clear(),
            Values::Double(v) => v.clear(),
            Values::ByteArray(v) => v.clear(),
            Values::FixedLenByteArray(v) => v.clear(),
        }
    }

    /// Borrows all values.
    pub fn as_ref(&self) -> ValuesRef<'_> {
        match self {
            Values::Boolean(v) => ValuesRef::Boolean(v),
            Values::Int32(v) => ValuesRef::Int32(v),
            Values::Int64(v) => ValuesRef::Int64(v),
            Values::Int96(v) => ValuesRef::Int96(v),
            Values::Float(v) => ValuesRef::Float(v),
            Values::Double(v) => ValuesRef::Double(v),
            Values::ByteArray(v) => ValuesRef::ByteArray(v.as_ref()),
            Values::FixedLenByteArray(v) => ValuesRef::FixedLenByteArray(v.as_ref()),
        }
    }

    /// Appends `other`; returns `false` (and appends nothing) when the physical types (or the
    /// FIXED_LEN_BYTE_ARRAY widths) differ.
    pub fn extend_from(&mut self, other: ValuesRef<'_>) -> bool {
        match (self, other) {
            (Values::Boolean(a), ValuesRef::Boolean(b)) => a.extend_from_slice(b),
            (Values::Int32(a), ValuesRef::Int32(b)) => a.extend_from_slice(b),
            (Values::Int64(a), ValuesRef::Int64(b)) => a.extend_from_slice(b),
            (Values::Int96(a), ValuesRef::Int96(b)) => a.extend_from_slice(b),
            (Values::Float(a), ValuesRef::Float(b)) => a.extend_from_slice(b),
            (Values::Double(a), ValuesRef::Double(b)) => a.extend_from_slice(b),
            (Values::ByteArray(a), ValuesRef::ByteArray(b)) => a.extend_from(b),
            (Values::FixedLenByteArray(a), ValuesRef::FixedLenByteArray(b))
                if a.width == b.width =>
            {
                a.data.extend_from_slice(b.data)
            }
            _ => return false,
        }
        true
    }

    /// Equality that compares floats bit for bit (NaN payloads and the sign of zero count).
    pub fn bit_eq(&self, other: &Values) -> bool {
        self.as_ref().bit_eq(&other.as_ref())
    }
}

impl<'a> ValuesRef<'a> {
    /// The physical type.
    pub fn physical_type(&self) -> PhysicalType {
        match self {
            ValuesRef::Boolean(_) => PhysicalType::Boolean,
            ValuesRef::Int32(_) => PhysicalType::Int32,
            ValuesRef::Int64(_) => PhysicalType::Int64,
            ValuesRef::Int96(_) => PhysicalType::Int96,
            ValuesRef::Float(_) => PhysicalType::Float,
            ValuesRef::Double(_) => PhysicalType::Double,
            ValuesRef::ByteArray(_) => PhysicalType::ByteArray,
            ValuesRef::FixedLenByteArray(_) => PhysicalType::FixedLenByteArray,
        }
    }

    /// Number of values.
    pub fn len(&self) -> usize {
        match self {
            ValuesRef::Boolean(v) => v.len(),
            ValuesRef::Int32(v) => v.len(),
            ValuesRef::Int64(v) => v.len(),
            ValuesRef::Int96(v) => v.len(),
            ValuesRef::Float(v) => v.len(),
            ValuesRef::Double(v) => v.len(),
            ValuesRef::ByteArray(v) => v.len(),
            ValuesRef::FixedLenByteArray(v) => v.len(),
        }
    }

    /// True when there are no values.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Values `range`. Panics if the range is out of bounds, like slice indexing.
    pub fn slice(&self, range: Range<usize>) -> ValuesRef<'a> {
        match *self {
            ValuesRef::Boolean(v) => ValuesRef::Boolean(&v[range]),
            ValuesRef::Int32(v) => ValuesRef::Int32(&v[range]),
            ValuesRef::Int64(v) => ValuesRef::Int64(&v[range]),
            ValuesRef::Int96(v) => ValuesRef::Int96(&v[range]),
            ValuesRef::Float(v) => ValuesRef::Float(&v[range]),
            ValuesRef::Double(v) => ValuesRef::Double(&v[range]),
            ValuesRef::ByteArray(v) => ValuesRef::ByteArray(v.slice(range)),
            ValuesRef::FixedLenByteArray(v) => ValuesRef::FixedLenByteArray(v.slice(range)),
        }
    }

    /// [`ValuesRef::slice`] for ranges known to be in bounds (the readers'), without a panic
    /// path: an out-of-bounds range gives no values of the same type.
    pub(crate) fn slice_or_empty(&self, range: Range<usize>) -> ValuesRef<'a> {
        match *self {
            ValuesRef::Boolean(v) => ValuesRef::Boolean(v.get(range).unwrap_or(&[])),
            ValuesRef::Int32(v) => ValuesRef::Int32(v.get(range).unwrap_or(&[])),
            ValuesRef::Int64(v) => ValuesRef::Int64(v.get(range).unwrap_or(&[])),
            ValuesRef::Int96(v) => ValuesRef::Int96(v.get(range).unwrap_or(&[])),
            ValuesRef::Float(v) => ValuesRef::Float(v.get(range).unwrap_or(&[])),
            ValuesRef::Double(v) => ValuesRef::Double(v.get(range).unwrap_or(&[])),
            ValuesRef::ByteArray(v) => ValuesRef::ByteArray(v.slice_or_empty(range)),
            ValuesRef::FixedLenByteArray(v) => {
                ValuesRef::FixedLenByteArray(v.slice_or_empty(range))
            }
        }
    }

    /// Copies into owned [`Values`].
    pub fn to_owned(&self) -> Values {
        let (pt, width) = match self {
            ValuesRef::FixedLenByteArray(v) => (PhysicalType::FixedLenByteArray, v.width),
            other => (other.physical_type(), 0),
        };
        let mut out = Values::new(pt, width);
        out.extend_from(*self);
        out
    }

    /// Equality that compares floats bit for bit.
    pub fn bit_eq(&self, other: &ValuesRef<'_>) -> bool {
        match (self, other) {
            (ValuesRef::Float(a), ValuesRef::Float(b)) => {
                a.len() == b.len() && a.iter().zip(*b).all(|(x, y)| x.to_bits() == y.to_bits())
            }
            (ValuesRef::Double(a), ValuesRef::Double(b)) => {
                a.len() == b.len() && a.iter().zip(*b).all(|(x, y)| x.to_bits() == y.to_bits())
            }
            (a, b) => a == b,
        }
    }
}

/// The striped form of one leaf column: levels and the non-null values.
///
/// `def_levels` is empty when the column's `max_def_level` is 0 (every value present), and
/// `rep_levels` is empty when `max_rep_level` is 0. Otherwise both level vectors that exist
/// have one entry per level position, and `values` holds one value per position whose
/// definition level equals `max_def_level`.
#[derive(Debug, Clone, PartialEq)]
pub struct LeafData {
    /// Definition levels.
    pub def_levels: Vec<u16>,
    /// Repetition levels.
    pub rep_levels: Vec<u16>,
    /// Non-null values.
    pub values: Values,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_arrays_slice_and_extend() {
        let a: ByteArrays = ["x", "", "yy", "zzz"].into_iter().collect();
        let mut b = ByteArrays::new();
        b.push(b"q");
        b.extend_from(a.as_ref().slice(2..4));
        assert_eq!(b.offsets(), &[0, 1, 3, 6]);
        assert_eq!(b.data(), b"qyyzzz");
        assert!(ByteArrays::from_parts(alloc::vec![0, 3, 2], alloc::vec![0; 3]).is_none());
    }

    #[test]
    fn floats_compare_bitwise() {
        let a = Values::Double(alloc::vec![f64::NAN, -0.0]);
        let b = Values::Double(alloc::vec![f64::NAN, 0.0]);
        assert!(a.bit_eq(&a.clone()));
        assert!(!a.bit_eq(&b));
        let mut c = Values::new(PhysicalType::Double, 0);
        assert!(c.extend_from(a.as_ref().slice(0..1)));
        assert!(!c.extend_from(ValuesRef::Int32(&[1])));
        assert_eq!(c.len(), 1);
    }

    #[test]
    fn fixed_len() {
        let f = FixedLenByteArrays::from_parts(2, alloc::vec![1, 2, 3, 4]).unwrap();
        assert_eq!(f.len(), 2);
        assert_eq!(f.get(1), Some(&[3u8, 4][..]));
        assert_eq!(f.get(2), None);
        assert!(FixedLenByteArrays::from_parts(3, alloc::vec![1, 2]).is_none());
        assert_eq!(f.as_ref().iter().count(), 2);
    }
}
