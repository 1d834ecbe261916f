//! Prints a checksum of every value of each Parquet file named on the command line, read with
//! `FileReader::from_bytes`: one line per file, `<checksum in hex> <path>` or
//! `error <path>: <message>`.
//!
//! Built by `tests/no_std_reader.rs` with `--no-default-features` (and the features of the
//! encodings beyond PLAIN, dictionary and RLE), so the parket it runs is the `#![no_std]` +
//! `alloc` library (this program itself uses `std` only to read files and print);
//! the test compares its sums with the std reader's. The sum is
//! `tests/no_std_probe/src/checksum.rs`, which the bare-metal no_std probe links too.

#[path = "../tests/no_std_probe/src/checksum.rs"]
mod checksum;

fn main() {
    for path in std::env::args().skip(1) {
        let sum = std::fs::read(&path)
            .map_err(|e| e.to_string())
            .and_then(|bytes| checksum::checksum(&bytes).map_err(|e| e.to_string()));
        match sum {
            Ok(sum) => println!("{sum:016x} {path}"),
            Err(e) => println!("error {path}: {e}"),
        }
    }
}
