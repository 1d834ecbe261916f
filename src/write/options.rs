//! Writer options: file-level settings and per-column settings with overrides by dotted path.
//!
//! Defaults, and why:
//!
//! | option | default | why |
//! |---|---|---|
//! | codec | SNAPPY | what pyarrow and parquet-java write by default; cheap and readable everywhere |
//! | dictionary | on, 1 MiB dictionary page limit | pyarrow's defaults; on overflow the rest of the chunk uses the fallback encoding (no second dictionary) |
//! | encoding (fallback) | PLAIN | readable by every reader |
//! | page version | V1 | every reader reads V1; V2 is opt-in |
//! | data page size | 1 MiB, at most 20 000 rows | pyarrow's limits, so page counts (and file sizes) match |
//! | row group | 1 Mi rows or 128 MiB of encoded pages | pyarrow's row count; parquet-java's byte size |
//! | statistics | on | chunk statistics in ColumnMetaData, page statistics in the column index |
//! | page CRC | on | parquet-java's default: about 6 bytes per page, and a reader can then detect a torn or flipped page |
//! | page index | on | lets readers skip pages; page headers then carry no statistics (as pyarrow does) |
//! | column index truncation | 64 bytes | parquet-java's default: long strings do not bloat the index |
//! | chunk statistics truncation | none | pyarrow does not truncate them |
//! | bloom filter | off | costs space; turned on per column with an fpp (and optionally an ndv) |
//! | threads | every core | the columns of a row group encode in parallel; the bytes do not depend on it |

use alloc::string::String;
use alloc::vec::Vec;

use crate::compression::Codec;
use crate::error::{Error, Result};
use crate::format::{Encoding, KeyValue, PhysicalType};

pub use crate::page::encode::PageVersion;

/// Bloom filter settings of a column.
#[derive(Debug, Clone, Copy, PartialEq)]
#[must_use]
pub struct BloomFilterOptions {
    /// False-positive probability, `0 < fpp < 1`.
    pub fpp: f64,
    /// Expected distinct values per column chunk; `None` sizes the filter from the distinct
    /// values actually written (their hashes are kept until the chunk ends).
    pub ndv: Option<u64>,
}

impl Default for BloomFilterOptions {
    fn default() -> Self {
        BloomFilterOptions {
            fpp: 0.01,
            ndv: None,
        }
    }
}

/// Settings of one column; unset fields take the file-level value.
#[derive(Debug, Clone, Default, PartialEq)]
#[must_use]
pub struct ColumnOptions {
    pub(crate) page_version: Option<PageVersion>,
    pub(crate) codec: Option<Codec>,
    pub(crate) dictionary: Option<bool>,
    pub(crate) dictionary_page_size_limit: Option<usize>,
    pub(crate) encoding: Option<Encoding>,
    pub(crate) data_page_size: Option<usize>,
    pub(crate) max_rows_per_page: Option<usize>,
    pub(crate) statistics: Option<bool>,
    pub(crate) bloom_filter: Option<Option<BloomFilterOptions>>,
}

impl ColumnOptions {
    /// Data page version.
    pub fn page_version(mut self, v: PageVersion) -> Self {
        self.page_version = Some(v);
        self
    }
    /// Compression codec with its level.
    pub fn codec(mut self, c: Codec) -> Self {
        self.codec = Some(c);
        self
    }
    /// Dictionary encoding on or off.
    pub fn dictionary(mut self, on: bool) -> Self {
        self.dictionary = Some(on);
        self
    }
    /// Largest dictionary page (PLAIN bytes) before falling back.
    pub fn dictionary_page_size_limit(mut self, bytes: usize) -> Self {
        self.dictionary_page_size_limit = Some(bytes);
        self
    }
    /// Value encoding when the dictionary is off or has overflowed.
    pub fn encoding(mut self, e: Encoding) -> Self {
        self.encoding = Some(e);
        self
    }
    /// Target encoded bytes per data page.
    pub fn data_page_size(mut self, bytes: usize) -> Self {
        self.data_page_size = Some(bytes);
        self
    }
    /// Most rows per data page.
    pub fn max_rows_per_page(mut self, rows: usize) -> Self {
        self.max_rows_per_page = Some(rows);
        self
    }
    /// Statistics (chunk and page index min/max) on or off.
    pub fn statistics(mut self, on: bool) -> Self {
        self.statistics = Some(on);
        self
    }
    /// A Bloom filter, or none.
    pub fn bloom_filter(mut self, b: Option<BloomFilterOptions>) -> Self {
        self.bloom_filter = Some(b);
        self
    }

