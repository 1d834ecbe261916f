//! The column chunk writer: a [`ChunkEncoder`] (levels and values in, pages out) and where
//! its pages go. A chunk at the front of its row group (every column before it written out,
//! see [`RowGroupWriter::write`](crate::write::RowGroupWriter::write)) holds no pages: each
//! goes to the file as it is closed, once the chunk's dictionary is settled (pages that use
//! the dictionary wait for the dictionary page, which goes first). Any other chunk holds its
//! pages, one exactly sized buffer each, until it is written out.
//!
//! Spec: the README's "Column chunks" (a chunk is its pages back to back, the dictionary page
//! first) and parquet.thrift's `ColumnMetaData`, which [`ColumnWriter`] fills in once the
//! chunk's place in the file is known:
//!
//! ```text
//! chunk := [dictionary page] data page ...
//!          ^ dictionary_page_offset (absent without one)
//!                            ^ data_page_offset, and the offset index's page offsets
//! total_compressed_size = the chunk's bytes, headers included
//! ```

use alloc::vec::Vec;

use crate::bloom::Sbbf;
use crate::error::{Error, Result};
use crate::format::{
    ColumnChunk, ColumnIndex, ColumnMetaData, Encoding, OffsetIndex, PageEncodingStats, PageType,
};
use crate::page::encode::EncodedPage;
use crate::schema::ColumnDescriptor;
use crate::values::ValuesRef;

use super::chunk::{ChunkEncoder, EncodedChunk, EncoderScratch, PageSink, Stored};
#[cfg(feature = "encryption-write")]
use super::encrypt::ChunkEncryptor;
use super::options::ColumnSettings;
use super::page_index::{push_unique, ChunkIndexes};
use super::Out;

/// Writes the pages of one column chunk. Obtained from
/// [`RowGroupWriter::column`](crate::write::RowGroupWriter::column).
#[derive(Debug)]
pub struct ColumnWriter {
    encoder: ChunkEncoder,
    held: HeldPages,
    /// Encrypts the chunk's pages, when the column is encrypted.
    #[cfg(feature = "encryption-write")]
    encryptor: Option<ChunkEncryptor>,
}

/// The pages of a chunk not yet in the file, and where the chunk's bytes went once they
/// started going out.
#[derive(Debug, Default)]
struct HeldPages {
    /// The dictionary page, once complete (empty without one or once written).
    dictionary: Vec<u8>,
    /// Data pages, one buffer each (exactly sized): a single growing buffer would hold up to
    /// twice the chunk, and a copy at the end a third time. A page may span two buffers (its
    /// values kept in their own).
    pages: Vec<Vec<u8>>,
    /// Set once the chunk's bytes started going to the sink.
    streamed: Option<Streamed>,
}

/// Where a chunk's bytes went once they started going to the sink.
#[derive(Debug, Clone, Copy)]
struct Streamed {
    /// File offset of the chunk's first byte.
    start: u64,
    /// Bytes of the dictionary page written first (0 without one).
    dictionary_len: usize,
}

impl HeldPages {
    /// Whether a page (the dictionary page included) is held.
    fn has_pages(&self) -> bool {
        !self.dictionary.is_empty() || !self.pages.is_empty()
    }

    /// Puts the pages held into `out`, after the dictionary page when this is the chunk's
    /// first output (the chunk is at the front of its row group, and its dictionary settled
    /// or the chunk ending).
    fn drain(&mut self, out: &mut Out<'_>) -> Result<()> {
        if self.streamed.is_none() {
            self.streamed = Some(Streamed {
                start: *out.offset,
                dictionary_len: self.dictionary.len(),
            });
            out.put(&core::mem::take(&mut self.dictionary))?;
        }
        for page in self.pages.drain(..) {
            out.put(&page)?;
        }
        Ok(())
    }
}

/// The chunk encoder's pages: held, or with `out` (the chunk at the front of its row group)
/// written out as soon as the dictionary allows.
struct Destination<'a, 'o> {
    held: &'a mut HeldPages,
    out: Option<&'a mut Out<'o>>,
    #[cfg(feature = "encryption-write")]
    encryptor: Option<&'a mut ChunkEncryptor>,
}

impl Destination<'_, '_> {
    /// The page as stored when the chunk is encrypted: its header and body modules.
    #[cfg(feature = "encryption-write")]
    fn encrypted(&mut self, page: &EncodedPage<'_>) -> Result<Option<(Vec<u8>, Stored)>> {
        let Some(e) = self.encryptor.as_deref_mut() else {
            return Ok(None);
        };
        let (bytes, header_len) = e.page(page)?;
        let stored = Stored {
            total: bytes.len(),
            header_len,
            keeps_values: false,
        };
        Ok(Some((bytes, stored)))
    }

