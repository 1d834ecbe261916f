//! `parket check FILE`: decode every page of every column and check the data against the
//! metadata that describes it.
//!
//! Per column chunk (row group × leaf column):
//!
//! - every page decodes, CRCs included (`FileReader` verifies them);
//! - the level positions add up to `ColumnMetaData.num_values` and the records to
//!   `RowGroup.num_rows`; the row groups' rows add up to `FileMetaData.num_rows`;
//! - `Statistics`: `null_count` and `nan_count` equal what the data holds; min/max (decoded per
//!   the column's sort order and `ColumnOrder`, see `parket::statistics::decode`) equal the
//!   data's min/max when exact, and bound it when truncated (a truncated min is <= the true
//!   min, a truncated max >= the true max); a NaN min/max is ignored (spec: old writers wrote
//!   them, readers must ignore them);
//! - `SizeStatistics`: the level histograms and `unencoded_byte_array_data_bytes` (a count
//!   of a DELTA_BYTE_ARRAY chunk between its suffixes' bytes and its values' is Arrow C++'s
//!   miscount: a `note:` line, not a failure);
//! - pages: at most one dictionary page, first in the chunk; `dictionary_page_offset` /
//!   `data_page_offset` point at the first dictionary / data page; every page encoding is
//!   listed in `encodings`; `encoding_stats` counts the pages by type and encoding; a
//!   DATA_PAGE_V2's `num_rows`, and its `num_nulls` unless negative (not counted), equal the
//!   page's levels;
//! - `OffsetIndex`: one location per data page, with the page's offset, size (header included)
//!   and first row; its `unencoded_byte_array_data_bytes`;
//! - `ColumnIndex`: per data page `null_pages`, `null_counts`, min/max (exact for fixed-width
//!   kinds, bounds for byte arrays, whose page index values may be truncated), the level
//!   histograms, and `boundary_order` holds.
//!
//! Pages are read through `ColumnChunkReader::next_batch`, a page's batches counted together
//! (`Batch::starts_page`); page headers are walked separately (headers only) to learn
//! where each page is. Output: one line per leaf column (`ok ...` or `BAD path: ...`), then a
//! summary; exit status 1 when anything disagrees.
//!
//! On several threads (`--threads`), a column chunk is a thread's task, or, when it alone
//! would keep one thread busy while the others wait, a part of its pages is
//! (`FileReader::column_chunk_part_with`): see `plan`. The output is the same.

use std::cmp::Ordering;
use std::fmt::Write as _;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::time::Instant;

use parket::format::{ColumnChunk, ColumnMetaData, ColumnOrder, Encoding, PageHeader, PageType};
use parket::read::{ChunkBuffers, FileReader};
use parket::statistics::{self, compare, Scalar, StatKind, StatisticsBuilder};
use parket::values::ValuesRef;

use parket::encryption::ModuleType;

use crate::args::Args;

mod page_index;

/// Most problems listed per column before "(+N more)".
const SHOWN: usize = 3;

/// Level positions decoded at a time (a page's are counted over its batches): a page of a
/// million dictionary-encoded strings is then gathered a part at a time into a buffer that
/// stays in cache, instead of into one as large as the page's strings, faulted in page by
/// page (nested-v1-dict-none: half of its page faults were there).
const BATCH: usize = 1 << 16;

