//! Layer 6: reading files. The only reading code that does I/O.
//!
//! - [`footer`]: the file's tail (`FileMetaData | 4-byte LE length | "PAR1"`), from a byte
//!   slice or from any `Read + Seek`.
//! - [`FileReader`]: the footer and schema of a file, and its column chunks
//!   ([`ColumnChunkReader`]), read page by page through [`crate::page::decode`].
//!
//! Spec: the README of apache/parquet-format, "File Format": a file starts and ends with the
//! 4-byte magic `PAR1`; the footer is the Thrift-encoded FileMetaData followed by its length as
//! a 4-byte little-endian integer. For example a file whose footer is 13 bytes ends with
//!
//! ```text
//! ... <13 bytes of FileMetaData> 0d 00 00 00 50 41 52 31
//!                                 length 13   "PAR1"
//! ```
//!
//! Reading a column:
//!
//! ```
//! # fn main() -> parket::Result<()> {
//! # let bytes = parket::testing::corpus_file("alltypes_plain.parquet");
//! use parket::read::FileReader;
//! use parket::values::Values;
//! use parket::Limits;
//!
//! let file = FileReader::from_bytes(&bytes)?          // or FileReader::new(File::open(..)?)
//!     .with_limits(Limits::default().max_page_bytes(64 << 20));
//! assert_eq!((file.num_row_groups(), file.metadata().num_rows), (1, 8));
//! let bools = file.column_chunk(0, "bool_col")?.read_all()?;
//! assert_eq!(bools.def_levels, [1; 8]);                // OPTIONAL: one level per row
//! assert_eq!(bools.values, Values::Boolean(vec![true, false, true, false, true, false, true, false]));
//! # Ok(()) }
//! ```
//!
//! Records (row group by row group, optionally projected): [`FileReader::records`].
//!
//! Errors say where: row group, column path, page ordinal (the dictionary page is page 0) and
//! file offset (of the failing byte when the page is stored uncompressed, else of the page).

pub mod chunk;
#[cfg(feature = "encryption")]
mod decrypt;
pub mod footer;
#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub mod fuzz;
pub mod pages;
#[cfg(feature = "std")]
pub mod parallel;
pub mod records;
pub mod scan;
mod typed;
pub mod walk;

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

pub use crate::predicate::RowRanges;
pub use chunk::{Batch, ChunkBuffers, ChunkPart, ColumnChunkReader};
pub use pages::{Pages, RawPage};
pub use records::Records;
pub use scan::{Explain, Scan, ScanBatch, ScanBuilder};
pub use typed::TypedRecords;
pub use walk::{PageWalk, Step, WalkPage};

use crate::error::{Error, ErrorKind, Result};
use crate::format::{ColumnMetaData, FileMetaData};
use crate::levels::LeafData;
use crate::limits::Limits;
use crate::page::decode::{PageColumn, PageDecoder};
pub use crate::schema::ColumnSelector;
use crate::schema::Schema;
use chunk::{ChunkRange, PageStream};

/// A `Read + Seek + Send` source, as [`FileReader::new`] takes (every such type is one).
#[cfg(feature = "std")]
pub trait ReadSeek: std::io::Read + std::io::Seek + Send {}
#[cfg(feature = "std")]
impl<T: std::io::Read + std::io::Seek + Send> ReadSeek for T {}

/// Random access to the file's bytes for a `Read + Seek` source.
///
/// The reader is boxed as this trait, not as `dyn Read + Seek`: the vtable then holds the two
/// methods the reader calls, not every provided method of `Read` and `Seek` (`read_to_end`,
/// `read_to_string`, `stream_len`, ...), which a trait object would link in for each source
/// type.
#[cfg(feature = "std")]
pub(crate) trait ReadAt {
    /// Fills `buf` from file offset `pos`.
    fn read_at(&self, pos: u64, buf: &mut [u8]) -> Result<()>;
    /// Appends the `len` bytes at file offset `pos` to `out` (room for them reserved by the
    /// caller). A reader that can read into `out`'s spare capacity does, so that the bytes are
    /// not zeroed first only to be overwritten (`parket check` of an uncompressed file spent a
    /// sixth of its instructions zeroing page windows). On error `out` is left as it was. This
    /// default zeroes, then reads; builds for size keep it for every reader (the `Read + Seek`
    /// reader's `read_to_end` override is 2,120 bytes of the size probe).
    fn read_append(&self, pos: u64, len: usize, out: &mut Vec<u8>) -> Result<()> {
        let start = out.len();
        out.resize(start + len, 0);
        let r = self.read_at(pos, out.get_mut(start..).unwrap_or(&mut []));
        if r.is_err() {
            out.truncate(start);
        }
        r
    }
    /// The file's length (seeks to its end).
    fn len(&self) -> Result<u64>;
    /// Adds file bytes from offset `at` ([`FileReader::push`]); only the reader of
    /// [`FileReader::from_tail`] keeps them. A method rather than a variant of [`Source`], so
    /// that a program that never pushes links no code for it.
    fn push(&mut self, at: u64, bytes: Vec<u8>) {
        let _ = (at, bytes);
    }
}

