//! The mutation test (issue 6): every valid file we have, mutated a few thousand times in all
//! (seeded bit flips, bytes set to extremes, truncations, and structure-aware corruptions of
//! the footer and of page headers: lengths, counts, offsets and types re-encoded with hostile
//! values), each mutant read fully (every column chunk of every row group through
//! `next_batch`, then the records) must give an error or a result: never a panic, never more
//! than a second, never more than 1 GiB of heap. The reads use `Limits` of 64 MiB per page
//! and the test asserts a peak far below the 1 GiB cap.
//!
//! This test binary has its own global allocator, which counts the bytes in use and their
//! peak, and refuses (the process aborts, naming the mutant) any allocation past the cap.
//! Everything runs in one `#[test]` so the counts are this test's alone.
//!
//! A failure prints the file, the mutant's seed and the mutation; replay one with
//! `MUTATION_FILE=<name> MUTATION_SEED=<seed> cargo test --test mutation -- --nocapture`.
#![cfg(all(
    feature = "write",
    feature = "snappy",
    feature = "zstd",
    feature = "gzip"
))]

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, Instant};

use parket::compression::Codec;
use parket::format::{Encoding, FileMetaData, PageHeader};
use parket::read::FileReader;
use parket::record::Value;
use parket::schema::Schema;
use parket::write::{FileWriter, PageVersion, WriteOptions};
use parket::Limits;

#[path = "common/counting.rs"]
mod counting;
use counting::{measured, CAP, CURRENT, FILE as NOW_FILE, PEAK, SEED as NOW_SEED};

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

const GIB: usize = 1 << 30;

// ---------------------------------------------------------------------------------------
// A seeded PRNG (SplitMix64).

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
    fn chance(&mut self, one_in: u64) -> bool {
        self.next() % one_in == 0
    }
    /// A hostile replacement for an integer field of value `orig`.
    fn int(&mut self, orig: i64) -> i64 {
        match self.below(12) {
            0 => 0,
            1 => -1,
            2 => i32::MAX as i64,
            3 => i32::MIN as i64,
            4 => i64::MAX,
            5 => i64::MIN,
            6 => orig.wrapping_add(1),
            7 => orig.wrapping_sub(1),
            8 => orig.wrapping_mul(2),
            9 => orig / 2,
            10 => orig.wrapping_add(self.below(4096) as i64 - 2048),
            _ => self.next() as i64 >> self.below(64),
        }
    }
    fn int32(&mut self, orig: i32) -> i32 {
        let v = self.int(orig as i64);
        if self.chance(2) {
            v as i32
        } else {
            v.clamp(i32::MIN as i64, i32::MAX as i64) as i32
        }
    }
}

// ---------------------------------------------------------------------------------------
// The valid files and where their parts are.

struct Layout_ {
    footer: std::ops::Range<usize>,
    /// (header range, body range) of every page found by walking the chunks.
    pages: Vec<(std::ops::Range<usize>, std::ops::Range<usize>)>,
    /// The (row group, column) of each page.
    chunk_of: Vec<(usize, usize)>,
    metadata: FileMetaData,
}

fn layout(file: &[u8]) -> Option<Layout_> {
    let n = file.len();
    let len = u32::from_le_bytes(file.get(n.checked_sub(8)?..n - 4)?.try_into().ok()?) as usize;
    let start = n.checked_sub(8 + len)?;
    let metadata = FileMetaData::decode(file.get(start..n - 8)?).ok()?;
    let mut pages = Vec::new();
    let mut chunk_of = Vec::new();
    for (i, rg) in metadata.row_groups.iter().enumerate() {
        for (j, c) in rg.columns.iter().enumerate() {
            let Some(m) = &c.meta_data else { continue };
            let mut pos = match m.dictionary_page_offset {
                Some(d) if d >= 4 && d < m.data_page_offset => d as usize,
                _ => m.data_page_offset.max(0) as usize,
            };
            let end = pos.saturating_add(m.total_compressed_size.max(0) as usize);
            while pos < end.min(start) {
                let Some(Ok((h, used))) = file.get(pos..).map(PageHeader::decode) else {
                    break;
                };
                let body = pos + used..pos + used + h.compressed_page_size.max(0) as usize;
                if body.end > start {
                    break;
                }
                pages.push((pos..pos + used, body.clone()));
                chunk_of.push((i, j));
                pos = body.end;
            }
        }
    }
    Some(Layout_ {
        footer: start..n - 8,
        pages,
        chunk_of,
        metadata,
    })
}