/// `parket check FILE`.
pub fn check(mut args: Args) -> Result<(), String> {
    let threads = crate::threads_arg(&mut args)?;
    let [path] = <[String; 1]>::try_from(args.positional(&["FILE"])?).unwrap_or_default();
    let start = Instant::now();
    let open = |p: &str| File::open(p).map_err(|e| format!("{p}: {e}"));
    let file = crate::keys::open_reader(&path, open(&path)?)?;
    let md = file.metadata();
    let schema = file.schema();
    let mut bad_columns = 0usize;
    let mut total_values = 0u64;
    let mut file_problems = Vec::new();
    let rows: i64 = md.row_groups.iter().map(|rg| rg.num_rows).sum();
    if rows != md.num_rows {
        file_problems.push(format!(
            "FileMetaData.num_rows is {} but the row groups hold {rows} rows",
            md.num_rows
        ));
    }
    for (i, rg) in md.row_groups.iter().enumerate() {
        if rg.columns.len() != schema.columns().len() {
            file_problems.push(format!(
                "row group {i} has {} column chunks for {} leaf columns",
                rg.columns.len(),
                schema.columns().len()
            ));
        }
    }
    // One task per column chunk, column by column (the order of the output), or per part of a
    // chunk that alone would keep one thread busy while the others wait (see `plan`): checked
    // on `threads` threads, a few tasks ahead of the printing at most.
    let groups = md.row_groups.len();
    let chunks = schema.columns().len() * groups;
    let (tasks, mut walks) = plan(&file, threads, chunks, groups, &path);
    let mut sum = ColumnSummary::default();
    let mut problems = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    let mut progress = crate::progress::Progress::new("check", chunks as u64, "chunks");
    // The pages of a chunk read in parts, gathered until its last part, whose checks run here.
    let mut parts: Result<Vec<PageData>, String> = Ok(Vec::new());
    let mut here: Option<(Result<Raw, String>, ChunkBuffers)> = None;
    parket::read::parallel::ordered(
        threads,
        tasks.len(),
        threads.saturating_mul(4),
        || (open_raw(&path), ChunkBuffers::default()),
        |(raw, buffers), task| {
            let task = &tasks[task];
            let (i, j) = (task.row_group, task.column);
            let mut sum = ColumnSummary::default();
            let raw = match raw {
                Ok(raw) => raw,
                Err(e) => return (sum, vec![format!("row group {i}: {e}")], Vec::new(), None),
            };
            let Some((mut ctx, cc, num_rows)) = ChunkCheck::new(&file, raw, buffers, i, j) else {
                return (sum, Vec::new(), Vec::new(), None);
            };
            let pages = match &task.part {
                None => {
                    ctx.run(cc, num_rows, &mut sum);
                    None
                }
                Some((part, _)) => {
                    let suffixes = cc.meta_data.as_ref().is_some_and(counts_suffixes);
                    Some(ctx.decode_pages(&mut sum, suffixes, Some(part)))
                }
            };
            let (p, n) = (located(i, ctx.problems), located(i, ctx.notes));
            (sum, p, n, pages)
        },
        |t, (chunk, chunk_problems, chunk_notes, pages)| {
            let task = &tasks[t];
            let (i, j) = (task.row_group, task.column);
            // After a part that failed, the chunk's later parts count for nothing (read whole,
            // it would have stopped there).
            if task.part.is_none() || parts.is_ok() {
                sum.add(&chunk);
            }
            problems.extend(chunk_problems);
            notes.extend(chunk_notes);
            if let Some(pages) = pages {
                match (&mut parts, pages) {
                    (Ok(all), Ok(mut p)) => all.append(&mut p),
                    (Ok(_), Err(e)) => parts = Err(e),
                    (Err(_), _) => {}
                }
                if task.part.as_ref().is_some_and(|(_, last)| !last) {
                    return Ok(());
                }
                let pages = core::mem::replace(&mut parts, Ok(Vec::new()));
                let (raw, buffers) =
                    here.get_or_insert_with(|| (open_raw(&path), ChunkBuffers::default()));
                let raw = raw.as_mut().map_err(|e| format!("row group {i}: {e}"));
                let checked = raw.map(|raw| ChunkCheck::new(&file, raw, buffers, i, j));
                if let Err(e) = &checked {
                    problems.push(e.clone());
                }
                if let Ok(Some((mut ctx, cc, num_rows))) = checked {
                    match (pages, cc.meta_data.as_ref()) {
                        (Ok(pages), Some(meta)) => {
                            let walked = walks.get_mut(j * groups + i).and_then(Option::take);
                            ctx.check_decoded(cc, meta, num_rows, &pages, walked);
                        }
                        (Err(e), _) => ctx.bad(e),
                        (Ok(_), None) => {}
                    }
                    problems.extend(located(i, ctx.problems));
                    notes.extend(located(i, ctx.notes));
                }
            }
            progress.advance(1);
            if i + 1 < groups {
                return Ok(());
            }
            let Some(desc) = schema.columns().get(j) else {
                return Ok(());
            };
            let path_s = desc.path_string();
            let sum = std::mem::take(&mut sum);
            total_values += sum.values;
            if problems.is_empty() {
                progress.println(&format!(
                    "ok  {path_s}  {}  {} values ({} nulls) in {} pages",
                    desc.physical_type, sum.values, sum.nulls, sum.pages
                ));
            } else {
                bad_columns += 1;
                let more = problems.len().saturating_sub(SHOWN);
                let mut line = format!("BAD {path_s}: ");
                line.push_str(&problems[..problems.len().min(SHOWN)].join("; "));
                if more > 0 {
                    let _ = write!(line, " (+{more} more)");
                }
                problems.clear();
                progress.println(&line);
            }
            for n in notes.drain(..) {
                progress.println(&format!("    note: {n}"));
            }
            Ok::<(), String>(())
        },
    )?;
    progress.finish();
    if groups == 0 {
        for desc in schema.columns() {
            let (p, t) = (desc.path_string(), desc.physical_type);
            println!("ok  {p}  {t}  0 values (0 nulls) in 0 pages");
        }
    }
    for p in &file_problems {
        println!("BAD file: {p}");
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "checked {} columns in {} row groups: {} values decoded, {} bad, {:.3} s",
        schema.columns().len(),
        md.row_groups.len(),
        total_values,
        bad_columns + file_problems.len(),
        secs
    );
    if bad_columns + file_problems.len() > 0 {
        return Err(format!(
            "{path}: {} column(s) and {} file-level value(s) disagree with the data",
            bad_columns,
            file_problems.len()
        ));
    }
    Ok(())
}

/// Whether decoding the chunk of `meta` counts its values' suffix bytes
/// ([`PageData::suffix_bytes`]). They serve only to recognise Arrow C++'s DELTA_BYTE_ARRAY
/// miscount: a pass over every string of the chunk, made only for a chunk that lists the
/// encoding.
fn counts_suffixes(meta: &ColumnMetaData) -> bool {
    meta.encodings.contains(&Encoding::DeltaByteArray)
}

/// `v`, each prefixed with its row group `i`.
fn located(i: usize, v: Vec<String>) -> Vec<String> {
    v.into_iter()
        .map(|p| format!("row group {i}: {p}"))
        .collect()
}

/// `path` opened again (see [`Raw`]).
fn open_raw(path: &str) -> Result<Raw, String> {
    let mut file = File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let len = file.seek(SeekFrom::End(0)).map_err(|e| e.to_string())?;
    Ok(Raw { file, len })
}