/// The reader of a [`FileReader`]: a mutex, so that the reader is `Sync` and scans on several
/// threads take turns at the one source.
#[cfg(feature = "std")]
impl<R: std::io::Read + std::io::Seek> ReadAt for std::sync::Mutex<R> {
    fn read_at(&self, pos: u64, buf: &mut [u8]) -> Result<()> {
        let mut r = self
            .lock()
            .map_err(|_| Error::invalid_argument("the file's reader panicked while reading"))?;
        r.seek(std::io::SeekFrom::Start(pos))?;
        r.read_exact(buf)?;
        Ok(())
    }

    #[cfg(not(parket_opt_size))]
    fn read_append(&self, pos: u64, len: usize, out: &mut Vec<u8>) -> Result<()> {
        use std::io::Read;
        let mut r = self
            .lock()
            .map_err(|_| Error::invalid_argument("the file's reader panicked while reading"))?;
        r.seek(std::io::SeekFrom::Start(pos))?;
        let start = out.len();
        // Into the spare capacity: no zeroing for a reader that reads into uninitialised
        // memory (`File` does).
        let read = (&mut *r).take(len as u64).read_to_end(out);
        match read {
            Ok(n) if n == len => Ok(()),
            other => {
                out.truncate(start);
                other?;
                Err(std::io::Error::new(
                    std::io::ErrorKind::UnexpectedEof,
                    "failed to fill whole buffer",
                )
                .into())
            }
        }
    }

    fn len(&self) -> Result<u64> {
        let mut r = self
            .lock()
            .map_err(|_| Error::invalid_argument("the file's reader panicked while reading"))?;
        Ok(r.seek(std::io::SeekFrom::End(0))?)
    }
}

/// Where the file's bytes come from.
enum Source<'a> {
    Bytes(&'a [u8]),
    /// Bytes the reader owns (a `Vec<u8>`, an `Arc<[u8]>`, ...).
    Owned(Box<dyn AsRef<[u8]> + Send + Sync + 'a>),
    #[cfg(feature = "std")]
    Reader(Box<dyn ReadAt + Send + Sync + 'a>),
}

/// A borrowed [`Source`], without its reader's lifetime.
#[derive(Clone, Copy)]
pub(crate) enum SourceRef<'r> {
    Bytes(&'r [u8]),
    #[cfg(feature = "std")]
    Reader(&'r (dyn ReadAt + Sync)),
}

impl SourceRef<'_> {
    /// Steps `walk` to its next page, fetching what it asks for into `window` (file bytes from
    /// `*at`; unused over a byte slice, which is handed whole). `None` when the walk is done.
    // Without `std` the only source is a slice, handed whole: the window goes unused and the
    // loop returns on its first round.
    #[cfg_attr(
        not(feature = "std"),
        allow(unused_variables, clippy::ptr_arg, clippy::never_loop)
    )]
    pub(crate) fn next_page(
        &self,
        walk: &mut walk::PageWalk,
        window: &mut Vec<u8>,
        at: &mut u64,
    ) -> Result<Option<walk::WalkPage>> {
        // Each request either grows a header prefix (at most fourfold, up to a bound) or asks
        // for a whole page: a few rounds at most, unless the walk is wrong.
        for _ in 0..64 {
            let step = match self {
                SourceRef::Bytes(data) => walk.step(data, 0)?,
                #[cfg(feature = "std")]
                SourceRef::Reader(_) => walk.step(window, *at)?,
            };
            match step {
                walk::Step::Page(p) => return Ok(Some(p)),
                walk::Step::Done => return Ok(None),
                walk::Step::Need(r) => match self {
                    SourceRef::Bytes(_) => {
                        return Err(Error::truncated("page", r.end - r.start, 0).at_offset(r.start))
                    }
                    #[cfg(feature = "std")]
                    SourceRef::Reader(reader) => {
                        let held = window.len() as u64;
                        // Asked for more from where the window starts: read only the rest.
                        let from = if r.start == *at && held < r.end - r.start {
                            held
                        } else {
                            window.clear();
                            *at = r.start;
                            0
                        };
                        let len = usize::try_from(r.end - r.start)
                            .map_err(|_| Error::out_of_range("page size", i64::MAX))?;
                        let more = len.saturating_sub(window.len());
                        crate::limits::reserve(window, more, "a page")?;
                        reader.read_append(r.start + from, more, window)?;
                    }
                },
            }
        }
        Err(Error::out_of_spec("a page header that never ends"))
    }

    /// The bytes `range` of the file, once [`SourceRef::next_page`] returned the page they
    /// belong to (the caller's `window` and `at` as passed to it).
    #[cfg_attr(not(feature = "std"), allow(unused_variables))]
    pub(crate) fn page_bytes<'w>(
        &self,
        range: core::ops::Range<u64>,
        window: &'w [u8],
        at: u64,
    ) -> Result<&'w [u8]>
    where
        Self: 'w,
    {
        let bytes = match self {
            SourceRef::Bytes(data) => walk::slice(data, 0, range.clone()),
            #[cfg(feature = "std")]
            SourceRef::Reader(_) => walk::slice(window, at, range.clone()),
        };
        bytes.ok_or_else(|| {
            Error::truncated("page body", range.end - range.start, 0).at_offset(range.start)
        })
    }
}

