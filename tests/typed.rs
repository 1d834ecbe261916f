//! `#[derive(Record)]`: round trips through `TypedWriter` and `read_typed`, the schema the
//! derive gives, projection, and the binding errors.

use std::collections::{BTreeMap, HashMap};

use parket::read::FileReader;
use parket::schema::Schema;
use parket::write::{TypedWriter, WriteOptions};
use parket::Record;

#[derive(Record, Debug, Clone, PartialEq)]
enum Color {
    Red,
    #[parket(name = "GREEN")]
    Green,
    Blue,
}

#[derive(Record, Debug, Clone, PartialEq, Default)]
struct Point {
    x: f64,
    y: Option<f32>,
}

#[derive(Record, Debug, Clone, PartialEq)]
struct Row {
    id: i64,
    #[parket(name = "label")]
    name: String,
    small: i8,
    medium: i16,
    flag: bool,
    u_8: u8,
    u_16: u16,
    u_32: u32,
    u_64: u64,
    blob: Vec<u8>,
    fixed: [u8; 3],
    maybe: Option<i32>,
    #[parket(date)]
    day: i32,
    #[parket(date)]
    days: Option<i32>,
    #[parket(time(unit = "micros"))]
    time: i64,
    #[parket(time(unit = "millis"))]
    time_ms: i32,
    #[parket(timestamp(unit = "nanos", utc = false))]
    ts: i64,
    #[parket(decimal(precision = 9, scale = 2))]
    d32: i32,
    #[parket(decimal(precision = 18, scale = 4))]
    d64: Option<i64>,
    #[parket(decimal(precision = 38, scale = 10))]
    d128: i128,
    #[parket(uuid)]
    uuid: [u8; 16],
    #[parket(json)]
    doc: String,
    #[parket(encoding = "DELTA_BINARY_PACKED")]
    delta: i64,
    #[parket(skip)]
    ignored: u32,
    color: Color,
    colors: Vec<Option<Color>>,
    point: Point,
    points: Vec<Point>,
    opt_point: Option<Point>,
    nested: Vec<Vec<i32>>,
    #[parket(date)]
    dates: Vec<i32>,
    map: BTreeMap<String, Option<i64>>,
    hmap: HashMap<i32, Vec<String>>,
    opt_list: Option<Vec<String>>,
}

fn row(i: i64) -> Row {
    Row {
        id: i,
        name: format!("row {i}"),
        small: i as i8,
        medium: -(i as i16),
        flag: i % 2 == 0,
        u_8: 255 - i as u8,
        u_16: u16::MAX,
        u_32: u32::MAX - i as u32,
        u_64: u64::MAX - i as u64,
        blob: vec![0; i as usize % 4],
        fixed: [i as u8, 1, 2],
        maybe: (i % 3 != 0).then_some(i as i32),
        day: 19_000 + i as i32,
        days: (i % 2 == 1).then_some(-1),
        time: 3_600_000_000 + i,
        time_ms: 1000,
        ts: -1,
        d32: -12345,
        d64: Some(i64::MAX / 10),
        d128: -(10i128.pow(37)) + i as i128,
        uuid: [i as u8; 16],
        doc: "{\"a\": 1}".into(),
        delta: i * 1000,
        ignored: 0,
        color: [Color::Red, Color::Green, Color::Blue][i as usize % 3].clone(),
        colors: vec![Some(Color::Blue), None, Some(Color::Green)],
        point: Point {
            x: f64::NAN,
            y: Some(-0.0),
        },
        points: (0..i % 3)
            .map(|k| Point {
                x: k as f64,
                y: None,
            })
            .collect(),
        opt_point: (i % 2 == 0).then_some(Point {
            x: f64::INFINITY,
            y: Some(f32::MIN),
        }),
        nested: vec![vec![], vec![1, 2], vec![i as i32]],
        dates: vec![1, 2, 3],
        map: [("a".to_string(), Some(1)), ("b".to_string(), None)].into(),
        hmap: [(i as i32, vec!["x".to_string(), String::new()])].into(),
        opt_list: (i % 4 != 0).then(|| vec!["p".into(); i as usize % 4]),
    }
}

/// Equality with NaN compared bitwise (every float field of `row` is NaN or ordinary).
fn same(a: &Row, b: &Row) -> bool {
    let mut a = a.clone();
    let mut b = b.clone();
    assert_eq!(a.point.x.to_bits(), b.point.x.to_bits());
    assert_eq!(
        a.point.y.map(f32::to_bits),
        b.point.y.map(f32::to_bits),
        "-0.0 survives"
    );
    a.point.x = 0.0;
    b.point.x = 0.0;
    a == b
}

fn write<T: Record>(rows: &[T], options: WriteOptions) -> Vec<u8> {
    let mut w = TypedWriter::<T, _>::new(Vec::new(), options).unwrap();
    w.write(rows).unwrap();
    w.finish().unwrap();
    w.into_inner()
}

/// [`write`], `chunk` rows per call (the writer sees a dictionary outgrow its limit after
/// some pages were written with it).
fn write_chunked<T: Record>(rows: &[T], chunk: usize, options: WriteOptions) -> Vec<u8> {
    let mut w = TypedWriter::<T, _>::new(Vec::new(), options).unwrap();
    for rows in rows.chunks(chunk) {
        w.write(rows).unwrap();
    }
    w.finish().unwrap();
    w.into_inner()
}

#[test]
fn every_type_round_trips() {
    let rows: Vec<Row> = (0..50).map(row).collect();
    for options in [
        WriteOptions::default(),
        WriteOptions::default().row_group_rows(7).dictionary(false),
    ] {
        let bytes = write(&rows, options);
        let file = FileReader::from_bytes(&bytes).unwrap();
        let back: Vec<Row> = file
            .read_typed::<Row>()
            .unwrap()
            .collect::<parket::Result<_>>()
            .unwrap();
        assert_eq!(back.len(), rows.len());
        for (a, b) in rows.iter().zip(&back) {
            assert!(same(a, b), "{a:?}\n{b:?}");
        }
        // The encoding attribute reached the column chunk.
        let delta = file.schema().column_index("delta").unwrap();
        let meta = file.metadata().row_groups[0].columns[delta]
            .meta_data
            .as_ref()
            .unwrap();
        assert!(meta
            .encodings
            .contains(&parket::format::Encoding::DeltaBinaryPacked));
    }
}

