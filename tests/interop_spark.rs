//! Differential tests against Spark 4 (pyspark), that is parquet-java as the writer and as a
//! reader, in both directions.
//!
//! `tests/interop/sparkgen.py` (one Spark session for all seeds) writes, per seed, a random
//! table of Spark's types (nested lists, maps and structs, decimals, INT96 / micros / millis
//! timestamps, NaN and friends, nulls everywhere) with random parquet-java options (V1 or V2
//! pages, codecs, dictionary, tiny pages, statistics off, the legacy list format):
//! `spark.parquet`, and `rows.jsonl`, Spark's own reading of it as canonical JSON lines (per
//! ../shared/json-mapping.md; the script checks that pyarrow reads the same). `parket cat
//! --json spark.parquet` must print exactly `rows.jsonl`. The script also has parket write
//! `rows.jsonl` back (`parket write`, random options) and checks that Spark reads it
//! identically.
//!
//! Per seed, `tests/interop/sparkvariant.py` also checks VARIANT both ways: random Variant
//! values (nested objects and arrays, every primitive Spark has: int8..int64, float, double,
//! decimal4/8/16, date, timestamp with and without time zone, binary, string, `parse_json`
//! text) written by Spark unshredded and shredded (`spark.sql.variant.writeShredding.enabled`
//! with `spark.sql.variant.forceShreddingSchemaForTest`) must read in parket as the contract's
//! JSON of those values; JSON values written by `parket write`, unshredded and shredded, must
//! read in Spark as that JSON, and in pyarrow (the unshredded file) as bytes that decode to it.
//!
//! Seed 0 writes V2 pages with statistics off, for which parquet-java 1.17 writes
//! `DataPageHeaderV2.num_nulls = -1`; the test checks that the file really has such a header.
//! Needs Java 17+ and `pip install -r tests/interop/requirements.txt`. Seeds:
//! `PARKET_SPARK_SEEDS=A..B` (default `0..4`; the Spark session's start-up dominates).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use parket::record::{variant::shred, Value};
use parket::schema::Schema;
use parket::variant::{Primitive, VariantValue};
use serde_json::{json, Value as Json};

fn seeds() -> (u64, u64) {
    let spec = std::env::var("PARKET_SPARK_SEEDS").unwrap_or_else(|_| "0..4".into());
    let (a, b) = spec.split_once("..").expect("PARKET_SPARK_SEEDS is A..B");
    (a.parse().unwrap(), b.parse().unwrap())
}

fn repro(seed: u64) -> String {
    format!(
        "python3 tests/interop/sparkgen.py --parket target/debug/parket --start {seed} --end {} \
         --out /tmp/sp && diff <(parket cat --json /tmp/sp/{seed}/spark.parquet) \
         /tmp/sp/{seed}/rows.jsonl",
        seed + 1
    )
}

#[test]
fn spark_files_read_as_spark_reads_them_and_back() {
    let (start, end) = seeds();
    let dir = std::env::temp_dir().join(format!("parket-spark-{}", std::process::id()));
    let script: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/interop/sparkgen.py");
    let t0 = Instant::now();
    let typed = dir.join("variant-typed");
    write_typed_variants(&typed);
    let out = Command::new("python3")
        .arg(script)
        .args(["--parket", env!("CARGO_BIN_EXE_parket")])
        .arg("--variant-typed")
        .arg(&typed)
        .args(["--start", &start.to_string(), "--end", &end.to_string()])
        .arg("--out")
        .arg(&dir)
        .output()
        .expect("run python3 (install tests/interop/requirements.txt)");
    assert!(
        out.status.success(),
        "sparkgen.py failed (needs pyspark and Java 17+): {}",
        String::from_utf8_lossy(&out.stderr)
            .lines()
            .rev()
            .take(30)
            .collect::<Vec<_>>()
            .join("\n")
    );
    let report = String::from_utf8(out.stdout).unwrap();
    let mut failures = Vec::new();
    let mut compared = 0;
    let mut minus_one = false;
    let mut lines = report.lines();
    let typed_line = lines.next().unwrap_or_default();
    assert_eq!(
        typed_line, "variant-typed ok",
        "parket's VARIANT files of every primitive, as Spark reads them ({typed:?})"
    );
    for line in lines {
        let (seed, rest) = line.split_once(' ').unwrap();
        let seed: u64 = seed.parse().unwrap();
        let Some(tags) = rest.strip_prefix("ok") else {
            failures.push((seed, rest.to_string()));
            continue;
        };
        minus_one |= tags.contains("num_nulls=-1");
        // sparkvariant.py: Spark's VARIANT files (unshredded and shredded) read by parket as
        // generated, parket's read by Spark (and the unshredded one by pyarrow).
        let want = "variant=spark-unshredded,spark-forced,parket-unshredded,parket-shredded";
        if !tags.contains(want) {
            failures.push((seed, format!("VARIANT checks missing: {tags}")));
            continue;
        }
        let sd = dir.join(seed.to_string());
        compared += 1;
        if let Some(diff) = common::seed_difference(&sd, "spark.parquet") {
            failures.push((seed, diff));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    for (seed, msg) in &failures {
        eprintln!("seed {seed}: {msg}\n  repro: {}", repro(*seed));
    }
    println!(
        "interop_spark: {} seeds ({start}..{end}) in {:.0?}: {compared} read by parket as Spark \
         reads them and written back, {} failed",
        end - start,
        t0.elapsed(),
        failures.len()
    );
    assert_eq!(
        report.lines().count() as u64 - 1,
        end - start,
        "one line per seed: {report}"
    );
    assert!(
        failures.is_empty(),
        "{} seeds failed: {:?}",
        failures.len(),
        failures.iter().map(|f| f.0).collect::<Vec<_>>()
    );
    if start == 0 {
        assert!(
            minus_one,
            "seed 0 should have a DATA_PAGE_V2 with num_nulls = -1 (parquet-java 1.17 with \
             statistics off)"
        );
    }
}

/// SplitMix64: the tests' own deterministic randomness.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len() as u64) as usize]
    }
    /// In lo..=hi (hi - lo below i64::MAX).
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % ((hi - lo) as u64 + 1)) as i64
    }
}