    fn overlay(&self, o: &ColumnOptions) -> ColumnOptions {
        ColumnOptions {
            page_version: o.page_version.or(self.page_version),
            codec: o.codec.or(self.codec),
            dictionary: o.dictionary.or(self.dictionary),
            dictionary_page_size_limit: o
                .dictionary_page_size_limit
                .or(self.dictionary_page_size_limit),
            encoding: o.encoding.or(self.encoding),
            data_page_size: o.data_page_size.or(self.data_page_size),
            max_rows_per_page: o.max_rows_per_page.or(self.max_rows_per_page),
            statistics: o.statistics.or(self.statistics),
            bloom_filter: o.bloom_filter.or(self.bloom_filter),
        }
    }
}

/// Resolved settings of one column.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ColumnSettings {
    pub page_version: PageVersion,
    pub codec: Codec,
    pub dictionary: bool,
    pub dictionary_page_size_limit: usize,
    pub encoding: Encoding,
    pub data_page_size: usize,
    pub max_rows_per_page: usize,
    pub statistics: bool,
    pub bloom_filter: Option<BloomFilterOptions>,
    pub crc: bool,
    pub page_index: bool,
    pub column_index_truncate_length: Option<usize>,
    pub statistics_truncate_length: Option<usize>,
    /// `IEEE_754_TOTAL_ORDER` for this column (set only for FLOAT, DOUBLE and FLOAT16).
    pub ieee_754_total_order: bool,
}

/// Options of a [`FileWriter`](crate::write::FileWriter).
///
/// ```
/// use parket::compression::Codec;
/// use parket::format::Encoding;
/// use parket::write::{PageVersion, WriteOptions};
/// let options = WriteOptions::default()
///     .page_version(PageVersion::V2)
///     .codec(Codec::Zstd { level: 3 })
///     .column("name", |c| c.dictionary(false).encoding(Encoding::DeltaByteArray));
/// ```
#[derive(Debug, Clone, PartialEq)]
#[must_use]
pub struct WriteOptions {
    pub(crate) defaults: ColumnOptions,
    pub(crate) columns: Vec<(String, ColumnOptions)>,
    pub(crate) row_group_rows: usize,
    pub(crate) row_group_bytes: usize,
    pub(crate) crc: bool,
    pub(crate) page_index: bool,
    pub(crate) column_index_truncate_length: Option<usize>,
    pub(crate) statistics_truncate_length: Option<usize>,
    pub(crate) ieee_754_total_order: bool,
    pub(crate) key_value_metadata: Vec<KeyValue>,
    pub(crate) created_by: String,
    pub(crate) threads: usize,
    pub(crate) parallel_min_levels: usize,
    #[cfg(feature = "encryption-write")]
    pub(crate) encryption: Option<super::encrypt::FileEncryptionProperties>,
}

/// Default target size of a data page.
pub const DEFAULT_DATA_PAGE_SIZE: usize = 1 << 20;
/// Default most rows per data page.
pub const DEFAULT_MAX_ROWS_PER_PAGE: usize = 20_000;
/// Default dictionary page size limit.
pub const DEFAULT_DICTIONARY_PAGE_SIZE_LIMIT: usize = 1 << 20;
/// Default rows per row group.
pub const DEFAULT_ROW_GROUP_ROWS: usize = 1 << 20;
/// Default encoded bytes per row group.
pub const DEFAULT_ROW_GROUP_BYTES: usize = 128 << 20;
/// Default truncation of the column index's min/max.
pub const DEFAULT_COLUMN_INDEX_TRUNCATE_LENGTH: usize = 64;

