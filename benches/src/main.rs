//! `bench`: parket and arrow-rs side by side on the same Parquet bytes in memory.
//!
//! ```text
//! cargo run --release --manifest-path benches/Cargo.toml -- \
//!     [--data benches/data] [--runs 5] [--filter taxi] [--out benches/RESULTS.md]
//! ```
//!
//! For every `*.parquet` file under `--data` (written by `gen.py`) and every measurement, the
//! harness starts itself again as a child process (`--child MEASUREMENT FILE`). The child
//! reads the file into memory once, prepares the untimed input (for a write: the Arrow batches
//! or parket's input, decoded from the file), resets the kernel's peak-RSS counter, runs the
//! measurement once to warm up and then `--runs` times, and prints the median and minimum wall
//! time, the peak RSS reached above the RSS it had once the input was ready, and checks. One
//! process per measurement gives each its own peak and a fresh allocator; everything runs on
//! one thread (arrow-rs's readers and writer are single-threaded, zstd is used without
//! workers).
//!
//! Throughput is the same number of bytes for every column of a file's row: the Arrow
//! in-memory size of the whole table (the sum of the lengths of all Arrow buffers of the
//! batches arrow-rs's Arrow reader returns: values, offsets, validity bitmaps, children), in
//! MB (10^6 bytes) per second. So MB/s are comparable across read paths and with the writes.

mod arrow_read;
mod arrow_side;
mod config;
mod duckdb;
mod parallel_write;
mod parket_side;
mod typed;
mod whole_process;

use bytes::Bytes;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// Data sets in report order; files of other data sets follow, alphabetically.
const DATASETS: [&str; 3] = ["taxi", "strings", "nested"];
/// Configurations in report order (`gen.py`'s names).
const CONFIGS: [&str; 7] = [
    "v1-dict-none",
    "v1-dict-snappy",
    "v1-dict-zstd",
    "v2-dict-none",
    "v2-dict-snappy",
    "v2-dict-zstd",
    "v2-plain-delta",
];
/// Timings whose slowest run exceeds this multiple of the fastest are listed as noisy.
const NOISY_SPREAD: f64 = 1.25;
/// The measurements, each run in its own child process.
const MEASUREMENTS: [&str; 6] = [
    "arrow-columns",
    "arrow-arrow",
    "parket-columns",
    "parket-records",
    "arrow-write",
    "parket-write",
];

struct Args {
    data: PathBuf,
    runs: usize,
    filter: Option<String>,
    out: Option<PathBuf>,
    child: Option<(String, PathBuf)>,
    arrow_decode: Option<PathBuf>,
    whole_process: Option<PathBuf>,
    arrow_read: bool,
    /// `--side parket|arrow-rs` with `--arrow-read`: only that reader, no comparison.
    side: Option<String>,
    /// `--parallel-write`: the thread count to compare with one (0: every core).
    parallel_write: Option<usize>,
    duckdb: bool,
    parket: Option<PathBuf>,
    typed: bool,
}

fn usage() -> ! {
    eprintln!(
        "usage: bench [--data DIR] [--runs N] [--filter SUBSTRING] [--out FILE.md]\n\
         \n\
         --data    directory of gen.py's files (default: the benches/data beside this crate)\n\
         --runs    timed runs per measurement, after one warm-up run; the median is reported\n\
         \x20         (default 5)\n\
         --filter  only files whose name contains SUBSTRING (e.g. taxi, v2-dict-zstd)\n\
         --out     also write the report to this file\n\
         --whole-process PARKET_BIN\n\
         \x20         instead: time `PARKET_BIN check FILE` against a process that decodes FILE\n\
         \x20         with arrow-rs's low-level readers (`bench --arrow-decode FILE`)\n\
         --arrow-read\n\
         \x20         instead: parket::arrow::BatchReader against arrow-rs's\n\
         \x20         ParquetRecordBatchReader, in one process, --runs interleaved rounds;\n\
         \x20         with --side parket|arrow-rs only that reader, --runs reads of each file\n\
         \x20         and no comparison (for `perf stat -e instructions:u`)\n\
         --parallel-write [--threads N]\n\
         \x20         instead: parket's writer with 1 thread against N (default every core),\n\
         \x20         in one process, --runs interleaved rounds; the files must be identical\n\
         --duckdb [--parket PARKET_BIN]\n\
         \x20         instead: DuckDB's full-decode query (1 thread and all threads, and its\n\
         \x20         scan operator's time) beside arrow-rs and parket, and with --parket\n\
         \x20         `PARKET_BIN check FILE` as a whole process (benches/src/duckdb.rs)\n\
         --typed\n\
         \x20         instead: Rust structs (nested and taxi) written and read by parket's\n\
         \x20         derive, its Value path, arrow-rs's Arrow path and parquet_derive"
    );
    std::process::exit(2)
}