#[test]
fn schema_is_message_text() {
    #[derive(Record)]
    struct Small {
        a: i32,
        #[parket(timestamp(unit = "millis", utc = true))]
        t: Option<i64>,
        tags: Vec<String>,
        m: BTreeMap<String, i64>,
        #[parket(decimal(precision = 20, scale = 2))]
        d: i128,
        e: Color,
    }
    let expected = Schema::parse(
        "message Small {
           required int32 a;
           optional int64 t (TIMESTAMP(MILLIS,true));
           required group tags (LIST) { repeated group list { required binary element (STRING); } }
           required group m (MAP) { repeated group key_value {
             required binary key (STRING); required int64 value; } }
           required fixed_len_byte_array(9) d (DECIMAL(20,2));
           required binary e (ENUM);
         }",
    )
    .unwrap();
    assert_eq!(Small::schema().unwrap(), expected);
}

#[test]
fn projection_and_widening() {
    #[derive(Record, Debug, PartialEq)]
    struct Narrow {
        a: i32,
        b: Option<String>,
        c: i32,
    }
    #[derive(Record, Debug, PartialEq)]
    struct Wide {
        c: i64,
        missing: Option<u8>,
        a: i64,
    }
    let rows: Vec<Narrow> = (0..10)
        .map(|i| Narrow {
            a: i,
            b: Some("x".repeat(1000)),
            c: -i,
        })
        .collect();
    let bytes = write(&rows, WriteOptions::default());
    let file = FileReader::from_bytes(&bytes).unwrap();
    let typed = file.read_typed::<Wide>().unwrap();
    // Only columns c and a are read (by name, in the struct's order).
    assert_eq!(typed.columns(), &[2, 0]);
    let back: Vec<Wide> = typed.collect::<parket::Result<_>>().unwrap();
    assert_eq!(
        back[3],
        Wide {
            c: -3,
            missing: None,
            a: 3
        }
    );
}

