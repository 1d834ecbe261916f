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

use std::process::ExitCode;

use parket::read::FileReader;
use parket::values::ValuesRef;

fn run(path: &str) -> parket::Result<Option<i64>> {
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

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: size_probe FILE.parquet");
        return ExitCode::from(2);
    };
    match run(&path) {
        Ok(Some(sum)) => {
            println!("{sum}");
            ExitCode::SUCCESS
        }
        Ok(None) => {
            eprintln!("{path}: no INT64 column");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("{path}: {e}");
            ExitCode::FAILURE
        }
    }
}
