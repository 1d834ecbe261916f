//! `parket pages FILE [--column PATH] [--json]`: one line per page of every column chunk.
//!
//! For each page: row group, column, file offset, page type, encodings (values, and levels for
//! V1), compressed / uncompressed size, level positions, nulls, rows, level byte lengths, CRC
//! (`ok`, `bad` or `none`) and the first and last non-null value (printed as `cat --json`
//! prints values). Built on the public low-level API: [`FileReader::pages`] for the raw pages,
//! [`PageDecoder`] for their contents.
//!
//! ```text
//! rg col     offset type        encoding            comp  uncomp values nulls rows rep def crc  first .. last
//!  0 id           4 DATA_PAGE   PLAIN (RLE/BIT_PACK)  ...
//! ```

use std::fmt::Write as _;
use std::io::Write as _;

use parket::bytes::crc32::crc32;
use parket::format::{CompressionCodec, Encoding, PageHeader, PageType};
use parket::page::decode::{PageColumn, PageDecoder};
use parket::read::{FileReader, RawPage};
use parket::record::Value;
use parket::schema::ColumnDescriptor;
use parket::values::ValuesRef;

use crate::args::Args;
use crate::json::push_str;
use crate::rows::leaf_to_json;

/// What `parket pages` reports about one page.
#[derive(Debug, Default, Clone)]
pub struct PageReport {
    pub row_group: usize,
    pub column: String,
    /// Ordinal of the page in its chunk (the dictionary page is 0).
    pub page: usize,
    pub offset: u64,
    pub header_len: usize,
    pub page_type: String,
    pub encoding: Option<String>,
    pub def_level_encoding: Option<String>,
    pub rep_level_encoding: Option<String>,
    pub compressed: i64,
    pub uncompressed: i64,
    /// Level positions (data pages) or entries (dictionary pages).
    pub num_values: Option<i64>,
    pub num_nulls: Option<i64>,
    pub num_rows: Option<i64>,
    pub rep_bytes: Option<i64>,
    pub def_bytes: Option<i64>,
    pub crc: &'static str,
    /// JSON text of the first and last non-null value.
    pub first: Option<String>,
    pub last: Option<String>,
    /// Why the body did not decode.
    pub error: Option<String>,
}

/// Pages larger than this (uncompressed) are listed from their header only: decoding them
/// just for their first and last value is not worth the time and memory.
const MAX_DECODE: i32 = 64 << 20;

/// Opens `path` streaming (pages are read one at a time).
pub fn open(path: &str) -> Result<FileReader<'static>, String> {
    crate::cat::open(path)
}

/// A value of `values` at `i`, as the record layer holds it.
pub fn value_at(values: ValuesRef<'_>, i: usize) -> Option<Value> {
    Some(match values {
        ValuesRef::Boolean(v) => Value::Boolean(*v.get(i)?),
        ValuesRef::Int32(v) => Value::Int32(*v.get(i)?),
        ValuesRef::Int64(v) => Value::Int64(*v.get(i)?),
        ValuesRef::Int96(v) => Value::Int96(*v.get(i)?),
        ValuesRef::Float(v) => Value::Float(*v.get(i)?),
        ValuesRef::Double(v) => Value::Double(*v.get(i)?),
        ValuesRef::ByteArray(v) => Value::Bytes(v.get(i)?.to_vec()),
        ValuesRef::FixedLenByteArray(v) => Value::Bytes(v.get(i)?.to_vec()),
    })
}

/// The JSON text of one value, per the row contract; a value the contract cannot print
/// (invalid UTF-8 in a STRING, ...) is shown as its bytes in hex, in a string.
pub fn value_json(v: &Value, desc: &ColumnDescriptor) -> String {
    let mut s = String::new();
    if leaf_to_json(v, desc, &mut s).is_ok() {
        return s;
    }
    let mut hex = String::from("0x");
    if let Value::Bytes(b) = v {
        for x in b {
            let _ = write!(hex, "{x:02x}");
        }
    } else {
        hex = format!("{v:?}");
    }
    let mut out = String::new();
    push_str(&mut out, &hex);
    out
}

fn name_of(e: Encoding) -> String {
    e.name().to_string()
}

