//! The writer's file layout, checked by walking the bytes with the footer and page header
//! decoders: offsets point at page headers, sizes add up, pages hold whole rows, the
//! dictionary falls back without a second dictionary page, and bad input is refused.
#![cfg(all(feature = "std", feature = "write"))]

use parket::compression::Codec;
use parket::encoding::rle;
use parket::format::{ColumnIndex, Encoding, FileMetaData, OffsetIndex, PageHeader, PageType};
use parket::record::Value;
use parket::schema::Schema;
use parket::values::{ByteArrays, ValuesRef};
use parket::write::{FileWriter, PageVersion, WriteOptions};

fn footer(file: &[u8]) -> FileMetaData {
    let n = file.len();
    assert_eq!(&file[..4], b"PAR1");
    assert_eq!(&file[n - 4..], b"PAR1");
    let len = u32::from_le_bytes(file[n - 8..n - 4].try_into().unwrap()) as usize;
    FileMetaData::decode(&file[n - 8 - len..n - 8]).unwrap()
}

/// Walks every column chunk: returns, per chunk, the page headers with their offsets.
fn walk(file: &[u8], meta: &FileMetaData) -> Vec<Vec<(usize, PageHeader, usize)>> {
    let mut out = Vec::new();
    for rg in &meta.row_groups {
        let mut rg_comp = 0;
        for (j, c) in rg.columns.iter().enumerate() {
            let m = c.meta_data.as_ref().unwrap();
            let start = m.dictionary_page_offset.unwrap_or(m.data_page_offset) as usize;
            if j == 0 {
                assert_eq!(rg.file_offset, Some(start as i64));
            }
            let end = start + m.total_compressed_size as usize;
            let mut pos = start;
            let mut pages = Vec::new();
            let (mut unc, mut values) = (0i64, 0i64);
            while pos < end {
                let (h, used) = PageHeader::decode(&file[pos..]).unwrap();
                if h.type_ == PageType::DictionaryPage {
                    assert_eq!(Some(pos as i64), m.dictionary_page_offset);
                    assert!(pages.is_empty(), "dictionary page first");
                } else if values == 0
                    && pages.iter().all(|(_, p, _): &(usize, PageHeader, usize)| {
                        p.type_ == PageType::DictionaryPage
                    })
                {
                    assert_eq!(pos as i64, m.data_page_offset);
                }
                if let Some(d) = &h.data_page_header {
                    values += d.num_values as i64;
                }
                if let Some(d) = &h.data_page_header_v2 {
                    values += d.num_values as i64;
                }
                if let Some(crc) = h.crc {
                    let body = &file[pos + used..pos + used + h.compressed_page_size as usize];
                    assert_eq!(crc as u32, parket::bytes::crc32::crc32(body));
                }
                unc += (used as i64) + h.uncompressed_page_size as i64;
                let size = used + h.compressed_page_size as usize;
                pages.push((pos, h, size));
                pos += size;
            }
            assert_eq!(pos, end, "total_compressed_size sums the pages");
            assert_eq!(unc, m.total_uncompressed_size);
            assert_eq!(values, m.num_values);
            rg_comp += m.total_compressed_size;
            // The offset index lists the data pages.
            if let Some(o) = c.offset_index_offset {
                let (oi, used) = OffsetIndex::decode(&file[o as usize..]).unwrap();
                assert_eq!(used as i32, c.offset_index_length.unwrap());
                let data: Vec<_> = pages
                    .iter()
                    .filter(|(_, h, _)| h.type_ != PageType::DictionaryPage)
                    .collect();
                assert_eq!(oi.page_locations.len(), data.len());
                let mut first = 0;
                for (loc, (pos, h, size)) in oi.page_locations.iter().zip(&data) {
                    assert_eq!(loc.offset, *pos as i64);
                    assert_eq!(loc.compressed_page_size, *size as i32);
                    assert_eq!(loc.first_row_index, first);
                    if let Some(v2) = &h.data_page_header_v2 {
                        first += v2.num_rows as i64;
                    } else if loc.first_row_index == first {
                        // V1 headers carry no row count: count rows of the next page start.
                        first = oi
                            .page_locations
                            .iter()
                            .find(|l| l.offset > *pos as i64)
                            .map_or(rg.num_rows, |l| l.first_row_index);
                    }
                }
                assert_eq!(first, rg.num_rows);
            }
            if let Some(o) = c.column_index_offset {
                let (ci, used) = ColumnIndex::decode(&file[o as usize..]).unwrap();
                assert_eq!(used as i32, c.column_index_length.unwrap());
                assert_eq!(
                    ci.null_pages.len(),
                    pages.len() - m.dictionary_page_offset.is_some() as usize
                );
            }
            out.push(pages);
        }
        assert_eq!(rg.total_compressed_size, Some(rg_comp));
    }
    out
}

