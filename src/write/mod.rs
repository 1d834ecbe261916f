//! Layer 6: the streaming file writer. Column batches (or records) in, a Parquet file out,
//! written front to back into any sink — it never seeks: offsets are counted as bytes go out.
//!
//! Spec: the README's "File format" section, PageIndex.md (where the indexes go),
//! BloomFilter.md, and parquet.thrift for every footer field.
//!
//! ```text
//! "PAR1"
//! row group 0: column chunk 0: [dictionary page] data page ... | column chunk 1: ...
//!              bloom filters of row group 0 (BloomFilterHeader + bitset), if any
//! row group 1: ...
//! ColumnIndex of every chunk (row group order, then column order)
//! OffsetIndex of every chunk
//! FileMetaData (Thrift compact) | footer length (u32 LE) | "PAR1"
//! ```
//!
//! ## Threads
//!
//! [`WriteOptions::threads`] (default: every core) encodes and compresses the columns of a
//! row group on several threads; the file's bytes are the same whatever the count. A thread
//! takes one column's part of one call at a time: the batches of a call that carries every
//! column ([`FileWriter::write_columns`], hence [`FileWriter::write_records`], and
//! [`RowGroupWriter::write_columns`]), and, at the row-group cut, the closing of each chunk
//! not yet written out (its last page, its dictionary page, its Bloom filter). A column sees
//! the same batches in the same order as on one thread, so its pages are the same bytes; they
//! go to the sink from the calling thread, in schema order, each chunk as soon as it and the
//! ones before it are closed (while the other threads still work). A row group's last batch
//! given to [`RowGroupWriter::finish_with`] is written and closed column by column on the
//! threads as one piece of work each, so chunk `k` goes out while later columns are still
//! being encoded: the sink's work (the copy, and an in-memory sink's fresh pages) overlaps
//! the encoding instead of following it. Calls that carry one column
//! ([`RowGroupWriter::write`], [`ColumnWriter::write`]) run on the calling thread, and so
//! does a call or a cut of fewer than [`MIN_PARALLEL_LEVELS`] levels, where starting threads
//! would cost more than it saves. Without the `std` feature there are no threads.
//!
//! Memory: the threads buffer nothing of their own. Pages are held where they are held on one
//! thread (by each chunk not yet at the front of its row group, until it is written out), with
//! one difference: the chunk at the front, whose pages one thread writes out as each is
//! closed, holds its pages of a parallel call until the call returns, then writes them out
//! (once its dictionary is settled, as on one thread). So a streaming writer that writes a row
//! group in parallel calls of `k` rows holds, beyond what one thread holds, at most the front
//! column's encoded pages of `k` rows; `finish_with` holds the chunks closed ahead of their
//! turn, never more than the row group `finish` would hold; `tests/memory_parallel_write.rs`
//! measures all three.
//!
//! Worked example: one REQUIRED INT32 column holding `[7]`, no dictionary, no compression, no
//! CRC, no page index, no statistics:
//!
//! ```text
//! 50 41 52 31                      "PAR1"
//! 15 00 15 08 15 08 2c             PageHeader: DATA_PAGE, sizes 4 and 4, data_page_header {
//!    15 02 15 00 15 06 15 06 00 00   num_values 1, PLAIN, RLE, RLE }
//! 07 00 00 00                      the value (no levels: max_def_level = max_rep_level = 0)
//! ...FileMetaData... | len | "PAR1"
//! ```
//!
//! ```
//! use parket::compression::Codec;
//! use parket::schema::Schema;
//! use parket::values::ValuesRef;
//! use parket::write::{FileWriter, WriteOptions};
//! let schema = Schema::parse("message m { required int32 x; }").unwrap();
//! let options = WriteOptions::default()
//!     .codec(Codec::Uncompressed)
//!     .dictionary(false)
//!     .statistics(false)
//!     .page_crc(false)
//!     .page_index(false);
//! let mut w = FileWriter::new(Vec::new(), schema, options).unwrap();
//! let mut rg = w.next_row_group().unwrap();
//! rg.column("x").unwrap().write(ValuesRef::Int32(&[7]), &[], &[]).unwrap();
//! rg.finish().unwrap();
//! let meta = w.finish().unwrap();
//! assert_eq!(meta.num_rows, 1);
//! let file = w.into_inner();
//! assert_eq!(&file[..4], b"PAR1");
//! assert_eq!(
//!     file[4..25],
//!     [0x15, 0x00, 0x15, 0x08, 0x15, 0x08, 0x2c, 0x15, 0x02, 0x15, 0x00, 0x15, 0x06, 0x15,
//!      0x06, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00]
//! );
//! assert_eq!(&file[file.len() - 4..], b"PAR1");
//! ```

mod chunk;
mod column;
#[cfg(feature = "encryption-write")]
mod encrypt;
mod open_page;
mod options;
mod page_index;
mod parallel;
mod typed;

pub use chunk::SLICE_LEVELS;
pub use column::ColumnWriter;
#[cfg(feature = "encryption-write")]
pub use encrypt::{Algorithm, FileEncryptionProperties};
pub use options::{
    encoding_allowed, BloomFilterOptions, ColumnOptions, PageVersion, WriteOptions,
    DEFAULT_COLUMN_INDEX_TRUNCATE_LENGTH, DEFAULT_DATA_PAGE_SIZE,
    DEFAULT_DICTIONARY_PAGE_SIZE_LIMIT, DEFAULT_MAX_ROWS_PER_PAGE, DEFAULT_ROW_GROUP_BYTES,
    DEFAULT_ROW_GROUP_ROWS,
};
pub use parallel::MIN_PARALLEL_LEVELS;
pub use typed::TypedWriter;

