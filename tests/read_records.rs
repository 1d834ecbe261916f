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