fn err<T: Record + std::fmt::Debug>(bytes: &[u8]) -> String {
    let file = FileReader::from_bytes(bytes).unwrap();
    match file.read_typed::<T>() {
        Ok(_) => panic!("bound"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn binding_errors_name_field_column_and_types() {
    #[derive(Record, Debug)]
    struct File {
        a: Option<i64>,
        s: String,
        n: Option<i32>,
    }
    #[derive(Record, Debug)]
    struct MissingRequired {
        b: i64,
    }
    #[derive(Record, Debug)]
    struct WrongType {
        s: i64,
    }
    #[derive(Record, Debug)]
    struct RequiredOverNulls {
        n: i32,
    }
    #[derive(Record, Debug)]
    struct Narrowing {
        a: Option<i32>,
    }
    let bytes = write(
        &[File {
            a: Some(1),
            s: "x".into(),
            n: None,
        }],
        WriteOptions::default(),
    );
    let e = err::<MissingRequired>(&bytes);
    assert!(e.contains("field b") && e.contains("\"b\""), "{e}");
    let e = err::<WrongType>(&bytes);
    assert!(
        e.contains("field s (i64)") && e.contains("column s (required binary s (STRING))"),
        "{e}"
    );
    let e = err::<RequiredOverNulls>(&bytes);
    assert!(
        e.contains("field n") && e.contains("column n") && e.contains("Option"),
        "{e}"
    );
    let e = err::<Narrowing>(&bytes);
    assert!(
        e.contains("field a (i32)") && e.contains("column a (optional int64 a)"),
        "{e}"
    );
}

#[test]
fn null_in_required_field_errors_at_that_row() {
    #[derive(Record, Debug)]
    struct File {
        n: Option<i32>,
    }
    #[derive(Record, Debug)]
    struct Req {
        n: i32,
    }
    let bytes = write(
        &[File { n: Some(1) }, File { n: None }],
        WriteOptions::default().statistics(false),
    );
    let file = FileReader::from_bytes(&bytes).unwrap();
    let mut rows = file.read_typed::<Req>().unwrap();
    assert_eq!(rows.next().unwrap().unwrap().n, 1);
    let e = rows.next().unwrap().unwrap_err().to_string();
    assert!(
        e.contains("field n is not an Option") && e.contains("column n"),
        "{e}"
    );
    assert!(rows.next().is_none());
}

/// A BYTE_ARRAY column `s` with no annotation, written from bytes ...
#[derive(Record, Debug)]
struct RawS {
    s: Vec<u8>,
}

/// ... and read as text.
#[derive(Record, Debug)]
struct TextS {
    s: String,
}

/// Reads `bytes` (of [`RawS`] rows) as [`TextS`]: the rows `good` first, then an error
/// naming UTF-8 and the column, then nothing.
fn text_until_not_utf8(bytes: &[u8], good: &[RawS]) {
    let file = FileReader::from_bytes(bytes).unwrap();
    let mut read = file.read_typed::<TextS>().unwrap();
    for (i, want) in good.iter().enumerate() {
        assert_eq!(
            read.next().unwrap().unwrap().s.as_bytes(),
            &want.s[..],
            "row {i}"
        );
    }
    let e = read.next().unwrap().unwrap_err().to_string();
    assert!(e.contains("UTF-8") && e.contains("column s"), "{e}");
    assert!(read.next().is_none());
}

/// A `String` field checks a page's bytes as UTF-8 once, as a whole: the values before a
/// bad one still read, the bad one is an error at its row, and a value that splits a
/// character is no text even where the page's bytes together are (here "é", 0xC3 0xA9,
/// as two values).
#[test]
fn string_fields_reject_what_is_not_utf8_at_its_row() {
    for (values, good) in [
        (&[&b"ok"[..], "é".as_bytes(), b"\xff", b"after"][..], 2),
        (&[&b"ok"[..], b"\xc3", b"\xa9"][..], 1),
    ] {
        for dictionary in [false, true] {
            let rows: Vec<RawS> = values.iter().map(|v| RawS { s: v.to_vec() }).collect();
            let bytes = write(&rows, WriteOptions::default().dictionary(dictionary));
            text_until_not_utf8(&bytes, &rows[..good]);
        }
    }
}

/// A chunk whose pages take a `String` dictionary's entries many times over reads them
/// from the entries split one by one; where one entry splits a character (here "é" as two
/// entries, the dictionary's bytes together UTF-8), the entries are left unsplit and the
/// values before that one still read, the bad one an error at its row.
#[test]
fn split_dictionary_entries_and_an_entry_that_splits_a_character() {
    for (tail, good) in [(&[][..], 403), (&[&b"\xc3"[..], b"\xa9"][..], 400)] {
        let rows: Vec<RawS> = (0..400)
            .map(|i| format!("v{}", i % 3).into_bytes())
            .chain(tail.iter().map(|v| v.to_vec()))
            .chain([b"v1".to_vec(), b"v2".to_vec(), b"v0".to_vec()])
            .map(|s| RawS { s })
            .collect();
        let bytes = write(&rows, WriteOptions::default().max_rows_per_page(100));
        let file = FileReader::from_bytes(&bytes).unwrap();
        let mut read = file.read_typed::<TextS>().unwrap();
        for (i, want) in rows.iter().take(good).enumerate() {
            assert_eq!(
                read.next().unwrap().unwrap().s.as_bytes(),
                &want.s[..],
                "row {i}"
            );
        }
        if tail.is_empty() {
            assert!(read.next().is_none());
        } else {
            let e = read.next().unwrap().unwrap_err().to_string();
            assert!(e.contains("UTF-8") && e.contains("column s"), "{e}");
        }
    }
}

/// `String` fields are made straight from a dictionary-encoded page's entries (the
/// chunk's dictionary checked as UTF-8 once): a chunk whose dictionary outgrows its limit
/// goes on in PLAIN pages (as pyarrow's and parquet-java's writers do), and both kinds of
/// page, over several pages, batches and row groups, read back the strings written; a
/// value that is not UTF-8 in the PLAIN pages after the dictionary ones ends the read at
/// its row.
#[test]
fn strings_from_dictionary_pages_then_plain_pages_mid_chunk() {
    use parket::format::{Encoding, PageType};
    #[derive(Record, Debug, Clone, PartialEq)]
    struct Item {
        id: String,
        n: i32,
    }
    #[derive(Record, Debug, Clone, PartialEq)]
    struct Row {
        name: String,
        tag: Option<String>,
        items: Vec<Item>,
    }
    let rows: Vec<Row> = (0..4_000)
        .map(|i| Row {
            // Few distinct names (the dictionary holds them all), many distinct tags and
            // ids (the dictionary outgrows its limit and the chunk falls back to PLAIN).
            name: format!("name-{}", i % 7),
            // Few distinct values in the first 600 rows, then a new one in every row.
            tag: (i % 3 != 0).then(|| format!("tag-{}-é", if i < 600 { i % 5 } else { i })),
            items: (0..i % 9)
                .map(|k| Item {
                    id: format!("id-{}", if i < 600 { k } else { (i * 13 + k) % 2_000 }),
                    n: i * k,
                })
                .collect(),
        })
        .collect();
    for rg_rows in [1_500, 10_000] {
        let options = WriteOptions::default()
            .dictionary_page_size_limit(2_000)
            .row_group_rows(rg_rows)
            .max_rows_per_page(83);
        let bytes = write_chunked(&rows, 50, options);
        let file = FileReader::from_bytes(&bytes).unwrap();
        // The tag and id chunks hold dictionary pages, then PLAIN ones.
        let meta = &file.metadata().row_groups[0].columns;
        for c in [1, 2] {
            let stats = meta[c]
                .meta_data
                .as_ref()
                .unwrap()
                .encoding_stats
                .clone()
                .unwrap();
            let data = |e: Encoding| {
                stats
                    .iter()
                    .any(|s| s.page_type != PageType::DictionaryPage && s.encoding == e)
            };
            assert!(data(Encoding::Plain), "column {c}: {stats:?}");
            assert!(
                data(Encoding::RleDictionary) || data(Encoding::PlainDictionary),
                "column {c}: {stats:?}"
            );
        }
        let back: Vec<Row> = file
            .read_typed::<Row>()
            .unwrap()
            .collect::<parket::Result<_>>()
            .unwrap();
        assert!(back == rows, "row groups of {rg_rows}");
    }

    // Not UTF-8 in a PLAIN page after the dictionary ones: an error at its row.
    let bad = 3_000;
    let rows: Vec<RawS> = (0..4_000)
        .map(|i| RawS {
            s: if i == bad {
                b"\xc3(".to_vec()
            } else {
                format!("v{i}").into_bytes()
            },
        })
        .collect();
    let options = WriteOptions::default()
        .dictionary_page_size_limit(2_000)
        .max_rows_per_page(100);
    let bytes = write_chunked(&rows, 50, options);
    text_until_not_utf8(&bytes, &rows[..bad]);
}

/// The chunk statistics' null_count of a leaf under a list counts the empty lists too:
/// that is no null of the field, and a required field reads such a file (pyarrow's nested
/// bench file: every field optional, some lists empty).
#[test]
fn empty_lists_are_no_nulls_of_a_required_field() {
    #[derive(Record, Debug)]
    struct Item {
        id: Option<String>,
    }
    #[derive(Record, Debug)]
    struct File {
        items: Vec<Item>,
        group: Option<Item>,
    }
    #[derive(Record, Debug, PartialEq)]
    struct ReqItem {
        id: String,
    }
    #[derive(Record, Debug, PartialEq)]
    struct Req {
        items: Vec<ReqItem>,
        group: Option<ReqItem>,
    }
    let item = |s: &str| Item { id: Some(s.into()) };
    let bytes = write(
        &[
            File {
                items: vec![item("a"), item("b")],
                group: None,
            },
            File {
                items: vec![],
                group: Some(item("c")),
            },
        ],
        WriteOptions::default(),
    );
    let file = FileReader::from_bytes(&bytes).unwrap();
    let nulls = |c: usize| {
        file.metadata().row_groups[0].columns[c]
            .meta_data
            .as_ref()
            .unwrap()
            .statistics
            .as_ref()
            .unwrap()
            .null_count
    };
    assert_eq!((nulls(0), nulls(1)), (Some(1), Some(1)));
    let rows: Vec<Req> = file
        .read_typed::<Req>()
        .unwrap()
        .collect::<parket::Result<_>>()
        .unwrap();
    let req = |s: &str| ReqItem { id: s.into() };
    assert_eq!(
        rows,
        [
            Req {
                items: vec![req("a"), req("b")],
                group: None
            },
            Req {
                items: vec![],
                group: Some(req("c"))
            }
        ]
    );
}

mod property {
    use super::*;
    use proptest::collection::{btree_map, hash_map, vec};
    use proptest::option::of;
    use proptest::prelude::*;

    #[derive(Record, Debug, Clone, PartialEq)]
    enum Kind {
        A,
        B,
        #[parket(name = "c c")]
        C,
    }

    #[derive(Record, Debug, Clone, PartialEq)]
    struct Leaf {
        #[parket(decimal(precision = 38, scale = 3))]
        amount: Option<i128>,
        bits: Vec<u8>,
        kind: Kind,
    }

    #[derive(Record, Debug, Clone, PartialEq)]
    struct Inner {
        // Floats as bits so that NaN payloads and -0.0 compare exactly.
        f: u32,
        leaves: Vec<Option<Leaf>>,
        #[parket(timestamp(unit = "millis", utc = false))]
        at: Option<Vec<i64>>,
    }

    #[derive(Record, Debug, Clone, PartialEq)]
    struct Top {
        id: u64,
        name: Option<String>,
        inner: Option<Inner>,
        inners: Vec<Inner>,
        #[parket(date)]
        dates: Vec<Option<i32>>,
        map: BTreeMap<String, Option<Inner>>,
        hmap: HashMap<u16, Vec<Kind>>,
        #[parket(uuid)]
        uuid: Option<[u8; 16]>,
        #[parket(json, encoding = "DELTA_LENGTH_BYTE_ARRAY")]
        json: String,
        #[parket(decimal(precision = 5, scale = 1), encoding = "BYTE_STREAM_SPLIT")]
        small: i32,
        #[parket(time(unit = "nanos"))]
        t: i64,
        f64s: Vec<f64>,
        #[parket(skip)]
        skipped: Option<String>,
    }

    fn kind() -> impl Strategy<Value = Kind> {
        prop_oneof![Just(Kind::A), Just(Kind::B), Just(Kind::C)]
    }

    fn leaf() -> impl Strategy<Value = Leaf> {
        (
            of(-(10i128.pow(38) - 1)..10i128.pow(38)),
            vec(any::<u8>(), 0..4),
            kind(),
        )
            .prop_map(|(amount, bits, kind)| Leaf { amount, bits, kind })
    }

    fn inner() -> impl Strategy<Value = Inner> {
        (
            any::<u32>(),
            vec(of(leaf()), 0..3),
            of(vec(any::<i64>(), 0..3)),
        )
            .prop_map(|(f, leaves, at)| Inner { f, leaves, at })
    }

    fn top() -> impl Strategy<Value = Top> {
        (
            (any::<u64>(), of(".{0,5}"), of(inner()), vec(inner(), 0..3)),
            (
                vec(of(any::<i32>()), 0..3),
                btree_map(".{0,3}", of(inner()), 0..3),
                hash_map(any::<u16>(), vec(kind(), 0..3), 0..3),
                of(any::<[u8; 16]>()),
            ),
            (
                "[a-z]{0,8}",
                -99_999i32..=99_999,
                any::<i64>(),
                vec(any::<u64>(), 0..3),
            ),
        )
            .prop_map(
                |((id, name, inner, inners), (dates, map, hmap, uuid), (json, small, t, f))| Top {
                    id,
                    name,
                    inner,
                    inners,
                    dates,
                    map,
                    hmap,
                    uuid,
                    json,
                    small,
                    t,
                    f64s: f.into_iter().map(f64::from_bits).collect(),
                    skipped: None,
                },
            )
    }

    fn bits(rows: &[Top]) -> Vec<Vec<u64>> {
        rows.iter()
            .map(|r| r.f64s.iter().map(|f| f.to_bits()).collect())
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn random_rows_round_trip(
            rows in vec(top(), 0..40),
            rg in 1usize..20,
            dict in any::<bool>(),
            v2 in any::<bool>(),
            page_rows in 1usize..8,
        ) {
            let version = if v2 { parket::write::PageVersion::V2 } else { parket::write::PageVersion::V1 };
            let options = WriteOptions::default()
                .row_group_rows(rg)
                .dictionary(dict)
                .page_version(version)
                // Small pages: rows are read across page ends (the cursors refill).
                .max_rows_per_page(page_rows);
            let bytes = write(&rows, options);
            let file = FileReader::from_bytes(&bytes).unwrap();
            let back: Vec<Top> = file.read_typed::<Top>().unwrap().collect::<parket::Result<_>>().unwrap();
            prop_assert_eq!(bits(&back), bits(&rows));
            let clean = |v: &[Top]| -> Vec<Top> {
                v.iter().cloned().map(|mut t| { t.f64s.clear(); t }).collect()
            };
            prop_assert_eq!(clean(&back), clean(&rows));
            prop_assert_eq!(file.metadata().num_rows as usize, rows.len());
        }

        // `TypedWriter` shreds a batch a column at a time: every column gets exactly the
        // levels and values the row-at-a-time shredding gives it.
        #[test]
        fn column_at_a_time_matches_row_at_a_time(rows in vec(top(), 0..40)) {
            use parket::typed::Shredder;
            let schema = Top::schema().unwrap();
            let mut by_row = Shredder::new(&schema);
            for r in &rows {
                by_row.write_row(r).unwrap();
            }
            let mut by_column = Shredder::new(&schema);
            by_column.write_rows(&rows).unwrap();
            // Floats as bits (NaN payloads compare).
            let exact = |leaves: &[parket::values::LeafData]| -> Vec<String> {
                use parket::values::Values;
                leaves
                    .iter()
                    .map(|l| {
                        let values = match &l.values {
                            Values::Double(v) => format!("{:?}", v.iter().map(|x| x.to_bits()).collect::<Vec<_>>()),
                            Values::Float(v) => format!("{:?}", v.iter().map(|x| x.to_bits()).collect::<Vec<_>>()),
                            other => format!("{other:?}"),
                        };
                        format!("{:?} {:?} {values}", l.def_levels, l.rep_levels)
                    })
                    .collect()
            };
            prop_assert_eq!(exact(&by_column.leaves), exact(&by_row.leaves));
        }

        // The typed file is byte for byte the file the Value path writes of the same rows
        // (the rows as `Value` trees, read back from the typed file) with the same options.
        #[test]
        fn typed_file_is_the_value_paths_file(
            rows in vec(top(), 0..40),
            rg in 1usize..20,
            dict in any::<bool>(),
            page_rows in 1usize..8,
        ) {
            let options = WriteOptions::default()
                .row_group_rows(rg)
                .dictionary(dict)
                .max_rows_per_page(page_rows);
            let typed = write(&rows, options.clone());
            let file = FileReader::from_bytes(&typed).unwrap();
            let records: Vec<parket::Value> =
                file.records(None).unwrap().collect::<parket::Result<_>>().unwrap();
            let (schema, encodings) = parket::typed::schema_and_encodings::<Top>("Top").unwrap();
            let mut options = options;
            for (path, e) in encodings {
                options = options.column(&path, |c| c.encoding(e));
            }
            let mut w = parket::write::FileWriter::new(Vec::new(), schema, options).unwrap();
            w.write_records(&records).unwrap();
            w.finish().unwrap();
            prop_assert!(w.into_inner() == typed, "the files differ");
        }
    }
}

#[test]
fn projection_reads_only_the_bound_columns() {
    #[derive(Record, Debug, PartialEq)]
    struct Full {
        id: i64,
        text: String,
    }
    #[derive(Record, Debug, PartialEq)]
    struct Ids {
        id: i64,
    }
    let rows: Vec<Full> = (0..2000)
        .map(|i| Full {
            id: i,
            text: format!("{i:0>200}"),
        })
        .collect();
    let bytes = write(&rows, WriteOptions::default().dictionary(false));
    let file = FileReader::from_bytes(&bytes).unwrap();
    let text_bytes: i64 = file
        .metadata()
        .row_groups
        .iter()
        .map(|rg| {
            rg.columns[1]
                .meta_data
                .as_ref()
                .unwrap()
                .total_compressed_size
        })
        .sum();
    assert!(text_bytes > 10_000, "{text_bytes}");
    let read = |f: &dyn Fn(&FileReader<'_>)| {
        let n = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
        struct Shared {
            inner: std::io::Cursor<Vec<u8>>,
            n: std::sync::Arc<std::sync::atomic::AtomicU64>,
        }
        impl std::io::Read for Shared {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                let k = self.inner.read(buf)?;
                self.n
                    .fetch_add(k as u64, std::sync::atomic::Ordering::Relaxed);
                Ok(k)
            }
        }
        impl std::io::Seek for Shared {
            fn seek(&mut self, pos: std::io::SeekFrom) -> std::io::Result<u64> {
                self.inner.seek(pos)
            }
        }
        let file = FileReader::new(Shared {
            inner: std::io::Cursor::new(bytes.clone()),
            n: n.clone(),
        })
        .unwrap();
        let after_footer = n.load(std::sync::atomic::Ordering::Relaxed);
        f(&file);
        n.load(std::sync::atomic::Ordering::Relaxed) - after_footer
    };
    let all = read(&|f| assert_eq!(f.read_typed::<Full>().unwrap().count(), 2000));
    let ids = read(&|f| {
        let got: Vec<Ids> = f
            .read_typed::<Ids>()
            .unwrap()
            .collect::<parket::Result<_>>()
            .unwrap();
        assert_eq!(got[1999], Ids { id: 1999 });
    });
    assert!(all >= text_bytes as u64, "{all} {text_bytes}");
    assert!(
        ids + text_bytes as u64 <= all,
        "projection read {ids} of {all} bytes"
    );
}

#[test]
fn a_dropped_row_group_writer_fails_the_file() {
    use parket::values::ValuesRef;
    use parket::write::FileWriter;
    let schema = Schema::parse("message m { required int32 a; }").unwrap();
    let mut w = FileWriter::new(Vec::new(), schema.clone(), WriteOptions::default()).unwrap();
    {
        let mut rg = w.next_row_group().unwrap();
        rg.write("a", ValuesRef::Int32(&[1, 2]), &[], &[]).unwrap();
        // Dropped here, without finish().
    }
    let e = w.finish().unwrap_err().to_string();
    assert!(e.contains("dropped without finish()"), "{e}");
    // An empty row group writer dropped loses nothing and is no error.
    let mut w = FileWriter::new(Vec::new(), schema, WriteOptions::default()).unwrap();
    drop(w.next_row_group().unwrap());
    assert_eq!(w.finish().unwrap().num_rows, 0);
}

#[test]
fn unknown_columns_are_named() {
    use parket::values::ValuesRef;
    use parket::write::FileWriter;
    let schema = Schema::parse(
        "message m { required int32 a; optional group tags (LIST) {
           repeated group list { optional binary element (STRING); } } }",
    )
    .unwrap();
    let mut w = FileWriter::new(Vec::new(), schema, WriteOptions::default()).unwrap();
    let mut rg = w.next_row_group().unwrap();
    let e = rg.column("nope").err().unwrap().to_string();
    assert!(
        e.contains(
            "no leaf column with the path \"nope\"; the leaf columns are a, tags.list.element"
        ),
        "{e}"
    );
    // A group's path where a leaf is needed: the leaves under it are suggested.
    let e = rg
        .write("tags", ValuesRef::Int32(&[1]), &[], &[])
        .unwrap_err()
        .to_string();
    assert!(
        e.contains(
            "\"tags\" is a group, not a leaf column; its leaf columns are tags.list.element"
        ),
        "{e}"
    );
    let e = rg.close_column("tags.list").unwrap_err().to_string();
    assert!(e.contains("its leaf columns are tags.list.element"), "{e}");
    let e = rg.column(7).err().unwrap().to_string();
    assert!(
        e.contains("column 7 does not exist: the schema has 2 leaf columns"),
        "{e}"
    );
    rg.finish().unwrap();
}

