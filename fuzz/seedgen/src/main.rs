//! Seed corpora for the decoder fuzz targets, in the byte layout each harness expects:
//!
//! - hand-made valid streams, written by parket's own encoders (deterministic values);
//! - real page bodies from the parquet-testing files: every page (compressed) for
//!   `decompress`, and the value / level sections of decompressed pages for the decoders;
//! - for `page`, the first pages of every column chunk as they are in the file (headers and
//!   bodies), behind the column bytes `fuzz_page` reads.
//!
//! Usage: `parket-fuzz-seedgen <corpus-dir> [parquet files...]`; writes `<corpus-dir>/<target>/`.
use parket::compression::{compress, decompress, Codec};
use parket::encoding::{
    alp, byte_stream_split, delta_binary_packed, delta_byte_array, delta_length_byte_array,
    dictionary, plain, rle,
};
use parket::format::{CompressionCodec, Encoding, PageHeader, PageType, PhysicalType};
use parket::schema::Schema;
use parket::values::Values;
use std::path::{Path, PathBuf};

/// Largest seed written (bytes): keeps the corpora small and the fuzzers fast.
const MAX_SEED: usize = 64 << 10;

struct Out {
    dir: PathBuf,
    count: usize,
}

impl Out {
    fn put(&mut self, target: &str, name: &str, header: &[u8], body: &[u8]) {
        if header.len() + body.len() > MAX_SEED {
            return;
        }
        let dir = self.dir.join(target);
        std::fs::create_dir_all(&dir).expect("create corpus dir");
        let mut bytes = header.to_vec();
        bytes.extend_from_slice(body);
        std::fs::write(dir.join(name), bytes).expect("write seed");
        self.count += 1;
    }
}

fn type_index(t: PhysicalType) -> u8 {
    t.to_i32() as u8 // the harnesses list the types in the spec's order
}

fn codec_index(c: CompressionCodec) -> u8 {
    CompressionCodec::ALL
        .iter()
        .position(|&x| x == c)
        .unwrap_or(0) as u8
}

fn le16(n: usize) -> [u8; 2] {
    (n as u16).to_le_bytes()
}

/// Deterministic sample values of each physical type (width 4 for FIXED_LEN_BYTE_ARRAY).
fn samples(t: PhysicalType, n: usize) -> Values {
    let mut v = Values::new(t, 4);
    let words: Vec<u64> = (0..n as u64)
        .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (i % 60))
        .collect();
    match &mut v {
        Values::Boolean(x) => x.extend(words.iter().map(|w| w & 1 == 1)),
        Values::Int32(x) => x.extend(words.iter().map(|&w| w as i32 % 1000)),
        Values::Int64(x) => x.extend(words.iter().map(|&w| w as i64)),
        Values::Int96(x) => x.extend(words.iter().map(|&w| {
            let mut b = [0u8; 12];
            b[..8].copy_from_slice(&w.to_le_bytes());
            b
        })),
        Values::Float(x) => x.extend(words.iter().map(|&w| w as f32 / 7.0)),
        Values::Double(x) => x.extend(words.iter().map(|&w| w as f64 / 3.0)),
        Values::ByteArray(x) => words
            .iter()
            .for_each(|w| x.push(format!("key{}", w % 97).as_bytes())),
        Values::FixedLenByteArray(x) => words.iter().for_each(|w| {
            x.push(&(*w as u32).to_le_bytes());
        }),
    }
    v
}

