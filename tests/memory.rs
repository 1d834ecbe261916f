//! Memory (issue 4), measured by a counting global allocator in this test binary:
//!
//! - reading a file with a ~200 MB column chunk through `FileReader::new(File)` (the
//!   `Read + Seek` path) with `next_batch(4096)` keeps the peak heap under 64 MB plus the batch,
//!   and so does iterating its 25M records (`FileReader::records`, streamed page by page);
//! - writing 256 MB in row groups of 32 MB through `RowGroupWriter::column` keeps the peak heap
//!   under 64 MB (2x the row group: its pages are held until the row group ends);
//! - writing the ~200 MB row group through `RowGroupWriter::write` (pages straight to the
//!   file) keeps it under 8 MB.
//!
//! Both run in one `#[test]` so the counts are theirs alone. The numbers are printed
//! (`cargo test --test memory -- --nocapture`).
#![cfg(all(feature = "std", feature = "write"))]

use std::time::Instant;

use parket::compression::Codec;
use parket::read::FileReader;
use parket::record::Value;
use parket::schema::Schema;
use parket::values::ValuesRef;
use parket::write::{FileWriter, WriteOptions};

#[path = "common/counting.rs"]
mod counting;
use counting::measured;

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

const MB: usize = 1 << 20;

/// Values that neither repeat nor compress well: 8 bytes each in PLAIN.
fn fill(batch: &mut [i64], start: i64) {
    for (k, v) in batch.iter_mut().enumerate() {
        let i = start + k as i64;
        *v = i.wrapping_mul(0x9e37_79b9_7f4a_7c15u64 as i64) ^ (i >> 3);
    }
}

/// Writes `rows` INT64 values in row groups of `rg_rows`, from batches of `batch.len()`,
/// through `RowGroupWriter::write` (`streamed`) or `RowGroupWriter::column`; returns the
/// bytes written.
fn write(
    path: &std::path::Path,
    rows: usize,
    rg_rows: usize,
    batch: &mut [i64],
    streamed: bool,
) -> u64 {
    let schema = Schema::parse("message m { required int64 v; }").unwrap();
    let options = WriteOptions::default()
        .dictionary(false)
        .codec(Codec::Uncompressed)
        .data_page_size(MB);
    let file = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    let mut w = FileWriter::new(file, schema, options).unwrap();
    let mut written = 0;
    while written < rows {
        let mut rg = w.next_row_group().unwrap();
        let end = (written + rg_rows).min(rows);
        while written < end {
            let n = batch.len().min(end - written);
            fill(&mut batch[..n], written as i64);
            let values = ValuesRef::Int64(&batch[..n]);
            if streamed {
                rg.write(0, values, &[], &[]).unwrap();
            } else {
                rg.column(0).unwrap().write(values, &[], &[]).unwrap();
            }
            written += n;
        }
        rg.finish().unwrap();
    }
    w.finish().unwrap();
    w.bytes_written()
}

#[test]
fn peak_memory_reading_and_writing() {
    let dir = std::env::temp_dir().join(format!("parket-memory-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // The input batch (8 MB) exists before the measurements: it is the caller's data.
    let mut batch = vec![0i64; 1 << 20];

    // Reading: one column chunk of 25M INT64 (200 MB) in 1 MiB pages.
    let rows = 25_000_000;
    let path = dir.join("one-chunk.parquet");
    let t = Instant::now();
    let (bytes, write_one_peak) = measured(|| write(&path, rows, rows, &mut batch, true));
    let write_time = t.elapsed();
    assert!(bytes > 200_000_000, "{bytes} bytes");
    let t = Instant::now();
    let ((count, sum), read_peak) = measured(|| {
        let file = FileReader::new(std::fs::File::open(&path).unwrap()).unwrap();
        let mut col = file.column_chunk(0, "v").unwrap();
        let (mut count, mut sum) = (0usize, 0i64);
        while let Some(b) = col.next_batch(4096).unwrap() {
            count += b.len();
            if let ValuesRef::Int64(v) = b.values() {
                sum = v.iter().fold(sum, |s, x| s.wrapping_add(*x));
            }
        }
        (count, sum)
    });
    let read_time = t.elapsed();
    assert_eq!(count, rows);
    let mut expected = 0i64;
    for start in (0..rows).step_by(batch.len()) {
        let n = batch.len().min(rows - start);
        fill(&mut batch[..n], start as i64);
        expected = batch[..n].iter().fold(expected, |s, x| s.wrapping_add(*x));
    }
    assert_eq!(sum, expected);

    // Records over the same chunk: streamed page by page, so bounded like the batches (the
    // 25M records of the row group would be over 1 GB at once, and more than
    // Limits::values_per_read allows a whole-chunk read).
    let t = Instant::now();
    let ((record_count, record_sum), records_peak) = measured(|| {
        let file = FileReader::new(std::fs::File::open(&path).unwrap()).unwrap();
        let (mut count, mut sum) = (0usize, 0i64);
        for r in file.records(None).unwrap() {
            match r.unwrap() {
                Value::Group(g) => match g.as_slice() {
                    [Value::Int64(x)] => sum = sum.wrapping_add(*x),
                    other => panic!("record {count}: {other:?}"),
                },
                other => panic!("record {count}: {other:?}"),
            }
            count += 1;
        }
        (count, sum)
    });
    let records_time = t.elapsed();
    assert_eq!((record_count, record_sum), (rows, expected));
    std::fs::remove_file(&path).unwrap();

    // Writing: 256 MB in row groups of 32 MB (4M INT64 each).
    let path = dir.join("row-groups.parquet");
    let t = Instant::now();
    let (bytes_rg, write_peak) = measured(|| write(&path, 32 << 20, 4 << 20, &mut batch, false));
    let write_rg_time = t.elapsed();
    std::fs::remove_file(&path).unwrap();
    let _ = std::fs::remove_dir(&dir);

    eprintln!(
        "memory: read {} MB chunk (next_batch 4096, Read+Seek): peak {:.1} MB in {:.1?}; \
         records of that chunk: peak {:.1} MB in {:.1?}; \
         write of that one-row-group file (streamed): peak {:.1} MB in {:.1?}; write {} MB in 32 MB row \
         groups: peak {:.1} MB in {:.1?}",
        bytes / 1_000_000,
        read_peak as f64 / MB as f64,
        read_time,
        records_peak as f64 / MB as f64,
        records_time,
        write_one_peak as f64 / MB as f64,
        write_time,
        bytes_rg / 1_000_000,
        write_peak as f64 / MB as f64,
        write_rg_time,
    );
    assert!(
        read_peak < 64 * MB + 4096 * 8,
        "reading peaked at {read_peak} bytes"
    );
    assert!(
        records_peak < 64 * MB,
        "records peaked at {records_peak} bytes"
    );
    assert!(
        write_one_peak < 8 * MB,
        "writing a 200 MB row group streamed peaked at {write_one_peak} bytes"
    );
    assert!(
        write_peak < 64 * MB,
        "writing 32 MB row groups peaked at {write_peak} bytes"
    );
}
