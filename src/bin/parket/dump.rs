//! `parket dump FILE (--at OFFSET | --page RG:COL:N) [--values N]`: an annotated hex dump of
//! one page, for following the bytes with the spec in hand.
//!
//! 1. The page header, one Thrift field per line: file offset, bytes, field id, name, IDL
//!    type and value (walked by [`parket::thrift::annotate`] with the field tables of
//!    `parket::format`).
//! 2. The body, section by section: V1 levels (4-byte length prefix, then each RLE run or
//!    bit-packed group header with its count and values), V2 levels (by the header's byte
//!    lengths, no prefix), then the values, named by encoding: PLAIN shows the bytes of each of
//!    the first N values; dictionary indices show the bit-width byte and the runs;
//!    the DELTA encodings show each stream's header, then block by block the min delta, the
//!    miniblock bit widths and the first deltas of each miniblock; other encodings their bytes.
//!
//! `--footer`, `--column-index`, `--offset-index` and `--bloom-filter` annotate the other
//! structures of a file the same way (see `dump_structs.rs`).
//!
//! A compressed body is shown as stored, then decompressed, marked `(decompressed)`: offsets
//! in the decompressed bytes are `+n` from their start, not file offsets.
//!
//! ```text
//!        4  15 04                        1 type: PageType = DICTIONARY_PAGE (2)
//!        6  15 40                        2 uncompressed_page_size: i32 = 32
//! ```

use std::fmt::Write as _;
use std::io::{Read, Seek, SeekFrom};

use parket::bytes::bitpack::unpack64;
use parket::bytes::cursor::Cursor;
use parket::format::{
    AesGcmCtrV1, AesGcmV1, BloomFilterAlgorithm, BloomFilterCompression, BloomFilterHash,
    BloomFilterHeader, BoundaryOrder, BoundingBox, ColumnChunk, ColumnCryptoMetaData, ColumnIndex,
    ColumnMetaData, ColumnOrder, CompressionCodec, ConvertedType, DataPageHeader, DataPageHeaderV2,
    DecimalType, DictionaryPageHeader, EdgeInterpolationAlgorithm, Encoding, EncryptionAlgorithm,
    EncryptionWithColumnKey, FieldRepetitionType, FileCryptoMetaData, FileMetaData, GeographyType,
    GeometryType, GeospatialStatistics, IndexPageHeader, IntType, KeyValue, LogicalType,
    OffsetIndex, PageEncodingStats, PageHeader, PageLocation, PageType, PhysicalType, RowGroup,
    SchemaElement, SizeStatistics, SortingColumn, Statistics, TimeType, TimeUnit, TimestampType,
    VariantType,
};
use parket::page::decode::{PageColumn, PageDecoder};
use parket::read::{FileReader, RawPage};
use parket::schema::ColumnDescriptor;
use parket::thrift::{annotate, wire_type_name, Annotated, FieldDef, StructDef, Ty};

use crate::args::Args;
use crate::dump_structs;
use crate::pages::{plain_body, report, PageReport};

/// Field tables of the structs of parquet.thrift: page headers, the footer, the page index,
/// Bloom filter headers and the encryption structs, by IDL name.
pub fn lookup(name: &str) -> Option<&'static [FieldDef]> {
    macro_rules! table {
        ($($t:ident),* $(,)?) => {
            match name {
                $(n if n == <$t as StructDef>::NAME => <$t as StructDef>::FIELDS,)*
                _ => return None,
            }
        };
    }
    Some(table![
        PageHeader,
        DataPageHeader,
        DataPageHeaderV2,
        DictionaryPageHeader,
        IndexPageHeader,
        Statistics,
        SizeStatistics,
        GeospatialStatistics,
        BoundingBox,
        FileMetaData,
        SchemaElement,
        RowGroup,
        ColumnChunk,
        ColumnMetaData,
        KeyValue,
        SortingColumn,
        PageEncodingStats,
        LogicalType,
        DecimalType,
        TimeType,
        TimestampType,
        IntType,
        TimeUnit,
        GeometryType,
        GeographyType,
        VariantType,
        ColumnOrder,
        ColumnCryptoMetaData,
        EncryptionWithColumnKey,
        EncryptionAlgorithm,
        AesGcmV1,
        AesGcmCtrV1,
        FileCryptoMetaData,
        ColumnIndex,
        OffsetIndex,
        PageLocation,
        BloomFilterHeader,
        BloomFilterAlgorithm,
        BloomFilterHash,
        BloomFilterCompression,
    ])
}

