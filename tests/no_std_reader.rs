//! The no_std reader reads every uncompressed file of the corpus that the std reader reads,
//! with the same values (issue 8, "Small binaries").
//!
//! A test binary always links `std`, and cargo builds one parket per build with the union of
//! the features asked for, so the no_std library cannot be linked into this test. Instead the
//! test builds `examples/no_std_checksum.rs` in a cargo of its own with
//! `--no-default-features --features delta,byte-stream-split` (parket compiled as
//! `#![no_std]` + `alloc` with every encoding, reading byte slices through
//! `FileReader::from_bytes`), runs it over the corpus, and compares its checksum of
//! every value of each file with the same checksum taken here through the std reader
//! (`FileReader::new` over a `File`, pages read on demand through `Read + Seek`). The checksum
//! (`tests/no_std_probe/src/checksum.rs`, FNV-1a over levels and values, floats by their bits)
//! is the same source on both sides; the values it sums come from the two builds.
//!
//! Which files count: every `.parquet` file of the corpus whose footer and every column chunk
//! the std reader reads, and whose chunks are all UNCOMPRESSED (the no_std build has no
//! codecs). The test fails if fewer than 10 files qualify (a corpus or filter gone wrong).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use parket::format::CompressionCodec;
use parket::read::FileReader;

#[path = "no_std_probe/src/checksum.rs"]
mod checksum;

fn corpus() -> PathBuf {
    parket::testing::corpus_dir()
}

fn parquet_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            parquet_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "parquet") {
            out.push(p);
        }
    }
}

/// The std reader's checksum of `path` when it reads the whole file and every chunk is
/// UNCOMPRESSED; `None` otherwise.
fn std_checksum(path: &Path) -> Option<u64> {
    let file = FileReader::new(std::fs::File::open(path).ok()?).ok()?;
    let uncompressed = file.metadata().row_groups.iter().all(|rg| {
        rg.columns.iter().all(|c| {
            c.meta_data
                .as_ref()
                .is_some_and(|m| m.codec == CompressionCodec::Uncompressed)
        })
    });
    if !uncompressed {
        return None;
    }
    let mut h = checksum::Fnv::new();
    for row_group in 0..file.num_row_groups() {
        for column in 0..file.schema().columns().len() {
            let data = file.column_chunk(row_group, column).ok()?.read_all().ok()?;
            checksum::leaf(&mut h, &data);
        }
    }
    // In this (std) build, the byte-slice path the no_std build takes agrees with Read + Seek:
    // so a difference below is the no_std configuration's own.
    let bytes = std::fs::read(path).expect("read the file again");
    assert_eq!(
        checksum::checksum(&bytes).ok(),
        Some(h.finish()),
        "{}: from_bytes differs from Read + Seek in the std build",
        path.display()
    );
    Some(h.finish())
}

/// Builds `examples/no_std_checksum.rs` with `--no-default-features` (and the encodings'
/// features) in a target directory of
/// its own (the outer `cargo test` holds the lock of its own) and returns the binary's path.
fn build_no_std_checksum() -> PathBuf {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest_dir.join("target"))
        .join("no_std_reader");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .current_dir(manifest_dir)
        .args(["build", "--quiet", "--no-default-features"])
        // Every encoding (they need no `std`), as the no_std probe links them.
        .args(["--features", "delta,byte-stream-split"])
        .args(["--example", "no_std_checksum", "--target-dir"])
        .arg(&target)
        .status()
        .expect("run cargo");
    assert!(
        status.success(),
        "building the no_std checksum example failed"
    );
    target
        .join("debug/examples")
        .join(format!("no_std_checksum{}", std::env::consts::EXE_SUFFIX))
}

#[test]
fn no_std_reader_matches_std_reader() {
    let mut files = Vec::new();
    parquet_files(&corpus(), &mut files);
    let expected: BTreeMap<String, u64> = files
        .iter()
        .filter_map(|p| Some((p.display().to_string(), std_checksum(p)?)))
        .collect();
    assert!(
        expected.len() >= 10,
        "only {} uncompressed readable files in the corpus",
        expected.len()
    );

    let bin = build_no_std_checksum();
    let out = Command::new(&bin)
        .args(expected.keys())
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", bin.display()));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).expect("UTF-8 output");
    let mut got = BTreeMap::new();
    for line in stdout.lines() {
        let (sum, path) = line.split_once(' ').expect("`<sum> <path>` or `error ...`");
        assert_ne!(
            sum, "error",
            "the no_std reader fails where std reads: {line}"
        );
        let sum = u64::from_str_radix(sum, 16).expect("hex checksum");
        got.insert(path.to_string(), sum);
    }
    for (path, sum) in &expected {
        assert_eq!(
            got.get(path),
            Some(sum),
            "{path}: the no_std reader's values differ from the std reader's"
        );
    }
    assert_eq!(got.len(), expected.len());
    eprintln!(
        "no_std reader = std reader on {} uncompressed files",
        expected.len()
    );
}