/// The primitives of Spark's Variant (4.3 fails on TIME and the nanosecond timestamps, type
/// ids 17-19: "UNKNOWN_PRIMITIVE_TYPE_IN_VARIANT"), each as parket's library holds it and as
/// sparkvariant.py describes it: `{"t": kind, "v": payload}`.
const KINDS: &[&str] = &[
    "null",
    "boolean",
    "tinyint",
    "smallint",
    "int",
    "bigint",
    "float",
    "double",
    "decimal4",
    "decimal8",
    "decimal16",
    "date",
    "timestamp",
    "timestamp_ntz",
    "binary",
    "string",
];

fn primitive(rng: &mut Rng, kind: &str) -> (VariantValue, Json) {
    const MIN_MICROS: i64 = -62_135_596_800_000_000; // 0001-01-01
    const MAX_MICROS: i64 = 253_402_300_799_999_999; // 9999-12-31T23:59:59.999999
    let mut int = |lo: i64, hi: i64| rng.pick(&[lo, hi, 0, -1, 1, lo / 3, hi / 7]);
    let (p, t) = match kind {
        "null" => (Primitive::Null, json!(null)),
        "boolean" => {
            let b = rng.below(2) == 1;
            (Primitive::Boolean(b), json!(b))
        }
        "tinyint" => {
            let x = int(-128, 127);
            (Primitive::Int8(x as i8), json!(x))
        }
        "smallint" => {
            let x = int(-32768, 32767);
            (Primitive::Int16(x as i16), json!(x))
        }
        "int" => {
            let x = int(i32::MIN.into(), i32::MAX.into());
            (Primitive::Int32(x as i32), json!(x))
        }
        "bigint" => {
            let r = rng.next() as i64;
            let x = rng.pick(&[i64::MIN, i64::MAX, 0, -1, r]);
            (Primitive::Int64(x), json!(x))
        }
        "float" => {
            let r = f32::from_bits(rng.next() as u32);
            let x = rng.pick(&[
                f32::NAN,
                f32::INFINITY,
                f32::NEG_INFINITY,
                -0.0,
                0.1,
                f32::MIN_POSITIVE,
                1e-45,
                f32::MAX,
                r,
            ]);
            (Primitive::Float(x), json!(x.to_bits()))
        }
        "double" => {
            let r = f64::from_bits(rng.next());
            let x = rng.pick(&[f64::NAN, f64::INFINITY, -0.0, 0.1, 5e-324, f64::MAX, r]);
            (Primitive::Double(x), json!(x.to_bits()))
        }
        "decimal4" => {
            let u = int(-999_999_999, 999_999_999) as i32;
            let scale = rng.pick(&[0u8, 2, 9]);
            (
                Primitive::Decimal4 { unscaled: u, scale },
                json!([u.to_string(), 9, scale]),
            )
        }
        "decimal8" => {
            let u = int(-999_999_999_999_999_999, 999_999_999_999_999_999);
            let scale = rng.pick(&[0u8, 6, 18]);
            (
                Primitive::Decimal8 { unscaled: u, scale },
                json!([u.to_string(), 18, scale]),
            )
        }
        "decimal16" => {
            let max = 10i128.pow(38) - 1;
            let r = (rng.next() as i128) << 40 | rng.next() as i128;
            let u = rng.pick(&[max, -max, 0, r]);
            let u = u % (max + 1);
            let scale = rng.pick(&[0u8, 10, 38]);
            (
                Primitive::Decimal16 { unscaled: u, scale },
                json!([u.to_string(), 38, scale]),
            )
        }
        "date" => {
            let d = int(-719_162, 2_932_896) as i32;
            (Primitive::Date(d), json!(d))
        }
        "timestamp" | "timestamp_ntz" => {
            let us = rng.pick(&[MIN_MICROS, MAX_MICROS, 0, -1, 1]);
            let us = if rng.below(2) == 0 {
                us
            } else {
                rng.range(MIN_MICROS, MAX_MICROS)
            };
            let p = if kind == "timestamp" {
                Primitive::Timestamp(us)
            } else {
                Primitive::TimestampNtz(us)
            };
            (p, json!(us))
        }
        "binary" => {
            let b: Vec<u8> = (0..rng.pick(&[0, 1, 7, 70]))
                .map(|_| rng.next() as u8)
                .collect();
            let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
            (Primitive::Binary(b.into()), json!(hex))
        }
        "string" => {
            let long = "long ".repeat(30);
            let s = rng.pick(&["", "a", "ünïcödé ✓", "\u{0}\"\\\n", "😀", &long]);
            (Primitive::String(s.to_string().into()), json!(s))
        }
        other => unreachable!("{other}"),
    };
    (p.into(), json!({"t": kind, "v": t}))
}