fn parse_args() -> Args {
    let mut args = Args {
        data: Path::new(env!("CARGO_MANIFEST_DIR")).join("data"),
        runs: 5,
        filter: None,
        out: None,
        child: None,
        arrow_decode: None,
        whole_process: None,
        arrow_read: false,
        side: None,
        parallel_write: None,
        duckdb: false,
        parket: None,
        typed: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = || it.next().unwrap_or_else(|| usage());
        match arg.as_str() {
            "--data" => args.data = value().into(),
            "--runs" => args.runs = value().parse().unwrap_or_else(|_| usage()),
            "--filter" => args.filter = Some(value()),
            "--out" => args.out = Some(value().into()),
            "--arrow-decode" => args.arrow_decode = Some(value().into()),
            "--whole-process" => args.whole_process = Some(value().into()),
            "--arrow-read" => args.arrow_read = true,
            "--side" => args.side = Some(value()),
            "--parallel-write" => args.parallel_write = Some(args.parallel_write.unwrap_or(0)),
            "--threads" => args.parallel_write = Some(value().parse().unwrap_or_else(|_| usage())),
            "--duckdb" => args.duckdb = true,
            "--parket" => args.parket = Some(value().into()),
            "--typed" => args.typed = true,
            "--child" => {
                let measurement = value();
                args.child = Some((measurement, value().into()));
            }
            _ => usage(),
        }
    }
    if args.runs == 0 {
        usage()
    }
    args
}

fn main() {
    let args = parse_args();
    if let Some((measurement, file)) = &args.child {
        child(measurement, file, args.runs);
        return;
    }
    if args.typed {
        report(&args, |files| typed::run(files, args.runs));
        return;
    }
    if let Some(threads) = args.parallel_write {
        let threads = match threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        };
        report(&args, |files| {
            parallel_write::run(files, args.runs, threads)
        });
        return;
    }
    if args.duckdb {
        report(&args, |files| {
            duckdb::run(files, args.runs, args.parket.as_deref())
        });
        return;
    }
    if args.arrow_read {
        if let Some(side) = &args.side {
            report(&args, |files| arrow_read::one_side(files, args.runs, side));
            return;
        }
        report(&args, |files| arrow_read::run(files, args.runs));
        return;
    }
    let done = match (&args.arrow_decode, &args.whole_process) {
        (Some(file), _) => whole_process::arrow_decode(file),
        (None, Some(parket)) => matching_files(&args)
            .and_then(|files| whole_process::compare(parket, &files, args.runs))
            .and_then(|table| {
                print!("{table}");
                match &args.out {
                    Some(out) => std::fs::write(out, &table).map_err(|e| e.to_string()),
                    None => Ok(()),
                }
            }),
        (None, None) => parent(&args),
    };
    if let Err(message) = done {
        eprintln!("bench: {message}");
        std::process::exit(1);
    }
}

/// Runs a one-process comparison over the matching files; prints its table (and writes it to
/// `--out`), or the error, exiting 1.
fn report(args: &Args, run: impl FnOnce(&[PathBuf]) -> Result<String, String>) {
    let done = matching_files(args)
        .and_then(|files| run(&files))
        .and_then(|table| {
            print!("{table}");
            match &args.out {
                Some(out) => std::fs::write(out, &table).map_err(|e| e.to_string()),
                None => Ok(()),
            }
        });
    if let Err(message) = done {
        eprintln!("bench: {message}");
        std::process::exit(1);
    }
}

