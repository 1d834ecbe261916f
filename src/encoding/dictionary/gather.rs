//! The gather engine of [dictionary decoding](super): the values of a page from the indices
//! into its dictionary.
//!
//! [`gather`] is the two-pass reference (indices decoded by [`decode_indices`], checked once,
//! then copied); [`decode_gather`] does both in one pass over the runs of the hybrid, filling an
//! RLE run with one lookup and checking the largest index of a bit-packed run once. BYTE_ARRAY
//! entries are copied by fixed-size blocks ([`Padded`]), from a [`ByteArrays`] or straight from
//! the PLAIN dictionary page ([`Entries`]).
//!
//! The indices `0, 0, 1, 0` (`01 03 04`, see [`super`]) into the dictionary `[7, 9]`:
//!
//! ```
//! use parket::encoding::dictionary;
//! use parket::values::{Values, ValuesRef};
//! let mut out = Values::Int32(Vec::new());
//! let used = dictionary::decode_gather(&[0x01, 0x03, 0x04], 4, ValuesRef::Int32(&[7, 9]), &mut out);
//! assert_eq!(used.unwrap(), 3);
//! assert_eq!(out, Values::Int32(vec![7, 7, 9, 7]));
//! ```

use alloc::borrow::Cow;
use alloc::vec::Vec;