/// What checking `values` level positions and `bytes` uncompressed bytes of the chunk of
/// `meta` costs, in instructions: per level position and per byte, by the column's physical
/// type and codec. Measured (callgrind, `check --threads 1`, one profile per chunk, the
/// scale-0.2 bench files): a BYTE_ARRAY column costs 120-260 per value (a gather or a copy,
/// offsets, min/max by bytes) whatever the strings' lengths (strings-v1-dict-none: 26, 24 and
/// 24 M for 200,000 values of 0.6, 5.7 and 8 MB), a fixed-width one about 28 (taxi); each
/// byte little uncompressed, 2-7 more through SNAPPY and 9-13 through ZSTD. (Weighing values
/// and bytes alike, as before, gave the dictionary-encoded `category` 19% of the work of
/// strings-v1-dict-none instead of 32%, so it was not split, and one thread worked 41% more
/// than the other.)
fn work(meta: &ColumnMetaData, values: i64, bytes: u64) -> f64 {
    use parket::format::{CompressionCodec as C, PhysicalType as T};
    let per_value = match meta.type_ {
        T::ByteArray => 130.0,
        _ => 28.0,
    };
    let per_byte = match meta.codec {
        C::Uncompressed => 1.0,
        C::Snappy | C::Lz4 | C::Lz4Raw | C::Lzo => 5.0,
        _ => 13.0,
    };
    values.max(0) as f64 * per_value + bytes as f64 * per_byte
}

/// What one thread checks: a column chunk, or a part of one (and whether it is the last).
struct Task {
    row_group: usize,
    column: usize,
    part: Option<(parket::read::ChunkPart, bool)>,
}

/// The tasks of `parket check` on `threads` threads, in output order (column by column, row
/// group by row group), and for each chunk read in parts the walk of its page headers (indexed
/// `column * groups + row_group`), which its checks reuse.
///
/// A chunk is one task, unless it would cost more than twice the work the threads should each
/// be given at a time (a sixteenth of a thread's share of the file, see [`work`]): such a chunk
/// alone would keep one thread busy while the others wait, so it is read in parts of about
/// that cost, at page boundaries
/// ([`FileReader::column_chunk_part_with`](parket::read::FileReader::column_chunk_part_with)),
/// each on its thread's reused buffers. One thread, or an encrypted file: one task per chunk.
fn plan(
    file: &FileReader<'static>,
    threads: usize,
    chunks: usize,
    groups: usize,
    path: &str,
) -> (Vec<Task>, Vec<Option<Vec<WalkedPage>>>) {
    let md = file.metadata();
    let meta = |i: usize, j: usize| {
        md.row_groups
            .get(i)
            .and_then(|rg| rg.columns.get(j))
            .and_then(|c| c.meta_data.as_ref())
    };
    let columns = chunks.checked_div(groups).unwrap_or(0);
    let total: f64 = (0..chunks)
        .filter_map(|c| meta(c % groups, c / groups))
        .map(|m| work(m, m.num_values, m.total_uncompressed_size.max(0) as u64))
        .sum();
    // A chunk's (or pages') share of the file's work.
    let cost = move |m: &ColumnMetaData, v: i64, b: u64| work(m, v, b) / total.max(1.0);
    // Parts this small leave the threads at most half a part apart at the end. Per-thread
    // instructions, bd1 strings-v2-dict-none: parts of a quarter of a thread's share (as
    // before) 197M / 151M, an eighth 188M / 162M, a sixteenth 183M / 170M, for 1% more
    // instructions in all.
    let unit = 1.0 / (threads as f64 * 16.0);
    let mut raw = None;
    let mut walks: Vec<Option<Vec<WalkedPage>>> = Vec::new();
    let mut tasks = Vec::with_capacity(chunks);
    for j in 0..columns {
        for i in 0..groups {
            let whole = Task {
                row_group: i,
                column: j,
                part: None,
            };
            let meta = meta(i, j);
            let c = meta.map_or(0.0, |m| {
                cost(m, m.num_values, m.total_uncompressed_size.max(0) as u64)
            });
            let (Some(meta), true) = (meta, threads > 1 && !file.is_encrypted() && c > 2.0 * unit)
            else {
                tasks.push(whole);
                continue;
            };
            let raw = raw.get_or_insert_with(|| open_raw(path));
            let (pos, end) = chunk_bytes(meta);
            let split = match raw {
                Ok(raw) => walk_plain(raw, meta, pos, end).ok().and_then(|walked| {
                    let parts = (c / unit).ceil() as u64;
                    let cost = |v, b| cost(meta, v, b);
                    let parts = split_chunk(&walked, meta.num_values, end, parts, cost)?;
                    Some((walked, parts))
                }),
                Err(_) => None,
            };
            let Some((walked, parts)) = split else {
                tasks.push(whole);
                continue;
            };
            let n = parts.len();
            for (k, part) in parts.into_iter().enumerate() {
                tasks.push(Task {
                    row_group: i,
                    column: j,
                    part: Some((part, k + 1 == n)),
                });
            }
            walks.resize_with(chunks, || None);
            walks[j * groups + i] = Some(walked);
        }
    }
    (tasks, walks)
}

/// The file opened a second time, for page headers and page indexes.
struct Raw {
    file: File,
    len: u64,
}

impl Raw {
    fn read(&mut self, pos: u64, len: u64) -> Result<Vec<u8>, String> {
        if pos.checked_add(len).is_none_or(|end| end > self.len) {
            return Err(format!(
                "{len} bytes at offset {pos} run past the end of the file"
            ));
        }
        let mut buf = vec![0; len as usize];
        self.file
            .seek(SeekFrom::Start(pos))
            .and_then(|_| self.file.read_exact(&mut buf))
            .map_err(|e| e.to_string())?;
        Ok(buf)
    }

    /// The page header at `pos` and its length in bytes.
    fn header(&mut self, pos: u64) -> Result<(PageHeader, u64), String> {
        let mut want = 256u64;
        loop {
            let n = want.min(self.len.saturating_sub(pos));
            let buf = self.read(pos, n)?;
            match PageHeader::decode(&buf) {
                Ok((h, used)) => return Ok((h, used as u64)),
                Err(e)
                    if matches!(e.kind(), parket::ErrorKind::Truncated { .. })
                        && n == want
                        && want < (64 << 20) =>
                {
                    want *= 8
                }
                Err(e) => return Err(format!("page header at offset {pos}: {e}")),
            }
        }
    }
}

