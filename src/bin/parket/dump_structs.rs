//! `parket dump --footer | --column-index RG:COL | --offset-index RG:COL |
//! --bloom-filter RG:COL [--probe VALUE] FILE`: the structures outside the pages, annotated
//! field by field as `dump --page` annotates a page header, each followed by what it says.
//!
//! - `--footer`: the `FileMetaData` (parquet.thrift), then the 4-byte footer length and the
//!   magic; with an encrypted footer (`PARE`), the `FileCryptoMetaData` before the ciphertext.
//! - `--column-index` / `--offset-index` (PageIndex.md): the struct, then one line per page
//!   (null page, null count, min and max decoded as `cat --json` prints values; offset, size,
//!   first row and row count).
//! - `--bloom-filter` (BloomFilter.md): the `BloomFilterHeader`, the bitset's size and fill;
//!   with `--probe VALUE`, the value's plain bytes, xxHash64, the block
//!   `((hash >> 32) * z) >> 32` and, for each of the 8 words, the bit
//!   `((u32) hash * SALT[i]) >> 27` and whether the filter has it: all 8 set means "maybe",
//!   any unset means "certainly not in this chunk".
//!
//! Every offset and length comes from the file: each is checked against the file's size
//! before anything is read or allocated.
//!
//! In an encrypted column chunk (read with its key: `--footer-key`, `--column-key`, `--key`),
//! each of these structs is a module (Encryption.md 5.1: 4-byte length, 12-byte nonce,
//! ciphertext, 16-byte tag; module types 6 to 9): it is decrypted, and the plaintext is
//! annotated with offsets into it (`+N`); a bitset's words are shown at the file offsets of
//! their ciphertext bytes (GCM keeps byte positions).

use std::io::{Read, Seek, SeekFrom};

use parket::bloom::split_block::{BLOCK_BYTES, MAX_BYTES, SALT};
use parket::bloom::{hash_value, Sbbf};
use parket::encryption::ModuleType;
use parket::format::{
    BloomFilterHeader, ColumnIndex, ColumnMetaData, FileCryptoMetaData, FileMetaData, LogicalType,
    OffsetIndex, PhysicalType, Statistics,
};
use parket::read::FileReader;
use parket::record::logical;
use parket::schema::{ColumnDescriptor, Schema};
use parket::thrift::StructDef;
use parket::values::{ByteArrays, FixedLenByteArrays, Values};

use crate::dump::{thrift_struct_lines, Base, Dump, HEX_WIDTH};
use crate::meta::min_max_json;

/// The bytes `at..at + len` of the file at `path`, after checking they are in the file.
fn read_range(path: &str, at: u64, len: u64, what: &str) -> Result<Vec<u8>, String> {
    let mut f = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let size = f.metadata().map_err(|e| format!("{path}: {e}"))?.len();
    if at.checked_add(len).is_none_or(|end| end > size) {
        return Err(format!(
            "{path}: the {what} at offset {at}, {len} bytes, ends past the end of the file ({size} bytes)"
        ));
    }
    let mut buf = vec![0; len as usize];
    f.seek(SeekFrom::Start(at))
        .and_then(|_| f.read_exact(&mut buf))
        .map_err(|e| format!("{path}: {e}"))?;
    Ok(buf)
}

fn table_head(d: &mut Dump, what: &str) {
    d.note(&format!(
        "{:>10}  {:<w$}  {what} (Thrift compact): field id, name: type = value",
        "offset",
        "bytes",
        w = HEX_WIDTH * 3 + 5
    ));
}

