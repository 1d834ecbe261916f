//! Differential tests against DuckDB's Parquet writer.
//!
//! For each seed, `tests/interop/duckgen.py` builds a random DuckDB table (DuckDB's own types,
//! nesting, NULLs at every level) and writes it with DuckDB's `COPY ... (FORMAT parquet, ...)`
//! and random options (codec, `PARQUET_VERSION` V1/V2, row group size, dictionary limits,
//! bloom filters): `duckdb.parquet`, plus `rows.jsonl`, pyarrow's reading of that file as
//! canonical JSON lines (per ../shared/json-mapping.md). `parket cat --json duckdb.parquet`
//! must print exactly `rows.jsonl`.
//!
//! Columns pyarrow cannot read are dropped by duckgen.py before the file is final (the reason
//! is in `options.json` `dropped`); a seed whose file pyarrow cannot read at all is skipped and
//! counted. Seeds: `PARKET_DUCKDB_SEEDS=A..B` (default `0..100`). A failure prints the seed
//! and a one-line command that reproduces it.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/interop")
        .join(name)
}

fn seeds() -> (u64, u64) {
    let spec = std::env::var("PARKET_DUCKDB_SEEDS").unwrap_or_else(|_| "0..100".into());
    let (a, b) = spec.split_once("..").expect("PARKET_DUCKDB_SEEDS is A..B");
    (a.parse().unwrap(), b.parse().unwrap())
}

fn repro(seed: u64) -> String {
    format!(
        "python3 tests/interop/duckgen.py --seed {seed} --out /tmp/d{seed} && \
         diff <(parket cat --json /tmp/d{seed}/duckdb.parquet) /tmp/d{seed}/rows.jsonl"
    )
}

#[test]
fn duckdb_files_read_as_pyarrow_reads_them() {
    let (start, end) = seeds();
    let dir = std::env::temp_dir().join(format!("parket-duckdb-{}", std::process::id()));
    let t0 = Instant::now();
    let out = Command::new("python3")
        .arg(script("batch.py"))
        .args(["duckgen", "--start", &start.to_string(), "--end"])
        .arg(end.to_string())
        .arg("--out")
        .arg(&dir)
        .output()
        .expect("run python3 (install tests/interop/requirements.txt)");
    assert!(
        out.status.success(),
        "batch.py duckgen failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = String::from_utf8(out.stdout).unwrap();
    let mut failures = Vec::new();
    let mut skipped = Vec::new();
    let mut compared = 0;
    for line in report.lines() {
        let (seed, rest) = line.split_once(' ').unwrap();
        let seed: u64 = seed.parse().unwrap();
        if let Some(why) = rest.strip_prefix("skip ") {
            skipped.push((seed, why.to_string()));
            continue;
        }
        if rest != "ok" {
            failures.push((seed, rest.to_string()));
            continue;
        }
        let sd = dir.join(seed.to_string());
        compared += 1;
        if let Some(diff) = common::seed_difference(&sd, "duckdb.parquet") {
            failures.push((seed, diff));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    for (seed, why) in &skipped {
        eprintln!("seed {seed}: skipped, {why}");
    }
    for (seed, msg) in &failures {
        eprintln!("seed {seed}: {msg}\n  repro: {}", repro(*seed));
    }
    println!(
        "interop_duckdb: {} seeds ({start}..{end}) in {:.0?}: {compared} compared, {} identical, \
         {} skipped (pyarrow cannot read them), {} failed",
        end - start,
        t0.elapsed(),
        compared
            - failures
                .iter()
                .filter(|f| !f.1.starts_with("duckgen"))
                .count(),
        skipped.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} seeds failed: {:?}",
        failures.len(),
        failures.iter().map(|f| f.0).collect::<Vec<_>>()
    );
}
