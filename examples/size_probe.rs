//! The binary-size probe (issue 8, "Small binaries"): opens the Parquet file named on the
//! command line, sums its first INT64 column over every row group and prints the sum.
//!
//! `.ci/size` builds it with the `size` profile and features `std,snappy`, next to
//! `examples/hello.rs` built the same way, and checks the difference against
//! `.ci/size-budget`:
//!
//! ```text
//! cargo build --profile size --example size_probe --no-default-features --features std,snappy
//! ```

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use parket::read::FileReader;
use parket::values::ValuesRef;

fn run(path: &Path) -> parket::Result<Option<i64>> {
    let file = FileReader::new(std::fs::File::open(path)?)?;
    let Some(column) = file
        .schema()
        .columns()
        .iter()
        .position(|c| c.physical_type == parket::format::PhysicalType::Int64)
    else {
        return Ok(None);
    };
    let mut sum = 0i64;
    for row_group in 0..file.num_row_groups() {
        let mut chunk = file.column_chunk(row_group, column)?;
        while let Some(batch) = chunk.next_batch(4096)? {
            if let ValuesRef::Int64(v) = batch.values() {
                sum = v.iter().fold(sum, |s, &x| s.wrapping_add(x));
            }
        }
    }
    Ok(Some(sum))
}

/// `n` in decimal and a newline, right-aligned in a buffer: the bytes from the returned index.
fn decimal(n: i64) -> ([u8; 24], usize) {
    let mut buf = [0u8; 24];
    let mut at = buf.len() - 1;
    buf[at] = b'\n';
    let mut m = n.unsigned_abs();
    loop {
        at -= 1;
        buf[at] = b'0' + (m % 10) as u8;
        m /= 10;
        if m == 0 {
            break;
        }
    }
    if n < 0 {
        at -= 1;
        buf[at] = b'-';
    }
    (buf, at)
}

// The probe's own `main` is lean (the file name as the OS gave it, the sum written as bytes
// without the formatting machinery, no `println!` or `eprintln!`), so that the figure is what
// reading Parquet costs: 816 bytes less than a `main` with `env::args`, `println!("{sum}")`
// and `eprintln!`. Errors are still printed through their `Display`.
fn main() -> ExitCode {
    let mut stderr = std::io::stderr();
    let Some(path) = std::env::args_os().nth(1) else {
        let _ = stderr.write_all(b"usage: size_probe FILE.parquet\n");
        return ExitCode::from(2);
    };
    let result = run(Path::new(&path));
    if let Ok(Some(sum)) = result {
        let (buf, at) = decimal(sum);
        return match std::io::stdout().write_all(&buf[at..]) {
            Ok(()) => ExitCode::SUCCESS,
            Err(_) => ExitCode::FAILURE,
        };
    }
    let _ = stderr.write_all(path.as_encoded_bytes());
    let _ = match result {
        Err(e) => writeln!(stderr, ": {e}"),
        _ => stderr.write_all(b": no INT64 column\n"),
    };
    ExitCode::FAILURE
}