#[derive(Default)]
struct ColumnSummary {
    values: u64,
    nulls: u64,
    pages: u64,
}

impl ColumnSummary {
    fn add(&mut self, o: &ColumnSummary) {
        self.values += o.values;
        self.nulls += o.nulls;
        self.pages += o.pages;
    }
}

/// What the data of one data page holds.
struct PageData {
    levels: u64,
    nulls: u64,
    rows: u64,
    nans: u64,
    unencoded_bytes: u64,
    /// The bytes of the values less the prefix each shares with the one before it in the page
    /// (the suffixes DELTA_BYTE_ARRAY stores).
    suffix_bytes: u64,
    stats: StatisticsBuilder,
    def_hist: Vec<i64>,
    rep_hist: Vec<i64>,
}

/// One page as its header says.
struct WalkedPage {
    offset: u64,
    /// Header and body.
    size: u64,
    type_: PageType,
    encoding: Option<Encoding>,
    num_values: i64,
    /// DATA_PAGE_V2 only: `num_nulls` (negative: not counted) and `num_rows`.
    v2_counts: Option<(i32, i32)>,
    /// `uncompressed_page_size`: what decoding the page costs, roughly.
    uncompressed: u64,
}

impl WalkedPage {
    /// The page at `offset` of `size` stored bytes whose header is `h`.
    fn new(h: &PageHeader, offset: u64, size: u64) -> Self {
        let (encoding, num_values) = match (
            h.type_,
            &h.data_page_header,
            &h.data_page_header_v2,
            &h.dictionary_page_header,
        ) {
            (PageType::DataPage, Some(d), _, _) => (Some(d.encoding), d.num_values as i64),
            (PageType::DataPageV2, _, Some(d), _) => (Some(d.encoding), d.num_values as i64),
            (PageType::DictionaryPage, _, _, Some(d)) => (Some(d.encoding), 0),
            _ => (None, 0),
        };
        let v2_counts = match (h.type_, &h.data_page_header_v2) {
            (PageType::DataPageV2, Some(d)) => Some((d.num_nulls, d.num_rows)),
            _ => None,
        };
        WalkedPage {
            offset,
            size,
            type_: h.type_,
            encoding,
            num_values,
            v2_counts,
            uncompressed: h.uncompressed_page_size.max(0) as u64,
        }
    }
}

/// Where a chunk's pages start (its dictionary page, if any) and where its
/// `total_compressed_size` bytes end.
fn chunk_bytes(meta: &ColumnMetaData) -> (u64, u64) {
    let data = meta.data_page_offset.max(0) as u64;
    let pos = match meta.dictionary_page_offset {
        Some(d) if d >= 4 && (d as u64) < data => d as u64,
        // Seen in the wild (column_chunk_key_value_metadata.parquet): a chunk of no
        // values with data_page_offset 0 and its dictionary page at
        // dictionary_page_offset.
        Some(d) if d >= 4 && data < 4 => d as u64,
        _ => data,
    };
    (
        pos,
        pos.saturating_add(meta.total_compressed_size.max(0) as u64),
    )
}

/// The in-order walk of a plaintext chunk's page headers from `pos` until the data pages hold
/// `meta.num_values`; a chunk of no values may still have pages (a dictionary page, empty data
/// pages) within its total_compressed_size, up to `end`.
fn walk_plain(
    raw: &mut Raw,
    meta: &ColumnMetaData,
    mut pos: u64,
    end: u64,
) -> Result<Vec<WalkedPage>, String> {
    let mut values = 0i64;
    let mut out = Vec::new();
    while values < meta.num_values || (meta.num_values == 0 && pos < end) {
        let (h, hlen) = raw.header(pos)?;
        let body = h.compressed_page_size.max(0) as u64;
        let page = WalkedPage::new(&h, pos, hlen + body);
        values += page.num_values;
        out.push(page);
        pos += hlen + body;
        if out.len() > 100_000_000 {
            return Err("too many pages".into());
        }
    }
    Ok(out)
}

/// Splits a chunk whose pages are `walked` into about `parts` parts of similar decoding cost
/// (`cost` of a page's level positions and uncompressed bytes), for threads to decode at once: `None` when the walk is not the plain
/// shape parts need (back-to-back pages, inside the chunk's `end`, holding `num_values`, at
/// most one dictionary page, first), so that the chunk is checked whole and its problems
/// reported as always. The first part reads the dictionary page; a later one only when it holds
/// dictionary-encoded pages.
fn split_chunk(
    walked: &[WalkedPage],
    num_values: i64,
    end: u64,
    parts: u64,
    cost: impl Fn(i64, u64) -> f64,
) -> Option<Vec<parket::read::ChunkPart>> {
    let dict = walked.first()?.type_ == PageType::DictionaryPage;
    let data = &walked[usize::from(dict)..];
    let last = walked.last()?;
    let fits = walked
        .windows(2)
        .all(|w| w[0].offset + w[0].size == w[1].offset)
        && last.offset + last.size <= end
        && data
            .iter()
            .all(|w| matches!(w.type_, PageType::DataPage | PageType::DataPageV2))
        && data.iter().map(|w| w.num_values).sum::<i64>() == num_values;
    let parts = parts.min(data.len() as u64);
    if !fits || parts < 2 {
        return None;
    }
    let page = |w: &WalkedPage| cost(w.num_values, w.uncompressed);
    let total: f64 = walked.iter().map(page).sum();
    let mut out = Vec::new();
    let mut first = 0usize;
    let mut done = if dict { page(&walked[0]) } else { 0.0 };
    for (k, w) in data.iter().enumerate() {
        done += page(w);
        let cut = done * parts as f64 >= total * (out.len() + 1) as f64;
        if !(cut || k + 1 == data.len()) {
            continue;
        }
        let pages = &data[first..=k];
        let encoded = pages.iter().any(|w| {
            matches!(
                w.encoding,
                Some(Encoding::PlainDictionary | Encoding::RleDictionary)
            )
        });
        out.push(parket::read::ChunkPart {
            pages: pages[0].offset..w.offset + w.size,
            num_values: pages.iter().map(|w| w.num_values.max(0) as u64).sum(),
            ordinal: first + usize::from(dict),
            dictionary: dict && (first == 0 || encoded),
        });
        first = k + 1;
    }
    Some(out)
}