use alloc::vec::Vec;

use crate::error::{Error, Result};
use crate::format::{
    BloomFilterAlgorithm, BloomFilterCompression, BloomFilterHash, BloomFilterHeader, ColumnIndex,
    ColumnOrder, FileMetaData, OffsetIndex, RowGroup,
};
pub use crate::schema::ColumnSelector;
use crate::schema::Schema;
use crate::values::ValuesRef;

use column::FinishedChunk;
use options::ColumnSettings;

/// Where the writer's bytes go. Implemented for every `std::io::Write` with the `std`
/// feature, and for `Vec<u8>` without it.
pub trait Sink {
    /// Writes all of `buf`.
    fn write_bytes(&mut self, buf: &[u8]) -> Result<()>;
}

#[cfg(feature = "std")]
impl<W: std::io::Write> Sink for W {
    fn write_bytes(&mut self, buf: &[u8]) -> Result<()> {
        self.write_all(buf).map_err(Error::from)
    }
}

#[cfg(not(feature = "std"))]
impl Sink for Vec<u8> {
    fn write_bytes(&mut self, buf: &[u8]) -> Result<()> {
        self.extend_from_slice(buf);
        Ok(())
    }
}

/// The file's sink while a column chunk writes into it: bytes are counted into the file offset
/// as they go, and a failed write marks the file as broken.
pub(crate) struct Out<'a> {
    pub sink: &'a mut dyn Sink,
    pub offset: &'a mut u64,
    pub failed: &'a mut bool,
}

impl Out<'_> {
    /// Writes `buf` (nothing for an empty one).
    pub fn put(&mut self, buf: &[u8]) -> Result<()> {
        if buf.is_empty() {
            return Ok(());
        }
        match self.sink.write_bytes(buf) {
            Ok(()) => {
                *self.offset += buf.len() as u64;
                Ok(())
            }
            Err(e) => {
                *self.failed = true;
                Err(e)
            }
        }
    }
}

/// A streaming Parquet writer.
#[must_use = "a FileWriter writes the footer only when finished"]
pub struct FileWriter<W: Sink> {
    sink: W,
    offset: u64,
    schema: Schema,
    options: WriteOptions,
    settings: Vec<ColumnSettings>,
    row_groups: Vec<RowGroup>,
    indexes: Vec<Vec<(Option<ColumnIndex>, Option<OffsetIndex>)>>,
    num_rows: i64,
    open: Option<Vec<ColumnWriter>>,
    metadata: Option<FileMetaData>,
    /// A write to the sink failed: the file is incomplete and the writer takes no more.
    failed: bool,
    /// The buffers of the last column writer finished, for the next one to start with.
    scratch: Option<column::WriterScratch>,
    /// A row group writer holding rows was dropped without `finish`: `finish` errors.
    dropped_rows: bool,
    /// Encrypts the file, when the options ask for it.
    #[cfg(feature = "encryption-write")]
    encryptor: Option<encrypt::FileEncryptor>,
}

impl<W: Sink> FileWriter<W> {
    /// Starts a file: checks the options against the schema and writes the magic.
    pub fn new(mut sink: W, schema: Schema, options: WriteOptions) -> Result<FileWriter<W>> {
        for (path, _) in &options.columns {
            if schema.column_index(path).is_none() {
                return Err(Error::invalid_argument(alloc::format!(
                    "column options for {path:?}, which is not a leaf column of the schema"
                )));
            }
        }
        let settings = schema
            .columns()
            .iter()
            .map(|c| options.resolve(&c.path_string(), c.physical_type))
            .collect::<Result<Vec<_>>>()?;
        for s in &settings {
            // A codec whose feature is off fails here, not at the first page.
            crate::compression::compress(s.codec, b"", &mut Vec::new())?;
        }
        #[cfg(feature = "encryption-write")]
        let encryptor = match &options.encryption {
            Some(props) => Some(encrypt::FileEncryptor::new(props.clone(), &schema)?),
            None => None,
        };
        #[cfg(feature = "encryption-write")]
        let magic = encryptor.as_ref().map_or(b"PAR1", |e| e.magic());
        #[cfg(not(feature = "encryption-write"))]
        let magic = b"PAR1";
        sink.write_bytes(magic)?;
        Ok(FileWriter {
            sink,
            offset: 4,
            schema,
            options,
            settings,
            row_groups: Vec::new(),
            indexes: Vec::new(),
            num_rows: 0,
            open: None,
            metadata: None,
            failed: false,
            scratch: None,
            dropped_rows: false,
            #[cfg(feature = "encryption-write")]
            encryptor,
        })
    }

    /// The schema.
    pub fn schema(&self) -> &Schema {
        &self.schema
    }

    /// Bytes written so far.
    pub fn bytes_written(&self) -> u64 {
        self.offset
    }

    /// The options the file is written with.
    #[cfg(feature = "arrow")]
    pub(crate) fn options(&self) -> &WriteOptions {
        &self.options
    }