/// Parts of a file that a caller fetched and pushed in ([`FileReader::from_tail`]): (file
/// offset, bytes), sorted by offset.
#[cfg(feature = "std")]
struct Pushed {
    len: u64,
    parts: Vec<(u64, Vec<u8>)>,
}

#[cfg(feature = "std")]
impl ReadAt for Pushed {
    fn read_at(&self, pos: u64, buf: &mut [u8]) -> Result<()> {
        let end = pos.saturating_add(buf.len() as u64);
        let i = self.parts.partition_point(|(at, _)| *at <= pos);
        let held = i
            .checked_sub(1)
            .and_then(|i| self.parts.get(i))
            .and_then(|(at, b)| walk::slice(b, *at, pos..end));
        match held {
            Some(b) => {
                buf.copy_from_slice(b);
                Ok(())
            }
            None => Err(Error::invalid_argument_fmt(format_args!(
                "file bytes {pos}..{end} were not pushed (see ScanBuilder::byte_ranges)"
            ))),
        }
    }

    fn len(&self) -> Result<u64> {
        Ok(self.len)
    }

    fn push(&mut self, at: u64, bytes: Vec<u8>) {
        let i = self.parts.partition_point(|(p, _)| *p < at);
        self.parts.insert(i, (at, bytes));
    }
}

/// The records of a file whose reader the iterator owns: [`FileReader::into_records`].
pub struct IntoRecords<'a> {
    file: FileReader<'a>,
    schema: Schema,
    leaves: Vec<usize>,
    row_group: usize,
    ready: alloc::vec::IntoIter<crate::record::Value>,
    failed: bool,
}

impl IntoRecords<'_> {
    /// The projected schema the records follow.
    pub fn schema(&self) -> &Schema {
        &self.schema
    }
}

impl Iterator for IntoRecords<'_> {
    type Item = Result<crate::record::Value>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(v) = self.ready.next() {
                return Some(Ok(v));
            }
            if self.failed || self.row_group >= self.file.num_row_groups() || self.leaves.is_empty()
            {
                return None;
            }
            let rg = self.row_group;
            self.row_group += 1;
            let records = self
                .file
                .read_row_group(rg, &self.leaves)
                .and_then(|data| crate::levels::assemble(&self.schema, &data));
            match records {
                Ok(r) => self.ready = r.into_iter(),
                Err(e) => {
                    self.failed = true;
                    return Some(Err(e.in_row_group(rg)));
                }
            }
        }
    }
}

// The reader and its iterators cross threads (`FileReader` is shared between them).
const _: fn() = || {
    fn send_sync<T: Send + Sync>() {}
    fn send<T: Send>() {}
    send_sync::<FileReader<'static>>();
    send::<Scan<'static, 'static>>();
    send::<scan::ScanRecords<'static, 'static>>();
    send::<IntoRecords<'static>>();
    send::<Records<'static, 'static>>();
};

/// A Parquet file opened for reading: its footer and schema, and readers of its column chunks.
///
/// Over a byte slice ([`FileReader::from_bytes`]) page bodies are sub-slices of the input;
/// over a `Read + Seek` (`FileReader::new`, with the `std` feature) pages are read one at a
/// time (header, then exactly the body), so memory is bounded by the largest page.
///
/// A `FileReader` is `Send` and `Sync`; its column chunk readers and scans borrow it, and are
/// `Send`, so several threads can scan row groups of one reader. Over a `Read + Seek`, chunk
/// readers share the one source behind a mutex (each seeks before it reads).
pub struct FileReader<'a> {
    source: Source<'a>,
    file_len: u64,
    metadata: FileMetaData,
    schema: Schema,
    limits: Limits,
    verify_crc: bool,
    /// For an encrypted file: the decryptor, and each chunk's key (by row group, column).
    #[cfg(feature = "encryption")]
    crypto: Option<(decrypt::FileDecryptor, Vec<Vec<decrypt::ChunkKey>>)>,
}

impl<'a> FileReader<'a> {
    /// Opens a file held in memory, with the default [`Limits`].
    ///
    /// Errors when the footer or the schema does not decode (an encrypted footer is
    /// [`ErrorKind::Encrypted`]). Never panics, for any input.
    pub fn from_bytes(bytes: &'a [u8]) -> Result<FileReader<'a>> {
        Self::from_bytes_with_limits(bytes, Limits::default())
    }

    /// [`FileReader::from_bytes`], with `limits` for the footer too.
    pub fn from_bytes_with_limits(bytes: &'a [u8], limits: Limits) -> Result<FileReader<'a>> {
        let metadata = footer::metadata_from_bytes(bytes, &limits)?;
        Self::open(Source::Bytes(bytes), bytes.len() as u64, metadata, limits)
    }

    /// Opens a file through any `Read + Seek` (a `File`, a `Cursor`, ...), reading the footer
    /// now and pages on demand, with the default [`Limits`].
    #[cfg(feature = "std")]
    pub fn new<R: std::io::Read + std::io::Seek + Send + 'a>(reader: R) -> Result<FileReader<'a>> {
        Self::new_with_limits(reader, Limits::default())
    }

    /// [`FileReader::new`], with `limits` for the footer too.
    #[cfg(feature = "std")]
    pub fn new_with_limits<R: std::io::Read + std::io::Seek + Send + 'a>(
        reader: R,
        limits: Limits,
    ) -> Result<FileReader<'a>> {
        Self::new_boxed(Box::new(std::sync::Mutex::new(reader)), limits)
    }