/// An `std::io::Error` from the source or the sink comes out with its `ErrorKind`.
#[test]
fn io_errors_keep_their_kind_through_reader_and_writer() {
    use std::io::{Error as IoError, ErrorKind as IoKind};
    struct Failing(IoKind);
    impl std::io::Read for Failing {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(IoError::new(self.0, "no"))
        }
    }
    impl std::io::Seek for Failing {
        fn seek(&mut self, _: std::io::SeekFrom) -> std::io::Result<u64> {
            Err(IoError::new(self.0, "no"))
        }
    }
    impl std::io::Write for Failing {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(IoError::new(self.0, "full"))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let e = FileReader::new(Failing(IoKind::PermissionDenied))
        .err()
        .unwrap();
    assert_eq!(e.io_kind(), Some(IoKind::PermissionDenied), "{e}");
    assert_eq!(IoError::from(e).kind(), IoKind::PermissionDenied);
    #[derive(Record)]
    struct One {
        a: i64,
    }
    let r = TypedWriter::<One, _>::new(Failing(IoKind::StorageFull), WriteOptions::default())
        .and_then(|mut w| {
            w.write(&[One { a: 1 }])?;
            w.finish().map(|_| ())
        });
    let e = r.unwrap_err();
    assert_eq!(e.io_kind(), Some(IoKind::StorageFull), "{e}");
}

