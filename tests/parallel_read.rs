//! Parallel reading (issue 22): a scan on several threads gives exactly what the one-thread
//! scan gives (the same batches in the same order, the same records, the same error), on every
//! corpus file and on generated files with many row groups, columns, nested columns, a
//! predicate and offset / limit.
#![cfg(all(feature = "std", feature = "write"))]

use parket::predicate::Predicate;
use parket::read::{FileReader, ScanBatch, ScanBuilder};
use parket::record::Value;
use parket::schema::Schema;
use parket::write::{FileWriter, PageVersion, WriteOptions};

/// The text of a result: NaN equals NaN there (`==` on the values would not).
fn text<T: std::fmt::Debug>(r: &T) -> String {
    format!("{r:?}")
}

/// Two iterators give the same items, compared one by one (so that large files are not held).
fn lockstep<T: std::fmt::Debug>(
    what: &str,
    a: impl Iterator<Item = parket::Result<T>>,
    b: impl Iterator<Item = parket::Result<T>>,
) {
    let (mut a, mut b) = (a.fuse(), b.fuse());
    for i in 0.. {
        let (x, y) = (a.next(), b.next());
        let (x, y) = (
            x.map(|r| r.map_err(|e| e.to_string())),
            y.map(|r| r.map_err(|e| e.to_string())),
        );
        assert!(text(&x) == text(&y), "{what}: item {i} differs");
        if x.is_none() {
            return;
        }
    }
}

/// One thread and several agree on batches (in order), records and errors.
fn same(
    file: &FileReader<'_>,
    what: &str,
    configure: impl for<'f, 'a> Fn(ScanBuilder<'f, 'a>) -> ScanBuilder<'f, 'a>,
) {
    for threads in [2, 3, 8] {
        let one = configure(file.scan().threads(1)).build();
        let many = configure(file.scan().threads(threads)).build();
        match (one, many) {
            (Ok(one), Ok(many)) => lockstep(&format!("{what}, {threads} threads"), one, many),
            (one, many) => assert_eq!(
                one.err().map(|e| e.to_string()),
                many.err().map(|e| e.to_string()),
                "{what}"
            ),
        }
    }
    if let (Ok(one), Ok(many)) = (
        configure(file.scan().threads(1)).build(),
        configure(file.scan().threads(4)).build(),
    ) {
        lockstep(&format!("{what}, records"), one.records(), many.records());
    }
}

/// The records of a scan, or the error that ended it.
fn records(scan: ScanBuilder<'_, '_>) -> Result<Vec<Value>, String> {
    let scan = scan.build().map_err(|e| e.to_string())?;
    scan.records()
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())
}

/// The batches of a scan, or the error that ended it.
fn batches(scan: ScanBuilder<'_, '_>) -> Result<Vec<ScanBatch>, String> {
    let scan = scan.build().map_err(|e| e.to_string())?;
    scan.collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())
}

#[test]
fn every_corpus_file_reads_the_same_on_several_threads() {
    let mut read = 0;
    for path in parket::testing::corpus_files("data")
        .into_iter()
        .chain(parket::testing::corpus_files("bad_data"))
    {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(file) = FileReader::from_bytes(&bytes) else {
            continue;
        };
        let name = path.display().to_string();
        // The text compared of a file's batches is many times its data: files whose data
        // is large (large_string_map.brotli.parquet, about 2 GB of strings) are left to the
        // generated files below.
        let data: i64 = file
            .metadata()
            .row_groups
            .iter()
            .map(|g| g.total_byte_size)
            .sum();
        if data > 64 << 20 {
            continue;
        }
        same(&file, &name, |s| s);
        if bytes.len() < 100_000 {
            same(&file, &name, |s| s.batch_size(7));
        }
        read += 1;
    }
    assert!(read > 60, "only {read} corpus files opened");
}

