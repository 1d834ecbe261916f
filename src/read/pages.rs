//! Raw pages: the low-level view of a column chunk, one `(offset, PageHeader, body)` at a
//! time, nothing decoded beyond the header. For tools that show a file's insides (`parket
//! pages`, `parket dump`, `parket layout`) and for learners; readers of values want
//! [`ColumnChunkReader`](super::ColumnChunkReader).
//!
//! Spec: parquet.thrift `ColumnMetaData`: the chunk's pages are back to back from its first
//! page over `total_compressed_size` bytes; each page is a Thrift compact `PageHeader`
//! followed by `compressed_page_size` bytes of body:
//!
//! ```text
//! offset ─► [PageHeader: header_len bytes][body: compressed_page_size bytes] ─► next offset
//! ```
//!
//! The iterator is the chunk reader's walk ([`super::walk::PageWalk`], in order): it starts at
//! the chunk's first page, yields pages that start inside the chunk (a page may end past
//! `total_compressed_size`, never past the file), and stops once the data pages' headers
//! account for `ColumnMetaData.num_values`. Bodies are bounded by
//! [`Limits::page_bytes`](crate::Limits::page_bytes) before they are read.
//!
//! ```
//! # fn main() -> parket::Result<()> {
//! # let dir = std::env::var_os("PARQUET_TEST_DATA").map(std::path::PathBuf::from)
//! #     .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/parquet-testing"));
//! # let Ok(bytes) = std::fs::read(dir.join("data/alltypes_plain.parquet")) else { return Ok(()) };
//! use parket::format::PageType;
//! use parket::read::FileReader;
//! let file = FileReader::from_bytes(&bytes)?;
//! let pages: Vec<_> = file.pages(0, "id")?.collect::<Result<_, _>>()?;
//! assert_eq!(pages.len(), 2);
//! assert_eq!(pages[0].header.type_, PageType::DictionaryPage);
//! assert_eq!(pages[0].offset, 4);                       // the first byte after "PAR1"
//! assert_eq!(pages[0].body.len(), pages[0].header.compressed_page_size as usize);
//! assert_eq!((pages[0].header_len, pages[0].body.len()), (13, 32));
//! assert_eq!(pages[1].header.type_, PageType::DataPage);
//! assert_eq!(pages[1].offset, 4 + 13 + 32);             // back to back
//! # Ok(()) }
//! ```

use alloc::vec::Vec;

use crate::error::Result;
use crate::format::PageHeader;

use super::walk::PageWalk;
use super::SourceRef;

/// One page as stored: where it starts, its decoded header, and its body bytes as stored
/// (compressed when the chunk's codec compresses). For an encrypted chunk read with its key,
/// the header and body are the decrypted ones (`compressed_page_size` is then the decrypted
/// body's size and `crc`, checked against the stored bytes, is cleared); `header_len` is
/// still the stored (encrypted) header module's.
#[derive(Debug, Clone, PartialEq)]
pub struct RawPage {
    /// File offset of the page's first byte (its header).
    pub offset: u64,
    /// The decoded header.
    pub header: PageHeader,
    /// Bytes of the Thrift-encoded header; the body starts at `offset + header_len`.
    pub header_len: usize,
    /// The body: exactly `header.compressed_page_size` bytes.
    pub body: Vec<u8>,
}

/// The pages of one column chunk, in file order: see [`FileReader::pages`](super::FileReader::pages).
pub struct Pages<'a> {
    source: SourceRef<'a>,
    walk: PageWalk,
    window: Vec<u8>,
    window_at: u64,
    done: bool,
}

impl<'a> Pages<'a> {
    pub(crate) fn new(source: SourceRef<'a>, walk: PageWalk) -> Self {
        Pages {
            source,
            walk,
            window: Vec::new(),
            window_at: 0,
            done: false,
        }
    }

    fn next_page(&mut self) -> Result<Option<RawPage>> {
        let mut window = core::mem::take(&mut self.window);
        let found = self
            .source
            .next_page(&mut self.walk, &mut window, &mut self.window_at);
        self.window = window;
        let Some(p) = found? else { return Ok(None) };
        let stored = self
            .source
            .page_bytes(p.body.clone(), &self.window, self.window_at)?;
        #[cfg(feature = "encryption")]
        if let Some((header, body)) = self.walk.decrypt_page(&p, stored, true)? {
            return Ok(Some(RawPage {
                offset: p.offset,
                header,
                header_len: p.header_len,
                body,
            }));
        }
        let body = crate::limits::copied(stored, "a page")?;
        Ok(Some(RawPage {
            offset: p.offset,
            header: p.header,
            header_len: p.header_len,
            body,
        }))
    }
}

impl Iterator for Pages<'_> {
    type Item = Result<RawPage>;

    /// The next page, or `None` at the end of the chunk. After an error the iterator ends.
    fn next(&mut self) -> Option<Result<RawPage>> {
        if self.done {
            return None;
        }
        let r = self.next_page().transpose();
        self.done = !matches!(r, Some(Ok(_)));
        r
    }
}
