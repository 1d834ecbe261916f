//! `lookup`: point lookups (`id = X`) on a file sorted by `id` with statistics, a page index
//! and a Bloom filter on `id`: parket's scan against arrow-rs's page-index path and DuckDB.
//!
//! ```text
//! cargo run --release --manifest-path benches/Cargo.toml --bin lookup -- \
//!     [--rows 2000000] [--lookups 100] [--rounds 7] [--file benches/data/lookup.parquet]
//! ```
//!
//! The file (written by parket when missing: `id` INT64 0..rows, `name` a string of 10,000
//! distinct values, `value` an optional DOUBLE; row groups of 1 Mi rows, pages of at most
//! 20,000 rows, page index, statistics and a Bloom filter on `id`) is read into memory once.
//! Each lookup starts from the bytes (every side parses the footer and the indexes again, as a
//! query does) and yields every column of the matching row:
//!
//! - parket: `FileReader::from_bytes`, `scan().predicate(id = X)`, the batches;
//! - arrow-rs: `ParquetRecordBatchReaderBuilder` with the page index read, the row groups kept
//!   by their `id` statistics, a `RowSelection` of the pages whose `id` column index bounds hold
//!   X, and a `RowFilter` (`id == X`) on the rows selected: what an arrow-rs user writes by hand
//!   (arrow-rs leaves predicates to DataFusion);
//! - DuckDB (`lookup_duckdb.py`, one thread, timed in its own process):
//!   `SELECT * FROM read_parquet(FILE) WHERE id = X`.
//!
//! Rounds interleave the three sides; each round times the same `--lookups` ids on each side.
//! The report gives each side's median time per lookup over the rounds and the ratios, and the
//! bytes one lookup reads on the two Rust sides (counted by their readers).

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use arrow_array::{cast::AsArray, types::Int64Type, BooleanArray};
use bytes::Bytes;
use parquet::arrow::arrow_reader::{
    ArrowPredicateFn, ArrowReaderOptions, ParquetRecordBatchReaderBuilder, RowFilter,
    RowSelection, RowSelector,
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
}