fn sample(n: usize) -> (Schema, Vec<Value>) {
    let schema = Schema::parse(
        "message m { required int64 id; optional binary s (STRING); optional double d; \
         optional group l (LIST) { repeated group list { optional int32 element; } } \
         required int32 k; }",
    )
    .unwrap();
    let records = (0..n)
        .map(|i| {
            Value::Group(vec![
                Value::Int64(i as i64),
                if i % 7 == 0 {
                    Value::Null
                } else {
                    Value::Bytes(format!("value {}", (i * 31) % 997).into_bytes())
                },
                if i % 11 == 0 {
                    Value::Null
                } else {
                    Value::Double(i as f64 / 3.0)
                },
                match i % 5 {
                    0 => Value::Null,
                    k => Value::List(
                        (0..k)
                            .map(|j| {
                                if j == 2 {
                                    Value::Null
                                } else {
                                    Value::Int32((i + j) as i32)
                                }
                            })
                            .collect(),
                    ),
                },
                Value::Int32((i % 13) as i32),
            ])
        })
        .collect();
    (schema, records)
}

#[test]
fn generated_files_read_the_same_on_several_threads() {
    let (schema, rows) = sample(20_000);
    for (version, index) in [(PageVersion::V1, false), (PageVersion::V2, true)] {
        let options = WriteOptions::default()
            .page_version(version)
            .row_group_rows(3_000)
            .max_rows_per_page(400)
            .page_index(index);
        let mut w = FileWriter::new(Vec::new(), schema.clone(), options).unwrap();
        w.write_records(&rows).unwrap();
        w.finish().unwrap();
        let bytes = w.into_inner();
        let file = FileReader::from_bytes(&bytes).unwrap();
        assert!(file.num_row_groups() > 5);
        let what = format!("{version:?}");
        same(&file, &what, |s| s);
        same(&file, &what, |s| {
            s.batch_size(1000).offset(2_500).limit(9_000)
        });
        same(&file, &what, |s| s.columns(&["l", "id"]).batch_size(333));
        let p = Predicate::parse("k = 3 AND id >= 4000", file.schema()).unwrap();
        same(&file, &what, |s| {
            s.predicate(p.clone()).offset(5).limit(700)
        });
        // And the records are the ones written, in order.
        let got = records(file.scan().threads(3)).unwrap();
        assert!(
            got == rows,
            "{what}: the records read are not those written"
        );
        // Over a `Read + Seek` too (threads take turns at the one reader).
        let seek = FileReader::new(std::io::Cursor::new(bytes.clone())).unwrap();
        let a = batches(seek.scan().threads(1)).unwrap();
        let b = batches(seek.scan().threads(2)).unwrap();
        assert!(a == b, "{what}: Read + Seek batches differ");
    }
}

#[test]
fn an_error_is_the_same_on_several_threads() {
    // A page of the third column corrupted: the same error (and the batches before it).
    let (schema, rows) = sample(5_000);
    let options = WriteOptions::default()
        .row_group_rows(2_000)
        .max_rows_per_page(500)
        .codec(parket::compression::Codec::Uncompressed);
    let mut w = FileWriter::new(Vec::new(), schema, options).unwrap();
    w.write_records(&rows).unwrap();
    let md = w.finish().unwrap();
    let mut bytes = w.into_inner();
    let chunk = md.row_groups[1].columns[2].meta_data.as_ref().unwrap();
    let at = (chunk.data_page_offset + chunk.total_compressed_size / 2) as usize;
    bytes[at] ^= 0xff;
    bytes[at + 1] ^= 0x5a;
    let file = FileReader::from_bytes(&bytes).unwrap();
    let one = file.scan().threads(1).batch_size(256).build().unwrap();
    let many = file.scan().threads(4).batch_size(256).build().unwrap();
    let one: Vec<_> = one.map(|b| b.map_err(|e| e.to_string())).collect();
    let many: Vec<_> = many.map(|b| b.map_err(|e| e.to_string())).collect();
    assert!(
        one.iter().any(Result::is_err),
        "the corruption was not noticed"
    );
    assert!(one == many, "the batches or the error differ");
}

/// The levels and values of `reader`'s pages, as text (NaN equal to NaN).
fn leaf_text(data: &parket::levels::LeafData) -> String {
    format!(
        "{:?} {:?} {:?}",
        data.def_levels, data.rep_levels, data.values
    )
}