    /// Opens a file held in memory that the reader owns (a `Vec<u8>`, an `Arc<[u8]>`, a
    /// `Box<[u8]>`, ...): a `FileReader<'static>` that a function can return, or share between
    /// threads. Errors as [`FileReader::from_bytes`].
    ///
    /// ```
    /// # fn main() -> parket::Result<()> {
    /// # let bytes = parket::testing::corpus_file("alltypes_plain.parquet");
    /// use parket::read::FileReader;
    /// use parket::record::Value;
    /// // A function that opens a file and returns an iterator of its rows.
    /// fn rows(bytes: Vec<u8>) -> parket::Result<impl Iterator<Item = parket::Result<Value>>> {
    ///     Ok(FileReader::from_owned(bytes)?.into_records(None)?)
    /// }
    /// assert_eq!(rows(bytes)?.count(), 8);
    /// # Ok(()) }
    /// ```
    pub fn from_owned<B: AsRef<[u8]> + Send + Sync + 'a>(bytes: B) -> Result<FileReader<'a>> {
        Self::from_owned_with_limits(bytes, Limits::default())
    }

    /// [`FileReader::from_owned`], with `limits` for the footer too.
    pub fn from_owned_with_limits<B: AsRef<[u8]> + Send + Sync + 'a>(
        bytes: B,
        limits: Limits,
    ) -> Result<FileReader<'a>> {
        let metadata = footer::metadata_from_bytes(bytes.as_ref(), &limits)?;
        let len = bytes.as_ref().len() as u64;
        Self::open(Source::Owned(Box::new(bytes)), len, metadata, limits)
    }

    /// Opens a file whose bytes the caller fetches itself (HTTP range requests, an object
    /// store, an async runtime): from its length and its last bytes (at least the footer; see
    /// [`footer::metadata_from_tail`] for how to learn how many). Pages are then read from the
    /// parts pushed with [`FileReader::push`]; a read of bytes not pushed is an
    /// [`ErrorKind::InvalidArgument`] naming them. [`ScanBuilder::byte_ranges`] says what a
    /// scan needs: push those before scanning.
    ///
    /// ```
    /// # fn main() -> parket::Result<()> {
    /// # let file = parket::testing::corpus_file("alltypes_plain.parquet");
    /// use parket::read::FileReader;
    /// let fetch = |r: core::ops::Range<u64>| file[r.start as usize..r.end as usize].to_vec();
    /// let len = file.len() as u64;
    /// let mut reader = FileReader::from_tail(fetch(len - 1024.min(len)..len), len)?;
    /// // First the offset indexes the scan plans with (none in this file), then its pages.
    /// for r in reader.scan().columns(&["id"]).index_ranges(4096)? {
    ///     reader.push(r.start, fetch(r));
    /// }
    /// for r in reader.scan().columns(&["id"]).byte_ranges(4096)? {
    ///     reader.push(r.start, fetch(r));
    /// }
    /// let rows = reader.scan().columns(&["id"]).build()?.records().count();
    /// assert_eq!(rows, 8);
    /// # Ok(()) }
    /// ```
    #[cfg(feature = "std")]
    pub fn from_tail(tail: Vec<u8>, file_len: u64) -> Result<FileReader<'a>> {
        let limits = Limits::default();
        let metadata = footer::metadata_from_tail(&tail, file_len, &limits)?;
        let start = file_len - tail.len() as u64;
        Self::open(
            Source::Reader(Box::new(Pushed {
                len: file_len,
                parts: alloc::vec![(start, tail)],
            })),
            file_len,
            metadata,
            limits,
        )
    }

    /// Adds file bytes from offset `at` to a reader made by [`FileReader::from_tail`]
    /// (ignored by other readers, which read their source).
    #[cfg(feature = "std")]
    pub fn push(&mut self, at: u64, bytes: Vec<u8>) {
        if let Source::Reader(r) = &mut self.source {
            r.push(at, bytes);
        }
    }

    #[cfg(feature = "std")]
    fn new_boxed(
        reader: Box<dyn ReadAt + Send + Sync + 'a>,
        limits: Limits,
    ) -> Result<FileReader<'a>> {
        let metadata = footer::read_metadata_at(&*reader, &limits)?;
        let file_len = reader.len()?;
        Self::open(Source::Reader(reader), file_len, metadata, limits)
    }

    fn open(
        source: Source<'a>,
        file_len: u64,
        metadata: FileMetaData,
        limits: Limits,
    ) -> Result<FileReader<'a>> {
        let schema = Schema::from_elements_with_limits(&metadata.schema, &limits)?;
        Ok(FileReader {
            source,
            file_len,
            metadata,
            schema,
            limits,
            verify_crc: true,
            #[cfg(feature = "encryption")]
            crypto: None,
        })
    }

    /// Opens a file held in memory that may be encrypted (Parquet Modular Encryption), with
    /// the keys and AAD prefix in `keys` (see [`crate::encryption`]). A plain file opens as
    /// with [`FileReader::from_bytes`].
    ///
    /// Errors when the footer does not decrypt (no footer key, a wrong one, a missing AAD
    /// prefix: [`ErrorKind::Decryption`], naming the module) or a plaintext footer's signature
    /// does not verify. A column whose key is not given opens fine and is an error only when
    /// read. Never panics, for any input.
    #[cfg(feature = "encryption")]
    pub fn from_bytes_with_decryption(
        bytes: &'a [u8],
        keys: crate::encryption::DecryptionProperties,
    ) -> Result<FileReader<'a>> {
        let limits = Limits::default();
        let (start, encrypted) = footer::footer_bytes(bytes, &limits)?;
        let end = bytes.len() - footer::TAIL_LEN;
        let footer = bytes.get(start as usize..end).unwrap_or(&[]);
        let (metadata, d) = decrypt::open_footer(footer, encrypted, keys, &limits)
            .map_err(|e| e.offset_by(start))?;
        Self::open(Source::Bytes(bytes), bytes.len() as u64, metadata, limits)?.with_crypto(d)
    }

    /// [`FileReader::from_bytes_with_decryption`] through any `Read + Seek`.
    #[cfg(all(feature = "encryption", feature = "std"))]
    pub fn new_with_decryption<R: std::io::Read + std::io::Seek + Send + 'a>(
        reader: R,
        keys: crate::encryption::DecryptionProperties,
    ) -> Result<FileReader<'a>> {
        let limits = Limits::default();
        let reader: Box<dyn ReadAt + Send + Sync + 'a> = Box::new(std::sync::Mutex::new(reader));
        let (footer, start, encrypted) = footer::read_footer_bytes_at(&*reader, &limits)?;
        let (metadata, d) = decrypt::open_footer(&footer, encrypted, keys, &limits)
            .map_err(|e| e.offset_by(start))?;
        let file_len = reader.len()?;
        Self::open(Source::Reader(reader), file_len, metadata, limits)?.with_crypto(d)
    }

    #[cfg(feature = "encryption")]
    fn with_crypto(mut self, d: Option<decrypt::FileDecryptor>) -> Result<Self> {
        if let Some(d) = d {
            let paths: Vec<String> = self
                .schema
                .columns()
                .iter()
                .map(|c| c.path_string())
                .collect();
            let keys = d.open_columns(&mut self.metadata, &paths, &self.limits)?;
            self.crypto = Some((d, keys));
        }
        Ok(self)
    }

    /// Whether the file is encrypted (opened with [`FileReader::from_bytes_with_decryption`]
    /// or `new_with_decryption`, and its footer names an encryption algorithm).
    #[cfg(feature = "encryption")]
    pub fn is_encrypted(&self) -> bool {
        self.crypto.is_some()
    }

    /// The decryptor of a chunk's modules: `None` for a plaintext chunk, an error (with the
    /// column and row group) when it is encrypted and its key is unknown.
    #[cfg(feature = "encryption")]
    fn chunk_decryptor(
        &self,
        row_group: usize,
        index: usize,
    ) -> Result<Option<decrypt::ChunkDecryptor>> {
        let Some((d, keys)) = &self.crypto else {
            return Ok(None);
        };
        let rg_ordinal = self
            .metadata
            .row_groups
            .get(row_group)
            .and_then(|rg| rg.ordinal)
            .map_or(row_group, |o| o.max(0) as usize);
        match keys.get(row_group).and_then(|k| k.get(index)) {
            Some(decrypt::ChunkKey::Key(k)) => Ok(Some(d.chunk(k.clone(), rg_ordinal, index))),
            Some(decrypt::ChunkKey::Missing(what)) => {
                let path = self.schema.column(index).map(|c| c.path_string());
                let e = Error::new(ErrorKind::Decryption {
                    module: "column chunk",
                    what,
                });
                Err(e
                    .in_column(path.as_deref().unwrap_or(""))
                    .in_row_group(row_group))
            }
            _ => Ok(None),
        }
    }

    /// Decrypts one length-prefixed module of a column chunk that is not a page: a column
    /// index, an offset index, a Bloom filter header or bitset (`module`), read from the file
    /// by the caller. For a plaintext chunk, returns `None`. Errors as reading the chunk
    /// does, or when the module does not authenticate.
    #[cfg(feature = "encryption")]
    pub fn decrypt_chunk_module(
        &self,
        row_group: usize,
        column: usize,
        module: crate::encryption::ModuleType,
        bytes: &[u8],
    ) -> Result<Option<Vec<u8>>> {
        let path = self
            .schema
            .column(column)
            .map(|c| c.path_string())
            .unwrap_or_default();
        let locate = |e: Error| e.in_column(&path).in_row_group(row_group);
        match self.chunk_decryptor(row_group, column).map_err(locate)? {
            None => Ok(None),
            Some(c) => c
                .module(module, bytes)
                .map(|(m, _)| Some(m))
                .map_err(locate),
        }
    }

    /// Sets the limits for reading pages.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Whether to verify page CRCs when pages carry one (default true); a mismatch is an
    /// [`ErrorKind::Checksum`].
    pub fn verify_crc(mut self, verify: bool) -> Self {
        self.verify_crc = verify;
        self
    }

    /// The decoded footer.
    pub fn metadata(&self) -> &FileMetaData {
        &self.metadata
    }

    /// The schema.
    pub fn schema(&self) -> &Schema {
        &self.schema
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Number of row groups.
    pub fn num_row_groups(&self) -> usize {
        self.metadata.row_groups.len()
    }

    /// A reader of one column chunk: `column` is a leaf index or a dotted path.
    ///
    /// Errors when the row group or column does not exist, when the chunk is encrypted
    /// ([`ErrorKind::Encrypted`]), lives in another file or contradicts the schema. Errors of
    /// this call and of the reader carry the row group and column path.
    pub fn column_chunk<C: ColumnSelector>(
        &self,
        row_group: usize,
        column: C,
    ) -> Result<ColumnChunkReader<'_>> {
        let index = column.column_index(&self.schema)?;
        self.chunk_reader(row_group, index)
    }

    /// [`FileReader::column_chunk`], decoding into `buffers` (from
    /// [`ColumnChunkReader::into_buffers`] of a reader that is done) instead of allocating new
    /// ones. See [`ChunkBuffers`] for an example. On an error the buffers are dropped.
    pub fn column_chunk_with<C: ColumnSelector>(
        &self,
        row_group: usize,
        column: C,
        buffers: ChunkBuffers,
    ) -> Result<ColumnChunkReader<'_>> {
        Ok(self.column_chunk(row_group, column)?.with_buffers(buffers))
    }

    /// A reader of part of a column chunk, decoding into `buffers` as
    /// [`FileReader::column_chunk_with`] does: the data pages `part` names, after the chunk's
    /// dictionary page when `part.dictionary`. For reading one large chunk on several threads,
    /// a part each, once a walk of its page headers ([`FileReader::pages`]) has found where
    /// its pages are. The parts' rows are not checked against `RowGroup.num_rows` (a part's
    /// rows are not known before it is decoded): the caller adds them up.
    ///
    /// Errors as [`FileReader::column_chunk`] does, and when the part is not inside the chunk
    /// or the chunk is encrypted; reading errors when `part.pages` does not start at a page
    /// header, or `part.dictionary` is set and the chunk's first page is not a dictionary page
    /// ending before them.
    ///
    /// ```
    /// # fn main() -> parket::Result<()> {
    /// # let bytes = parket::testing::corpus_file("alltypes_plain.parquet");
    /// use parket::read::{ChunkBuffers, ChunkPart, FileReader};
    /// let file = FileReader::from_bytes(&bytes)?;
    /// // The data pages of column 0 (`id`): one page, after no dictionary page.
    /// let pages: Vec<_> = file.pages(0, 0)?.collect::<parket::Result<_>>()?;
    /// let (first, last) = (&pages[0], &pages[pages.len() - 1]);
    /// let end = last.offset + (last.header_len + last.header.compressed_page_size as usize) as u64;
    /// let part = ChunkPart { pages: first.offset..end, num_values: 8, ordinal: 0, dictionary: false };
    /// let mut ids = file.column_chunk_part_with(0, 0, &part, ChunkBuffers::default())?;
    /// assert_eq!(ids.next_batch(100)?.map(|b| b.len()), Some(8));
    /// # Ok(()) }
    /// ```
    pub fn column_chunk_part_with<C: ColumnSelector>(
        &self,
        row_group: usize,
        column: C,
        part: &ChunkPart,
        buffers: ChunkBuffers,
    ) -> Result<ColumnChunkReader<'_>> {
        let index = column.column_index(&self.schema)?;
        let located = self.locate_chunk(row_group, index)?;
        let (range, path) = (located.1, &located.2);
        let locate = |e: Error| e.in_column(path).in_row_group(row_group);
        #[cfg(feature = "encryption")]
        if self.is_encrypted() {
            return Err(locate(Error::unsupported(
                "reading an encrypted column chunk in parts",
            )));
        }
        let pages = &part.pages;
        if pages.start < range.start || pages.start > pages.end || pages.end > range.end {
            return Err(locate(Error::invalid_argument(
                "a part of a column chunk outside the chunk",
            )));
        }
        let part_range = ChunkRange {
            num_values: part.num_values,
            ..range
        };
        let walk = walk::PageWalk::part(
            part_range,
            self.file_len,
            self.limits,
            pages.clone(),
            part.ordinal,
            part.dictionary,
        );
        let reader = self.chunk_reader_walk(row_group, index, located, walk)?;
        let first = pages.start == range.start || (part.dictionary && part.ordinal <= 1);
        Ok(reader.in_part(part_range, first).with_buffers(buffers))
    }

    /// The checks every way into a column chunk makes: the row group and chunk exist, the
    /// chunk is in this file, not encrypted, has metadata; and its byte range. Errors carry the
    /// column path and row group.
    fn locate_chunk(
        &self,
        row_group: usize,
        index: usize,
    ) -> Result<(&ColumnMetaData, ChunkRange, String)> {
        let desc = self
            .schema
            .column(index)
            .ok_or_else(|| Error::invalid_argument("column index out of range"))?;
        let path = desc.path_string();
        let locate = |e: Error| e.in_column(&path).in_row_group(row_group);
        let rg = self.metadata.row_groups.get(row_group).ok_or_else(|| {
            Error::invalid_argument_fmt(format_args!(
                "row group {row_group} does not exist: the file has {}",
                self.metadata.row_groups.len()
            ))
        })?;
        let chunk = rg.columns.get(index).ok_or_else(|| {
            locate(Error::out_of_spec(
                "a row group has fewer column chunks than the schema has leaves",
            ))
        })?;
        #[cfg(feature = "encryption")]
        let decrypting = self.crypto.is_some();
        #[cfg(not(feature = "encryption"))]
        let decrypting = false;
        if chunk.crypto_metadata.is_some() && !decrypting {
            return Err(locate(Error::new(ErrorKind::Encrypted)));
        }
        #[cfg(feature = "encryption")]
        self.chunk_decryptor(row_group, index).map_err(locate)?;
        if chunk.file_path.is_some() {
            return Err(locate(Error::unsupported(
                "column chunks in another file (ColumnChunk.file_path)",
            )));
        }
        let meta = chunk
            .meta_data
            .as_ref()
            .ok_or_else(|| locate(Error::out_of_spec("ColumnChunk without meta_data")))?;
        if meta.type_ != desc.physical_type {
            return Err(locate(Error::out_of_spec(
                "ColumnMetaData.type differs from the schema's physical type",
            )));
        }
        let range = ChunkRange::new(meta, self.file_len, rg.num_rows).map_err(locate)?;
        Ok((meta, range, path))
    }

    fn source_ref(&self) -> SourceRef<'_> {
        match &self.source {
            Source::Bytes(b) => SourceRef::Bytes(b),
            Source::Owned(b) => SourceRef::Bytes((**b).as_ref()),
            #[cfg(feature = "std")]
            Source::Reader(r) => SourceRef::Reader(&**r),
        }
    }

    fn chunk_reader(&self, row_group: usize, index: usize) -> Result<ColumnChunkReader<'_>> {
        let located = self.locate_chunk(row_group, index)?;
        let walk = walk::PageWalk::from_range(located.1, self.file_len, self.limits);
        #[cfg(feature = "encryption")]
        let walk = walk.with_decryptor(self.chunk_decryptor(row_group, index)?);
        self.chunk_reader_walk(row_group, index, located, walk)
    }

    /// The reader of a chunk whose pages `walk` finds (made for this chunk, which
    /// [`FileReader::locate_chunk`] gave as `located`).
    fn chunk_reader_walk(
        &self,
        row_group: usize,
        index: usize,
        located: (&ColumnMetaData, ChunkRange, String),
        walk: walk::PageWalk,
    ) -> Result<ColumnChunkReader<'_>> {
        let (meta, range, path) = located;
        let desc = self
            .schema
            .column(index)
            .ok_or_else(|| Error::invalid_argument("column index out of range"))?;
        let column = PageColumn::from(desc);
        let decoder = PageDecoder::new(column, meta.codec, self.limits).verify_crc(self.verify_crc);
        let stream = PageStream::new(self.source_ref(), walk, range, decoder, self.limits);
        Ok(ColumnChunkReader::new(stream, column, path, row_group))
    }

    /// The raw pages of one column chunk, in file order: offset, header and stored body of
    /// each (see [`pages`]). Low level: nothing is decompressed or decoded. `column` is a leaf
    /// index or a dotted path.
    ///
    /// Errors as [`FileReader::column_chunk`] does; the iterator's errors carry the page's file
    /// offset. Never panics, for any input; each body is checked against
    /// [`Limits::page_bytes`] before it is read.
    pub fn pages<C: ColumnSelector>(&self, row_group: usize, column: C) -> Result<Pages<'_>> {
        let index = column.column_index(&self.schema)?;
        let (_, range, _) = self.locate_chunk(row_group, index)?;
        let walk = walk::PageWalk::from_range(range, self.file_len, self.limits);
        #[cfg(feature = "encryption")]
        let walk = walk.with_decryptor(self.chunk_decryptor(row_group, index)?);
        Ok(Pages::new(self.source_ref(), walk))
    }

    /// The file bytes `range` of `what` (borrowed when the file is in memory). Errors when
    /// the range is not inside the file, or when it cannot be allocated (`what` names it in
    /// that error, which only a source read into memory can give).
    #[cfg_attr(not(feature = "std"), allow(unused_variables))]
    pub(crate) fn read_range(
        &self,
        range: core::ops::Range<u64>,
        what: &'static str,
    ) -> Result<alloc::borrow::Cow<'_, [u8]>> {
        if range.start > range.end || range.end > self.file_len {
            return Err(Error::truncated(
                "bytes a footer field points to",
                range.end.saturating_sub(range.start),
                self.file_len.saturating_sub(range.start),
            )
            .at_offset(range.start));
        }
        match self.source_ref() {
            SourceRef::Bytes(b) => walk::slice(b, 0, range.clone())
                .map(alloc::borrow::Cow::Borrowed)
                .ok_or_else(|| Error::truncated("bytes", range.end - range.start, 0)),
            #[cfg(feature = "std")]
            SourceRef::Reader(r) => {
                let len = usize::try_from(range.end - range.start)
                    .map_err(|_| Error::out_of_range("length of a range of the file", i64::MAX))?;
                let mut buf = crate::limits::zeroed(len, what)?;
                r.read_at(range.start, &mut buf)?;
                Ok(alloc::borrow::Cow::Owned(buf))
            }
        }
    }

    /// The file's records like [`FileReader::records`], for a reader that the iterator takes
    /// over: a function can open a file and return its rows. Row groups are read whole, one at
    /// a time, and assembled (memory: one row group of the selected columns).
    pub fn into_records(self, columns: Option<&[&str]>) -> Result<IntoRecords<'a>> {
        let (schema, leaves) = match columns {
            Some(paths) => self.schema.project(paths)?,
            None => (
                self.schema.clone(),
                (0..self.schema.columns().len()).collect(),
            ),
        };
        Ok(IntoRecords {
            file: self,
            schema,
            leaves,
            row_group: 0,
            ready: Vec::new().into_iter(),
            failed: false,
        })
    }

    /// The file's length in bytes.
    pub fn file_len(&self) -> u64 {
        self.file_len
    }

    /// The file's records, row group by row group, keeping only `columns` (dotted leaf or
    /// group paths, see [`Schema::project`]) or every column with `None`.
    ///
    /// The selected chunks are read page by page and assembled
    /// ([`mod@crate::levels::assemble`]) about a thousand records at a time (see
    /// [`mod@records`]), so memory is a few pages per column plus those records, whatever the
    /// size of a row group. Errors: a path that names no field (here); then, from the
    /// iterator, any error reading or assembling a row group (with the row group's ordinal),
    /// after which it ends. Records before the error have been returned.
    ///
    /// ```
    /// # fn main() -> parket::Result<()> {
    /// # let bytes = parket::testing::corpus_file("alltypes_plain.parquet");
    /// use parket::read::FileReader;
    /// use parket::record::Value;
    /// let file = FileReader::from_bytes(&bytes)?;
    /// let ids: Vec<Value> = file.records(Some(&["id", "bool_col"]))?.collect::<Result<_, _>>()?;
    /// assert_eq!(ids.len(), 8);
    /// assert_eq!(ids[0], Value::Group(vec![Value::Int32(4), Value::Boolean(true)]));
    /// # Ok(()) }
    /// ```
    pub fn records(&self, columns: Option<&[&str]>) -> Result<Records<'_, 'a>> {
        let (schema, leaves) = match columns {
            Some(paths) => self.schema.project(paths)?,
            None => (
                self.schema.clone(),
                (0..self.schema.columns().len()).collect(),
            ),
        };
        Ok(Records::new(self, schema, leaves))
    }

    /// Reads whole column chunks of one row group: one [`LeafData`] per entry of `columns`
    /// (leaf indices), in that order. What record assembly takes.
    pub fn read_row_group(&self, row_group: usize, columns: &[usize]) -> Result<Vec<LeafData>> {
        // The selected chunks are held together (and records built from them): bound their
        // declared positions together, before reading (see Limits::values_per_read).
        if let Some(rg) = self.metadata.row_groups.get(row_group) {
            let total = columns
                .iter()
                .filter_map(|&c| rg.columns.get(c)?.meta_data.as_ref())
                .fold(0u64, |t, m| t.saturating_add(m.num_values.max(0) as u64));
            self.limits
                .check_values_per_read(total)
                .map_err(|e| e.in_row_group(row_group))?;
        }
        columns
            .iter()
            .map(|&c| self.chunk_reader(row_group, c)?.read_all())
            .collect()
    }
}