/// `dump --footer`.
pub fn footer(path: &str) -> Result<String, String> {
    let size = std::fs::metadata(path)
        .map_err(|e| format!("{path}: {e}"))?
        .len();
    if size < 12 {
        return Err(format!(
            "{path}: {size} bytes: too short for a Parquet file (magic, footer length, magic)"
        ));
    }
    let tail = read_range(path, size - 8, 8, "footer length and magic")?;
    let len = u64::from(u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]));
    let magic = &tail[4..];
    if magic != b"PAR1" && magic != b"PARE" {
        return Err(format!(
            "{path}: ends with {magic:02x?}, not the magic \"PAR1\" or \"PARE\": not a Parquet file"
        ));
    }
    if len > size - 12 {
        return Err(format!(
            "{path}: the footer length {len} is more than the {} bytes between the magics",
            size - 12
        ));
    }
    let at = size - 8 - len;
    let bytes = read_range(path, at, len, "footer")?;
    let mut d = Dump { out: String::new() };
    let encrypted = magic == b"PARE";
    d.note(&format!(
        "footer of {path}: {len} bytes at offset {at}, then its length and the magic{}",
        if encrypted {
            " (\"PARE\": the footer is encrypted)"
        } else {
            ""
        }
    ));
    d.note("");
    let head = read_range(path, 0, 4, "magic")?;
    d.line(
        Base::File(0),
        0,
        &head,
        0,
        &format!("magic {:?}", String::from_utf8_lossy(&head)),
    );
    d.note("");
    if encrypted {
        table_head(&mut d, "FileCryptoMetaData");
        let used = thrift_struct_lines(
            &mut d,
            Base::File(at),
            &bytes,
            FileCryptoMetaData::FIELDS,
            true,
        )
        .map_err(|e| format!("{path}: FileCryptoMetaData: {e}"))?;
        let rest = bytes.get(used..).unwrap_or(&[]);
        d.line(
            Base::File(at),
            used,
            rest,
            0,
            &format!(
                "the FileMetaData, encrypted: {} bytes (AES-GCM: 4-byte length, 12-byte nonce, ciphertext, 16-byte tag)",
                rest.len()
            ),
        );
    } else {
        table_head(&mut d, "FileMetaData");
        let used = thrift_struct_lines(&mut d, Base::File(at), &bytes, FileMetaData::FIELDS, true)
            .map_err(|e| format!("{path}: FileMetaData: {e}"))?;
        if used < bytes.len() {
            d.line(
                Base::File(at),
                used,
                &bytes[used..],
                0,
                &format!(
                    "{} bytes after the FileMetaData (a signature, in plaintext footer mode)",
                    bytes.len() - used
                ),
            );
        }
    }
    d.line(
        Base::File(size - 8),
        0,
        &tail[..4],
        0,
        &format!("footer length: {len} (4 bytes, little-endian)"),
    );
    d.line(
        Base::File(size - 4),
        0,
        magic,
        0,
        &format!("magic {:?}", String::from_utf8_lossy(magic)),
    );
    Ok(d.out)
}

/// A column chunk picked by `RG:COL` (COL a leaf index or a dotted path).
struct Chunk<'a> {
    rg: usize,
    desc: &'a ColumnDescriptor,
    leaf: usize,
    meta: &'a ColumnMetaData,
    num_rows: i64,
}

fn chunk<'a>(
    spec: &str,
    flag: &str,
    md: &'a FileMetaData,
    schema: &'a Schema,
) -> Result<Chunk<'a>, String> {
    let bad = || format!("{flag} {spec:?}: expected RG:COL (COL a leaf index or dotted path)");
    let (rg, col) = spec.split_once(':').ok_or_else(bad)?;
    let rg: usize = rg.parse().map_err(|_| bad())?;
    let leaf = match col.parse::<usize>() {
        Ok(c) => c,
        Err(_) => schema
            .column_index(col)
            .ok_or_else(|| format!("no leaf column with the path {col:?}"))?,
    };
    let desc = schema.column(leaf).ok_or_else(|| {
        format!(
            "no leaf column {leaf} (the file has {})",
            schema.columns().len()
        )
    })?;
    let group = md
        .row_groups
        .get(rg)
        .ok_or_else(|| format!("no row group {rg} (the file has {})", md.row_groups.len()))?;
    let meta = group
        .columns
        .get(leaf)
        .and_then(|c| c.meta_data.as_ref())
        .ok_or_else(|| {
            format!(
                "row group {rg}, column {}: no (plaintext) column metadata",
                desc.path_string()
            )
        })?;
    Ok(Chunk {
        rg,
        desc,
        leaf,
        meta,
        num_rows: group.num_rows,
    })
}

