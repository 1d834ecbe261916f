//! Reading on several cores (`std` only): [`ordered`] runs independent pieces of work (column
//! chunks, batches) on scoped threads and hands their results back in order, holding at most a
//! window of results at once; [`threads_default`] is the thread count a scan uses unless told.
//!
//! No pool and no dependency: each call opens a [`std::thread::scope`], so the work may borrow
//! the file reader and the caller's state, and every thread has ended when it returns. With one
//! thread (or one item) nothing is spawned: the work runs in the caller's thread, in order,
//! exactly as a single-threaded loop would.
//!
//! ```
//! use parket::read::parallel::ordered;
//! let mut out = Vec::new();
//! ordered(2, 5, 4, || 0u32, |calls, i| { *calls += 1; i * i }, |i, sq| {
//!     out.push((i, sq));
//!     Ok::<(), ()>(())
//! })
//! .unwrap();
//! assert_eq!(out, [(0, 0), (1, 1), (2, 4), (3, 9), (4, 16)]); // in item order
//! ```

use alloc::borrow::Cow;
use alloc::collections::BTreeMap;
use alloc::sync::Arc;
use std::sync::{mpsc, Condvar, Mutex, OnceLock};

use super::chunk::ChunkRange;
use super::walk::PageWalk;
use super::{FileReader, SourceRef};
use crate::error::Error;
use crate::format::{PageHeader, PageType};
use crate::levels::LeafData;
use crate::page::decode::{DecoderBuffers, PageColumn, PageDecoder, PageInfo, SharedDictionary};

/// The thread count scans and the CLI use unless told: every core the process may use
/// ([`std::thread::available_parallelism`]), or 1 when that cannot be known.
pub fn threads_default() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Where the workers stand: the next item to claim, the items the caller has consumed,
/// whether to stop (the caller failed, or the items ran out), and the items not yet claimed.
struct Claims<I> {
    next: usize,
    consumed: usize,
    stop: bool,
    items: I,
}

/// Runs `work(state, i)` for every item `i` in `0..n` on up to `threads` threads (each with its
/// own `state` from `init`, e.g. decode buffers) and calls `consume(i, result)` on the calling
/// thread in item order. A worker claims item `i` only while `i < consumed + window`, so at
/// most `window` results (finished or being computed) exist at once: memory is bounded by the
/// window, not by `n`. The first error of `consume` stops the workers (items already claimed
/// finish) and is returned.
///
/// With `threads <= 1` or `n <= 1`, runs in the calling thread: `work` then `consume`, item by
/// item. A panic in `work` is propagated once the other threads have stopped.
pub fn ordered<S, R, E>(
    threads: usize,
    n: usize,
    window: usize,
    init: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, usize) -> R + Sync,
    mut consume: impl FnMut(usize, R) -> Result<(), E>,
) -> Result<(), E>
where
    R: Send,
{
    ordered_iter(
        threads.min(n),
        window,
        0..n,
        init,
        |s, i| (i, work(s, i)),
        |(i, r)| consume(i, r),
    )
}

