//! The body half of `parket dump`: the bytes of each encoding of Encodings.md, annotated
//! section by section for a page's values and levels.
//!
//! - the RLE / bit-packing hybrid (Encodings.md "Run Length Encoding / Bit-Packing Hybrid"):
//!   each run header with its count, then the run's value or its bit-packed groups;
//! - PLAIN ("Plain"): the bytes of each of the first N values, by physical type;
//! - dictionary indices ("Dictionary Encoding"): the bit-width byte, then the hybrid runs;
//! - RLE booleans: the 4-byte length, then the runs;
//! - DELTA_BINARY_PACKED ("Delta Encoding"): the header, then block by block the min delta,
//!   the miniblock bit widths and the first deltas of each miniblock; the DELTA_LENGTH and
//!   DELTA_BYTE_ARRAY encodings as their delta streams followed by the bytes.
//!
//! Where the sections sit in a page (V1's length-prefixed levels, V2's levels by byte length,
//! decompression) is `dump.rs`'s. Worked example: the hybrid runs `06 05` at bit width 3,
//! three values, are one RLE run (header 6 = 3 << 1, even: a repeated run; then the value in
//! one byte), annotated as (offset, bytes, text; a test checks it)
//!
//! ```text
//!          0  06 05   RLE run: 3 x value 5 (header varint 6 = 3 << 1; then the value in 1 byte(s))
//! ```

use std::fmt::Write as _;

use parket::bytes::bitpack::unpack64;
use parket::bytes::cursor::Cursor;
use parket::format::{Encoding, PhysicalType};
use parket::schema::ColumnDescriptor;

use crate::dump::{Base, Dump};

/// Annotates an RLE / bit-packing hybrid run sequence of `bit_width` (no length prefix),
/// holding `count` values (or running to the end of `bytes` when `count` is None).
pub(crate) fn hybrid_lines(
    d: &mut Dump,
    base: Base,
    bytes: &[u8],
    bit_width: u32,
    count: Option<usize>,
    indent: usize,
) {
    let mut c = Cursor::new(bytes);
    let mut seen = 0usize;
    let mut runs = 0usize;
    while !c.is_empty() && count.is_none_or(|n| seen < n) {
        if runs == 40 {
            d.line(
                base,
                c.position(),
                &[],
                indent,
                &format!("... {} more bytes of runs", c.remaining()),
            );
            return;
        }
        runs += 1;
        let start = c.position();
        let Ok(header) = c.uleb128("RLE run header") else {
            d.line(base, start, c.rest(), indent, "truncated run header");
            return;
        };
        let hlen = c.position() - start;
        if header & 1 == 1 {
            let groups = (header >> 1) as usize;
            let n = groups.saturating_mul(8);
            let len = groups.saturating_mul(bit_width as usize);
            let hb = bytes.get(start..start + hlen).unwrap_or(&[]);
            d.line(
                base,
                start,
                hb,
                indent,
                &format!("bit-packed run header: {groups} group(s) of 8 = {n} values (varint {header} = {groups} << 1 | 1)"),
            );
            let body_at = c.position();
            let take = len.min(c.remaining());
            let body = c.take(take, "bit-packed run").unwrap_or(&[]);
            let show = n.min(32).min(take * 8 / (bit_width.max(1) as usize));
            let mut vals = vec![0u64; if bit_width == 0 { n.min(32) } else { show }];
            unpack64(body, bit_width, &mut vals);
            let mut text = format!("{} values of {bit_width} bit(s), LSB first: {:?}", n, vals);
            if vals.len() < n {
                text.push_str(" ...");
            }
            if let Some(total) = count {
                let pad = (seen + n).saturating_sub(total);
                if pad > 0 {
                    let _ = write!(text, " (the last {pad} are padding)");
                }
            }
            if take < len {
                let _ = write!(text, " (truncated: {take} of {len} bytes)");
            }
            d.line(base, body_at, body, indent, &text);
            seen = seen.saturating_add(n);
        } else {
            let n = (header >> 1) as usize;
            let w = (bit_width as usize).div_ceil(8);
            let vstart = c.position();
            let vb = c.take(w.min(c.remaining()), "RLE run value").unwrap_or(&[]);
            let mut v = 0u64;
            for (i, b) in vb.iter().enumerate().take(8) {
                v |= u64::from(*b) << (8 * i);
            }
            let all = bytes.get(start..vstart + vb.len()).unwrap_or(&[]);
            d.line(
                base,
                start,
                all,
                indent,
                &format!("RLE run: {n} x value {v} (header varint {header} = {n} << 1; then the value in {w} byte(s))"),
            );
            seen = seen.saturating_add(n);
        }
    }
    if !c.is_empty() {
        d.line(base, c.position(), c.rest(), indent, "unused bytes");
    }
}

