//! Records through `FileReader::records`: counts over the corpus, and golden values from
//! pyarrow 26.0.1 (`pq.read_table(path).to_pylist()`).

use parket::read::FileReader;
use parket::record::Value;

fn read(name: &str) -> Vec<u8> {
    let p = parket::testing::corpus_dir().join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn record_counts_match_the_row_groups() {
    for (name, rows) in [
        ("data/alltypes_plain.parquet", 8),
        ("data/nested_lists.snappy.parquet", 3),
        ("data/nested_maps.snappy.parquet", 6),
        ("data/nullable.impala.parquet", 7),
        ("data/nonnullable.impala.parquet", 1),
        ("data/repeated_no_annotation.parquet", 6),
        ("data/repeated_primitive_no_list.parquet", 4),
        ("data/map_no_value.parquet", 3),
        ("data/old_list_structure.parquet", 1),
        ("data/null_list.parquet", 1),
        ("data/sort_columns.parquet", 6),
        ("data/geospatial/geography-points.parquet", 500),
        ("data/overflow_i16_page_cnt.parquet", 40000),
    ] {
        let bytes = read(name);
        let file = FileReader::from_bytes(&bytes).unwrap();
        let mut n = 0;
        for r in file.records(None).unwrap() {
            r.unwrap_or_else(|e| panic!("{name}: {e}"));
            n += 1;
        }
        assert_eq!(n, rows, "{name}");
    }
}

#[test]
fn list_columns_values() {
    // pyarrow: [{'int64_list': [1, 2, 3], 'utf8_list': ['abc', 'efg', 'hij']},
    //           {'int64_list': [None, 1], 'utf8_list': None},
    //           {'int64_list': [4], 'utf8_list': ['efg', None, 'hij', 'xyz']}]
    let bytes = read("data/list_columns.parquet");
    let file = FileReader::from_bytes(&bytes).unwrap();
    let got: Vec<Value> = file.records(None).unwrap().map(Result::unwrap).collect();
    let ints = |v: &[Option<i64>]| {
        Value::List(
            v.iter()
                .map(|x| x.map_or(Value::Null, Value::Int64))
                .collect(),
        )
    };
    let strs = |v: &[Option<&str>]| {
        Value::List(
            v.iter()
                .map(|x| x.map_or(Value::Null, |s| Value::Bytes(s.as_bytes().to_vec())))
                .collect(),
        )
    };
    let want = vec![
        Value::Group(vec![
            ints(&[Some(1), Some(2), Some(3)]),
            strs(&[Some("abc"), Some("efg"), Some("hij")]),
        ]),
        Value::Group(vec![ints(&[None, Some(1)]), Value::Null]),
        Value::Group(vec![
            ints(&[Some(4)]),
            strs(&[Some("efg"), None, Some("hij"), Some("xyz")]),
        ]),
    ];
    assert_eq!(got, want);
    // Projection: one column.
    let only: Vec<Value> = file
        .records(Some(&["int64_list"]))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(only[2], Value::Group(vec![ints(&[Some(4)])]));
    assert!(file.records(Some(&["nope"])).is_err());
}

#[test]
fn errors_stop_the_iteration() {
    let bytes = read("data/datapage_v1-corrupt-checksum.parquet");
    let file = FileReader::from_bytes(&bytes).unwrap();
    let mut it = file.records(None).unwrap();
    let e = it.next().unwrap().unwrap_err();
    assert_eq!(e.location().row_group, Some(0));
    assert!(it.next().is_none());
}

/// `records` streams a row group page by page (src/read/records.rs); assembling each whole
/// row group at once (`read_row_group` + `levels::assemble`) must give the same records, or
/// both must fail, for every file of the corpus.
#[test]
fn streamed_records_equal_whole_row_group_assembly() {
    let mut compared = 0;
    for path in parket::testing::corpus_files("data") {
        // 2 GiB of map keys once decompressed (tests/read_corpus.rs reads its counts).
        if path.ends_with("large_string_map.brotli.parquet") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let name = path.display();
        let Ok(file) = FileReader::from_bytes(&bytes) else {
            continue;
        };
        let leaves: Vec<usize> = (0..file.schema().columns().len()).collect();
        let mut whole = Vec::new();
        let mut whole_failed = false;
        for rg in 0..file.num_row_groups() {
            match file
                .read_row_group(rg, &leaves)
                .and_then(|cols| parket::levels::assemble(file.schema(), &cols))
            {
                Ok(records) => whole.extend(records),
                Err(_) => {
                    whole_failed = true;
                    break;
                }
            }
        }
        let streamed: Result<Vec<Value>, _> = file.records(None).unwrap().collect();
        match (whole_failed, streamed) {
            (false, Ok(streamed)) => {
                assert_eq!(streamed.len(), whole.len(), "{name}");
                for (i, (a, b)) in streamed.iter().zip(&whole).enumerate() {
                    assert!(a.bit_eq(b), "{name}: record {i}: {a:?} != {b:?}");
                }
                compared += 1;
            }
            (true, Err(_)) => {}
            (true, Ok(_)) => panic!("{name}: whole-row-group assembly failed, streaming did not"),
            (false, Err(e)) => panic!("{name}: streaming failed ({e}), whole assembly did not"),
        }
    }
    assert!(compared >= 60, "only {compared} corpus files compared");
}

/// Records of a written file with lists of 0-40 elements, tiny pages (many pages per chunk),
/// several row groups and more records than one streaming step: read back equal, also
/// projected.
#[cfg(feature = "write")]
#[test]
fn streamed_records_across_pages_and_row_groups() {
    use parket::schema::Schema;
    use parket::write::{FileWriter, WriteOptions};
    let schema = Schema::parse(
        "message m { required int64 id; optional group tags (LIST) { repeated group list { \
         optional binary element (STRING); } } optional double score; }",
    )
    .unwrap();
    let records: Vec<Value> = (0..5000i64)
        .map(|i| {
            let tags = match i % 7 {
                0 => Value::Null,
                _ => Value::List(
                    (0..(i * 31 % 41))
                        .map(|k| {
                            if k % 5 == 3 {
                                Value::Null
                            } else {
                                Value::Bytes(format!("t{}", i + k).into_bytes())
                            }
                        })
                        .collect(),
                ),
            };
            let score = if i % 3 == 0 {
                Value::Null
            } else {
                Value::Double(i as f64 / 3.0)
            };
            Value::Group(vec![Value::Int64(i), tags, score])
        })
        .collect();
    let options = WriteOptions::default()
        .data_page_size(256)
        .row_group_rows(1800);
    let mut out = Vec::new();
    let mut w = FileWriter::new(&mut out, schema, options).unwrap();
    w.write_records(&records).unwrap();
    w.finish().unwrap();
    drop(w);
    let file = FileReader::from_bytes(&out).unwrap();
    assert!(file.num_row_groups() >= 3);
    let back: Vec<Value> = file.records(None).unwrap().map(Result::unwrap).collect();
    assert_eq!(back.len(), records.len());
    for (i, (a, b)) in back.iter().zip(&records).enumerate() {
        assert!(a.bit_eq(b), "record {i}: {a:?} != {b:?}");
    }
    let projected: Vec<Value> = file
        .records(Some(&["tags"]))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    for (i, (a, b)) in projected.iter().zip(&records).enumerate() {
        let Value::Group(full) = b else {
            unreachable!()
        };
        assert_eq!(a, &Value::Group(vec![full[1].clone()]), "record {i}");
    }
}