#[test]
fn a_chunk_read_in_parts_gives_the_chunk() {
    // `parket check` reads one large chunk in parts of pages on several threads: the parts,
    // each after the dictionary page, give exactly the chunk's levels and values, whatever
    // the page version, the nesting, a dictionary falling back to PLAIN pages, the split.
    use parket::format::{Encoding, PageType};
    use parket::read::{ChunkBuffers, ChunkPart};
    let (schema, rows) = sample(6_000);
    for version in [PageVersion::V1, PageVersion::V2] {
        let options = WriteOptions::default()
            .page_version(version)
            .max_rows_per_page(250)
            .dictionary_page_size_limit(2_000);
        let mut w = FileWriter::new(Vec::new(), schema.clone(), options).unwrap();
        w.write_records(&rows).unwrap();
        w.finish().unwrap();
        let bytes = w.into_inner();
        let file = FileReader::from_bytes(&bytes).unwrap();
        for column in 0..file.schema().columns().len() {
            let what = format!("{version:?} column {column}");
            let whole = leaf_text(&file.column_chunk(0, column).unwrap().read_all().unwrap());
            let pages: Vec<_> = file.pages(0, column).unwrap().map(Result::unwrap).collect();
            let dict = pages[0].header.type_ == PageType::DictionaryPage;
            let data = &pages[usize::from(dict)..];
            assert!(data.len() > 10, "{what}: {} data pages", data.len());
            let encoded = |p: &parket::read::RawPage| {
                let e = match (&p.header.data_page_header, &p.header.data_page_header_v2) {
                    (Some(h), _) => h.encoding,
                    (_, Some(h)) => h.encoding,
                    _ => Encoding::Plain,
                };
                matches!(e, Encoding::PlainDictionary | Encoding::RleDictionary)
            };
            let declared = |p: &parket::read::RawPage| match (
                &p.header.data_page_header,
                &p.header.data_page_header_v2,
            ) {
                (Some(h), _) => h.num_values as u64,
                (_, Some(h)) => h.num_values as u64,
                _ => 0,
            };
            for size in [1, 2, 5, data.len()] {
                let mut buffers = ChunkBuffers::default();
                let mut all = parket::levels::LeafData {
                    def_levels: Vec::new(),
                    rep_levels: Vec::new(),
                    values: file
                        .column_chunk(0, column)
                        .unwrap()
                        .read_all()
                        .unwrap()
                        .values,
                };
                all.values.clear();
                for (k, group) in data.chunks(size).enumerate() {
                    let last = group.last().unwrap();
                    let part = ChunkPart {
                        pages: group[0].offset
                            ..last.offset + (last.header_len + last.body.len()) as u64,
                        num_values: group.iter().map(declared).sum(),
                        ordinal: usize::from(dict) + k * size,
                        dictionary: dict && (k == 0 || group.iter().any(encoded)),
                    };
                    let mut reader = file
                        .column_chunk_part_with(0, column, &part, buffers)
                        .unwrap();
                    while let Some(batch) = reader.next_batch(usize::MAX).unwrap() {
                        all.def_levels.extend_from_slice(batch.def_levels());
                        all.rep_levels.extend_from_slice(batch.rep_levels());
                        all.values.extend_from(batch.values());
                    }
                    buffers = reader.into_buffers();
                }
                assert!(
                    leaf_text(&all) == whole,
                    "{what}: parts of {size} pages differ"
                );
            }
            // A part of dictionary-encoded pages read without the dictionary page is an
            // error, as is one outside the chunk.
            if let Some(k) = data.iter().position(encoded) {
                let p = &data[k];
                let part = ChunkPart {
                    pages: p.offset..p.offset + (p.header_len + p.body.len()) as u64,
                    num_values: declared(p),
                    ordinal: k + 1,
                    dictionary: false,
                };
                let r = file.column_chunk_part_with(0, column, &part, ChunkBuffers::default());
                assert!(r.unwrap().read_all().is_err(), "{what}: no dictionary");
            }
            let part = ChunkPart {
                pages: 0..bytes.len() as u64,
                num_values: 1,
                ordinal: 0,
                dictionary: false,
            };
            let r = file.column_chunk_part_with(0, column, &part, ChunkBuffers::default());
            assert!(r.is_err(), "{what}: a part outside the chunk");
        }
    }
}