    fn column_writers(&mut self) -> Result<Vec<ColumnWriter>> {
        let mut columns = self
            .schema
            .columns()
            .iter()
            .zip(&self.settings)
            .map(|(c, s)| ColumnWriter::new(c.clone(), s.clone()))
            .collect::<Result<Vec<_>>>()?;
        if let (Some(first), Some(scratch)) = (columns.first_mut(), self.scratch.take()) {
            first.adopt(scratch);
        }
        #[cfg(feature = "encryption-write")]
        if let Some(e) = &self.encryptor {
            // The row group these columns go to is the next one.
            let rg_index = self.row_groups.len();
            for (i, c) in columns.iter_mut().enumerate() {
                c.encrypt_with(e.chunk(rg_index, i));
            }
        }
        Ok(columns)
    }

    fn check_open(&self) -> Result<()> {
        if self.failed {
            return Err(Error::invalid_argument(
                "an earlier write to the sink failed: the file is incomplete",
            ));
        }
        if self.metadata.is_some() {
            return Err(Error::invalid_argument("the file writer is finished"));
        }
        Ok(())
    }

    fn out(&mut self) -> Out<'_> {
        Out {
            sink: &mut self.sink,
            offset: &mut self.offset,
            failed: &mut self.failed,
        }
    }

    /// Writes `buf` to the sink.
    fn put(&mut self, buf: &[u8]) -> Result<()> {
        self.out().put(buf)
    }

    /// Starts a row group (after writing out the row group `write_records` has open).
    pub fn next_row_group(&mut self) -> Result<RowGroupWriter<'_, W>> {
        self.check_open()?;
        self.flush_open()?;
        let columns = self.column_writers()?;
        let n = columns.len();
        Ok(RowGroupWriter {
            finished: false,
            start: self.offset,
            file: self,
            columns: columns.into_iter().map(Some).collect(),
            closing: alloc::vec![false; n],
            written: Vec::with_capacity(n),
            num_rows: None,
        })
    }

    fn flush_open(&mut self) -> Result<()> {
        if let Some(cols) = self.open.take() {
            if cols.first().is_some_and(|c| c.num_rows() > 0) {
                self.write_row_group(cols)?;
            }
        }
        Ok(())
    }

    /// Writes the striped columns of some rows (one [`LeafData`](crate::levels::LeafData) per
    /// leaf column, in schema order) into the open row group, starting a new one when the
    /// open one has reached [`WriteOptions::row_group_rows`] or `row_group_bytes`.
    pub fn write_columns(&mut self, leaves: &[crate::levels::LeafData]) -> Result<()> {
        self.check_open()?;
        if leaves.len() != self.schema.columns().len() {
            return Err(Error::invalid_argument(alloc::format!(
                "{} leaf columns given for a schema of {}",
                leaves.len(),
                self.schema.columns().len()
            )));
        }
        if self.open.is_none() {
            self.open = Some(self.column_writers()?);
        }
        let cols = self
            .open
            .as_mut()
            .ok_or(Error::unsupported("open row group"))?;
        let before: Vec<u64> = cols.iter().map(|c| c.num_rows()).collect();
        let threads = threads_for(&self.options, leaf_levels(leaves));
        let work = |i: usize, _: &ColumnWriter| leaves.get(i).map_or(0, leaf_work);
        parallel::for_each_heaviest_first(threads, cols, work, |i, c| {
            let leaf = &leaves[i];
            c.write(leaf.values.as_ref(), &leaf.def_levels, &leaf.rep_levels)
        })?;
        let rows: Vec<u64> = cols.iter().map(|c| c.num_rows()).collect();
        let added: Vec<u64> = rows.iter().zip(&before).map(|(a, b)| a - b).collect();
        if added.windows(2).any(|w| w[0] != w[1]) {
            return Err(Error::invalid_argument(
                "leaf columns hold different numbers of rows",
            ));
        }
        let bytes: usize = cols.iter().map(|c| c.buffered_bytes()).sum();
        if rows.first().copied().unwrap_or(0) >= self.options.row_group_rows as u64
            || bytes >= self.options.row_group_bytes
        {
            self.flush_open()?;
        }
        Ok(())
    }

    /// Writes records (one [`Value::Group`](crate::record::Value) per row, shaped as the
    /// schema): shreds them in batches of at most [`SLICE_LEVELS`] records and starts a new
    /// row group whenever the open one reaches [`WriteOptions::row_group_rows`] rows or
    /// `row_group_bytes` of encoded pages. On a shredding error, the records before the
    /// failing batch are written.
    pub fn write_records(&mut self, records: &[crate::record::Value]) -> Result<()> {
        let mut rest = records;
        while !rest.is_empty() {
            let open_rows = self
                .open
                .as_ref()
                .and_then(|c| c.first())
                .map_or(0, |c| c.num_rows() as usize);
            let room = self.options.row_group_rows.saturating_sub(open_rows).max(1);
            let n = rest.len().min(room).min(SLICE_LEVELS);
            let (batch, tail) = rest.split_at(n);
            let leaves = crate::levels::shred::shred(&self.schema, batch)?;
            self.write_columns(&leaves)?;
            rest = tail;
        }
        Ok(())
    }

    /// Writes out a row group whose columns were all buffered (`write_columns`).
    fn write_row_group(&mut self, columns: Vec<ColumnWriter>) -> Result<()> {
        let rg_index = self.row_groups.len();
        let num_rows = columns.first().map_or(0, |c| c.num_rows());
        check_rows(columns.iter(), num_rows, rg_index)?;
        let start = self.offset;
        let mut written = Vec::with_capacity(columns.len());
        self.write_chunks(columns, rg_index, &mut written)?;
        self.end_row_group(start, num_rows, written)
    }

    /// Closes the chunks of `columns` and writes them out in order (the first at the front of
    /// the row group), appending them to `written`. With several threads and enough work
    /// left, the chunks are closed on the threads (see [`parallel`]), each written out as
    /// soon as it and the ones before it are closed.
    fn write_chunks(
        &mut self,
        columns: Vec<ColumnWriter>,
        rg_index: usize,
        written: &mut Vec<FinishedChunk>,
    ) -> Result<()> {
        let work: usize = columns.iter().map(ColumnWriter::closing_work).sum();
        let threads = threads_for(&self.options, work);
        if threads <= 1 || columns.len() <= 1 {
            for c in columns {
                written.push(self.write_chunk(c, rg_index, None)?);
            }
            return Ok(());
        }
        let mut columns: Vec<Option<ColumnWriter>> = columns.into_iter().map(Some).collect();
        let work =
            |_: usize, c: &Option<ColumnWriter>| c.as_ref().map_or(0, |c| c.closing_work() as u64);
        // Chunk `k` goes out as soon as chunks `0..=k` are closed, while the threads still
        // close later ones.
        parallel::for_each_in_order(
            threads,
            &mut columns,
            work,
            |_, c, _: Option<()>| {
                c.take()
                    .ok_or(Error::unsupported("a column written out twice"))?
                    .close()
            },
            |_, closed| {
                let (chunk, scratch) = closed.write_out(&mut self.out())?;
                self.scratch = Some(scratch);
                written.push(chunk);
                Ok(None)
            },
        )
        .map(|_| ())
        .map_err(|e| e.in_row_group(rg_index))
    }

    /// Closes a column chunk and writes what it still holds (the chunk is at the front of
    /// the row group being written). Its buffers go to `next` when that writer has not
    /// started, else they are kept for the next row group's first column.
    fn write_chunk(
        &mut self,
        c: ColumnWriter,
        rg_index: usize,
        next: Option<&mut ColumnWriter>,
    ) -> Result<FinishedChunk> {
        let (chunk, scratch) = c
            .finish(&mut self.out())
            .map_err(|e| e.in_row_group(rg_index))?;
        match next {
            Some(n) => n.adopt(scratch),
            None => self.scratch = Some(scratch),
        }
        Ok(chunk)
    }

    /// Ends the row group whose chunks are `written` (from `start` in the file): writes
    /// their bloom filters and records the row group for the footer.
    fn end_row_group(
        &mut self,
        start: u64,
        num_rows: u64,
        written: Vec<FinishedChunk>,
    ) -> Result<()> {
        let rg_index = self.row_groups.len();
        let mut chunks = Vec::with_capacity(written.len());
        let mut idx = Vec::with_capacity(written.len());
        let (mut total_unc, mut total_comp) = (0i64, 0i64);
        for (col, f) in written.into_iter().enumerate() {
            let mut chunk = f.chunk;
            if let Some(m) = &chunk.meta_data {
                total_unc += m.total_uncompressed_size;
                total_comp += m.total_compressed_size;
            }
            if let (Some(bloom), Some(meta)) = (f.bloom, chunk.meta_data.as_mut()) {
                let bits = bloom.as_bytes();
                let mut buf = Vec::with_capacity(bits.len() + 16);
                BloomFilterHeader {
                    num_bytes: bits.len() as i32,
                    algorithm: BloomFilterAlgorithm::Block,
                    hash: BloomFilterHash::XxHash,
                    compression: BloomFilterCompression::Uncompressed,
                }
                .encode(&mut buf);
                self.seal_bloom(rg_index, col, &mut buf, &bits)?;
                meta.bloom_filter_offset = Some(self.offset as i64);
                meta.bloom_filter_length = Some(buf.len() as i32);
                self.put(&buf)?;
            }
            #[cfg(feature = "encryption-write")]
            if let Some(e) = &self.encryptor {
                e.seal_column(&mut chunk, rg_index, col)?;
            }
            idx.push((f.column_index, f.offset_index));
            chunks.push(chunk);
        }
        self.row_groups.push(RowGroup {
            columns: chunks,
            total_byte_size: total_unc,
            num_rows: num_rows as i64,
            sorting_columns: None,
            file_offset: Some(start as i64),
            total_compressed_size: Some(total_comp),
            ordinal: i16::try_from(rg_index).ok(),
        });
        self.indexes.push(idx);
        self.num_rows += num_rows as i64;
        Ok(())
    }

    /// Writes the page indexes and the footer; returns the footer. The writer takes no more
    /// data afterwards ([`FileWriter::into_inner`] gives the sink back).
    pub fn finish(&mut self) -> Result<FileMetaData> {
        if let Some(m) = &self.metadata {
            return Ok(m.clone());
        }
        self.check_open()?;
        if self.dropped_rows {
            return Err(Error::invalid_argument(
                "a row group writer holding rows was dropped without finish(): \
                 its rows are not in the file",
            ));
        }
        self.flush_open()?;
        // Spec (PageIndex.md): the column indexes, then the offset indexes, after the row
        // groups and before the footer.
        let mut buf = Vec::new();
        let mut out = Out {
            sink: &mut self.sink,
            offset: &mut self.offset,
            failed: &mut self.failed,
        };
        for (rg_index, (rg, idx)) in self.row_groups.iter_mut().zip(&self.indexes).enumerate() {
            for (col, (chunk, (ci, _))) in rg.columns.iter_mut().zip(idx).enumerate() {
                if let Some(ci) = ci {
                    buf.clear();
                    ci.encode(&mut buf);
                    #[cfg(feature = "encryption-write")]
                    encrypt::seal_module(
                        self.encryptor.as_ref(),
                        crate::encryption::ModuleType::ColumnIndex,
                        (rg_index, col),
                        &mut buf,
                    )?;
                    #[cfg(not(feature = "encryption-write"))]
                    let _ = (rg_index, col);
                    chunk.column_index_offset = Some(*out.offset as i64);
                    chunk.column_index_length = Some(buf.len() as i32);
                    out.put(&buf)?;
                }
            }
        }
        for (rg_index, (rg, idx)) in self.row_groups.iter_mut().zip(&self.indexes).enumerate() {
            for (col, (chunk, (_, oi))) in rg.columns.iter_mut().zip(idx).enumerate() {
                if let Some(oi) = oi {
                    buf.clear();
                    oi.encode(&mut buf);
                    #[cfg(feature = "encryption-write")]
                    encrypt::seal_module(
                        self.encryptor.as_ref(),
                        crate::encryption::ModuleType::OffsetIndex,
                        (rg_index, col),
                        &mut buf,
                    )?;
                    #[cfg(not(feature = "encryption-write"))]
                    let _ = (rg_index, col);
                    chunk.offset_index_offset = Some(*out.offset as i64);
                    chunk.offset_index_length = Some(buf.len() as i32);
                    out.put(&buf)?;
                }
            }
        }
        self.indexes.clear();
        let kv = &self.options.key_value_metadata;
        #[allow(unused_mut)]
        let mut meta = FileMetaData {
            // Spec (FileMetaData.version, Dec 2025): "writers should always populate 1".
            version: 1,
            schema: self.schema.to_elements(),
            num_rows: self.num_rows,
            row_groups: core::mem::take(&mut self.row_groups),
            key_value_metadata: (!kv.is_empty()).then(|| kv.clone()),
            created_by: Some(self.options.created_by.clone()),
            column_orders: Some(
                self.schema
                    .columns()
                    .iter()
                    .map(|c| {
                        let kind = crate::statistics::StatKind::of_column(c);
                        if self.options.ieee_754_total_order && kind.is_floating() {
                            ColumnOrder::Ieee754TotalOrder
                        } else if kind == crate::statistics::StatKind::Int96 {
                            // Spec (ColumnOrder): writers that emit statistics for INT96
                            // "should use the INT96_TIMESTAMP_ORDER for this type".
                            ColumnOrder::Int96TimestampOrder
                        } else {
                            ColumnOrder::TypeOrder
                        }
                    })
                    .collect(),
            ),
            encryption_algorithm: None,
            footer_signing_key_metadata: None,
        };
        buf.clear();
        #[cfg(feature = "encryption-write")]
        if let Some(e) = &self.encryptor {
            buf = e.footer(&mut meta)?;
        }
        if buf.is_empty() {
            meta.encode(&mut buf);
            let len = u32::try_from(buf.len())
                .map_err(|_| Error::limit("footer bytes", buf.len() as u64, u32::MAX as u64))?;
            buf.extend_from_slice(&len.to_le_bytes());
            buf.extend_from_slice(b"PAR1");
        }
        self.put(&buf)?;
        self.metadata = Some(meta.clone());
        Ok(meta)
    }

    /// Appends the bitset to its Bloom filter header `buf`; in an encrypted chunk, both as
    /// modules (Encryption.md 4.4.2: types 8 and 9).
    fn seal_bloom(
        &self,
        rg_index: usize,
        col: usize,
        buf: &mut Vec<u8>,
        bits: &[u8],
    ) -> Result<()> {
        #[cfg(feature = "encryption-write")]
        if let Some(c) = self.encryptor.as_ref().and_then(|e| e.chunk(rg_index, col)) {
            use crate::encryption::ModuleType;
            let header = core::mem::take(buf);
            c.module(ModuleType::BloomFilterHeader, &header, buf)?;
            return c.module(ModuleType::BloomFilterBitset, bits, buf);
        }
        let _ = (rg_index, col);
        buf.extend_from_slice(bits);
        Ok(())
    }

    /// The sink (call [`FileWriter::finish`] first for a complete file).
    pub fn into_inner(self) -> W {
        self.sink
    }

    /// The sink, borrowed.
    pub fn inner(&self) -> &W {
        &self.sink
    }
}

