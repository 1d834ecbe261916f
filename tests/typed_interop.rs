//! Typed rows against pyarrow and DuckDB: pyarrow reads the files `TypedWriter` writes to
//! the values the structs hold, `read_typed` reads pyarrow's rewrite of them back to the
//! same structs, and a DuckDB-written file reads into hand-written structs as DuckDB wrote it.

use std::collections::BTreeMap;

use parket::read::FileReader;
use parket::write::{TypedWriter, WriteOptions};
use parket::Record;
use serde_json::{json, Value};

#[path = "common/python.rs"]
mod python;
use python::python;

#[derive(Record, Debug, Clone, PartialEq)]
enum Mood {
    Happy,
    Sad,
}

#[derive(Record, Debug, Clone, PartialEq)]
struct Item {
    sku: String,
    qty: Option<u16>,
}

#[derive(Record, Debug, Clone, PartialEq)]
struct Order {
    id: i64,
    small: i8,
    big: u64,
    name: Option<String>,
    blob: Vec<u8>,
    #[parket(date)]
    day: i32,
    #[parket(timestamp(unit = "micros", utc = true))]
    at: Option<i64>,
    #[parket(time(unit = "micros"))]
    time: i64,
    #[parket(decimal(precision = 9, scale = 2))]
    price: i32,
    #[parket(decimal(precision = 38, scale = 10))]
    total: i128,
    #[parket(uuid)]
    uuid: [u8; 16],
    mood: Mood,
    items: Vec<Item>,
    tags: Option<Vec<Option<String>>>,
    attrs: BTreeMap<String, Option<i32>>,
    ratio: f64,
}

fn order(i: i64) -> Order {
    Order {
        id: i,
        small: -(i as i8),
        big: u64::MAX - i as u64,
        name: (i % 2 == 0).then(|| format!("n{i}")),
        blob: vec![i as u8; i as usize % 3],
        day: 19_723 + i as i32,
        at: (i % 3 != 0).then_some(1_700_000_000_123_456 + i),
        time: 45_296_000_001,
        price: -1999 - i as i32,
        total: 12_345_678_901_234_567_890_123 * if i % 2 == 0 { 1 } else { -1 },
        uuid: [i as u8; 16],
        mood: if i % 2 == 0 { Mood::Happy } else { Mood::Sad },
        items: (0..i % 3)
            .map(|k| Item {
                sku: format!("s{k}"),
                qty: (k > 0).then_some(k as u16 * 1000),
            })
            .collect(),
        tags: (i % 4 != 1).then(|| vec![Some("a".into()), None]),
        attrs: [("k".to_string(), Some(i as i32)), ("z".to_string(), None)].into(),
        ratio: i as f64 / 3.0,
    }
}

const DUMP: &str = r#"
import json, sys, datetime, decimal, uuid
import pyarrow.parquet as pq
t = pq.read_table(sys.argv[1])
def conv(v):
    if isinstance(v, decimal.Decimal): return str(v)
    if isinstance(v, (datetime.date, datetime.time, datetime.datetime)): return v.isoformat()
    if isinstance(v, bytes): return v.hex()
    if isinstance(v, uuid.UUID): return v.hex
    raise TypeError(type(v))
print(json.dumps(t.to_pylist(), default=conv))
pq.write_table(t, sys.argv[2])
"#;

