//! Parallel writing (issue 22 item 3): a file written with several threads is byte for byte the
//! file written with one. The single-thread bytes are the reference (they are pinned by the
//! golden tests elsewhere: write_layout, the doctests' hex, write_pyarrow); here the same data
//! goes through both paths and the bytes are compared:
//!
//! - random records of every physical type, optional and nested (LIST of strings, LIST of
//!   structs), through `write_records`, `RowGroupWriter::write_columns` and a mix of
//!   `write_columns`, `write` and `close_column`, under option sets that cover V1 and V2,
//!   every codec the default features build, dictionary fallback (a small dictionary limit),
//!   the page index on and off, Bloom filters, statistics on and off, and row-group cuts;
//! - every file of the parquet-testing corpus that parket reads, each rewritten row group by
//!   row group through `RowGroupWriter::write_columns`.
//!
//! The threaded path is forced on small data with the hidden `parallel_min_levels(0)`.
#![cfg(all(feature = "std", feature = "write"))]

use parket::compression::Codec;
use parket::format::Encoding;
use parket::levels::shred::shred;
use parket::read::FileReader;
use parket::record::Value;
use parket::schema::Schema;
use parket::write::{BloomFilterOptions, FileWriter, PageVersion, WriteOptions};

mod common;

const SCHEMA: &str = "message m {
  required boolean b;
  optional int32 i32 (INTEGER(16, true));
  required int64 i64;
  optional int96 i96;
  optional float f;
  required double d;
  optional binary s (STRING);
  optional binary u (STRING);
  optional fixed_len_byte_array(16) fx;
  optional group tags (LIST) { repeated group list { optional binary element (STRING); } }
  optional group pts (LIST) {
    repeated group list { required group element { required int32 x; optional double y; } }
  }
}";

/// xorshift64*: deterministic and dependency-free.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, in_ten: u64) -> bool {
        self.below(10) < in_ten
    }
}

fn double(rng: &mut Rng) -> f64 {
    match rng.below(12) {
        0 => f64::NAN,
        1 => -0.0,
        2 => f64::INFINITY,
        3 => f64::MIN,
        _ => (rng.below(10_000) as f64) / 100.0 - 20.0,
    }
}

/// One record of [`SCHEMA`]: low-cardinality columns (dictionary-friendly) beside
/// high-cardinality ones (`u`, `fx`), which outgrow a small dictionary and fall back.
fn record(rng: &mut Rng, i: u64) -> Value {
    let opt = |rng: &mut Rng, v: Value| if rng.chance(2) { Value::Null } else { v };
    let b = Value::Boolean(rng.chance(5));
    let i32v = Value::Int32(rng.below(300) as i32 - 150);
    let i32v = opt(rng, i32v);
    let i64v = Value::Int64(if rng.chance(1) {
        i64::MIN
    } else {
        (i * 1_000_003) as i64 ^ rng.below(7) as i64
    });
    let mut i96 = [0u8; 12];
    i96[..8].copy_from_slice(&rng.below(1000).to_le_bytes());
    let i96 = opt(rng, Value::Int96(i96));
    let f = Value::Float(double(rng) as f32);
    let f = opt(rng, f);
    let d = Value::Double(double(rng));
    let s = format!("cat-{}", rng.below(40));
    let s = Value::Bytes(if rng.chance(1) {
        Vec::new()
    } else {
        s.into_bytes()
    });
    let s = opt(rng, s);
    let u = format!("{:x}-{}", rng.next(), i);
    let u = opt(rng, Value::Bytes(u.into_bytes()));
    let fx = Value::Bytes(rng.next().to_le_bytes().repeat(2));
    let fx = opt(rng, fx);
    let tags = match rng.below(4) {
        0 => Value::Null,
        1 => Value::List(Vec::new()),
        _ => Value::List(
            (0..rng.below(5))
                .map(|_| {
                    if rng.chance(2) {
                        Value::Null
                    } else {
                        Value::Bytes(format!("t{}", rng.below(9)).into_bytes())
                    }
                })
                .collect(),
        ),
    };
    let pts = match rng.below(3) {
        0 => Value::Null,
        _ => Value::List(
            (0..rng.below(4))
                .map(|_| {
                    let y = Value::Double(double(rng));
                    Value::Group(vec![Value::Int32(rng.below(1 << 20) as i32), opt(rng, y)])
                })
                .collect(),
        ),
    };
    Value::Group(vec![b, i32v, i64v, i96, f, d, s, u, fx, tags, pts])
}