#[test]
fn offsets_and_sizes_walk() {
    let schema = Schema::parse(
        "message m { required int64 a; optional binary s (STRING); \
         optional group l (LIST) { repeated group list { optional int32 element; } } }",
    )
    .unwrap();
    for v in [PageVersion::V1, PageVersion::V2] {
        let options = WriteOptions::default()
            .page_version(v)
            .max_rows_per_page(100)
            .row_group_rows(700);
        let mut w = FileWriter::new(Vec::new(), schema.clone(), options).unwrap();
        let records: Vec<Value> = (0..2000)
            .map(|i| {
                Value::Group(vec![
                    Value::Int64(i),
                    if i % 3 == 0 {
                        Value::Null
                    } else {
                        Value::Bytes(format!("v{}", i % 17).into_bytes())
                    },
                    Value::List((0..i % 4).map(|k| Value::Int32(k as i32)).collect()),
                ])
            })
            .collect();
        w.write_records(&records).unwrap();
        let meta = w.finish().unwrap();
        let file = w.into_inner();
        assert_eq!(meta, footer(&file));
        assert_eq!(meta.num_rows, 2000);
        assert_eq!(meta.row_groups.len(), 3);
        assert_eq!(
            meta.row_groups
                .iter()
                .map(|r| r.num_rows)
                .collect::<Vec<_>>(),
            [700, 700, 600]
        );
        let chunks = walk(&file, &meta);
        // 700 rows at most 100 per page: 7 data pages per chunk of the first row group. `a`
        // (distinct values: a dictionary would not pay on its first page) has no dictionary
        // page; `s` (17 distinct strings) has one.
        assert_eq!(chunks[0].len(), 7);
        assert_eq!(chunks[1].len(), 1 + 7);
        let a = meta.row_groups[0].columns[0].meta_data.as_ref().unwrap();
        assert_eq!(a.dictionary_page_offset, None);
        assert!(!a.encodings.contains(&Encoding::RleDictionary));
        assert_eq!(
            meta.created_by.as_deref(),
            Some(concat!("parket version ", env!("CARGO_PKG_VERSION")))
        );
    }
}

#[test]
fn pages_split_at_row_boundaries() {
    // One repeated column, rows of 0..=40 elements written in batches cut mid-row; V2 pages,
    // uncompressed, so each page's repetition levels can be read back directly.
    let schema = Schema::parse("message m { repeated int32 x; }").unwrap();
    let options = WriteOptions::default()
        .page_version(PageVersion::V2)
        .codec(Codec::Uncompressed)
        .dictionary(false)
        .data_page_size(256);
    let mut w = FileWriter::new(Vec::new(), schema, options).unwrap();
    let mut rep = Vec::new();
    let mut def = Vec::new();
    for row in 0..300u32 {
        let n = row % 41;
        if n == 0 {
            rep.push(0);
            def.push(0);
        }
        for k in 0..n {
            rep.push(if k == 0 { 0 } else { 1 });
            def.push(1);
        }
    }
    let values: Vec<i32> = (0..def.iter().filter(|&&d| d == 1).count() as i32).collect();
    let mut rg = w.next_row_group().unwrap();
    let (mut l, mut v) = (0, 0);
    while l < rep.len() {
        let e = (l + 77).min(rep.len());
        let nv = def[l..e].iter().filter(|&&d| d == 1).count();
        rg.column("x")
            .unwrap()
            .write(ValuesRef::Int32(&values[v..v + nv]), &def[l..e], &rep[l..e])
            .unwrap();
        l = e;
        v += nv;
    }
    rg.finish().unwrap();
    let meta = w.finish().unwrap();
    let file = w.into_inner();
    let chunks = walk(&file, &meta);
    assert!(chunks[0].len() > 10, "many pages");
    let mut rows = 0;
    for (pos, h, _) in &chunks[0] {
        let v2 = h.data_page_header_v2.as_ref().unwrap();
        let body = &file[pos + (h_len(&file[*pos..]))..];
        let mut levels = Vec::new();
        rle::decode_levels(
            &body[..v2.repetition_levels_byte_length as usize],
            1,
            v2.num_values as usize,
            &mut levels,
        )
        .unwrap();
        assert_eq!(levels[0], 0, "a page starts a row");
        assert_eq!(
            levels.iter().filter(|&&r| r == 0).count(),
            v2.num_rows as usize
        );
        rows += v2.num_rows;
    }
    assert_eq!(rows, 300);
}

