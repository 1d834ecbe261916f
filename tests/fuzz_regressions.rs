//! Replays every input the fuzzers ever found, through the same harnesses the fuzz targets call.
//!
//! - `fuzz/regressions/<target>/*`: one file per input (a crash, an OOM, a timeout, or a seed
//!   worth keeping), replayed by [`replay`]. A new crash becomes a regression by dropping its
//!   artifact into that directory (see `fuzz/README.md`). A missing or empty directory fails the
//!   test: nothing is skipped silently.
//! - An input behind a library fix also gets a `bug_*` test here, its bytes as a literal and a
//!   line on the cause (none yet: the first runs, logged in `fuzz/README.md`, found nothing).
//!
//! The harnesses panic only when the code breaks its own contract (a panic on untrusted bytes,
//! a round trip that changes the values, an error that leaves partial output behind, the
//! slice and one-byte-per-read paths of `file` disagreeing, records of `roundtrip` that read
//! back differently).

use std::panic::{catch_unwind, AssertUnwindSafe};

/// The `roundtrip` target's harness: it lives in the fuzz crate (it needs `arbitrary`, a
/// dev-dependency here), so it is included as a module.
#[path = "../fuzz/src/roundtrip.rs"]
#[allow(dead_code)]
mod roundtrip;
use std::path::PathBuf;

use parket::encoding::{
    alp, byte_stream_split, delta_binary_packed, delta_byte_array, delta_length_byte_array,
    dictionary, plain, rle,
};

/// The `delta` target's dispatch (`fuzz/fuzz_targets/delta.rs`): `data[0] % 3` picks the
/// DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY or DELTA_BYTE_ARRAY harness.
fn fuzz_delta(data: &[u8]) {
    let Some((sel, rest)) = data.split_first() else {
        return;
    };
    [
        delta_binary_packed::fuzz_decode,
        delta_length_byte_array::fuzz_decode,
        delta_byte_array::fuzz_decode,
    ][usize::from(sel % 3)](rest);
}

/// A fuzz harness: panics only when the library breaks its contract.
type Harness = fn(&[u8]);

/// Every fuzz target with its harness; each has a directory under `fuzz/regressions/`.
const TARGETS: &[(&str, Harness)] = &[
    ("metadata", parket::format::fuzz_metadata),
    ("decompress", parket::compression::fuzz_decompress),
    ("plain", plain::fuzz_decode),
    ("rle", rle::fuzz_decode),
    ("dictionary", dictionary::fuzz_decode),
    ("delta", fuzz_delta),
    ("byte_stream_split", byte_stream_split::fuzz_decode),
    ("alp", alp::fuzz_decode),
    ("page", parket::page::decode::fuzz_page),
    ("file", parket::read::fuzz::fuzz_file),
    ("roundtrip", roundtrip::fuzz_roundtrip),
    ("variant", parket::variant::fuzz_decode),
    #[cfg(feature = "arrow")]
    ("arrow", parket::arrow::fuzz::fuzz_arrow),
];

/// Targets whose harness needs a feature of the library (`arrow`): their directories are
/// known even in builds without it.
const GATED: &[&str] = &["arrow"];

fn regressions_dir(target: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/regressions")
        .join(target)
}

/// Runs `harness` on every file of `fuzz/regressions/<target>/`; returns the failures.
fn replay(target: &str, harness: Harness) -> Vec<String> {
    let dir = regressions_dir(target);
    let entries = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e} (every fuzz target has one)", dir.display()));
    let mut paths: Vec<PathBuf> = entries
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.is_file())
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "{}: no inputs", dir.display());
    let mut failures = Vec::new();
    for path in &paths {
        let data = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if catch_unwind(AssertUnwindSafe(|| harness(&data))).is_err() {
            failures.push(format!("{target}: {}", path.display()));
        }
    }
    eprintln!("{target}: replayed {} inputs", paths.len());
    failures
}

#[test]
fn replay_every_regression_file() {
    let failures: Vec<String> = TARGETS
        .iter()
        .flat_map(|&(target, harness)| replay(target, harness))
        .collect();
    assert!(
        failures.is_empty(),
        "harness panicked on:\n{}",
        failures.join("\n")
    );
}

#[test]
fn no_unknown_regression_directory() {
    // A directory no target replays would be a regression that is never run.
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions");
    for entry in std::fs::read_dir(&root).expect("fuzz/regressions exists") {
        let name = entry.expect("directory entry").file_name();
        let name = name.to_string_lossy();
        assert!(
            TARGETS.iter().any(|(t, _)| *t == name) || GATED.contains(&name.as_ref()),
            "fuzz/regressions/{name}: no such fuzz target"
        );
    }
}

#[test]
fn roundtrip_seeds_write_records() {
    // The roundtrip harness returns early when the bytes do not make a case: make sure its
    // seeds really write and read back records.
    let dir = regressions_dir("roundtrip");
    let mut records = 0;
    for entry in std::fs::read_dir(&dir).expect("fuzz/regressions/roundtrip exists") {
        let data = std::fs::read(entry.expect("directory entry").path()).expect("readable");
        let mut u = arbitrary::Unstructured::new(&data);
        if let Ok((schema, recs, options)) = roundtrip::generate(&mut u) {
            roundtrip::check(&schema, &recs, options).expect("round trip");
            records += recs.len();
        }
    }
    assert!(records > 0, "no roundtrip seed makes records");
}

#[cfg(feature = "arrow")]
#[test]
fn arrow_seeds_read_and_fail() {
    // The arrow harness returns early on a file that does not open: make sure its seeds reach
    // the reader, some reading batches and the hostile strings failing as invalid UTF-8.
    use parket::arrow::BatchReader;
    use parket::read::FileReader;
    let (mut read, mut utf8) = (0, 0);
    for entry in std::fs::read_dir(regressions_dir("arrow")).expect("fuzz/regressions/arrow") {
        let data = std::fs::read(entry.expect("directory entry").path()).expect("readable");
        let file = FileReader::from_bytes(&data).expect("a seed opens");
        match BatchReader::new(&file)
            .expect("a reader")
            .collect::<parket::Result<Vec<_>>>()
        {
            Ok(batches) => read += batches.iter().map(|b| b.num_rows()).sum::<usize>(),
            Err(e) if e.to_string().contains("not valid UTF-8") => utf8 += 1,
            Err(e) => panic!("{e}"),
        }
    }
    assert!(
        read > 0 && utf8 >= 5,
        "rows read {read}, UTF-8 errors {utf8}"
    );
}