fn records(n: usize, seed: u64) -> Vec<Value> {
    let mut rng = Rng(seed | 1);
    (0..n as u64).map(|i| record(&mut rng, i)).collect()
}

/// Option sets, named.
fn option_sets() -> Vec<(&'static str, WriteOptions)> {
    let bloom = Some(BloomFilterOptions::default());
    let mut sets = vec![
        ("defaults", WriteOptions::default()),
        (
            "v2, small pages and dictionary, bloom filters, row-group cuts",
            WriteOptions::default()
                .page_version(PageVersion::V2)
                .dictionary_page_size_limit(600)
                .data_page_size(2048)
                .max_rows_per_page(300)
                .bloom_filter(bloom)
                .row_group_rows(1700)
                .ieee_754_total_order(true),
        ),
        (
            "v1 uncompressed, no dictionary, delta encodings, no statistics or page index",
            WriteOptions::default()
                .codec(Codec::Uncompressed)
                .dictionary(false)
                .statistics(false)
                .page_index(false)
                .page_crc(false)
                .column("i64", |c| c.encoding(Encoding::DeltaBinaryPacked))
                .column("u", |c| c.encoding(Encoding::DeltaByteArray))
                .column("s", |c| c.encoding(Encoding::DeltaLengthByteArray))
                .column("d", |c| c.encoding(Encoding::ByteStreamSplit)),
        ),
    ];
    #[cfg(feature = "zstd")]
    sets.push((
        "v2 zstd, column index truncated, byte-size row groups",
        WriteOptions::default()
            .page_version(PageVersion::V2)
            .codec(Codec::Zstd { level: 3 })
            .dictionary_page_size_limit(4000)
            .column_index_truncate_length(Some(4))
            .statistics_truncate_length(Some(6))
            .row_group_bytes(20_000)
            .column("u", |c| c.bloom_filter(bloom)),
    ));
    #[cfg(feature = "gzip")]
    sets.push((
        "v1 gzip, dictionary off for some columns",
        WriteOptions::default()
            .codec(Codec::Gzip { level: 6 })
            .column("s", |c| c.dictionary(false))
            .column("tags.list.element", |c| c.dictionary(false)),
    ));
    sets
}

/// The ways to hand the data to the writer.
#[derive(Debug, Clone, Copy)]
enum Path {
    /// `FileWriter::write_records`, all at once (batches of 1024, row-group cuts).
    Records,
    /// `RowGroupWriter::write_columns` in batches, two row groups.
    RowGroupColumns,
    /// Row groups of `write_columns` batches, then `write` + `close_column` of the first
    /// columns (the front ones stream), then `finish` (the others closed together).
    Mixed,
    /// Row groups of `write_columns` batches, the last batch through `finish_with`.
    FinishWith,
}

fn write(path: Path, options: WriteOptions, data: &[Value]) -> Vec<u8> {
    let schema = Schema::parse(SCHEMA).unwrap();
    let mut w = FileWriter::new(Vec::new(), schema.clone(), options).unwrap();
    match path {
        Path::Records => w.write_records(data).unwrap(),
        Path::RowGroupColumns => {
            for half in data.chunks(data.len().div_ceil(2)) {
                let mut rg = w.next_row_group().unwrap();
                for batch in half.chunks(700) {
                    rg.write_columns(&shred(&schema, batch).unwrap()).unwrap();
                }
                rg.finish().unwrap();
            }
        }
        Path::Mixed => {
            for part in data.chunks(data.len().div_ceil(3)) {
                let mut rg = w.next_row_group().unwrap();
                let (head, tail) = part.split_at(part.len() * 2 / 3);
                for batch in head.chunks(900) {
                    rg.write_columns(&shred(&schema, batch).unwrap()).unwrap();
                }
                let leaves = shred(&schema, tail).unwrap();
                for (j, leaf) in leaves.iter().enumerate() {
                    rg.write(j, leaf.values.as_ref(), &leaf.def_levels, &leaf.rep_levels)
                        .unwrap();
                    if j < 4 {
                        rg.close_column(j).unwrap();
                    }
                }
                rg.finish().unwrap();
            }
        }
        Path::FinishWith => {
            for part in data.chunks(data.len().div_ceil(3)) {
                let mut rg = w.next_row_group().unwrap();
                let (head, tail) = part.split_at(part.len() / 2);
                for batch in head.chunks(800) {
                    rg.write_columns(&shred(&schema, batch).unwrap()).unwrap();
                }
                rg.finish_with(&shred(&schema, tail).unwrap()).unwrap();
            }
        }
    }
    w.finish().unwrap();
    w.into_inner()
}