impl Default for WriteOptions {
    fn default() -> Self {
        WriteOptions {
            defaults: ColumnOptions {
                page_version: Some(PageVersion::V1),
                codec: Some(default_codec()),
                dictionary: Some(true),
                dictionary_page_size_limit: Some(DEFAULT_DICTIONARY_PAGE_SIZE_LIMIT),
                encoding: Some(Encoding::Plain),
                data_page_size: Some(DEFAULT_DATA_PAGE_SIZE),
                max_rows_per_page: Some(DEFAULT_MAX_ROWS_PER_PAGE),
                statistics: Some(true),
                bloom_filter: Some(None),
            },
            columns: Vec::new(),
            row_group_rows: DEFAULT_ROW_GROUP_ROWS,
            row_group_bytes: DEFAULT_ROW_GROUP_BYTES,
            crc: true,
            page_index: true,
            column_index_truncate_length: Some(DEFAULT_COLUMN_INDEX_TRUNCATE_LENGTH),
            statistics_truncate_length: None,
            ieee_754_total_order: false,
            key_value_metadata: Vec::new(),
            created_by: alloc::format!("parket version {}", env!("CARGO_PKG_VERSION")),
            threads: super::parallel::available(),
            parallel_min_levels: super::parallel::MIN_PARALLEL_LEVELS,
            #[cfg(feature = "encryption-write")]
            encryption: None,
        }
    }
}

/// SNAPPY when the `snappy` feature is on, else UNCOMPRESSED.
fn default_codec() -> Codec {
    if cfg!(feature = "snappy") {
        Codec::Snappy
    } else {
        Codec::Uncompressed
    }
}

