//! parket's side of the benchmark.
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

use crate::config::{PageVersion, WriteConfig, ZSTD_LEVEL};
use core::fmt;
use parket::compression::Codec;
use parket::format::CompressionCodec;
use parket::levels::LeafData;
use parket::read::{ChunkBuffers, FileReader};
use parket::schema::Schema;
use parket::write::{FileWriter, WriteOptions};

/// Why parket's side gave no result.
#[derive(Debug)]
pub enum SideError {
    /// The parket API this measurement needs does not exist yet: printed as "n/a".
    /// (No measurement returns it any more; kept for the harness's "n/a" column.)
    #[allow(dead_code)]
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

/// parket's writer input, built once per file by [`prepare_write_input`] (untimed): the
/// schema, and per row group one [`LeafData`] (levels and non-null values) per leaf column,
/// the form `FileWriter::write_columns` takes.
pub struct WriteInput {
    schema: Schema,
    row_groups: Vec<Vec<LeafData>>,
}

/// Rows per `next_batch` call: the same as arrow-rs's `read_records` batch.
const BATCH: usize = crate::arrow_side::BATCH_SIZE;

/// Decodes every leaf column of every row group; returns the number of non-null values.
///
/// `next_batch` lends out slices of the reader's page buffers, which are reused from page to
/// page, and from chunk to chunk through `ChunkBuffers` (the counterpart of arrow-rs's
/// `Vec`s reused across columns).
pub fn decode_all_columns(bytes: &[u8]) -> Result<usize, SideError> {
    let file = FileReader::from_bytes(bytes)?;
    let num_columns = file.schema().columns().len();
    let mut total = 0;
    let mut buffers = ChunkBuffers::default();
    for rg in 0..file.num_row_groups() {
        for column in 0..num_columns {
            let mut reader = file.column_chunk_with(rg, column, buffers)?;
            while let Some(batch) = reader.next_batch(BATCH)? {
                std::hint::black_box((batch.def_levels(), batch.rep_levels()));
                total += std::hint::black_box(batch.values()).len();
            }
            buffers = reader.into_buffers();
        }
    }
    Ok(total)
}

/// Decodes every column and assembles records; returns the number of records.
pub fn assemble_records(bytes: &[u8]) -> Result<usize, SideError> {
    let file = FileReader::from_bytes(bytes)?;
    let mut count = 0;
    for record in file.records(None)? {
        std::hint::black_box(record?);
        count += 1;
    }
    Ok(count)
}

/// Builds parket's writer input from a file's bytes (not timed).
pub fn prepare_write_input(bytes: &[u8]) -> Result<WriteInput, SideError> {
    let file = FileReader::from_bytes(bytes)?;
    let all: Vec<usize> = (0..file.schema().columns().len()).collect();
    let row_groups = (0..file.num_row_groups())
        .map(|rg| file.read_row_group(rg, &all))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(WriteInput {
        schema: file.schema().clone(),
        row_groups,
    })
}

fn codec(c: CompressionCodec) -> Result<Codec, SideError> {
    Ok(match c {
        CompressionCodec::Uncompressed => Codec::Uncompressed,
        CompressionCodec::Snappy => Codec::Snappy,
        CompressionCodec::Zstd => Codec::Zstd { level: ZSTD_LEVEL },
        other => {
            return Err(SideError::Failed(format!(
                "codec {other} is not used by the data sets"
            )))
        }
    })
}

/// The writer options reproducing `config`, with what pyarrow (and the arrow-rs side) write
/// by default: chunk statistics, no page index, no page CRC. Page size, rows per page and the
/// dictionary size limit are parket's defaults, which are pyarrow's.
pub fn options(config: &WriteConfig) -> Result<WriteOptions, SideError> {
    let mut options = WriteOptions::default()
        .page_version(match config.page_version {
            PageVersion::V1 => parket::write::PageVersion::V1,
            PageVersion::V2 => parket::write::PageVersion::V2,
        })
        .statistics(true)
        .page_index(false)
        .page_crc(false)
        .threads(1);
    for column in &config.columns {
        let c = codec(column.codec)?;
        let path = column.path.join(".");
        options = options.column(&path, |o| {
            o.codec(c)
                .dictionary(column.dictionary)
                .encoding(column.encoding)
        });
    }
    Ok(options)
}

/// Writes `input` as a Parquet file with `config`; returns the file's bytes. Each source row
/// group becomes one row group: its columns are written whole through a `RowGroupWriter`
/// (what `FileWriter::write_columns` does, without its row-count split rule).
pub fn write(input: &WriteInput, config: &WriteConfig) -> Result<Vec<u8>, SideError> {
    let options = options(config)?;
    let mut writer = FileWriter::new(Vec::new(), input.schema.clone(), options)?;
    for leaves in &input.row_groups {
        let mut rg = writer.next_row_group()?;
        // In schema order, each column closed when written: its pages go straight to the
        // file instead of waiting in memory for the row group's end.
        for (i, leaf) in leaves.iter().enumerate() {
            rg.write(i, leaf.values.as_ref(), &leaf.def_levels, &leaf.rep_levels)?;
            rg.close_column(i)?;
        }
        rg.finish()?;
    }
    writer.finish()?;
    Ok(writer.into_inner())
}

/// Writes `input` as [`write`] does, but each source row group in one
/// `RowGroupWriter::finish_with` call, with `threads` threads (`bench --parallel-write`).
/// The bytes are [`write`]'s whatever `threads` is.
pub fn write_columns(
    input: &WriteInput,
    config: &WriteConfig,
    threads: usize,
) -> Result<Vec<u8>, SideError> {
    let options = options(config)?.threads(threads);
    let mut writer = FileWriter::new(Vec::new(), input.schema.clone(), options)?;
    for leaves in &input.row_groups {
        writer.next_row_group()?.finish_with(leaves)?;
    }
    writer.finish()?;
    Ok(writer.into_inner())
}