pub(crate) fn bit_width_of(max: u16) -> u32 {
    16 - max.leading_zeros()
}

pub(crate) fn plain_values(
    d: &mut Dump,
    base: Base,
    bytes: &[u8],
    desc: &ColumnDescriptor,
    count: usize,
    show: usize,
) {
    let width = match desc.physical_type {
        PhysicalType::Int32 | PhysicalType::Float => Some(4),
        PhysicalType::Int64 | PhysicalType::Double => Some(8),
        PhysicalType::Int96 => Some(12),
        PhysicalType::FixedLenByteArray => desc.type_length,
        PhysicalType::Boolean | PhysicalType::ByteArray => None,
    };
    let mut c = Cursor::new(bytes);
    let mut i = 0;
    while i < count.min(show) && !c.is_empty() {
        let start = c.position();
        match (desc.physical_type, width) {
            (PhysicalType::Boolean, _) => {
                let Ok(b) = c.u8("booleans") else { break };
                let bits: Vec<u8> = (0..8).map(|k| (b >> k) & 1).collect();
                let n = (count - i).min(8);
                d.line(
                    base,
                    start,
                    &[b],
                    2,
                    &format!("values {i}..{}: bits LSB first {:?}", i + n - 1, &bits[..n]),
                );
                i += 8;
                continue;
            }
            (PhysicalType::ByteArray, _) => {
                let Ok(len) = c.u32_le("byte array length") else {
                    break;
                };
                let v = c
                    .take((len as usize).min(c.remaining()), "byte array")
                    .unwrap_or(&[]);
                let all = bytes.get(start..c.position()).unwrap_or(&[]);
                let text = String::from_utf8_lossy(v);
                let short: String = text.chars().take(40).collect();
                d.line(
                    base,
                    start,
                    all,
                    2,
                    &format!("value {i}: length {len} (4 bytes LE), then {short:?}"),
                );
            }
            (t, Some(w)) => {
                let Ok(v) = c.take(w.min(c.remaining()), "value") else {
                    break;
                };
                let text = match t {
                    PhysicalType::Int32 => {
                        format!("{}", i32::from_le_bytes(v.try_into().unwrap_or([0; 4])))
                    }
                    PhysicalType::Int64 => {
                        format!("{}", i64::from_le_bytes(v.try_into().unwrap_or([0; 8])))
                    }
                    PhysicalType::Float => {
                        format!("{}", f32::from_le_bytes(v.try_into().unwrap_or([0; 4])))
                    }
                    PhysicalType::Double => {
                        format!("{}", f64::from_le_bytes(v.try_into().unwrap_or([0; 8])))
                    }
                    PhysicalType::Int96 => {
                        "INT96: 8 bytes nanoseconds of day, 4 bytes Julian day".into()
                    }
                    _ => format!("{w} bytes"),
                };
                d.line(
                    base,
                    start,
                    v,
                    2,
                    &format!("value {i}: {text} ({t}, little-endian)"),
                );
            }
            (_, None) => break,
        }
        i += 1;
    }
    if !c.is_empty() {
        d.line(
            base,
            c.position(),
            &[],
            2,
            &format!("... {} more bytes of values", c.remaining()),
        );
    }
}

/// Blocks of a DELTA_BINARY_PACKED stream annotated before the rest is summarised.
const DELTA_BLOCKS_SHOWN: usize = 4;

