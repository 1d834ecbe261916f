//! The writer's side of [dictionary encoding](super): [`DictionaryEncoder`] builds a
//! dictionary from values, by hash tables from a value to its entry id, and the indices of the
//! values put into it.
//!
//! ```
//! use parket::encoding::dictionary::DictionaryEncoder;
//! use parket::format::PhysicalType;
//! use parket::values::{Values, ValuesRef};
//! let mut enc = DictionaryEncoder::new(PhysicalType::Int32, 0, 1 << 20).unwrap();
//! assert_eq!(enc.put(ValuesRef::Int32(&[7, 7, 9, 7])).unwrap(), 4);
//! assert_eq!(enc.dictionary(), &Values::Int32(vec![7, 9]));
//! assert_eq!(enc.indices(), [0, 0, 1, 0]);
//! ```

use alloc::vec::Vec;

use super::encode_indices;
use crate::error::{Error, Result};
use crate::format::PhysicalType;
use crate::values::{ByteArrays, ByteArraysRef, FixedLenByteArrays, Values, ValuesRef};

/// A multiplier with well-spread bits (2^64 / golden ratio, odd).
const K: u64 = 0x9E37_79B9_7F4A_7C15;

/// Hash of a value of up to 8 bytes: one multiply, keep the well-mixed high half.
#[inline(always)]
fn hash_u64(x: u64) -> u32 {
    ((x ^ (x >> 29)).wrapping_mul(K) >> 32) as u32
}

/// Hash of a byte string, 8 bytes per multiply. Strings of up to 32 bytes (most dictionary
/// strings) take no loop: 17 to 32 bytes as their first and last 16, 8 to 16 as their
/// first and last 8 (overlapping), 4 to 7 as their first and last 4, 1 to 3 as their
/// first, middle and last byte. The hash only places entries in the table: any function of
/// the bytes will do.
#[inline(always)]
fn hash_bytes(b: &[u8]) -> u32 {
    let n = b.len();
    let mut h = (n as u64).wrapping_mul(K);
    let mix = |h: u64, x: u64| (h.rotate_left(23) ^ x).wrapping_mul(K);
    if n > 32 {
        let mut chunks = b.chunks_exact(8);
        for c in &mut chunks {
            h = mix(h, u64_of(c));
        }
        if let (false, Some(last)) = (chunks.remainder().is_empty(), b.last_chunk::<8>()) {
            h = mix(h, u64::from_le_bytes(*last));
        }
    } else if let (true, Some(first), Some(last)) =
        (n > 16, b.first_chunk::<16>(), b.last_chunk::<16>())
    {
        h = mix(mix(h, u64_of(first)), u64_of(&first[8..]));
        h = mix(mix(h, u64_of(last)), u64_of(&last[8..]));
    } else if let (Some(first), Some(last)) = (b.first_chunk::<8>(), b.last_chunk::<8>()) {
        h = mix(
            mix(h, u64::from_le_bytes(*first)),
            u64::from_le_bytes(*last),
        );
    } else if let (Some(first), Some(last)) = (b.first_chunk::<4>(), b.last_chunk::<4>()) {
        let x = u64::from(u32::from_le_bytes(*first)) | u64::from(u32::from_le_bytes(*last)) << 32;
        h = mix(h, x);
    } else if let (Some(&a), Some(&c)) = (b.first(), b.last()) {
        let m = b.get(n / 2).copied().unwrap_or(0);
        h = mix(h, u64::from(a) | u64::from(m) << 8 | u64::from(c) << 16);
    }
    (h >> 32) as u32
}

/// The first 8 bytes of `c` (of at least 8) as a little-endian u64.
#[inline(always)]
fn u64_of(c: &[u8]) -> u64 {
    c.first_chunk::<8>().map_or(0, |a| u64::from_le_bytes(*a))
}

/// Whether two byte strings are equal: strings of 4 to 32 bytes by two loads each (first
/// and last 16, 8 or 4, overlapping) instead of a call to `memcmp`.
#[inline(always)]
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let ends = match n {
        0..=3 | 33.. => None,
        17..=32 => same_ends::<16>(a, b),
        8..=16 => same_ends::<8>(a, b),
        _ => same_ends::<4>(a, b),
    };
    ends.unwrap_or_else(|| a == b)
}