fn hand_made(out: &mut Out) {
    for &t in PhysicalType::ALL {
        let ti = type_index(t);
        for n in [0usize, 1, 9, 100] {
            let v = samples(t, n);
            let mut b = Vec::new();
            plain::encode(v.as_ref(), &mut b).expect("plain encodes every type");
            out.put(
                "plain",
                &format!("hand-{t}-{n}"),
                &[ti, le16(n)[0], le16(n)[1], 4],
                &b,
            );
            // Dictionary: the first min(n, 7) values as a dictionary, indices cycling over it.
            let nd = n.min(7);
            let dict = samples(t, nd);
            let mut d = Vec::new();
            plain::encode(dict.as_ref(), &mut d).expect("plain");
            let idx: Vec<u32> = (0..n as u32)
                .map(|i| if nd == 0 { 0 } else { i * 5 % nd as u32 })
                .collect();
            dictionary::encode_indices(&idx, nd, &mut d);
            out.put(
                "dictionary",
                &format!("hand-{t}-{n}"),
                &[ti, nd as u8, le16(n)[0], le16(n)[1], 4],
                &d,
            );
            let mut b = Vec::new();
            if byte_stream_split::encode(v.as_ref(), &mut b).is_ok() {
                let kind = match t {
                    PhysicalType::Int32 => 0,
                    PhysicalType::Int64 => 1,
                    PhysicalType::Float => 2,
                    PhysicalType::Double => 3,
                    PhysicalType::FixedLenByteArray => 5 + 6 * 4,
                    _ => 4,
                };
                out.put(
                    "byte_stream_split",
                    &format!("hand-{t}-{n}"),
                    &[kind, 0],
                    &b,
                );
            }
            let mut b = Vec::new();
            if alp::encode(v.as_ref(), &mut b).is_ok() {
                // Bit 0: DOUBLE; bit 1 clear: the count from the ALP header.
                let sel = u8::from(t == PhysicalType::Double);
                out.put("alp", &format!("hand-{t}-{n}"), &[sel], &b);
            }
            let mut b = Vec::new();
            if delta_binary_packed::encode(v.as_ref(), &mut b).is_ok() {
                let kind = u8::from(t == PhysicalType::Int64);
                out.put(
                    "delta",
                    &format!("hand-dbp-{t}-{n}"),
                    &[0, kind, le16(n)[0], le16(n)[1]],
                    &b,
                );
            }
            let mut b = Vec::new();
            if t == PhysicalType::ByteArray
                && delta_length_byte_array::encode(v.as_ref(), &mut b).is_ok()
            {
                out.put(
                    "delta",
                    &format!("hand-dlba-{n}"),
                    &[1, le16(n)[0], le16(n)[1]],
                    &b,
                );
            }
            let mut b = Vec::new();
            if delta_byte_array::encode(v.as_ref(), &mut b).is_ok() {
                let kind = if t == PhysicalType::FixedLenByteArray {
                    4
                } else {
                    0
                };
                out.put(
                    "delta",
                    &format!("hand-dba-{t}-{n}"),
                    &[2, kind, le16(n)[0], le16(n)[1]],
                    &b,
                );
            }
        }
    }
    for (w, n) in [
        (0u32, 10usize),
        (1, 100),
        (3, 37),
        (8, 64),
        (17, 20),
        (32, 9),
    ] {
        let mask = if w == 32 { u32::MAX } else { (1u32 << w) - 1 };
        // Long runs then a varied tail: both RLE and bit-packed runs.
        let vals: Vec<u32> = (0..n as u32)
            .map(|i| {
                if i < n as u32 / 2 {
                    mask
                } else {
                    i.wrapping_mul(2654435761) & mask
                }
            })
            .collect();
        let mut b = Vec::new();
        rle::encode_u32(&vals, w, &mut b);
        out.put(
            "rle",
            &format!("hand-u32-w{w}-{n}"),
            &[w as u8, le16(n)[0], le16(n)[1], 0],
            &b,
        );
        if w <= 16 {
            let lv: Vec<u16> = vals.iter().map(|&x| x as u16).collect();
            let mut b = Vec::new();
            rle::encode_levels(&lv, w, &mut b);
            out.put(
                "rle",
                &format!("hand-levels-w{w}-{n}"),
                &[w as u8, le16(n)[0], le16(n)[1], 1],
                &b,
            );
            let mut b = Vec::new();
            rle::encode_levels_with_length(&lv, w, &mut b);
            out.put(
                "rle",
                &format!("hand-levlen-w{w}-{n}"),
                &[w as u8, le16(n)[0], le16(n)[1], 2],
                &b,
            );
        }
        let bools: Vec<bool> = vals.iter().map(|&x| x & 1 == 1).collect();
        let mut b = Vec::new();
        rle::encode_booleans(&bools, &mut b);
        out.put(
            "rle",
            &format!("hand-bool-{n}"),
            &[1, le16(n)[0], le16(n)[1], 3],
            &b,
        );
    }
    let text: Vec<u8> = (0..4000u32)
        .flat_map(|i| format!("row {} value {}\n", i, i % 13).into_bytes())
        .collect();
    for &c in CompressionCodec::ALL {
        for len in [0usize, 1, 100, text.len()] {
            let mut b = Vec::new();
            if compress(Codec::from_spec(c), &text[..len], &mut b).is_ok() {
                let s = (len as u32).to_le_bytes();
                out.put(
                    "decompress",
                    &format!("hand-{c}-{len}"),
                    &[codec_index(c), s[0], s[1], s[2]],
                    &b,
                );
            }
        }
    }
}