// ---------------------------------------------------------------------------------------------
// Child: one measurement on one file.

/// What one timed run did: a count to check, and the bytes written (writes only).
struct Run {
    count: usize,
    written: Option<Vec<u8>>,
}

enum Outcome {
    NotAvailable,
    Failed(String),
}

impl From<parket_side::SideError> for Outcome {
    fn from(e: parket_side::SideError) -> Self {
        match e {
            parket_side::SideError::NotYetAvailable => Outcome::NotAvailable,
            parket_side::SideError::Failed(m) => Outcome::Failed(format!("parket: {m}")),
        }
    }
}

impl From<parquet::errors::ParquetError> for Outcome {
    fn from(e: parquet::errors::ParquetError) -> Self {
        Outcome::Failed(format!("arrow-rs: {e}"))
    }
}

fn child(measurement: &str, file: &Path, runs: usize) {
    if let Some(k) = measurement.strip_prefix("typed:") {
        match k
            .parse()
            .map_err(|e| format!("{e}"))
            .and_then(|k| typed::time_path(file, k))
        {
            Ok(Some(d)) => println!("RESULT status=ok median_ns={}", d.as_nanos()),
            Ok(None) => println!("RESULT status=na"),
            Err(m) => println!("RESULT status=error msg={}", m.replace('\n', " ")),
        }
        return;
    }
    match measure(measurement, file, runs) {
        Ok(line) => println!("RESULT status=ok {line}"),
        Err(Outcome::NotAvailable) => println!("RESULT status=na"),
        Err(Outcome::Failed(m)) => println!("RESULT status=error msg={}", m.replace('\n', " ")),
    }
}

fn measure(measurement: &str, file: &Path, runs: usize) -> Result<String, Outcome> {
    let bytes = Bytes::from(
        std::fs::read(file).map_err(|e| Outcome::Failed(format!("{}: {e}", file.display())))?,
    );
    let mut extra = String::new();
    // Untimed preparation, then the timed closure.
    let mut timed: Box<dyn FnMut() -> Result<Run, Outcome>> = match measurement {
        "arrow-columns" => Box::new(|| {
            Ok(Run {
                count: arrow_side::decode_all_columns(&bytes)?,
                written: None,
            })
        }),
        "arrow-arrow" => {
            // The Arrow size is computed after the timed runs (below), so that the memory
            // this pass frees is not already resident when the peak counter is reset.
            Box::new(|| {
                let rows = arrow_side::read_arrow(&bytes, |b| drop(std::hint::black_box(b)))?;
                Ok(Run {
                    count: rows,
                    written: None,
                })
            })
        }
        "parket-columns" => Box::new(|| {
            Ok(Run {
                count: parket_side::decode_all_columns(&bytes)?,
                written: None,
            })
        }),
        "parket-records" => Box::new(|| {
            Ok(Run {
                count: parket_side::assemble_records(&bytes)?,
                written: None,
            })
        }),
        "arrow-write" => {
            let mut batches = Vec::new();
            arrow_side::read_arrow(&bytes, |b| batches.push(b))?;
            let config = arrow_side::write_config(&bytes)?;
            let properties = arrow_side::writer_properties(&config)?;
            Box::new(move || {
                let out = arrow_side::write(&batches, &properties)?;
                Ok(Run {
                    count: batches.iter().map(|b| b.num_rows()).sum(),
                    written: Some(out),
                })
            })
        }
        "parket-write" => {
            let input = parket_side::prepare_write_input(&bytes)?;
            let config = arrow_side::write_config(&bytes)?;
            Box::new(move || {
                let out = parket_side::write(&input, &config)?;
                Ok(Run {
                    count: 0,
                    written: Some(out),
                })
            })
        }
        other => {
            // `parket-write-columns:N`: the `--parallel-write` path (one `write_columns` call
            // per row group) with N threads, alone in a process, for profilers.
            let threads = other
                .strip_prefix("parket-write-columns:")
                .and_then(|n| n.parse().ok())
                .ok_or_else(|| Outcome::Failed(format!("unknown measurement {other}")))?;
            let input = parket_side::prepare_write_input(&bytes)?;
            let config = arrow_side::write_config(&bytes)?;
            Box::new(move || {
                let out = parket_side::write_columns(&input, &config, threads)?;
                Ok(Run {
                    count: 0,
                    written: Some(out),
                })
            })
        }
    };

    let base_kib = reset_peak_rss();
    let first = timed()?; // warm-up, not timed
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let start = Instant::now();
        let run = timed()?;
        times.push(start.elapsed());
        if run.count != first.count {
            return Err(Outcome::Failed(format!(
                "count changed between runs: {} then {}",
                first.count, run.count
            )));
        }
        drop(std::hint::black_box(run));
    }
    let peak_kib = status_kib("VmHWM:");
    drop(timed);
    if measurement == "arrow-arrow" {
        let mut arrow_bytes = 0;
        arrow_side::read_arrow(&bytes, |b| arrow_bytes += arrow_side::batch_bytes(&b))?;
        write!(extra, " arrow_bytes={arrow_bytes}").ok();
    }
    times.sort();
    let median = times[times.len() / 2];
    let (min, max) = (times[0], times[times.len() - 1]);
    let mut line = format!(
        "median_ns={} min_ns={} max_ns={} count={}{extra}",
        median.as_nanos(),
        min.as_nanos(),
        max.as_nanos(),
        first.count
    );
    match (base_kib, peak_kib) {
        (Some(base), Some(peak)) => write!(line, " peak_kib={}", peak.saturating_sub(base)),
        _ => Ok(()),
    }
    .ok();
    if let Some(written) = first.written {
        // For a look at the file itself (page layout, sizes): BENCH_SAVE_WRITTEN=PATH.
        if let Some(path) = std::env::var_os("BENCH_SAVE_WRITTEN") {
            std::fs::write(&path, &written)
                .map_err(|e| Outcome::Failed(format!("BENCH_SAVE_WRITTEN: {e}")))?;
        }
        write!(
            line,
            " out_bytes={} same_data={}",
            written.len(),
            same_data(&bytes, written)
        )
        .ok();
    }
    Ok(line)
}

