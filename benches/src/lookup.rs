//! `lookup`: selective reads of a file sorted by `id` with statistics, a page index and Bloom
//! filters: parket's scan against arrow-rs's page-index path and DuckDB.
//!
//! ```text
//! cargo run --release --manifest-path benches/Cargo.toml --bin lookup -- \
//!     [--rows 10000000] [--lookups 100] [--rounds 7] [--file benches/data/lookup-10m.parquet] \
//!     [--queries point,narrow,wide,string[,full]] [--only parket|arrow]
//! ```
//!
//! The file (written by parket when missing: `id` INT64 0..rows, `name` a string of 10,000
//! distinct values spread over every page (`name {i * 7919 % 10000}`), `value` an optional
//! DOUBLE; row groups of 1 Mi rows, pages of at most 20,000 rows, page index, statistics and
//! Bloom filters on `id` and `name`) is read into memory once. Each query starts from the bytes
//! (every side parses the footer and the indexes again, as a query does) and yields every
//! column of the matching rows. The queries, each on `--lookups` random parameters (the wide
//! one on a tenth of them, at least 3):
//!
//! - `point`: `id = X` (one row);
//! - `narrow`: `id >= X AND id < X + 1000`;
//! - `wide`: `id >= X AND id < X + 1000000`;
//! - `string`: `name = 'name N'` (selective, unsorted: rows / 10,000 rows all over the file);
//! - `full` (only when asked for in `--queries`): every row without a predicate, the plain
//!   scan that `wide` (a predicate every row satisfies) should cost about as much as.
//!
//! The sides:
//!
//! - parket: `FileReader::from_bytes`, `scan().predicate(..)`, the batches;
//! - arrow-rs: `ParquetRecordBatchReaderBuilder` with the page index read, the row groups kept
//!   by the predicate column's statistics, a `RowSelection` of the pages whose column index
//!   bounds meet the predicate (every page for `name`, whose pages all span the whole range),
//!   and a `RowFilter` on the rows selected: what an arrow-rs user writes by hand (arrow-rs
//!   leaves predicates to DataFusion);
//! - DuckDB (`lookup_duckdb.py`, one thread, timed in its own process):
//!   `SELECT * FROM read_parquet(FILE) WHERE ...` with the parameters bound.
//!
//! Rounds interleave the three sides; each round times the same parameters on each side. The
//! report gives each side's median time per query over the rounds, the fastest and slowest
//! round, the ratios, and the bytes one query reads on the two Rust sides (counted by their
//! readers).

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use arrow_array::{cast::AsArray, types::Int64Type, BooleanArray};
use bytes::Bytes;
use parquet::arrow::arrow_reader::{
    ArrowPredicateFn, ArrowReaderOptions, ParquetRecordBatchReaderBuilder, RowFilter, RowSelection,
    RowSelector,
};
use parquet::arrow::ProjectionMask;
use parquet::file::metadata::PageIndexPolicy;
use parquet::file::page_index::column_index::ColumnIndexMetaData;
use parquet::file::reader::{ChunkReader, Length};
use parquet::file::statistics::Statistics;

use parket::predicate::Predicate;
use parket::read::FileReader;
use parket::record::Value;
use parket::schema::Schema;
use parket::write::{FileWriter, WriteOptions};

struct Args {
    rows: u64,
    lookups: usize,
    rounds: usize,
    file: PathBuf,
    queries: Vec<String>,
    /// `--only parket|arrow`: time that side alone (for `perf record`), and print its median.
    only: Option<String>,
}

