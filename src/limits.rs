//! Limits on what a file may make the reader allocate.
//!
//! Every size read from a file is checked against the bytes that remain before anything is
//! allocated; sizes that describe *decompressed* or *decoded* data (which the compressed bytes
//! cannot bound) are checked against these limits instead.
//!
//! What passes the checks is then allocated through one function, `limits::reserve` (and
//! `zeroed` and `copied`, built on it): at once and fallibly, so that a size the allocator cannot give
//! (a 1 GiB page under a 2 GiB address space, a small embedded heap) is an
//! [`ErrorKind::OutOfMemory`](crate::ErrorKind::OutOfMemory) located like any other error
//! ("cannot allocate 1073741872 bytes for the values of a page (row group 0, column a, page
//! 1)"), never the abort of Rust's allocation-failure handler. Decompressed pages,
//! dictionaries, value and level buffers, footers, Bloom filters and page indexes all go
//! through it.
//!
//! ```
//! use parket::Limits;
//! let limits = Limits::default().max_page_bytes(16 << 20);
//! assert_eq!(limits.page_bytes, 16 << 20);
//! assert!(limits.check_page_bytes(1 << 20).is_ok());
//! assert!(limits.check_page_bytes(17 << 20).is_err());
//! ```

use alloc::vec::Vec;

use crate::error::{Error, Result};

/// Upper bounds on the resources one file may claim. The defaults read any file that the
/// common writers produce; lower them for hostile input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[must_use]
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
    #[inline]
    pub fn check_page_bytes(&self, n: u64) -> Result<()> {
        check("page size in bytes", n, self.page_bytes)
    }
    /// Checks a footer length against the limit.
    #[inline]
    pub fn check_metadata_bytes(&self, n: u64) -> Result<()> {
        check("footer length", n, self.metadata_bytes)
    }
    /// Checks a decoded dictionary size against the limit.
    #[inline]
    pub fn check_dictionary_bytes(&self, n: u64) -> Result<()> {
        check("dictionary size in bytes", n, self.dictionary_bytes)
    }
    /// Checks a page's value count against the limit.
    #[inline]
    pub fn check_values_per_page(&self, n: u64) -> Result<()> {
        check("values in one page", n, self.values_per_page)
    }
}

// Inlined with the four checks above: a compare where each is called, and one function
// (`Error::limit`) for their errors, instead of five functions (128 bytes less in the size probe).
#[inline(always)]
fn check(what: &'static str, n: u64, limit: u64) -> Result<()> {
    if n > limit {
        Err(Error::limit(what, n, limit))
    } else {
        Ok(())
    }
}

/// Makes room in `v` for `additional` more elements, a number that comes from a file, or
/// fails with [`ErrorKind::OutOfMemory`](crate::ErrorKind::OutOfMemory) naming `what` and the
/// bytes asked for: the one place where the reader allocates what a file declares.
///
/// Room that is there already costs nothing. Otherwise the buffer grows as `Vec::reserve`
/// grows it (at least doubling, so that buffers filled page after page stay linear), and when
/// that much is not available, to exactly the size needed (`try_reserve_exact`): never more
/// than twice the declared size, and never an abort.
pub(crate) fn reserve<T>(v: &mut Vec<T>, additional: usize, what: &'static str) -> Result<()> {
    if v.capacity() - v.len() >= additional
        || v.try_reserve(additional).is_ok()
        || v.try_reserve_exact(additional).is_ok()
    {
        return Ok(());
    }
    let size = core::mem::size_of::<T>() as u64;
    Err(Error::out_of_memory(
        what,
        (additional as u64).saturating_mul(size),
    ))
}

/// A copy of `bytes` (file bytes about to be decrypted or kept), allocated through [`reserve`].
pub(crate) fn copied(bytes: &[u8], what: &'static str) -> Result<Vec<u8>> {
    let mut v = Vec::new();
    reserve(&mut v, bytes.len(), what)?;
    v.extend_from_slice(bytes);
    Ok(v)
}

/// `len` zero bytes, allocated through [`reserve`]: the buffer that file bytes whose length
/// comes from the file (a footer, a Bloom filter, a page index) are read into.
#[cfg(any(feature = "std", test))]
pub(crate) fn zeroed(len: usize, what: &'static str) -> Result<Vec<u8>> {
    let mut v = Vec::new();
    reserve(&mut v, len, what)?;
    v.resize(len, 0);
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserve_fails_with_the_bytes_asked_for() {
        let mut v: Vec<u64> = Vec::new();
        reserve(&mut v, 1000, "the values of a page").unwrap();
        assert!(v.capacity() >= 1000);
        // Room that is there is not asked for again.
        let cap = v.capacity();
        reserve(&mut v, 10, "the values of a page").unwrap();
        assert_eq!(v.capacity(), cap);
        // More than any address space: an error, not an abort. 2^60 u64s are 2^63 bytes.
        let e = reserve(&mut v, 1 << 60, "the values of a page").unwrap_err();
        assert_eq!(
            e.to_string(),
            "cannot allocate 9223372036854775808 bytes for the values of a page"
        );
        assert_eq!(zeroed(3, "the footer").unwrap(), [0, 0, 0]);
        assert_eq!(copied(b"ab", "a page").unwrap(), b"ab");
        let e = zeroed(usize::MAX, "the footer").unwrap_err();
        assert!(matches!(
            e.kind(),
            crate::ErrorKind::OutOfMemory {
                what: "the footer",
                ..
            }
        ));
    }
}