fn typed_value(rng: &mut Rng, depth: u32) -> (VariantValue, Json) {
    match rng.below(10) {
        0 | 1 if depth < 3 => {
            let names = ["a", "b", "zz", "ünï", "k 1", "d4", "ts"];
            let mut fields: Vec<(String, (VariantValue, Json))> = Vec::new();
            for _ in 0..rng.below(5) {
                let name = rng.pick(&names).to_string();
                if fields.iter().all(|(n, _)| *n != name) {
                    fields.push((name, typed_value(rng, depth + 1)));
                }
            }
            object(fields)
        }
        2 if depth < 3 => {
            let items: Vec<_> = (0..rng.below(5))
                .map(|_| typed_value(rng, depth + 1))
                .collect();
            (
                VariantValue::Array(items.iter().map(|x| x.0.clone()).collect()),
                json!({"a": items.into_iter().map(|x| x.1).collect::<Vec<_>>()}),
            )
        }
        _ => {
            let kind = rng.pick(KINDS);
            primitive(rng, kind)
        }
    }
}

fn object(mut fields: Vec<(String, (VariantValue, Json))>) -> (VariantValue, Json) {
    fields.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    let tag = json!({"o": fields.iter().map(|(k, v)| json!([k, v.1])).collect::<Vec<_>>()});
    (
        VariantValue::Object(fields.into_iter().map(|(k, v)| (k, v.0)).collect()),
        tag,
    )
}

/// The shredded fields of `variant-typed-shredded.parquet`: (name, kind, `typed_value`).
const SHREDDED: &[(&str, &str, &str)] = &[
    ("i8", "tinyint", "int32 typed_value (INT(8, true))"),
    ("i16", "smallint", "int32 typed_value (INT(16, true))"),
    ("i32", "int", "int32 typed_value"),
    ("i64", "bigint", "int64 typed_value"),
    ("f", "float", "float typed_value"),
    ("d", "double", "double typed_value"),
    ("d4", "decimal4", "int32 typed_value (DECIMAL(9, 2))"),
    ("d8", "decimal8", "int64 typed_value (DECIMAL(18, 6))"),
    (
        "d16",
        "decimal16",
        "fixed_len_byte_array(16) typed_value (DECIMAL(38, 10))",
    ),
    ("day", "date", "int32 typed_value (DATE)"),
    (
        "ts",
        "timestamp",
        "int64 typed_value (TIMESTAMP(MICROS, true))",
    ),
    (
        "ntz",
        "timestamp_ntz",
        "int64 typed_value (TIMESTAMP(MICROS, false))",
    ),
    ("bin", "binary", "binary typed_value"),
    ("s", "string", "binary typed_value (STRING)"),
    ("b", "boolean", "boolean typed_value"),
];

