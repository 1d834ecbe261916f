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
//! This file owns the Thrift annotation (shared with `dump_structs.rs`) and the page layout:
//! where the levels and the values sit in a V1 or V2 page (DataPageV2 in parquet.thrift;
//! README "Data Pages"), and decompression. The bytes of each encoding are annotated by
//! `dump_encodings.rs`. `--footer`, `--column-index`, `--offset-index` and `--bloom-filter`
//! annotate the other structures of a file the same way (see `dump_structs.rs`).
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
use crate::dump_encodings::{bit_width_of, hybrid_lines, plain_values, values_lines};
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
    pub(crate) fn add(self, n: usize) -> Base {
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
