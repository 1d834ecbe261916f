//! Dictionary encoding (`PLAIN_DICTIONARY = 2`, deprecated, and `RLE_DICTIONARY = 8`).
//!
//! Spec: Encodings.md, "Dictionary Encoding (PLAIN_DICTIONARY = 2 and RLE_DICTIONARY = 8)":
//!
//! > Dictionary page format: the entries in the dictionary using the plain encoding.
//! >
//! > Data page format: the bit width used to encode the entry ids stored as 1 byte (max bit
//! > width = 32), followed by the values encoded using the RLE/Bit-Packing described above
//! > (with the given bit width).
//!
//! ```text
//! dictionary page := <entry>*                    PLAIN (crate::encoding::plain)
//! data page       := <bit width: 1 byte> <rle-bit-packed-hybrid without length>
//! ```
//!
//! Both enum values mean the same bytes; `PLAIN_DICTIONARY` was also (ab)used for the
//! dictionary page itself by old writers. If the dictionary grows too big the writer falls back
//! to another encoding (PLAIN) for the rest of the column chunk: [`DictionaryEncoder::put`]
//! says how many values fitted.
//!
//! Worked example: the INT32 values `7, 7, 9, 7` make the dictionary `[7, 9]` (a PLAIN page
//! `07 00 00 00 09 00 00 00`) and the indices `0, 0, 1, 0`:
//!
//! ```text
//! 01        bit width: 2 entries need 1 bit
//! 03        bit-packed-header: one group of 8
//! 04        0, 0, 1, 0 and four padding zeros, 1 bit each, LSB first: 0b0000_0100
//! ```
//!
//! ```
//! use parket::encoding::dictionary::{self, DictionaryEncoder};
//! use parket::format::PhysicalType;
//! use parket::values::{Values, ValuesRef};
//! let mut enc = DictionaryEncoder::new(PhysicalType::Int32, 0, 1 << 20).unwrap();
//! assert_eq!(enc.put(ValuesRef::Int32(&[7, 7, 9, 7])).unwrap(), 4);
//! assert_eq!(enc.dictionary(), &Values::Int32(vec![7, 9]));
//! let mut page = Vec::new();
//! dictionary::encode_indices(enc.indices(), enc.len(), &mut page);
//! assert_eq!(page, [0x01, 0x03, 0x04]);
//!
//! let mut indices = Vec::new();
//! assert_eq!(dictionary::decode_indices(&page, 4, &mut indices).unwrap(), 3);
//! let mut values = Values::Int32(Vec::new());
//! dictionary::gather(enc.dictionary().as_ref(), &indices, &mut values).unwrap();
//! assert_eq!(values, Values::Int32(vec![7, 7, 9, 7]));
//! ```
//!
//! Seen in the wild: a bit width of 0 (every index is 0, one-entry dictionaries) written by
//! Polars as a bit-packed run with no payload (`bad_data/ARROW-GH-43605.parquet`) is valid;
//! older Arrow readers rejected it, so the encoder writes at least 1 bit. A bit width of 254
//! (`bad_data/ARROW-GH-41321.parquet`) is an error.

use alloc::borrow::Cow;
use alloc::vec::Vec;

use crate::bytes::{extend_block, Cursor, SHORT};
use crate::encoding::rle;
use crate::error::{Error, Result};
use crate::format::PhysicalType;
use crate::values::{ByteArrays, ByteArraysRef, FixedLenByteArrays, Values, ValuesRef};

/// Decodes `num_values` dictionary indices (a 1-byte bit width, then the RLE/bit-packing
/// hybrid without length prefix), appending to `out`; returns the bytes consumed.
///
/// Never panics, for any input. Errors on a bit width above 32 and on anything
/// [`rle::decode_u32`] rejects. With `num_values == 0`, an empty input is accepted.
pub fn decode_indices(input: &[u8], num_values: usize, out: &mut Vec<u32>) -> Result<usize> {
    if num_values == 0 && input.is_empty() {
        return Ok(0);
    }
    let mut c = Cursor::new(input);
    let bit_width = c.u8("dictionary indices bit width")?;
    // Spec: "the bit width used to encode the entry ids stored as 1 byte (max bit width = 32)".
    if bit_width > 32 {
        return Err(
            Error::out_of_range("dictionary indices bit width", bit_width as i64).at_offset(0),
        );
    }
    let used =
        rle::decode_u32(c.rest(), bit_width as u32, num_values, out).map_err(|e| e.offset_by(1))?;
    Ok(1 + used)
}

/// Appends the data page encoding of `indices` into a dictionary of `num_dict_values`
/// entries: the bit width byte, then the hybrid. The width is the bits of the largest possible
/// index, at least 1 (see the module docs).
pub fn encode_indices(indices: &[u32], num_dict_values: usize, out: &mut Vec<u8>) {
    let bit_width = if num_dict_values == 0 {
        0
    } else {
        rle::bit_width(num_dict_values as u64 - 1).clamp(1, 32)
    };
    out.push(bit_width as u8);
    rle::encode_u32(indices, bit_width, out);
}

/// The error for an index at or beyond the dictionary's end.
#[cold]
pub(crate) fn bad_index(index: u32, len: usize) -> Error {
    if len == 0 {
        Error::out_of_spec("dictionary index into an empty dictionary")
    } else {
        // "dictionary index of 5 exceeds the limit of 4": names the index and (as the largest
        // valid index) the dictionary's size.
        Error::limit("dictionary index", index as u64, len as u64 - 1)
    }
}

/// Appends `dictionary[i]` for each of `indices` to `out` (whose type, and width for
/// FIXED_LEN_BYTE_ARRAY, must match the dictionary's).
///
/// Never panics. The indices are validated once (their maximum) before anything is copied;
/// an index at or beyond the dictionary's length is an error naming it, and nothing is
/// appended. Allocation is exactly the output: for byte arrays, that can be far more than the
/// encoded page (a long string repeated through 1-bit indices), so the page layer bounds
/// `indices.len()` and the dictionary size.
pub fn gather(dictionary: ValuesRef<'_>, indices: &[u32], out: &mut Values) -> Result<()> {
    gather_dict(Dict::from(dictionary), indices, out)
}

/// A dictionary as the gathers read it: decoded values, or BYTE_ARRAY entries where they
/// lie (in a [`ByteArrays`], or in the PLAIN dictionary page itself).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Dict<'a> {
    Values(ValuesRef<'a>),
    Bytes(Entries<'a>),
}

impl<'a> From<ValuesRef<'a>> for Dict<'a> {
    fn from(v: ValuesRef<'a>) -> Self {
        match v {
            ValuesRef::ByteArray(b) => Dict::Bytes(Entries::from(b)),
            v => Dict::Values(v),
        }
    }
}

impl Dict<'_> {
    /// Number of entries.
    pub(crate) fn len(&self) -> usize {
        match self {
            Dict::Values(v) => v.len(),
            Dict::Bytes(e) => e.len(),
        }
    }

    /// Bytes of the longest BYTE_ARRAY entry (0 for other types): with the number of values,
    /// it bounds what gathering a page can copy.
    pub(crate) fn longest(&self) -> usize {
        match self {
            Dict::Values(_) => 0,
            Dict::Bytes(e) => e.longest(),
        }
    }

    /// The physical type of the entries.
    fn physical_type(&self) -> PhysicalType {
        match self {
            Dict::Values(v) => v.physical_type(),
            Dict::Bytes(_) => PhysicalType::ByteArray,
        }
    }
}