/// [`ordered`] over the items of an iterator, which the workers advance in turn (under a lock,
/// so `items` may do sequential work such as walking page headers): `work(state, item)` on up
/// to `threads` threads, `consume(result)` on the calling thread in the items' order, at most
/// `window` items claimed ahead of the consumer.
pub fn ordered_iter<I, S, R, E>(
    threads: usize,
    window: usize,
    items: I,
    init: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, I::Item) -> R + Sync,
    mut consume: impl FnMut(R) -> Result<(), E>,
) -> Result<(), E>
where
    I: Iterator + Send,
    R: Send,
{
    if threads <= 1 {
        let mut state = init();
        for item in items {
            consume(work(&mut state, item))?;
        }
        return Ok(());
    }
    let window = window.max(threads);
    let claims = Mutex::new(Claims {
        next: 0,
        consumed: 0,
        stop: false,
        items: items.fuse(),
    });
    let turn = Condvar::new();
    let (send, recv) = mpsc::channel::<(usize, R)>();
    std::thread::scope(|s| {
        let mut started = 0;
        for _ in 0..threads {
            let send = send.clone();
            let (claims, turn, init, work) = (&claims, &turn, &init, &work);
            // A thread the system will not start is one fewer worker, not a panic.
            let worker = std::thread::Builder::new().spawn_scoped(s, move || {
                let mut state = init();
                loop {
                    let (i, item) = {
                        let Ok(mut c) = claims.lock() else { return };
                        loop {
                            if c.stop {
                                return;
                            }
                            if c.next < c.consumed.saturating_add(window) {
                                break;
                            }
                            c = match turn.wait(c) {
                                Ok(c) => c,
                                Err(_) => return,
                            };
                        }
                        let Some(item) = c.items.next() else {
                            c.stop = true;
                            // The others may wait for the window: let them see the end.
                            turn.notify_all();
                            return;
                        };
                        c.next += 1;
                        (c.next - 1, item)
                    };
                    if send.send((i, work(&mut state, item))).is_err() {
                        return;
                    }
                }
            });
            match worker {
                Ok(_) => started += 1,
                Err(_) => break,
            }
        }
        drop(send);
        if started == 0 {
            let mut state = init();
            loop {
                let next = match claims.lock() {
                    Ok(mut c) => c.items.next(),
                    Err(_) => None,
                };
                let Some(item) = next else { return Ok(()) };
                consume(work(&mut state, item))?;
            }
        }
        let mut held: BTreeMap<usize, R> = BTreeMap::new();
        let mut at = 0usize;
        let mut result = Ok(());
        // Ends when every worker has ended (the items ran out, a panic, or a stop) and every
        // result sent was consumed.
        while let Ok((i, r)) = recv.recv() {
            held.insert(i, r);
            while let Some(r) = held.remove(&at) {
                if let Err(e) = consume(r) {
                    result = Err(e);
                    break;
                }
                at += 1;
            }
            let stop = result.is_err();
            if let Ok(mut c) = claims.lock() {
                c.consumed = at;
                c.stop |= stop;
            }
            turn.notify_all();
            if stop {
                break;
            }
        }
        result
    })
}

/// Pages per thread that [`decode_chunks`] claims ahead of its consumer at most. Pages differ
/// in cost (a dictionary page, a PLAIN page among dictionary-encoded ones), and a thread done
/// with its pages may claim none past the window while another is still on a slow one: a
/// wider window lets it go on. Memory: results only wait in the window (a worker holds one
/// page body and its decoded values at a time).
const PAGES_AHEAD: usize = 4;

/// What [`decode_chunks`] hands the consumer, in the chunks' order and, within a chunk, in
/// page order.
#[derive(Debug)]
pub enum ChunkPart<R> {
    /// A data page (with values) of chunk `chunk` (an index into the chunks asked for): what
    /// `map` made of it on a worker thread.
    Page {
        /// The chunk's index in the list given to [`decode_chunks`].
        chunk: usize,
        /// `map`'s result.
        result: R,
    },
    /// The end of chunk `chunk`: `Ok` when every page decoded and the pages add up to the
    /// chunk's `num_values` and its row group's rows; else the first error, located as a
    /// [`ColumnChunkReader`](super::ColumnChunkReader)'s (the pages after it are not given).
    End {
        /// The chunk's index in the list given to [`decode_chunks`].
        chunk: usize,
        /// How the chunk ended.
        result: crate::Result<()>,
    },
}