/// The spec's name of value `v` of the IDL enum `idl`, when known.
fn enum_name(idl: &str, v: i64) -> Option<&'static str> {
    let v = i32::try_from(v).ok()?;
    Some(match idl {
        "Type" => PhysicalType::try_from(v).ok()?.name(),
        "ConvertedType" => ConvertedType::try_from(v).ok()?.name(),
        "FieldRepetitionType" => FieldRepetitionType::try_from(v).ok()?.name(),
        "Encoding" => Encoding::try_from(v).ok()?.name(),
        "CompressionCodec" => CompressionCodec::try_from(v).ok()?.name(),
        "PageType" => PageType::try_from(v).ok()?.name(),
        "BoundaryOrder" => BoundaryOrder::try_from(v).ok()?.name(),
        "EdgeInterpolationAlgorithm" => EdgeInterpolationAlgorithm::try_from(v).ok()?.name(),
        _ => return None,
    })
}

/// Where the bytes being annotated live: file offsets, or offsets into decompressed bytes.
#[derive(Clone, Copy)]
pub(crate) enum Base {
    File(u64),
    Decompressed(usize),
}

impl Base {
    fn at(self, i: usize) -> String {
        match self {
            Base::File(b) => format!("{:>10}", b + i as u64),
            Base::Decompressed(b) => format!("{:>10}", format!("+{}", b + i)),
        }
    }
    fn add(self, n: usize) -> Base {
        match self {
            Base::File(b) => Base::File(b + n as u64),
            Base::Decompressed(b) => Base::Decompressed(b + n),
        }
    }
}

/// The text being built: one line per annotated run of bytes.
pub(crate) struct Dump {
    pub(crate) out: String,
}

pub(crate) const HEX_WIDTH: usize = 12;

impl Dump {
    /// One line: offset, up to HEX_WIDTH bytes (more on continuation lines, at most 3 lines),
    /// indent, text.
    pub(crate) fn line(
        &mut self,
        base: Base,
        start: usize,
        bytes: &[u8],
        indent: usize,
        text: &str,
    ) {
        let chunks: Vec<&[u8]> = if bytes.is_empty() {
            vec![&[][..]]
        } else {
            bytes.chunks(HEX_WIDTH).collect()
        };
        let shown = chunks.len().min(3);
        for (k, c) in chunks.iter().take(shown).enumerate() {
            let hex: Vec<String> = c.iter().map(|b| format!("{b:02x}")).collect();
            let mut hex = hex.join(" ");
            if k == shown - 1 && chunks.len() > shown {
                let _ = write!(hex, " ..+{}", bytes.len() - (shown * HEX_WIDTH));
            }
            let label = if k == 0 { text } else { "" };
            let _ = writeln!(
                self.out,
                "{}  {:<w$}  {}{}",
                base.at(start + k * HEX_WIDTH),
                hex,
                "  ".repeat(indent),
                label,
                w = HEX_WIDTH * 3 + 5
            );
        }
    }

    pub(crate) fn note(&mut self, text: &str) {
        let _ = writeln!(self.out, "{text}");
    }
}

fn ty_text(ty: Option<Ty>, wire: u8) -> String {
    match ty {
        Some(t) => t.to_string(),
        None => wire_type_name(wire).to_string(),
    }
}

/// Annotates a Thrift page header that starts `bytes` (at `base`).
fn thrift_lines(d: &mut Dump, base: Base, bytes: &[u8]) -> Result<usize, String> {
    thrift_struct_lines(d, base, bytes, PageHeader::FIELDS, false)
        .map_err(|e| format!("page header: {e}"))
}