/// BYTE_ARRAY dictionary entries: entry `i` is `data[offsets[i] + gap..offsets[i + 1]]`.
///
/// With a gap of 0 these are a [`ByteArrays`]' parts. With a gap of 4 they are a PLAIN
/// dictionary page as it is, `offsets` marking each entry's 4-byte length prefix (and the
/// page's end): the page needs no copy.
///
/// ```text
/// page     02 00 00 00 'h' 'i' 00 00 00 00 01 00 00 00 'x'
/// offsets  0                 6            10               15
/// entries  "hi" = data[0 + 4..6], "" = data[6 + 4..10], "x" = data[10 + 4..15]
/// ```
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entries<'a> {
    offsets: &'a [usize],
    data: &'a [u8],
    gap: usize,
}

impl<'a> From<ByteArraysRef<'a>> for Entries<'a> {
    fn from(b: ByteArraysRef<'a>) -> Self {
        let (offsets, data) = b.parts();
        Entries {
            offsets,
            data,
            gap: 0,
        }
    }
}

impl<'a> Entries<'a> {
    /// The entries of a PLAIN BYTE_ARRAY page `data` whose length prefixes start at
    /// `starts` (one more: the end of the last entry). Every `starts[i] + 4 <= starts[i + 1]
    /// <= data.len()` must hold (a caller bug otherwise: entries read as empty).
    pub(crate) fn plain(starts: &'a [usize], data: &'a [u8]) -> Self {
        Entries {
            offsets: starts,
            data,
            gap: 4,
        }
    }

    /// Number of entries.
    pub(crate) fn len(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    /// Entry `i`.
    #[inline]
    pub(crate) fn get(&self, i: usize) -> Option<&'a [u8]> {
        let start = self.offsets.get(i)?.checked_add(self.gap)?;
        let end = *self.offsets.get(i + 1)?;
        self.data.get(start..end)
    }

    /// Bytes of the longest entry.
    pub(crate) fn longest(&self) -> usize {
        self.offsets
            .windows(2)
            .fold(0, |m, w| m.max(w[1].saturating_sub(w[0] + self.gap)))
    }

    /// The entries as a [`ByteArrays`] (a copy).
    pub(crate) fn to_byte_arrays(self) -> ByteArrays {
        (0..self.len())
            .map(|i| self.get(i).unwrap_or(&[]))
            .collect()
    }
}

/// [`gather`] from a [`Dict`].
pub(crate) fn gather_dict(dictionary: Dict<'_>, indices: &[u32], out: &mut Values) -> Result<()> {
    let len = dictionary.len();
    check_max(indices, len)?;
    // From here on every index is below `len`.
    let dictionary = match (dictionary, out) {
        (Dict::Bytes(d), Values::ByteArray(o)) => {
            let (offsets, data) = o.parts_mut();
            // Every index is in range (checked above).
            Padded::new(d).append(indices, offsets, data);
            return Ok(());
        }
        (Dict::Values(d), o) => (d, o),
        (d, o) => return Err(mismatch(d.physical_type(), o.physical_type())),
    };
    match dictionary {
        (ValuesRef::Boolean(d), Values::Boolean(o)) => gather_fixed(d, indices, o),
        (ValuesRef::Int32(d), Values::Int32(o)) => gather_fixed(d, indices, o),
        (ValuesRef::Int64(d), Values::Int64(o)) => gather_fixed(d, indices, o),
        (ValuesRef::Int96(d), Values::Int96(o)) => gather_fixed(d, indices, o),
        (ValuesRef::Float(d), Values::Float(o)) => gather_fixed(d, indices, o),
        (ValuesRef::Double(d), Values::Double(o)) => gather_fixed(d, indices, o),
        (ValuesRef::FixedLenByteArray(d), Values::FixedLenByteArray(o))
            if d.width() == o.width() =>
        {
            let data = o.data_mut();
            data.reserve(indices.len().saturating_mul(d.width()));
            for &i in indices {
                data.extend_from_slice(d.get(i as usize).unwrap_or(&[]));
            }
        }
        (d, o) => return Err(mismatch(d.physical_type(), o.physical_type())),
    }
    Ok(())
}

/// The error for a dictionary of one type gathered into values of another.
#[cold]
fn mismatch(dictionary: PhysicalType, out: PhysicalType) -> Error {
    Error::invalid_argument_fmt(format_args!(
        "dictionary of {dictionary} cannot fill values of {out}"
    ))
}

/// Decodes the data page encoding of `num_values` dictionary indices (the 1-byte bit width,
/// then the hybrid) and appends `dictionary[i]` for each to `out`, in one pass: RLE runs are
/// looked up once and filled, bit-packed runs are unpacked into a stack buffer, their largest
/// index checked once, and gathered. Returns the bytes consumed.
///
/// The same values and errors as [`decode_indices`] followed by [`gather`] (its reference:
/// a property test compares the two), except that on error `out` may hold part of the page.
/// Never panics, for any input. Allocation is the output (see [`gather`]: for byte arrays the
/// caller bounds `num_values` times the longest entry).
pub fn decode_gather(
    input: &[u8],
    num_values: usize,
    dictionary: ValuesRef<'_>,
    out: &mut Values,
) -> Result<usize> {
    decode_gather_dict(input, num_values, Dict::from(dictionary), out)
}

/// [`decode_gather`] from a [`Dict`].
pub(crate) fn decode_gather_dict(
    input: &[u8],
    num_values: usize,
    dictionary: Dict<'_>,
    out: &mut Values,
) -> Result<usize> {
    if num_values == 0 && input.is_empty() {
        return Ok(0);
    }
    let mut c = Cursor::new(input);
    let bit_width = c.u8("dictionary indices bit width")?;
    // Spec: "the bit width used to encode the entry ids stored as 1 byte (max bit width = 32)".
    if bit_width > 32 {
        return Err(
            Error::out_of_range("dictionary indices bit width", bit_width as i64).at_offset(0),
        );
    }
    let (w, rest) = (bit_width as u32, c.rest());
    use Dict::Values as V;
    let used = match (dictionary, out) {
        (V(ValuesRef::Int32(d)), Values::Int32(o)) => gather_runs_fixed(rest, w, num_values, d, o),
        (V(ValuesRef::Int64(d)), Values::Int64(o)) => gather_runs_fixed(rest, w, num_values, d, o),
        (V(ValuesRef::Int96(d)), Values::Int96(o)) => gather_runs_fixed(rest, w, num_values, d, o),
        (V(ValuesRef::Float(d)), Values::Float(o)) => gather_runs_fixed(rest, w, num_values, d, o),
        (V(ValuesRef::Double(d)), Values::Double(o)) => {
            gather_runs_fixed(rest, w, num_values, d, o)
        }
        (Dict::Bytes(d), Values::ByteArray(o)) => gather_runs_bytes(rest, w, num_values, d, o),
        (d, o) => {
            // BOOLEAN and FIXED_LEN_BYTE_ARRAY dictionaries are rare: the two-pass path.
            let mut indices = Vec::new();
            let used = decode_indices(input, num_values, &mut indices)?;
            gather_dict(d, &indices, o)?;
            return Ok(used);
        }
    };
    Ok(1 + used.map_err(|e| e.offset_by(1))?)
}

/// The largest of `indices`, checked against the dictionary's length.
#[inline]
pub(crate) fn check_max(indices: &[u32], len: usize) -> Result<()> {
    // A fold the compiler vectorizes (`Iterator::max` keeps the last maximum and does not).
    let max = indices.iter().fold(0u32, |a, &b| a.max(b));
    if !indices.is_empty() && max as usize >= len {
        return Err(bad_index(max, len));
    }
    Ok(())
}