/// Rebuilds a file with `footer` in place of its footer.
fn with_footer(file: &[u8], l: &Layout_, footer: &[u8]) -> Vec<u8> {
    let mut out = file[..l.footer.start].to_vec();
    out.extend_from_slice(footer);
    out.extend_from_slice(&(footer.len() as u32).to_le_bytes());
    out.extend_from_slice(b"PAR1");
    out
}

// ---------------------------------------------------------------------------------------
// Mutations.

/// Makes mutant `seed` of `file`; returns it and what was done.
fn mutate(file: &[u8], l: &Layout_, seed: u64) -> (Vec<u8>, String) {
    let mut rng = Rng(seed.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ 0x5eed);
    let mut out = file.to_vec();
    let kind = rng.below(12);
    let what = match kind {
        // Bit flips anywhere.
        0 => {
            let k = 1 + rng.below(4);
            let mut at = Vec::new();
            for _ in 0..k {
                let p = rng.below(out.len());
                out[p] ^= 1 << rng.below(8);
                at.push(p);
            }
            format!("bit flips at {at:?}")
        }
        // Truncation (keeping or dropping the tail).
        1 => {
            let cut = rng.below(out.len());
            if rng.chance(2) {
                out.truncate(cut);
                format!("truncated to {cut} bytes")
            } else {
                let len = 1 + rng.below(out.len() - cut).min(4096);
                let end = (cut + len).min(out.len().saturating_sub(8));
                if cut < end {
                    out.drain(cut..end);
                }
                format!("bytes {cut}..{end} removed")
            }
        }
        // Footer bytes: flips, extremes, a varint made huge, a field type changed.
        2 | 3 => {
            let f = l.footer.clone();
            let p = f.start + rng.below(f.len());
            match rng.below(4) {
                0 => {
                    out[p] ^= 1 << rng.below(8);
                    format!("footer bit flip at {p}")
                }
                1 => {
                    let v = [0x00, 0xff, 0x7f, 0x80][rng.below(4)];
                    out[p] = v;
                    format!("footer byte {p} set to {v:#x}")
                }
                2 => {
                    // A run of continuation bytes: a varint of 10 bytes, or an overlong one.
                    let n = (1 + rng.below(10)).min(f.end - p);
                    for b in &mut out[p..p + n] {
                        *b |= 0x80;
                    }
                    format!(
                        "footer bytes {p}..{} given the varint continuation bit",
                        p + n
                    )
                }
                _ => {
                    let t = rng.below(16) as u8;
                    out[p] = (out[p] & 0xf0) | t;
                    format!("footer byte {p} given type nibble {t}")
                }
            }
        }
        // The footer length.
        4 => {
            let n = out.len();
            let v = match rng.below(4) {
                0 => u32::MAX,
                1 => (l.footer.len() as u32).wrapping_add(rng.below(16) as u32),
                2 => (l.footer.len() as u32).wrapping_sub(1 + rng.below(16) as u32),
                _ => rng.next() as u32,
            };
            out[n - 8..n - 4].copy_from_slice(&v.to_le_bytes());
            format!("footer length set to {v}")
        }
        // The footer, structure-aware.
        5 | 6 => {
            let mut md = l.metadata.clone();
            let what = mutate_metadata(&mut md, &mut rng);
            let mut footer = Vec::new();
            md.encode(&mut footer);
            out = with_footer(file, l, &footer);
            what
        }
        // A page header, structure-aware or bytewise.
        7 | 8 if !l.pages.is_empty() => {
            let (h, _) = l.pages[rng.below(l.pages.len())].clone();
            if kind == 7 {
                let (mut header, used) = PageHeader::decode(&file[h.clone()]).expect("header");
                assert_eq!(used, h.len());
                let what = mutate_header(&mut header, &mut rng);
                let mut bytes = Vec::new();
                header.encode(&mut bytes);
                out.splice(h.clone(), bytes.iter().copied());
                // The footer's offsets no longer fit when the header changed length: keep the
                // footer as it was (that mismatch is a corruption worth reading too).
                format!("page header at {}: {what}", h.start)
            } else {
                let p = h.start + rng.below(h.len());
                let v = match rng.below(3) {
                    0 => out[p] ^ (1 << rng.below(8)),
                    1 => [0x00, 0xff, 0x7f, 0x80][rng.below(4)],
                    _ => rng.next() as u8,
                };
                out[p] = v;
                format!("page header byte {p} set to {v:#x}")
            }
        }
        // Compound: a page's num_values and its chunk's num_values and rows made huge
        // together (each alone is caught by the other), so the page's level runs are
        // decoded to the page's count.
        10 if !l.pages.is_empty() => {
            let k = rng.below(l.pages.len());
            let (h, _) = l.pages[k].clone();
            let (i, j) = l.chunk_of[k];
            let (mut header, _) = PageHeader::decode(&file[h.clone()]).expect("header");
            let big = [i32::MAX, 1 << 30, 1 << 27, 100_000_000][rng.below(4)];
            if let Some(d) = header.data_page_header.as_mut() {
                d.num_values = big;
            } else if let Some(d) = header.data_page_header_v2.as_mut() {
                d.num_values = big;
                d.num_rows = big;
            } else {
                return (out, "nothing (not a data page)".into());
            }
            let mut bytes = Vec::new();
            header.encode(&mut bytes);
            out.splice(h.clone(), bytes.iter().copied());
            let delta = out.len() as i64 - file.len() as i64;
            let mut md = l.metadata.clone();
            md.row_groups[i].num_rows = big as i64;
            if let Some(m) = md.row_groups[i].columns[j].meta_data.as_mut() {
                m.num_values = big as i64;
                m.total_compressed_size += delta;
            }
            let mut footer = Vec::new();
            md.encode(&mut footer);
            out.truncate((l.footer.start as i64 + delta) as usize);
            out.extend_from_slice(&footer);
            out.extend_from_slice(&(footer.len() as u32).to_le_bytes());
            out.extend_from_slice(b"PAR1");
            format!(
                "page at {} and its chunk ({i}, {j}): num_values = {big}",
                h.start
            )
        }
        // A page body.
        _ if !l.pages.is_empty() => {
            let (_, b) = l.pages[rng.below(l.pages.len())].clone();
            if b.is_empty() {
                return (out, "nothing (empty page body)".into());
            }
            let k = 1 + rng.below(3);
            let mut at = Vec::new();
            for _ in 0..k {
                let p = b.start + rng.below(b.len());
                if rng.chance(2) {
                    out[p] ^= 1 << rng.below(8);
                } else {
                    out[p] = rng.next() as u8;
                }
                at.push(p);
            }
            format!("page body bytes {at:?} changed")
        }
        _ => {
            let p = rng.below(out.len());
            out[p] = rng.next() as u8;
            format!("byte {p} randomized")
        }
    };
    (out, what)
}

