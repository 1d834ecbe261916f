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
//!
//! Three parts, one file each: this module owns the data page format of the indices
//! ([`decode_indices`], [`encode_indices`]); `gather.rs` turns indices into values (the
//! reader's engine: [`gather`], and [`decode_gather`], fused with the index decoding);
//! `encoder.rs` builds a dictionary from values (the writer's hash tables,
//! [`DictionaryEncoder`]).

use alloc::vec::Vec;

use crate::bytes::Cursor;
use crate::encoding::rle;
use crate::error::{Error, Result};

mod encoder;
mod gather;
#[cfg(test)]
mod tests;

pub use encoder::DictionaryEncoder;
#[allow(unused_imports)] // unused in builds for size, which gather in two passes
pub(crate) use gather::decode_gather_dict;
pub(crate) use gather::{check_max, gather_dict, Dict, Entries};
pub use gather::{decode_gather, gather};

/// Decodes `num_values` dictionary indices (a 1-byte bit width, then the RLE/bit-packing
/// hybrid without length prefix), appending to `out`; returns the bytes consumed.
///
/// Never panics, for any input. Errors on a bit width above 32 and on anything
/// [`rle::decode_u32`] rejects. With `num_values == 0`, an empty input is accepted.
pub fn decode_indices(input: &[u8], num_values: usize, out: &mut Vec<u32>) -> Result<usize> {
    let Some((bit_width, rest)) = indices_header(input, num_values)? else {
        return Ok(0);
    };
    let used = rle::decode_u32(rest, bit_width, num_values, out).map_err(|e| e.offset_by(1))?;
    Ok(1 + used)
}

/// The bit width byte of a page of `num_values` indices, checked, and the hybrid after it;
/// `None` for an empty page of no values (shared by [`decode_indices`] and
/// [`decode_gather`]).
#[inline]
fn indices_header(input: &[u8], num_values: usize) -> Result<Option<(u32, &[u8])>> {
    if num_values == 0 && input.is_empty() {
        return Ok(None);
    }
    let mut c = Cursor::new(input);
    let bit_width = c.u8("dictionary indices bit width")?;
    // Spec: "the bit width used to encode the entry ids stored as 1 byte (max bit width = 32)".
    if bit_width > 32 {
        return Err(
            Error::out_of_range("dictionary indices bit width", bit_width as i64).at_offset(0),
        );
    }
    Ok(Some((u32::from(bit_width), c.rest())))
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

/// Fuzzing harness: PLAIN-decodes a dictionary from the input, then dictionary indices, then
/// gathers; checks the guarantees of each step. Panics only if a decoder breaks one of its
/// own guarantees.
#[cfg(any(test, feature = "fuzzing"))]
#[doc(hidden)]
pub fn fuzz_decode(data: &[u8]) {
    use crate::encoding::plain;
    use crate::format::PhysicalType;
    use crate::values::Values;
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