use super::{bad_index, decode_indices, indices_header};
use crate::bytes::SHORT;
use crate::encoding::rle;
use crate::error::{Error, Result};
use crate::format::PhysicalType;
use crate::values::{ByteArrays, ByteArraysRef, Values, ValuesRef};

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

    /// The same dictionary, a BYTE_ARRAY one known to have no entry longer than `longest`
    /// bytes (see [`Entries::with_longest`]).
    pub(crate) fn with_longest(self, longest: usize) -> Self {
        match self {
            Dict::Bytes(e) => Dict::Bytes(e.with_longest(longest)),
            v => v,
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
    /// The longest entry's bytes when the holder of the dictionary knows it (see
    /// [`Entries::with_longest`]), so that a gather does not scan every entry again.
    longest: Option<usize>,
}

impl<'a> From<ByteArraysRef<'a>> for Entries<'a> {
    fn from(b: ByteArraysRef<'a>) -> Self {
        let (offsets, data) = b.parts();
        Entries {
            offsets,
            data,
            gap: 0,
            longest: None,
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
            longest: None,
        }
    }

    /// The same entries, whose longest is `longest` bytes (what [`Entries::longest`] returns):
    /// a page decoder measures its dictionary once, and every gather from it (page after page,
    /// batch after batch) then skips the scan over all entries that choosing the block size
    /// takes ([`Padded`]).
    pub(crate) fn with_longest(self, longest: usize) -> Self {
        Entries {
            longest: Some(longest),
            ..self
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
        if let Some(l) = self.longest {
            return l;
        }
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
            Padded::new(d).append(indices, offsets, data)?;
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
    let Some((w, rest)) = indices_header(input, num_values)? else {
        return Ok(0);
    };
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

/// The largest of `indices`, checked against the dictionary's length (each variant's own
/// loop).
pub(crate) use variant::check_max;

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
    /// Entries fit blocks of [`NARROW`] bytes (always false built for size: copies by length).
    #[cfg_attr(parket_opt_size, allow(dead_code))]
    narrow: bool,
}

/// The block size of [`Padded`] for a dictionary of short entries.
pub(super) const NARROW: usize = 16;

impl<'a> Padded<'a> {
    fn new(dictionary: Entries<'a>) -> Self {
        let Entries {
            offsets, data, gap, ..
        } = dictionary;
        // Built for size, no copy (entries near the end take the slower copy). A dictionary
        // read in place (a gap) is never small: see `PageDecoder`.
        let data = if gap == 0 && data.len() < 8 * SHORT && variant::BLOCKS {
            Cow::Owned(data.iter().copied().chain([0; SHORT]).collect())
        } else {
            Cow::Borrowed(data)
        };
        // Valid offsets never decrease, so this is `longest() <= NARROW`.
        let narrow = variant::BLOCKS && dictionary.longest() <= NARROW;
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
    /// nothing, when an index is out of range. The bytes the offsets add up to are reserved at
    /// once and fallibly (an [`ErrorKind::OutOfMemory`](crate::ErrorKind::OutOfMemory), not an
    /// abort), so callers need no pass of their own to size them.
    #[inline(always)]
    fn append(
        &self,
        indices: &[u32],
        offsets: &mut Vec<usize>,
        data: &mut Vec<u8>,
    ) -> Result<bool> {
        variant::append(self, indices, offsets, data)
    }
}

// The one point of choice for gathering BYTE_ARRAY entries and checking indices: default
// builds copy fixed-size blocks and check indices by a vectorized compare (one copy of the loop per gap and block size, a small dictionary padded, see
// [`Padded`]); builds for size (`cfg(parket_opt_size)`, set by `build.rs`) one loop, a copy by
// length per entry, no padding. Same values (the gather tests run both).
#[cfg(parket_opt_size)]
use compact as variant;
#[cfg(not(parket_opt_size))]
use fast as variant;

/// Gathering by fixed-size blocks.
#[cfg(not(parket_opt_size))]
mod fast {
    use super::{Padded, Result, NARROW};
    use crate::bytes::{extend_block, SHORT};
    use alloc::vec::Vec;

    /// [`check_max`](super::check_max): every index below `len` (none is at or past a
    /// length past u32's range), a compare and an or the compiler vectorizes on baseline
    /// x86-64 (SSE2 has no unsigned 32-bit max, so a fold of `max` stays scalar), chunked so
    /// that it is not one long chain.
    #[inline]
    pub(crate) fn check_max(indices: &[u32], len: usize) -> Result<()> {
        let Ok(limit) = u32::try_from(len) else {
            return Ok(());
        };
        let past = indices
            .chunks(256)
            .any(|c| c.iter().fold(false, |past, &i| past | (i >= limit)));
        if past {
            // The largest, for the error (the one pass where there is one).
            let max = indices.iter().fold(0u32, |a, &b| a.max(b));
            return Err(super::bad_index(max, len));
        }
        Ok(())
    }

    /// Entries are copied as blocks: a small dictionary is padded, a narrow one copied by
    /// [`NARROW`]-byte blocks.
    pub(super) const BLOCKS: bool = true;

    /// [`Padded::append`].
    #[inline(always)]
    pub(super) fn append(
        p: &Padded<'_>,
        indices: &[u32],
        offsets: &mut Vec<usize>,
        data: &mut Vec<u8>,
    ) -> Result<bool> {
        // One copy of the loops per gap and block size, so that the gap is a constant.
        match (p.gap, p.narrow) {
            (0, true) => p.append_as::<0, NARROW>(indices, offsets, data),
            (0, false) => p.append_as::<0, SHORT>(indices, offsets, data),
            (_, true) => p.append_as::<4, NARROW>(indices, offsets, data),
            (_, false) => p.append_as::<4, SHORT>(indices, offsets, data),
        }
    }

    impl Padded<'_> {
        /// [`Padded::append`] for a gap of `GAP` (0 or 4), by blocks of `B` bytes.
        #[inline(always)]
        pub(super) fn append_as<const GAP: usize, const B: usize>(
            &self,
            indices: &[u32],
            offsets: &mut Vec<usize>,
            data: &mut Vec<u8>,
        ) -> Result<bool> {
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
                return Ok(false);
            }
            let room = (pos - base).saturating_add(SHORT);
            if let Err(e) = crate::limits::reserve(data, room, "the values of a page") {
                offsets.truncate(first);
                return Err(e);
            }
            let ends = offsets.get(first..).unwrap_or(&[]);
            self.copy::<GAP, B>(indices, ends, data);
            Ok(true)
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
}

/// Gathering in builds for size: one loop, a copy by length per entry.
#[cfg(parket_opt_size)]
mod compact {
    use super::{Padded, Result};
    use alloc::vec::Vec;

    /// [`check_max`](super::check_max) built for size: one fold of the max (less code).
    #[inline]
    pub(crate) fn check_max(indices: &[u32], len: usize) -> Result<()> {
        let max = indices.iter().fold(0u32, |a, &b| a.max(b));
        if !indices.is_empty() && max as usize >= len {
            return Err(super::bad_index(max, len));
        }
        Ok(())
    }

    /// No blocks: no padding, no narrow copies.
    pub(super) const BLOCKS: bool = false;

    /// [`Padded::append`]: the bytes grow entry by entry (the page layer reserves them
    /// beforehand, see `page::decode::gather_reserved`).
    pub(super) fn append(
        p: &Padded<'_>,
        indices: &[u32],
        offsets: &mut Vec<usize>,
        data: &mut Vec<u8>,
    ) -> Result<bool> {
        let first = offsets.len();
        for &i in indices {
            let i = i as usize;
            let Some(entry) = p.offsets.get(i..i + 2) else {
                offsets.truncate(first);
                return Ok(false);
            };
            let range = entry[0].saturating_add(p.gap)..entry[1];
            data.extend_from_slice(p.data.get(range).unwrap_or(&[]));
            offsets.push(data.len());
        }
        Ok(true)
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
                if !padded.append(indices, offsets, data)? {
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