/// Bytes of a V1 level section that starts `body`: RLE has a 4-byte length prefix; the
/// deprecated BIT_PACKED is `ceil(num_values * bit_width / 8)` bytes.
fn v1_level_len(body: &[u8], encoding: Encoding, num_values: usize, max: u16) -> Option<usize> {
    if max == 0 {
        return Some(0);
    }
    match encoding {
        Encoding::BitPacked => {
            let bw = 16 - max.leading_zeros() as usize;
            Some((num_values * bw).div_ceil(8))
        }
        _ => {
            let p: [u8; 4] = body.get(..4)?.try_into().ok()?;
            Some(4 + u32::from_le_bytes(p) as usize)
        }
    }
}

/// The body as the encodings see it: decompressed (all of it for V1 and dictionary pages; for
/// V2 the levels are never compressed and the values only when `is_compressed`).
pub fn plain_body(
    header: &PageHeader,
    body: &[u8],
    codec: CompressionCodec,
) -> Result<Vec<u8>, String> {
    if codec == CompressionCodec::Uncompressed {
        return Ok(body.to_vec());
    }
    let size = usize::try_from(header.uncompressed_page_size)
        .map_err(|_| "negative uncompressed_page_size".to_string())?;
    if header.uncompressed_page_size > MAX_DECODE {
        return Err(format!(
            "not decompressed: uncompressed_page_size above {} MiB",
            MAX_DECODE >> 20
        ));
    }
    if let (PageType::DataPageV2, Some(h)) = (header.type_, &header.data_page_header_v2) {
        let levels = usize::try_from(h.definition_levels_byte_length)
            .ok()
            .zip(usize::try_from(h.repetition_levels_byte_length).ok())
            .map(|(a, b)| a + b)
            .filter(|&n| n <= body.len() && n <= size)
            .ok_or("bad level byte lengths")?;
        let mut out = body[..levels].to_vec();
        if h.is_compressed == Some(false) {
            out.extend_from_slice(&body[levels..]);
        } else if !(body.len() == levels && size == levels) {
            parket::compression::decompress(codec, &body[levels..], size - levels, &mut out)
                .map_err(|e| e.to_string())?;
        }
        return Ok(out);
    }
    let mut out = Vec::new();
    parket::compression::decompress(codec, body, size, &mut out).map_err(|e| e.to_string())?;
    Ok(out)
}

/// Builds the report of one raw page, decoding it with `decoder` (which keeps the chunk's
/// dictionary from page to page).
pub fn report(
    raw: &RawPage,
    desc: &ColumnDescriptor,
    codec: CompressionCodec,
    decoder: &mut PageDecoder,
) -> PageReport {
    let h = &raw.header;
    let mut r = PageReport {
        offset: raw.offset,
        header_len: raw.header_len,
        page_type: h.type_.name().to_string(),
        compressed: h.compressed_page_size.into(),
        uncompressed: h.uncompressed_page_size.into(),
        crc: match h.crc {
            None => "none",
            Some(c) if crc32(&raw.body) == c as u32 => "ok",
            Some(_) => "bad",
        },
        ..PageReport::default()
    };
    let column = PageColumn::from(desc);
    match h.type_ {
        PageType::DataPage => {
            if let Some(d) = &h.data_page_header {
                r.encoding = Some(name_of(d.encoding));
                r.num_values = Some(d.num_values.into());
                if column.max_def_level > 0 {
                    r.def_level_encoding = Some(name_of(d.definition_level_encoding));
                }
                if column.max_rep_level > 0 {
                    r.rep_level_encoding = Some(name_of(d.repetition_level_encoding));
                }
                if let Ok(plain) = plain_body(h, &raw.body, codec) {
                    let n = usize::try_from(d.num_values).unwrap_or(0);
                    let rep =
                        v1_level_len(&plain, d.repetition_level_encoding, n, column.max_rep_level);
                    let def = rep.and_then(|rep| {
                        v1_level_len(
                            plain.get(rep..).unwrap_or(&[]),
                            d.definition_level_encoding,
                            n,
                            column.max_def_level,
                        )
                    });
                    r.rep_bytes = rep.map(|n| n as i64);
                    r.def_bytes = def.map(|n| n as i64);
                }
            }
        }
        PageType::DataPageV2 => {
            if let Some(d) = &h.data_page_header_v2 {
                r.encoding = Some(name_of(d.encoding));
                r.num_values = Some(d.num_values.into());
                r.num_nulls = Some(d.num_nulls.into());
                r.num_rows = Some(d.num_rows.into());
                r.rep_bytes = Some(d.repetition_levels_byte_length.into());
                r.def_bytes = Some(d.definition_levels_byte_length.into());
            }
        }
        PageType::DictionaryPage => {
            if let Some(d) = &h.dictionary_page_header {
                r.encoding = Some(name_of(d.encoding));
                r.num_values = Some(d.num_values.into());
            }
        }
        _ => {}
    }
    if h.uncompressed_page_size > MAX_DECODE {
        r.error = Some(format!(
            "not decoded: uncompressed_page_size above {} MiB",
            MAX_DECODE >> 20
        ));
        return r;
    }
    let mut out = column.new_leaf_data();
    match decoder.decode_page(h, &raw.body, &mut out) {
        Err(e) => r.error = Some(e.to_string()),
        Ok(info) => {
            let dictionary = decoder.dictionary();
            let values = if h.type_ == PageType::DictionaryPage {
                dictionary.as_deref().map(parket::values::Values::as_ref)
            } else {
                r.num_nulls = Some((info.num_values - info.num_non_null) as i64);
                r.num_rows = Some(info.num_rows as i64);
                Some(out.values.as_ref())
            };
            if let Some(v) = values {
                let n = v.len();
                if n > 0 {
                    r.first = value_at(v, 0).map(|x| value_json(&x, desc));
                    r.last = value_at(v, n - 1).map(|x| value_json(&x, desc));
                }
            }
        }
    }
    r
}

