//! Peak heap of parallel writes (issue 22 item 3), measured by a counting global allocator in
//! this test binary, against the same writes on one thread:
//!
//! - buffered (`FileWriter::write_columns` in batches of 64 Ki rows, row groups of 2 Mi rows:
//!   every chunk holds its pages until the row-group cut): the parallel peak is the
//!   single-thread peak within 1 MiB — the threads hold nothing of their own;
//! - streaming (`RowGroupWriter::write_columns` of the same batches, one row group, the
//!   front column's pages written out after each call): the parallel peak exceeds the
//!   single-thread peak by at most the front column's encoded pages of one call (512 KiB here)
//!   plus 1 MiB, and both stay under the held chunk of the other column plus 4 MiB;
//! - fused (the same, the last batch through `RowGroupWriter::finish_with`, which writes
//!   each chunk out as soon as the ones before it are closed): the same bounds.
//!
//! Both in one `#[test]` so the counts are theirs alone; the numbers are printed
//! (`cargo test --test memory_parallel_write -- --nocapture`).
#![cfg(all(feature = "std", feature = "write"))]

use parket::compression::Codec;
use parket::levels::LeafData;
use parket::schema::Schema;
use parket::values::Values;
use parket::write::{FileWriter, WriteOptions};

#[path = "common/counting.rs"]
mod counting;
use counting::measured;

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

const MB: usize = 1 << 20;
const ROWS: usize = 4 << 20;
const BATCH: usize = 64 << 10;

/// Values that neither repeat nor compress: 8 bytes each in PLAIN.
fn batch(start: usize, salt: i64) -> Vec<i64> {
    (start..start + BATCH)
        .map(|i| (i as i64).wrapping_mul(0x9e37_79b9_7f4a_7c15u64 as i64) ^ salt)
        .collect()
}

fn leaves(start: usize) -> [LeafData; 2] {
    let leaf = |salt| LeafData {
        values: Values::Int64(batch(start, salt)),
        def_levels: Vec::new(),
        rep_levels: Vec::new(),
    };
    [leaf(1), leaf(7)]
}

/// Writes `ROWS` rows of two INT64 columns into a counting sink (the file itself is not
/// kept: memory is the writer's). Returns the peak heap above the start and the bytes
/// written. Each batch's input is built before the measured part of its call.
fn write(threads: usize, streaming: bool, fused: bool) -> (usize, u64) {
    let schema = Schema::parse("message m { required int64 a; required int64 b; }").unwrap();
    let options = WriteOptions::default()
        .dictionary(false)
        .codec(Codec::Uncompressed)
        .page_index(false)
        .row_group_rows(2 << 20)
        .threads(threads);
    let mut w = FileWriter::new(std::io::sink(), schema, options).unwrap();
    // The inputs: allocated before the measurement, so only the writer's memory counts.
    let inputs: Vec<[LeafData; 2]> = (0..ROWS / BATCH).map(|k| leaves(k * BATCH)).collect();
    let ((), peak) = measured(|| {
        if streaming {
            let mut rg = w.next_row_group().unwrap();
            let (last, head) = inputs.split_last().unwrap();
            for input in head {
                rg.write_columns(input).unwrap();
            }
            if fused {
                rg.finish_with(last).unwrap();
            } else {
                rg.write_columns(last).unwrap();
                rg.finish().unwrap();
            }
        } else {
            for input in &inputs {
                w.write_columns(input).unwrap();
            }
        }
        w.finish().unwrap();
    });
    (peak, w.bytes_written())
}

#[test]
fn parallel_write_memory_is_bounded() {
    let column = ROWS * 8;
    let rg_columns = (2 << 20) * 8 * 2;
    let (single, bytes1) = write(1, false, false);
    let (parallel, bytes2) = write(2, false, false);
    println!(
        "buffered, row groups of 2 Mi rows ({} MiB of pages): peak {:.1} MiB on 1 thread, \
         {:.1} MiB on 2",
        rg_columns / MB,
        single as f64 / MB as f64,
        parallel as f64 / MB as f64
    );
    assert_eq!(bytes1, bytes2);
    assert!(single >= rg_columns, "the row group is held: {single}");
    assert!(parallel <= single + MB, "{parallel} against {single}");

    let (single, bytes1) = write(1, true, false);
    let (parallel, bytes2) = write(2, true, false);
    println!(
        "streaming, one row group (column b held: {} MiB): peak {:.1} MiB on 1 thread, \
         {:.1} MiB on 2",
        column / MB,
        single as f64 / MB as f64,
        parallel as f64 / MB as f64
    );
    assert_eq!(bytes1, bytes2);
    assert!(single <= column + 4 * MB, "{single}");
    assert!(
        parallel <= single + BATCH * 8 + MB,
        "{parallel} against {single}"
    );
    assert!(parallel <= column + 4 * MB, "{parallel}");

    let (fused1, bytes3) = write(1, true, true);
    let (fused2, bytes4) = write(2, true, true);
    println!(
        "fused (finish_with last): peak {:.1} MiB on 1 thread, {:.1} MiB on 2",
        fused1 as f64 / MB as f64,
        fused2 as f64 / MB as f64
    );
    assert_eq!((bytes3, bytes4), (bytes1, bytes1));
    assert!(fused1 <= column + 4 * MB, "{fused1}");
    assert!(
        fused2 <= single + BATCH * 8 + MB,
        "{fused2} against {single}"
    );
    assert!(fused2 <= column + 4 * MB, "{fused2}");
}