/// A file cut in half says it is truncated (not a Thrift error), from bytes and from a
/// `Read + Seek`; so does one cut inside its footer.
#[test]
fn a_file_cut_in_half_says_truncated() {
    #[derive(Record)]
    struct One {
        a: i64,
        s: String,
    }
    let rows: Vec<One> = (0..1000)
        .map(|i| One {
            a: i,
            s: format!("row {i}"),
        })
        .collect();
    let bytes = write(&rows, WriteOptions::default());
    let half = &bytes[..bytes.len() / 2];
    for e in [
        FileReader::from_bytes(half).err().unwrap(),
        FileReader::new(std::io::Cursor::new(half.to_vec()))
            .err()
            .unwrap(),
    ] {
        let e = e.to_string();
        assert!(e.contains("truncated") && !e.contains("Thrift"), "{e}");
    }
    // The leading magic and the end of the file kept, the footer's start cut away.
    let footer_len = u32::from_le_bytes(bytes[bytes.len() - 8..][..4].try_into().unwrap()) as usize;
    let mut cut = b"PAR1".to_vec();
    cut.extend_from_slice(&bytes[bytes.len() - footer_len..]);
    let e = FileReader::from_bytes(&cut).err().unwrap().to_string();
    assert!(e.contains("truncated footer"), "{e}");
}