/// Seeds from every page of one file.
fn from_file(out: &mut Out, path: &Path) -> Option<()> {
    let file = std::fs::read(path).ok()?;
    let name = path.file_name()?.to_string_lossy().into_owned();
    let meta = parket::read::footer::metadata_from_bytes(&file, &parket::Limits::default()).ok()?;
    let schema = Schema::from_elements(&meta.schema).ok()?;
    for (g, rg) in meta.row_groups.iter().enumerate().take(2) {
        for (c, cc) in rg.columns.iter().enumerate() {
            let (Some(cm), Some(col)) = (cc.meta_data.as_ref(), schema.column(c)) else {
                continue;
            };
            let width = col.type_length.unwrap_or(0);
            let mut pos = match cm.dictionary_page_offset {
                Some(d) if d > 0 && d < cm.data_page_offset => d,
                _ => cm.data_page_offset,
            } as usize;
            let end = (pos as u64 + cm.total_compressed_size.max(0) as u64).min(file.len() as u64)
                as usize;
            // `page`: the chunk's first pages as they are in the file (fuzz_page reads up to 8),
            // behind its column bytes: type | width << 3, max_def | max_rep << 4, codec index.
            let page_codecs = [
                CompressionCodec::Uncompressed,
                CompressionCodec::Snappy,
                CompressionCodec::Gzip,
                CompressionCodec::Zstd,
                CompressionCodec::Lz4Raw,
            ];
            let codec = page_codecs.iter().position(|&x| x == cm.codec);
            if let (Some(codec), true) = (
                codec,
                width < 32 && col.max_def_level < 16 && col.max_rep_level < 16,
            ) {
                let pages = file.get(pos..end.min(pos + MAX_SEED - 3))?;
                let column = [
                    type_index(cm.type_) | (width as u8) << 3,
                    col.max_def_level as u8 | (col.max_rep_level as u8) << 4,
                    codec as u8,
                ];
                out.put("page", &format!("{name}-rg{g}-c{c}"), &column, pages);
            }
            let mut dict: Option<(usize, Vec<u8>)> = None;
            for p in 0..6 {
                if pos >= end {
                    break;
                }
                let (h, used) = PageHeader::decode(file.get(pos..end)?).ok()?;
                let body = file
                    .get(pos + used..(pos + used).checked_add(h.compressed_page_size as usize)?)?;
                pos += used + body.len();
                let tag = format!("{name}-rg{g}-c{c}-p{p}");
                let size = h.uncompressed_page_size as usize;
                let s = (size as u32).to_le_bytes();
                if size < 1 << 20 && cm.codec != CompressionCodec::Uncompressed {
                    out.put(
                        "decompress",
                        &tag,
                        &[codec_index(cm.codec), s[0], s[1], s[2]],
                        body,
                    );
                }
                // The page uncompressed; a V2 page's levels are never compressed.
                let (levels, values): (Vec<u8>, Vec<u8>) = if let Some(v2) = &h.data_page_header_v2
                {
                    let lv = (v2.definition_levels_byte_length as usize)
                        .checked_add(v2.repetition_levels_byte_length as usize)?;
                    let (l, rest) = (body.get(..lv)?, body.get(lv..)?);
                    let mut v: Vec<u8> = Vec::new();
                    if v2.is_compressed == Some(false) || cm.codec == CompressionCodec::Uncompressed
                    {
                        v.extend_from_slice(rest);
                    } else {
                        decompress(cm.codec, rest, size.checked_sub(lv)?, &mut v).ok()?;
                    }
                    (l.to_vec(), v)
                } else {
                    let mut v: Vec<u8> = Vec::new();
                    if cm.codec == CompressionCodec::Uncompressed {
                        v.extend_from_slice(body);
                    } else {
                        decompress(cm.codec, body, size, &mut v).ok()?;
                    }
                    (Vec::new(), v)
                };
                let ti = type_index(cm.type_);
                if let Some(dh) = &h.dictionary_page_header {
                    let n = dh.num_values as usize;
                    if n <= u16::MAX as usize && width < 16 {
                        out.put(
                            "plain",
                            &format!("{tag}-dict"),
                            &[ti, le16(n)[0], le16(n)[1], width as u8],
                            &values,
                        );
                    }
                    dict = Some((n, values));
                    continue;
                }
                let (num_values, encoding, values) = if let Some(v1) = &h.data_page_header {
                    // V1: rep levels then def levels, each RLE with a 4-byte length (or BIT_PACKED).
                    let n = v1.num_values as usize;
                    let mut rest = &values[..];
                    let mut non_null = n;
                    for (max, is_def) in [(col.max_rep_level, false), (col.max_def_level, true)] {
                        if max == 0 {
                            continue;
                        }
                        let w = rle::bit_width(u64::from(max));
                        let mut lv = Vec::new();
                        let used = rle::decode_levels_with_length(rest, w, n, &mut lv).ok()?;
                        if n <= u16::MAX as usize {
                            out.put(
                                "rle",
                                &format!("{tag}-levels"),
                                &[w as u8, le16(n)[0], le16(n)[1], 2],
                                rest.get(..used)?,
                            );
                        }
                        if is_def {
                            non_null = lv.iter().filter(|&&l| l == max).count();
                        }
                        rest = rest.get(used..)?;
                    }
                    (non_null, v1.encoding, rest.to_vec())
                } else if let Some(v2) = &h.data_page_header_v2 {
                    let n = v2.num_values as usize;
                    let d = v2.definition_levels_byte_length as usize;
                    let r = v2.repetition_levels_byte_length as usize;
                    for (max, bytes) in [
                        (col.max_rep_level, levels.get(..r)?),
                        (col.max_def_level, levels.get(r..r + d)?),
                    ] {
                        if max > 0 && n <= u16::MAX as usize {
                            let w = rle::bit_width(u64::from(max)) as u8;
                            out.put(
                                "rle",
                                &format!("{tag}-levels-v2-{max}"),
                                &[w, le16(n)[0], le16(n)[1], 1],
                                bytes,
                            );
                        }
                    }
                    (n.checked_sub(v2.num_nulls as usize)?, v2.encoding, values)
                } else {
                    continue;
                };
                if num_values > u16::MAX as usize || h.type_ == PageType::IndexPage {
                    continue;
                }
                let [n0, n1] = le16(num_values);
                match encoding {
                    Encoding::Plain if width < 16 => {
                        out.put("plain", &tag, &[ti, n0, n1, width as u8], &values)
                    }
                    Encoding::RleDictionary | Encoding::PlainDictionary => {
                        if let Some((&w, hybrid)) = values.split_first() {
                            out.put("rle", &format!("{tag}-indices"), &[w, n0, n1, 0], hybrid);
                        }
                        if let Some((nd, d)) =
                            dict.as_ref().filter(|(nd, _)| *nd <= 255 && width < 16)
                        {
                            let mut b = d.clone();
                            b.extend_from_slice(&values);
                            out.put(
                                "dictionary",
                                &tag,
                                &[ti, *nd as u8, n0, n1, width as u8],
                                &b,
                            );
                        }
                    }
                    Encoding::Rle if cm.type_ == PhysicalType::Boolean => {
                        out.put("rle", &format!("{tag}-bool"), &[1, n0, n1, 3], &values)
                    }
                    Encoding::DeltaBinaryPacked => {
                        let kind = u8::from(cm.type_ == PhysicalType::Int64);
                        out.put("delta", &tag, &[0, kind, n0, n1], &values);
                    }
                    Encoding::DeltaLengthByteArray => out.put("delta", &tag, &[1, n0, n1], &values),
                    Encoding::DeltaByteArray if width < 8 => {
                        out.put("delta", &tag, &[2, width as u8, n0, n1], &values)
                    }
                    Encoding::ByteStreamSplit => {
                        let kind = match cm.type_ {
                            PhysicalType::Int32 => 0,
                            PhysicalType::Int64 => 1,
                            PhysicalType::Float => 2,
                            PhysicalType::Double => 3,
                            _ if width < 20 => 5 + 6 * width as u8,
                            _ => continue,
                        };
                        out.put("byte_stream_split", &tag, &[kind, 0], &values);
                    }
                    _ => {}
                }
            }
        }
    }
    Some(())
}