/// Decodes the data pages of `chunks` (row group, leaf column) on up to `threads` threads, the
/// page being the unit of work: a chunk's page headers are walked in order (cheap, and under a
/// lock, by whichever thread needs the next page), its dictionary page is decoded once and
/// shared by the threads decoding its data pages, and each data page is decompressed and
/// decoded on a worker, which hands its levels and values to `map` there. `consume` then gets
/// the results on the calling thread, in order, with a [`ChunkPart::End`] after each chunk.
///
/// So one large chunk keeps every core busy, where chunk by chunk it would keep one. Memory:
/// at most 4 pages per thread are claimed ahead of `consume` (their bodies, decoded
/// levels and values, and `map`'s results), plus one dictionary per chunk being read.
///
/// What a page holds and which errors end a chunk are as for
/// [`ColumnChunkReader`](super::ColumnChunkReader) (the same checks, the same messages); an
/// error that prevents opening a chunk (a row group that does not exist, an encrypted chunk
/// without its key) ends that chunk only. `map` gets the page's levels and values in a buffer
/// the worker reuses: it may take them (`core::mem::take`). The first error of `consume` stops
/// the work and is returned.
///
/// ```
/// # fn main() -> parket::Result<()> {
/// # let bytes = parket::testing::corpus_file("alltypes_plain.parquet");
/// use parket::read::parallel::{decode_chunks, ChunkPart};
/// use parket::read::FileReader;
/// let file = FileReader::from_bytes(&bytes)?;
/// let mut values = 0;
/// decode_chunks(&file, &[(0, 0), (0, 1)], 2, |_, _, data| data.values.len(), |part| {
///     match part {
///         ChunkPart::Page { result, .. } => values += result,
///         ChunkPart::End { result, .. } => result?,
///     }
///     Ok::<(), parket::Error>(())
/// })?;
/// assert_eq!(values, 16); // two columns of 8 rows
/// # Ok(()) }
/// ```
pub fn decode_chunks<R, E>(
    file: &FileReader<'_>,
    chunks: &[(usize, usize)],
    threads: usize,
    map: impl Fn(usize, PageInfo, &mut LeafData) -> R + Sync,
    mut consume: impl FnMut(ChunkPart<R>) -> Result<(), E>,
) -> Result<(), E>
where
    R: Send,
{
    // Page buffers of a `Read + Seek` source, given back by the workers for the walk to read
    // the next pages into (a fresh buffer per page cost the system's page faults).
    let spare = Mutex::new(alloc::vec::Vec::new());
    let walker = Walker {
        file,
        chunks,
        next_chunk: 0,
        open: None,
        spare: &spare,
    };
    let mut tally: Option<Tally> = None;
    ordered_iter(
        threads,
        PAGES_AHEAD * threads,
        walker,
        || (None::<DecoderBuffers>, None::<LeafData>),
        |(buffers, out), task| match task {
            Task::Page(page) => {
                let done = page.decode(buffers, out);
                let page = page.give_back(&spare, threads);
                match done {
                    Ok((info, first_rep)) if info.num_values > 0 => {
                        let data = out.as_mut().map(|o| map(page.chunk.index, info, o));
                        Done::Page {
                            at: (page.ordinal, page.offset),
                            chunk: page.chunk,
                            info,
                            first_rep,
                            result: data,
                        }
                    }
                    Ok(_) => Done::Nothing,
                    Err(e) => Done::Failed(page.chunk.index, page.chunk.locate(e)),
                }
            }
            Task::Dictionary(chunk) => match chunk.dictionary() {
                Ok(_) => Done::Nothing,
                Err(e) => Done::Failed(chunk.index, chunk.locate(e)),
            },
            Task::End(chunk) => Done::End(chunk),
            Task::Failed(index, e) => Done::Failed(index, e),
        },
        |done| match done {
            Done::Nothing => Ok(()),
            Done::Page {
                chunk,
                at,
                info,
                first_rep,
                result,
            } => {
                let t = tally.get_or_insert_with(|| Tally::new(chunk.index));
                if t.chunk != chunk.index {
                    *t = Tally::new(chunk.index);
                }
                if t.failed {
                    return Ok(());
                }
                let Some(result) = result else { return Ok(()) };
                match t.add(&chunk, at, info, first_rep) {
                    Ok(()) => consume(ChunkPart::Page {
                        chunk: chunk.index,
                        result,
                    }),
                    Err(e) => {
                        t.failed = true;
                        consume(ChunkPart::End {
                            chunk: chunk.index,
                            result: Err(e),
                        })
                    }
                }
            }
            Done::Failed(index, e) => {
                let t = tally.get_or_insert_with(|| Tally::new(index));
                if t.chunk != index {
                    *t = Tally::new(index);
                }
                if t.failed {
                    return Ok(());
                }
                t.failed = true;
                consume(ChunkPart::End {
                    chunk: index,
                    result: Err(e),
                })
            }
            Done::End(chunk) => {
                let t = match tally.take() {
                    Some(t) if t.chunk == chunk.index => t,
                    _ => Tally::new(chunk.index),
                };
                if t.failed {
                    return Ok(());
                }
                consume(ChunkPart::End {
                    chunk: chunk.index,
                    result: t.end(&chunk),
                })
            }
        },
    )
}

/// A chunk being read: what its pages' decoding and checking share.
struct ChunkInfo<'f> {
    index: usize,
    row_group: usize,
    path: alloc::string::String,
    column: PageColumn,
    codec: crate::format::CompressionCodec,
    limits: crate::Limits,
    verify_crc: bool,
    range: ChunkRange,
    /// The dictionary page as stored, until a worker decodes it into `dictionary`.
    dictionary_page: Mutex<Option<(PageHeader, Body<'f>, u64)>>,
    dictionary: OnceLock<crate::Result<Option<SharedDictionary<'f>>>>,
}