struct ChunkCheck<'f, 'r> {
    file: &'f FileReader<'static>,
    raw: &'r mut Raw,
    /// Decode buffers handed from chunk to chunk.
    buffers: &'r mut ChunkBuffers,
    row_group: usize,
    column: usize,
    kind: StatKind,
    order: Option<&'f ColumnOrder>,
    max_def: u16,
    max_rep: u16,
    problems: Vec<String>,
    /// What disagrees in a way a known writer bug explains (printed, not counted as bad).
    notes: Vec<String>,
}

/// Arrow C++ (seen with pyarrow 26) writes `unencoded_byte_array_data_bytes` of a
/// DELTA_BYTE_ARRAY chunk of prefix-sharing values below the values' bytes: exactly the bytes
/// of the suffixes it stores in some chunks, somewhat more in others (never the values' total).
/// A count from the suffixes' total up to, not including, the values' is taken for that bug:
/// a note, not a failure, since the values are right and every reader can ignore the count.
const DELTA_SUFFIX_MISCOUNT: &str = "counted from the DELTA_BYTE_ARRAY suffixes, not the \
     values, as Arrow C++ (pyarrow 26) writes it; the values themselves are right";

/// Whether `n`, against the values' `bytes` and the suffixes' `suffixes`, is the miscount
/// [`DELTA_SUFFIX_MISCOUNT`] describes.
fn delta_suffix_miscount(n: i64, bytes: u64, suffixes: u64) -> bool {
    suffixes as i64 <= n && n < bytes as i64
}

impl<'f, 'r> ChunkCheck<'f, 'r> {
    /// The check of the chunk of column `j` in row group `i` of `file`, that chunk and its row
    /// group's rows; `None` when the file has no such chunk.
    fn new(
        file: &'f FileReader<'static>,
        raw: &'r mut Raw,
        buffers: &'r mut ChunkBuffers,
        i: usize,
        j: usize,
    ) -> Option<(Self, &'f ColumnChunk, i64)> {
        let md = file.metadata();
        let desc = file.schema().columns().get(j)?;
        let rg = md.row_groups.get(i)?;
        let cc = rg.columns.get(j)?;
        let ctx = ChunkCheck {
            file,
            raw,
            buffers,
            row_group: i,
            column: j,
            kind: StatKind::of_column(desc),
            order: md.column_orders.as_ref().and_then(|o| o.get(j)),
            max_def: desc.max_def_level,
            max_rep: desc.max_rep_level,
            problems: Vec::new(),
            notes: Vec::new(),
        };
        Some((ctx, cc, rg.num_rows))
    }

    fn bad(&mut self, p: String) {
        self.problems.push(p);
    }

    fn note(&mut self, p: String) {
        self.notes.push(p);
    }

    fn run(&mut self, cc: &ColumnChunk, num_rows: i64, sum: &mut ColumnSummary) {
        let Some(meta) = cc.meta_data.as_ref() else {
            self.bad("column metadata is encrypted: cannot check".into());
            return;
        };
        match self.decode_pages(sum, counts_suffixes(meta), None) {
            Ok(pages) => self.check_decoded(cc, meta, num_rows, &pages, None),
            Err(e) => self.bad(e),
        }
    }

    /// The checks of a chunk whose data pages were decoded into `pages`; `walked`: its pages
    /// as a walk of their headers found them, if that was done already.
    fn check_decoded(
        &mut self,
        cc: &ColumnChunk,
        meta: &ColumnMetaData,
        num_rows: i64,
        pages: &[PageData],
        walked: Option<Vec<WalkedPage>>,
    ) {
        self.check_chunk(meta, num_rows, pages);
        let walked = match walked.map_or_else(|| self.walk(meta), Ok) {
            Ok(w) => w,
            Err(e) => {
                self.bad(e);
                return;
            }
        };
        self.check_pages(meta, &walked, pages);
        if let (Some(off), Some(len)) = (cc.offset_index_offset, cc.offset_index_length) {
            self.check_offset_index(off, len, &walked, pages);
        }
        if let (Some(off), Some(len)) = (cc.column_index_offset, cc.column_index_length) {
            self.check_column_index(off, len, pages);
        }
    }