/// Annotates the Thrift struct of field table `root` that starts `bytes` (at `base`), one
/// field per line; `show_binary` adds each binary's contents (text, or its first bytes in hex).
pub(crate) fn thrift_struct_lines(
    d: &mut Dump,
    base: Base,
    bytes: &[u8],
    root: &'static [FieldDef],
    show_binary: bool,
) -> Result<usize, String> {
    let (items, used) = annotate(bytes, root, &lookup, 64).map_err(|e| e.to_string())?;
    for a in &items {
        let b = bytes.get(a.range.clone()).unwrap_or(&[]);
        let head = match (a.field_id, a.field) {
            (Some(id), Some(f)) => format!(
                "{id} {}: {}",
                f.name.trim_end_matches('_'),
                ty_text(Some(f.ty), a.wire_type)
            ),
            (Some(id), None) => format!("{id} (unknown field): {}", wire_type_name(a.wire_type)),
            (None, _) => format!("element: {}", ty_text(a.ty, a.wire_type)),
        };
        let text = match &a.value {
            Annotated::Stop => "stop".to_string(),
            Annotated::Bool(v) => format!("{head} = {v}"),
            Annotated::Int(v) => match a.ty {
                Some(Ty::Enum(idl)) => match enum_name(idl, *v) {
                    Some(n) => format!("{head} = {n} ({v})"),
                    None => format!("{head} = {v}"),
                },
                _ => format!("{head} = {v}"),
            },
            Annotated::Double(v) => format!("{head} = {v}"),
            Annotated::Binary(r) => {
                let content = bytes.get(r.clone()).unwrap_or(&[]);
                if show_binary {
                    format!(
                        "{head} = {} ({} bytes)",
                        binary_text(content),
                        content.len()
                    )
                } else {
                    format!("{head} = {} bytes (after the varint length)", content.len())
                }
            }
            Annotated::Struct => head,
            Annotated::List { size, .. } => format!("{head}, {size} elements"),
            Annotated::Map { size } => format!("{head}, {size} entries"),
        };
        d.line(base, a.range.start, b, a.depth as usize, &text);
    }
    Ok(used)
}

/// A binary's contents for a person: quoted text when it is printable UTF-8, else hex (the
/// first 16 bytes).
fn binary_text(b: &[u8]) -> String {
    match std::str::from_utf8(b) {
        Ok(t) if !t.chars().any(char::is_control) => {
            let short: String = t.chars().take(48).collect();
            let more = if short.len() < t.len() { "..." } else { "" };
            format!("{short:?}{more}")
        }
        _ => {
            let hex: Vec<String> = b.iter().take(16).map(|x| format!("{x:02x}")).collect();
            let more = if b.len() > 16 { " ..." } else { "" };
            format!("0x {}{more}", hex.join(" "))
        }
    }
}