/// Whether a written file reads back (with arrow-rs) as the same data as the source file,
/// column by column (logical equality of the Arrow arrays, batch boundaries ignored).
fn same_data(source: &Bytes, written: Vec<u8>) -> String {
    let read = |bytes: &Bytes| {
        let mut batches = Vec::new();
        arrow_side::read_arrow(bytes, |b| batches.push(b)).map(|_| batches)
    };
    let (a, b) = match (read(source), read(&Bytes::from(written))) {
        (Ok(a), Ok(b)) => (a, b),
        (_, Err(e)) => return format!("unreadable:{}", e.to_string().replace(' ', "_")),
        (Err(_), _) => return "source-unreadable".into(),
    };
    let columns = a.first().map_or(0, |b| b.num_columns());
    if b.first().map_or(0, |b| b.num_columns()) != columns {
        return "column-count-differs".into();
    }
    for i in 0..columns {
        let concat = |batches: &[arrow_array::RecordBatch]| {
            let arrays: Vec<&dyn arrow_array::Array> =
                batches.iter().map(|b| b.column(i).as_ref()).collect();
            arrow_select::concat::concat(&arrays).map(|a| a.to_data())
        };
        match (concat(&a), concat(&b)) {
            (Ok(x), Ok(y)) if x == y => {}
            _ => return format!("column-{i}-differs"),
        }
    }
    "yes".into()
}

/// Resets the kernel's peak-RSS counter of this process (writing 5 to /proc/self/clear_refs,
/// Linux 4.0+) and returns the current RSS in KiB, or None where that is not possible.
fn reset_peak_rss() -> Option<u64> {
    std::fs::write("/proc/self/clear_refs", "5").ok()?;
    status_kib("VmRSS:")
}