/// Every page of the file (or of the column `only`), in row group then column order.
pub fn walk(
    file: &FileReader<'_>,
    only: Option<&str>,
    mut each: impl FnMut(PageReport) -> bool,
) -> Result<(), String> {
    let schema = file.schema();
    let only = match only {
        None => None,
        Some(p) => Some(
            schema
                .column_index(p)
                .ok_or_else(|| format!("no leaf column with the path {p:?}"))?,
        ),
    };
    for rg in 0..file.num_row_groups() {
        for (j, desc) in schema.columns().iter().enumerate() {
            if only.is_some_and(|o| o != j) {
                continue;
            }
            let path = desc.path_string();
            let chunk = file.metadata().row_groups[rg].columns.get(j);
            let Some(meta) = chunk.and_then(|c| c.meta_data.as_ref()) else {
                continue; // encrypted column metadata: nothing to show
            };
            // An encrypted chunk shows when the file was opened with keys (its pages then
            // decrypted); without its key it is an error, as for any reader of it.
            if chunk.is_some_and(|c| c.crypto_metadata.is_some()) && !file.is_encrypted() {
                continue;
            }
            let mut decoder = PageDecoder::new(PageColumn::from(desc), meta.codec, *file.limits())
                .verify_crc(false);
            let pages = file
                .pages(rg, j)
                .map_err(|e| format!("row group {rg}, column {path}: {e}"))?;
            for (k, raw) in pages.enumerate() {
                let raw =
                    raw.map_err(|e| format!("row group {rg}, column {path}, page {k}: {e}"))?;
                let mut r = report(&raw, desc, meta.codec, &mut decoder);
                r.row_group = rg;
                r.column = path.clone();
                r.page = k;
                if !each(r) {
                    return Ok(());
                }
            }
        }
    }
    Ok(())
}

fn opt<T: std::fmt::Display>(v: &Option<T>) -> String {
    v.as_ref().map_or("-".to_string(), |v| v.to_string())
}

fn short(s: &Option<String>, n: usize) -> String {
    match s {
        None => "-".into(),
        Some(s) if s.chars().count() <= n => s.clone(),
        Some(s) => format!("{}...", s.chars().take(n).collect::<String>()),
    }
}

