//! chrono and uuid fields (features `chrono`, `uuid`): `NaiveDate`, `NaiveDateTime`,
//! `DateTime<Utc>` and `Uuid` without attributes, both directions. The values pyarrow reads
//! from parket's file are pyarrow's own formatting; the values pyarrow writes are Python's
//! `datetime`/`uuid` objects; both are compared with chrono's and uuid's constructions.

use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};
use parket::read::FileReader;
use parket::schema::Schema;
use parket::write::{TypedWriter, WriteOptions};
use parket::Record;
use serde_json::{json, Value};
use uuid::Uuid;

#[path = "common/python.rs"]
mod python;
use python::python;

#[derive(Record, Debug, Clone, PartialEq)]
struct Event {
    id: i32,
    day: NaiveDate,
    local: NaiveDateTime,
    at: DateTime<Utc>,
    key: Uuid,
    maybe_day: Option<NaiveDate>,
    maybe_at: Option<DateTime<Utc>>,
    #[parket(timestamp(unit = "nanos", utc = false))]
    precise: NaiveDateTime,
    #[parket(timestamp(unit = "millis", utc = true))]
    coarse: DateTime<Utc>,
    keys: Vec<Uuid>,
    days: Vec<Option<NaiveDate>>,
}

fn ymd(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap()
}

fn event(i: i32) -> Event {
    let day = ymd(2024, 1, 1) + chrono::Days::new(i as u64 * 40);
    let local = day.and_hms_micro_opt(3, 4, 5, 6 + i as u32).unwrap();
    Event {
        id: i,
        // Before the epoch too, and chrono's far dates.
        day: if i == 0 { ymd(1, 1, 1) } else { day },
        local: if i == 1 {
            ymd(1969, 12, 31)
                .and_hms_micro_opt(23, 59, 59, 999_999)
                .unwrap()
        } else {
            local
        },
        at: local.and_utc(),
        key: Uuid::from_u128(0x0f8f_ad5b_d9cb_469f_a165_7086_7728_950e + i as u128),
        maybe_day: (i % 2 == 0).then_some(day),
        maybe_at: (i % 3 != 0).then(|| local.and_utc()),
        precise: day
            .and_hms_nano_opt(1, 2, 3, 123_456_789 + i as u32)
            .unwrap(),
        coarse: day.and_hms_milli_opt(4, 5, 6, 7).unwrap().and_utc(),
        keys: (0..i % 3).map(|k| Uuid::from_u128(k as u128)).collect(),
        days: vec![Some(day), None],
    }
}

fn write(rows: &[Event]) -> Vec<u8> {
    let mut w = TypedWriter::<Event, _>::new(Vec::new(), WriteOptions::default()).unwrap();
    w.write(rows).unwrap();
    w.finish().unwrap();
    w.into_inner()
}

#[test]
fn schema_annotates_without_attributes() {
    assert_eq!(
        Event::schema().unwrap().to_string(),
        Schema::parse(
            "message Event {
               required int32 id;
               required int32 day (DATE);
               required int64 local (TIMESTAMP(MICROS,false));
               required int64 at (TIMESTAMP(MICROS,true));
               required fixed_len_byte_array(16) key (UUID);
               optional int32 maybe_day (DATE);
               optional int64 maybe_at (TIMESTAMP(MICROS,true));
               required int64 precise (TIMESTAMP(NANOS,false));
               required int64 coarse (TIMESTAMP(MILLIS,true));
               required group keys (LIST) {
                 repeated group list { required fixed_len_byte_array(16) element (UUID); } }
               required group days (LIST) {
                 repeated group list { optional int32 element (DATE); } } }"
        )
        .unwrap()
        .to_string()
    );
}

#[test]
fn round_trip() {
    let rows: Vec<Event> = (0..50).map(event).collect();
    let bytes = write(&rows);
    let file = FileReader::from_bytes(&bytes).unwrap();
    let back: Vec<Event> = file
        .read_typed::<Event>()
        .unwrap()
        .collect::<parket::Result<_>>()
        .unwrap();
    assert_eq!(back, rows);
}

/// pyarrow's reading of a column, formatted by pyarrow (ISO text, UUIDs as hex).
const DUMP: &str = r#"
import json, sys
import pyarrow as pa, pyarrow.compute as pc, pyarrow.parquet as pq
t = pq.read_table(sys.argv[1])
out = {"schema": {f.name: str(f.type) for f in t.schema}}
for name in ["day", "maybe_day"]:
    out[name] = pc.strftime(t[name], format="%Y-%m-%d").to_pylist()
