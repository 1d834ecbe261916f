//! Fuzzing harness for the Arrow reader: [`fuzz_arrow`] (the `arrow` target of `fuzz/`,
//! replayed by `tests/fuzz_regressions.rs`). Not part of the public API.
//!
//! Hostile bytes read through [`BatchReader`] must give an error or batches whose every array
//! passes arrow-rs's full validation (`ArrayData::validate_full`: offsets, lengths, null
//! counts, UTF-8 of string arrays, dictionary keys, children), since the reader builds some
//! arrays without arrow-rs's checks (`src/arrow/unchecked.rs`).

use arrow_array::{Array, RecordBatch};

use super::BatchReader;
use crate::read::fuzz::limits;
use crate::read::FileReader;

/// Panics unless every array of `batch` (children included) is valid by arrow-rs's own
/// checks.
fn check(batch: &RecordBatch, rows: usize) {
    for (i, column) in batch.columns().iter().enumerate() {
        assert_eq!(column.len(), batch.num_rows(), "column {i}: length");
        if let Err(e) = column.to_data().validate_full() {
            panic!("column {i} of the batch at row {rows}: an invalid Arrow array: {e}");
        }
    }
}

/// Fuzzing harness: reads `data` as a file with [`BatchReader`], in batches of 1,000 rows and
/// of 7 (one thread), and panics if an array it returns is not valid Arrow data, or if both
/// reads succeed with different numbers of rows. Never panics otherwise, for any input.
#[doc(hidden)]
pub fn fuzz_arrow(data: &[u8]) {
    let Ok(file) = FileReader::from_bytes_with_limits(data, limits()) else {
        return;
    };
    let file = file.with_limits(limits());
    let mut totals = [None, None];
    for (total, batch) in totals.iter_mut().zip([1000, 7]) {
        let Ok(reader) = BatchReader::from_scan(file.scan().batch_size(batch).threads(1)) else {
            return;
        };
        let mut rows = 0;
        for b in reader {
            let Ok(b) = b else {
                rows = usize::MAX;
                break;
            };
            check(&b, rows);
            rows += b.num_rows();
        }
        *total = (rows != usize::MAX).then_some(rows);
    }
    if let [Some(a), Some(b)] = totals {
        assert_eq!(
            a, b,
            "batches of 1,000 and of 7 rows read different row counts"
        );
    }
}