fn args() -> Args {
    let mut a = Args {
        rows: 2_000_000,
        lookups: 100,
        rounds: 7,
        file: PathBuf::from("benches/data/lookup.parquet"),
    };
    let mut it = std::env::args().skip(1);
    while let Some(k) = it.next() {
        let mut v = || it.next().expect("a value after the flag");
        match k.as_str() {
            "--rows" => a.rows = v().parse().expect("--rows N"),
            "--lookups" => a.lookups = v().parse().expect("--lookups N"),
            "--rounds" => a.rounds = v().parse().expect("--rounds N"),
            "--file" => a.file = v().into(),
            _ => panic!("usage: lookup [--rows N] [--lookups N] [--rounds N] [--file PATH]"),
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
        .column("id", |c| c.bloom_filter(Some(Default::default())));
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

/// parket: the rows where `id = x`, every column.
fn parket_lookup(bytes: &[u8], x: i64) -> u64 {
    let file = FileReader::from_bytes(bytes).unwrap();
    let p = Predicate::parse(&format!("id = {x}"), file.schema()).unwrap();
    let mut n = 0;
    for batch in file.scan().predicate(p).build().unwrap() {
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
fn arrow_lookup<R: ChunkReader + 'static>(source: R, x: i64) -> u64 {
    let options = ArrowReaderOptions::new().with_page_index_policy(PageIndexPolicy::Required);
    let builder = ParquetRecordBatchReaderBuilder::try_new_with_options(source, options).unwrap();
    let md = builder.metadata().clone();
    let mut groups = Vec::new();
    let mut selectors = Vec::new();
    for (g, rg) in md.row_groups().iter().enumerate() {
        if let Some(Statistics::Int64(s)) = rg.column(0).statistics() {
            if s.min_opt().is_some_and(|&lo| x < lo) || s.max_opt().is_some_and(|&hi| x > hi) {
                continue;
            }
        }
        groups.push(g);
        let index = md.page_index_for_row_group(g);
        let (Some(ColumnIndexMetaData::INT64(ci)), Some(oi)) =
            (index.column_index(0), index.offset_index(0))
        else {
            selectors.push(RowSelector::select(rg.num_rows() as usize));
            continue;
        };
        let locs = oi.page_locations();
        for (p, loc) in locs.iter().enumerate() {
            let end = locs
                .get(p + 1)
                .map_or(rg.num_rows(), |l| l.first_row_index);
            let n = (end - loc.first_row_index) as usize;
            let hit = !ci.is_null_page(p)
                && ci.min_value(p).is_none_or(|&lo| lo <= x)
                && ci.max_value(p).is_none_or(|&hi| x <= hi);
            selectors.push(if hit {
                RowSelector::select(n)
            } else {
                RowSelector::skip(n)
            });
        }
    }
    let id = ProjectionMask::leaves(builder.parquet_schema(), [0]);
    let filter = ArrowPredicateFn::new(id, move |batch| {
        let ids = batch.column(0).as_primitive::<Int64Type>();
        Ok(BooleanArray::from_unary(ids, |v| v == x))
    });
    let reader = builder
        .with_row_groups(groups)
        .with_row_selection(RowSelection::from(selectors))
        .with_row_filter(RowFilter::new(vec![Box::new(filter)]))
        .build()
        .unwrap();
    reader.map(|b| b.unwrap().num_rows() as u64).sum()
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let a = args();
    if !a.file.exists() {
        eprintln!("writing {} ({} rows)", a.file.display(), a.rows);
        if let Some(d) = a.file.parent() {
            std::fs::create_dir_all(d).unwrap();
        }
        generate(&a.file, a.rows);
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
    let ids: Vec<i64> = (0..a.lookups)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % rows) as i64
        })
        .collect();
    // Every side finds each id once.
    for &x in ids.iter().take(5) {
        assert_eq!(parket_lookup(&bytes, x), 1, "parket, id = {x}");
        assert_eq!(arrow_lookup(bytes.clone(), x), 1, "arrow-rs, id = {x}");
    }
    // Bytes one lookup reads.
    let x = ids[0];
    let parket_bytes = {
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
        let p = Predicate::parse(&format!("id = {x}"), f.schema()).unwrap();
        let n: u64 = f
            .scan()
            .predicate(p)
            .build()
            .unwrap()
            .map(|b| b.unwrap().num_rows())
            .sum();
        assert_eq!(n, 1);
        read.load(Ordering::Relaxed)
    };
    let arrow_bytes = {
        let read = Arc::new(AtomicU64::new(0));
        let n = arrow_lookup(
            Counted {
                bytes: bytes.clone(),
                read: read.clone(),
            },
            x,
        );
        assert_eq!(n, 1);
        read.load(Ordering::Relaxed)
    };
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
    let line: String = ids.iter().map(|x| format!("{x} ")).collect();
    let (mut tp, mut ta, mut td) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..a.rounds {
        let t = Instant::now();
        let n: u64 = ids.iter().map(|&x| parket_lookup(&bytes, x)).sum();
        tp.push(t.elapsed().as_secs_f64() / ids.len() as f64);
        assert_eq!(n, ids.len() as u64);
        let t = Instant::now();
        let n: u64 = ids.iter().map(|&x| arrow_lookup(bytes.clone(), x)).sum();
        ta.push(t.elapsed().as_secs_f64() / ids.len() as f64);
        assert_eq!(n, ids.len() as u64);
        writeln!(duck_in, "{line}").unwrap();
        duck_in.flush().unwrap();
        let mut reply = String::new();
        duck_out.read_line(&mut reply).unwrap();
        let mut parts = reply.split_whitespace();
        let secs: f64 = parts.next().unwrap().parse().unwrap();
        let n: u64 = parts.next().unwrap().parse().unwrap();
        assert_eq!(n, ids.len() as u64, "DuckDB rows");
        td.push(secs / ids.len() as f64);
        eprintln!(
            "round {round}: parket {:.1} us, arrow-rs {:.1} us, DuckDB {:.1} us per lookup",
            tp[round] * 1e6,
            ta[round] * 1e6,
            td[round] * 1e6
        );
    }
    drop(duck_in);
    let _ = duck.wait();
    let (p, ar, d) = (median(&mut tp), median(&mut ta), median(&mut td));
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "file: {} ({} rows, {} bytes, {} row groups); {} lookups x {} rounds; load average {}",
        a.file.display(),
        rows,
        bytes.len(),
        file.num_row_groups(),
        a.lookups,
        a.rounds,
        load.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
    );
    println!();
    println!("| side | median per lookup | parket faster by | bytes read by one lookup |");
    println!("|---|---:|---:|---:|");
    println!("| parket scan | {:.1} us | 1.00x | {parket_bytes} |", p * 1e6);
    println!(
        "| arrow-rs page index + RowSelection + RowFilter | {:.1} us | {:.2}x | {arrow_bytes} |",
        ar * 1e6,
        ar / p
    );
    println!(
        "| DuckDB (1 thread) | {:.1} us | {:.2}x | - |",
        d * 1e6,
        d / p
    );
}