for name in ["local", "at", "maybe_at", "precise", "coarse"]:
    out[name] = pc.strftime(t[name], format="%Y-%m-%dT%H:%M:%S").to_pylist()
out["key"] = [b.hex() for b in t["key"].cast(pa.binary(16)).to_pylist()]
print(json.dumps(out))
"#;

#[test]
fn pyarrow_reads_the_values() {
    let dir = std::env::temp_dir().join(format!("parket-typed-chrono-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("events.parquet");
    let rows: Vec<Event> = (0..4).map(event).collect();
    std::fs::write(&path, write(&rows)).unwrap();
    let seen: Value = serde_json::from_str(&python(DUMP, &[&path])).unwrap();
    assert_eq!(seen["schema"]["day"], json!("date32[day]"));
    assert_eq!(seen["schema"]["local"], json!("timestamp[us]"));
    assert_eq!(seen["schema"]["at"], json!("timestamp[us, tz=UTC]"));
    assert_eq!(seen["schema"]["precise"], json!("timestamp[ns]"));
    assert_eq!(seen["schema"]["coarse"], json!("timestamp[ms, tz=UTC]"));
    assert_eq!(seen["schema"]["key"], json!("extension<arrow.uuid>"));
    // Hand-written from the construction in `event`.
    assert_eq!(
        seen["day"],
        json!(["0001-01-01", "2024-02-10", "2024-03-21", "2024-04-30"])
    );
    assert_eq!(
        seen["maybe_day"],
        json!(["2024-01-01", null, "2024-03-21", null])
    );
    assert_eq!(
        seen["local"],
        json!([
            "2024-01-01T03:04:05.000006",
            "1969-12-31T23:59:59.999999",
            "2024-03-21T03:04:05.000008",
            "2024-04-30T03:04:05.000009"
        ])
    );
    assert_eq!(seen["at"][1], json!("2024-02-10T03:04:05.000007"));
    assert_eq!(
        seen["maybe_at"],
        json!([
            null,
            "2024-02-10T03:04:05.000007",
            "2024-03-21T03:04:05.000008",
            null
        ])
    );
    assert_eq!(seen["precise"][3], json!("2024-04-30T01:02:03.123456792"));
    assert_eq!(seen["coarse"][0], json!("2024-01-01T04:05:06.007"));
    assert_eq!(seen["key"][1], json!("0f8fad5bd9cb469fa16570867728950f"));
    std::fs::remove_dir_all(&dir).ok();
}

/// A pyarrow-written table of Python `datetime`, `date` and `uuid` values, and the same
/// instants as INT96 (Spark's legacy timestamps).
const WRITE: &str = r#"
import sys, datetime, uuid
import pyarrow as pa, pyarrow.parquet as pq
utc = datetime.timezone.utc
t = pa.table({
    "day": pa.array([datetime.date(1900, 3, 1), datetime.date(2038, 1, 19)], pa.date32()),
    "local": pa.array([datetime.datetime(1900, 3, 1, 12, 0, 0, 1),
                       datetime.datetime(2038, 1, 19, 3, 14, 8)], pa.timestamp("ms")),
    "at": pa.array([datetime.datetime(2001, 9, 9, 1, 46, 40, tzinfo=utc),
                    datetime.datetime(1950, 6, 1, 0, 0, 0, 250000, tzinfo=utc)],
                   pa.timestamp("us", tz="UTC")),
    "key": pa.array([uuid.UUID("0f8fad5b-d9cb-469f-a165-70867728950e").bytes, bytes(16)],
                    pa.uuid()),
})
# pyarrow keeps milliseconds for "local" only after the cast: drop the microsecond.
t = t.set_column(1, "local", pa.array([datetime.datetime(1900, 3, 1, 12, 0, 0, 1000),
                                       datetime.datetime(2038, 1, 19, 3, 14, 8)],
                                      pa.timestamp("ms")))
pq.write_table(t, sys.argv[1])
pq.write_table(t.select(["local", "at"]), sys.argv[2], use_deprecated_int96_timestamps=True)
"#;

#[test]
fn pyarrows_values_read_into_chrono_and_uuid() {
    #[derive(Record, Debug, PartialEq)]
    struct Theirs {
        day: NaiveDate,
        local: NaiveDateTime,
        at: Option<DateTime<Utc>>,
        key: Uuid,
    }
    #[derive(Record, Debug, PartialEq)]
    struct Int96 {
        local: NaiveDateTime,
        at: DateTime<Utc>,
    }
    let dir = std::env::temp_dir().join(format!("parket-typed-chrono-w-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (a, b) = (dir.join("a.parquet"), dir.join("b.parquet"));
    python(WRITE, &[&a, &b]);
    let local = [
        ymd(1900, 3, 1).and_hms_milli_opt(12, 0, 0, 1).unwrap(),
        ymd(2038, 1, 19).and_hms_opt(3, 14, 8).unwrap(),
    ];
    let at = [
        DateTime::from_timestamp(1_000_000_000, 0).unwrap(),
        ymd(1950, 6, 1)
            .and_hms_milli_opt(0, 0, 0, 250)
            .unwrap()
            .and_utc(),
    ];
    let bytes = std::fs::read(&a).unwrap();
    let rows: Vec<Theirs> = FileReader::from_bytes(&bytes)
        .unwrap()
        .read_typed::<Theirs>()
        .unwrap()
        .collect::<parket::Result<_>>()
        .unwrap();
    assert_eq!(
        rows,
        [
            Theirs {
                day: ymd(1900, 3, 1),
                local: local[0],
                at: Some(at[0]),
                key: Uuid::parse_str("0f8fad5b-d9cb-469f-a165-70867728950e").unwrap(),
            },
            Theirs {
                day: ymd(2038, 1, 19),
                local: local[1],
                at: Some(at[1]),
                key: Uuid::nil(),
            }
        ]
    );
    let bytes = std::fs::read(&b).unwrap();
    let file = FileReader::from_bytes(&bytes).unwrap();
    assert_eq!(
        file.schema().columns()[0].physical_type,
        parket::format::PhysicalType::Int96
    );
    let rows: Vec<Int96> = file
        .read_typed::<Int96>()
        .unwrap()
        .collect::<parket::Result<_>>()
        .unwrap();
    assert_eq!(
        rows,
        [
            Int96 {
                local: local[0],
                at: at[0]
            },
            Int96 {
                local: local[1],
                at: at[1]
            }
        ]
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn errors_name_the_column() {
    #[derive(Record, Debug)]
    struct Fine {
        at: DateTime<Utc>,
    }
    #[derive(Record, Debug)]
    struct Local {
        at: NaiveDateTime,
    }
    #[derive(Record, Debug)]
    struct Leap {
        #[parket(timestamp(unit = "nanos", utc = false))]
        at: NaiveDateTime,
    }
    // Nanoseconds in a microsecond column: refused, not truncated.
    let mut w = TypedWriter::<Fine, _>::new(Vec::new(), WriteOptions::default()).unwrap();
    let t = DateTime::from_timestamp(1, 500).unwrap();
    let e = w.write(&[Fine { at: t }]).unwrap_err().to_string();
    assert!(
        e.contains("finer than the column's unit (micros)") && e.contains("at"),
        "{e}"
    );
    // A leap second has no TIMESTAMP.
    let leap = ymd(2016, 12, 31)
        .and_hms_nano_opt(23, 59, 59, 1_500_000_000)
        .unwrap();
    let mut w = TypedWriter::<Leap, _>::new(Vec::new(), WriteOptions::default()).unwrap();
    let e = w.write(&[Leap { at: leap }]).unwrap_err().to_string();
    assert!(e.contains("leap second"), "{e}");
    // A UTC column does not read into a local date-time (and back): an error before any row,
    // naming the field, the column and both types.
    let mut w = TypedWriter::<Fine, _>::new(Vec::new(), WriteOptions::default()).unwrap();
    w.write(&[Fine {
        at: DateTime::from_timestamp(1, 0).unwrap(),
    }])
    .unwrap();
    w.finish().unwrap();
    let bytes = w.into_inner();
    let file = FileReader::from_bytes(&bytes).unwrap();
    let e = file.read_typed::<Local>().err().unwrap().to_string();
    assert!(
        e.contains("field at (chrono::NaiveDateTime) cannot read column at")
            && e.contains("TIMESTAMP(MICROS,true)"),
        "{e}"
    );
    // An attribute that contradicts the type is refused when the schema is built.
    #[derive(Record, Debug)]
    struct Contradiction {
        #[parket(timestamp(unit = "micros", utc = false))]
        at: DateTime<Utc>,
    }
    let e = Contradiction::schema().unwrap_err().to_string();
    assert!(e.contains("field at") && e.contains("DateTime<Utc>"), "{e}");
}
