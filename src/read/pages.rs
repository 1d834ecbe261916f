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
//! The iterator follows the same rules as the chunk reader (see [`super::chunk`]): it starts at
//! the chunk's first page, yields pages that start inside the chunk (a page may end past
//! `total_compressed_size`, never past the file), and stops once the data pages' headers
//! account for `ColumnMetaData.num_values`. Bodies are bounded by [`Limits::page_bytes`]
//! before they are read.
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

use crate::error::{Error, Result};
use crate::format::{PageHeader, PageType};
use crate::limits::Limits;

use super::chunk::ChunkRange;
use super::SourceRef;

/// One page as stored: where it starts, its decoded header, and its body bytes as stored
/// (compressed when the chunk's codec compresses).
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
    file_len: u64,
    range: ChunkRange,
    pos: u64,
    values_seen: u64,
    limits: Limits,
    done: bool,
}

impl<'a> Pages<'a> {
    pub(crate) fn new(
        source: SourceRef<'a>,
        file_len: u64,
        range: ChunkRange,
        limits: Limits,
    ) -> Self {
        Pages {
            source,
            file_len,
            pos: range.start,
            range,
            values_seen: 0,
            limits,
            done: false,
        }
    }

    fn read(&self, at: u64, len: usize) -> Result<Vec<u8>> {
        let mut buf = alloc::vec![0; len];
        match self.source {
            SourceRef::Bytes(data) => {
                let end = at.saturating_add(len as u64);
                let src = usize::try_from(at)
                    .ok()
                    .zip(usize::try_from(end).ok())
                    .and_then(|(s, e)| data.get(s..e))
                    .ok_or_else(|| Error::truncated("page", len as u64, 0))?;
                buf.copy_from_slice(src);
            }
            #[cfg(feature = "std")]
            SourceRef::Reader(r) => r.read_at(at, &mut buf)?,
        }
        Ok(buf)
    }

    fn header_at(&self, at: u64) -> Result<(PageHeader, usize)> {
        let depth = self.limits.nesting_depth;
        let available = self.file_len.saturating_sub(at);
        let cap = available.min(self.limits.page_bytes.max(64));
        let mut want = cap.min(256);
        loop {
            let buf = self.read(at, want as usize)?;
            match crate::thrift::decode_prefix::<PageHeader>(&buf, depth) {
                Ok(v) => return Ok(v),
                Err(e) if matches!(e.kind(), crate::ErrorKind::Truncated { .. }) && want < cap => {
                    want = want.saturating_mul(4).min(cap);
                }
                Err(e) => return Err(e.offset_by(at)),
            }
        }
    }

    fn next_page(&mut self) -> Result<RawPage> {
        let at = self.pos;
        let (header, header_len) = self.header_at(at)?;
        let size = u64::try_from(header.compressed_page_size).map_err(|_| {
            Error::out_of_range("compressed_page_size", header.compressed_page_size.into())
        })?;
        self.limits.check_page_bytes(size)?;
        let body_at = at + header_len as u64;
        if body_at.saturating_add(size) > self.file_len {
            return Err(Error::truncated(
                "page body (compressed_page_size)",
                size,
                self.file_len.saturating_sub(body_at),
            )
            .at_offset(body_at));
        }
        let body = self.read(body_at, size as usize)?;
        let values = match header.type_ {
            PageType::DataPage => header.data_page_header.as_ref().map(|h| h.num_values),
            PageType::DataPageV2 => header.data_page_header_v2.as_ref().map(|h| h.num_values),
            _ => None,
        };
        self.values_seen = self
            .values_seen
            .saturating_add(values.and_then(|v| u64::try_from(v).ok()).unwrap_or(0));
        self.pos = body_at + size;
        Ok(RawPage {
            offset: at,
            header,
            header_len,
            body,
        })
    }
}

impl Iterator for Pages<'_> {
    type Item = Result<RawPage>;

    /// The next page, or `None` at the end of the chunk. After an error the iterator ends.
    fn next(&mut self) -> Option<Result<RawPage>> {
        if self.done || self.pos >= self.range.end || self.values_seen >= self.range.num_values {
            return None;
        }
        let at = self.pos;
        let r = self.next_page().map_err(|e| e.at_offset(at));
        // (header errors already carry the failing byte's file offset)
        self.done = r.is_err();
        Some(r)
    }
}