fn h_len(b: &[u8]) -> usize {
    PageHeader::decode(b).unwrap().1
}

#[test]
fn dictionary_falls_back_mid_chunk() {
    let schema = Schema::parse("message m { required binary s (STRING); }").unwrap();
    let options = WriteOptions::default()
        .dictionary_page_size_limit(1000)
        .max_rows_per_page(50)
        .codec(Codec::Uncompressed);
    let mut w = FileWriter::new(Vec::new(), schema, options).unwrap();
    let mut rg = w.next_row_group().unwrap();
    // 100 values from 10 distinct, then 500 distinct values: the dictionary passes 1000
    // PLAIN bytes part-way through.
    let mut vals = ByteArrays::new();
    for i in 0..100 {
        vals.push(format!("k{}", i % 10).as_bytes());
    }
    for i in 0..500 {
        vals.push(format!("distinct-value-{i:05}").as_bytes());
    }
    for start in (0..600).step_by(60) {
        rg.column(0)
            .unwrap()
            .write(
                ValuesRef::ByteArray(vals.as_ref().slice(start..start + 60)),
                &[],
                &[],
            )
            .unwrap();
    }
    rg.finish().unwrap();
    let meta = w.finish().unwrap();
    let file = w.into_inner();
    let chunks = walk(&file, &meta);
    let m = meta.row_groups[0].columns[0].meta_data.as_ref().unwrap();
    let kinds: Vec<(PageType, Encoding)> = chunks[0]
        .iter()
        .map(
            |(_, h, _)| match (&h.data_page_header, &h.dictionary_page_header) {
                (Some(d), _) => (h.type_, d.encoding),
                (_, Some(d)) => (h.type_, d.encoding),
                _ => unreachable!(),
            },
        )
        .collect();
    assert_eq!(kinds[0], (PageType::DictionaryPage, Encoding::Plain));
    assert_eq!(
        kinds
            .iter()
            .filter(|k| k.0 == PageType::DictionaryPage)
            .count(),
        1,
        "no second dictionary"
    );
    let first_plain = kinds
        .iter()
        .position(|k| k.1 == Encoding::Plain && k.0 == PageType::DataPage)
        .unwrap();
    assert!(kinds[1..first_plain]
        .iter()
        .all(|k| k.1 == Encoding::RleDictionary));
    assert!(kinds[first_plain..].iter().all(|k| k.1 == Encoding::Plain));
    assert!(first_plain >= 3, "dictionary pages before the fallback");
    assert_eq!(m.encodings, [Encoding::Plain, Encoding::RleDictionary]);
    let stats = m.encoding_stats.as_ref().unwrap();
    assert_eq!(stats[0].page_type, PageType::DictionaryPage);
    assert_eq!(m.num_values, 600);
}

#[test]
fn hand_worked_optional_int32_page() {
    // OPTIONAL INT32 [1, null, 3], V1, PLAIN, UNCOMPRESSED, no CRC, no statistics:
    // 15 00 | 15 1c | 15 1c | 2c 15 06 15 00 15 06 15 06 00 | 00   (header, see page::encode)
    // 02 00 00 00 03 05 | 01 00 00 00 03 00 00 00                   (def levels, values)
    let schema = Schema::parse("message m { optional int32 x; }").unwrap();
    let options = WriteOptions::default()
        .codec(Codec::Uncompressed)
        .dictionary(false)
        .statistics(false)
        .page_crc(false)
        .page_index(false);
    let mut w = FileWriter::new(Vec::new(), schema, options).unwrap();
    let mut rg = w.next_row_group().unwrap();
    rg.column("x")
        .unwrap()
        .write(ValuesRef::Int32(&[1, 3]), &[1, 0, 1], &[])
        .unwrap();
    rg.finish().unwrap();
    w.finish().unwrap();
    let file = w.into_inner();
    assert_eq!(
        file[4..35],
        [
            0x15, 0x00, 0x15, 0x1c, 0x15, 0x1c, 0x2c, 0x15, 0x06, 0x15, 0x00, 0x15, 0x06, 0x15,
            0x06, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x03, 0x05, 0x01, 0x00, 0x00, 0x00, 0x03,
            0x00, 0x00, 0x00
        ]
    );
}