/// Writes `variant-typed-unshredded.parquet` and `variant-typed-shredded.parquet` (the same
/// rows; the second shredded by parket's library into `typed_value` columns of every
/// primitive type, plus an array and a nested object) and `variant-typed.jsonl`, the values
/// as sparkvariant.py reads them, into `dir`.
fn write_typed_variants(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    let mut rng = Rng(19);
    let mut shredded_fields: String = SHREDDED
        .iter()
        .map(|(name, _, typed)| {
            format!("required group {name} {{ optional binary value; optional {typed}; }} ")
        })
        .collect();
    shredded_fields += "required group arr { optional binary value; optional group typed_value \
        (LIST) { repeated group list { required group element { optional binary value; \
        optional int64 typed_value; } } } } required group obj { optional binary value; \
        optional group typed_value { required group x { optional binary value; optional \
        binary typed_value (STRING); } } }";
    let schemas = [
        (
            "unshredded",
            "message m { required int64 id; optional group v (VARIANT(1)) { required binary \
             metadata; required binary value; } }"
                .to_string(),
        ),
        (
            "shredded",
            format!(
                "message m {{ required int64 id; optional group v (VARIANT(1)) {{ required \
                 binary metadata; optional binary value; optional group typed_value {{ \
                 {shredded_fields} }} }} }}"
            ),
        ),
    ];
    let mut rows: Vec<Option<VariantValue>> = Vec::new();
    let mut tags = String::new();
    for id in 0..120 {
        let (v, tag) = match rng.below(10) {
            0 => (None, Json::Null),
            1..=3 => {
                let (v, t) = typed_value(&mut rng, 0);
                (Some(v), t)
            }
            _ => {
                // Mostly the shredded shape, each field mostly of its column's kind.
                let mut fields = Vec::new();
                for (name, kind, _) in SHREDDED {
                    match rng.below(10) {
                        0 => {}
                        1 => fields.push((name.to_string(), typed_value(&mut rng, 1))),
                        _ => fields.push((name.to_string(), primitive(&mut rng, kind))),
                    }
                }
                let items: Vec<_> = (0..rng.below(4))
                    .map(|_| {
                        if rng.below(5) == 0 {
                            typed_value(&mut rng, 2)
                        } else {
                            primitive(&mut rng, "bigint")
                        }
                    })
                    .collect();
                fields.push((
                    "arr".to_string(),
                    (
                        VariantValue::Array(items.iter().map(|x| x.0.clone()).collect()),
                        json!({"a": items.into_iter().map(|x| x.1).collect::<Vec<_>>()}),
                    ),
                ));
                let x = ("x".to_string(), primitive(&mut rng, "string"));
                let extra = ("y".to_string(), typed_value(&mut rng, 2));
                let inner = if rng.below(3) == 0 {
                    vec![x, extra]
                } else {
                    vec![x]
                };
                fields.push(("obj".to_string(), object(inner)));
                if rng.below(4) == 0 {
                    fields.push(("zz".to_string(), typed_value(&mut rng, 1)));
                }
                let (v, t) = object(fields);
                (Some(v), t)
            }
        };
        rows.push(v);
        tags += &format!("{}\n", json!({"id": id, "v": tag}));
    }
    std::fs::write(dir.join("variant-typed.jsonl"), tags).unwrap();
    for (name, text) in schemas {
        let schema = Schema::parse(&text).unwrap();
        let node = schema.node_index("v").unwrap();
        let records: Vec<Value> = rows
            .iter()
            .enumerate()
            .map(|(id, v)| {
                let v = match v {
                    Some(v) => shred(&schema, node, v).unwrap(),
                    None => Value::Null,
                };
                Value::Group(vec![Value::Int64(id as i64), v])
            })
            .collect();
        let mut w = parket::write::FileWriter::new(Vec::new(), schema, Default::default()).unwrap();
        w.write_records(&records).unwrap();
        w.finish().unwrap();
        let bytes = w.into_inner();
        // Every typed_value column holds some values: the shredding has work to do.
        let file = parket::FileReader::from_bytes(&bytes).unwrap();
        let md = file.metadata();
        for (j, c) in file.schema().columns().iter().enumerate() {
            let path = c.path_string();
            let meta = md.row_groups[0].columns[j].meta_data.as_ref().unwrap();
            let nulls = meta.statistics.as_ref().and_then(|s| s.null_count).unwrap();
            if path.ends_with("typed_value") {
                assert!(nulls < meta.num_values, "{path}: nothing shredded");
            }
        }
        std::fs::write(dir.join(format!("variant-typed-{name}.parquet")), &bytes).unwrap();
    }
}