impl ChunkInfo<'_> {
    fn locate(&self, e: Error) -> Error {
        e.in_column(&self.path).in_row_group(self.row_group)
    }
}

impl<'f> ChunkInfo<'f> {
    /// The chunk's dictionary, decoded by the first worker that needs it (the others wait).
    fn dictionary(&self) -> crate::Result<Option<&SharedDictionary<'f>>> {
        let decoded = self.dictionary.get_or_init(|| {
            let page = match self.dictionary_page.lock() {
                Ok(mut p) => p.take(),
                Err(_) => None,
            };
            let Some((header, body, at)) = page else {
                return Ok(None);
            };
            let mut decoder = PageDecoder::new(self.column, self.codec, self.limits)
                .verify_crc(self.verify_crc && !body.decrypted);
            let mut none = self.column.new_leaf_data();
            let done = match &body.bytes {
                Cow::Borrowed(b) => {
                    let b = b.get(body.range.clone()).unwrap_or(&[]);
                    decoder.decode_borrowed_page(&header, b, &mut none)
                }
                Cow::Owned(_) => decoder.decode_page(&header, body.bytes(), &mut none),
            };
            done.map_err(|e| body.locate(e).in_page(0).at_offset(at))?;
            Ok(decoder.take_dictionary())
        });
        decoded.as_ref().map(Option::as_ref).map_err(Clone::clone)
    }
}

/// A page body: borrowed from a file in memory, else read (and decrypted) into a buffer.
struct Body<'f> {
    /// The body is `bytes[range]`.
    bytes: Cow<'f, [u8]>,
    range: core::ops::Range<usize>,
    /// File offset of the body (errors in it are located there), unless decrypted.
    at: u64,
    decrypted: bool,
}

impl Body<'_> {
    fn bytes(&self) -> &[u8] {
        self.bytes.get(self.range.clone()).unwrap_or(&[])
    }

    fn locate(&self, e: Error) -> Error {
        if self.decrypted {
            e.without_offset()
        } else {
            e.offset_by(self.at)
        }
    }
}

/// A data page to decode on a worker.
struct PageTask<'f> {
    chunk: Arc<ChunkInfo<'f>>,
    header: PageHeader,
    body: Body<'f>,
    ordinal: usize,
    offset: u64,
}

impl<'f> PageTask<'f> {
    /// Puts the page's buffer (of a `Read + Seek` source) among the `spare` ones, up to a few
    /// per thread; returns what the consumer still needs of the page.
    fn give_back(
        self,
        spare: &Mutex<alloc::vec::Vec<alloc::vec::Vec<u8>>>,
        threads: usize,
    ) -> Self {
        let PageTask {
            chunk,
            header,
            body,
            ordinal,
            offset,
        } = self;
        let body = match body.bytes {
            Cow::Owned(mut v) => {
                v.clear();
                if let Ok(mut spare) = spare.lock() {
                    if spare.len() < PAGES_AHEAD * threads {
                        spare.push(v);
                    }
                }
                Body {
                    bytes: Cow::Owned(alloc::vec::Vec::new()),
                    range: 0..0,
                    ..body
                }
            }
            Cow::Borrowed(_) => body,
        };
        PageTask {
            chunk,
            header,
            body,
            ordinal,
            offset,
        }
    }

    /// Decodes the page into `out` (made or reused for the column), with `buffers` reused
    /// from the worker's last page; its info, and whether its first repetition level is 0.
    fn decode(
        &self,
        buffers: &mut Option<DecoderBuffers>,
        out: &mut Option<LeafData>,
    ) -> crate::Result<(PageInfo, bool)> {
        let chunk = &*self.chunk;
        let locate = |e: Error| {
            self.body
                .locate(e)
                .in_page(self.ordinal)
                .at_offset(self.offset)
        };
        // Located where the dictionary page is (as the one-thread reader finds it).
        let dictionary = chunk.dictionary()?;
        let data = match out.take() {
            Some(mut d) if same_kind(&d.values, &chunk.column) => {
                d.def_levels.clear();
                d.rep_levels.clear();
                d.values.clear();
                d
            }
            _ => chunk.column.new_leaf_data(),
        };
        let data = out.insert(data);
        let mut decoder = PageDecoder::new(chunk.column, chunk.codec, chunk.limits)
            .verify_crc(chunk.verify_crc && !self.body.decrypted);
        if let Some(b) = buffers.take() {
            decoder = decoder.with_buffers(b);
        }
        let mut decoder = match dictionary {
            Some(d) => decoder.sharing(d),
            None => decoder,
        };
        let done = decoder.decode_page(&self.header, self.body.bytes(), data);
        *buffers = Some(decoder.into_buffers());
        let info = done.map_err(locate)?;
        let first_rep = data.rep_levels.first().is_none_or(|&r| r == 0);
        Ok((info, first_rep))
    }
}

