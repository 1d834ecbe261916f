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
//! Seed 0 writes V2 pages with statistics off, for which parquet-java 1.17 writes
//! `DataPageHeaderV2.num_nulls = -1`; the test checks that the file really has such a header.
//! Needs Java 17+ and `pip install -r tests/interop/requirements.txt`. Seeds:
//! `PARKET_SPARK_SEEDS=A..B` (default `0..4`; the Spark session's start-up dominates).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

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
    let out = Command::new("python3")
        .arg(script)
        .args(["--parket", env!("CARGO_BIN_EXE_parket")])
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
    for line in report.lines() {
        let (seed, rest) = line.split_once(' ').unwrap();
        let seed: u64 = seed.parse().unwrap();
        let Some(tags) = rest.strip_prefix("ok") else {
            failures.push((seed, rest.to_string()));
            continue;
        };
        minus_one |= tags.contains("num_nulls=-1");
        let sd = dir.join(seed.to_string());
        let want = std::fs::read_to_string(sd.join("rows.jsonl")).unwrap();
        compared += 1;
        if let Some(diff) = common::cat_json_difference(
            env!("CARGO_BIN_EXE_parket"),
            &sd.join("spark.parquet"),
            &want,
        ) {
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
        report.lines().count() as u64,
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