fn chunk_title(c: &Chunk<'_>) -> String {
    format!(
        "row group {}, column {} ({})",
        c.rg,
        c.desc.path_string(),
        c.desc.physical_type
    )
}

/// The annotated bytes of one of a chunk's page index structs (`what`: "column index" or
/// "offset index", at `range` = the ColumnChunk's offset and length fields).
fn index_struct(
    path: &str,
    file: &FileReader<'_>,
    c: &Chunk<'_>,
    what: &str,
    range: (Option<i64>, Option<i32>),
    (idl, module): (&str, ModuleType),
    fields: &'static [parket::thrift::FieldDef],
) -> Result<(Dump, Vec<u8>), String> {
    let field = what.replace(' ', "_");
    let (Some(at), Some(len)) = range else {
        return Err(format!(
            "{}: no {what} (ColumnChunk.{field}_offset / _length are not set)",
            chunk_title(c)
        ));
    };
    let (at, len) = (
        u64::try_from(at).map_err(|_| format!("{field}_offset {at} is negative"))?,
        u64::try_from(len).map_err(|_| format!("{field}_length {len} is negative"))?,
    );
    let bytes = read_range(path, at, len, what)?;
    let mut d = Dump { out: String::new() };
    d.note(&format!(
        "{what} of {}: {len} bytes at offset {at}",
        chunk_title(c)
    ));
    let (base, bytes) = match decrypt(path, file, c, module, &bytes)? {
        None => (Base::File(at), bytes),
        Some(plain) => {
            d.note(&encrypted_note(plain.len()));
            (Base::Decompressed(0), plain)
        }
    };
    d.note("");
    table_head(&mut d, idl);
    thrift_struct_lines(&mut d, base, &bytes, fields, false)
        .map_err(|e| format!("{path}: {idl}: {e}"))?;
    Ok((d, bytes))
}

/// The plaintext of the module at the front of `bytes` when the chunk `c` is encrypted
/// (`None` for a plaintext chunk).
fn decrypt(
    path: &str,
    file: &FileReader<'_>,
    c: &Chunk<'_>,
    module: ModuleType,
    bytes: &[u8],
) -> Result<Option<Vec<u8>>, String> {
    file.decrypt_chunk_module(c.rg, c.leaf, module, bytes)
        .map_err(|e| crate::file_error(path, e))
}

fn encrypted_note(plain: usize) -> String {
    format!(
        "encrypted (a module: 4-byte length, 12-byte nonce, ciphertext, 16-byte tag), \
         decrypted with the column's key: {plain} bytes, offsets +N into them"
    )
}

/// The 4-byte length of the encrypted module at file offset `at` and the module's bytes.
fn read_module(path: &str, at: u64, what: &str) -> Result<Vec<u8>, String> {
    let len = read_range(path, at, 4, what)?;
    let n = u32::from_le_bytes(len.try_into().unwrap_or([0; 4]));
    read_range(path, at, 4 + u64::from(n), what)
}