/// A `kB` field of /proc/self/status.
fn status_kib(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line[field.len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}

// ---------------------------------------------------------------------------------------------
// Parent: run the children, print the tables.

/// A child's result line, parsed.
#[derive(Default, Clone)]
pub(crate) struct Measured {
    status: String,
    message: String,
    median: Option<Duration>,
    min: Option<Duration>,
    max: Option<Duration>,
    count: Option<u64>,
    peak_kib: Option<u64>,
    out_bytes: Option<u64>,
    arrow_bytes: Option<u64>,
    same_data: Option<String>,
}

pub(crate) fn run_child(exe: &Path, measurement: &str, file: &Path, runs: usize) -> Measured {
    let output = Command::new(exe)
        .arg("--child")
        .arg(measurement)
        .arg(file)
        .arg("--runs")
        .arg(runs.to_string())
        .output();
    let output = match output {
        Ok(o) => o,
        Err(e) => {
            return Measured {
                status: "error".into(),
                message: e.to_string(),
                ..Default::default()
            }
        }
    };
    let stdout = String::from_utf8_lossy(&output.stdout);
    let Some(line) = stdout.lines().find_map(|l| l.strip_prefix("RESULT ")) else {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let last = stderr
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("");
        return Measured {
            status: "error".into(),
            message: format!("child failed ({}): {last}", output.status),
            ..Default::default()
        };
    };
    let mut m = Measured::default();
    if let Some(msg) = line.split_once(" msg=") {
        m.message = msg.1.to_string();
    }
    for field in line.split(' ') {
        let Some((key, value)) = field.split_once('=') else {
            continue;
        };
        let n = value.parse::<u64>().ok();
        match key {
            "status" => m.status = value.to_string(),
            "median_ns" => m.median = n.map(Duration::from_nanos),
            "min_ns" => m.min = n.map(Duration::from_nanos),
            "max_ns" => m.max = n.map(Duration::from_nanos),
            "count" => m.count = n,
            "peak_kib" => m.peak_kib = n,
            "out_bytes" => m.out_bytes = n,
            "arrow_bytes" => m.arrow_bytes = n,
            "same_data" => m.same_data = Some(value.to_string()),
            _ => {}
        }
    }
    m
}

struct FileResult {
    config: String,
    file_bytes: u64,
    rows: Option<u64>,
    results: Vec<Measured>,
}

impl FileResult {
    fn get(&self, measurement: &str) -> &Measured {
        let i = MEASUREMENTS
            .iter()
            .position(|m| *m == measurement)
            .unwrap_or(0);
        &self.results[i]
    }

    fn arrow_bytes(&self) -> Option<u64> {
        self.get("arrow-arrow").arrow_bytes
    }

    /// MB/s of a measurement, against the Arrow size of the table.
    fn mbps(&self, measurement: &str) -> Option<f64> {
        let m = self.get(measurement);
        let secs = m.median?.as_secs_f64();
        (m.status == "ok").then(|| self.arrow_bytes().map(|b| b as f64 / 1e6 / secs))?
    }
}

/// A cell: the number, "n/a" when parket's side is not available yet, "error" otherwise.
fn cell(m: &Measured, value: Option<String>) -> String {
    match m.status.as_str() {
        "ok" => value.unwrap_or_else(|| "?".into()),
        "na" => "n/a".into(),
        _ => "error".into(),
    }
}

fn fmt_mbps(v: Option<f64>) -> Option<String> {
    v.map(|v| format!("{v:.0}"))
}

fn ratio(a: Option<f64>, b: Option<f64>) -> String {
    match (a, b) {
        (Some(a), Some(b)) if b > 0.0 => format!("{:.2}x", a / b),
        _ => "n/a".into(),
    }
}

fn mib(kib: Option<u64>) -> Option<String> {
    kib.map(|k| format!("{:.1}", k as f64 / 1024.0))
}

fn peaks(f: &FileResult, measurements: &[&str]) -> String {
    measurements
        .iter()
        .map(|m| {
            let r = f.get(m);
            cell(r, mib(r.peak_kib))
        })
        .collect::<Vec<_>>()
        .join(" / ")
}

fn dataset_and_config(stem: &str) -> (String, String) {
    for config in CONFIGS {
        if let Some(dataset) = stem.strip_suffix(config).and_then(|d| d.strip_suffix('-')) {
            return (dataset.to_string(), config.to_string());
        }
    }
    (stem.to_string(), String::new())
}

fn sort_key(stem: &str) -> (usize, String, usize) {
    let (dataset, config) = dataset_and_config(stem);
    let d = DATASETS
        .iter()
        .position(|d| *d == dataset)
        .unwrap_or(DATASETS.len());
    let c = CONFIGS
        .iter()
        .position(|c| *c == config)
        .unwrap_or(CONFIGS.len());
    (d, dataset, c)
}

/// The `.parquet` files under `--data` whose names contain `--filter`, in report order.
fn matching_files(args: &Args) -> Result<Vec<PathBuf>, String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(&args.data)
        .map_err(|e| format!("{}: {e} (run benches/gen.py first)", args.data.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "parquet"))
        .filter(|p| {
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            args.filter
                .as_ref()
                .is_none_or(|f| name.contains(f.as_str()))
        })
        .collect();
    let stem = |p: &PathBuf| {
        p.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    files.sort_by_key(|p| sort_key(&stem(p)));
    if files.is_empty() {
        return Err(format!(
            "no matching .parquet files in {}",
            args.data.display()
        ));
    }
    Ok(files)
}

fn parent(args: &Args) -> Result<(), String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let files = matching_files(args)?;
    let stem = |p: &PathBuf| {
        p.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let mut report = header(args);
    let mut current: Option<String> = None;
    let mut group: Vec<FileResult> = Vec::new();
    let flush = |dataset: &str, group: &mut Vec<FileResult>, report: &mut String| {
        if !group.is_empty() {
            let table = tables(dataset, group);
            print!("{table}");
            report.push_str(&table);
            group.clear();
        }
    };
    print!("{report}");
    for file in &files {
        let (dataset, config) = dataset_and_config(&stem(file));
        if current.as_deref() != Some(dataset.as_str()) {
            if let Some(d) = current.take() {
                flush(&d, &mut group, &mut report);
            }
            current = Some(dataset.clone());
        }
        eprintln!("bench: {}", file.display());
        let results: Vec<Measured> = MEASUREMENTS
            .iter()
            .map(|m| run_child(&exe, m, file, args.runs))
            .collect();
        let file_bytes = std::fs::metadata(file).map(|m| m.len()).unwrap_or(0);
        let rows = results[1].count;
        group.push(FileResult {
            config,
            file_bytes,
            rows,
            results,
        });
    }
    if let Some(d) = current {
        flush(&d, &mut group, &mut report);
    }
    let notes = notes(&files, args);
    print!("{notes}");
    report.push_str(&notes);
    if let Some(out) = &args.out {
        std::fs::write(out, &report).map_err(|e| format!("{}: {e}", out.display()))?;
        eprintln!("bench: wrote {}", out.display());
    }
    Ok(())
}

fn command_output(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The version of a package in this crate's Cargo.lock.
fn locked_version(name: &str) -> &'static str {
    let lock = include_str!("../Cargo.lock");
    let needle = format!("name = \"{name}\"\nversion = \"");
    lock.find(&needle)
        .and_then(|i| lock[i + needle.len()..].split('"').next())
        .unwrap_or("?")
}

fn header(args: &Args) -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|c| {
            c.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| "?".into());
    let nproc = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(0);
    let command: Vec<String> = std::env::args().skip(1).collect();
    let date = command_output("date", &["-u", "+%Y-%m-%d %H:%M UTC"]).unwrap_or_else(|| "?".into());
    let rustc = command_output("rustc", &["--version"]).unwrap_or_else(|| "?".into());
    let mut s = String::new();
    writeln!(s, "# parket vs arrow-rs\n").ok();
    writeln!(s, "- command: `bench {}`", command.join(" ")).ok();
    writeln!(s, "- data: `{}`", args.data.display()).ok();
    writeln!(s, "- date: {date}").ok();
    let load = std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".into());
    writeln!(
        s,
        "- machine: {nproc} CPUs (nproc), {cpu}; load average at start {load}"
    )
    .ok();
    writeln!(
        s,
        "- arrow-rs: parquet {} (features arrow, snap, zstd, simdutf8); {rustc}; release profile",
        locked_version("parquet")
    )
    .ok();
    writeln!(
        s,
        "- median of {} runs after one warm-up, one thread, one process per measurement\n",
        args.runs
    )
    .ok();
    s
}