fn mutate_metadata(md: &mut FileMetaData, rng: &mut Rng) -> String {
    let nrg = md.row_groups.len();
    let choice = rng.below(14);
    if choice < 9 && nrg > 0 {
        let i = rng.below(nrg);
        let rg = &mut md.row_groups[i];
        if choice == 0 {
            rg.num_rows = rng.int(rg.num_rows);
            return format!("row group {i} num_rows = {}", rg.num_rows);
        }
        let nc = rg.columns.len();
        if nc == 0 {
            return "nothing (no columns)".into();
        }
        let j = rng.below(nc);
        if choice == 8 {
            rg.columns.remove(j);
            return format!("row group {i} column {j} removed");
        }
        let Some(m) = rg.columns[j].meta_data.as_mut() else {
            return "nothing (encrypted column)".into();
        };
        let at = format!("row group {i} column {j}");
        return match choice {
            1 => {
                m.num_values = rng.int(m.num_values);
                format!("{at} num_values = {}", m.num_values)
            }
            2 => {
                m.data_page_offset = rng.int(m.data_page_offset);
                format!("{at} data_page_offset = {}", m.data_page_offset)
            }
            3 => {
                let v = rng.int(m.dictionary_page_offset.unwrap_or(m.data_page_offset));
                m.dictionary_page_offset = Some(v);
                format!("{at} dictionary_page_offset = {v}")
            }
            4 => {
                m.total_compressed_size = rng.int(m.total_compressed_size);
                format!("{at} total_compressed_size = {}", m.total_compressed_size)
            }
            5 => {
                let codecs = [0, 1, 2, 3, 4, 5, 6, 7, 99];
                let c = codecs[rng.below(codecs.len())];
                match parket::format::CompressionCodec::try_from(c) {
                    Ok(codec) => {
                        m.codec = codec;
                        format!("{at} codec = {codec}")
                    }
                    Err(_) => "nothing (unknown codec)".into(),
                }
            }
            6 => {
                m.dictionary_page_offset = None;
                format!("{at} dictionary_page_offset removed")
            }
            _ => {
                let t = rng.below(8) as i32;
                match parket::format::PhysicalType::try_from(t) {
                    Ok(pt) => {
                        m.type_ = pt;
                        format!("{at} type = {pt}")
                    }
                    Err(_) => "nothing".into(),
                }
            }
        };
    }
    let ns = md.schema.len();
    if ns == 0 {
        return "nothing (no schema)".into();
    }
    let k = rng.below(ns);
    let e = &mut md.schema[k];
    match choice {
        9 => {
            e.type_length = Some(rng.int32(e.type_length.unwrap_or(4)));
            format!("schema element {k} type_length = {:?}", e.type_length)
        }
        10 => {
            e.num_children = Some(rng.int32(e.num_children.unwrap_or(1)));
            format!("schema element {k} num_children = {:?}", e.num_children)
        }
        11 => {
            let r = rng.below(3) as i32;
            e.repetition_type = parket::format::FieldRepetitionType::try_from(r).ok();
            format!("schema element {k} repetition = {:?}", e.repetition_type)
        }
        12 => {
            let t = rng.below(8) as i32;
            e.type_ = parket::format::PhysicalType::try_from(t).ok();
            format!("schema element {k} type = {:?}", e.type_)
        }
        _ => {
            md.num_rows = rng.int(md.num_rows);
            format!("num_rows = {}", md.num_rows)
        }
    }
}