fn gather_runs_fixed<T: Copy>(
    input: &[u8],
    bit_width: u32,
    num_values: usize,
    dictionary: &[T],
    out: &mut Vec<T>,
) -> Result<usize> {
    let len = dictionary.len();
    out.reserve(num_values.min(input.len().saturating_mul(8).saturating_add(8)));
    rle::for_each_run(input, bit_width, num_values, |run| {
        match run {
            rle::Run::Repeat(i, n) => {
                let v = *dictionary
                    .get(i as usize)
                    .ok_or_else(|| bad_index(i, len))?;
                out.resize(out.len() + n, v);
            }
            rle::Run::Packed(indices) => {
                // One pass: a miss is remembered and reported after the run (a separate
                // max pass does not vectorize for u32 on baseline x86-64).
                let Some(&first) = dictionary.first() else {
                    return check_max(indices, len);
                };
                let mut miss = false;
                out.extend(indices.iter().map(|&i| match dictionary.get(i as usize) {
                    Some(&v) => v,
                    None => {
                        miss = true;
                        first
                    }
                }));
                if miss {
                    return check_max(indices, len);
                }
            }
        }
        Ok(())
    })
}

/// A BYTE_ARRAY dictionary's entries, for gathering with [`extend_short`](crate::bytes::extend_short).
///
/// `extend_short` copies an entry as one block only when SHORT bytes follow its start, so
/// entries near the end of the dictionary's bytes take a `memcpy` call. In a small dictionary
/// (flags, codes, a few names) that is most entries: its bytes are then copied once, with
/// SHORT bytes of padding.
///
/// When no entry is longer than [`NARROW`] bytes (flags, codes, borough names), entries are
/// copied as blocks of that size instead: a third of the bytes stored per value.
struct Padded<'a> {
    offsets: &'a [usize],
    data: Cow<'a, [u8]>,
    /// Bytes between an entry's offset and its first byte (see [`Entries`]).
    gap: usize,
    narrow: bool,
}

/// The block size of [`Padded`] for a dictionary of short entries.
const NARROW: usize = 16;

impl<'a> Padded<'a> {
    fn new(dictionary: Entries<'a>) -> Self {
        let Entries { offsets, data, gap } = dictionary;
        // Built for size, no copy (entries near the end take the slower copy). A dictionary
        // read in place (a gap) is never small: see `PageDecoder`.
        let data = if gap == 0 && data.len() < 8 * SHORT && !cfg!(parket_opt_size) {
            Cow::Owned(data.iter().copied().chain([0; SHORT]).collect())
        } else {
            Cow::Borrowed(data)
        };
        let narrow = !cfg!(parket_opt_size)
            && offsets
                .windows(2)
                .all(|w| w[1].wrapping_sub(w[0]).wrapping_sub(gap) <= NARROW);
        Padded {
            offsets,
            data,
            gap,
            narrow,
        }
    }

    /// Appends entry `i` for each of `indices` to `offsets` / `data` (a [`ByteArrays`]'
    /// parts). Offsets first, then the bytes, each entry by `extend_short` (a fixed-size
    /// block for a short entry, whose slack is reserved once). Returns false, appending
    /// nothing, when an index is out of range.
    fn append(&self, indices: &[u32], offsets: &mut Vec<usize>, data: &mut Vec<u8>) -> bool {
        if cfg!(parket_opt_size) {
            // Built for size: one loop, a copy by length per entry.
            let first = offsets.len();
            for &i in indices {
                let i = i as usize;
                let Some(entry) = self.offsets.get(i..i + 2) else {
                    offsets.truncate(first);
                    return false;
                };
                let range = entry[0].saturating_add(self.gap)..entry[1];
                data.extend_from_slice(self.data.get(range).unwrap_or(&[]));
                offsets.push(data.len());
            }
            return true;
        }
        // One copy of the loops per gap and block size, so that the gap is a constant.
        match (self.gap, self.narrow) {
            (0, true) => self.append_as::<0, NARROW>(indices, offsets, data),
            (0, false) => self.append_as::<0, SHORT>(indices, offsets, data),
            (_, true) => self.append_as::<4, NARROW>(indices, offsets, data),
            (_, false) => self.append_as::<4, SHORT>(indices, offsets, data),
        }
    }

    /// [`Padded::append`] for a gap of `GAP` (0 or 4), by blocks of `B` bytes.
    #[inline(always)]
    fn append_as<const GAP: usize, const B: usize>(
        &self,
        indices: &[u32],
        offsets: &mut Vec<usize>,
        data: &mut Vec<u8>,
    ) -> bool {
        let (base, first) = (data.len(), offsets.len());
        let mut pos = base;
        let mut miss = false;
        offsets.extend(indices.iter().map(|&i| {
            match (
                self.offsets.get(i as usize),
                self.offsets.get(i as usize + 1),
            ) {
                (Some(&s), Some(&e)) => pos += e.wrapping_sub(s).wrapping_sub(GAP),
                _ => miss = true,
            }
            pos
        }));
        if miss {
            offsets.truncate(first);
            return false;
        }
        data.reserve(pos - base + SHORT);
        let ends = offsets.get(first..).unwrap_or(&[]);
        self.copy::<GAP, B>(indices, ends, data);
        true
    }

    /// The bytes of entries `indices`, which end at `ends` in `data`, as blocks of `B`.
    #[inline(always)]
    fn copy<const GAP: usize, const B: usize>(
        &self,
        indices: &[u32],
        ends: &[usize],
        data: &mut Vec<u8>,
    ) {
        for (&i, &end) in indices.iter().zip(ends) {
            // Every index was found by `append`, so `s..s + l` is inside the dictionary.
            let s = self.offsets.get(i as usize).copied().unwrap_or(0) + GAP;
            let l = end - data.len();
            let _ = extend_block::<B>(data, self.data.get(s..).unwrap_or(&[]), l);
        }
    }
}

fn gather_runs_bytes(
    input: &[u8],
    bit_width: u32,
    num_values: usize,
    dictionary: Entries<'_>,
    out: &mut ByteArrays,
) -> Result<usize> {
    let len = dictionary.len();
    let padded = Padded::new(dictionary);
    let (offsets, data) = out.parts_mut();
    offsets.reserve(num_values.min(input.len().saturating_mul(8).saturating_add(8)));
    rle::for_each_run(input, bit_width, num_values, |run| {
        match run {
            rle::Run::Repeat(i, n) => {
                let v = dictionary
                    .get(i as usize)
                    .ok_or_else(|| bad_index(i, len))?;
                let (base, l) = (data.len(), v.len());
                offsets.extend((1..=n).map(|k| base + k * l));
                // The value once, then the copied part doubled: O(log n) copies.
                let total = l * n;
                data.reserve(total);
                data.extend_from_slice(v);
                let mut done = l.min(total);
                data.truncate(base + done);
                while done < total {
                    let k = done.min(total - done);
                    data.extend_from_within(base..base + k);
                    done += k;
                }
            }
            rle::Run::Packed(indices) => {
                if !padded.append(indices, offsets, data) {
                    return check_max(indices, len);
                }
            }
        }
        Ok(())
    })
}

#[inline]
fn gather_fixed<T: Copy>(dictionary: &[T], indices: &[u32], out: &mut Vec<T>) {
    out.reserve(indices.len());
    // Indexing cannot fail: the caller checked the largest index against the length.
    out.extend(indices.iter().map(|&i| dictionary[i as usize]));
}

// ---------------------------------------------------------------------------------------------
// Encoder
// ---------------------------------------------------------------------------------------------

/// A multiplier with well-spread bits (2^64 / golden ratio, odd).
const K: u64 = 0x9E37_79B9_7F4A_7C15;