/// `dump --column-index RG:COL`.
pub fn column_index(path: &str, spec: &str) -> Result<String, String> {
    let file = crate::cat::open(path)?;
    let (md, schema) = (file.metadata(), file.schema());
    let c = chunk(spec, "--column-index", md, schema)?;
    let cc = &md.row_groups[c.rg].columns[c.leaf];
    let range = (cc.column_index_offset, cc.column_index_length);
    let (mut d, bytes) = index_struct(
        path,
        &file,
        &c,
        "column index",
        range,
        ("ColumnIndex", ModuleType::ColumnIndex),
        ColumnIndex::FIELDS,
    )?;
    let (ci, _) = ColumnIndex::decode(&bytes).map_err(|e| format!("{path}: ColumnIndex: {e}"))?;
    d.note("");
    d.note(&format!(
        "{} pages, boundary_order {}; min and max decoded for {} (a null page has neither)",
        ci.null_pages.len(),
        ci.boundary_order,
        c.desc.path_string()
    ));
    d.note("  page  null_page  null_count  min  max");
    let orders = md.column_orders.as_deref();
    for (i, null_page) in ci.null_pages.iter().enumerate() {
        let null_count = ci
            .null_counts
            .as_ref()
            .and_then(|n| n.get(i))
            .map_or("-".to_string(), |n| n.to_string());
        let (min, max) = if *null_page {
            (None, None)
        } else {
            let st = Statistics {
                min_value: ci.min_values.get(i).cloned(),
                max_value: ci.max_values.get(i).cloned(),
                ..Default::default()
            };
            min_max_json(schema, c.leaf, orders, &st)
        };
        d.note(&format!(
            "  {i:>4}  {:<9}  {null_count:<10}  {}  {}",
            null_page,
            min.as_deref().unwrap_or("-"),
            max.as_deref().unwrap_or("-")
        ));
    }
    Ok(d.out)
}

/// `dump --offset-index RG:COL`.
pub fn offset_index(path: &str, spec: &str) -> Result<String, String> {
    let file = crate::cat::open(path)?;
    let (md, schema) = (file.metadata(), file.schema());
    let c = chunk(spec, "--offset-index", md, schema)?;
    let cc = &md.row_groups[c.rg].columns[c.leaf];
    let range = (cc.offset_index_offset, cc.offset_index_length);
    let (mut d, bytes) = index_struct(
        path,
        &file,
        &c,
        "offset index",
        range,
        ("OffsetIndex", ModuleType::OffsetIndex),
        OffsetIndex::FIELDS,
    )?;
    let (oi, _) = OffsetIndex::decode(&bytes).map_err(|e| format!("{path}: OffsetIndex: {e}"))?;
    d.note("");
    d.note(&format!(
        "{} data pages; a page's rows run to the next page's first_row_index (the last to the row group's {} rows)",
        oi.page_locations.len(),
        c.num_rows
    ));
    d.note("  page      offset  size (header included)  first_row_index   rows  unencoded byte-array bytes");
    let locs = &oi.page_locations;
    for (i, p) in locs.iter().enumerate() {
        let next = locs.get(i + 1).map_or(c.num_rows, |n| n.first_row_index);
        let unencoded = oi
            .unencoded_byte_array_data_bytes
            .as_ref()
            .and_then(|u| u.get(i))
            .map_or("-".to_string(), |n| n.to_string());
        d.note(&format!(
            "  {i:>4}  {:>10}  {:>22}  {:>15}  {:>5}  {unencoded}",
            p.offset,
            p.compressed_page_size,
            p.first_row_index,
            next.saturating_sub(p.first_row_index)
        ));
    }
    Ok(d.out)
}