/// Integer fields convert a column's values by the column's physical type and signedness:
/// narrower annotated columns into wider fields, unsigned bits as unsigned, and a stored
/// value outside the field's range (the annotation says 8 bits, the file holds 300) is an
/// error at its row naming the value and the column.
#[test]
fn integers_convert_by_column_and_out_of_range_values_error_at_their_row() {
    use parket::levels::LeafData;
    use parket::values::Values;
    let schema = Schema::parse(
        "message m { required int32 a (INTEGER(8, true)); required int32 b (INTEGER(16, false)); \
         required int32 c (INTEGER(32, false)); required int64 d (INTEGER(64, false)); }",
    )
    .unwrap();
    let mut w =
        parket::write::FileWriter::new(Vec::new(), schema, WriteOptions::default()).unwrap();
    let plain = |v: Values| LeafData {
        def_levels: vec![],
        rep_levels: vec![],
        values: v,
    };
    w.write_columns(&[
        plain(Values::Int32(vec![-128, 127, 300])),
        plain(Values::Int32(vec![0, 65_535, 7])),
        plain(Values::Int32(vec![-1, 5, 6])),
        plain(Values::Int64(vec![-1, i64::MAX, 8])),
    ])
    .unwrap();
    w.finish().unwrap();
    let bytes = w.into_inner();
    #[derive(Record, Debug, PartialEq)]
    struct Exact {
        a: i8,
        b: u16,
        c: u32,
        d: u64,
    }
    #[derive(Record, Debug, PartialEq)]
    struct Wide {
        a: i64,
        b: i32,
        c: i64,
        d: u64,
    }
    let file = FileReader::from_bytes(&bytes).unwrap();
    let mut rows = file.read_typed::<Exact>().unwrap();
    let first = [
        Exact {
            a: -128,
            b: 0,
            c: u32::MAX,
            d: u64::MAX,
        },
        Exact {
            a: 127,
            b: 65_535,
            c: 5,
            d: i64::MAX as u64,
        },
    ];
    for want in &first {
        assert_eq!(&rows.next().unwrap().unwrap(), want);
    }
    let e = rows.next().unwrap().unwrap_err().to_string();
    assert!(e.contains("value 300 of column a does not fit a i8"), "{e}");
    assert!(rows.next().is_none());
    let wide: Vec<Wide> = file
        .read_typed::<Wide>()
        .unwrap()
        .collect::<parket::Result<_>>()
        .unwrap();
    let a: Vec<_> = wide.iter().map(|r| (r.a, r.b, r.c, r.d)).collect();
    assert_eq!(
        a,
        [
            (-128, 0, 4_294_967_295, u64::MAX),
            (127, 65_535, 5, i64::MAX as u64),
            (300, 7, 6, 8)
        ]
    );
}

/// A null met in a required field far into a file (many pages, two row groups) is an error
/// at that row, which it names; the rows before it read. Both for a top-level leaf and for
/// a leaf inside list elements (there the leaf's read finds the null itself).
#[test]
fn a_null_in_a_required_field_far_into_the_file_names_its_row() {
    #[derive(Record, Debug, Clone)]
    struct E {
        x: Option<i32>,
        s: Option<String>,
    }
    #[derive(Record, Debug, Clone)]
    struct File {
        n: Option<i32>,
        items: Vec<E>,
    }
    #[derive(Record, Debug)]
    struct ReqN {
        n: i32,
    }
    #[derive(Record, Debug)]
    struct E2 {
        x: i32,
        s: String,
    }
    #[derive(Record, Debug)]
    struct ReqItems {
        items: Vec<E2>,
    }
    let rows: Vec<File> = (0..10_000)
        .map(|i| File {
            n: (i != 7_777).then_some(i),
            items: (0..i % 4)
                .map(|k| E {
                    x: (i != 9_123 || k != 2).then_some(k),
                    s: Some(format!("{i}-{k}")),
                })
                .collect(),
        })
        .collect();
    let options = WriteOptions::default()
        .statistics(false)
        .row_group_rows(6_000)
        .max_rows_per_page(100);
    let bytes = write_chunked(&rows, 50, options);
    let file = FileReader::from_bytes(&bytes).unwrap();
    for (read, bad, field) in [
        (
            Box::new(file.read_typed::<ReqN>().unwrap().map(|r| r.map(drop)))
                as Box<dyn Iterator<Item = parket::Result<()>>>,
            7_777,
            "field n ",
        ),
        (
            Box::new(file.read_typed::<ReqItems>().unwrap().map(|r| r.map(drop))),
            9_123,
            "x",
        ),
    ] {
        let got: Vec<_> = read.collect();
        assert_eq!(got.len(), bad + 1, "rows up to the bad one, then the error");
        assert!(got[..bad].iter().all(|r| r.is_ok()));
        let e = got[bad].as_ref().unwrap_err().to_string();
        assert!(
            e.contains("is not an Option")
                && e.contains(field)
                && e.contains(&format!("at row {bad} of the file")),
            "{e}"
        );
    }
}