/// Hash of a value of up to 8 bytes: one multiply, keep the well-mixed high half.
#[inline(always)]
fn hash_u64(x: u64) -> u32 {
    ((x ^ (x >> 29)).wrapping_mul(K) >> 32) as u32
}

/// Hash of a byte string, 8 bytes per multiply.
#[inline]
fn hash_bytes(b: &[u8]) -> u32 {
    let mut h = (b.len() as u64).wrapping_mul(K);
    let mut chunks = b.chunks_exact(8);
    for c in &mut chunks {
        let mut a = [0u8; 8];
        a.copy_from_slice(c);
        h = (h.rotate_left(23) ^ u64::from_le_bytes(a)).wrapping_mul(K);
    }
    let r = chunks.remainder();
    if !r.is_empty() {
        let tail = match b.last_chunk::<8>() {
            // The last 8 bytes, overlapping the last whole chunk: one load.
            Some(a) => u64::from_le_bytes(*a),
            // Byte by byte: a variable-length copy would be a call per value.
            None => r
                .iter()
                .rev()
                .fold(0u64, |acc, &b| (acc << 8) | u64::from(b)),
        };
        h = (h.rotate_left(23) ^ tail).wrapping_mul(K);
    }
    (h >> 32) as u32
}

/// An open-addressing hash table (linear probing, at most half full) from a value to its
/// dictionary entry id. A slot holds `hash << 32 | (id + 1)`, 0 when empty: the hash is kept so
/// that most probes of a different value cost no comparison and growing needs no rehash of the
/// values.
#[derive(Debug, Clone)]
struct Table {
    slots: Vec<u64>,
    len: usize,
}

impl Table {
    fn new() -> Self {
        Table {
            slots: alloc::vec![0; 64],
            len: 0,
        }
    }

    /// The id of the value with hash `h` for which `eq(id)` holds, or the empty slot where it
    /// would go.
    #[inline]
    fn find(&self, h: u32, mut eq: impl FnMut(u32) -> bool) -> core::result::Result<u32, usize> {
        let mask = self.slots.len() - 1;
        let mut pos = h as usize & mask;
        // Terminates: the table is never more than half full.
        loop {
            let s = self.slots[pos];
            if s == 0 {
                return Err(pos);
            }
            let id = (s as u32).wrapping_sub(1);
            if (s >> 32) as u32 == h && eq(id) {
                return Ok(id);
            }
            pos = (pos + 1) & mask;
        }
    }

    #[inline]
    fn insert_at(&mut self, pos: usize, h: u32, id: u32) {
        self.slots[pos] = ((h as u64) << 32) | (id as u64 + 1);
        self.len += 1;
        if self.len * 2 > self.slots.len() {
            self.grow();
        }
    }

    #[cold]
    fn grow(&mut self) {
        let bigger = alloc::vec![0; self.slots.len() * 2];
        let old = core::mem::replace(&mut self.slots, bigger);
        let mask = self.slots.len() - 1;
        for s in old.into_iter().filter(|&s| s != 0) {
            let mut pos = (s >> 32) as usize & mask;
            while self.slots[pos] != 0 {
                pos = (pos + 1) & mask;
            }
            self.slots[pos] = s;
        }
    }
}

/// One slot of a [`KeyTable`]: a value's bits and its id + 1 (0 when the slot is empty).
#[derive(Debug, Clone, Copy, Default)]
struct KeySlot<K> {
    key: K,
    id: u32,
}

/// The bits of a value of 4 bytes (`u32`: 8-byte slots, half the cache a table of INT32 or
/// FLOAT takes) or 8 bytes (`u64`).
trait SlotKey: Copy + Default + Eq + core::ops::Not<Output = Self> {
    fn bits(self) -> u64;
}

impl SlotKey for u32 {
    #[inline(always)]
    fn bits(self) -> u64 {
        self as u64
    }
}

impl SlotKey for u64 {
    #[inline(always)]
    fn bits(self) -> u64 {
        self
    }
}

/// An open-addressing hash table (linear probing, at most half full) from the bits of a
/// value of up to 8 bytes (INT32, INT64, FLOAT, DOUBLE) to its dictionary entry id. The key is
/// the value itself, so a probe compares in the slot and never reads the dictionary; floats
/// are keyed by their bits (every NaN payload and `-0.0` an entry of its own).
#[derive(Debug, Clone)]
struct KeyTable<K> {
    slots: Vec<KeySlot<K>>,
    len: usize,
}

impl<K: SlotKey> KeyTable<K> {
    fn new() -> Self {
        KeyTable {
            slots: alloc::vec![KeySlot::default(); 64],
            len: 0,
        }
    }

    /// The id of `key`, or the empty slot where it would go.
    #[inline(always)]
    fn find(&self, key: K) -> core::result::Result<u32, usize> {
        let mask = self.slots.len() - 1;
        let mut pos = hash_u64(key.bits()) as usize & mask;
        // Terminates: the table is never more than half full.
        loop {
            let s = self.slots[pos];
            if s.id == 0 {
                return Err(pos);
            }
            if s.key == key {
                return Ok(s.id - 1);
            }
            pos = (pos + 1) & mask;
        }
    }

    #[inline]
    fn insert_at(&mut self, pos: usize, key: K, id: u32) {
        self.slots[pos] = KeySlot { key, id: id + 1 };
        self.len += 1;
        if self.len * 2 > self.slots.len() {
            self.grow();
        }
    }

    #[cold]
    fn grow(&mut self) {
        let bigger = alloc::vec![KeySlot::default(); self.slots.len() * 2];
        let old = core::mem::replace(&mut self.slots, bigger);
        let mask = self.slots.len() - 1;
        for s in old.into_iter().filter(|s| s.id != 0) {
            let mut pos = hash_u64(s.key.bits()) as usize & mask;
            while self.slots[pos].id != 0 {
                pos = (pos + 1) & mask;
            }
            self.slots[pos] = s;
        }
    }
}

/// Most entries a dictionary may hold: indices are decoded as u32 and run lengths as i32.
const MAX_ENTRIES: usize = i32::MAX as usize;

/// Builds a dictionary and the indices of the values put into it, up to a byte limit on the
/// dictionary's PLAIN size. For every physical type but BOOLEAN.
///
/// Values are keyed by their bytes: floats by their bits, so NaN payloads and `-0.0` are
/// entries of their own and every value comes back bit for bit.
#[derive(Debug, Clone)]
pub struct DictionaryEncoder {
    dictionary: Values,
    plain_bytes: usize,
    max_dictionary_bytes: usize,
    /// Byte-string values (BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY, INT96), by hash.
    table: Table,
    /// Values of 8 bytes (INT64, DOUBLE), by their bits.
    keys: KeyTable<u64>,
    /// Values of 4 bytes (INT32, FLOAT), by their bits.
    keys32: KeyTable<u32>,
    indices: Vec<u32>,
}

impl DictionaryEncoder {
    /// An empty dictionary for `physical_type` (`type_length` is the FIXED_LEN_BYTE_ARRAY
    /// width, ignored otherwise) whose PLAIN encoding may not exceed `max_dictionary_bytes`.
    /// Errors for BOOLEAN, which no writer dictionary-encodes.
    pub fn new(
        physical_type: PhysicalType,
        type_length: usize,
        max_dictionary_bytes: usize,
    ) -> Result<Self> {
        if physical_type == PhysicalType::Boolean {
            return Err(Error::unsupported("dictionary encoding of BOOLEAN"));
        }
        Ok(DictionaryEncoder {
            dictionary: Values::new(physical_type, type_length),
            plain_bytes: 0,
            max_dictionary_bytes,
            table: Table::new(),
            keys: KeyTable::new(),
            keys32: KeyTable::new(),
            indices: Vec::new(),
        })
    }

