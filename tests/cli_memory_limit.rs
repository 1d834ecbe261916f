//! Allocation failure is an error, not an abort (issue 23 item 6): the `parket` binary run
//! under a 2 GiB address-space limit (`ulimit -v 2097152`, RLIMIT_AS, set by `sh` before it
//! execs parket: the crate forbids the `unsafe` a `pre_exec` needs) reads a file or ends with
//! a clean error, never killed by a signal (Rust's allocation-failure handler aborts: SIGABRT)
//! and never panicking.
//!
//! - `big_file_under_2_gib_address_space` (in every run): `data/large_string_map.brotli.parquet`
//!   (4 KiB on disk, two BYTE_ARRAY map keys of 1 GiB each) through `cat --json`, `meta`,
//!   `check` and `pages`. `cat` and `check` cannot hold a decompressed 1 GiB page and its 1 GiB
//!   of values in 2 GiB: the error must say so and where. Before: `read_bounded` grew its
//!   buffer by doubling and asked for 2 GiB for the 1 GiB page, and the failure aborted.
//! - `corpus_and_mutants_under_2_gib_address_space` (ignored: the long run): every corpus file
//!   (`data/`, `data/geospatial/`, `bad_data/`) and `MUTANTS_PER_FILE` (default 40) mutants of
//!   each valid one (the mutator of `tests/mutation.rs`; an eighth as many of
//!   `large_string_map`, whose reads take most of a minute), each through the four commands;
//!   prints the counts and fails on any signal or panic. Run it with
//!   an optimized binary (the 1 GiB pages take about a minute each unoptimized):
//!
//!   ```text
//!   cargo build --release --all-features --bin parket
//!   PARKET_BIN=target/release/parket cargo test --all-features --test cli_memory_limit \
//!       -- --ignored --nocapture
//!   ```
#![cfg(unix)]

use std::fs::File;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[path = "common/mutate.rs"]
mod mutate;

/// The address-space limit, in KiB as `ulimit -v` takes it: 2 GiB.
const LIMIT_KIB: u64 = 2 << 20;

/// The commands every file goes through.
const COMMANDS: [&[&str]; 4] = [&["cat", "--json"], &["meta"], &["check"], &["pages"]];

/// How one run of the binary ended.
#[derive(Debug)]
enum End {
    /// Exit status 0.
    Read,
    /// A non-zero exit with an error message (the first line of `parket:` on stderr).
    Error(String),
    /// Killed by this signal (an abort is SIGABRT, 6), or a panic: what the test forbids.
    Crash(String),
    /// Still running after the time allowed, then killed by the test.
    Timeout,
}

/// The binary: `PARKET_BIN` when set (an optimized build for the long run), else the one
/// cargo built for this test.
fn parket() -> PathBuf {
    std::env::var_os("PARKET_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| env!("CARGO_BIN_EXE_parket").into())
}

/// Runs `parket ARGS FILE` under the limit, stdout discarded, stderr kept in `err_path`.
fn run_limited(args: &[&str], file: &Path, err_path: &Path, timeout: Duration) -> End {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {LIMIT_KIB} && exec \"$@\""))
        .arg("sh")
        .arg(parket())
        .args(args)
        .arg(file)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(File::create(err_path).expect("create stderr file"))
        .spawn()
        .expect("run sh");
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if start.elapsed() > timeout {
            // `sh` exec'd parket: this is parket's pid.
            let _ = child.kill();
            let _ = child.wait();
            return End::Timeout;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let stderr = std::fs::read_to_string(err_path).unwrap_or_default();
    if let Some(sig) = status.signal() {
        return End::Crash(format!("signal {sig}: {}", stderr.trim()));
    }
    if stderr.contains("panicked") {
        return End::Crash(format!("panic: {}", stderr.trim()));
    }
    if status.success() {
        return End::Read;
    }
    let line = stderr
        .lines()
        .find(|l| l.starts_with("parket:"))
        .map(str::to_string);
    match line {
        Some(l) => End::Error(l),
        None => End::Crash(format!(
            "{status} without an error message: {}",
            stderr.trim()
        )),
    }
}

