//! The write options of a file, read back from the file itself, so that every writer is asked
//! to reproduce what pyarrow wrote: page version, and per column codec, dictionary on/off and
//! value encoding.

use parket::format::{CompressionCodec, Encoding};

/// The zstd level the data sets are written with (`gen.py`: `compression_level=3`). A Parquet
/// file does not record the level, so this is an assumption shared with gen.py.
pub const ZSTD_LEVEL: i32 = 3;

/// Data page version.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PageVersion {
    /// `DATA_PAGE`.
    V1,
    /// `DATA_PAGE_V2`.
    V2,
}

/// How one leaf column was written.
#[derive(Clone, Debug)]
pub struct ColumnConfig {
    /// Path in the schema, e.g. `["attributes", "list", "element", "id"]`.
    pub path: Vec<String>,
    /// The column chunk's codec (ZSTD at level [`ZSTD_LEVEL`]).
    pub codec: CompressionCodec,
    /// Whether the column chunk has a dictionary page (in any row group).
    pub dictionary: bool,
    /// The value encoding of the data pages that are not dictionary-encoded: the encoding of a
    /// non-dictionary column, or the fallback of a dictionary column whose dictionary outgrew
    /// its limit. PLAIN (pyarrow's fallback) when no such page was seen.
    pub encoding: Encoding,
}

/// How a file was written.
#[derive(Clone, Debug)]
pub struct WriteConfig {
    /// Version of the data pages (the first data page of each column; pyarrow uses one
    /// version for the whole file).
    pub page_version: PageVersion,
    /// One entry per leaf column, in schema order.
    pub columns: Vec<ColumnConfig>,
}