/// Whether `values` are of `column`'s kind (a buffer a worker may decode the column into).
fn same_kind(values: &crate::values::Values, column: &PageColumn) -> bool {
    match values {
        crate::values::Values::FixedLenByteArray(f) => {
            column.physical_type == crate::format::PhysicalType::FixedLenByteArray
                && f.width() == column.type_length
        }
        v => v.physical_type() == column.physical_type,
    }
}

/// What the walk hands the workers.
enum Task<'f> {
    /// The chunk's dictionary page, decoded by the worker that takes this task (its errors
    /// then come in page order); the workers decoding its data pages wait for it.
    Dictionary(Arc<ChunkInfo<'f>>),
    /// Boxed: a page is a header and a body, and the other tasks are a pointer.
    Page(alloc::boxed::Box<PageTask<'f>>),
    /// The chunk's pages were all handed out.
    End(Arc<ChunkInfo<'f>>),
    /// The chunk could not be opened or walked on (its index, the error).
    Failed(usize, Error),
}

/// What a worker hands the consumer.
enum Done<'f, R> {
    Page {
        chunk: Arc<ChunkInfo<'f>>,
        /// The page's ordinal and file offset.
        at: (usize, u64),
        info: PageInfo,
        first_rep: bool,
        result: Option<R>,
    },
    /// A page without values (or an index page): nothing to hand on.
    Nothing,
    End(Arc<ChunkInfo<'f>>),
    Failed(usize, Error),
}

/// The checks a chunk's pages make in order (as [`PageStream`](super::chunk) makes them).
struct Tally {
    chunk: usize,
    values: u64,
    rows: u64,
    failed: bool,
}

impl Tally {
    fn new(chunk: usize) -> Self {
        Tally {
            chunk,
            values: 0,
            rows: 0,
            failed: false,
        }
    }

    /// Adds the data page `info` (ordinal and offset `at`; `first_rep`: whether its first
    /// repetition level is 0) to the chunk's counts.
    fn add(
        &mut self,
        chunk: &ChunkInfo<'_>,
        (ordinal, offset): (usize, u64),
        info: PageInfo,
        first_rep: bool,
    ) -> crate::Result<()> {
        let located = |e: Error| chunk.locate(e.in_page(ordinal).at_offset(offset));
        let remaining = chunk.range.num_values.saturating_sub(self.values);
        if info.num_values as u64 > remaining {
            return Err(located(Error::out_of_spec(
                "a page holds more values than remain of ColumnMetaData.num_values",
            )));
        }
        if !first_rep && self.values == 0 {
            return Err(located(Error::out_of_spec(
                "the column chunk's first repetition level is not 0",
            )));
        }
        self.values += info.num_values as u64;
        self.rows += info.num_rows as u64;
        Ok(())
    }

    fn end(&self, chunk: &ChunkInfo<'_>) -> crate::Result<()> {
        if self.values < chunk.range.num_values {
            return Err(chunk.locate(
                Error::out_of_spec(
                    "the column chunk's pages hold fewer values than ColumnMetaData.num_values",
                )
                .at_offset(chunk.range.end),
            ));
        }
        if self.rows != chunk.range.num_rows {
            return Err(chunk.locate(
                Error::out_of_spec("the column chunk's records do not add up to RowGroup.num_rows")
                    .at_offset(chunk.range.start),
            ));
        }
        Ok(())
    }
}

/// The chunk being walked: its shared info, walk, window of file bytes, and what its pages
/// declared so far.
struct OpenChunk<'f> {
    info: Arc<ChunkInfo<'f>>,
    walk: PageWalk,
    window: alloc::vec::Vec<u8>,
    window_at: u64,
    declared: u64,
    seen_data: bool,
}

/// The page headers of the chunks, walked in order: the items of [`decode_chunks`]' workers.
struct Walker<'f, 'c> {
    file: &'f FileReader<'f>,
    chunks: &'c [(usize, usize)],
    next_chunk: usize,
    open: Option<OpenChunk<'f>>,
    /// Buffers the workers gave back.
    spare: &'c Mutex<alloc::vec::Vec<alloc::vec::Vec<u8>>>,
}

impl<'f> Walker<'f, '_> {
    fn open(
        &self,
        index: usize,
        (row_group, column): (usize, usize),
    ) -> crate::Result<OpenChunk<'f>> {
        let file = self.file;
        let (meta, range, path) = file.locate_chunk(row_group, column)?;
        let desc = file
            .schema
            .column(column)
            .ok_or_else(|| Error::invalid_argument("column index out of range"))?;
        let walk = PageWalk::from_range(range, file.file_len, file.limits);
        #[cfg(feature = "encryption")]
        let walk = walk.with_decryptor(
            file.chunk_decryptor(row_group, column)
                .map_err(|e| e.in_column(&path).in_row_group(row_group))?,
        );
        Ok(OpenChunk {
            info: Arc::new(ChunkInfo {
                index,
                row_group,
                path,
                column: PageColumn::from(desc),
                codec: meta.codec,
                limits: file.limits,
                verify_crc: file.verify_crc,
                range,
                dictionary_page: Mutex::new(None),
                dictionary: OnceLock::new(),
            }),
            walk,
            window: alloc::vec::Vec::new(),
            window_at: 0,
            declared: 0,
            seen_data: false,
        })
    }

    /// The next page of the open chunk: its dictionary page or a data page to decode, or
    /// `None` at its end.
    fn next_page(&mut self) -> crate::Result<Option<Task<'f>>> {
        let source = self.file.source_ref();
        let Some(open) = self.open.as_mut() else {
            return Ok(None);
        };
        loop {
            let found = source.next_page(&mut open.walk, &mut open.window, &mut open.window_at);
            let info = &open.info;
            let Some(page) = found.map_err(|e| info.locate(e))? else {
                return Ok(None);
            };
            let (ordinal, offset) = (page.ordinal, page.offset);
            let located = |e: Error| info.locate(e.in_page(ordinal).at_offset(offset));
            let declared = super::walk::declared_values(&page.header);
            if declared > info.range.num_values - open.declared.min(info.range.num_values) {
                return Err(located(Error::out_of_spec(
                    "a page holds more values than remain of ColumnMetaData.num_values",
                )));
            }
            let stored = match source {
                SourceRef::Bytes(data) => super::walk::slice(data, 0, page.body.clone()),
                SourceRef::Reader(_) => {
                    super::walk::slice(&open.window, open.window_at, page.body.clone())
                }
            }
            .unwrap_or(&[]);
            #[cfg(feature = "encryption")]
            let decrypted = open
                .walk
                .decrypt_page(&page, stored, info.verify_crc)
                .map_err(|e| located(e.without_offset()))?;
            #[cfg(not(feature = "encryption"))]
            let decrypted: Option<(PageHeader, alloc::vec::Vec<u8>)> = None;
            let (header, body) = match decrypted {
                Some((header, plain)) => (
                    header,
                    Body {
                        range: 0..plain.len(),
                        bytes: Cow::Owned(plain),
                        at: page.body.start,
                        decrypted: true,
                    },
                ),
                None => {
                    let (bytes, range) = match source {
                        SourceRef::Bytes(data) => {
                            let b = super::walk::slice(data, 0, page.body.clone()).unwrap_or(&[]);
                            (Cow::Borrowed(b), 0..b.len())
                        }
                        SourceRef::Reader(_) => {
                            // The window (the page as read) becomes the body, not a copy of
                            // it; the walk reads on into a buffer a worker gave back.
                            let start = page.body.start.saturating_sub(open.window_at);
                            let start = usize::try_from(start).unwrap_or(usize::MAX);
                            let range = start..start.saturating_add(stored.len());
                            let spare = match self.spare.lock() {
                                // Given back cleared: a window holds no stale bytes.
                                Ok(mut spare) => spare.pop().unwrap_or_default(),
                                Err(_) => alloc::vec::Vec::new(),
                            };
                            (
                                Cow::Owned(core::mem::replace(&mut open.window, spare)),
                                range,
                            )
                        }
                    };
                    let body = Body {
                        bytes,
                        range,
                        at: page.body.start,
                        decrypted: false,
                    };
                    (page.header, body)
                }
            };
            open.declared = open.declared.saturating_add(declared);
            match header.type_ {
                PageType::DictionaryPage => {
                    let problem = if open.seen_data {
                        Some("a dictionary page after a data page")
                    } else if ordinal > 0 {
                        Some("a second dictionary page in one column chunk")
                    } else {
                        None
                    };
                    if let Some(p) = problem {
                        return Err(located(Error::out_of_spec(p)));
                    }
                    if let Ok(mut slot) = info.dictionary_page.lock() {
                        *slot = Some((header, body, offset));
                    }
                    return Ok(Some(Task::Dictionary(Arc::clone(info))));
                }
                PageType::DataPage | PageType::DataPageV2 => {
                    open.seen_data = true;
                    return Ok(Some(Task::Page(alloc::boxed::Box::new(PageTask {
                        chunk: Arc::clone(info),
                        header,
                        body,
                        ordinal,
                        offset,
                    }))));
                }
                PageType::IndexPage => {}
            }
        }
    }
}