/// Lists whose entries run over page ends, batches and row groups, empty lists, null
/// structs and null lists read back as written, also read in parts (a projection of the
/// element).
#[test]
fn nested_records_across_pages_read_back() {
    #[derive(Record, Debug, Clone, PartialEq)]
    struct A {
        id: String,
        q: i8,
        amount: i32,
        on: bool,
        pct: Option<f64>,
        size: i16,
    }
    #[derive(Record, Debug, Clone, PartialEq)]
    struct N {
        name: String,
        attrs: Vec<A>,
        maybe: Option<A>,
        opt_list: Option<Vec<Option<A>>>,
    }
    #[derive(Record, Debug, Clone, PartialEq)]
    struct Part {
        q: i8,
        pct: Option<f64>,
    }
    #[derive(Record, Debug, Clone, PartialEq)]
    struct NPart {
        attrs: Vec<Part>,
    }
    let a = |i: usize, k: usize| A {
        id: format!("attr-{i}-{k}"),
        q: (i % 250) as i8,
        amount: (i * 31 + k) as i32,
        on: (i + k) % 3 == 0,
        pct: (k % 2 == 0).then_some(i as f64 / 7.0),
        size: (k * 100) as i16,
    };
    let rows: Vec<N> = (0..3_000)
        .map(|i| N {
            name: format!("n{i}"),
            // Up to 60 entries: many lists run over the 97-row pages' ends.
            attrs: (0..(i * 7) % 61).map(|k| a(i, k)).collect(),
            maybe: (i % 5 != 0).then(|| a(i, 99)),
            opt_list: match i % 4 {
                0 => None,
                1 => Some(vec![]),
                2 => Some(vec![None, Some(a(i, 1))]),
                _ => Some(vec![Some(a(i, 2))]),
            },
        })
        .collect();
    // Small pages (a batch is the rows a page holds whole), and pages of more rows than a
    // batch takes (1,024).
    for (dict, pages) in [(false, 97), (true, 97), (true, 100_000)] {
        let options = WriteOptions::default()
            .dictionary(dict)
            .row_group_rows(1_100 + 1_900 * usize::from(pages > 97))
            .max_rows_per_page(pages)
            .data_page_size(1 << 24);
        let bytes = write(&rows, options);
        let file = FileReader::from_bytes(&bytes).unwrap();
        let back: Vec<N> = file
            .read_typed::<N>()
            .unwrap()
            .collect::<parket::Result<_>>()
            .unwrap();
        assert!(back == rows, "dictionary {dict}");
        let part: Vec<NPart> = file
            .read_typed::<NPart>()
            .unwrap()
            .collect::<parket::Result<_>>()
            .unwrap();
        let want: Vec<NPart> = rows
            .iter()
            .map(|r| NPart {
                attrs: r
                    .attrs
                    .iter()
                    .map(|a| Part { q: a.q, pct: a.pct })
                    .collect(),
            })
            .collect();
        assert!(part == want, "dictionary {dict}");
    }
}

/// `Option`s over leaves (the leaf the optional node: read with its nulls in one loop per
/// batch), lists of lists of structs (each struct built in its list), across pages, batches
/// and row groups; text that is not UTF-8 in an `Option<String>` ends the read at its row,
/// after the rows before it.
#[test]
fn optional_leaves_and_lists_of_structs_across_batches() {
    #[derive(Record, Debug, Clone, PartialEq)]
    struct Inner {
        v: Option<i32>,
        t: String,
        f: Option<f32>,
    }
    #[derive(Record, Debug, Clone, PartialEq)]
    struct W {
        a: Option<i64>,
        s: Option<Vec<u8>>,
        b: Option<bool>,
        d: Option<f64>,
        items: Vec<Vec<Inner>>,
    }
    #[derive(Record, Debug, Clone, PartialEq)]
    struct R {
        a: Option<i64>,
        s: Option<String>,
        b: Option<bool>,
        d: Option<f64>,
        items: Vec<Vec<Inner>>,
    }
    let not_utf8 = 4_444;
    let rows: Vec<W> = (0..5_000usize)
        .map(|i| W {
            a: (i % 3 != 0).then_some(i as i64 - 2_500),
            s: (i % 4 != 1).then(|| {
                if i == not_utf8 {
                    vec![b'x', 0xff]
                } else {
                    format!("s{i}").into_bytes()
                }
            }),
            b: (i % 5 != 2).then_some(i % 2 == 0),
            d: (i % 7 != 3).then_some(i as f64 * 0.5),
            items: (0..i % 4)
                .map(|k| {
                    (0..(i + k) % 3)
                        .map(|j| Inner {
                            v: ((i + j) % 3 != 0).then_some((i * 10 + j) as i32),
                            t: format!("{i}.{k}.{j}"),
                            f: (j != 1).then_some(j as f32 + 0.25),
                        })
                        .collect()
                })
                .collect(),
        })
        .collect();
    let want: Vec<R> = rows
        .iter()
        .map(|w| R {
            a: w.a,
            s: w.s
                .clone()
                .map(|s| String::from_utf8_lossy(&s).into_owned()),
            b: w.b,
            d: w.d,
            items: w.items.clone(),
        })
        .collect();
    for (dict, pages) in [(false, 211), (true, 211), (true, 100_000)] {
        let options = WriteOptions::default()
            .dictionary(dict)
            .statistics(false)
            .row_group_rows(3_000)
            .max_rows_per_page(pages)
            .data_page_size(1 << 24);
        let bytes = write(&rows, options);
        let file = FileReader::from_bytes(&bytes).unwrap();
        let back: Vec<W> = file
            .read_typed::<W>()
            .unwrap()
            .collect::<parket::Result<_>>()
            .unwrap();
        assert!(back == rows, "dictionary {dict}, pages of {pages} rows");
        // As text: the rows up to the one that is not UTF-8, then its error.
        let got: Vec<_> = file.read_typed::<R>().unwrap().collect();
        assert_eq!(got.len(), not_utf8 + 1, "dictionary {dict}");
        for (k, (g, w)) in got.iter().zip(&want).take(not_utf8).enumerate() {
            assert!(g.as_ref().ok() == Some(w), "row {k}");
        }
        let e = got[not_utf8].as_ref().unwrap_err().to_string();
        assert!(e.contains("UTF-8") && e.contains('s'), "{e}");
    }
}

/// Structs are built in place (each field read into them a column at a time) and handed
/// to their lists by the block: lists of structs of every length (none, null, one, many)
/// across batches, pages and row groups (one list longer than a batch takes) read back
/// equal, in order; a struct whose enum field has no first variant to build around
/// (`EnumField::FIRST` left `None`, as a hand implementation may) reads the same rows one
/// by one.
#[test]
fn structs_built_in_place_read_back_in_order() {
    #[derive(Debug, Clone, PartialEq)]
    enum Hand {
        Left,
        Right,
    }
    impl parket::typed::EnumField for Hand {
        const VARIANTS: &'static [&'static str] = &["Left", "Right"];
        fn name(&self) -> &'static str {
            match self {
                Hand::Left => "Left",
                Hand::Right => "Right",
            }
        }
        fn from_name(name: &[u8]) -> Option<Self> {
            match name {
                b"Left" => Some(Hand::Left),
                b"Right" => Some(Hand::Right),
                _ => None,
            }
        }
    }
    parket::typed::enum_field!(Hand);
    #[derive(Record, Debug, Clone, PartialEq)]
    struct Item {
        id: String,
        n: i8,
        f: Option<f64>,
        tags: Vec<String>,
        #[parket(skip)]
        skipped: u8,
    }
    #[derive(Record, Debug, Clone, PartialEq)]
    struct Handed {
        hand: Hand,
        k: u16,
    }
    #[derive(Record, Debug, Clone, PartialEq)]
    struct Top {
        name: String,
        items: Vec<Item>,
        maybe: Option<Vec<Item>>,
        handed: Vec<Handed>,
    }
    let item = |i: usize, k: usize| Item {
        id: format!("{i}.{k}"),
        n: (k % 100) as i8,
        f: (k % 3 != 0).then_some(k as f64 / 2.0),
        tags: (0..k % 3).map(|t| format!("t{t}")).collect(),
        skipped: 0,
    };
    let rows: Vec<Top> = (0..5_000)
        .map(|i| Top {
            name: format!("row {i}"),
            // Row 2,500's list is longer than a batch takes entries (read one by one).
            items: (0..if i == 2_500 { 9_000 } else { i % 7 })
                .map(|k| item(i, k))
                .collect(),
            maybe: (i % 5 != 0).then(|| (0..i % 4).map(|k| item(i, k + 10)).collect()),
            handed: (0..i % 3)
                .map(|k| Handed {
                    hand: if (i + k) % 2 == 0 {
                        Hand::Left
                    } else {
                        Hand::Right
                    },
                    k: (i * k) as u16,
                })
                .collect(),
        })
        .collect();
    let options = WriteOptions::default()
        .row_group_rows(3_000)
        .max_rows_per_page(300);
    let bytes = write_chunked(&rows, 700, options);
    let file = FileReader::from_bytes(&bytes).unwrap();
    let got: Vec<Top> = file
        .read_typed::<Top>()
        .unwrap()
        .collect::<parket::Result<_>>()
        .unwrap();
    assert_eq!(got.len(), rows.len());
    for (i, (g, r)) in got.iter().zip(&rows).enumerate() {
        assert_eq!(g, r, "row {i}");
    }
}