macro_rules! forward {
    ($($(#[$m:meta])* $name:ident: $t:ty;)*) => {$(
        $(#[$m])*
        pub fn $name(mut self, v: $t) -> Self {
            self.defaults = self.defaults.$name(v);
            self
        }
    )*};
}

impl WriteOptions {
    forward! {
        /// Data page version of every column (default V1).
        page_version: PageVersion;
        /// Codec of every column (default SNAPPY).
        codec: Codec;
        /// Dictionary encoding of every column (default on).
        dictionary: bool;
        /// Dictionary page size limit of every column (default 1 MiB).
        dictionary_page_size_limit: usize;
        /// Fallback value encoding of every column (default PLAIN; must suit each column's
        /// physical type — set it per column otherwise).
        encoding: Encoding;
        /// Target data page size (default 1 MiB).
        data_page_size: usize;
        /// Most rows per data page (default 20 000).
        max_rows_per_page: usize;
        /// Statistics on or off (default on).
        statistics: bool;
        /// Bloom filter of every column (default none).
        bloom_filter: Option<BloomFilterOptions>;
    }

    /// Overrides the settings of the leaf column at dotted `path` (`a.b.c`).
    pub fn column(mut self, path: &str, f: impl FnOnce(ColumnOptions) -> ColumnOptions) -> Self {
        let at = self.columns.iter().position(|(p, _)| p == path);
        let current = at.map(|i| self.columns[i].1.clone()).unwrap_or_default();
        let next = f(current);
        match at {
            Some(i) => self.columns[i].1 = next,
            None => self.columns.push((path.into(), next)),
        }
        self
    }

    /// Rows per row group in [`FileWriter::write_records`](crate::write::FileWriter) (default 1 Mi).
    pub fn row_group_rows(mut self, rows: usize) -> Self {
        self.row_group_rows = rows.max(1);
        self
    }
    /// Encoded bytes per row group in `write_records` (default 128 MiB).
    pub fn row_group_bytes(mut self, bytes: usize) -> Self {
        self.row_group_bytes = bytes.max(1);
        self
    }
    /// CRC-32 in every page header (default on).
    pub fn page_crc(mut self, on: bool) -> Self {
        self.crc = on;
        self
    }
    /// ColumnIndex and OffsetIndex (default on).
    pub fn page_index(mut self, on: bool) -> Self {
        self.page_index = on;
        self
    }
    /// Truncation of byte-array min/max in the column index (default 64 bytes).
    pub fn column_index_truncate_length(mut self, n: Option<usize>) -> Self {
        self.column_index_truncate_length = n;
        self
    }
    /// Truncation of byte-array min/max in chunk statistics (default none).
    pub fn statistics_truncate_length(mut self, n: Option<usize>) -> Self {
        self.statistics_truncate_length = n;
        self
    }
    /// The `IEEE_754_TOTAL_ORDER` column order for every FLOAT, DOUBLE and FLOAT16 column
    /// (default off: `TYPE_ORDER`, which every reader knows). Min/max then follow IEEE 754
    /// totalOrder (`-0.0 < +0.0`; NaN bounds when every value is NaN) and the footer's
    /// `column_orders` says so; a reader that does not know the order ignores the min/max.
    pub fn ieee_754_total_order(mut self, on: bool) -> Self {
        self.ieee_754_total_order = on;
        self
    }
    /// Adds an application key/value pair to the footer.
    pub fn key_value_metadata(mut self, key: &str, value: Option<&str>) -> Self {
        self.key_value_metadata.push(KeyValue {
            key: key.into(),
            value: value.map(Into::into),
        });
        self
    }
    /// The footer's `created_by` (default `parket version X.Y.Z`).
    pub fn created_by(mut self, s: &str) -> Self {
        self.created_by = s.into();
        self
    }
    /// Threads that encode and compress the columns of a row group (default: every core,
    /// from `std::thread::available_parallelism`; 1 without the `std` feature). 1 keeps all
    /// the work on the calling thread. The file's bytes are the same whatever the count: see
    /// the [`write`](crate::write) module's "Threads" section for what runs where and the
    /// memory it takes. 0 is taken as 1.
    ///
    /// ```
    /// use parket::write::WriteOptions;
    /// let single = WriteOptions::default().threads(1);
    /// assert_eq!(single.thread_count(), 1);
    /// assert!(WriteOptions::default().thread_count() >= 1);
    /// ```
    pub fn threads(mut self, n: usize) -> Self {
        self.threads = n.max(1);
        self
    }
    /// The levels a call needs before its columns go to threads (default
    /// [`MIN_PARALLEL_LEVELS`](crate::write::MIN_PARALLEL_LEVELS)). For tests, which set 0 to
    /// take the threaded path with small data; the bytes do not depend on it.
    #[doc(hidden)]
    pub fn parallel_min_levels(mut self, levels: usize) -> Self {
        self.parallel_min_levels = levels;
        self
    }
    /// The thread count set by [`WriteOptions::threads`].
    pub fn thread_count(&self) -> usize {
        self.threads
    }
    /// Encrypts the file (Parquet Modular Encryption; feature `encryption-write`): see
    /// [`FileEncryptionProperties`](crate::write::FileEncryptionProperties). Default: none.
    #[cfg(feature = "encryption-write")]
    pub fn encryption(mut self, properties: super::encrypt::FileEncryptionProperties) -> Self {
        self.encryption = Some(properties);
        self
    }

    /// The resolved settings of the column at `path`, of `physical` type. Errors for an
    /// encoding the type cannot use.
    pub(crate) fn resolve(&self, path: &str, physical: PhysicalType) -> Result<ColumnSettings> {
        let mut o = self.defaults.clone();
        if let Some((_, c)) = self.columns.iter().find(|(p, _)| p == path) {
            o = o.overlay(c);
        }
        let encoding = o.encoding.unwrap_or(Encoding::Plain);
        let mut encoding_set_for_column = false;
        if let Some((_, c)) = self.columns.iter().find(|(p, _)| p == path) {
            encoding_set_for_column = c.encoding.is_some();
        }
        let encoding = if encoding_allowed(encoding, physical) {
            encoding
        } else if !encoding_set_for_column {
            // A file-wide encoding that does not suit this type leaves the type's PLAIN.
            Encoding::Plain
        } else {
            return Err(Error::invalid_argument(alloc::format!(
                "encoding {encoding} is not defined for {physical} (column {path})"
            )));
        };
        // Asked for an encoding this build leaves out: an error naming its feature.
        crate::encoding::built_in(encoding).map_err(|e| e.in_column(path))?;
        let codec = o.codec.unwrap_or(Codec::Uncompressed);
        codec.validate()?;
        if let Some(Some(b)) = o.bloom_filter {
            if !(b.fpp > 0.0 && b.fpp < 1.0) {
                return Err(Error::invalid_argument(alloc::format!(
                    "bloom filter fpp must be in (0, 1) (column {path})"
                )));
            }
        }
        Ok(ColumnSettings {
            page_version: o.page_version.unwrap_or(PageVersion::V1),
            codec,
            dictionary: o.dictionary.unwrap_or(true) && physical != PhysicalType::Boolean,
            dictionary_page_size_limit: o
                .dictionary_page_size_limit
                .unwrap_or(DEFAULT_DICTIONARY_PAGE_SIZE_LIMIT),
            encoding,
            data_page_size: o.data_page_size.unwrap_or(DEFAULT_DATA_PAGE_SIZE).max(1),
            max_rows_per_page: o
                .max_rows_per_page
                .unwrap_or(DEFAULT_MAX_ROWS_PER_PAGE)
                .max(1),
            statistics: o.statistics.unwrap_or(true),
            bloom_filter: o.bloom_filter.flatten(),
            crc: self.crc,
            page_index: self.page_index,
            column_index_truncate_length: self.column_index_truncate_length,
            statistics_truncate_length: self.statistics_truncate_length,
            ieee_754_total_order: self.ieee_754_total_order,
        })
    }
}

/// Whether `encoding` is defined for values of `physical` type (Encodings.md).
pub fn encoding_allowed(encoding: Encoding, physical: PhysicalType) -> bool {
    use PhysicalType as P;
    match encoding {
        Encoding::Plain => true,
        Encoding::Rle => physical == P::Boolean,
        Encoding::DeltaBinaryPacked => matches!(physical, P::Int32 | P::Int64),
        Encoding::DeltaLengthByteArray => physical == P::ByteArray,
        Encoding::DeltaByteArray => matches!(physical, P::ByteArray | P::FixedLenByteArray),
        Encoding::ByteStreamSplit => matches!(
            physical,
            P::Float | P::Double | P::Int32 | P::Int64 | P::FixedLenByteArray
        ),
        Encoding::Alp => matches!(physical, P::Float | P::Double),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A column asked for an encoding is refused, naming the encoding, the feature and the
    /// column, when the build leaves the encoding out; resolved when it is built in.
    #[test]
    fn an_encoding_left_out_of_the_build_is_refused() {
        let cases = [
            (
                Encoding::DeltaBinaryPacked,
                PhysicalType::Int64,
                cfg!(feature = "delta"),
            ),
            (
                Encoding::DeltaByteArray,
                PhysicalType::ByteArray,
                cfg!(feature = "delta"),
            ),
            (
                Encoding::ByteStreamSplit,
                PhysicalType::Double,
                cfg!(feature = "byte-stream-split"),
            ),
            (Encoding::Alp, PhysicalType::Double, cfg!(feature = "alp")),
        ];
        for (encoding, physical, built_in) in cases {
            let options = WriteOptions::default().column("a.b", |c| c.encoding(encoding));
            match options.resolve("a.b", physical) {
                Ok(settings) => {
                    assert!(built_in, "{encoding} resolved without its feature");
                    assert_eq!(settings.encoding, encoding);
                }
                Err(e) => {
                    assert!(!built_in, "{encoding} refused: {e}");
                    let message = e.to_string();
                    assert!(
                        message.starts_with(&alloc::format!("{encoding} needs the cargo feature"))
                            && message.contains("column a.b"),
                        "{message}"
                    );
                }
            }
        }
    }
}