    #[cfg(not(feature = "encryption-write"))]
    fn encrypted(&mut self, _: &EncodedPage<'_>) -> Result<Option<(Vec<u8>, Stored)>> {
        Ok(None)
    }
}

impl PageSink for Destination<'_, '_> {
    fn dictionary_page(&mut self, page: &EncodedPage<'_>) -> Result<Stored> {
        if let Some((bytes, stored)) = self.encrypted(page)? {
            self.held.dictionary = bytes;
            return Ok(stored);
        }
        self.held.dictionary = page.to_vec();
        Ok(Stored::as_built(page, false))
    }

    fn data_page(&mut self, page: &EncodedPage<'_>, uses_dictionary: bool) -> Result<Stored> {
        let encrypted = self.encrypted(page)?;
        match (self.out.as_deref_mut(), encrypted) {
            (Some(out), Some((bytes, stored))) if !uses_dictionary => {
                self.held.drain(out)?;
                out.put(&bytes)?;
                Ok(stored)
            }
            (_, Some((bytes, stored))) => {
                self.held.pages.push(bytes);
                Ok(stored)
            }
            (Some(out), None) if !uses_dictionary => {
                self.held.drain(out)?;
                for part in page.parts() {
                    out.put(part)?;
                }
                Ok(Stored::as_built(page, false))
            }
            (_, None) => {
                // When the values end the page uncompressed, they are not copied: their
                // buffer itself is kept as the page's last part.
                self.held.pages.push(page.to_vec_without_input(true));
                Ok(Stored::as_built(page, page.ends_with_input()))
            }
        }
    }

    fn values_buffer(&mut self, values: Vec<u8>) {
        self.held.pages.push(values);
    }
}

/// A column chunk written out: what the footer and the page indexes say of it.
pub(crate) struct FinishedChunk {
    pub chunk: ColumnChunk,
    pub column_index: Option<ColumnIndex>,
    pub offset_index: Option<OffsetIndex>,
    pub bloom: Option<Sbbf>,
}

/// The buffers of a finished column writer, for the next one (see [`ColumnWriter::adopt`]).
pub(crate) type WriterScratch = EncoderScratch;

impl ColumnWriter {
    pub(crate) fn new(descr: ColumnDescriptor, settings: ColumnSettings) -> Result<ColumnWriter> {
        Ok(ColumnWriter {
            encoder: ChunkEncoder::new(descr, settings)?,
            held: HeldPages::default(),
            #[cfg(feature = "encryption-write")]
            encryptor: None,
        })
    }

    /// Encrypts the chunk's pages with `encryptor`.
    #[cfg(feature = "encryption-write")]
    pub(crate) fn encrypt_with(&mut self, encryptor: Option<ChunkEncryptor>) {
        self.encryptor = encryptor;
    }

    /// The column written.
    pub fn descriptor(&self) -> &ColumnDescriptor {
        self.encoder.descriptor()
    }

    /// Rows written so far (repetition level 0 positions).
    pub fn num_rows(&self) -> u64 {
        self.encoder.num_rows()
    }

    /// Bytes of the chunk's encoded pages so far (held or already in the file), plus an
    /// estimate of the open page.
    pub fn buffered_bytes(&self) -> usize {
        self.encoder.buffered_bytes()
    }

    /// Writes a batch: `values` are the non-null values; `def_levels` has one level per
    /// position (empty when the column's `max_def_level` is 0); `rep_levels` likewise for
    /// `max_rep_level`. A batch may end inside a row; the next batch continues it.
    ///
    /// Errors (and writes nothing) when a level exceeds its maximum, the number of values is
    /// not the number of definition levels at `max_def_level`, the level arrays differ in
    /// length, the chunk's first repetition level is not 0, or the values are not of the
    /// column's physical type.
    pub fn write(
        &mut self,
        values: ValuesRef<'_>,
        def_levels: &[u16],
        rep_levels: &[u16],
    ) -> Result<()> {
        self.write_to(values, def_levels, rep_levels, None)
    }