    /// Looks up each of `values` in order, adding new ones to the dictionary and appending
    /// their ids to the indices; returns how many values it took. Fewer than `values.len()`
    /// means the next value would have grown the dictionary past its byte limit: the caller
    /// writes the rest with the fallback encoding. Errors when `values` is not of the
    /// encoder's physical type (or FIXED_LEN_BYTE_ARRAY width).
    pub fn put(&mut self, values: ValuesRef<'_>) -> Result<usize> {
        let DictionaryEncoder {
            dictionary,
            plain_bytes,
            max_dictionary_bytes,
            table,
            keys,
            keys32,
            indices,
        } = self;
        let mut budget = Budget {
            used: plain_bytes,
            max: *max_dictionary_bytes,
        };
        let taken = match (dictionary, values) {
            (Values::Int32(d), ValuesRef::Int32(v)) => {
                put_keyed(keys32, d, v, indices, &mut budget, 4, |x| x as u32)
            }
            (Values::Int64(d), ValuesRef::Int64(v)) => {
                put_keyed(keys, d, v, indices, &mut budget, 8, |x| x as u64)
            }
            (Values::Int96(d), ValuesRef::Int96(v)) => put_fixed(
                table,
                d,
                v,
                indices,
                &mut budget,
                12,
                |x| hash_bytes(x),
                |a, b| a == b,
            ),
            (Values::Float(d), ValuesRef::Float(v)) => {
                put_keyed(keys32, d, v, indices, &mut budget, 4, |x| x.to_bits())
            }
            (Values::Double(d), ValuesRef::Double(v)) => {
                put_keyed(keys, d, v, indices, &mut budget, 8, |x| x.to_bits())
            }
            (Values::ByteArray(d), ValuesRef::ByteArray(v)) => {
                put_bytes(table, d, v.iter(), indices, &mut budget, 4)
            }
            (Values::FixedLenByteArray(d), ValuesRef::FixedLenByteArray(v))
                if d.width() == v.width() =>
            {
                put_fixed_bytes(table, d, v.iter(), indices, &mut budget)
            }
            (d, v) => {
                return Err(Error::invalid_argument_fmt(format_args!(
                    "values of {} put into a dictionary of {}",
                    v.physical_type(),
                    d.physical_type()
                )))
            }
        };
        Ok(taken)
    }

    /// The dictionary's entries in id order: PLAIN-encode them into the dictionary page.
    pub fn dictionary(&self) -> &Values {
        &self.dictionary
    }

    /// Number of dictionary entries.
    pub fn len(&self) -> usize {
        self.dictionary.len()
    }

    /// True when the dictionary has no entries.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes of the dictionary's PLAIN encoding (the dictionary page before compression).
    pub fn dictionary_plain_bytes(&self) -> usize {
        self.plain_bytes
    }

    /// The indices of the values put since the last [`DictionaryEncoder::take_indices`].
    pub fn indices(&self) -> &[u32] {
        &self.indices
    }

    /// Hands the indices accumulated so far to the caller in `buf`, and keeps `buf`'s
    /// allocation (cleared) for the next ones: [`DictionaryEncoder::take_indices`] without
    /// an allocation per call.
    pub fn swap_indices(&mut self, buf: &mut Vec<u32>) {
        buf.clear();
        core::mem::swap(&mut self.indices, buf);
    }

    /// Returns the indices accumulated so far (for one data page) and starts afresh.
    pub fn take_indices(&mut self) -> Vec<u32> {
        core::mem::take(&mut self.indices)
    }

    /// The data page encoding of `indices` into a dictionary of `num_dict_values` entries
    /// (same as the module's [`encode_indices`]).
    pub fn encode_indices(indices: &[u32], num_dict_values: usize, out: &mut Vec<u8>) {
        encode_indices(indices, num_dict_values, out)
    }
}

/// The dictionary's PLAIN size and its limit.
struct Budget<'a> {
    used: &'a mut usize,
    max: usize,
}

impl Budget<'_> {
    /// Takes `bytes` more if they fit.
    #[inline]
    fn take(&mut self, bytes: usize) -> bool {
        match self.used.checked_add(bytes) {
            Some(n) if n <= self.max => {
                *self.used = n;
                true
            }
            _ => false,
        }
    }
}

/// `put` for values of up to 8 bytes, keyed by `key` (an injective map to their bits).
fn put_keyed<T: Copy, K: SlotKey>(
    table: &mut KeyTable<K>,
    dict: &mut Vec<T>,
    values: &[T],
    indices: &mut Vec<u32>,
    budget: &mut Budget<'_>,
    size: usize,
    key: impl Fn(T) -> K,
) -> usize {
    // The previous value's key and id: a repeat skips the lookup.
    let (mut prev_key, mut prev_id) = match values.first() {
        // A key no value of this call can have before its first lookup.
        Some(&v) => (!key(v), 0u32),
        None => return 0,
    };
    let room = budget
        .max
        .saturating_sub(*budget.used)
        .checked_div(size)
        .unwrap_or(0)
        .min(MAX_ENTRIES.saturating_sub(dict.len()));
    if values.len() <= room {
        // Every new value fits: no budget check per value, and the indices are written by a
        // single extend of known length.
        let before = dict.len();
        indices.extend(values.iter().map(|&v| {
            let k = key(v);
            if k != prev_key {
                prev_key = k;
                prev_id = match table.find(k) {
                    Ok(id) => id,
                    Err(pos) => {
                        let id = dict.len() as u32;
                        dict.push(v);
                        table.insert_at(pos, k, id);
                        id
                    }
                };
            }
            prev_id
        }));
        *budget.used += (dict.len() - before) * size;
        return values.len();
    }
    indices.reserve(values.len());
    for (i, &v) in values.iter().enumerate() {
        let k = key(v);
        if k != prev_key {
            prev_key = k;
            prev_id = match table.find(k) {
                Ok(id) => id,
                Err(pos) => {
                    if dict.len() >= MAX_ENTRIES || !budget.take(size) {
                        return i;
                    }
                    let id = dict.len() as u32;
                    dict.push(v);
                    table.insert_at(pos, k, id);
                    id
                }
            };
        }
        indices.push(prev_id);
    }
    values.len()
}

#[allow(clippy::too_many_arguments)]
#[inline]
fn put_fixed<T: Copy>(
    table: &mut Table,
    dict: &mut Vec<T>,
    values: &[T],
    indices: &mut Vec<u32>,
    budget: &mut Budget<'_>,
    size: usize,
    hash: impl Fn(&T) -> u32,
    eq: impl Fn(&T, &T) -> bool,
) -> usize {
    indices.reserve(values.len());
    // The previous value and its id: a repeat skips the hash lookup.
    let mut prev: Option<(T, u32)> = None;
    for (k, v) in values.iter().enumerate() {
        if let Some((p, id)) = prev {
            if eq(&p, v) {
                indices.push(id);
                continue;
            }
        }
        let h = hash(v);
        let id = match table.find(h, |id| dict.get(id as usize).is_some_and(|d| eq(d, v))) {
            Ok(id) => id,
            Err(pos) => {
                if dict.len() >= MAX_ENTRIES || !budget.take(size) {
                    return k;
                }
                let id = dict.len() as u32;
                dict.push(*v);
                table.insert_at(pos, h, id);
                id
            }
        };
        prev = Some((*v, id));
        indices.push(id);
    }
    values.len()
}

