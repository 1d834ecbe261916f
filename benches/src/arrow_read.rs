//! `bench --arrow-read`: Arrow reading, parket's `parket::arrow::BatchReader` against arrow-rs's
//! `ParquetRecordBatchReader`, in one process, in interleaved rounds.
//!
//! For each file: both readers decode it once and their batches are compared column by
//! column (same schema, same values; batch boundaries are the same 8,192 rows); then `rounds`
//! rounds each time one full read by each reader, the order alternating from round to round,
//! so that drift of the machine (other processes, frequency, the allocator's state) falls on
//! both alike. Reported: the median time of each, MB/s of Arrow data (the size of arrow-rs's
//! batches, as the main harness counts it) and the ratio arrow-rs time / parket time
//! (above 1: parket is faster).

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use arrow_array::RecordBatch;
use bytes::Bytes;

use crate::arrow_side::{self, BATCH_SIZE};

fn parket_read(bytes: &[u8], mut f: impl FnMut(RecordBatch)) -> Result<usize, String> {
    let file = parket::read::FileReader::from_bytes(bytes).map_err(|e| e.to_string())?;
    let reader = parket::arrow::BatchReader::from_scan(file.scan().batch_size(BATCH_SIZE))
        .map_err(|e| e.to_string())?;
    let mut rows = 0;
    for b in reader {
        let b = b.map_err(|e| e.to_string())?;
        rows += b.num_rows();
        f(b);
    }
    Ok(rows)
}

/// Whether the two readers give the same batches; the first difference otherwise.
fn compare(bytes: &Bytes) -> Result<(), String> {
    let mut ours = Vec::new();
    parket_read(bytes, |b| ours.push(b))?;
    let mut theirs = Vec::new();
    arrow_side::read_arrow(bytes, |b| theirs.push(b)).map_err(|e| e.to_string())?;
    if ours.len() != theirs.len() {
        return Err(format!("{} batches against {}", ours.len(), theirs.len()));
    }
    for (k, (a, b)) in ours.iter().zip(&theirs).enumerate() {
        if a.schema().fields() != b.schema().fields() {
            return Err(format!("schema: {:?} against {:?}", a.schema(), b.schema()));
        }
        for i in 0..a.num_columns() {
            if a.column(i).as_ref() != b.column(i).as_ref() {
                return Err(format!("batch {k} column {}", a.schema().field(i).name()));
            }
        }
    }
    Ok(())
}

/// `runs` reads of each of `files` by one reader (`side`: `parket` or `arrow-rs`), nothing
/// else: the process to count instructions of (`perf stat -e instructions:u`). Returns the
/// rows read per file.
pub fn one_side(files: &[std::path::PathBuf], runs: usize, side: &str) -> Result<String, String> {
    let mut out = String::new();
    for file in files {
        let bytes =
            Bytes::from(std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?);
        let mut rows = 0;
        for _ in 0..runs {
            rows = match side {
                "parket" => parket_read(&bytes, |b| drop(std::hint::black_box(b)))?,
                "arrow-rs" => arrow_side::read_arrow(&bytes, |b| drop(std::hint::black_box(b)))
                    .map_err(|e| e.to_string())?,
                _ => return Err(format!("--side {side}: parket or arrow-rs")),
            };
        }
        writeln!(
            out,
            "{}: {rows} rows, {runs} reads by {side}",
            file.display()
        )
        .ok();
    }
    Ok(out)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// Runs the comparison on `files`; returns the report (a Markdown table).
pub fn run(files: &[std::path::PathBuf], rounds: usize) -> Result<String, String> {
    let mut out = String::new();
    writeln!(
        out,
        "| file | arrow-rs Arrow MB/s | parket Arrow MB/s | arrow-rs ms | parket ms | parket speed / arrow-rs | same batches |"
    )
    .ok();
    writeln!(out, "|---|---:|---:|---:|---:|---:|---|").ok();
    for file in files {
        let name = file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        eprintln!("bench --arrow-read: {}", file.display());
        let bytes =
            Bytes::from(std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?);
        let same = match compare(&bytes) {
            Ok(()) => "yes".to_string(),
            Err(e) => format!(
                "NO: {}",
                e.replace('|', "/").chars().take(200).collect::<String>()
            ),
        };
        let mut arrow_bytes = 0;
        arrow_side::read_arrow(&bytes, |b| arrow_bytes += arrow_side::batch_bytes(&b))
            .map_err(|e| e.to_string())?;
        let (mut ta, mut tp) = (Vec::new(), Vec::new());
        let time_arrow = |t: &mut Vec<Duration>| -> Result<(), String> {
            let s = Instant::now();
            arrow_side::read_arrow(&bytes, |b| drop(std::hint::black_box(b)))
                .map_err(|e| e.to_string())?;
            t.push(s.elapsed());
            Ok(())
        };
        let time_parket = |t: &mut Vec<Duration>| -> Result<(), String> {
            let s = Instant::now();
            parket_read(&bytes, |b| drop(std::hint::black_box(b)))?;
            t.push(s.elapsed());
            Ok(())
        };
        // Warm-up, untimed.
        time_arrow(&mut Vec::new())?;
        time_parket(&mut Vec::new())?;
        for r in 0..rounds {
            if r % 2 == 0 {
                time_arrow(&mut ta)?;
                time_parket(&mut tp)?;
            } else {
                time_parket(&mut tp)?;
                time_arrow(&mut ta)?;
            }
        }
        let (a, p) = (median(ta), median(tp));
        let mbps = |d: Duration| arrow_bytes as f64 / 1e6 / d.as_secs_f64();
        writeln!(
            out,
            "| {name} | {:.0} | {:.0} | {:.1} | {:.1} | {:.2}x | {same} |",
            mbps(a),
            mbps(p),
            a.as_secs_f64() * 1e3,
            p.as_secs_f64() * 1e3,
            a.as_secs_f64() / p.as_secs_f64()
        )
        .ok();
        eprint!("{}", out.lines().last().unwrap_or(""));
        eprintln!();
    }
    Ok(out)
}
