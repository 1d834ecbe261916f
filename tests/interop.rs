//! Differential tests against pyarrow, both directions, driven by seeds.
//!
//! For each seed, `tests/interop/gen.py` writes a random schema, nasty data and random writer
//! options with pyarrow: `pyarrow.parquet`, the rows it holds as canonical JSON lines
//! (`rows.jsonl`, per ../shared/json-mapping.md), the schema as message text and random parket
//! writer options. Then:
//!
//! 1. read: `parket cat --json pyarrow.parquet` must print exactly `rows.jsonl`;
//! 2. write: `parket write` of `rows.jsonl` with the seed's options, read back by pyarrow,
//!    must give exactly `rows.jsonl` again; DuckDB must read the same values too, for the
//!    columns whose types it can compare (`duckcheck.py`; such failures start `duckdb:`).
//!
//! Seeds: `PARKET_INTEROP_SEEDS=A..B` (default `0..200`). Long mode:
//! `PARKET_INTEROP_SECONDS=N` keeps taking new seeds after B until N seconds have passed.
//! A failure prints the seed and a one-line command that reproduces it.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/interop")
        .join(name)
}

fn seeds() -> (u64, u64) {
    let spec = std::env::var("PARKET_INTEROP_SEEDS").unwrap_or_else(|_| "0..200".into());
    let (a, b) = spec.split_once("..").expect("PARKET_INTEROP_SEEDS is A..B");
    (a.parse().unwrap(), b.parse().unwrap())
}

fn python(args: &[&str]) -> String {
    let out = Command::new("python3")
        .args(args)
        .output()
        .expect("run python3 (install the pinned pyarrow: see README)");
    assert!(
        out.status.success(),
        "python3 {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn repro(seed: u64) -> String {
    format!(
        "PARKET_INTEROP_SEEDS={seed}..{} cargo test --all-features --test interop -- --nocapture",
        seed + 1
    )
}

/// Runs one batch of seeds; returns the failures (seed, message).
fn run_batch(dir: &Path, start: u64, end: u64) -> Vec<(u64, String)> {
    let d = dir.to_str().unwrap();
    let (s, e) = (start.to_string(), end.to_string());
    python(&[
        script("batch.py").to_str().unwrap(),
        "gen",
        "--start",
        &s,
        "--end",
        &e,
        "--out",
        d,
    ]);
    let mut failures = Vec::new();
    for seed in start..end {
        let sd = dir.join(seed.to_string());
        // Direction 1: pyarrow writes, parket reads.
        if let Some(diff) = common::seed_difference(&sd, "pyarrow.parquet") {
            failures.push((seed, format!("read: {diff}")));
        }
        // Direction 2: parket writes, pyarrow reads (checked in one batch below).
        let options: serde_json::Value =
            serde_json::from_slice(&std::fs::read(sd.join("options.json")).unwrap()).unwrap();
        let args: Vec<String> = options["args"]
            .as_array()
            .map(|a| a.iter().map(|v| v.as_str().unwrap().to_string()).collect())
            .unwrap_or_default();
        let out = Command::new(env!("CARGO_BIN_EXE_parket"))
            .arg("write")
            .arg("--schema")
            .arg(format!("@{}", sd.join("schema.txt").display()))
            .arg("--input")
            .arg(sd.join("rows.jsonl"))
            .arg("--output")
            .arg(sd.join("parket.parquet"))
            .args(&args)
            .output()
            .unwrap();
        if !out.status.success() {
            failures.push((
                seed,
                format!(
                    "write {args:?}: parket write failed: {}",
                    String::from_utf8_lossy(&out.stderr)
                ),
            ));
        }
    }
    let report = python(&[
        script("batch.py").to_str().unwrap(),
        "check",
        "--start",
        &s,
        "--end",
        &e,
        "--dir",
        d,
        "--duckdb",
    ]);
    for line in report.lines() {
        let (seed, rest) = line.split_once(' ').unwrap();
        if rest != "ok" && !rest.contains("parket write failed") {
            failures.push((seed.parse().unwrap(), format!("write: {rest}")));
        }
    }
    failures
}

#[test]
fn pyarrow_and_parket_agree_both_ways() {
    let (start, end) = seeds();
    let budget = std::env::var("PARKET_INTEROP_SECONDS")
        .ok()
        .map(|s| Duration::from_secs(s.parse().expect("PARKET_INTEROP_SECONDS is a number")));
    let dir = std::env::temp_dir().join(format!("parket-interop-{}", std::process::id()));
    let t0 = Instant::now();
    let mut failures = run_batch(&dir, start, end);
    let mut last = end;
    if let Some(budget) = budget {
        while t0.elapsed() < budget {
            failures.extend(run_batch(&dir, last, last + 50));
            last += 50;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    let n = last - start;
    for (seed, msg) in &failures {
        eprintln!("seed {seed}: {msg}\n  repro: {}", repro(*seed));
    }
    let failed: std::collections::BTreeSet<u64> = failures.iter().map(|f| f.0).collect();
    println!(
        "interop: {n} seeds ({start}..{last}) in {:.0?}: {} identical both ways, {} failed",
        t0.elapsed(),
        n - failed.len() as u64,
        failed.len()
    );
    assert!(
        failures.is_empty(),
        "{} seeds failed: {failed:?}",
        failed.len()
    );
}