/// Annotates one DELTA_BINARY_PACKED stream at the start of `bytes` (Encodings.md, "Delta
/// Encoding"): the header, then each block's min delta, miniblock bit widths and miniblocks
/// with their first deltas (packed value + min delta). Returns the bytes the stream takes
/// (`None` when it is cut short or its header is invalid) and its value count.
fn delta_stream(
    d: &mut Dump,
    base: Base,
    bytes: &[u8],
    what: &str,
    indent: usize,
) -> Option<(usize, u64)> {
    let mut c = Cursor::new(bytes);
    let mut header = [0u64; 3];
    let names = [
        "block size in values",
        "miniblocks per block",
        "total value count",
    ];
    d.line(
        base,
        0,
        &[],
        indent,
        &format!("{what}: DELTA_BINARY_PACKED"),
    );
    for (n, v) in names.iter().zip(header.iter_mut()) {
        let s = c.position();
        let Ok(x) = c.uleb128("DELTA_BINARY_PACKED header") else {
            d.line(base, s, c.rest(), indent + 1, "truncated header");
            return None;
        };
        *v = x;
        let b = bytes.get(s..c.position()).unwrap_or(&[]);
        d.line(base, s, b, indent + 1, &format!("{n}: {x} (ULEB128)"));
    }
    let s = c.position();
    let Ok(first) = c.zigzag("DELTA_BINARY_PACKED first value") else {
        d.line(base, s, c.rest(), indent + 1, "truncated first value");
        return None;
    };
    let b = bytes.get(s..c.position()).unwrap_or(&[]);
    d.line(
        base,
        s,
        b,
        indent + 1,
        &format!("first value: {first} (zigzag ULEB128)"),
    );
    let [block, minis, total] = header;
    // Spec: the block size is a multiple of 128, the miniblock count divides it, and each
    // miniblock holds a multiple of 32 values.
    let per_mini = if minis > 0 && block % minis == 0 {
        block / minis
    } else {
        0
    };
    if block == 0 || block % 128 != 0 || per_mini == 0 || per_mini % 32 != 0 {
        d.line(
            base,
            c.position(),
            &[],
            indent + 1,
            "invalid header: the block size must be a multiple of 128 split in miniblocks of a multiple of 32 values",
        );
        return None;
    }
    let mut left = total.saturating_sub(1); // deltas still to come
    let mut k = 0usize;
    while left > 0 {
        if k == DELTA_BLOCKS_SHOWN {
            d.line(
                base,
                c.position(),
                &[],
                indent + 1,
                &format!("... {left} more deltas in further blocks"),
            );
            break;
        }
        let s = c.position();
        let Ok(min) = c.zigzag("DELTA_BINARY_PACKED min delta") else {
            d.line(base, s, c.rest(), indent + 1, "truncated block");
            return None;
        };
        let b = bytes.get(s..c.position()).unwrap_or(&[]);
        d.line(
            base,
            s,
            b,
            indent + 1,
            &format!("block {k}: min delta {min} (zigzag ULEB128)"),
        );
        let s = c.position();
        let Ok(widths) = c.take((minis as usize).min(c.remaining()), "bit widths") else {
            return None;
        };
        d.line(
            base,
            s,
            widths,
            indent + 2,
            &format!("bit widths of the {minis} miniblocks: {widths:?}"),
        );
        if widths.len() as u64 != minis {
            d.line(base, c.position(), &[], indent + 2, "truncated bit widths");
            return None;
        }
        for (m, &w) in widths.iter().enumerate() {
            if left == 0 {
                d.line(
                    base,
                    c.position(),
                    &[],
                    indent + 2,
                    &format!(
                        "miniblocks {m}.. hold no value: no bytes (their widths mean nothing)"
                    ),
                );
                break;
            }
            if w > 64 {
                d.line(
                    base,
                    c.position(),
                    &[],
                    indent + 2,
                    &format!("bit width {w} is over 64"),
                );
                return None;
            }
            let len = (per_mini as usize).saturating_mul(usize::from(w)) / 8;
            let s = c.position();
            let Ok(body) = c.take(len.min(c.remaining()), "miniblock") else {
                return None;
            };
            let n = per_mini.min(left);
            let mut packed = vec![0u64; (n as usize).min(8)];
            unpack64(body, u32::from(w), &mut packed);
            let deltas: Vec<i64> = packed
                .iter()
                .map(|&p| (p as i64).wrapping_add(min))
                .collect();
            let more = if n as usize > packed.len() {
                " ..."
            } else {
                ""
            };
            let pad = per_mini - n;
            d.line(
                base,
                s,
                body,
                indent + 2,
                &format!(
                    "miniblock {m}: {per_mini} x {w} bits = {len} bytes; packed {packed:?}{more} + min delta = deltas {deltas:?}{more}{}",
                    if pad > 0 { format!(" (the last {pad} are padding)") } else { String::new() }
                ),
            );
            if body.len() < len {
                d.line(base, c.position(), &[], indent + 2, "truncated miniblock");
                return None;
            }
            left -= n;
        }
        k += 1;
    }
    if left > 0 {
        // The blocks not shown: walk them to find where the stream ends.
        while left > 0 {
            let Ok(_) = c.zigzag("min delta") else {
                return None;
            };
            let Ok(widths) = c.take((minis as usize).min(c.remaining()), "bit widths") else {
                return None;
            };
            if widths.len() as u64 != minis {
                return None;
            }
            for &w in widths {
                if left == 0 {
                    break;
                }
                let len = (per_mini as usize).saturating_mul(usize::from(w.min(64))) / 8;
                c.take(len, "miniblock").ok()?;
                left -= per_mini.min(left);
            }
        }
    }
    Some((c.position(), total))
}