#[test]
fn big_file_under_2_gib_address_space() {
    let file = parket::testing::corpus_dir().join("data/large_string_map.brotli.parquet");
    let dir = tempdir("big");
    let err = dir.join("stderr");
    for args in COMMANDS {
        let end = run_limited(args, &file, &err, Duration::from_secs(600));
        match (args[0], &end) {
            // The metadata alone: small.
            ("meta" | "pages", End::Read) => {}
            // The pages' values do not fit: a located error naming the allocation. (`check`
            // reports the column as bad, then ends with its summary error.)
            ("cat", End::Error(e)) => assert!(
                e.contains("cannot allocate ") && e.contains("column arr.key_value.key"),
                "{e}"
            ),
            ("check", End::Error(e)) => assert!(e.contains("disagree with the data"), "{e}"),
            // More memory than 2 GiB would be needed to read it, but reading it is fine too.
            ("cat" | "check", End::Read) => {}
            _ => panic!("parket {args:?} under a 2 GiB address space: {end:?}"),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A fresh directory under the system's temporary directory.
fn tempdir(what: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("parket-memory-limit-{what}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("create temporary directory");
    dir
}

/// Counts of how runs ended, per kind.
#[derive(Default)]
struct Tally {
    read: u64,
    errors: u64,
    out_of_memory: u64,
    timeouts: Vec<String>,
    crashes: Vec<String>,
}

impl Tally {
    fn add(&mut self, at: &str, end: End) {
        match end {
            End::Read => self.read += 1,
            End::Error(e) => {
                self.errors += 1;
                self.out_of_memory += e.contains("cannot allocate ") as u64;
            }
            End::Timeout => self.timeouts.push(at.to_string()),
            End::Crash(c) => self.crashes.push(format!("{at}: {c}")),
        }
    }

    fn runs(&self) -> u64 {
        self.read + self.errors + (self.timeouts.len() + self.crashes.len()) as u64
    }

    fn report(&self, what: &str) {
        eprintln!(
            "{what}: {} runs: {} read, {} clean errors ({} of them 'cannot allocate'), {} \
             timeouts, {} crashes",
            self.runs(),
            self.read,
            self.errors,
            self.out_of_memory,
            self.timeouts.len(),
            self.crashes.len()
        );
        for t in &self.timeouts {
            eprintln!("  timeout: {t}");
        }
        for c in &self.crashes {
            eprintln!("  CRASH: {c}");
        }
    }
}

#[test]
#[ignore = "the long run: every corpus file and thousands of mutants, four commands each"]
fn corpus_and_mutants_under_2_gib_address_space() {
    let per_file: u64 = std::env::var("MUTANTS_PER_FILE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40);
    let timeout = Duration::from_secs(
        std::env::var("RUN_TIMEOUT_SECS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(120),
    );
    let root = parket::testing::corpus_dir();
    let dir = tempdir("long");
    let err = dir.join("stderr");
    let start = Instant::now();

    let mut corpus = Tally::default();
    let mut valid = Vec::new();
    for sub in ["data", "data/geospatial", "bad_data"] {
        for p in parket::testing::corpus_files(sub) {
            let name = p.strip_prefix(&root).unwrap().display().to_string();
            for args in COMMANDS {
                corpus.add(
                    &format!("{args:?} {name}"),
                    run_limited(args, &p, &err, timeout),
                );
            }
            if sub != "bad_data" && !name.ends_with(".encrypted") {
                valid.push((name, p));
            }
        }
    }
    corpus.report("corpus files x cat/meta/check/pages");

    let mut mutants = Tally::default();
    let mut made = 0u64;
    let path = dir.join("mutant.parquet");
    for (name, p) in &valid {
        let file = std::fs::read(p).unwrap();
        let Some(l) = mutate::layout(&file) else {
            continue;
        };
        // Each read of large_string_map's 1 GiB pages takes most of a minute: fewer of its.
        let n = if name.contains("large_string_map") {
            per_file.div_ceil(8)
        } else {
            per_file
        };
        for seed in 0..n {
            let (bytes, what) = mutate::mutate(&file, &l, seed);
            std::fs::write(&path, &bytes).unwrap();
            made += 1;
            for args in COMMANDS {
                let at = format!("{args:?} {name} seed {seed} ({what})");
                mutants.add(&at, run_limited(args, &path, &err, timeout));
            }
        }
    }
    mutants.report(&format!(
        "{made} mutants of {} files x cat/meta/check/pages",
        valid.len()
    ));
    eprintln!("in {:.0} s", start.elapsed().as_secs_f64());
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        corpus.crashes.is_empty() && mutants.crashes.is_empty(),
        "runs killed by a signal or panicking (see above)"
    );
}