    /// Reads every data page of the chunk (one batch per page). `suffixes`: count the bytes of
    /// the values' suffixes (see [`PageData::suffix_bytes`]); without it they are taken to be
    /// the values' bytes (no shared prefixes), which never reads as the miscount. `part`: only
    /// the pages of this part of the chunk.
    fn decode_pages(
        &mut self,
        sum: &mut ColumnSummary,
        suffixes: bool,
        part: Option<&parket::read::ChunkPart>,
    ) -> Result<Vec<PageData>, String> {
        let buffers = core::mem::take(self.buffers);
        let (rg, col) = (self.row_group, self.column);
        let mut reader = match part {
            None => self.file.column_chunk_with(rg, col, buffers),
            Some(p) => self.file.column_chunk_part_with(rg, col, p, buffers),
        }
        .map_err(|e| e.to_string())?;
        let mut pages: Vec<PageData> = Vec::new();
        // The last value so far of the page, for the suffix of the next batch's first.
        let mut prev = Vec::new();
        loop {
            let batch = match reader.next_batch(BATCH) {
                Ok(Some(b)) => b,
                Ok(None) => break,
                Err(e) => {
                    // The pages before the one that failed count as decoded.
                    if let Some(done) = pages.last_mut() {
                        self.page_done(done, sum);
                    }
                    return Err(e.to_string());
                }
            };
            if batch.starts_page() || pages.is_empty() {
                if let Some(done) = pages.last_mut() {
                    self.page_done(done, sum);
                }
                pages.push(PageData {
                    levels: 0,
                    nulls: 0,
                    rows: 0,
                    nans: 0,
                    unencoded_bytes: 0,
                    suffix_bytes: 0,
                    stats: StatisticsBuilder::new(self.kind),
                    def_hist: vec![0; self.max_def as usize + 1],
                    rep_hist: vec![0; self.max_rep as usize + 1],
                });
                prev.clear();
            }
            let Some(page) = pages.last_mut() else {
                break;
            };
            page.levels += batch.len() as u64;
            for (max, levels, hist) in [
                (self.max_def, batch.def_levels(), &mut page.def_hist),
                (self.max_rep, batch.rep_levels(), &mut page.rep_hist),
            ] {
                if max == 0 {
                    hist[0] += batch.len() as i64;
                    continue;
                }
                for &l in levels {
                    if let Some(h) = hist.get_mut(l as usize) {
                        *h += 1;
                    }
                }
            }
            let values = batch.values();
            page.nans += count_nans(self.kind, values);
            if let ValuesRef::ByteArray(v) = values {
                let bytes = v.total_bytes() as u64;
                page.unencoded_bytes += bytes;
                page.suffix_bytes += if suffixes {
                    suffix_bytes(&mut prev, v.iter())
                } else {
                    bytes
                };
            }
            page.stats
                .update(values)
                .map_err(|e| format!("statistics of the data: {e}"))?;
        }
        if let Some(done) = pages.last_mut() {
            self.page_done(done, sum);
        }
        *self.buffers = reader.into_buffers();
        Ok(pages)
    }

    /// Completes `page`, all of whose batches were counted: its nulls and rows from its level
    /// histograms; adds it to `sum`.
    fn page_done(&self, page: &mut PageData, sum: &mut ColumnSummary) {
        if self.max_def > 0 {
            page.nulls = page.levels - page.def_hist[self.max_def as usize] as u64;
        }
        page.rows = if self.max_rep > 0 {
            page.rep_hist[0] as u64
        } else {
            page.levels
        };
        page.stats.add_nulls(page.nulls);
        sum.values += page.levels;
        sum.nulls += page.nulls;
        sum.pages += 1;
    }

    fn check_chunk(&mut self, meta: &ColumnMetaData, num_rows: i64, pages: &[PageData]) {
        let levels: u64 = pages.iter().map(|p| p.levels).sum();
        let rows: u64 = pages.iter().map(|p| p.rows).sum();
        let nulls: u64 = pages.iter().map(|p| p.nulls).sum();
        let nans: u64 = pages.iter().map(|p| p.nans).sum();
        if levels as i64 != meta.num_values {
            self.bad(format!(
                "ColumnMetaData.num_values is {} but the pages hold {levels}",
                meta.num_values
            ));
        }
        if rows as i64 != num_rows {
            self.bad(format!(
                "RowGroup.num_rows is {num_rows} but the pages hold {rows} rows"
            ));
        }
        let mut all = StatisticsBuilder::new(self.kind);
        for p in pages {
            all.merge(&p.stats);
        }
        if let Some(st) = &meta.statistics {
            if let Some(n) = st.null_count {
                if !self.null_count_ok(n, pages.iter().map(|p| &p.def_hist)) {
                    self.bad(format!(
                        "Statistics.null_count is {n} but the data holds {nulls} nulls"
                    ));
                }
            }
            if let Some(n) = st.nan_count {
                if n != nans as i64 {
                    self.bad(format!(
                        "Statistics.nan_count is {n} but the data holds {nans} NaNs"
                    ));
                }
            }
            let d = statistics::decode(st, self.kind, self.order);
            self.check_bound(
                "Statistics min",
                d.min.as_ref(),
                all.min(),
                d.is_min_exact,
                true,
            );
            self.check_bound(
                "Statistics max",
                d.max.as_ref(),
                all.max(),
                d.is_max_exact,
                false,
            );
        }
        if let Some(ss) = &meta.size_statistics {
            let bytes: u64 = pages.iter().map(|p| p.unencoded_bytes).sum();
            if let Some(n) = ss.unencoded_byte_array_data_bytes {
                let suffixes: u64 = pages.iter().map(|p| p.suffix_bytes).sum();
                let delta = meta.encodings.contains(&Encoding::DeltaByteArray);
                if n != bytes as i64 && delta && delta_suffix_miscount(n, bytes, suffixes) {
                    self.note(format!(
                        "SizeStatistics.unencoded_byte_array_data_bytes is {n} (the data holds \
                         {bytes}): {DELTA_SUFFIX_MISCOUNT}"
                    ));
                } else if n != bytes as i64 {
                    self.bad(format!(
                        "SizeStatistics.unencoded_byte_array_data_bytes is {n} but the data \
                         holds {bytes}"
                    ));
                }
            }
            let sum_hist = |f: fn(&PageData) -> &Vec<i64>| {
                let mut h = f(&pages[0]).clone();
                for p in &pages[1..] {
                    for (a, b) in h.iter_mut().zip(f(p)) {
                        *a += b;
                    }
                }
                h
            };
            if !pages.is_empty() {
                // Spec: the histograms may be omitted when the max level is 0; seen in the
                // wild as empty lists (unknown-logical-type.parquet, geospatial/).
                if let Some(h) = ss
                    .definition_level_histogram
                    .as_ref()
                    .filter(|h| !h.is_empty())
                {
                    let ours = sum_hist(|p| &p.def_hist);
                    if *h != ours {
                        self.bad(format!(
                            "SizeStatistics.definition_level_histogram is {h:?} but the data \
                             has {ours:?}"
                        ));
                    }
                }
                if let Some(h) = ss
                    .repetition_level_histogram
                    .as_ref()
                    .filter(|h| !h.is_empty())
                {
                    let ours = sum_hist(|p| &p.rep_hist);
                    if *h != ours {
                        self.bad(format!(
                            "SizeStatistics.repetition_level_histogram is {h:?} but the data \
                             has {ours:?}"
                        ));
                    }
                }
            }
        }
    }