#[test]
fn random_data_same_bytes_on_every_thread_count() {
    let data = records(5000, 0x5eed);
    let mut compared = 0;
    for (name, options) in option_sets() {
        for path in [
            Path::Records,
            Path::RowGroupColumns,
            Path::Mixed,
            Path::FinishWith,
        ] {
            let one = write(path, options.clone().threads(1), &data);
            let file = FileReader::from_bytes(&one).unwrap();
            assert_eq!(file.metadata().num_rows, data.len() as i64, "{name}");
            for threads in [2, 3, 8] {
                for min in [0, usize::MAX, parket::write::MIN_PARALLEL_LEVELS] {
                    let o = options.clone().threads(threads).parallel_min_levels(min);
                    let many = write(path, o, &data);
                    assert!(
                        one == many,
                        "{name}, {path:?}, {threads} threads, min {min}: {} bytes against {} \
                         (first difference at {:?})",
                        many.len(),
                        one.len(),
                        one.iter().zip(&many).position(|(a, b)| a != b)
                    );
                    compared += 1;
                }
            }
        }
    }
    assert!(compared >= 3 * 4 * 3 * 3, "{compared}");
}

/// `finish_with` (each column written, closed and written out as soon as the ones before it
/// are) gives the bytes of `write_columns` + `finish`, on any thread count: both the last
/// batch alone and after earlier `write_columns` calls.
#[test]
fn finish_with_same_bytes_as_write_columns_then_finish() {
    let data = records(4000, 0xf1);
    let schema = Schema::parse(SCHEMA).unwrap();
    for (name, options) in option_sets() {
        let two_calls = |options: WriteOptions, fused: bool| {
            let mut w = FileWriter::new(Vec::new(), schema.clone(), options).unwrap();
            for part in data.chunks(1500) {
                let mut rg = w.next_row_group().unwrap();
                let leaves = shred(&schema, part).unwrap();
                if fused {
                    rg.finish_with(&leaves).unwrap();
                } else {
                    rg.write_columns(&leaves).unwrap();
                    rg.finish().unwrap();
                }
            }
            w.finish().unwrap();
            w.into_inner()
        };
        let reference = two_calls(options.clone().threads(1), false);
        for threads in [1, 2, 3, 8] {
            let o = options.clone().threads(threads).parallel_min_levels(0);
            assert!(two_calls(o, true) == reference, "{name}, {threads} threads");
        }
        let mixed = write(Path::FinishWith, options.clone().threads(1), &data);
        let file = FileReader::from_bytes(&mixed).unwrap();
        assert_eq!(file.metadata().num_rows, data.len() as i64, "{name}");
        assert_eq!(file.metadata().row_groups.len(), 3, "{name}");
    }
}

/// `finish_with` checks the columns' rows before writing anything, and an error in a column's
/// batch is reported as on one thread; once a chunk went out, the writer takes no more.
#[test]
fn finish_with_errors() {
    let schema = Schema::parse("message m { required int32 a; required int64 b; }").unwrap();
    let leaves = int_leaves;
    for threads in [1, 2] {
        let options = WriteOptions::default()
            .threads(threads)
            .parallel_min_levels(0);
        // Different rows: nothing written, the writer still usable.
        let mut w = FileWriter::new(Vec::new(), schema.clone(), options.clone()).unwrap();
        let err = w
            .next_row_group()
            .unwrap()
            .finish_with(&leaves(100, 99, false))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("column b would hold 99 rows"),
            "{threads}: {err}"
        );
        w.next_row_group()
            .unwrap()
            .finish_with(&leaves(10, 10, false))
            .unwrap();
        assert_eq!(w.finish().unwrap().num_rows, 10);
        // A bad batch in column b, after column a went out: named, and the file is broken.
        let mut w = FileWriter::new(Vec::new(), schema.clone(), options).unwrap();
        let err = w
            .next_row_group()
            .unwrap()
            .finish_with(&leaves(100, 100, true))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("column b") && err.contains("INT32"),
            "{threads}: {err}"
        );
        assert!(w.next_row_group().is_err(), "{threads}");
        assert!(w.finish().is_err(), "{threads}");
    }
}