fn put_bytes<'v>(
    table: &mut Table,
    dict: &mut ByteArrays,
    values: impl ExactSizeIterator<Item = &'v [u8]>,
    indices: &mut Vec<u32>,
    budget: &mut Budget<'_>,
    prefix: usize,
) -> usize {
    let n = values.len();
    indices.reserve(n);
    let mut prev: Option<(&[u8], u32)> = None;
    for (k, v) in values.enumerate() {
        if let Some((p, id)) = prev {
            // Lengths and first bytes before the whole comparison (a call).
            if p.len() == v.len() && p.first() == v.first() && p == v {
                indices.push(id);
                continue;
            }
        }
        let h = hash_bytes(v);
        let id = match table.find(h, |id| dict.get(id as usize) == Some(v)) {
            Ok(id) => id,
            Err(pos) => {
                if dict.len() >= MAX_ENTRIES || !budget.take(prefix.saturating_add(v.len())) {
                    return k;
                }
                let id = dict.len() as u32;
                dict.push(v);
                table.insert_at(pos, h, id);
                id
            }
        };
        prev = Some((v, id));
        indices.push(id);
    }
    n
}

fn put_fixed_bytes<'v>(
    table: &mut Table,
    dict: &mut FixedLenByteArrays,
    values: impl ExactSizeIterator<Item = &'v [u8]>,
    indices: &mut Vec<u32>,
    budget: &mut Budget<'_>,
) -> usize {
    let n = values.len();
    indices.reserve(n);
    for (k, v) in values.enumerate() {
        let h = hash_bytes(v);
        let id = match table.find(h, |id| dict.get(id as usize) == Some(v)) {
            Ok(id) => id,
            Err(pos) => {
                if dict.len() >= MAX_ENTRIES || !budget.take(v.len()) {
                    return k;
                }
                let id = dict.len() as u32;
                // The width matches: checked by the caller.
                let _ = dict.push(v);
                table.insert_at(pos, h, id);
                id
            }
        };
        indices.push(id);
    }
    n
}

