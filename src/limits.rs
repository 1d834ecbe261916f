//! Limits on what a file may make the reader allocate.
//!
//! Every size read from a file is checked against the bytes that remain before anything is
//! allocated; sizes that describe *decompressed* or *decoded* data (which the compressed bytes
//! cannot bound) are checked against these limits instead.
//!
//! ```
//! use parket::Limits;
//! let limits = Limits::default().max_page_bytes(16 << 20);
//! assert_eq!(limits.page_bytes, 16 << 20);
//! assert!(limits.check_page_bytes(1 << 20).is_ok());
//! assert!(limits.check_page_bytes(17 << 20).is_err());
//! ```

use crate::error::{Error, Result};

/// Upper bounds on the resources one file may claim. The defaults read any file that the
/// common writers produce; lower them for hostile input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest footer (serialized FileMetaData), in bytes.
    pub metadata_bytes: u64,
    /// Largest page, compressed or uncompressed, in bytes.
    pub page_bytes: u64,
    /// Largest dictionary page once decoded, in bytes.
    pub dictionary_bytes: u64,
    /// Deepest nesting of Thrift structs and of schema groups.
    pub nesting_depth: u32,
    /// Most values (levels included) in one page. Default 2^26 (67,108,864).
    ///
    /// No bound follows from a page's bytes: one RLE run of a few bytes may declare any
    /// number of levels or dictionary indices (Encodings.md, RLE: `varint(count << 1)`), and a
    /// DELTA_BINARY_PACKED miniblock of bit width 0 any number of values; so a 26-byte page
    /// can legally hold 2^30 nulls, which decode to 2 GiB of definition levels. Decoding a page
    /// of `n` positions costs up to about 8 `n` bytes besides its values (definition and
    /// repetition levels, 2 bytes each, and dictionary indices, 4): 512 MiB at the default.
    /// Writers cap pages far below it (parquet-java and arrow at 20,000 rows; 1 MiB pages of
    /// bit-packed booleans hold 8 Mi values); raise it for files with larger pages.
    pub values_per_page: u64,
    /// Most level positions materialized at once: one chunk for
    /// `ColumnChunkReader::read_all`, the selected chunks of a row group together for
    /// `FileReader::read_row_group`, and the pages `FileReader::records` holds at once (a few
    /// per column, more only when one record spans many pages). Default 2^24 (16,777,216).
    ///
    /// Pages of few bytes may hold many positions (see [`Limits::values_per_page`]), and a
    /// chunk many pages: a file of 1 KiB can declare row groups of billions of nulls. Whole-
    /// chunk reads cost about 4 bytes per position in levels. Page-by-page reads
    /// (`next_batch`) are not bounded by this limit; raise it to read larger row groups whole.
    pub values_per_read: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            metadata_bytes: 256 << 20,
            page_bytes: 2 << 30,
            dictionary_bytes: 2 << 30,
            nesting_depth: 64,
            // See the field: no sound bound exists, so a limit well below 2^31 (which let a
            // tiny page claim 4 GiB of levels) that no common writer's page reaches.
            values_per_page: 1 << 26,
            values_per_read: 1 << 24,
        }
    }
}

impl Limits {
    /// Sets [`Limits::metadata_bytes`].
    pub fn max_metadata_bytes(mut self, n: u64) -> Self {
        self.metadata_bytes = n;
        self
    }
    /// Sets [`Limits::page_bytes`].
    pub fn max_page_bytes(mut self, n: u64) -> Self {
        self.page_bytes = n;
        self
    }
    /// Sets [`Limits::dictionary_bytes`].
    pub fn max_dictionary_bytes(mut self, n: u64) -> Self {
        self.dictionary_bytes = n;
        self
    }
    /// Sets [`Limits::nesting_depth`].
    pub fn max_nesting_depth(mut self, n: u32) -> Self {
        self.nesting_depth = n;
        self
    }
    /// Sets [`Limits::values_per_page`].
    pub fn max_values_per_page(mut self, n: u64) -> Self {
        self.values_per_page = n;
        self
    }

    /// Sets [`Limits::values_per_read`].
    pub fn max_values_per_read(mut self, n: u64) -> Self {
        self.values_per_read = n;
        self
    }

    /// Checks the level positions of a whole-chunk read against the limit.
    pub fn check_values_per_read(&self, n: u64) -> Result<()> {
        check(
            "values read at once (whole column chunks, or the pages records hold)",
            n,
            self.values_per_read,
        )
    }

    /// Checks a page size (compressed or declared uncompressed) against the limit.
    pub fn check_page_bytes(&self, n: u64) -> Result<()> {
        check("page size in bytes", n, self.page_bytes)
    }
    /// Checks a footer length against the limit.
    pub fn check_metadata_bytes(&self, n: u64) -> Result<()> {
        check("footer length", n, self.metadata_bytes)
    }
    /// Checks a decoded dictionary size against the limit.
    pub fn check_dictionary_bytes(&self, n: u64) -> Result<()> {
        check("dictionary size in bytes", n, self.dictionary_bytes)
    }
    /// Checks a page's value count against the limit.
    pub fn check_values_per_page(&self, n: u64) -> Result<()> {
        check("values in one page", n, self.values_per_page)
    }
}

fn check(what: &'static str, n: u64, limit: u64) -> Result<()> {
    if n > limit {
        Err(Error::limit(what, n, limit))
    } else {
        Ok(())
    }
}