impl<W: Sink> Drop for RowGroupWriter<'_, W> {
    fn drop(&mut self) {
        let holds_rows =
            !self.written.is_empty() || self.columns.iter().flatten().any(|c| c.num_rows() > 0);
        if !self.finished && holds_rows {
            self.file.dropped_rows = true;
        }
    }
}

/// The threads for a call whose work is `levels` levels: the options' thread count when
/// that pays for starting them (see [`MIN_PARALLEL_LEVELS`]), else 1.
fn threads_for(options: &WriteOptions, levels: usize) -> usize {
    if levels >= options.parallel_min_levels {
        options.threads
    } else {
        1
    }
}

/// Levels in a batch of leaves (values, for a column without levels).
fn leaf_levels(leaves: &[crate::levels::LeafData]) -> usize {
    leaves
        .iter()
        .map(|l| {
            l.def_levels
                .len()
                .max(l.rep_levels.len())
                .max(l.values.len())
        })
        .sum()
}

/// What encoding `leaf` costs, roughly: its levels and values, a byte array's values weighing
/// three and their bytes one each (callgrind, taxi-v2-plain-delta: a DELTA_BYTE_ARRAY string
/// column costs about 160 instructions a value, statistics included, a fixed-width one about
/// 58). Only for ordering a call's columns on threads, heaviest first.
fn leaf_work(leaf: &crate::levels::LeafData) -> u64 {
    let levels = leaf.def_levels.len().max(leaf.rep_levels.len()) as u64;
    let values = leaf.values.len() as u64;
    let strings = match leaf.values.as_ref() {
        crate::values::ValuesRef::ByteArray(b) => 2 * values + b.total_bytes() as u64,
        _ => 0,
    };
    levels + values + strings
}