#[test]
fn refuses_bad_input() {
    let schema =
        Schema::parse("message m { required int32 a; optional int32 b; repeated int32 c; }")
            .unwrap();
    let bad_enc = WriteOptions::default().column("a", |c| c.encoding(Encoding::DeltaByteArray));
    assert!(FileWriter::new(Vec::new(), schema.clone(), bad_enc).is_err());
    let bad_path = WriteOptions::default().column("zz", |c| c.dictionary(false));
    assert!(FileWriter::new(Vec::new(), schema.clone(), bad_path).is_err());
    let mut w = FileWriter::new(Vec::new(), schema, WriteOptions::default()).unwrap();
    let mut rg = w.next_row_group().unwrap();
    let b = rg.column("b").unwrap();
    assert!(
        b.write(ValuesRef::Int32(&[1]), &[1, 1], &[]).is_err(),
        "count"
    );
    assert!(
        b.write(ValuesRef::Int32(&[1]), &[2], &[]).is_err(),
        "level > max"
    );
    assert!(b.write(ValuesRef::Int64(&[1]), &[1], &[]).is_err(), "type");
    let c = rg.column("c").unwrap();
    assert!(
        c.write(ValuesRef::Int32(&[1]), &[1], &[1]).is_err(),
        "first rep 0"
    );
    assert!(rg.column("nope").is_err());
    rg.column("a")
        .unwrap()
        .write(ValuesRef::Int32(&[1, 2]), &[], &[])
        .unwrap();
    rg.column("b")
        .unwrap()
        .write(ValuesRef::Int32(&[1]), &[1], &[])
        .unwrap();
    rg.column("c")
        .unwrap()
        .write(ValuesRef::Int32(&[]), &[0], &[0])
        .unwrap();
    assert!(rg.finish().is_err(), "row counts differ");
}

/// ALP is opt-in per column (FLOAT and DOUBLE only; like every value encoding, for pages the
/// dictionary does not take): its pages say ALP, and every value,
/// nulls, NaN payloads, -0.0, infinities and subnormals among them, reads back bit for bit,
/// in both page versions and through a codec.
#[test]
fn alp_columns_round_trip() {
    let schema = Schema::parse("message m { optional double d; required float f; }").unwrap();
    let specials = [
        -0.0,
        f64::NAN,
        f64::from_bits(0xfff4_0000_0000_0abc),
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::from_bits(3),
        f64::MAX,
    ];
    let records: Vec<Value> = (0..3000)
        .map(|i| {
            let d = if i % 11 == 0 {
                Value::Null
            } else if i % 13 == 0 {
                Value::Double(specials[i / 13 % specials.len()])
            } else {
                Value::Double((i * 37 % 9000) as f64 / 100.0)
            };
            let f = if i % 17 == 0 {
                f32::from_bits(0x7fc0_0000 | i as u32)
            } else {
                (i % 500) as f32 / 4.0
            };
            Value::Group(vec![d, Value::Float(f)])
        })
        .collect();
    for (v, codec) in [
        (PageVersion::V1, Codec::Uncompressed),
        (PageVersion::V2, Codec::Zstd { level: 1 }),
    ] {
        let options = WriteOptions::default()
            .page_version(v)
            .codec(codec)
            .max_rows_per_page(1500)
            .dictionary(false)
            .column("d", |c| c.encoding(Encoding::Alp))
            .column("f", |c| c.encoding(Encoding::Alp));
        let mut w = FileWriter::new(Vec::new(), schema.clone(), options).unwrap();
        w.write_records(&records).unwrap();
        let meta = w.finish().unwrap();
        let file = w.into_inner();
        for chunk in walk(&file, &meta) {
            for (_, h, _) in chunk {
                let enc = h
                    .data_page_header
                    .as_ref()
                    .map(|d| d.encoding)
                    .or(h.data_page_header_v2.as_ref().map(|d| d.encoding));
                assert_eq!(enc, Some(Encoding::Alp));
            }
        }
        let back: Vec<Value> = parket::read::FileReader::from_bytes(&file)
            .unwrap()
            .records(None)
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(back.len(), records.len());
        for (a, b) in back.iter().zip(&records) {
            assert!(a.bit_eq(b), "{a:?} != {b:?}");
        }
    }
    // Not for other types, and never a default.
    let ints = Schema::parse("message m { required int64 a; }").unwrap();
    let bad = WriteOptions::default().column("a", |c| c.encoding(Encoding::Alp));
    assert!(FileWriter::new(Vec::new(), ints, bad).is_err());
    let mut w = FileWriter::new(
        Vec::new(),
        schema,
        WriteOptions::default().dictionary(false),
    )
    .unwrap();
    w.write_records(&records).unwrap();
    let meta = w.finish().unwrap();
    for rg in &meta.row_groups {
        for c in &rg.columns {
            assert!(!c
                .meta_data
                .as_ref()
                .unwrap()
                .encodings
                .contains(&Encoding::Alp));
        }
    }
}