fn mutate_header(h: &mut PageHeader, rng: &mut Rng) -> String {
    let enc = |rng: &mut Rng| Encoding::try_from(rng.below(10) as i32).unwrap_or(Encoding::Plain);
    match rng.below(10) {
        0 => {
            h.uncompressed_page_size = rng.int32(h.uncompressed_page_size);
            format!("uncompressed_page_size = {}", h.uncompressed_page_size)
        }
        1 => {
            h.compressed_page_size = rng.int32(h.compressed_page_size);
            format!("compressed_page_size = {}", h.compressed_page_size)
        }
        2 => {
            let t = rng.below(4) as i32;
            h.type_ = parket::format::PageType::try_from(t).unwrap_or(h.type_);
            format!("type = {}", h.type_)
        }
        3 => {
            h.crc = Some(rng.next() as i32);
            "crc changed".into()
        }
        _ => {
            if let Some(d) = h.data_page_header.as_mut() {
                match rng.below(3) {
                    0 => {
                        d.num_values = rng.int32(d.num_values);
                        format!("num_values = {}", d.num_values)
                    }
                    1 => {
                        d.encoding = enc(rng);
                        format!("encoding = {}", d.encoding)
                    }
                    _ => {
                        d.definition_level_encoding = enc(rng);
                        format!(
                            "definition_level_encoding = {}",
                            d.definition_level_encoding
                        )
                    }
                }
            } else if let Some(d) = h.data_page_header_v2.as_mut() {
                match rng.below(7) {
                    0 => {
                        d.num_values = rng.int32(d.num_values);
                        format!("num_values = {}", d.num_values)
                    }
                    1 => {
                        d.num_nulls = rng.int32(d.num_nulls);
                        format!("num_nulls = {}", d.num_nulls)
                    }
                    2 => {
                        d.num_rows = rng.int32(d.num_rows);
                        format!("num_rows = {}", d.num_rows)
                    }
                    3 => {
                        d.definition_levels_byte_length =
                            rng.int32(d.definition_levels_byte_length);
                        format!("def length = {}", d.definition_levels_byte_length)
                    }
                    4 => {
                        d.repetition_levels_byte_length =
                            rng.int32(d.repetition_levels_byte_length);
                        format!("rep length = {}", d.repetition_levels_byte_length)
                    }
                    5 => {
                        d.is_compressed = Some(!d.is_compressed.unwrap_or(true));
                        format!("is_compressed = {:?}", d.is_compressed)
                    }
                    _ => {
                        d.encoding = enc(rng);
                        format!("encoding = {}", d.encoding)
                    }
                }
            } else if let Some(d) = h.dictionary_page_header.as_mut() {
                if rng.chance(2) {
                    d.num_values = rng.int32(d.num_values);
                    format!("dictionary num_values = {}", d.num_values)
                } else {
                    d.encoding = enc(rng);
                    format!("dictionary encoding = {}", d.encoding)
                }
            } else {
                "nothing (index page)".into()
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Reading a mutant.

fn limits() -> Limits {
    Limits::default()
        .max_page_bytes(64 << 20)
        .max_dictionary_bytes(64 << 20)
        .max_metadata_bytes(64 << 20)
        .max_values_per_page(1 << 22)
        .max_values_per_read(1 << 20)
}

/// Reads everything; returns how many values and records were read before any error.
fn read_all(bytes: &[u8], verify_crc: bool, through_reader: bool) -> (u64, u64) {
    let file = if through_reader {
        FileReader::new_with_limits(std::io::Cursor::new(bytes), limits())
    } else {
        FileReader::from_bytes_with_limits(bytes, limits())
    };
    let Ok(file) = file else { return (0, 0) };
    let file = file.with_limits(limits()).verify_crc(verify_crc);
    let mut values = 0u64;
    for rg in 0..file.num_row_groups() {
        for c in 0..file.schema().columns().len() {
            let Ok(mut col) = file.column_chunk(rg, c) else {
                continue;
            };
            while let Ok(Some(batch)) = col.next_batch(1000) {
                values += batch.len() as u64;
            }
        }
    }
    let mut records = 0u64;
    if let Ok(it) = file.records(None) {
        for r in it {
            if r.is_err() {
                break;
            }
            records += 1;
        }
    }
    (values, records)
}

// ---------------------------------------------------------------------------------------
// The files.

fn written_files() -> Vec<(String, Vec<u8>)> {
    let schema = Schema::parse(
        "message m { required int64 id; optional binary s (STRING); optional double d; \
         optional group l (LIST) { repeated group list { optional int32 element; } } \
         optional group m (MAP) { repeated group key_value { required binary key (STRING); \
         optional fixed_len_byte_array(4) value (DECIMAL(9, 2)); } } \
         optional boolean b; }",
    )
    .unwrap();
    let records: Vec<Value> = (0..600i64)
        .map(|i| {
            Value::Group(vec![
                Value::Int64(i * 1_000_003),
                if i % 3 == 0 {
                    Value::Null
                } else {
                    Value::Bytes(format!("s{}", i % 13).into_bytes())
                },
                if i % 7 == 0 {
                    Value::Null
                } else {
                    Value::Double(i as f64 * 0.25)
                },
                match i % 4 {
                    0 => Value::Null,
                    n => Value::List(
                        (0..n)
                            .map(|k| {
                                if k == 1 {
                                    Value::Null
                                } else {
                                    Value::Int32((i * k) as i32)
                                }
                            })
                            .collect(),
                    ),
                },
                Value::Map(
                    (0..i % 3)
                        .map(|k| {
                            (
                                Value::Bytes(format!("k{k}").into_bytes()),
                                Value::Bytes((i as i32 * 3).to_be_bytes().to_vec()),
                            )
                        })
                        .collect(),
                ),
                if i % 5 == 0 {
                    Value::Null
                } else {
                    Value::Boolean(i % 2 == 0)
                },
            ])
        })
        .collect();
    let configs: Vec<(&str, WriteOptions)> = vec![
        (
            "written-v1-snappy-dict",
            WriteOptions::default().max_rows_per_page(100),
        ),
        (
            "written-v2-zstd-crc",
            WriteOptions::default()
                .page_version(PageVersion::V2)
                .codec(Codec::Zstd { level: 1 })
                .page_crc(true)
                .max_rows_per_page(150)
                .row_group_rows(400),
        ),
        (
            "written-v1-plain-uncompressed",
            WriteOptions::default()
                .dictionary(false)
                .codec(Codec::Uncompressed)
                .max_rows_per_page(64),
        ),
        (
            "written-v2-gzip-delta",
            WriteOptions::default()
                .page_version(PageVersion::V2)
                .codec(Codec::Gzip { level: 1 })
                .dictionary(false)
                .column("id", |c| c.encoding(Encoding::DeltaBinaryPacked))
                .column("s", |c| c.encoding(Encoding::DeltaByteArray))
                .column("d", |c| c.encoding(Encoding::ByteStreamSplit)),
        ),
    ];
    configs
        .into_iter()
        .map(|(name, options)| {
            let mut w = FileWriter::new(Vec::new(), schema.clone(), options).unwrap();
            w.write_records(&records).unwrap();
            w.finish().unwrap();
            (name.to_string(), w.into_inner())
        })
        .collect()
}

fn files() -> Vec<(String, Vec<u8>)> {
    let mut out = written_files();
    let root = parket::testing::corpus_dir();
    for sub in ["data", "data/geospatial"] {
        for p in parket::testing::corpus_files(sub) {
            let name = p.strip_prefix(&root).unwrap().display().to_string();
            // Encrypted files read no data; large_string_map needs GiBs (its rows hold
            // huge strings), so it is not a file whose mutants can be read in a test.
            if name.ends_with(".encrypted") || name.contains("large_string_map") {
                continue;
            }
            out.push((name, std::fs::read(&p).unwrap()));
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// Regressions: mutants that failed once, with what went wrong.

/// (file, seed) pairs replayed first.
const REGRESSIONS: &[(&str, u64)] = &[];

/// A file of one OPTIONAL INT32 column whose single V1 page holds `n` nulls as one RLE run:
/// a 26-byte page, valid by the spec, whose levels take `2 n` bytes once decoded.
fn null_run_file(n: i32) -> Vec<u8> {
    let schema = Schema::parse("message m { optional int32 x; }").unwrap();
    let options = WriteOptions::default()
        .dictionary(false)
        .codec(Codec::Uncompressed)
        .statistics(false)
        .page_index(false);
    let mut w = FileWriter::new(Vec::new(), schema, options).unwrap();
    w.write_records(&vec![Value::Group(vec![Value::Null]); 10])
        .unwrap();
    w.finish().unwrap();
    let file = w.into_inner();
    let l = layout(&file).unwrap();
    let (h, b) = l.pages[0].clone();
    // Spec (Encodings.md, RLE): <length: u32 LE> <run header: varint(count << 1)> <value>.
    let mut body = Vec::new();
    let mut run = Vec::new();
    let mut v = (n as u64) << 1;
    while v >= 0x80 {
        run.push(v as u8 | 0x80);
        v >>= 7;
    }
    run.push(v as u8);
    run.push(0); // level 0: null
    body.extend_from_slice(&(run.len() as u32).to_le_bytes());
    body.extend_from_slice(&run);
    let (mut header, _) = PageHeader::decode(&file[h.clone()]).unwrap();
    header.data_page_header.as_mut().unwrap().num_values = n;
    header.uncompressed_page_size = body.len() as i32;
    header.compressed_page_size = body.len() as i32;
    header.crc = None;
    let mut out = file[..h.start].to_vec();
    header.encode(&mut out);
    out.extend_from_slice(&body);
    let chunk_len = (out.len() - h.start) as i64;
    let mut md = l.metadata.clone();
    md.num_rows = n as i64;
    md.row_groups[0].num_rows = n as i64;
    let m = md.row_groups[0].columns[0].meta_data.as_mut().unwrap();
    m.num_values = n as i64;
    m.total_compressed_size = chunk_len;
    m.total_uncompressed_size = chunk_len;
    out.extend_from_slice(&file[b.end..l.footer.start]);
    let mut footer = Vec::new();
    md.encode(&mut footer);
    out.extend_from_slice(&footer);
    out.extend_from_slice(&(footer.len() as u32).to_le_bytes());
    out.extend_from_slice(b"PAR1");
    out
}

/// Hostile pages with the *default* limits: a run of 2^30 nulls in 26 bytes.
fn regressions_with_default_limits() {
    // Before: Limits::values_per_page defaulted to 2^31, so this page decoded to 2 GiB of
    // definition levels (4 GiB with repetition levels). Now the default is 2^26.
    let file = null_run_file(1 << 30);
    let reader = FileReader::from_bytes(&file).unwrap();
    let (r, peak) = measured(|| {
        reader
            .column_chunk(0, 0)
            .unwrap()
            .next_batch(4096)
            .map(|_| ())
    });
    let e = r.unwrap_err();
    assert!(
        matches!(e.kind(), parket::ErrorKind::LimitExceeded { .. }),
        "{e}"
    );
    assert!(peak < 1 << 20, "peak {peak}");

    // Once, records() read whole row groups of any size, so a page of 2^26 nulls (26 bytes,
    // within values_per_page) became 2^26 records: over 4 GiB. Now records stream page by
    // page: that page costs what the page-by-page read below costs (its 128 MiB of levels),
    // and records are made a thousand at a time.
    let file = null_run_file(1 << 26);
    let reader = FileReader::from_bytes(&file).unwrap();
    let (r, peak) = measured(|| {
        let mut records = reader.records(None).unwrap();
        let mut n = 0;
        for r in records.by_ref().take(100_000) {
            assert_eq!(r?, Value::Group(vec![Value::Null]));
            n += 1;
        }
        Ok::<_, parket::Error>(n)
    });
    assert_eq!(r.unwrap(), 100_000);
    assert!(peak < 200 << 20, "peak {peak}");
    // Whole-chunk reads are bounded by Limits::values_per_read (2^24 by default).
    let (r, peak) = measured(|| reader.column_chunk(0, 0).unwrap().read_all().map(|_| ()));
    assert!(r.is_err() && peak < 1 << 20, "peak {peak}");
    // Page by page, the same chunk reads (in 2^26 positions: 128 MiB of levels).
    let (r, peak) = measured(|| {
        let mut c = reader.column_chunk(0, 0).unwrap();
        let mut n = 0;
        while let Some(b) = c.next_batch(1 << 20).unwrap() {
            n += b.len();
        }
        n
    });
    assert_eq!(r, 1 << 26);
    assert!(peak < 200 << 20, "peak {peak}");
    // 2^20 records of one page, streamed: the page's levels (2 MiB) and a step of records.
    let file = null_run_file(1 << 20);
    let reader = FileReader::from_bytes(&file).unwrap();
    let (n, peak) = measured(|| reader.records(None).unwrap().count());
    assert_eq!(n, 1 << 20);
    assert!(peak < 8 << 20, "2^20 records took {} MiB", peak >> 20);
}

/// Runs one mutant under catch_unwind; returns the error text on a panic.
fn run_one(bytes: &[u8], seed: u64) -> Result<(u64, u64), String> {
    catch_unwind(AssertUnwindSafe(|| {
        read_all(bytes, seed % 2 == 0, seed % 5 == 0)
    }))
    .map_err(|e| {
        e.downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default()
    })
}

#[test]
fn mutants_never_panic_hang_or_balloon() {
    let mutants_per_file: u64 = std::env::var("MUTANTS_PER_FILE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(120);
    let only_file = std::env::var("MUTATION_FILE").ok();
    let only_seed: Option<u64> = std::env::var("MUTATION_SEED")
        .ok()
        .and_then(|v| v.parse().ok());
    CAP.store(CURRENT.load(Relaxed) + GIB, Relaxed);
    regressions_with_default_limits();
    // Panics are caught and reported; keep the default hook quiet meanwhile.
    std::panic::set_hook(Box::new(|_| {}));
    let files = files();
    // A watchdog: a mutant that runs for 20 s is a hang; name it and end the process.
    std::thread::spawn(|| {
        let mut last = (u64::MAX, u64::MAX);
        let mut since = Instant::now();
        loop {
            std::thread::sleep(Duration::from_millis(500));
            let now = (NOW_FILE.load(Relaxed), NOW_SEED.load(Relaxed));
            if now != last {
                (last, since) = (now, Instant::now());
            } else if now.0 != u64::MAX && since.elapsed() > Duration::from_secs(20) {
                eprintln!("mutation test: file #{} seed {} hangs", now.0, now.1);
                std::process::exit(101);
            }
        }
    });
    let base = CURRENT.load(Relaxed);
    CAP.store(base + GIB, Relaxed);
    let start = Instant::now();
    let mut failures = Vec::new();
    let (mut mutants, mut slowest, mut peak_max) = (0u64, Duration::ZERO, 0usize);
    let mut read_ok = 0u64;
    let mut run = |fi: usize, name: &str, file: &[u8], l: &Layout_, seed: u64| {
        let (bytes, what) = mutate(file, l, seed);
        NOW_FILE.store(fi as u64, Relaxed);
        NOW_SEED.store(seed, Relaxed);
        let before = CURRENT.load(Relaxed);
        PEAK.store(before, Relaxed);
        let t = Instant::now();
        let r = run_one(&bytes, seed);
        let took = t.elapsed();
        let peak = PEAK.load(Relaxed) - before;
        mutants += 1;
        slowest = slowest.max(took);
        peak_max = peak_max.max(peak);
        let at = format!("{name} seed {seed} ({what})");
        match r {
            Err(msg) => failures.push(format!("{at}: panicked: {msg}")),
            Ok((values, _)) => {
                read_ok += (values > 0) as u64;
            }
        }
        if took > Duration::from_secs(1) {
            failures.push(format!("{at}: took {took:?}"));
        }
        if peak > 256 << 20 {
            failures.push(format!("{at}: peak heap {} MiB", peak >> 20));
        }
    };
    for &(name, seed) in REGRESSIONS {
        let (fi, (_, file)) = files.iter().enumerate().find(|f| f.1 .0 == name).unwrap();
        let l = layout(file).unwrap();
        run(fi, name, file, &l, seed);
    }
    for (fi, (name, file)) in files.iter().enumerate() {
        if only_file.as_ref().is_some_and(|f| f != name) {
            continue;
        }
        let Some(l) = layout(file) else { continue };
        // Big files get fewer mutants, so the whole run stays CI-sized.
        let n = if file.len() > 200_000 {
            mutants_per_file / 4
        } else {
            mutants_per_file
        };
        let seeds: Vec<u64> = match only_seed {
            Some(s) => vec![s],
            None => (0..n).collect(),
        };
        for seed in seeds {
            run(fi, name, file, &l, seed);
        }
    }
    NOW_FILE.store(u64::MAX, Relaxed);
    let _ = std::panic::take_hook();
    eprintln!(
        "mutation test: {mutants} mutants of {} files in {:.1} s (slowest {:?}, peak heap per \
         mutant {:.1} MiB, {read_ok} gave some values)",
        files.len(),
        start.elapsed().as_secs_f64(),
        slowest,
        peak_max as f64 / (1 << 20) as f64
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