    /// Whether a stored null count fits the definition levels. Spec: "count of null values";
    /// for a nested column that is every position below max_def_level. Seen in the wild
    /// (list_columns.parquet, by parquet-cpp): only the null *leaves* (definition level
    /// max_def_level - 1) counted. So: the positions at levels t..max_def_level, for some t.
    fn null_count_ok<'h>(&self, stored: i64, hists: impl Iterator<Item = &'h Vec<i64>>) -> bool {
        let max = self.max_def as usize;
        let mut h = vec![0i64; max + 1];
        for p in hists {
            for (a, b) in h.iter_mut().zip(p) {
                *a += b;
            }
        }
        if max == 0 {
            return stored == 0;
        }
        (0..max).any(|t| h[t..max].iter().sum::<i64>() == stored)
    }

    /// Checks a stored min (`is_min`) or max against the data's. An exact one must be equal,
    /// an inexact one a bound. A stored value with no non-null (non-NaN) data is a problem.
    fn check_bound(
        &mut self,
        what: &str,
        stored: Option<&Scalar>,
        data: Option<&Scalar>,
        exact: bool,
        is_min: bool,
    ) {
        let Some(stored) = stored else { return };
        let Some(data) = data else {
            self.bad(format!(
                "{what} is present but the data has no non-null value"
            ));
            return;
        };
        let ord = compare(self.kind, stored, data);
        let ok = match (exact, is_min) {
            (true, _) => ord == Ordering::Equal,
            (false, true) => ord != Ordering::Greater,
            (false, false) => ord != Ordering::Less,
        };
        if !ok {
            self.bad(format!(
                "{what}{} is {} but the data's is {}",
                if exact { "" } else { " (inexact)" },
                show(stored),
                show(data)
            ));
        }
    }

    /// [`ChunkCheck::walk`] for a file read with keys: the library's page walk decrypts the
    /// headers; each page's stored size runs to the next page (the last one to `end`).
    fn walk_decrypted(&mut self, end: u64) -> Result<Vec<WalkedPage>, String> {
        let pages = self
            .file
            .pages(self.row_group, self.column)
            .map_err(|e| e.to_string())?;
        let mut out: Vec<WalkedPage> = Vec::new();
        for p in pages {
            let p = p.map_err(|e| e.to_string())?;
            if let Some(last) = out.last_mut() {
                last.size = p.offset.saturating_sub(last.offset);
            }
            out.push(WalkedPage::new(
                &p.header,
                p.offset,
                end.saturating_sub(p.offset),
            ));
        }
        Ok(out)
    }

    /// The `len` bytes at `off` of a page index of this chunk, decrypted when the chunk is
    /// encrypted.
    fn index_bytes(&mut self, module: ModuleType, off: i64, len: i32) -> Result<Vec<u8>, String> {
        let bytes = self.raw.read(off.max(0) as u64, len.max(0) as u64)?;
        match self
            .file
            .decrypt_chunk_module(self.row_group, self.column, module, &bytes)
        {
            Ok(Some(plain)) => Ok(plain),
            Ok(None) => Ok(bytes),
            Err(e) => Err(e.to_string()),
        }
    }

    /// Walks the chunk's page headers until the data pages hold `num_values`.
    fn walk(&mut self, meta: &ColumnMetaData) -> Result<Vec<WalkedPage>, String> {
        let (pos, end) = chunk_bytes(meta);
        if self.file.is_encrypted() {
            return self.walk_decrypted(end);
        }
        walk_plain(self.raw, meta, pos, end)
    }

    fn check_pages(&mut self, meta: &ColumnMetaData, walked: &[WalkedPage], pages: &[PageData]) {
        let dicts: Vec<usize> = (0..walked.len())
            .filter(|&k| walked[k].type_ == PageType::DictionaryPage)
            .collect();
        match dicts.as_slice() {
            [] => {
                if let Some(d) = meta.dictionary_page_offset.filter(|&d| d >= 4) {
                    self.bad(format!(
                        "dictionary_page_offset is {d} but the chunk has no dictionary page"
                    ));
                }
            }
            [0] => {
                let at = walked[0].offset as i64;
                let legacy = meta.dictionary_page_offset.is_none() && meta.data_page_offset == at;
                if meta.dictionary_page_offset != Some(at) && !legacy {
                    self.bad(format!(
                        "the dictionary page is at offset {at} but dictionary_page_offset is {:?}",
                        meta.dictionary_page_offset
                    ));
                }
            }
            [k] => self.bad(format!("the dictionary page is page {k}, not the first")),
            more => self.bad(format!("{} dictionary pages", more.len())),
        }
        let data: Vec<&WalkedPage> = walked
            .iter()
            .filter(|w| matches!(w.type_, PageType::DataPage | PageType::DataPageV2))
            .collect();
        if let Some(first) = data.first() {
            // Seen in the wild (parquet-mr before 1.6, Impala, parquet-cpp before 1.5): no
            // dictionary_page_offset, and data_page_offset at the dictionary page.
            let dict_first = meta.dictionary_page_offset.is_none()
                && dicts == [0]
                && walked[0].offset as i64 == meta.data_page_offset;
            if first.offset as i64 != meta.data_page_offset && !dict_first {
                self.bad(format!(
                    "the first data page is at offset {} but data_page_offset is {}",
                    first.offset, meta.data_page_offset
                ));
            }
        }
        let nonempty: Vec<&&WalkedPage> = data.iter().filter(|w| w.num_values > 0).collect();
        if nonempty.len() != pages.len() {
            self.bad(format!(
                "{} data pages with values by their headers, {} decoded",
                nonempty.len(),
                pages.len()
            ));
        }
        // DATA_PAGE_V2 counts. Seen in the wild: parquet-java 1.17 writes num_nulls = -1 when
        // it did not count (readers take the count from the levels): not checked then.
        for (w, p) in nonempty.iter().zip(pages) {
            if let Some((nulls, rows)) = w.v2_counts {
                if u64::try_from(nulls).is_ok_and(|n| n != p.nulls) {
                    self.bad(format!(
                        "DATA_PAGE_V2 at offset {}: num_nulls is {nulls} but the page has {} nulls",
                        w.offset, p.nulls
                    ));
                }
                if i64::from(rows) != p.rows as i64 {
                    self.bad(format!(
                        "DATA_PAGE_V2 at offset {}: num_rows is {rows} but the page has {} rows",
                        w.offset, p.rows
                    ));
                }
            }
        }
        // Seen in the wild: an empty `encodings` list (byte_array_decimal.parquet,
        // nation.dict-malformed.parquet); only a list that names encodings is checked.
        for w in walked.iter().filter(|_| !meta.encodings.is_empty()) {
            if let Some(e) = w.encoding {
                if !meta.encodings.contains(&e) {
                    self.bad(format!(
                        "page at offset {} is {e} but ColumnMetaData.encodings is {:?}",
                        w.offset,
                        meta.encodings.iter().map(|e| e.name()).collect::<Vec<_>>()
                    ));
                    break;
                }
            }
        }
        if let Some(stats) = &meta.encoding_stats {
            for s in stats {
                let n = walked
                    .iter()
                    .filter(|w| {
                        let ty = match w.type_ {
                            // Spec: encoding_stats counts V1 and V2 data pages alike? It
                            // names the page type; writers use DATA_PAGE for both.
                            PageType::DataPageV2 => PageType::DataPage,
                            t => t,
                        };
                        let want = match s.page_type {
                            PageType::DataPageV2 => PageType::DataPage,
                            t => t,
                        };
                        ty == want && w.encoding == Some(s.encoding)
                    })
                    .count();
                if n as i64 != s.count as i64 {
                    self.bad(format!(
                        "encoding_stats: {} {} pages: {} by the metadata, {n} in the chunk",
                        s.page_type, s.encoding, s.count
                    ));
                }
            }
        }
    }
}

