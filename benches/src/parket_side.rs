//! parket's side of the benchmark.
//!
//! ============================================================================================
//! HOLE TO FILL IN: parket's reader and writer do not exist yet. Every function below returns
//! `Err(SideError::NotYetAvailable)`, which the harness prints as "n/a". Replace each body with
//! the real call once the API lands; the harness needs no other change.
//! ============================================================================================
//!
//! What each function must do, so that its timing is comparable with the arrow-rs path beside
//! it (see `arrow_side.rs`):
//!
//! - [`decode_all_columns`] is the counterpart of arrow-rs's low-level `ColumnReader` path:
//!   open the file from `bytes` (footer included in the timing), then for every row group and
//!   every leaf column decode all values and their def/rep levels into reused buffers. Returns
//!   the number of non-null leaf values decoded, summed over columns (the harness checks it
//!   against arrow-rs's `values_read`).
//! - [`assemble_records`] is the counterpart of arrow-rs's Arrow reader: decode every column
//!   and assemble records (parket's `Record` or whatever record/columnar form the lead
//!   chooses). Returns the number of top-level records (checked against the row count).
//! - [`prepare_write_input`] runs once, untimed, and builds parket's native writer input from
//!   the file (as arrow-rs's write is timed from Arrow batches that were decoded beforehand).
//! - [`write`] is timed: encode `input` with `config` (the file's own page version, codec,
//!   dictionary and encodings) into a new `Vec<u8>` holding a whole Parquet file.

use crate::config::WriteConfig;
use core::fmt;

/// Why parket's side gave no result.
#[derive(Debug)]
pub enum SideError {
    /// The parket API this measurement needs does not exist yet: printed as "n/a".
    NotYetAvailable,
    /// parket failed on this file: printed as an error in the table.
    Failed(String),
}

impl fmt::Display for SideError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SideError::NotYetAvailable => f.write_str("parket reader not yet available"),
            SideError::Failed(message) => f.write_str(message),
        }
    }
}

impl From<parket::Error> for SideError {
    fn from(error: parket::Error) -> Self {
        SideError::Failed(error.to_string())
    }
}

/// parket's writer input, built once per file by [`prepare_write_input`] (untimed).
/// HOLE: the lead decides what it holds (records, or per column values + levels).
pub struct WriteInput {}

/// Decodes every leaf column of every row group; returns the number of non-null values.
pub fn decode_all_columns(bytes: &[u8]) -> Result<usize, SideError> {
    let _ = bytes;
    Err(SideError::NotYetAvailable)
}

/// Decodes every column and assembles records; returns the number of records.
pub fn assemble_records(bytes: &[u8]) -> Result<usize, SideError> {
    let _ = bytes;
    Err(SideError::NotYetAvailable)
}

/// Builds parket's writer input from a file's bytes (not timed).
pub fn prepare_write_input(bytes: &[u8]) -> Result<WriteInput, SideError> {
    let _ = bytes;
    Err(SideError::NotYetAvailable)
}

/// Writes `input` as a Parquet file with `config`; returns the file's bytes.
pub fn write(input: &WriteInput, config: &WriteConfig) -> Result<Vec<u8>, SideError> {
    let _ = (input, config);
    Err(SideError::NotYetAvailable)
}