/// Rows `leaf` adds to column `c`: its repetition levels at 0, or its levels, or (with
/// neither) its values. Checked again (exactly) by the column's own write.
fn leaf_rows(c: &ColumnWriter, leaf: &crate::levels::LeafData) -> u64 {
    let d = c.descriptor();
    let n = if d.max_rep_level > 0 {
        leaf.rep_levels.iter().filter(|&&r| r == 0).count()
    } else if d.max_def_level > 0 {
        leaf.def_levels.len()
    } else {
        leaf.values.len()
    };
    n as u64
}

/// Errors unless every column holds `num_rows` rows.
fn check_rows<'c>(
    mut columns: impl Iterator<Item = &'c ColumnWriter>,
    num_rows: u64,
    rg_index: usize,
) -> Result<()> {
    match columns.find(|c| c.num_rows() != num_rows) {
        Some(c) => Err(Error::invalid_argument(alloc::format!(
            "column {} has {} rows, the row group's first column {num_rows}",
            c.descriptor().path_string(),
            c.num_rows()
        ))
        .in_row_group(rg_index)),
        None => Ok(()),
    }
}

/// Writes one row group: one [`ColumnWriter`] per leaf column. Two ways to fill it, which
/// can be mixed:
///
/// - [`RowGroupWriter::column`] lends a column's writer, to write batches into in any
///   order; its pages are held in memory until the row group is written out by
///   [`RowGroupWriter::finish`].
/// - [`RowGroupWriter::write`] and [`RowGroupWriter::close_column`] take the columns in
///   schema order: the pages of the first column not yet closed go straight to the sink
///   (once its dictionary is settled: pages that use a dictionary wait for the dictionary
///   page, which is complete only when the chunk is), so the row group is never held in
///   memory whole. The fast path for a caller that has each column's data at hand.
///
/// Dropping it without `finish` after writing rows discards the row group, and
/// [`FileWriter::finish`] then fails rather than write a file that silently lacks them.
///
/// ```
/// use parket::schema::Schema;
/// use parket::values::ValuesRef;
/// use parket::write::{FileWriter, WriteOptions};
/// let schema = Schema::parse("message m { required int32 a; optional int64 b; }").unwrap();
/// let mut w = FileWriter::new(Vec::new(), schema, WriteOptions::default()).unwrap();
/// let mut rg = w.next_row_group().unwrap();
/// rg.write("a", ValuesRef::Int32(&[1, 2, 3]), &[], &[]).unwrap();
/// rg.close_column("a").unwrap(); // column a is in the file now
/// rg.write("b", ValuesRef::Int64(&[7]), &[0, 1, 0], &[]).unwrap();
/// rg.finish().unwrap();
/// assert_eq!(w.finish().unwrap().num_rows, 3);
/// ```
#[must_use = "a row group is written only by RowGroupWriter::finish"]
pub struct RowGroupWriter<'a, W: Sink> {
    file: &'a mut FileWriter<W>,
    /// `finish` was called.
    finished: bool,
    /// The columns not yet written out.
    columns: Vec<Option<ColumnWriter>>,
    /// Whether `close_column` was called, per column.
    closing: Vec<bool>,
    /// The chunks written out: those of the first `written.len()` columns.
    written: Vec<FinishedChunk>,
    /// The rows of every column written out.
    num_rows: Option<u64>,
    /// Where the row group starts in the file.
    start: u64,
}