/// Annotates an RLE / bit-packing hybrid run sequence of `bit_width` (no length prefix),
/// holding `count` values (or running to the end of `bytes` when `count` is None).
fn hybrid_lines(
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

fn bit_width_of(max: u16) -> u32 {
    16 - max.leading_zeros()
}

/// One V1 level section (RLE with its 4-byte length, or BIT_PACKED); returns its length.
fn v1_levels(
    d: &mut Dump,
    base: Base,
    body: &[u8],
    encoding: Encoding,
    num_values: usize,
    max: u16,
    what: &str,
) -> usize {
    let bw = bit_width_of(max);
    if encoding == Encoding::BitPacked {
        let len = (num_values * bw as usize).div_ceil(8).min(body.len());
        d.line(
            base,
            0,
            body.get(..len).unwrap_or(&[]),
            1,
            &format!(
                "{what} levels: BIT_PACKED (deprecated, MSB first), {num_values} x {bw} bit(s)"
            ),
        );
        return len;
    }
    let Some(prefix) = body.get(..4) else {
        d.line(
            base,
            0,
            body,
            1,
            &format!("{what} levels: truncated length prefix"),
        );
        return body.len();
    };
    let len = u32::from_le_bytes([prefix[0], prefix[1], prefix[2], prefix[3]]) as usize;
    d.line(
        base,
        0,
        prefix,
        1,
        &format!("{what} levels: 4-byte LE length = {len}, then RLE hybrid at bit width {bw} (max level {max})"),
    );
    let end = (4 + len).min(body.len());
    hybrid_lines(
        d,
        base.add(4),
        body.get(4..end).unwrap_or(&[]),
        bw,
        Some(num_values),
        2,
    );
    end
}

fn plain_values(
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

/// The header of DELTA_BINARY_PACKED (also the start of the DELTA_*_BYTE_ARRAY encodings).
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

fn values_lines(
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

/// Annotates the body of a page.
fn body_lines(
    d: &mut Dump,
    base: Base,
    raw: &RawPage,
    desc: &ColumnDescriptor,
    codec: CompressionCodec,
    rep: &PageReport,
    show: usize,
) {
    let h = &raw.header;
    let column = PageColumn::from(desc);
    let body = &raw.body;
    let file_base = base;
    let mut base = base;
    let mut plain_buf = Vec::new();
    let compressed = codec != CompressionCodec::Uncompressed;
    let v2_levels = match (&h.data_page_header_v2, h.type_) {
        (Some(v2), PageType::DataPageV2) => Some((
            usize::try_from(v2.repetition_levels_byte_length).unwrap_or(0),
            usize::try_from(v2.definition_levels_byte_length).unwrap_or(0),
        )),
        _ => None,
    };
    if compressed {
        let what = match v2_levels {
            Some(_) => "V2: levels as stored, values compressed",
            None => "the whole body is compressed",
        };
        d.line(
            base,
            0,
            body,
            0,
            &format!(
                "body: {} bytes compressed with {codec} ({what})",
                body.len()
            ),
        );
        match plain_body(h, body, codec) {
            Ok(p) => {
                let what = if v2_levels.is_some() {
                    "the values section"
                } else {
                    "the body"
                };
                d.note(&format!(
                    "  ({what} decompressed: {} bytes, not in the file; offsets +n count from its start)",
                    p.len() - v2_levels.map_or(0, |(r, d)| r + d)
                ));
                plain_buf = p;
                base = Base::Decompressed(0);
            }
            Err(e) => {
                d.note(&format!("  {e}"));
                return;
            }
        }
    }
    let bytes: &[u8] = if compressed { &plain_buf } else { body };
    let non_null = rep
        .num_values
        .zip(rep.num_nulls)
        .map(|(v, n)| (v - n).max(0) as usize)
        .unwrap_or(0);
    match h.type_ {
        PageType::DictionaryPage => {
            let n = rep.num_values.unwrap_or(0).max(0) as usize;
            d.line(
                base,
                0,
                &[],
                1,
                &format!("dictionary: {n} PLAIN value(s), {} bytes", bytes.len()),
            );
            plain_values(d, base, bytes, desc, n, show);
        }
        PageType::DataPage => {
            let Some(dp) = &h.data_page_header else {
                return;
            };
            let n = usize::try_from(dp.num_values).unwrap_or(0);
            let mut at = 0;
            if column.max_rep_level > 0 {
                at += v1_levels(
                    d,
                    base,
                    bytes,
                    dp.repetition_level_encoding,
                    n,
                    column.max_rep_level,
                    "repetition",
                );
            } else {
                d.note("           (no repetition levels: max_rep_level is 0)");
            }
            if column.max_def_level > 0 {
                let rest = bytes.get(at..).unwrap_or(&[]);
                at += v1_levels(
                    d,
                    base.add(at),
                    rest,
                    dp.definition_level_encoding,
                    n,
                    column.max_def_level,
                    "definition",
                );
            } else {
                d.note("           (no definition levels: max_def_level is 0)");
            }
            let vals = bytes.get(at..).unwrap_or(&[]);
            values_lines(d, base.add(at), vals, dp.encoding, desc, non_null, show);
        }
        PageType::DataPageV2 => {
            let (Some(v2), Some((rl, dl))) = (&h.data_page_header_v2, v2_levels) else {
                return;
            };
            let n = usize::try_from(v2.num_values).unwrap_or(0);
            // Spec: V2 levels are never compressed: they are shown as stored in the file.
            let rep_bytes = body.get(..rl).unwrap_or(&[]);
            let def_bytes = body.get(rl..rl + dl).unwrap_or(&[]);
            let values_base = match base {
                Base::File(_) => base.add(rl + dl),
                Base::Decompressed(_) => Base::Decompressed(0),
            };
            let base = file_base;
            d.line(base, 0, &[], 1, &format!("repetition levels: {rl} bytes (repetition_levels_byte_length), RLE hybrid, no length prefix"));
            hybrid_lines(
                d,
                base,
                rep_bytes,
                bit_width_of(column.max_rep_level),
                Some(n),
                2,
            );
            d.line(base, rl, &[], 1, &format!("definition levels: {dl} bytes (definition_levels_byte_length), RLE hybrid, no length prefix"));
            hybrid_lines(
                d,
                base.add(rl),
                def_bytes,
                bit_width_of(column.max_def_level),
                Some(n),
                2,
            );
            let vals = bytes.get(rl + dl..).unwrap_or(&[]);
            values_lines(d, values_base, vals, v2.encoding, desc, non_null, show);
        }
        _ => d.line(base, 0, bytes, 1, "body (no content defined by the spec)"),
    }
}

/// Finds the page: `--at OFFSET` (a page's first byte) or `--page RG:COL:N`. Returns it with
/// its column, codec and report (the chunk's earlier pages are decoded for the dictionary).
fn find(
    file: &FileReader<'_>,
    at: Option<u64>,
    page: Option<(usize, usize, usize)>,
) -> Result<(RawPage, usize, usize, CompressionCodec, PageReport), String> {
    let schema = file.schema();
    for rg in 0..file.num_row_groups() {
        for (j, desc) in schema.columns().iter().enumerate() {
            if let Some((prg, pcol, _)) = page {
                if (prg, pcol) != (rg, j) {
                    continue;
                }
            }
            let Some(meta) = file.metadata().row_groups[rg]
                .columns
                .get(j)
                .and_then(|c| c.meta_data.as_ref())
            else {
                continue;
            };
            let Ok(pages) = file.pages(rg, j) else {
                continue;
            };
            let mut decoder = PageDecoder::new(PageColumn::from(desc), meta.codec, *file.limits())
                .verify_crc(false);
            for (k, raw) in pages.enumerate() {
                let Ok(raw) = raw else { break };
                let hit = match (at, page) {
                    (Some(o), _) => raw.offset == o,
                    (_, Some((_, _, n))) => k == n,
                    _ => false,
                };
                if at.is_some_and(|o| raw.offset > o) {
                    break;
                }
                let mut rep = report(&raw, desc, meta.codec, &mut decoder);
                rep.page = k;
                if hit {
                    return Ok((raw, rg, j, meta.codec, rep));
                }
            }
        }
    }
    Err(match (at, page) {
        (Some(o), _) => format!("no page starts at offset {o} (`parket pages` lists the offsets)"),
        (_, Some((rg, c, n))) => format!("row group {rg}, column {c} has no page {n}"),
        _ => "give --at OFFSET or --page RG:COL:N".into(),
    })
}

/// Parses `RG:COL:N` (COL a leaf index or a dotted path).
fn parse_page(spec: &str, file: &FileReader<'_>) -> Result<(usize, usize, usize), String> {
    let bad = || format!("--page {spec:?}: expected RG:COL:N (COL a leaf index or dotted path)");
    let (rg, rest) = spec.split_once(':').ok_or_else(bad)?;
    let (col, n) = rest.rsplit_once(':').ok_or_else(bad)?;
    let rg: usize = rg.parse().map_err(|_| bad())?;
    let n: usize = n.parse().map_err(|_| bad())?;
    let col = match col.parse::<usize>() {
        Ok(c) => c,
        Err(_) => file
            .schema()
            .column_index(col)
            .ok_or_else(|| format!("no leaf column with the path {col:?}"))?,
    };
    Ok((rg, col, n))
}

/// The annotated dump of the page at `at` / `page` of `file` (read from `path`).
pub fn dump_text(
    path: &str,
    file: &FileReader<'_>,
    at: Option<u64>,
    page: Option<(usize, usize, usize)>,
    show: usize,
) -> Result<String, String> {
    let (raw, rg, j, codec, rep) = find(file, at, page)?;
    let desc = &file.schema().columns()[j];
    // An encrypted page (read with its key): the header and body as decrypted.
    let encrypted = file.is_encrypted()
        && file.metadata().row_groups[rg].columns[j]
            .crypto_metadata
            .is_some();
    let header = if encrypted {
        let mut h = Vec::new();
        raw.header.encode(&mut h);
        h
    } else {
        // The header's bytes, as stored.
        let mut f = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
        let mut header = vec![0; raw.header_len];
        f.seek(SeekFrom::Start(raw.offset))
            .and_then(|_| f.read_exact(&mut header))
            .map_err(|e| format!("{path}: {e}"))?;
        header
    };
    let mut d = Dump { out: String::new() };
    d.note(&format!(
        "page {} of row group {rg}, column {} ({}, max_def_level {}, max_rep_level {}), codec {codec}",
        rep.page,
        desc.path_string(),
        desc.physical_type,
        desc.max_def_level,
        desc.max_rep_level,
    ));
    d.note(&format!(
        "{} at offset {}: {}-byte header + {}-byte body; CRC {}",
        rep.page_type,
        raw.offset,
        raw.header_len,
        raw.body.len(),
        rep.crc
    ));
    if let Some(e) = &rep.error {
        d.note(&format!("the page does not decode: {e}"));
    }
    if encrypted {
        d.note(&format!(
            "encrypted: the header is a {}-byte module, the body a {}-byte one (4-byte length, \
             12-byte nonce, ciphertext, 16-byte tag); shown decrypted, offsets +N into the \
             plaintext; the header as the reader applies it: compressed_page_size is the \
             decrypted body's, the CRC (over the stored bytes) checked and left out",
            raw.header_len,
            raw.body.len() + 28
        ));
    }
    d.note("");
    d.note(&format!(
        "{:>10}  {:<w$}  PageHeader (Thrift compact): field id, name: type = value",
        "offset",
        "bytes",
        w = HEX_WIDTH * 3 + 5
    ));
    let (header_base, body_base) = if encrypted {
        (Base::Decompressed(0), Base::Decompressed(0))
    } else {
        let body_at = raw.offset + raw.header_len as u64;
        (Base::File(raw.offset), Base::File(body_at))
    };
    thrift_lines(&mut d, header_base, &header)?;
    d.note("");
    body_lines(&mut d, body_base, &raw, desc, codec, &rep, show);
    Ok(d.out)
}

/// `parket dump`.
pub fn dump(mut args: Args) -> Result<(), String> {
    let footer = args.flag("--footer");
    let column_index = args.value("--column-index")?;
    let offset_index = args.value("--offset-index")?;
    let bloom = args.value("--bloom-filter")?;
    let probe = args.value("--probe")?;
    let at = args.parsed::<u64>("--at")?;
    let page = args.value("--page")?;
    let show = args.parsed::<usize>("--values")?.unwrap_or(8);
    let [path] = <[String; 1]>::try_from(args.positional(&["FILE"])?).unwrap_or_default();
    let structs = [
        footer,
        column_index.is_some(),
        offset_index.is_some(),
        bloom.is_some(),
    ];
    let chosen =
        structs.iter().filter(|&&b| b).count() + usize::from(at.is_some() || page.is_some());
    if chosen > 1 {
        return Err(
            "give one of --at, --page, --footer, --column-index, --offset-index, --bloom-filter"
                .into(),
        );
    }
    if probe.is_some() && bloom.is_none() {
        return Err("--probe VALUE goes with --bloom-filter RG:COL".into());
    }
    let text = if footer {
        Some(dump_structs::footer(&path)?)
    } else if let Some(spec) = column_index {
        Some(dump_structs::column_index(&path, &spec)?)
    } else if let Some(spec) = offset_index {
        Some(dump_structs::offset_index(&path, &spec)?)
    } else if let Some(spec) = bloom {
        Some(dump_structs::bloom_filter(&path, &spec, probe.as_deref())?)
    } else {
        None
    };
    if let Some(text) = text {
        print!("{text}");
        return Ok(());
    }
    let file = crate::pages::open(&path)?;
    let page = page.map(|p| parse_page(&p, &file)).transpose()?;
    if at.is_some() == page.is_some() {
        return Err("give exactly one of --at OFFSET, --page RG:COL:N, --footer, --column-index RG:COL, --offset-index RG:COL, --bloom-filter RG:COL".into());
    }
    let text = dump_text(&path, &file, at, page, show)?;
    print!("{text}");
    Ok(())
}