    /// `write`, with the pages going straight to `out` once the chunk's dictionary is settled
    /// (the chunk is at the front of its row group: see [`RowGroupWriter::write`]).
    ///
    /// [`RowGroupWriter::write`]: crate::write::RowGroupWriter::write
    pub(crate) fn write_to(
        &mut self,
        values: ValuesRef<'_>,
        def_levels: &[u16],
        rep_levels: &[u16],
        out: Option<&mut Out<'_>>,
    ) -> Result<()> {
        let mut sink = Destination {
            held: &mut self.held,
            out,
            #[cfg(feature = "encryption-write")]
            encryptor: self.encryptor.as_mut(),
        };
        self.encoder
            .write(values, def_levels, rep_levels, &mut sink)
            .map_err(|e| e.in_column(&self.encoder.descriptor().path_string()))
    }

    /// Closes the chunk: flushes the open page and writes what is still held to `out`, where
    /// the chunk is at the front of its row group. Returns the chunk and the writer's
    /// buffers, for another writer to [`ColumnWriter::adopt`].
    pub(crate) fn finish(self, out: &mut Out<'_>) -> Result<(FinishedChunk, WriterScratch)> {
        self.close()?.write_out(out)
    }

    /// Takes over a finished writer's buffers (emptied) when this one has not started.
    pub(crate) fn adopt(&mut self, scratch: WriterScratch) {
        self.encoder.adopt(scratch);
    }

    /// Levels in the open page plus entries in the dictionary: the work closing the chunk
    /// still has to do, roughly.
    pub(crate) fn closing_work(&self) -> usize {
        self.encoder.closing_work()
    }

    /// Writes to `out` the pages held that can go now (the chunk is at the front of its row
    /// group): all of them once the chunk's dictionary is settled, none before. The bytes are
    /// the same as when each page went out as it was closed.
    pub(crate) fn write_settled(&mut self, out: &mut Out<'_>) -> Result<()> {
        if self.encoder.dictionary_settled() && self.held.has_pages() {
            self.held.drain(out)?;
        }
        Ok(())
    }

    /// Closes the chunk without writing anything: flushes the open page and completes the
    /// dictionary page and the Bloom filter, which all stay held (no I/O, so it can run on any
    /// thread).
    pub(crate) fn close(mut self) -> Result<ClosedChunk> {
        let path = self.encoder.descriptor().path_string();
        let descr = self.encoder.descriptor().clone();
        let mut sink = Destination {
            held: &mut self.held,
            out: None,
            #[cfg(feature = "encryption-write")]
            encryptor: self.encryptor.as_mut(),
        };
        let (chunk, scratch) = self
            .encoder
            .finish(&mut sink)
            .map_err(|e| e.in_column(&path))?;
        Ok(ClosedChunk {
            descr,
            held: self.held,
            chunk,
            scratch,
        })
    }
}

/// A chunk closed ([`ColumnWriter::close`]) and not yet written out.
pub(crate) struct ClosedChunk {
    descr: ColumnDescriptor,
    held: HeldPages,
    chunk: EncodedChunk,
    scratch: WriterScratch,
}

impl ClosedChunk {
    /// Writes what is still held to `out` (the chunk is at the front of its row group) and
    /// fills in the chunk's metadata from its place in the file. Returns the chunk and the
    /// writer's buffers, for another writer to [`ColumnWriter::adopt`].
    pub(crate) fn write_out(self, out: &mut Out<'_>) -> Result<(FinishedChunk, WriterScratch)> {
        let path = self.descr.path_string();
        self.write_out_inner(out).map_err(|e| e.in_column(&path))
    }

