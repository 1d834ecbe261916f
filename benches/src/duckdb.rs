//! DuckDB beside parket and arrow-rs (issue 22 item 1).
//!
//! ```text
//! cargo build --release --features cli                      # target/release/parket
//! CARGO_TARGET_DIR=/work/target-benches cargo run --release --manifest-path benches/Cargo.toml -- \
//!     --duckdb [--parket target/release/parket] [--runs 5] [--filter strings] [--out FILE.md]
//! ```
//!
//! Per file:
//!
//! - the harness's own children (`--child`), single-threaded, the file's bytes in memory:
//!   `arrow-columns` and `arrow-arrow` (the faster of the two is "arrow-rs best") and
//!   `parket-columns`;
//! - `python3 benches/duckdb_scan.py FILE --threads 1,NPROC`: DuckDB's full-decode query
//!   (`SELECT count(*), bit_xor(hash(COLUMNS(*))) FROM read_parquet(FILE)`) with one thread and
//!   with all threads, its wall time, and with one thread the READ_PARQUET operator's own time
//!   from its JSON profile (see that script);
//! - with `--parket PARKET_BIN`: `PARKET_BIN check FILE`, whole process started cold, beside
//!   DuckDB's query with all threads (in its warm process: no interpreter start, no load of the
//!   DuckDB library, so this leans against parket).
//!
//! Every figure is a median of `--runs` runs after a warm-up (the whole-process runs alternate
//! with nothing: DuckDB's are taken in its script). The ratios are DuckDB's time over parket's
//! (above 1: parket is faster).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// One line of `duckdb_scan.py`.
#[derive(Default)]
struct DuckLine {
    wall: [Duration; 3],
    scan: [Duration; 3],
    projected: usize,
}

fn duckdb(file: &Path, runs: usize, threads: usize) -> Result<Vec<DuckLine>, String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("duckdb_scan.py");
    let output = Command::new("python3")
        .arg(&script)
        .arg(file)
        .arg("--runs")
        .arg(runs.to_string())
        .arg("--threads")
        .arg(format!("1,{threads}"))
        .output()
        .map_err(|e| format!("python3 {}: {e}", script.display()))?;
    if !output.status.success() {
        return Err(format!(
            "duckdb_scan.py {} failed ({}): {}",
            file.display(),
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    let mut lines = Vec::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let Some(rest) = line.strip_prefix("DUCKDB ") else {
            continue;
        };
        let mut d = DuckLine::default();
        for field in rest.split(' ') {
            let Some((key, value)) = field.split_once('=') else {
                continue;
            };
            let n: u64 = value
                .parse()
                .map_err(|_| format!("duckdb_scan.py: bad field {field}"))?;
            let ns = Duration::from_nanos(n);
            match key {
                "wall_median_ns" => d.wall[0] = ns,
                "wall_min_ns" => d.wall[1] = ns,
                "wall_max_ns" => d.wall[2] = ns,
                "scan_median_ns" => d.scan[0] = ns,
                "scan_min_ns" => d.scan[1] = ns,
                "scan_max_ns" => d.scan[2] = ns,
                "projected" => d.projected = n as usize,
                _ => {}
            }
        }
        lines.push(d);
    }
    if lines.len() != 2 {
        return Err(format!(
            "duckdb_scan.py {}: expected 2 result lines, got {}",
            file.display(),
            lines.len()
        ));
    }
    Ok(lines)
}

fn ms(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64() * 1e3)
}

/// `median (min-max)` in ms.
fn spread(d: &[Duration; 3]) -> String {
    format!("{} ({}-{})", ms(d[0]), ms(d[1]), ms(d[2]))
}

fn ratio(num: Duration, den: Duration) -> String {
    if den.is_zero() {
        return "n/a".into();
    }
    format!("{:.2}x", num.as_secs_f64() / den.as_secs_f64())
}