/// Integer and floating-point fields over dictionary-encoded pages: a chunk whose
/// dictionary outgrows its limit goes on in PLAIN pages (as pyarrow's writer does),
/// nulls in an optional dictionary column read `None`, and an INT32 dictionary column reads
/// into an `i64` field (widened) as into the `i32` it was written from; over several pages,
/// batches and row groups, every value reads back as written.
#[test]
fn fixed_values_from_dictionary_pages_then_plain_pages_mid_chunk() {
    use parket::format::{Encoding, PageType};
    #[derive(Record, Debug, Clone, PartialEq)]
    struct Item {
        q: i8,
        n: i32,
        p: Option<f64>,
        s: i16,
    }
    #[derive(Record, Debug, Clone, PartialEq)]
    struct Row {
        k: i32,
        m: Option<i64>,
        items: Vec<Item>,
    }
    #[derive(Record, Debug, Clone, PartialEq)]
    struct Wide {
        k: i64,
        m: Option<i64>,
        items: Vec<Item>,
    }
    let rows: Vec<Row> = (0..4_000i32)
        .map(|i| Row {
            // Few distinct values (the dictionary holds them all).
            k: i % 11 - 5,
            // Nulls, and after the first 600 rows a new value in most rows.
            m: (i % 4 != 0).then(|| {
                if i < 600 {
                    i64::from(i % 3)
                } else {
                    1 << 40 | i64::from(i)
                }
            }),
            items: (0..i % 7)
                .map(|j| Item {
                    q: (i % 5 - 2) as i8,
                    // Few distinct values in the first 600 rows, then many.
                    n: if i < 600 { j } else { i * 7 + j },
                    p: (j % 3 != 1).then(|| f64::from(i % 13) / 4.0),
                    s: (j * 100) as i16,
                })
                .collect(),
        })
        .collect();
    for rg_rows in [1_500, 10_000] {
        let options = WriteOptions::default()
            .dictionary_page_size_limit(2_000)
            .row_group_rows(rg_rows)
            .max_rows_per_page(83);
        let bytes = write_chunked(&rows, 50, options);
        let file = FileReader::from_bytes(&bytes).unwrap();
        let meta = &file.metadata().row_groups[0].columns;
        let data = |c: usize, e: Encoding| {
            let stats = meta[c].meta_data.as_ref().unwrap().encoding_stats.clone();
            stats
                .unwrap()
                .iter()
                .any(|s| s.page_type != PageType::DictionaryPage && s.encoding == e)
        };
        // `m` (1) and `items.n` (3) hold dictionary pages, then PLAIN ones; `k` (0) and
        // `items.p` (4) dictionary pages only.
        for c in [1, 3] {
            assert!(data(c, Encoding::Plain), "column {c}");
            assert!(data(c, Encoding::RleDictionary), "column {c}");
        }
        for c in [0, 4] {
            assert!(!data(c, Encoding::Plain), "column {c}");
            assert!(data(c, Encoding::RleDictionary), "column {c}");
        }
        let back: Vec<Row> = file
            .read_typed::<Row>()
            .unwrap()
            .collect::<parket::Result<_>>()
            .unwrap();
        assert!(back == rows, "row groups of {rg_rows}");
        let wide: Vec<Wide> = file
            .read_typed::<Wide>()
            .unwrap()
            .collect::<parket::Result<_>>()
            .unwrap();
        assert_eq!(wide.len(), rows.len());
        for (w, r) in wide.iter().zip(&rows) {
            assert_eq!(w.k, i64::from(r.k));
            assert_eq!((&w.m, &w.items), (&r.m, &r.items));
        }
    }
}

/// A dictionary index past the end of its (INT32) dictionary, in a hostile file, is an
/// error of the typed read that names the column, not a panic nor a value.
#[test]
fn a_dictionary_index_past_the_dictionary_is_a_located_error() {
    #[derive(Record, Debug, Clone, PartialEq)]
    struct R {
        amount: i32,
    }
    // Three entries, so 2-bit indices; in order 0, 1, 2, 0, ... they pack into the bytes
    // 0x24 0x49 0x92 over and over (LSB first: 0 | 1 << 2 | 2 << 4 | 0 << 6 = 0x24).
    let rows: Vec<R> = (0..400)
        .map(|i| R {
            amount: (i % 3) * 100,
        })
        .collect();
    let options = WriteOptions::default()
        .codec(parket::compression::Codec::Uncompressed)
        .page_crc(false);
    let mut bytes = write(&rows, options);
    let back: Vec<R> = FileReader::from_bytes(&bytes)
        .unwrap()
        .read_typed::<R>()
        .unwrap()
        .collect::<parket::Result<_>>()
        .unwrap();
    assert!(back == rows);
    let pattern = [0x24, 0x49, 0x92, 0x24, 0x49, 0x92];
    let at = bytes
        .windows(pattern.len())
        .position(|w| w == pattern)
        .expect("the packed indices");
    // Indices 3, 3, 3, 3: past the dictionary's last entry (2).
    bytes[at] = 0xFF;
    let file = FileReader::from_bytes(&bytes).unwrap();
    let got: parket::Result<Vec<R>> = file.read_typed::<R>().unwrap().collect();
    let e = got.unwrap_err().to_string();
    assert!(
        e.contains("dictionary index") && e.contains("amount"),
        "{e}"
    );
}