/// Annotates DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY (lengths, then the bytes) and
/// DELTA_BYTE_ARRAY (prefix lengths, suffix lengths, then the suffixes) values.
fn delta_values(d: &mut Dump, base: Base, bytes: &[u8], encoding: Encoding) {
    let streams: &[&str] = match encoding {
        Encoding::DeltaBinaryPacked => &["the values"],
        Encoding::DeltaLengthByteArray => &["the lengths"],
        _ => &[
            "the prefix lengths (bytes shared with the previous value)",
            "the suffix lengths",
        ],
    };
    let mut at = 0usize;
    for what in streams {
        let rest = bytes.get(at..).unwrap_or(&[]);
        let Some((used, _)) = delta_stream(d, base.add(at), rest, what, 2) else {
            return;
        };
        at += used;
    }
    let rest = bytes.get(at..).unwrap_or(&[]);
    if encoding != Encoding::DeltaBinaryPacked || !rest.is_empty() {
        let text = match encoding {
            Encoding::DeltaBinaryPacked => "bytes after the stream",
            Encoding::DeltaLengthByteArray => "the byte arrays, back to back",
            _ => "the suffixes, back to back",
        };
        d.line(base, at, rest, 2, &format!("{text}: {} bytes", rest.len()));
    }
}

pub(crate) fn values_lines(
    d: &mut Dump,
    base: Base,
    bytes: &[u8],
    encoding: Encoding,
    desc: &ColumnDescriptor,
    non_null: usize,
    show: usize,
) {
    d.line(
        base,
        0,
        &[],
        1,
        &format!(
            "values: {encoding}, {non_null} non-null value(s), {} bytes",
            bytes.len()
        ),
    );
    match encoding {
        Encoding::Plain => plain_values(d, base, bytes, desc, non_null, show),
        Encoding::PlainDictionary | Encoding::RleDictionary => {
            let Some(&bw) = bytes.first() else { return };
            d.line(
                base,
                0,
                &[bw],
                2,
                &format!("bit width of the dictionary indices: {bw}"),
            );
            if bw <= 32 {
                hybrid_lines(d, base.add(1), &bytes[1..], bw.into(), Some(non_null), 2);
            }
        }
        Encoding::Rle => {
            let Some(prefix) = bytes.get(..4) else { return };
            let len = u32::from_le_bytes([prefix[0], prefix[1], prefix[2], prefix[3]]) as usize;
            d.line(
                base,
                0,
                prefix,
                2,
                &format!("4-byte LE length = {len}, then RLE hybrid at bit width 1"),
            );
            let end = (4 + len).min(bytes.len());
            hybrid_lines(d, base.add(4), &bytes[4..end], 1, Some(non_null), 2);
        }
        Encoding::DeltaBinaryPacked | Encoding::DeltaLengthByteArray | Encoding::DeltaByteArray => {
            delta_values(d, base, bytes, encoding)
        }
        _ => d.line(base, 0, bytes, 2, "encoded values"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dump::HEX_WIDTH;

    #[test]
    fn one_rle_run_as_the_module_doc_shows_it() {
        let mut d = Dump { out: String::new() };
        hybrid_lines(&mut d, Base::File(0), &[0x06, 0x05], 3, Some(3), 0);
        let text = "RLE run: 3 x value 5 (header varint 6 = 3 << 1; then the value in 1 byte(s))";
        let want = format!(
            "{:>10}  {:<w$}  {text}\n",
            0,
            "06 05",
            w = HEX_WIDTH * 3 + 5
        );
        assert_eq!(d.out, want);
    }

    #[test]
    fn a_bit_packed_run_names_its_padding() {
        // Header 3 = 1 << 1 | 1: one group of 8 values at bit width 1, of which 5 are data.
        let mut d = Dump { out: String::new() };
        hybrid_lines(&mut d, Base::File(0), &[0x03, 0b1011_0101], 1, Some(5), 0);
        assert!(d
            .out
            .contains("8 values of 1 bit(s), LSB first: [1, 0, 1, 0, 1, 1, 0, 1]"));
        assert!(d.out.contains("(the last 3 are padding)"), "{}", d.out);
    }
}