#[cfg(all(test, feature = "std"))]
mod read_at_tests {
    use super::ReadAt;
    use alloc::vec::Vec;
    use std::io::Cursor;
    use std::sync::Mutex;

    #[test]
    fn read_append_appends_exactly_the_bytes_asked_for() {
        let file: Vec<u8> = (0..=255u8).collect();
        let reader = Mutex::new(Cursor::new(file));
        let mut out = alloc::vec![7u8, 8];
        out.reserve(16);
        reader.read_append(100, 5, &mut out).unwrap();
        assert_eq!(out, [7, 8, 100, 101, 102, 103, 104]);
        // The default (zero, then read_at) gives the same bytes.
        let mut by_default = alloc::vec![7u8, 8];
        let pushed = super::Pushed {
            len: 256,
            parts: alloc::vec![(0, (0..=255u8).collect())],
        };
        pushed.read_append(100, 5, &mut by_default).unwrap();
        assert_eq!(by_default, out);
    }

    #[test]
    fn read_append_past_the_end_is_an_error_and_appends_nothing() {
        let reader = Mutex::new(Cursor::new(alloc::vec![1u8; 10]));
        let mut out = alloc::vec![9u8];
        let e = reader.read_append(8, 5, &mut out).unwrap_err();
        assert_eq!(e.io_kind(), Some(std::io::ErrorKind::UnexpectedEof), "{e}");
        assert_eq!(out, [9]);
        // Nothing at all past the end.
        assert!(reader.read_append(20, 1, &mut out).is_err());
        assert_eq!(out, [9]);
    }
}
