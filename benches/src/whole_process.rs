//! Whole-process comparison (issue 7): `parket check FILE` against a process that decodes the
//! same file with arrow-rs's low-level column readers (`bench --arrow-decode FILE`).
//!
//! ```text
//! cargo build --release --features cli                      # the parket binary
//! CARGO_TARGET_DIR=/work/target-benches cargo run --release --manifest-path benches/Cargo.toml -- \
//!     --whole-process target/release/parket --filter taxi-v1-dict-snappy --runs 11
//! ```
//!
//! Each command is one process started cold (binary loaded, file opened and read, footer
//! parsed, every column decoded, exit), with the file in the page cache. The two commands
//! alternate, after one warm-up run of each; the median wall time of `--runs` runs is
//! reported, and the peak RSS when `/usr/bin/time` is there to measure it.
//!
//! `parket check` does more than decode: it verifies page CRCs, recomputes the chunk
//! statistics and compares them, and walks the page headers a second time. The arrow-rs side
//! only decodes (values and levels, `read_records`, 8,192 records a call, buffers reused), so
//! the comparison is conservative for parket.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use bytes::Bytes;

/// `bench --arrow-decode FILE`: reads the file and decodes every column with arrow-rs's
/// low-level readers; prints the number of non-null values.
pub fn arrow_decode(file: &Path) -> Result<(), String> {
    let bytes = std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let values = crate::arrow_side::decode_all_columns(&Bytes::from(bytes))
        .map_err(|e| format!("{}: {e}", file.display()))?;
    println!("{values} values");
    Ok(())
}

/// One command's timings.
struct Timed {
    runs: Vec<Duration>,
    peak_kib: Option<u64>,
}

impl Timed {
    fn median(&mut self) -> Duration {
        self.runs.sort();
        self.runs[self.runs.len() / 2]
    }
}

/// Runs `program args` once; its wall time, and its peak RSS when `/usr/bin/time` exists.
pub(crate) fn run_once(program: &Path, args: &[&Path]) -> Result<(Duration, Option<u64>), String> {
    let gnu_time = Path::new("/usr/bin/time");
    let mut command = if gnu_time.exists() {
        let mut c = Command::new(gnu_time);
        c.arg("-f").arg("PEAK_KIB=%M").arg(program);
        c
    } else {
        Command::new(program)
    };
    command.args(args);
    let start = Instant::now();
    let output = command
        .output()
        .map_err(|e| format!("{}: {e}", program.display()))?;
    let elapsed = start.elapsed();
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        return Err(format!(
            "{} {:?} failed ({}): {}",
            program.display(),
            args,
            output.status,
            stderr.trim()
        ));
    }
    let peak = stderr
        .lines()
        .find_map(|l| l.strip_prefix("PEAK_KIB="))
        .and_then(|v| v.trim().parse().ok());
    Ok((elapsed, peak))
}

/// Times both commands on every file; returns a Markdown table.
pub fn compare(parket: &Path, files: &[PathBuf], runs: usize) -> Result<String, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut table = String::from(
        "| file | parket check (ms) | arrow-rs decode (ms) | arrow-rs / parket | \
         peak RSS MiB (parket / arrow-rs) |\n|---|---:|---:|---:|---:|\n",
    );
    for file in files {
        eprintln!("bench: whole process, {}", file.display());
        let check: [&Path; 2] = [Path::new("check"), file];
        let decode: [&Path; 2] = [Path::new("--arrow-decode"), file];
        let mut p = Timed {
            runs: Vec::new(),
            peak_kib: None,
        };
        let mut a = Timed {
            runs: Vec::new(),
            peak_kib: None,
        };
        for i in 0..=runs {
            let (tp, kp) = run_once(parket, &check)?;
            let (ta, ka) = run_once(&exe, &decode)?;
            if i > 0 {
                p.runs.push(tp);
                a.runs.push(ta);
                p.peak_kib = p.peak_kib.max(kp);
                a.peak_kib = a.peak_kib.max(ka);
            }
        }
        let (mp, ma) = (p.median(), a.median());
        let mib = |k: Option<u64>| k.map_or("-".into(), |k| format!("{:.1}", k as f64 / 1024.0));
        table.push_str(&format!(
            "| {} | {:.1} | {:.1} | {:.2}x | {} / {} |\n",
            file.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            mp.as_secs_f64() * 1e3,
            ma.as_secs_f64() * 1e3,
            ma.as_secs_f64() / mp.as_secs_f64(),
            mib(p.peak_kib),
            mib(a.peak_kib),
        ));
    }
    Ok(table)
}