/// Fuzzing harness: PLAIN-decodes a dictionary from the input, then dictionary indices, then
/// gathers; checks the guarantees of each step. Panics only if a decoder breaks one of its
/// own guarantees.
#[doc(hidden)]
pub fn fuzz_decode(data: &[u8]) {
    use crate::encoding::plain;
    let [t, nd, n0, n1, width, rest @ ..] = data else {
        return;
    };
    let types = PhysicalType::ALL;
    let pt = types[(*t % 8) as usize];
    let mut dict = Values::new(pt, (*width % 16) as usize);
    let Ok(used) = plain::decode(rest, *nd as usize, &mut dict) else {
        return;
    };
    let num_values = u16::from_le_bytes([*n0, *n1]) as usize;
    let mut indices = Vec::new();
    let page = rest.get(used..).unwrap_or(&[]);
    // The fused path agrees with the two-pass reference: same success, bytes and values.
    let mut fused = Values::new(pt, (*width % 16) as usize);
    let fused_used = decode_gather(page, num_values, dict.as_ref(), &mut fused);
    let reference = decode_indices(page, num_values, &mut indices);
    let Ok(used) = reference else {
        assert!(fused_used.is_err());
        return;
    };
    let mut expected = Values::new(pt, (*width % 16) as usize);
    match gather(dict.as_ref(), &indices, &mut expected) {
        Ok(()) => {
            assert_eq!(fused_used.ok(), Some(used));
            assert!(fused.as_ref().bit_eq(&expected.as_ref()));
        }
        Err(_) => assert!(fused_used.is_err()),
    }
    indices.clear();
    let Ok(used) = decode_indices(page, num_values, &mut indices) else {
        return;
    };
    assert!(used <= page.len());
    assert_eq!(indices.len(), num_values);
    let mut out = Values::new(pt, (*width % 16) as usize);
    match gather(dict.as_ref(), &indices, &mut out) {
        Ok(()) => assert_eq!(out.len(), num_values),
        Err(_) => {
            assert!(out.is_empty());
            assert!(indices.iter().any(|&i| i as usize >= dict.len()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::plain;
    use crate::error::ErrorKind;
    use alloc::string::ToString;
    use alloc::vec;
    use proptest::prelude::*;

    #[test]
    fn bit_width_byte() {
        // bad_data/ARROW-GH-41321: a bit width of 254 is an error.
        let e = decode_indices(&[254, 0, 0], 1, &mut Vec::new()).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::OutOfRange { value: 254, .. }));
        assert!(decode_indices(&[33, 2, 0, 0, 0, 0], 1, &mut Vec::new()).is_err());
        // bad_data/ARROW-GH-43605: 00 b3 29 is 21186 zeros (2649 groups, no payload).
        let mut out = Vec::new();
        assert_eq!(
            decode_indices(&[0x00, 0xb3, 0x29], 21186, &mut out).unwrap(),
            3
        );
        assert_eq!(out, vec![0; 21186]);
        // Width 32: RLE run of 2 copies of 0xDEADBEEF.
        let mut out = Vec::new();
        assert_eq!(
            decode_indices(&[32, 0x04, 0xEF, 0xBE, 0xAD, 0xDE], 2, &mut out).unwrap(),
            6
        );
        assert_eq!(out, [0xDEADBEEF; 2]);
        assert!(decode_indices(&[], 1, &mut Vec::new()).is_err());
        assert_eq!(decode_indices(&[], 0, &mut Vec::new()).unwrap(), 0);
        // Errors from the hybrid carry offsets counted from the start of the page data.
        let e = decode_indices(&[8, 0x03, 1], 8, &mut Vec::new()).unwrap_err();
        assert_eq!(e.location().offset, Some(2));
    }

    #[test]
    fn gather_checks_indices_once() {
        let dict = ["a", "bc"].into_iter().collect::<ByteArrays>();
        let mut out = Values::ByteArray(ByteArrays::new());
        gather(ValuesRef::ByteArray(dict.as_ref()), &[1, 0, 1], &mut out).unwrap();
        let expected: ByteArrays = ["bc", "a", "bc"].into_iter().collect();
        assert_eq!(out, Values::ByteArray(expected));

        let mut out = Values::Int32(Vec::new());
        let e = gather(ValuesRef::Int32(&[5, 6]), &[0, 2, 1], &mut out).unwrap_err();
        assert!(e
            .to_string()
            .starts_with("dictionary index of 2 exceeds the limit of 1"));
        assert!(matches!(
            e.kind(),
            ErrorKind::LimitExceeded {
                requested: 2,
                limit: 1,
                ..
            }
        ));
        assert!(out.is_empty());
        assert!(gather(ValuesRef::Int32(&[]), &[0], &mut out).is_err());
        assert!(gather(ValuesRef::Int32(&[]), &[], &mut out).is_ok());
        assert!(gather(ValuesRef::Int64(&[1]), &[0], &mut out).is_err());
        let f = FixedLenByteArrays::from_parts(2, b"xyzw".to_vec()).unwrap();
        let mut out = Values::FixedLenByteArray(FixedLenByteArrays::new(2));
        gather(
            ValuesRef::FixedLenByteArray(f.as_ref()),
            &[1, 1, 0],
            &mut out,
        )
        .unwrap();
        assert_eq!(
            out,
            Values::FixedLenByteArray(
                FixedLenByteArrays::from_parts(2, b"zwzwxy".to_vec()).unwrap()
            )
        );
        let mut out = Values::FixedLenByteArray(FixedLenByteArrays::new(3));
        assert!(gather(ValuesRef::FixedLenByteArray(f.as_ref()), &[0], &mut out).is_err());
    }

    #[test]
    fn one_entry_uses_one_bit() {
        let mut page = Vec::new();
        encode_indices(&[0; 10], 1, &mut page);
        // Bit width 1, RLE run of 10 zeros: 01 | 14 00.
        assert_eq!(page, [0x01, 0x14, 0x00]);
    }

    #[test]
    fn floats_keyed_by_bits() {
        let nan1 = f64::from_bits(0x7FF8_0000_0000_0001);
        let nan2 = f64::from_bits(0x7FF8_0000_0000_0002);
        let values = [0.0, -0.0, nan1, nan2, nan1, 0.0];
        let mut enc = DictionaryEncoder::new(PhysicalType::Double, 0, 1000).unwrap();
        assert_eq!(enc.put(ValuesRef::Double(&values)).unwrap(), 6);
        assert_eq!(enc.len(), 4);
        assert_eq!(enc.indices(), &[0, 1, 2, 3, 2, 0]);
        let mut out = Values::Double(Vec::new());
        gather(enc.dictionary().as_ref(), enc.indices(), &mut out).unwrap();
        assert!(out.bit_eq(&Values::Double(values.to_vec())));
    }

    #[test]
    fn byte_limit_is_the_fallback_signal() {
        // Each new string costs 4 + 2 bytes of PLAIN; a limit of 13 holds two of them.
        let values: ByteArrays = ["aa", "bb", "aa", "cc", "aa"].into_iter().collect();
        let mut enc = DictionaryEncoder::new(PhysicalType::ByteArray, 0, 13).unwrap();
        assert_eq!(enc.put(ValuesRef::ByteArray(values.as_ref())).unwrap(), 3);
        assert_eq!(enc.dictionary_plain_bytes(), 12);
        assert_eq!(enc.take_indices(), [0, 1, 0]);
        assert!(enc.indices().is_empty());
        // Values already in the dictionary are still accepted.
        assert_eq!(
            enc.put(ValuesRef::ByteArray(values.as_ref().slice(4..5)))
                .unwrap(),
            1
        );
        let mut page = Vec::new();
        plain::encode(enc.dictionary().as_ref(), &mut page).unwrap();
        assert_eq!(page.len(), enc.dictionary_plain_bytes());
        assert!(DictionaryEncoder::new(PhysicalType::Boolean, 0, 10).is_err());
        assert!(enc.put(ValuesRef::Int32(&[1])).is_err());
    }

    fn check_roundtrip(values: ValuesRef<'_>, type_length: usize) {
        let mut enc =
            DictionaryEncoder::new(values.physical_type(), type_length, usize::MAX).unwrap();
        assert_eq!(enc.put(values).unwrap(), values.len());
        // Dictionary page and data page, then back.
        let mut dict_page = Vec::new();
        plain::encode(enc.dictionary().as_ref(), &mut dict_page).unwrap();
        let mut data_page = Vec::new();
        encode_indices(enc.indices(), enc.len(), &mut data_page);
        let mut dict = Values::new(values.physical_type(), type_length);
        plain::decode(&dict_page, enc.len(), &mut dict).unwrap();
        let mut indices = Vec::new();
        assert_eq!(
            decode_indices(&data_page, values.len(), &mut indices).unwrap(),
            data_page.len()
        );
        let mut out = Values::new(values.physical_type(), type_length);
        gather(dict.as_ref(), &indices, &mut out).unwrap();
        assert!(out.as_ref().bit_eq(&values));
        let mut fused = Values::new(values.physical_type(), type_length);
        assert_eq!(
            decode_gather(&data_page, values.len(), dict.as_ref(), &mut fused).unwrap(),
            data_page.len()
        );
        assert!(fused.as_ref().bit_eq(&values));
        // No duplicate entries.
        if enc.len() > 100 {
            return;
        }
        let mut seen = Vec::new();
        for i in 0..enc.len() {
            let one = enc.dictionary().as_ref().slice(i..i + 1);
            assert!(!seen.iter().any(|s: &Values| s.as_ref().bit_eq(&one)));
            seen.push(one.to_owned());
        }
    }

    proptest! {
        // A BYTE_ARRAY dictionary read in place from its PLAIN page (entries with a 4-byte
        // gap) gathers the same values as the decoded one, by both gathers, for short and
        // long entries and entries near the page's end.
        #[test]
        fn plain_page_entries_gather_as_decoded(
            entries in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..40), 1..80),
            picks in proptest::collection::vec(any::<u32>(), 0..300),
            narrow in any::<bool>(),
        ) {
            let entries: Vec<Vec<u8>> = entries
                .into_iter()
                .map(|mut e| { if narrow { e.truncate(NARROW) } e })
                .collect();
            let decoded: ByteArrays = entries.iter().collect();
            let mut page = Vec::new();
            crate::encoding::plain::encode(ValuesRef::ByteArray(decoded.as_ref()), &mut page).unwrap();
            let mut starts = Vec::new();
            crate::encoding::plain::byte_array_starts(&page, entries.len(), &mut starts).unwrap();
            let in_place = Dict::Bytes(Entries::plain(&starts, &page));
            let n = entries.len() as u32;
            let indices: Vec<u32> = picks.iter().map(|&p| p % n).collect();
            let mut want = Values::ByteArray(ByteArrays::new());
            gather(ValuesRef::ByteArray(decoded.as_ref()), &indices, &mut want).unwrap();
            let mut got = Values::ByteArray(ByteArrays::new());
            gather_dict(in_place, &indices, &mut got).unwrap();
            prop_assert_eq!(&got, &want);
            let mut encoded = Vec::new();
            encode_indices(&indices, entries.len(), &mut encoded);
            let mut fused = Values::ByteArray(ByteArrays::new());
            decode_gather_dict(&encoded, indices.len(), in_place, &mut fused).unwrap();
            prop_assert_eq!(&fused, &want);
            // An index past the end is the same error.
            let mut bad = indices.clone();
            bad.push(n);
            let e1 = gather(ValuesRef::ByteArray(decoded.as_ref()), &bad, &mut want).unwrap_err();
            let e2 = gather_dict(in_place, &bad, &mut got).unwrap_err();
            prop_assert_eq!(e1.to_string(), e2.to_string());
        }

        // The encoder against a reference built on a BTreeMap of the values' bits: the same
        // dictionary (first-seen order), the same ids, the same cut where the byte limit is
        // reached, over several puts (the fast path and the per-value budget path).
        #[test]
        fn encoder_matches_btreemap_reference(
            raw in proptest::collection::vec(any::<u64>(), 0..600),
            spread in 1u64..300,
            limit in prop_oneof![Just(usize::MAX), 0usize..2000],
            splits in proptest::collection::vec(0usize..700, 0..4),
        ) {
            use alloc::collections::BTreeMap;
            // Few distinct values (repeats and runs) plus the odd special float.
            let bits: Vec<u64> = raw
                .iter()
                .map(|&r| match r % 7 {
                    0 => r, // anything: NaN payloads, -0.0, huge ints
                    1 => 0x8000_0000_0000_0000, // -0.0
                    _ => r % spread,
                })
                .collect();
            let mut cuts: Vec<usize> = splits.iter().map(|&s| s.min(bits.len())).collect();
            cuts.push(0);
            cuts.push(bits.len());
            cuts.sort_unstable();
            let i64s: Vec<i64> = bits.iter().map(|&b| b as i64).collect();
            let i32s: Vec<i32> = bits.iter().map(|&b| (b ^ (b >> 32)) as i32).collect();
            let f64s: Vec<f64> = bits.iter().map(|&b| f64::from_bits(b)).collect();
            let f32s: Vec<f32> = bits.iter().map(|&b| f32::from_bits((b ^ (b >> 32)) as u32)).collect();
            let cases: [(PhysicalType, Vec<u64>, usize, Values); 4] = [
                (PhysicalType::Int64, bits.clone(), 8, Values::Int64(i64s)),
                (PhysicalType::Int32, i32s.iter().map(|&x| x as u32 as u64).collect(), 4, Values::Int32(i32s)),
                (PhysicalType::Double, bits.clone(), 8, Values::Double(f64s)),
                (PhysicalType::Float, f32s.iter().map(|x| x.to_bits() as u64).collect(), 4, Values::Float(f32s)),
            ];
            for (pt, keys, size, values) in cases {
                // Reference.
                let mut map: BTreeMap<u64, u32> = BTreeMap::new();
                let mut ref_dict: Vec<u64> = Vec::new();
                let mut ref_ids: Vec<u32> = Vec::new();
                let mut ref_taken = keys.len();
                for (i, &k) in keys.iter().enumerate() {
                    let id = match map.get(&k) {
                        Some(&id) => id,
                        None => {
                            if (ref_dict.len() + 1) * size > limit {
                                ref_taken = i;
                                break;
                            }
                            map.insert(k, ref_dict.len() as u32);
                            ref_dict.push(k);
                            ref_dict.len() as u32 - 1
                        }
                    };
                    ref_ids.push(id);
                }
                // Encoder, fed in pieces; it stops at the first put that does not take all.
                let mut enc = DictionaryEncoder::new(pt, 0, limit).unwrap();
                let mut taken = 0;
                for w in cuts.windows(2) {
                    let piece = values.as_ref().slice(w[0]..w[1]);
                    let t = enc.put(piece).unwrap();
                    taken += t;
                    if t < piece.len() {
                        break;
                    }
                }
                prop_assert_eq!(taken, ref_taken);
                prop_assert_eq!(enc.indices(), &ref_ids[..]);
                let got: Vec<u64> = match enc.dictionary() {
                    Values::Int64(d) => d.iter().map(|&x| x as u64).collect(),
                    Values::Int32(d) => d.iter().map(|&x| x as u32 as u64).collect(),
                    Values::Double(d) => d.iter().map(|x| x.to_bits()).collect(),
                    Values::Float(d) => d.iter().map(|x| x.to_bits() as u64).collect(),
                    _ => unreachable!(),
                };
                prop_assert_eq!(got, ref_dict);
                prop_assert_eq!(enc.dictionary_plain_bytes(), enc.len() * size);
            }
        }

        #[test]
        fn roundtrip_all_types(raw in proptest::collection::vec(0u64..40, 0..300), wide: u64) {
            // Few distinct values, so entries repeat; `wide` spreads the bits.
            let i64s: Vec<i64> = raw.iter().map(|&r| (r.wrapping_mul(wide)) as i64).collect();
            check_roundtrip(ValuesRef::Int64(&i64s), 0);
            let i32s: Vec<i32> = i64s.iter().map(|&v| v as i32).collect();
            check_roundtrip(ValuesRef::Int32(&i32s), 0);
            let f64s: Vec<f64> = i64s.iter().map(|&v| f64::from_bits(v as u64)).collect();
            check_roundtrip(ValuesRef::Double(&f64s), 0);
            let f32s: Vec<f32> = i64s.iter().map(|&v| f32::from_bits(v as u32)).collect();
            check_roundtrip(ValuesRef::Float(&f32s), 0);
            let i96s: Vec<[u8; 12]> = raw.iter().map(|&r| { let mut a = [0u8; 12]; a[11] = r as u8; a[0] = (r * 7) as u8; a }).collect();
            check_roundtrip(ValuesRef::Int96(&i96s), 0);
            let strings: ByteArrays = raw.iter().map(|&r| alloc::format!("{}", r * r).into_bytes()).collect();
            check_roundtrip(ValuesRef::ByteArray(strings.as_ref()), 0);
            let mut flba = FixedLenByteArrays::new(3);
            for &r in &raw { flba.push(&[r as u8, 0, (r / 3) as u8]).unwrap(); }
            check_roundtrip(ValuesRef::FixedLenByteArray(flba.as_ref()), 3);
        }

        #[test]
        fn fused_gather_matches_reference(
            runs in proptest::collection::vec((0u32..40, 1usize..40), 0..60),
            dict_len in 0usize..40,
            width in 0u32..=32,
        ) {
            // Runs of repeats and mixed values (some indices past the dictionary's end),
            // against the two-pass reference, for a fixed-width and a byte-array dictionary.
            let indices: Vec<u32> = runs
                .iter()
                .flat_map(|&(v, n)| (0..n as u32).map(move |k| if n > 8 { v } else { (v + k) % 40 }))
                .collect();
            let need = rle::bit_width(indices.iter().copied().max().unwrap_or(0).into());
            let w = width.max(need);
            let mut page = vec![w as u8];
            rle::encode_u32(&indices, w, &mut page);
            let ints: Vec<i64> = (0..dict_len as i64).map(|i| i * 1000 - 7).collect();
            let strings: ByteArrays = (0..dict_len).map(|i| "x".repeat(i % 7)).collect();
            // Entries over 16 bytes too (the gather's wide blocks), and a dictionary over
            // 384 bytes (not padded).
            let long: ByteArrays = (0..dict_len).map(|i| format!("{i}").repeat(i % 23)).collect();
            for dict in [Values::Int64(ints), Values::ByteArray(strings), Values::ByteArray(long)] {
                // A naive gather, value by value, as the expectation for in-range indices.
                if let (Values::ByteArray(d), true) = (&dict, indices.iter().all(|&i| (i as usize) < dict_len)) {
                    let naive: ByteArrays = indices.iter().map(|&i| d.get(i as usize).unwrap().to_vec()).collect();
                    let mut fused = Values::new(dict.physical_type(), 0);
                    decode_gather(&page, indices.len(), dict.as_ref(), &mut fused).unwrap();
                    prop_assert!(fused.as_ref().bit_eq(&Values::ByteArray(naive).as_ref()));
                }
                let mut expected = Values::new(dict.physical_type(), 0);
                let mut idx = Vec::new();
                let reference = decode_indices(&page, indices.len(), &mut idx)
                    .and_then(|used| gather(dict.as_ref(), &idx, &mut expected).map(|()| used));
                let mut fused = Values::new(dict.physical_type(), 0);
                let got = decode_gather(&page, indices.len(), dict.as_ref(), &mut fused);
                prop_assert_eq!(got.is_ok(), reference.is_ok());
                if let Ok(used) = reference {
                    prop_assert_eq!(got.ok(), Some(used));
                    prop_assert!(fused.as_ref().bit_eq(&expected.as_ref()));
                }
            }
        }

        #[test]
        fn many_distinct(n in 0usize..5000) {
            let v: Vec<i32> = (0..n as i32).map(|i| i.wrapping_mul(7919)).collect();
            check_roundtrip(ValuesRef::Int32(&v), 0);
        }

        #[test]
        fn arbitrary_bytes_never_panic(data in proptest::collection::vec(any::<u8>(), 0..300)) {
            fuzz_decode(&data);
        }

        #[test]
        fn plausible_pages(nd in 1u8..10, idx in proptest::collection::vec(0u8..4, 0..40)) {
            // A dictionary of INT32, then small bytes as a hybrid stream.
            let mut data = vec![1, nd, 40, 0, 0];
            data.extend((0..nd as i32).flat_map(|i| i.to_le_bytes()));
            data.push(3);
            data.extend(&idx);
            fuzz_decode(&data);
        }
    }
}