/// One page as a JSON object (one line).
pub fn report_json(r: &PageReport) -> String {
    let mut s = String::from("{");
    let mut first = true;
    let mut key = |s: &mut String, k: &str| {
        if !first {
            s.push(',');
        }
        first = false;
        push_str(s, k);
        s.push(':');
    };
    let num = |s: &mut String, v: Option<i64>| match v {
        Some(v) => {
            let _ = write!(s, "{v}");
        }
        None => s.push_str("null"),
    };
    let text = |s: &mut String, v: &Option<String>| match v {
        Some(v) => push_str(s, v),
        None => s.push_str("null"),
    };
    key(&mut s, "row_group");
    num(&mut s, Some(r.row_group as i64));
    key(&mut s, "column");
    push_str(&mut s, &r.column);
    key(&mut s, "page");
    num(&mut s, Some(r.page as i64));
    key(&mut s, "offset");
    num(&mut s, Some(r.offset as i64));
    key(&mut s, "header_len");
    num(&mut s, Some(r.header_len as i64));
    key(&mut s, "page_type");
    push_str(&mut s, &r.page_type);
    key(&mut s, "encoding");
    text(&mut s, &r.encoding);
    key(&mut s, "definition_level_encoding");
    text(&mut s, &r.def_level_encoding);
    key(&mut s, "repetition_level_encoding");
    text(&mut s, &r.rep_level_encoding);
    key(&mut s, "compressed_page_size");
    num(&mut s, Some(r.compressed));
    key(&mut s, "uncompressed_page_size");
    num(&mut s, Some(r.uncompressed));
    key(&mut s, "num_values");
    num(&mut s, r.num_values);
    key(&mut s, "num_nulls");
    num(&mut s, r.num_nulls);
    key(&mut s, "num_rows");
    num(&mut s, r.num_rows);
    key(&mut s, "repetition_levels_byte_length");
    num(&mut s, r.rep_bytes);
    key(&mut s, "definition_levels_byte_length");
    num(&mut s, r.def_bytes);
    key(&mut s, "crc");
    push_str(&mut s, r.crc);
    key(&mut s, "first");
    s.push_str(r.first.as_deref().unwrap_or("null"));
    key(&mut s, "last");
    s.push_str(r.last.as_deref().unwrap_or("null"));
    key(&mut s, "error");
    text(&mut s, &r.error);
    s.push('}');
    s
}

/// `parket pages`.
pub fn pages(mut args: Args) -> Result<(), String> {
    let as_json = args.flag("--json");
    let column = args.value("--column")?;
    let [path] = <[String; 1]>::try_from(args.positional(&["FILE"])?).unwrap_or_default();
    let file = open(&path)?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if !as_json {
        let _ = writeln!(
            out,
            "{:>3} {:<20} {:>10} {:<16} {:<36} {:>9} {:>9} {:>7} {:>6} {:>7} {:>6} {:>6} {:<4} first .. last",
            "rg", "column", "offset", "type", "encoding (def/rep levels)", "comp", "uncomp",
            "values", "nulls", "rows", "rep B", "def B", "crc"
        );
    }
    let mut closed = false;
    walk(&file, column.as_deref(), |r| {
        let line = if as_json {
            report_json(&r)
        } else {
            let mut enc = r.encoding.clone().unwrap_or_else(|| "-".into());
            if r.def_level_encoding.is_some() || r.rep_level_encoding.is_some() {
                let _ = write!(
                    enc,
                    " ({}/{})",
                    opt(&r.def_level_encoding),
                    opt(&r.rep_level_encoding)
                );
            }
            let mut l = format!(
                "{:>3} {:<20} {:>10} {:<16} {:<36} {:>9} {:>9} {:>7} {:>6} {:>7} {:>6} {:>6} {:<4} {} .. {}",
                r.row_group,
                r.column,
                r.offset,
                r.page_type,
                enc,
                r.compressed,
                r.uncompressed,
                opt(&r.num_values),
                opt(&r.num_nulls),
                opt(&r.num_rows),
                opt(&r.rep_bytes),
                opt(&r.def_bytes),
                r.crc,
                short(&r.first, 24),
                short(&r.last, 24),
            );
            if let Some(e) = &r.error {
                let _ = write!(l, "  error: {e}");
            }
            l
        };
        if writeln!(out, "{line}").is_err() {
            closed = true; // stdout closed (piped into `head`): stop quietly
            return false;
        }
        true
    })
    .map_err(|e| format!("{path}: {e}"))?;
    if !closed {
        let _ = out.flush();
    }
    Ok(())
}
