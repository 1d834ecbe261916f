//! Test support shared by the unit tests, the integration tests and the benchmarks: where the
//! parquet-testing corpus is. Not part of the public API.
//!
//! The corpus is `$PARQUET_TEST_DATA`, or `../shared/parquet-testing` beside the crate. A
//! missing corpus panics with instructions: tests never skip silently.

use std::path::{Path, PathBuf};
use std::vec::Vec;

/// The corpus directory (holding `data/` and `bad_data/`). Panics with instructions when it
/// is missing.
pub fn corpus_dir() -> PathBuf {
    let dir = std::env::var_os("PARQUET_TEST_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/parquet-testing"));
    assert!(
        dir.join("data").is_dir(),
        "parquet-testing corpus not found at {}: set PARQUET_TEST_DATA to the directory that \
         holds data/ and bad_data/ (a checkout of apache/parquet-testing), e.g. \
         PARQUET_TEST_DATA=/path/to/parquet-testing cargo test",
        dir.display()
    );
    dir
}

/// The bytes of `data/<name>` in the corpus.
pub fn corpus_file(name: &str) -> Vec<u8> {
    let path = corpus_dir().join("data").join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The `*.parquet` and `*.parquet.encrypted` files directly in `<corpus>/<subdir>`, sorted.
pub fn corpus_files(subdir: &str) -> Vec<PathBuf> {
    let dir = corpus_dir().join(subdir);
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
            let name = name.unwrap_or_default();
            p.is_file() && (name.ends_with(".parquet") || name.ends_with(".parquet.encrypted"))
        })
        .collect();
    v.sort();
    v
}