/// `dump --bloom-filter RG:COL [--probe VALUE]`.
pub fn bloom_filter(path: &str, spec: &str, probe: Option<&str>) -> Result<String, String> {
    let file = crate::cat::open(path)?;
    let (md, schema) = (file.metadata(), file.schema());
    let c = chunk(spec, "--bloom-filter", md, schema)?;
    let Some(at) = c.meta.bloom_filter_offset else {
        return Err(format!(
            "{}: no Bloom filter (ColumnMetaData.bloom_filter_offset is not set)",
            chunk_title(&c)
        ));
    };
    let at = u64::try_from(at).map_err(|_| format!("bloom_filter_offset {at} is negative"))?;
    let size = std::fs::metadata(path)
        .map_err(|e| format!("{path}: {e}"))?
        .len();
    // The header is a few bytes; read at most 256 (or what the file has) to decode it. An
    // encrypted one is a module, read as its length says.
    let head_len = 256.min(size.saturating_sub(at));
    let encrypted = file.is_encrypted()
        && md.row_groups[c.rg].columns[c.leaf]
            .crypto_metadata
            .is_some();
    let (head, head_base) = if encrypted {
        let module = read_module(path, at, "Bloom filter header")?;
        let plain = decrypt(path, &file, &c, ModuleType::BloomFilterHeader, &module)?;
        (plain.unwrap_or_default(), Some(module.len()))
    } else {
        (read_range(path, at, head_len, "Bloom filter header")?, None)
    };
    let (h, used) =
        BloomFilterHeader::decode(&head).map_err(|e| format!("{path}: BloomFilterHeader: {e}"))?;
    let mut d = Dump { out: String::new() };
    d.note(&format!(
        "Bloom filter of {}: header at offset {at}{}",
        chunk_title(&c),
        c.meta
            .bloom_filter_length
            .map(|l| format!(", {l} bytes with the bitset (bloom_filter_length)"))
            .unwrap_or_else(|| ", bloom_filter_length not set".into())
    ));
    if head_base.is_some() {
        d.note(&encrypted_note(head.len()));
    }
    d.note("");
    table_head(&mut d, "BloomFilterHeader");
    thrift_struct_lines(
        &mut d,
        if head_base.is_some() {
            Base::Decompressed(0)
        } else {
            Base::File(at)
        },
        &head[..used],
        BloomFilterHeader::FIELDS,
        false,
    )
    .map_err(|e| format!("{path}: BloomFilterHeader: {e}"))?;
    let num_bytes = usize::try_from(h.num_bytes)
        .ok()
        .filter(|&n| n >= BLOCK_BYTES && n % BLOCK_BYTES == 0 && n <= MAX_BYTES)
        .ok_or_else(|| {
            format!(
                "{path}: numBytes {} is not a positive multiple of {BLOCK_BYTES} up to {MAX_BYTES}",
                h.num_bytes
            )
        })?;
    let (bits_at, bitset) = match head_base {
        None => {
            let bits_at = at + used as u64;
            let bitset = read_range(path, bits_at, num_bytes as u64, "Bloom filter bitset")?;
            (bits_at, bitset)
        }
        Some(module_len) => {
            // The bitset module follows the header module; its plaintext byte i is the
            // ciphertext byte at the module's offset + 16 + i.
            let module_at = at + module_len as u64;
            let module = read_module(path, module_at, "Bloom filter bitset")?;
            let plain = decrypt(path, &file, &c, ModuleType::BloomFilterBitset, &module)?;
            let plain = plain.unwrap_or_default();
            if plain.len() != num_bytes {
                return Err(format!(
                    "{path}: the decrypted bitset has {} bytes, the header says {num_bytes}",
                    plain.len()
                ));
            }
            d.note(&format!(
                "bitset: an encrypted module of {} bytes at offset {module_at}, decrypted",
                module.len()
            ));
            (module_at + 16, plain)
        }
    };
    let filter = Sbbf::from_bytes(&bitset).map_err(|e| format!("{path}: {e}"))?;
    let z = num_bytes / BLOCK_BYTES;
    let set: u32 = bitset.iter().map(|b| b.count_ones()).sum();
    d.note("");
    d.note(&format!(
        "bitset: {num_bytes} bytes at offset {bits_at} = z = {z} blocks of 8 little-endian 32-bit words; {set} of {} bits set ({:.1} %)",
        num_bytes * 8,
        f64::from(set) * 100.0 / (num_bytes * 8) as f64
    ));
    let Some(text) = probe else {
        return Ok(d.out);
    };
    let value = probe_value(c.desc, text)?;
    let hash = hash_value(value.as_ref(), 0).ok_or("no value to probe")?;
    let plain = plain_bytes(&value);
    d.note("");
    d.note(&format!(
        "probe {text}: hashed as its plain bytes without a length prefix ({}), xxHash64 = 0x{hash:016x}",
        hex(&plain)
    ));
    let block = (((hash >> 32) * z as u64) >> 32) as usize;
    let key = hash as u32;
    let block_at = bits_at + (block * BLOCK_BYTES) as u64;
    d.note(&format!(
        "block = ((hash >> 32) * z) >> 32 = (0x{:08x} * {z}) >> 32 = {block}, at offset {block_at}",
        hash >> 32
    ));
    d.note(&format!(
        "key = (u32) hash = 0x{key:08x}; in word i the bit (key * SALT[i]) >> 27 must be set:"
    ));
    let mut missing = 0;
    for (i, salt) in SALT.iter().enumerate() {
        let bit = key.wrapping_mul(*salt) >> 27;
        let w_at = block * BLOCK_BYTES + i * 4;
        // block < z, as (hash >> 32) < 2^32: the word is in the bitset.
        let wb = bitset.get(w_at..w_at + 4).unwrap_or(&[0; 4]);
        let word = u32::from_le_bytes(wb.try_into().unwrap_or([0; 4]));
        let on = word & (1 << bit) != 0;
        if !on {
            missing += 1;
        }
        d.line(
            Base::File(bits_at),
            w_at,
            wb,
            1,
            &format!(
                "word {i} = 0x{word:08x}: bit {bit:>2} ((0x{key:08x} * 0x{salt:08x}) >> 27) {}",
                if on { "set" } else { "NOT set" }
            ),
        );
    }
    let verdict = if missing == 0 {
        "all 8 bits are set: the value may be in this chunk (or it is a false positive)".to_string()
    } else {
        format!("{missing} of the 8 bits are not set: the value is certainly not in this chunk")
    };
    if (missing == 0) != filter.check_hash(hash) {
        return Err("internal: the bits shown disagree with Sbbf::check_hash".into());
    }
    d.note(&verdict);
    Ok(d.out)
}