/// The bytes of `values` less the prefix each shares with the one before it (the first: with
/// `prev`, the value before them, which becomes their last).
fn suffix_bytes<'a>(prev: &mut Vec<u8>, values: impl Iterator<Item = &'a [u8]>) -> u64 {
    let mut last: Option<&[u8]> = None;
    let mut total = 0u64;
    for v in values {
        let before = last.unwrap_or(prev);
        let prefix = before.iter().zip(v).take_while(|(a, b)| a == b).count();
        total += (v.len() - prefix) as u64;
        last = Some(v);
    }
    if let Some(v) = last {
        prev.clear();
        prev.extend_from_slice(v);
    }
    total
}

fn is_nan(kind: StatKind, s: &Scalar) -> bool {
    match s {
        Scalar::Float(x) => x.is_nan(),
        Scalar::Double(x) => x.is_nan(),
        Scalar::Bytes(b) if kind == StatKind::Float16 => statistics::half_of(b).is_nan(),
        _ => false,
    }
}

fn count_nans(kind: StatKind, values: ValuesRef<'_>) -> u64 {
    match values {
        ValuesRef::Float(v) => v.iter().filter(|x| x.is_nan()).count() as u64,
        ValuesRef::Double(v) => v.iter().filter(|x| x.is_nan()).count() as u64,
        ValuesRef::FixedLenByteArray(v) if kind == StatKind::Float16 => {
            v.iter().filter(|x| statistics::half_of(x).is_nan()).count() as u64
        }
        _ => 0,
    }
}

/// A min/max for a message: numbers as numbers, bytes as text when UTF-8, else hex.
fn show(s: &Scalar) -> String {
    match s {
        Scalar::Boolean(b) => b.to_string(),
        Scalar::Int32(v) => v.to_string(),
        Scalar::Int64(v) => v.to_string(),
        Scalar::Float(v) => format!("{v:?}"),
        Scalar::Double(v) => format!("{v:?}"),
        Scalar::Bytes(b) => match std::str::from_utf8(b) {
            Ok(t) if t.len() <= 64 => format!("{t:?}"),
            _ => {
                let hex: String = b.iter().take(32).map(|x| format!("{x:02x}")).collect();
                format!("0x{hex}{}", if b.len() > 32 { "..." } else { "" })
            }
        },
    }
}