/// `file`: small files from parket's writer (what the tests write): a nested schema over every
/// page version, codec, dictionary setting and a non-PLAIN encoding, with tiny pages.
fn written_files(out: &mut Out) {
    use parket::format::FieldRepetitionType::{Optional, Required};
    use parket::record::Value;
    use parket::schema::Type;
    use parket::write::{FileWriter, PageVersion, WriteOptions};
    let schema = Schema::new(
        "m",
        vec![
            Type::required("id", PhysicalType::Int64),
            Type::optional("name", PhysicalType::ByteArray)
                .logical_type(parket::format::LogicalType::String),
            Type::optional("x", PhysicalType::Double),
            Type::list(
                "tags",
                Optional,
                Type::optional("element", PhysicalType::Int32),
            ),
            Type::map(
                "attrs",
                Optional,
                Type::required("key", PhysicalType::ByteArray),
                Some(Type::fixed_len_byte_array("value", Required, 3)),
            ),
        ],
    )
    .expect("seed schema");
    let records: Vec<Value> = (0..40i64)
        .map(|i| {
            Value::Group(vec![
                Value::Int64(i * 7),
                if i % 3 == 0 {
                    Value::Null
                } else {
                    Value::Bytes(format!("n{}", i % 5).into_bytes())
                },
                Value::Double(i as f64 / 3.0),
                Value::List(
                    (0..i % 4)
                        .map(|j| {
                            if j == 1 {
                                Value::Null
                            } else {
                                Value::Int32(j as i32)
                            }
                        })
                        .collect(),
                ),
                if i % 4 == 0 {
                    Value::Null
                } else {
                    Value::Map(vec![(
                        Value::Bytes(b"k".to_vec()),
                        Value::Bytes(vec![i as u8; 3]),
                    )])
                },
            ])
        })
        .collect();
    let codecs = [
        Codec::Uncompressed,
        Codec::Snappy,
        Codec::Gzip { level: 1 },
        Codec::Zstd { level: 1 },
        Codec::Lz4Raw,
        Codec::Brotli { level: 1 },
        Codec::Lz4,
        Codec::Lzo,
    ];
    for (i, codec) in codecs.into_iter().enumerate() {
        for v2 in [false, true] {
            for dict in [false, true] {
                let options = WriteOptions::default()
                    .codec(codec)
                    .page_version(if v2 { PageVersion::V2 } else { PageVersion::V1 })
                    .dictionary(dict)
                    .max_rows_per_page(7)
                    .row_group_rows(25)
                    .page_crc(i % 2 == 0)
                    .column("id", |c| c.encoding(Encoding::DeltaBinaryPacked))
                    .column("name", |c| c.encoding(Encoding::DeltaByteArray))
                    .column("x", |c| c.encoding(Encoding::ByteStreamSplit));
                let Ok(mut w) = FileWriter::new(Vec::new(), schema.clone(), options) else {
                    continue;
                };
                if w.write_records(&records).is_ok() && w.finish().is_ok() {
                    let name = format!("parket-{codec}-v{}-dict{}", 1 + v2 as u8, dict as u8);
                    out.put("file", &name.replace(':', "_"), &[], &w.into_inner());
                }
            }
        }
    }
}

fn main() {
    let mut args = std::env::args_os().skip(1);
    let dir = PathBuf::from(
        args.next()
            .expect("usage: parket-fuzz-seedgen <corpus-dir> [files...]"),
    );
    let mut out = Out { dir, count: 0 };
    hand_made(&mut out);
    written_files(&mut out);
    let hand = out.count;
    let mut files = 0;
    for f in args {
        if from_file(&mut out, Path::new(&f)).is_some() {
            files += 1;
        }
    }
    println!(
        "seedgen: {hand} hand-made seeds, {} from {files} files",
        out.count - hand
    );
}
