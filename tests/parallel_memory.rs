//! Peak heap of a parallel scan (issue 22), measured by a counting global allocator in this
//! test binary: decoding a batch's columns on 4 threads holds what one thread holds (a decoded
//! page per column and the batch), so its peak stays within a small multiple of the
//! one-thread peak, and nowhere near the file's size. One `#[test]`, so that the counts are
//! its own; the numbers are printed (`cargo test --test parallel_memory -- --nocapture`).
#![cfg(all(feature = "std", feature = "write"))]

use parket::compression::Codec;
use parket::read::FileReader;
use parket::schema::Schema;
use parket::values::ValuesRef;
use parket::write::{FileWriter, WriteOptions};

#[path = "common/counting.rs"]
mod counting;
use counting::measured;

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

const MB: usize = 1 << 20;
const COLUMNS: usize = 8;
const ROWS: usize = 2_000_000;

/// 8 INT64 columns of 2M rows (128 MB of values) in one row group, 1 MiB pages.
fn write(path: &std::path::Path) {
    let fields: String = (0..COLUMNS)
        .map(|c| format!("required int64 c{c}; "))
        .collect();
    let schema = Schema::parse(&format!("message m {{ {fields}}}")).unwrap();
    let options = WriteOptions::default()
        .dictionary(false)
        .codec(Codec::Uncompressed)
        .data_page_size(MB);
    let file = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    let mut w = FileWriter::new(file, schema, options).unwrap();
    let mut rg = w.next_row_group().unwrap();
    let mut batch = vec![0i64; 1 << 16];
    for c in 0..COLUMNS {
        for start in (0..ROWS).step_by(batch.len()) {
            let n = batch.len().min(ROWS - start);
            for (k, v) in batch[..n].iter_mut().enumerate() {
                *v = ((start + k) as i64).wrapping_mul(0x9e37_79b9 + c as i64);
            }
            rg.write(c, ValuesRef::Int64(&batch[..n]), &[], &[])
                .unwrap();
        }
    }
    rg.finish().unwrap();
    w.finish().unwrap();
}

/// Scans every column in batches on `threads` threads: (values, checksum).
fn scan(path: &std::path::Path, threads: usize) -> (usize, i64) {
    let file = FileReader::new(std::fs::File::open(path).unwrap()).unwrap();
    let (mut n, mut sum) = (0usize, 0i64);
    for batch in file.scan().threads(threads).build().unwrap() {
        for column in batch.unwrap().columns {
            if let ValuesRef::Int64(v) = column.values.as_ref() {
                n += v.len();
                sum = v.iter().fold(sum, |s, x| s.wrapping_add(*x));
            }
        }
    }
    (n, sum)
}

#[test]
fn a_parallel_scan_holds_a_small_multiple_of_the_one_thread_peak() {
    let dir = std::env::temp_dir().join(format!("parket-par-memory-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("wide.parquet");
    write(&path);
    let file_bytes = std::fs::metadata(&path).unwrap().len();
    let (one, one_peak) = measured(|| scan(&path, 1));
    let (four, four_peak) = measured(|| scan(&path, 4));
    std::fs::remove_file(&path).unwrap();
    println!(
        "file {} MB; peak heap: 1 thread {:.1} MB, 4 threads {:.1} MB ({:.2}x)",
        file_bytes / MB as u64,
        one_peak as f64 / MB as f64,
        four_peak as f64 / MB as f64,
        four_peak as f64 / one_peak as f64
    );
    assert_eq!(one.0, COLUMNS * ROWS);
    assert_eq!(one, four, "the threads read other values");
    assert!(
        four_peak <= 2 * one_peak,
        "4 threads peak at {four_peak} bytes, 1 thread at {one_peak}"
    );
    // Bounded by pages and a batch, not by the 128 MB of the file.
    assert!(four_peak < 32 * MB, "{four_peak} bytes at the peak");
}