    fn write_out_inner(mut self, out: &mut Out<'_>) -> Result<(FinishedChunk, WriterScratch)> {
        let (descr, chunk, scratch) = (self.descr, self.chunk, self.scratch);
        // The dictionary is complete now: everything held goes out.
        self.held.drain(out)?;
        let streamed = self
            .held
            .streamed
            .ok_or(Error::unsupported("a column chunk without pages"))?;
        let start = streamed.start;
        let mut dictionary_page_offset = None;
        let mut total_compressed = chunk.total_compressed;
        let mut total_uncompressed = chunk.total_uncompressed;
        let mut encodings = Vec::new();
        let mut encoding_stats = Vec::new();
        if let Some((compressed, uncompressed)) = chunk.dictionary_page {
            dictionary_page_offset = Some(start as i64);
            total_compressed += compressed;
            total_uncompressed += uncompressed;
            encodings.push(Encoding::Plain);
            encoding_stats.push(PageEncodingStats {
                page_type: PageType::DictionaryPage,
                encoding: Encoding::Plain,
                count: 1,
            });
        }
        let ChunkIndexes {
            encodings: data_encodings,
            encoding_stats: data_encoding_stats,
            size_statistics,
            mut offset_index,
            column_index,
        } = chunk.indexes;
        for e in data_encodings {
            push_unique(&mut encodings, e);
        }
        encoding_stats.extend(data_encoding_stats);
        let data_start = start + streamed.dictionary_len as u64;
        for location in &mut offset_index.page_locations {
            location.offset += data_start as i64;
        }
        let meta = ColumnMetaData {
            type_: descr.physical_type,
            encodings,
            path_in_schema: descr.path.clone(),
            codec: chunk.codec,
            num_values: chunk.num_values,
            total_uncompressed_size: total_uncompressed,
            total_compressed_size: total_compressed,
            key_value_metadata: None,
            data_page_offset: data_start as i64,
            index_page_offset: None,
            dictionary_page_offset,
            statistics: chunk.statistics,
            encoding_stats: Some(encoding_stats),
            bloom_filter_offset: None,
            bloom_filter_length: None,
            size_statistics: Some(size_statistics),
            geospatial_statistics: chunk.geospatial_statistics,
        };
        let finished = FinishedChunk {
            chunk: ColumnChunk {
                file_path: None,
                file_offset: 0,
                meta_data: Some(meta),
                offset_index_offset: None,
                offset_index_length: None,
                column_index_offset: None,
                column_index_length: None,
                crypto_metadata: None,
                encrypted_column_metadata: None,
            },
            column_index,
            offset_index: chunk.page_index.then_some(offset_index),
            bloom: chunk.bloom,
        };
        Ok((finished, scratch))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compression::Codec;
    use crate::schema::Schema;
    use crate::values::Values;
    use crate::write::WriteOptions;
    use proptest::prelude::*;

    /// Writes one optional column whole and returns its chunk and column index.
    fn write_one(
        schema: &str,
        dictionary: bool,
        dict_limit: usize,
        values: ValuesRef<'_>,
        def: &[u16],
    ) -> FinishedChunk {
        let schema = Schema::parse(schema).unwrap();
        let descr = schema.columns()[0].clone();
        let options = WriteOptions::default()
            .codec(Codec::Uncompressed)
            .dictionary(dictionary)
            .dictionary_page_size_limit(dict_limit)
            .max_rows_per_page(1 << 20);
        let settings = options
            .resolve(&descr.path_string(), descr.physical_type)
            .unwrap();
        let mut w = ColumnWriter::new(descr, settings).unwrap();
        w.write(values, def, &[]).unwrap();
        let (mut sink, mut offset, mut failed) = (Vec::new(), 4, false);
        let mut out = Out {
            sink: &mut sink,
            offset: &mut offset,
            failed: &mut failed,
        };
        w.finish(&mut out).unwrap().0
    }

    fn stats_of(c: &FinishedChunk) -> Option<crate::format::Statistics> {
        c.chunk
            .meta_data
            .as_ref()
            .and_then(|m| m.statistics.clone())
    }

    proptest! {
        // The statistics of dictionary-encoded pages come from the page's distinct
        // entries; the reference is the per-value update of the plain path.
        #[test]
        fn dictionary_page_statistics_match_per_value(
            raw in proptest::collection::vec((0u8..12, any::<bool>()), 0..400),
            limit in prop_oneof![Just(1usize << 20), 8usize..64],
        ) {
            let def: Vec<u16> = raw.iter().map(|&(_, valid)| u16::from(valid)).collect();
            let picked: Vec<u8> = raw.iter().filter(|r| r.1).map(|r| r.0).collect();
            let doubles: Vec<f64> = picked
                .iter()
                .map(|&v| match v {
                    0 => -0.0,
                    1 => 0.0,
                    2 => f64::NAN,
                    v => f64::from(v) * 1.5 - 7.0,
                })
                .collect();
            let strings: crate::values::ByteArrays =
                picked.iter().map(|&v| alloc::format!("s{}", v * 7 % 11)).collect();
            let cases = [
                ("message m { optional double x; }", Values::Double(doubles)),
                ("message m { optional binary x (STRING); }", Values::ByteArray(strings)),
            ];
            for (schema, values) in cases {
                let dict = write_one(schema, true, limit, values.as_ref(), &def);
                let plain = write_one(schema, false, limit, values.as_ref(), &def);
                prop_assert_eq!(stats_of(&dict), stats_of(&plain));
                if limit == 1 << 20 {
                    // One page each: the page's statistics agree too.
                    prop_assert_eq!(&dict.column_index, &plain.column_index);
                }
            }
        }
    }
}