fn hex(b: &[u8]) -> String {
    b.iter()
        .map(|x| format!("{x:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The bytes the Bloom hash of a one-value `Values` is computed over.
fn plain_bytes(v: &Values) -> Vec<u8> {
    match v {
        Values::Boolean(x) => x.iter().map(|&b| u8::from(b)).collect(),
        Values::Int32(x) => x.iter().flat_map(|v| v.to_le_bytes()).collect(),
        Values::Int64(x) => x.iter().flat_map(|v| v.to_le_bytes()).collect(),
        Values::Int96(x) => x.iter().flatten().copied().collect(),
        Values::Float(x) => x.iter().flat_map(|v| v.to_le_bytes()).collect(),
        Values::Double(x) => x.iter().flat_map(|v| v.to_le_bytes()).collect(),
        Values::ByteArray(x) => x.iter().flatten().copied().collect(),
        Values::FixedLenByteArray(x) => x.data().to_vec(),
    }
}

/// `0x` then an even number of hex digits.
fn parse_hex(text: &str) -> Option<Vec<u8>> {
    let h = text.strip_prefix("0x")?;
    if h.len() % 2 != 0 {
        return None;
    }
    (0..h.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(h.get(i..i + 2)?, 16).ok())
        .collect()
}

/// VALUE as one value of the column, read as a person writes it: a number, `true`/`false`,
/// a DATE `2024-01-31`, a TIMESTAMP as `cat --json` prints it, a UUID, text for strings,
/// `0x...` hex for other byte arrays.
fn probe_value(desc: &ColumnDescriptor, text: &str) -> Result<Values, String> {
    let bad = |what: &str| {
        format!(
            "--probe {text:?}: not {what} (column {} is {})",
            desc.path_string(),
            desc.physical_type
        )
    };
    let int = || -> Option<i128> { text.parse::<i128>().ok() };
    Ok(match desc.physical_type {
        PhysicalType::Boolean => match text {
            "true" => Values::Boolean(vec![true]),
            "false" => Values::Boolean(vec![false]),
            _ => return Err(bad("true or false")),
        },
        PhysicalType::Int32 => {
            let v = match (&desc.logical_type, int()) {
                (_, Some(i)) => i32::try_from(i)
                    .or_else(|_| u32::try_from(i).map(|u| u as i32))
                    .map_err(|_| bad("a 32-bit integer"))?,
                (Some(LogicalType::Date), None) => {
                    logical::parse_date(text).map_err(|e| bad(&format!("a date: {e}")))?
                }
                _ => return Err(bad("an integer")),
            };
            Values::Int32(vec![v])
        }
        PhysicalType::Int64 => {
            let v = match (&desc.logical_type, int()) {
                (_, Some(i)) => i64::try_from(i)
                    .or_else(|_| u64::try_from(i).map(|u| u as i64))
                    .map_err(|_| bad("a 64-bit integer"))?,
                (
                    Some(LogicalType::Timestamp {
                        is_adjusted_to_utc,
                        unit,
                    }),
                    None,
                ) => logical::parse_timestamp(text, *unit, *is_adjusted_to_utc)
                    .map_err(|e| bad(&format!("a timestamp: {e}")))?,
                _ => return Err(bad("an integer")),
            };
            Values::Int64(vec![v])
        }
        PhysicalType::Float => Values::Float(vec![text.parse().map_err(|_| bad("a number"))?]),
        PhysicalType::Double => Values::Double(vec![text.parse().map_err(|_| bad("a number"))?]),
        PhysicalType::Int96 => {
            return Err(bad("probeable: INT96 columns have no Bloom filter rule"))
        }
        PhysicalType::ByteArray => {
            let textual = matches!(
                desc.logical_type,
                Some(LogicalType::String | LogicalType::Enum | LogicalType::Json)
            );
            let bytes = match parse_hex(text) {
                Some(b) if !textual => b,
                _ => text.as_bytes().to_vec(),
            };
            let mut b = ByteArrays::new();
            b.push(&bytes);
            Values::ByteArray(b)
        }
        PhysicalType::FixedLenByteArray => {
            let width = desc.type_length.unwrap_or(0);
            let bytes = match (&desc.logical_type, parse_hex(text)) {
                (_, Some(b)) => b,
                (Some(LogicalType::Uuid), None) => logical::parse_uuid(text)
                    .map_err(|e| bad(&format!("a UUID: {e}")))?
                    .to_vec(),
                _ => text.as_bytes().to_vec(),
            };
            if bytes.len() != width {
                return Err(bad(&format!(
                    "{width} bytes (give 0x and {} hex digits)",
                    2 * width
                )));
            }
            Values::FixedLenByteArray(
                FixedLenByteArrays::from_parts(width, bytes)
                    .ok_or_else(|| bad("a fixed-length value"))?,
            )
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_and_probe_values() {
        assert_eq!(parse_hex("0x00ff10"), Some(vec![0, 255, 16]));
        assert_eq!(parse_hex("0x0"), None);
        assert_eq!(parse_hex("12"), None);
        let schema = Schema::parse(
            "message m { required int32 d (DATE); required int64 t (TIMESTAMP(MILLIS,true));
               required binary s (STRING); required fixed_len_byte_array(16) u (UUID); }",
        )
        .unwrap();
        let col = |i: usize| schema.column(i).unwrap();
        assert_eq!(
            probe_value(col(0), "1970-01-02").unwrap(),
            Values::Int32(vec![1])
        );
        assert_eq!(probe_value(col(0), "5").unwrap(), Values::Int32(vec![5]));
        assert_eq!(
            probe_value(col(1), "1970-01-01T00:00:01.000Z").unwrap(),
            Values::Int64(vec![1000])
        );
        assert_eq!(plain_bytes(&probe_value(col(2), "0x41").unwrap()), b"0x41");
        let u = probe_value(col(3), "00112233-4455-6677-8899-aabbccddeeff").unwrap();
        assert_eq!(plain_bytes(&u)[..3], [0x00, 0x11, 0x22]);
        assert!(probe_value(col(3), "0x00").is_err());
    }
}