fn args() -> Args {
    let mut a = Args {
        rows: 10_000_000,
        lookups: 100,
        rounds: 7,
        file: PathBuf::from("benches/data/lookup-10m.parquet"),
        queries: ["point", "narrow", "wide", "string"]
            .map(String::from)
            .to_vec(),
        only: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(k) = it.next() {
        let mut v = || it.next().expect("a value after the flag");
        match k.as_str() {
            "--rows" => a.rows = v().parse().expect("--rows N"),
            "--lookups" => a.lookups = v().parse().expect("--lookups N"),
            "--rounds" => a.rounds = v().parse().expect("--rounds N"),
            "--file" => a.file = v().into(),
            "--queries" => a.queries = v().split(',').map(String::from).collect(),
            "--only" => a.only = Some(v()),
            _ => panic!(
                "usage: lookup [--rows N] [--lookups N] [--rounds N] [--file PATH] \
                 [--queries point,narrow,wide,string[,full]] [--only parket|arrow]"
            ),
        }
    }
    a
}

/// Writes the lookup file with parket.
fn generate(path: &std::path::Path, rows: u64) {
    let schema = Schema::parse(
        "message m { required int64 id; required binary name (STRING); optional double value; }",
    )
    .unwrap();
    let options = WriteOptions::default()
        .max_rows_per_page(20_000)
        .column("id", |c| c.bloom_filter(Some(Default::default())))
        .column("name", |c| c.bloom_filter(Some(Default::default())));
    let file = std::fs::File::create(path).unwrap();
    let mut w = FileWriter::new(std::io::BufWriter::new(file), schema, options).unwrap();
    let chunk = 100_000u64;
    let mut start = 0;
    while start < rows {
        let records: Vec<Value> = (start..(start + chunk).min(rows))
            .map(|i| {
                Value::Group(vec![
                    Value::Int64(i as i64),
                    Value::Bytes(format!("name {}", (i * 7919) % 10_000).into_bytes()),
                    if i % 17 == 0 {
                        Value::Null
                    } else {
                        Value::Double(i as f64 * 0.25)
                    },
                ])
            })
            .collect();
        w.write_records(&records).unwrap();
        start += chunk;
    }
    w.finish().unwrap();
}

/// A query: `id` in `lo..hi`, or `name` equal to a string.
#[derive(Clone)]
enum Query {
    Id(i64, i64),
    Name(String),
    /// No predicate: every row.
    All,
}

impl Query {
    fn text(&self) -> String {
        match self {
            Query::Id(lo, hi) if hi - lo == 1 => format!("id = {lo}"),
            Query::Id(lo, hi) => format!("id >= {lo} AND id < {hi}"),
            Query::Name(s) => format!("name = '{s}'"),
            Query::All => "(no predicate)".into(),
        }
    }

    /// parket's predicate, or none.
    fn predicate(&self, schema: &parket::schema::Schema) -> Option<Predicate> {
        match self {
            Query::All => None,
            q => Some(Predicate::parse(&q.text(), schema).unwrap()),
        }
    }

    /// DuckDB's WHERE and its parameters.
    fn duck(&self) -> (&'static str, String) {
        match self {
            Query::Id(lo, hi) if hi - lo == 1 => ("id = ?", format!("[{lo}]")),
            Query::Id(lo, hi) => ("id >= ? AND id < ?", format!("[{lo}, {hi}]")),
            Query::Name(s) => ("name = ?", format!("[\"{s}\"]")),
            Query::All => ("true", "[]".into()),
        }
    }
}

/// parket: the rows that match, every column.
fn parket_query(bytes: &[u8], q: &Query) -> u64 {
    let file = FileReader::from_bytes(bytes).unwrap();
    let mut scan = file.scan();
    if let Some(p) = q.predicate(file.schema()) {
        scan = scan.predicate(p);
    }
    let mut n = 0;
    for batch in scan.build().unwrap() {
        n += batch.unwrap().num_rows();
    }
    n
}

/// `Bytes` that count what arrow-rs asks for.
#[derive(Clone)]
struct Counted {
    bytes: Bytes,
    read: Arc<AtomicU64>,
}

impl Length for Counted {
    fn len(&self) -> u64 {
        self.bytes.len() as u64
    }
}

impl ChunkReader for Counted {
    type T = <Bytes as ChunkReader>::T;

    fn get_read(&self, start: u64) -> parquet::errors::Result<Self::T> {
        // A reader to the end: counted as the rest of the file.
        self.read
            .fetch_add(self.bytes.len() as u64 - start, Ordering::Relaxed);
        self.bytes.get_read(start)
    }

    fn get_bytes(&self, start: u64, length: usize) -> parquet::errors::Result<Bytes> {
        self.read.fetch_add(length as u64, Ordering::Relaxed);
        self.bytes.get_bytes(start, length)
    }
}

/// arrow-rs: row groups by statistics, pages by the column index, then a RowFilter.
fn arrow_query<R: ChunkReader + 'static>(source: R, q: &Query) -> u64 {
    let options = ArrowReaderOptions::new().with_page_index_policy(PageIndexPolicy::Required);
    let builder = ParquetRecordBatchReaderBuilder::try_new_with_options(source, options).unwrap();
    if let Query::All = q {
        return builder
            .build()
            .unwrap()
            .map(|b| b.unwrap().num_rows() as u64)
            .sum();
    }
    let md = builder.metadata().clone();
    let column = match q {
        Query::Id(..) | Query::All => 0,
        Query::Name(_) => 1,
    };
    let mut groups = Vec::new();
    let mut selectors = Vec::new();
    for (g, rg) in md.row_groups().iter().enumerate() {
        let out = match (q, rg.column(column).statistics()) {
            (Query::Id(lo, hi), Some(Statistics::Int64(s))) => {
                s.min_opt().is_some_and(|&min| min >= *hi)
                    || s.max_opt().is_some_and(|&max| max < *lo)
            }
            (Query::Name(x), Some(Statistics::ByteArray(s))) => {
                s.min_opt().is_some_and(|min| min.data() > x.as_bytes())
                    || s.max_opt().is_some_and(|max| max.data() < x.as_bytes())
            }
            _ => false,
        };
        if out {
            continue;
        }
        groups.push(g);
        let index = md.page_index_for_row_group(g);
        let (Query::Id(lo, hi), Some(ColumnIndexMetaData::INT64(ci)), Some(oi)) =
            (q, index.column_index(0), index.offset_index(0))
        else {
            selectors.push(RowSelector::select(rg.num_rows() as usize));
            continue;
        };
        let locs = oi.page_locations();
        for (p, loc) in locs.iter().enumerate() {
            let end = locs.get(p + 1).map_or(rg.num_rows(), |l| l.first_row_index);
            let n = (end - loc.first_row_index) as usize;
            let hit = !ci.is_null_page(p)
                && ci.min_value(p).is_none_or(|&min| min < *hi)
                && ci.max_value(p).is_none_or(|&max| *lo <= max);
            selectors.push(if hit {
                RowSelector::select(n)
            } else {
                RowSelector::skip(n)
            });
        }
    }
    let mask = ProjectionMask::leaves(builder.parquet_schema(), [column]);
    let q2 = q.clone();
    let filter = ArrowPredicateFn::new(mask, move |batch| {
        Ok(match &q2 {
            Query::Id(lo, hi) => {
                let ids = batch.column(0).as_primitive::<Int64Type>();
                BooleanArray::from_unary(ids, |v| *lo <= v && v < *hi)
            }
            Query::Name(x) => {
                let names = batch.column(0).as_string::<i32>();
                names.iter().map(|v| Some(v == Some(x.as_str()))).collect()
            }
            Query::All => BooleanArray::from(vec![true; batch.num_rows()]),
        })
    });
    let reader = builder
        .with_row_groups(groups)
        .with_row_selection(RowSelection::from(selectors))
        .with_row_filter(RowFilter::new(vec![Box::new(filter)]))
        .build()
        .unwrap();
    reader.map(|b| b.unwrap().num_rows() as u64).sum()
}

fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn min_max(v: &[f64]) -> (f64, f64) {
    let min = v.iter().copied().fold(f64::INFINITY, f64::min);
    let max = v.iter().copied().fold(0.0, f64::max);
    (min, max)
}

/// The bytes one parket query reads, through a counting `Read + Seek`.
fn parket_bytes(bytes: &Bytes, q: &Query) -> u64 {
    let read = Arc::new(AtomicU64::new(0));
    struct R(std::io::Cursor<Bytes>, Arc<AtomicU64>);
    impl std::io::Read for R {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.0.read(buf)?;
            self.1.fetch_add(n as u64, Ordering::Relaxed);
            Ok(n)
        }
    }
    impl std::io::Seek for R {
        fn seek(&mut self, to: std::io::SeekFrom) -> std::io::Result<u64> {
            self.0.seek(to)
        }
    }
    let f = FileReader::new(R(std::io::Cursor::new(bytes.clone()), read.clone())).unwrap();
    let mut scan = f.scan();
    if let Some(p) = q.predicate(f.schema()) {
        scan = scan.predicate(p);
    }
    let _: u64 = scan.build().unwrap().map(|b| b.unwrap().num_rows()).sum();
    read.load(Ordering::Relaxed)
}

fn main() {
    let a = args();
    if !a.file.exists() {
        eprintln!("writing {} ({} rows)", a.file.display(), a.rows);
        if let Some(d) = a.file.parent() {
            std::fs::create_dir_all(d).unwrap();
        }
        let t = Instant::now();
        generate(&a.file, a.rows);
        eprintln!("written in {:.1} s", t.elapsed().as_secs_f64());
    }
    let bytes = Bytes::from(std::fs::read(&a.file).unwrap());
    let file = FileReader::from_bytes(&bytes).unwrap();
    let rows: u64 = file
        .metadata()
        .row_groups
        .iter()
        .map(|g| g.num_rows as u64)
        .sum();
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let mut kinds: Vec<(String, Vec<Query>)> = Vec::new();
    for kind in &a.queries {
        let (count, width) = match kind.as_str() {
            "point" => (a.lookups, 1),
            "narrow" => (a.lookups, 1000),
            "wide" => ((a.lookups / 10).max(3), 1_000_000),
            "string" => ((a.lookups / 10).max(3), 0),
            "full" => ((a.lookups / 10).max(3), u64::MAX),
            _ => panic!("--queries: point, narrow, wide, string, full"),
        };
        let qs = (0..count)
            .map(|_| match width {
                0 => Query::Name(format!("name {}", next(10_000))),
                u64::MAX => Query::All,
                w => {
                    let lo = next(rows.saturating_sub(w).max(1)) as i64;
                    Query::Id(lo, lo + w as i64)
                }
            })
            .collect();
        kinds.push((kind.clone(), qs));
    }
    if let Some(side) = &a.only {
        for (kind, qs) in &kinds {
            let mut t = Vec::new();
            for _ in 0..a.rounds {
                let start = Instant::now();
                for q in qs {
                    match side.as_str() {
                        "parket" => parket_query(&bytes, q),
                        "arrow" => arrow_query(bytes.clone(), q),
                        _ => panic!("--only parket|arrow"),
                    };
                }
                t.push(start.elapsed().as_secs_f64() / qs.len() as f64);
            }
            println!("{side} {kind}: median {:.1} us per query", median(&t) * 1e6);
        }
        return;
    }
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("lookup_duckdb.py");
    let mut duck = Command::new("python3")
        .arg(&script)
        .arg(&a.file)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 with duckdb");
    let mut duck_in = duck.stdin.take().unwrap();
    let mut duck_out = BufReader::new(duck.stdout.take().unwrap());
    let load = |when: &str| {
        let l = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
        format!(
            "{when} {}",
            l.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
        )
    };
    let load_before = load("before");
    let mut report = Vec::new();
    for (kind, qs) in &kinds {
        // Every side finds the same rows, and the bytes one query reads.
        let first = &qs[0];
        let expect: Vec<u64> = qs.iter().map(|q| arrow_query(bytes.clone(), q)).collect();
        for (q, &n) in qs.iter().zip(&expect).take(5) {
            assert_eq!(parket_query(&bytes, q), n, "parket, {}", q.text());
        }
        let total: u64 = expect.iter().sum();
        let pb = parket_bytes(&bytes, first);
        let ab = {
            let read = Arc::new(AtomicU64::new(0));
            let c = Counted {
                bytes: bytes.clone(),
                read: read.clone(),
            };
            arrow_query(c, first);
            read.load(Ordering::Relaxed)
        };
        let (where_, _) = first.duck();
        let params: Vec<String> = qs.iter().map(|q| q.duck().1).collect();
        let line = format!(
            "{{\"where\": \"{where_}\", \"params\": [{}]}}",
            params.join(", ")
        );
        let (mut tp, mut ta, mut td) = (Vec::new(), Vec::new(), Vec::new());
        for round in 0..a.rounds {
            let t = Instant::now();
            let n: u64 = qs.iter().map(|q| parket_query(&bytes, q)).sum();
            tp.push(t.elapsed().as_secs_f64() / qs.len() as f64);
            assert_eq!(n, total, "parket rows");
            let t = Instant::now();
            let n: u64 = qs.iter().map(|q| arrow_query(bytes.clone(), q)).sum();
            ta.push(t.elapsed().as_secs_f64() / qs.len() as f64);
            assert_eq!(n, total, "arrow-rs rows");
            writeln!(duck_in, "{line}").unwrap();
            duck_in.flush().unwrap();
            let mut reply = String::new();
            duck_out.read_line(&mut reply).unwrap();
            let mut parts = reply.split_whitespace();
            let secs: f64 = parts.next().unwrap().parse().unwrap();
            let n: u64 = parts.next().unwrap().parse().unwrap();
            assert_eq!(n, total, "DuckDB rows");
            td.push(secs / qs.len() as f64);
            eprintln!(
                "{kind} round {round}: parket {:.1} us, arrow-rs {:.1} us, DuckDB {:.1} us per query",
                tp[round] * 1e6,
                ta[round] * 1e6,
                td[round] * 1e6
            );
        }
        report.push((
            kind.clone(),
            qs.len(),
            total,
            first.text(),
            pb,
            ab,
            tp,
            ta,
            td,
        ));
    }
    drop(duck_in);
    let _ = duck.wait();
    println!(
        "file: {} ({} rows, {} bytes, {} row groups); {} rounds; load average {}, {}",
        a.file.display(),
        rows,
        bytes.len(),
        file.num_row_groups(),
        a.rounds,
        load_before,
        load("after")
    );
    println!();
    println!("| query | side | median per query | fastest .. slowest round | parket faster by | bytes read by the first query |");
    println!("|---|---|---:|---:|---:|---:|");
    let us = |v: &[f64]| {
        let (lo, hi) = min_max(v);
        (median(v) * 1e6, lo * 1e6, hi * 1e6)
    };
    for (kind, n, total, text, pb, ab, tp, ta, td) in &report {
        let (p, plo, phi) = us(tp);
        let (ar, alo, ahi) = us(ta);
        let (d, dlo, dhi) = us(td);
        let what = format!("{kind} ({n} queries, {total} rows in all; first: `{text}`)");
        println!("| {what} | parket scan | {p:.1} us | {plo:.1} .. {phi:.1} | 1.00x | {pb} |");
        println!(
            "| | arrow-rs page index + RowSelection + RowFilter | {ar:.1} us | {alo:.1} .. {ahi:.1} | {:.2}x | {ab} |",
            ar / p
        );
        println!(
            "| | DuckDB (1 thread) | {d:.1} us | {dlo:.1} .. {dhi:.1} | {:.2}x | - |",
            d / p
        );
    }
}