#[test]
fn pyarrow_reads_typed_files_and_typed_reads_pyarrows() {
    let dir = std::env::temp_dir().join(format!("parket-typed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ours = dir.join("ours.parquet");
    let theirs = dir.join("theirs.parquet");
    let rows: Vec<Order> = (0..30).map(order).collect();
    let mut w = TypedWriter::<Order, _>::new(Vec::new(), WriteOptions::default().row_group_rows(8))
        .unwrap();
    w.write(&rows).unwrap();
    w.finish().unwrap();
    std::fs::write(&ours, w.into_inner()).unwrap();

    let seen: Vec<Value> = serde_json::from_str(&python(DUMP, &[&ours, &theirs])).unwrap();
    assert_eq!(seen.len(), rows.len());
    // Hand-worked expectations for row 1 and 2 (pyarrow reads an ENUM column as binary:
    // "Sad" is 53 61 64).
    assert_eq!(
        seen[1],
        json!({
            "id": 1, "small": -1, "big": 18446744073709551614u64, "name": null, "blob": "01",
            "day": "2024-01-02", "at": "2023-11-14T22:13:20.123457+00:00",
            "time": "12:34:56.000001", "price": "-20.00",
            "total": "-1234567890123.4567890123",
            "uuid": "01010101010101010101010101010101", "mood": "536164",
            "items": [{"sku": "s0", "qty": null}], "tags": null,
            "attrs": [["k", 1], ["z", null]], "ratio": 1.0 / 3.0,
        })
    );
    assert_eq!(seen[2]["price"], json!("-20.01"));
    assert_eq!(
        seen[2]["items"],
        json!([{"sku": "s0", "qty": null}, {"sku": "s1", "qty": 1000}])
    );
    assert_eq!(seen[2]["tags"], json!(["a", null]));
    for (r, s) in rows.iter().zip(&seen) {
        assert_eq!(s["id"], json!(r.id));
        assert_eq!(s["big"], json!(r.big));
    }

    // pyarrow's own file of the same table reads back to the same structs (decimals as
    // FIXED_LEN_BYTE_ARRAY, the enum as a STRING, pyarrow's list and map shapes).
    let bytes = std::fs::read(&theirs).unwrap();
    let file = FileReader::from_bytes(&bytes).unwrap();
    let back: Vec<Order> = file
        .read_typed::<Order>()
        .unwrap()
        .collect::<parket::Result<_>>()
        .unwrap();
    assert_eq!(back, rows);
    std::fs::remove_dir_all(&dir).ok();
}

const DUCK: &str = r#"
import sys, duckdb
con = duckdb.connect()
con.execute("CREATE TYPE mood AS ENUM ('Happy', 'Sad')")
con.execute('''CREATE TABLE t AS SELECT
    i::INTEGER AS id,
    CASE WHEN i % 2 = 0 THEN 'v' || i::VARCHAR END AS name,
    (i * 1.25)::DECIMAL(10, 2) AS price,
    (i * 1.5)::DECIMAL(4, 1) AS small_price,
    (i * 7)::DECIMAL(30, 3) AS huge,
    DATE '2024-01-01' + i::INTEGER AS day,
    TIMESTAMP '2024-01-01 00:00:00' + INTERVAL (i) SECOND AS at,
    CASE WHEN i % 2 = 0 THEN 'Happy' ELSE 'Sad' END::mood AS mood,
    [i, i + 1] AS ints,
    CASE WHEN i % 3 = 0 THEN NULL ELSE {'a': i, 'b': [{'x': 'q'}]} END AS s,
    MAP(['k' || i::VARCHAR], [i::BIGINT]) AS m,
    i::TINYINT AS tiny
  FROM range(0, 10) r(i)''')
con.execute(f"COPY t TO '{sys.argv[1]}' (FORMAT parquet)")
"#;

#[test]
fn duckdb_file_reads_into_structs() {
    #[derive(Record, Debug, PartialEq)]
    struct X {
        x: Option<String>,
    }
    #[derive(Record, Debug, PartialEq)]
    struct S {
        a: Option<i64>,
        b: Option<Vec<Option<X>>>,
    }
    #[derive(Record, Debug, PartialEq)]
    struct Row {
        id: Option<i64>,
        name: Option<String>,
        #[parket(decimal(precision = 18, scale = 2))]
        price: Option<i64>,
        #[parket(decimal(precision = 9, scale = 1))]
        small_price: Option<i32>,
        #[parket(decimal(precision = 38, scale = 3))]
        huge: Option<i128>,
        #[parket(date)]
        day: Option<i32>,
        #[parket(timestamp(unit = "micros", utc = false))]
        at: Option<i64>,
        mood: Option<Mood>,
        ints: Option<Vec<Option<i64>>>,
        s: Option<S>,
        m: Option<BTreeMap<String, Option<i64>>>,
        tiny: Option<i16>,
    }
    let dir = std::env::temp_dir().join(format!("parket-typed-duck-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("duck.parquet");
    python(DUCK, &[&path]);
    let bytes = std::fs::read(&path).unwrap();
    let file = FileReader::from_bytes(&bytes).unwrap();
    let rows: Vec<Row> = file
        .read_typed::<Row>()
        .unwrap()
        .collect::<parket::Result<_>>()
        .unwrap();
    assert_eq!(rows.len(), 10);
    assert_eq!(
        rows[4],
        Row {
            id: Some(4),
            name: Some("v4".into()),
            price: Some(500),
            small_price: Some(60),
            huge: Some(28_000),
            day: Some(19_723 + 4),
            at: Some(1_704_067_200_000_000 + 4_000_000),
            mood: Some(Mood::Happy),
            ints: Some(vec![Some(4), Some(5)]),
            s: Some(S {
                a: Some(4),
                b: Some(vec![Some(X {
                    x: Some("q".into())
                })])
            }),
            m: Some([("k4".to_string(), Some(4))].into()),
            tiny: Some(4),
        }
    );
    assert_eq!(rows[3].s, None);
    assert_eq!(rows[3].name, None);
    std::fs::remove_dir_all(&dir).ok();
}
