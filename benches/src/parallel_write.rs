//! `bench --parallel-write [--threads N]`: parket's writer with one thread against `N`
//! (default: every core), in one process, in interleaved rounds (issue 22 item 3).
//!
//! For each file: the writer input is built once (untimed, as for `parket-write`); both
//! writes run once, and their bytes must be identical (the parallel path promises it); then
//! `rounds` rounds each time one write with one thread and one with `N`, the order
//! alternating from round to round, so that drift of the shared machine falls on both alike.
//! Both go through `RowGroupWriter::finish_with` (every column of a source row group in
//! one call) and `finish`. Reported: the median time of each, the fastest and slowest run
//! (the spread), and the speedup = median(1 thread) / median(N threads).

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::{arrow_side, parket_side};

fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1e3)
}

/// Runs the comparison on `files`; returns the report (a Markdown table).
pub fn run(files: &[PathBuf], rounds: usize, threads: usize) -> Result<String, String> {
    if threads < 2 {
        return Err(format!(
            "--parallel-write compares one thread with {threads}: give --threads 2 or more \
             (without --threads: every core)"
        ));
    }
    let mut out = String::new();
    writeln!(
        out,
        "| file | 1 thread ms (min-max) | {threads} threads ms (min-max) | speedup | bytes |"
    )
    .ok();
    writeln!(out, "|---|---:|---:|---:|---:|").ok();
    for file in files {
        let name = file.file_name().unwrap_or_default().to_string_lossy();
        eprintln!("parallel write: {name}");
        let bytes = std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
        let input = parket_side::prepare_write_input(&bytes).map_err(|e| e.to_string())?;
        let config = arrow_side::write_config(&bytes.clone().into()).map_err(|e| e.to_string())?;
        let write = |n: usize| {
            parket_side::write_columns(&input, &config, n).map_err(|e| format!("{name}: {e}"))
        };
        let one = write(1)?;
        if write(threads)? != one {
            return Err(format!(
                "{name}: the {threads}-thread file differs from the 1-thread file"
            ));
        }
        let (mut single, mut many) = (Vec::new(), Vec::new());
        for round in 0..rounds {
            let order = if round % 2 == 0 {
                [1, threads]
            } else {
                [threads, 1]
            };
            for n in order {
                let start = Instant::now();
                let written = write(n)?;
                let t = start.elapsed();
                drop(std::hint::black_box(written));
                if n == 1 {
                    single.push(t)
                } else {
                    many.push(t)
                }
            }
        }
        let (s, m) = (median(&mut single), median(&mut many));
        writeln!(
            out,
            "| {name} | {} ({}-{}) | {} ({}-{}) | {:.2}x | {} |",
            ms(s),
            ms(single[0]),
            ms(single[single.len() - 1]),
            ms(m),
            ms(many[0]),
            ms(many[many.len() - 1]),
            s.as_secs_f64() / m.as_secs_f64(),
            one.len()
        )
        .ok();
    }
    Ok(out)
}