impl<W: Sink> RowGroupWriter<'_, W> {
    fn index<S: ColumnSelector>(&self, column: S) -> Result<usize> {
        column.column_index(&self.file.schema)
    }

    /// The writer of a column still open, by index.
    fn open(&mut self, i: usize) -> Result<&mut ColumnWriter> {
        let closed = self.closing.get(i).copied().unwrap_or(true);
        match self.columns.get_mut(i).and_then(Option::as_mut) {
            Some(c) if !closed => Ok(c),
            Some(c) => Err(Error::invalid_argument(alloc::format!(
                "column {} is closed",
                c.descriptor().path_string()
            ))),
            None => Err(Error::invalid_argument(
                "the column is closed and written out",
            )),
        }
    }

    /// The writer of a leaf column, by index or dotted path, to write batches into. Its
    /// pages are held in memory until the column is written out. Errors for a closed column.
    pub fn column<S: ColumnSelector>(&mut self, column: S) -> Result<&mut ColumnWriter> {
        let i = self.index(column)?;
        self.open(i)
    }

    /// Writes a batch into a column, as [`ColumnWriter::write`] does. When every column
    /// before it is closed, the column's pages go straight to the sink.
    pub fn write<S: ColumnSelector>(
        &mut self,
        column: S,
        values: ValuesRef<'_>,
        def_levels: &[u16],
        rep_levels: &[u16],
    ) -> Result<()> {
        self.file.check_open()?;
        let i = self.index(column)?;
        let front = i == self.written.len();
        let rg_index = self.file.row_groups.len();
        let file = &mut *self.file;
        let c = match self.columns.get_mut(i).and_then(Option::as_mut) {
            Some(c) if !self.closing.get(i).copied().unwrap_or(true) => c,
            _ => return self.open(i).map(|_| ()),
        };
        let result = if front {
            c.write_to(values, def_levels, rep_levels, Some(&mut file.out()))
        } else {
            c.write(values, def_levels, rep_levels)
        };
        result.map_err(|e| e.in_row_group(rg_index))
    }

    /// Writes a batch into every column (one [`LeafData`](crate::levels::LeafData) per leaf
    /// column, in schema order), as [`RowGroupWriter::write`] does for each; every column
    /// must be open. With [`WriteOptions::threads`] above 1 and a batch of
    /// [`MIN_PARALLEL_LEVELS`] levels or more, the columns are encoded and compressed on the
    /// threads; the front column's pages go to the sink when the call returns (see the
    /// module's "Threads"). The bytes are those of the same calls on one thread.
    ///
    /// ```
    /// use parket::levels::LeafData;
    /// use parket::schema::Schema;
    /// use parket::values::Values;
    /// use parket::write::{FileWriter, WriteOptions};
    /// let schema = Schema::parse("message m { required int32 a; optional int64 b; }").unwrap();
    /// let mut w = FileWriter::new(Vec::new(), schema, WriteOptions::default()).unwrap();
    /// let mut rg = w.next_row_group().unwrap();
    /// let leaves = [
    ///     LeafData { values: Values::Int32(vec![1, 2]), def_levels: vec![], rep_levels: vec![] },
    ///     LeafData { values: Values::Int64(vec![7]), def_levels: vec![1, 0], rep_levels: vec![] },
    /// ];
    /// rg.write_columns(&leaves).unwrap();
    /// rg.finish().unwrap();
    /// assert_eq!(w.finish().unwrap().num_rows, 2);
    /// ```
    pub fn write_columns(&mut self, leaves: &[crate::levels::LeafData]) -> Result<()> {
        self.check_leaves(leaves)?;
        let threads = threads_for(&self.file.options, leaf_levels(leaves));
        if threads <= 1 {
            for (i, leaf) in leaves.iter().enumerate() {
                self.write(i, leaf.values.as_ref(), &leaf.def_levels, &leaf.rep_levels)?;
            }
            return Ok(());
        }
        let rg_index = self.file.row_groups.len();
        let work = |i: usize, _: &Option<ColumnWriter>| leaves.get(i).map_or(0, leaf_work);
        parallel::for_each_heaviest_first(threads, &mut self.columns, work, |i, c| match c {
            Some(c) => {
                let leaf = &leaves[i];
                c.write(leaf.values.as_ref(), &leaf.def_levels, &leaf.rep_levels)
            }
            None => Ok(()),
        })
        .map_err(|e| e.in_row_group(rg_index))?;
        // The front column's pages wrote nothing during the call: they go now, as far as its
        // dictionary allows (as they would have gone, page by page, on one thread).
        let front = self.written.len();
        let file = &mut *self.file;
        if let Some(c) = self.columns.get_mut(front).and_then(Option::as_mut) {
            c.write_settled(&mut file.out())
                .map_err(|e| e.in_column(&c.descriptor().path_string()))
                .map_err(|e| e.in_row_group(rg_index))?;
        }
        Ok(())
    }

    /// Writes a last batch into every column (one [`LeafData`](crate::levels::LeafData) per
    /// leaf column, in schema order; every column must be open) and finishes the row group:
    /// the same bytes as [`RowGroupWriter::write_columns`] then [`RowGroupWriter::finish`],
    /// but with several threads each column is written and closed as one piece of work, and
    /// the calling thread writes chunk `k` out as soon as chunks `0..=k` are closed, while
    /// the other threads still encode later columns (see the module's "Threads"). Errors,
    /// writing nothing, when the columns would hold different numbers of rows; an error in a
    /// column's batch after earlier chunks went out leaves the file incomplete (the writer
    /// then takes no more).
    ///
    /// ```
    /// use parket::levels::LeafData;
    /// use parket::schema::Schema;
    /// use parket::values::Values;
    /// use parket::write::{FileWriter, WriteOptions};
    /// let schema = Schema::parse("message m { required int32 a; optional int64 b; }").unwrap();
    /// let mut w = FileWriter::new(Vec::new(), schema, WriteOptions::default()).unwrap();
    /// let rg = w.next_row_group().unwrap();
    /// let leaves = [
    ///     LeafData { values: Values::Int32(vec![1, 2]), def_levels: vec![], rep_levels: vec![] },
    ///     LeafData { values: Values::Int64(vec![7]), def_levels: vec![1, 0], rep_levels: vec![] },
    /// ];
    /// rg.finish_with(&leaves).unwrap();
    /// assert_eq!(w.finish().unwrap().num_rows, 2);
    /// ```
    pub fn finish_with(mut self, leaves: &[crate::levels::LeafData]) -> Result<()> {
        self.finished = true;
        self.check_leaves(leaves)?;
        let rg_index = self.file.row_groups.len();
        // The rows each column will hold, checked before anything is written.
        let rows: Vec<u64> = self
            .columns
            .iter()
            .zip(leaves)
            .map(|(c, leaf)| c.as_ref().map_or(0, |c| c.num_rows() + leaf_rows(c, leaf)))
            .collect();
        let num_rows = rows.first().copied().unwrap_or(0);
        if let Some(i) = rows.iter().position(|&r| r != num_rows) {
            let path = self.columns[i]
                .as_ref()
                .map(|c| c.descriptor().path_string())
                .unwrap_or_default();
            return Err(Error::invalid_argument(alloc::format!(
                "column {path} would hold {} rows, the row group's first column {num_rows}",
                rows[i]
            ))
            .in_row_group(rg_index));
        }
        let threads = threads_for(&self.file.options, leaf_levels(leaves));
        let work = |i: usize, _: &Option<ColumnWriter>| leaves.get(i).map_or(0, leaf_work);
        let file = &mut *self.file;
        let mut written = Vec::with_capacity(leaves.len());
        // The buffers of each chunk written out go to a column not yet started (on one
        // thread, the next one, as in `close_column`).
        let result = parallel::for_each_in_order(
            threads,
            &mut self.columns,
            work,
            |i, c, scratch| {
                let mut c = c
                    .take()
                    .ok_or(Error::unsupported("a column written out twice"))?;
                if let Some(scratch) = scratch {
                    c.adopt(scratch);
                }
                let leaf = &leaves[i];
                c.write(leaf.values.as_ref(), &leaf.def_levels, &leaf.rep_levels)?;
                c.close()
            },
            |_, closed| {
                let (chunk, scratch) = closed.write_out(&mut file.out())?;
                written.push(chunk);
                Ok(Some(scratch))
            },
        );
        let result = result.map(|scratch| file.scratch = scratch);
        if let Err(e) = result {
            if !written.is_empty() {
                // Part of the row group is in the file: it cannot be completed.
                file.failed = true;
            }
            return Err(e.in_row_group(rg_index));
        }
        file.end_row_group(self.start, num_rows, written)
    }

    /// Errors unless the file takes more, `leaves` has one batch per column, and every column
    /// is open.
    fn check_leaves(&mut self, leaves: &[crate::levels::LeafData]) -> Result<()> {
        self.file.check_open()?;
        if leaves.len() != self.columns.len() {
            return Err(Error::invalid_argument(alloc::format!(
                "{} leaf columns given for a schema of {}",
                leaves.len(),
                self.columns.len()
            )));
        }
        for i in 0..self.columns.len() {
            self.open(i)?;
        }
        Ok(())
    }

    /// Declares a column complete. Columns are written out in schema order: this one once
    /// every column before it is closed, and any closed columns after it then. Errors when a
    /// column to write out holds a different number of rows than those written out before
    /// it; that column is then open again.
    pub fn close_column<S: ColumnSelector>(&mut self, column: S) -> Result<()> {
        self.file.check_open()?;
        let i = self.index(column)?;
        self.open(i)?;
        if let Some(c) = self.closing.get_mut(i) {
            *c = true;
        }
        let rg_index = self.file.row_groups.len();
        while self.closing.get(self.written.len()) == Some(&true) {
            let next = self.written.len();
            let Some(c) = self.columns.get_mut(next).and_then(Option::take) else {
                break;
            };
            let rows = c.num_rows();
            if let Some(n) = self.num_rows.filter(|&n| n != rows) {
                let err = check_rows(core::iter::once(&c), n, rg_index);
                self.columns[next] = Some(c);
                self.closing[next] = false;
                return err;
            }
            self.num_rows = Some(rows);
            let after = self.columns.get_mut(next + 1).and_then(Option::as_mut);
            let chunk = self.file.write_chunk(c, rg_index, after)?;
            self.written.push(chunk);
        }
        Ok(())
    }

    /// Number of leaf columns.
    pub fn num_columns(&self) -> usize {
        self.columns.len()
    }

    /// Writes out the columns not yet written and ends the row group. Errors, writing
    /// nothing more, when the columns hold different numbers of rows.
    pub fn finish(mut self) -> Result<()> {
        self.finished = true;
        self.file.check_open()?;
        let rg_index = self.file.row_groups.len();
        let num_rows = self
            .num_rows
            .or_else(|| self.columns.iter().flatten().next().map(|c| c.num_rows()))
            .unwrap_or(0);
        check_rows(self.columns.iter().flatten(), num_rows, rg_index)?;
        let mut written = core::mem::take(&mut self.written);
        let columns: Vec<ColumnWriter> = self.columns.iter_mut().filter_map(Option::take).collect();
        self.file.write_chunks(columns, rg_index, &mut written)?;
        self.file.end_row_group(self.start, num_rows, written)
    }
}