/// Whether `a` and `b`, of one length of at least `N` and at most `2 * N`, have the same
/// first and last `N` bytes (so are equal); `None` when shorter than `N`.
#[inline(always)]
fn same_ends<const N: usize>(a: &[u8], b: &[u8]) -> Option<bool> {
    Some(
        a.first_chunk::<N>()? == b.first_chunk::<N>()?
            && a.last_chunk::<N>()? == b.last_chunk::<N>()?,
    )
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
                put_bytes(table, d, v, indices, &mut budget)
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

    /// [`DictionaryEncoder::put`], with the ids of the values taken appended to `ids`
    /// instead of to the encoder's indices (no copy for a caller that keeps them).
    pub fn put_into(&mut self, values: ValuesRef<'_>, ids: &mut Vec<u32>) -> Result<usize> {
        core::mem::swap(&mut self.indices, ids);
        let taken = self.put(values);
        core::mem::swap(&mut self.indices, ids);
        taken
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
        // Every new value fits: no budget check per value, and the ids are written by a
        // single extend of known length. The closure owns the previous key and id (moved
        // in), so they stay in registers; captured by reference they were stored to memory
        // at every value.
        let before = dict.len();
        let (t, d) = (&mut *table, &mut *dict);
        indices.extend(values.iter().map(move |&v| {
            let k = key(v);
            if k != prev_key {
                prev_key = k;
                prev_id = match t.find(k) {
                    Ok(id) => id,
                    Err(pos) => {
                        let id = d.len() as u32;
                        d.push(v);
                        t.insert_at(pos, k, id);
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

/// `put` for BYTE_ARRAY values (each costs its length plus a 4-byte length prefix).
fn put_bytes(
    table: &mut Table,
    dict: &mut ByteArrays,
    values: ByteArraysRef<'_>,
    indices: &mut Vec<u32>,
    budget: &mut Budget<'_>,
) -> usize {
    let n = values.len();
    let (offsets, data) = values.parts();
    // The ids go into slots made beforehand (no capacity check per value); cut back to the
    // values taken when the budget runs out.
    let start = indices.len();
    indices.resize(start + n, 0);
    let slots = indices.get_mut(start..).unwrap_or(&mut []);
    // The previous value and its id: a repeat skips the hash lookup.
    // (No id is u32::MAX: ids stay below MAX_ENTRIES.)
    let (mut prev, mut prev_id): (&[u8], u32) = (&[], u32::MAX);
    let mut taken = n;
    for (k, (w, slot)) in offsets.windows(2).zip(slots).enumerate() {
        let v = match *w {
            [start, end] => data.get(start..end).unwrap_or(&[]),
            _ => &[],
        };
        if prev_id != u32::MAX && same_bytes(prev, v) {
            *slot = prev_id;
            continue;
        }
        let h = hash_bytes(v);
        let id = match table.find(h, |id| {
            dict.get(id as usize).is_some_and(|d| same_bytes(d, v))
        }) {
            Ok(id) => id,
            Err(pos) => {
                if dict.len() >= MAX_ENTRIES || !budget.take(4usize.saturating_add(v.len())) {
                    taken = k;
                    break;
                }
                let id = dict.len() as u32;
                dict.push(v);
                table.insert_at(pos, h, id);
                id
            }
        };
        (prev, prev_id) = (v, id);
        *slot = id;
    }
    indices.truncate(start + taken);
    taken
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
        let id = match table.find(h, |id| {
            dict.get(id as usize).is_some_and(|d| same_bytes(d, v))
        }) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;

    /// Values whose hashes collide (all given the hash 7 here) are told apart by their
    /// bytes, through the table's growths (64 slots at first, 1024 for 300 entries).
    #[test]
    fn colliding_hashes_keep_values_apart() {
        let mut table = Table::new();
        let mut dict = ByteArrays::new();
        let values: Vec<Vec<u8>> = (0..300u32).map(|i| format!("v{i}").into_bytes()).collect();
        for (i, v) in values.iter().enumerate() {
            let found = table.find(7, |id| {
                dict.get(id as usize).is_some_and(|d| same_bytes(d, v))
            });
            let Err(pos) = found else {
                panic!("value {i} found before it was added: {found:?}");
            };
            dict.push(v);
            table.insert_at(pos, 7, i as u32);
        }
        assert_eq!(table.slots.len(), 1024);
        for (i, v) in values.iter().enumerate() {
            let found = table.find(7, |id| {
                dict.get(id as usize).is_some_and(|d| same_bytes(d, v))
            });
            assert_eq!(found, Ok(i as u32));
        }
        let absent = b"v300".as_slice();
        let found = table.find(7, |id| {
            dict.get(id as usize).is_some_and(|d| same_bytes(d, absent))
        });
        assert!(found.is_err());
    }

    /// The short-string comparison is equality, at every length around its 4-, 8-, 16- and
    /// 32-byte loads: a flipped byte anywhere, or one byte more, makes strings differ.
    #[test]
    fn same_bytes_is_equality() {
        for n in 0..=40u8 {
            let a: Vec<u8> = (0..n).map(|i| i.wrapping_mul(37)).collect();
            assert!(same_bytes(&a, &a.clone()));
            for i in 0..n as usize {
                let mut b = a.clone();
                b[i] ^= 0x10;
                assert!(!same_bytes(&a, &b), "length {n}, byte {i}");
                assert!(!same_bytes(&b, &a), "length {n}, byte {i}");
            }
            let mut longer = a.clone();
            longer.push(0);
            assert!(!same_bytes(&a, &longer) && !same_bytes(&longer, &a));
        }
    }
}