/// Every readable corpus file, rewritten row group by row group through
/// `RowGroupWriter::write_columns` with each of two option sets: one thread and three give
/// the same bytes.
#[test]
fn corpus_rewrites_same_bytes_on_every_thread_count() {
    let Ok(root) = std::env::var("PARQUET_TEST_DATA") else {
        eprintln!("PARQUET_TEST_DATA not set: skipped");
        return;
    };
    let (mut compared, mut skipped) = (0, Vec::new());
    for name in common::readable_corpus_files() {
        let bytes = std::fs::read(std::path::Path::new(&root).join(&name)).unwrap();
        let Ok(file) = FileReader::from_bytes(&bytes) else {
            skipped.push(name);
            continue;
        };
        let all: Vec<usize> = (0..file.schema().columns().len()).collect();
        let Ok(row_groups) = (0..file.num_row_groups())
            .map(|rg| file.read_row_group(rg, &all))
            .collect::<Result<Vec<_>, _>>()
        else {
            skipped.push(name);
            continue;
        };
        let rewrite = |options: WriteOptions| -> parket::Result<Vec<u8>> {
            let mut w = FileWriter::new(Vec::new(), file.schema().clone(), options)?;
            for leaves in &row_groups {
                let mut rg = w.next_row_group()?;
                rg.write_columns(leaves)?;
                rg.finish()?;
            }
            w.finish()?;
            Ok(w.into_inner())
        };
        let sets = [
            WriteOptions::default(),
            WriteOptions::default()
                .page_version(PageVersion::V2)
                .data_page_size(1024)
                .dictionary_page_size_limit(256)
                .bloom_filter(Some(BloomFilterOptions::default())),
        ];
        for options in sets {
            let Ok(one) = rewrite(options.clone().threads(1)) else {
                skipped.push(name.clone());
                continue;
            };
            let many = rewrite(options.threads(3).parallel_min_levels(0)).unwrap();
            assert!(one == many, "{name}: the 3-thread rewrite differs");
            compared += 1;
        }
    }
    eprintln!(
        "{compared} corpus rewrites compared; skipped (unreadable or unwritable): {skipped:?}"
    );
    assert!(compared >= 100, "only {compared} corpus files compared");
}

/// Batches for `message m { required int32 a; required int64 b; }`: `a` rows of `a`, `b` of
/// `b`, given as INT32 (the wrong type) when `bad`.
fn int_leaves(a: usize, b: usize, bad: bool) -> Vec<parket::levels::LeafData> {
    vec![
        parket::levels::LeafData {
            values: parket::values::Values::Int32(vec![1; a]),
            def_levels: vec![],
            rep_levels: vec![],
        },
        parket::levels::LeafData {
            values: if bad {
                parket::values::Values::Int32(vec![2; b])
            } else {
                parket::values::Values::Int64(vec![2; b])
            },
            def_levels: vec![],
            rep_levels: vec![],
        },
    ]
}

/// An error in one column of a parallel call is reported as it is on one thread.
#[test]
fn errors_name_the_column() {
    let schema = Schema::parse("message m { required int32 a; required int64 b; }").unwrap();
    let leaves = |n: usize, bad: bool| int_leaves(n, n, bad);
    for threads in [1, 2] {
        let options = WriteOptions::default()
            .threads(threads)
            .parallel_min_levels(0);
        let mut w = FileWriter::new(Vec::new(), schema.clone(), options.clone()).unwrap();
        let mut rg = w.next_row_group().unwrap();
        rg.write_columns(&leaves(100, false)).unwrap();
        let err = rg
            .write_columns(&leaves(100, true))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("column b") && err.contains("INT32"),
            "{threads}: {err}"
        );
        let mut w = FileWriter::new(Vec::new(), schema.clone(), options).unwrap();
        let err = w.write_columns(&leaves(100, true)).unwrap_err().to_string();
        assert!(
            err.contains("column b") && err.contains("INT32"),
            "{threads}: {err}"
        );
    }
}