fn tables(dataset: &str, group: &[FileResult]) -> String {
    let mut s = String::new();
    let rows = group
        .iter()
        .find_map(|f| f.rows)
        .map_or("?".into(), |r| r.to_string());
    let arrow_mb = group
        .iter()
        .find_map(|f| f.arrow_bytes())
        .map_or("?".into(), |b| format!("{:.1}", b as f64 / 1e6));
    writeln!(s, "## {dataset} ({rows} rows, {arrow_mb} MB in Arrow)\n").ok();
    writeln!(
        s,
        "Read, MB/s of Arrow-size data decoded (higher is better):\n"
    )
    .ok();
    writeln!(
        s,
        "| config | file bytes | arrow-rs columns | arrow-rs Arrow | parket columns | parket records | parket / best arrow-rs | peak MiB (arrow-rs columns / Arrow / parket columns / records) |"
    )
    .ok();
    writeln!(s, "|---|---:|---:|---:|---:|---:|---:|---:|").ok();
    for f in group {
        let low = f.mbps("arrow-columns");
        let arrow = f.mbps("arrow-arrow");
        let best = match (low, arrow) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        let parket = f.mbps("parket-columns");
        writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            f.config,
            f.file_bytes,
            cell(f.get("arrow-columns"), fmt_mbps(low)),
            cell(f.get("arrow-arrow"), fmt_mbps(arrow)),
            cell(f.get("parket-columns"), fmt_mbps(parket)),
            cell(f.get("parket-records"), fmt_mbps(f.mbps("parket-records"))),
            ratio(parket, best),
            peaks(
                f,
                &[
                    "arrow-columns",
                    "arrow-arrow",
                    "parket-columns",
                    "parket-records"
                ]
            ),
        )
        .ok();
    }
    writeln!(
        s,
        "\nWrite, MB/s of Arrow-size data encoded, and file sizes in bytes:\n"
    )
    .ok();
    writeln!(
        s,
        "| config | arrow-rs write | parket write | parket / arrow-rs | peak MiB (arrow-rs / parket) | pyarrow size | arrow-rs size | parket size | parket / pyarrow size |"
    )
    .ok();
    writeln!(s, "|---|---:|---:|---:|---:|---:|---:|---:|---:|").ok();
    for f in group {
        let (aw, pw) = (f.get("arrow-write"), f.get("parket-write"));
        let size = |m: &Measured| {
            let mark = match m.same_data.as_deref() {
                Some("yes") | None => String::new(),
                Some(other) => format!(" ({other})"),
            };
            cell(m, m.out_bytes.map(|b| format!("{b}{mark}")))
        };
        let size_ratio = pw
            .out_bytes
            .filter(|_| pw.status == "ok")
            .map(|b| format!("{:.3}", b as f64 / f.file_bytes as f64))
            .unwrap_or_else(|| "n/a".into());
        let (a_mbps, p_mbps) = (f.mbps("arrow-write"), f.mbps("parket-write"));
        writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            f.config,
            cell(aw, fmt_mbps(a_mbps)),
            cell(pw, fmt_mbps(p_mbps)),
            ratio(p_mbps, a_mbps),
            peaks(f, &["arrow-write", "parket-write"]),
            f.file_bytes,
            size(aw),
            size(pw),
            size_ratio,
        )
        .ok();
    }
    // Errors, check failures and noisy timings, spelled out under the tables.
    let mut noisy = Vec::new();
    for f in group {
        for (name, m) in MEASUREMENTS.iter().zip(&f.results) {
            if let (Some(min), Some(max)) = (m.min, m.max) {
                let spread = max.as_secs_f64() / min.as_secs_f64().max(1e-9);
                if spread > NOISY_SPREAD {
                    noisy.push(format!("{} {name} ({spread:.2}x)", f.config));
                }
            }
        }
    }
    if !noisy.is_empty() {
        writeln!(
            s,
            "\nNoisy (slowest run more than {NOISY_SPREAD}x the fastest): {}",
            noisy.join(", ")
        )
        .ok();
    }
    for f in group {
        for (name, m) in MEASUREMENTS.iter().zip(&f.results) {
            if m.status == "error" {
                writeln!(s, "\n- {} {name}: error: {}", f.config, m.message).ok();
            }
        }
        let (low, arrow, parket) = (
            f.get("arrow-columns").count,
            f.get("arrow-arrow").count,
            (f.get("parket-columns").count, f.get("parket-records").count),
        );
        if let (Some(l), (Some(p), _)) = (low, parket) {
            if l != p {
                writeln!(
                    s,
                    "\n- {}: parket decoded {p} values, arrow-rs {l}",
                    f.config
                )
                .ok();
            }
        }
        if let (Some(r), (_, Some(p))) = (arrow, parket) {
            if r != p {
                writeln!(
                    s,
                    "\n- {}: parket assembled {p} records, arrow-rs read {r} rows",
                    f.config
                )
                .ok();
            }
        }
    }
    s.push('\n');
    s
}