/// The number of top-level columns of a file (arrow-rs's view of its schema), to check that
/// DuckDB's scan projected all of them.
fn top_level_columns(file: &Path) -> Result<usize, String> {
    let bytes = bytes::Bytes::from(std::fs::read(file).map_err(|e| e.to_string())?);
    let reader = parquet::file::serialized_reader::SerializedFileReader::new(bytes)
        .map_err(|e| e.to_string())?;
    use parquet::file::reader::FileReader;
    Ok(reader
        .metadata()
        .file_metadata()
        .schema_descr()
        .root_schema()
        .get_fields()
        .len())
}

/// `parket check FILE` as a whole process: a warm-up, then `runs` runs; median, min, max.
fn time_check(bin: &Path, file: &Path, runs: usize) -> Result<[Duration; 3], String> {
    let args: [&Path; 2] = [Path::new("check"), file];
    crate::whole_process::run_once(bin, &args)?;
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        times.push(crate::whole_process::run_once(bin, &args)?.0);
    }
    times.sort();
    Ok([times[times.len() / 2], times[0], times[times.len() - 1]])
}

/// Runs every measurement on every file; returns the Markdown table and its notes.
pub fn run(files: &[PathBuf], runs: usize, parket: Option<&Path>) -> Result<String, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let mut table = format!(
        "Times in ms, median (min-max) of {runs} runs after a warm-up; ratios are DuckDB's time \
         over parket's (above 1: parket is faster).\n\n\
         | file | arrow-rs best, 1 thread | parket columns, 1 thread | DuckDB query, 1 thread | \
         DuckDB scan operator, 1 thread | DuckDB query, {threads} threads | parket check, whole \
         process | DuckDB scan / parket 1 thread | DuckDB {threads} threads / parket check | \
         parket / arrow-rs best |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
    );
    let mut problems = Vec::new();
    for file in files {
        let name = file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        eprintln!("bench: duckdb, {}", file.display());
        let child = |m: &str| {
            let r = crate::run_child(&exe, m, file, runs);
            match (r.status.as_str(), r.median, r.min, r.max) {
                ("ok", Some(a), Some(b), Some(c)) => Ok([a, b, c]),
                _ => Err(format!("{name}: {m}: {} {}", r.status, r.message)),
            }
        };
        let arrow = match (child("arrow-columns"), child("arrow-arrow")) {
            (Ok(a), Ok(b)) => Ok(if a[0] <= b[0] { a } else { b }),
            (Err(e), _) | (_, Err(e)) => Err(e),
        };
        let parket_columns = child("parket-columns");
        let duck = duckdb(file, runs, threads);
        // A check that fails (it reports a disagreement with the file: pyarrow's
        // SizeStatistics of DELTA_BYTE_ARRAY columns, for one) is listed, not timed.
        let check = match parket {
            Some(bin) => match time_check(bin, file, runs) {
                Ok(t) => Some(t),
                Err(e) => {
                    problems.push(format!("{name}: {e}"));
                    None
                }
            },
            None => None,
        };
        let (arrow, parket_columns, duck) = match (arrow, parket_columns, duck) {
            (Ok(a), Ok(p), Ok(d)) => (a, p, d),
            (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => {
                problems.push(e);
                continue;
            }
        };
        let columns = top_level_columns(file)?;
        if duck.iter().any(|d| d.projected != columns) {
            problems.push(format!(
                "{name}: DuckDB's scan projected {} of {columns} columns",
                duck[0].projected
            ));
        }
        let (one, all) = (&duck[0], &duck[1]);
        table.push_str(&format!(
            "| {name} | {} | {} | {} | {} | {} | {} | {} | {} | {:.2}x |\n",
            spread(&arrow),
            spread(&parket_columns),
            spread(&one.wall),
            spread(&one.scan),
            spread(&all.wall),
            check.as_ref().map_or("-".into(), spread),
            ratio(one.scan[0], parket_columns[0]),
            check.map_or("-".into(), |c| ratio(all.wall[0], c[0])),
            arrow[0].as_secs_f64() / parket_columns[0].as_secs_f64(),
        ));
    }
    if !problems.is_empty() {
        table.push_str("\nProblems:\n\n");
        for p in problems {
            table.push_str(&format!("- {p}\n"));
        }
    }
    Ok(table)
}