impl<'f> Iterator for Walker<'f, '_> {
    type Item = Task<'f>;

    fn next(&mut self) -> Option<Task<'f>> {
        if self.open.is_none() {
            let index = self.next_chunk;
            let &chunk = self.chunks.get(index)?;
            self.next_chunk += 1;
            match self.open(index, chunk) {
                Ok(open) => self.open = Some(open),
                Err(e) => return Some(Task::Failed(index, e)),
            }
        }
        match self.next_page() {
            Ok(Some(task)) => Some(task),
            Ok(None) => Some(Task::End(self.open.take()?.info)),
            Err(e) => Some(Task::Failed(self.open.take()?.info.index, e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn results_come_in_order_whatever_the_threads() {
        for threads in [1, 2, 3, 8] {
            let mut out = Vec::new();
            ordered(
                threads,
                100,
                4,
                || (),
                |_, i| {
                    // Early items slow, so later ones finish first.
                    std::thread::sleep(std::time::Duration::from_micros((100 - i as u64) * 10));
                    i * 2
                },
                |i, r| {
                    out.push((i, r));
                    Ok::<(), ()>(())
                },
            )
            .unwrap();
            let want: Vec<_> = (0..100).map(|i| (i, i * 2)).collect();
            assert_eq!(out, want, "{threads} threads");
        }
    }

    #[test]
    fn no_more_than_the_window_is_claimed_ahead_of_the_consumer() {
        let started = AtomicUsize::new(0);
        let mut worst = 0;
        ordered(
            4,
            200,
            6,
            || (),
            |_, i| {
                started.fetch_max(i + 1, Ordering::SeqCst);
                i
            },
            |i, _| {
                worst = worst.max(started.load(Ordering::SeqCst) - i);
                std::thread::sleep(std::time::Duration::from_micros(50));
                Ok::<(), ()>(())
            },
        )
        .unwrap();
        // Item i is being consumed: items up to i + window - 1 may have been claimed.
        assert!(worst <= 6, "{worst} items claimed ahead");
        assert!(
            worst >= 2,
            "the workers never ran ahead ({worst}): not parallel"
        );
    }

    #[test]
    fn a_window_near_usize_max_does_not_overflow() {
        // `consumed + window` once overflowed here (a panic in the workers, or in release
        // builds a window that wrapped to nothing and workers waiting forever).
        let mut out = Vec::new();
        ordered(
            2,
            50,
            usize::MAX,
            || (),
            |_, i| {
                // Slow enough that items are still to claim once the consumer has moved on.
                std::thread::sleep(std::time::Duration::from_micros(200));
                i
            },
            |i, r| {
                out.push((i, r));
                Ok::<(), ()>(())
            },
        )
        .unwrap();
        assert_eq!(out, (0..50).map(|i| (i, i)).collect::<Vec<_>>());
    }

    #[test]
    fn an_error_of_the_consumer_stops_the_workers() {
        let done = AtomicUsize::new(0);
        let r = ordered(
            2,
            10_000,
            4,
            || (),
            |_, i| {
                done.fetch_add(1, Ordering::SeqCst);
                i
            },
            |i, _| if i == 10 { Err(i) } else { Ok(()) },
        );
        assert_eq!(r, Err(10));
        assert!(done.load(Ordering::SeqCst) < 100);
    }
}