fn notes(_files: &[PathBuf], _args: &Args) -> String {
    "Notes: MB = 10^6 bytes of Arrow buffers (values, offsets, validity bitmaps, children; \
     buffer lengths, not capacities) of the table as arrow-rs's Arrow reader returns it; every \
     read and write of a file is divided by that same size. \"columns\" = every leaf column \
     decoded to values + def/rep levels (arrow-rs: typed `ColumnReader::read_records`, 8192 \
     records per call, reused buffers); \"Arrow\" / \"records\" = whole records (arrow-rs: \
     `ParquetRecordBatchReader`, 8192 rows per batch). Peak MiB = highest RSS during the \
     warm-up and timed runs minus the RSS once the input was in memory (file bytes, and for \
     writes the decoded input). Writers get the file's own options (page version, codec, \
     dictionary, encodings read from its pages; zstd level 3); arrow-rs writes chunk \
     statistics and no page index, as pyarrow does. A written size followed by (...) did not \
     read back as the same data.\n"
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::{ArrayRef, Int32Array, RecordBatch, StringArray};
    use std::sync::Arc;

    fn file(ids: &[i32], names: &[Option<&str>]) -> Bytes {
        let batch = RecordBatch::try_from_iter([
            ("id", Arc::new(Int32Array::from(ids.to_vec())) as ArrayRef),
            (
                "name",
                Arc::new(StringArray::from(names.to_vec())) as ArrayRef,
            ),
        ])
        .unwrap();
        let properties = parquet::file::properties::WriterProperties::builder().build();
        Bytes::from(arrow_side::write(&[batch], &properties).unwrap())
    }

    #[test]
    fn same_data_sees_equal_and_different_files() {
        let a = file(&[1, 2, 3], &[Some("x"), None, Some("z")]);
        assert_eq!(same_data(&a, a.to_vec()), "yes");
        let value_differs = file(&[1, 2, 4], &[Some("x"), None, Some("z")]);
        assert_eq!(same_data(&a, value_differs.to_vec()), "column-0-differs");
        let null_differs = file(&[1, 2, 3], &[Some("x"), Some(""), Some("z")]);
        assert_eq!(same_data(&a, null_differs.to_vec()), "column-1-differs");
        assert!(same_data(&a, b"not parquet".to_vec()).starts_with("unreadable"));
    }

    #[test]
    fn file_names_split_into_data_set_and_config() {
        assert_eq!(
            dataset_and_config("taxi-v2-plain-delta"),
            ("taxi".to_string(), "v2-plain-delta".to_string())
        );
        assert!(sort_key("taxi-v2-dict-none") < sort_key("strings-v1-dict-none"));
        assert!(sort_key("nested-v1-dict-zstd") < sort_key("nested-v2-dict-none"));
    }

    #[test]
    fn parket_side_is_reported_as_not_available() {
        let bytes = file(&[1], &[None]);
        assert!(matches!(
            Outcome::from(parket_side::decode_all_columns(&bytes).unwrap_err()),
            Outcome::NotAvailable
        ));
    }
}
