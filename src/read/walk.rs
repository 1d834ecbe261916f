//! The walk over a column chunk's pages, as a pure step machine: it never reads. Each
//! [`PageWalk::step`] is given whatever file bytes the caller holds (a window: bytes and the
//! file offset of the first) and answers either "I need bytes `a..b`" ([`Step::Need`]) or "here
//! is the next page" ([`Step::Page`]: its header and where its body is), or that the chunk is
//! done. The slice reader hands it the whole file, the `Read + Seek` reader a buffer it refills
//! on each `Need`, and a caller who owns the IO (an object store, HTTP range requests, an async
//! runtime) whatever it fetched: there is one walk, whoever does the IO.
//!
//! Spec: parquet.thrift `ColumnMetaData` (pages back to back from the chunk's first page over
//! `total_compressed_size` bytes, data pages holding `num_values` level positions in all) and
//! PageIndex.md (`OffsetIndex.page_locations`: each data page's offset, size with its header,
//! and first row). Two ways through a chunk:
//!
//! - **in order** ([`PageWalk::new`]): header after header, each one's end found by decoding
//!   it. A header is decoded from a prefix of 256 bytes, grown fourfold while it runs past the
//!   end (bounded by the file and [`Limits::page_bytes`]); then the page's body is asked for.
//!   It stops once the data pages' headers account for `num_values`, or at the chunk's end.
//! - **by the offset index** ([`PageWalk::with_offset_index`]): only the data pages whose rows
//!   meet a selection are asked for, each exactly (`offset .. offset + compressed_page_size`);
//!   a dictionary page before the first location is walked in order first. Pages outside the
//!   selection are never asked for. An index that contradicts the chunk (a location outside
//!   it, locations that do not tile the chunk's data pages back to back up to its end, first
//!   rows not increasing from 0 within the row group) is not used: the walk falls back to the in-order walk, which gives the same pages. A page
//!   header that disagrees with its location is an error.
//!
//! For example, a chunk at offset 4 with a 13-byte header and a 32-byte dictionary body:
//!
//! ```text
//! step(window = nothing)        -> Need(4..260)    a header prefix (capped by the file)
//! step(window = 4..260)         -> Page { offset 4, header_len 13, body 17..49 }
//! step(window = 4..260)         -> Page { offset 49, ... }   (the next header is in the window)
//! ```
//!
//! Never panics, for any input; a `Need` is never larger than the file, and one for a page body
//! is first checked against [`Limits::page_bytes`].
//!
//! An encrypted chunk (feature `encryption`, a reader opened with its key): each page header is
//! a module (Encryption.md 5.1: 4-byte length, 12-byte nonce, ciphertext, 16-byte tag), asked
//! for whole once its length is held, then decrypted and authenticated with its AAD (4.4):
//! the dictionary page header's (module type 5) for the chunk's first page when it
//! authenticates as one, else the data page header's (type 4) with the data page's ordinal,
//! counted from 0 without the dictionary page (through the offset index: the location's
//! ordinal). `header_len` is then the module's length, and `compressed_page_size` that of the
//! body's module, which the readers decrypt as the walk says (types 3 and 2, GCM or CTR).

use alloc::vec::Vec;
use core::ops::Range;

use crate::error::{Error, ErrorKind, Result};
use crate::format::{ColumnMetaData, OffsetIndex, PageHeader, PageType};
use crate::limits::Limits;

use super::chunk::ChunkRange;
use crate::predicate::RowRanges;

/// The first prefix of a page header asked for: most headers are a few dozen bytes.
const HEADER_PREFIX: u64 = 256;

/// What [`PageWalk::step`] answers.
// A step is returned once per page and matched at once; boxing the page would allocate per page.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// The walk needs these file bytes (all of them, in one window) to go on.
    Need(Range<u64>),
    /// The next page.
    Page(WalkPage),
    /// The chunk has no more pages to give (see [`PageWalk::values_seen`]).
    Done,
}

/// A page found by the walk: its header and where its body is.
#[derive(Debug, Clone, PartialEq)]
pub struct WalkPage {
    /// File offset of the page's header.
    pub offset: u64,
    /// The decoded header.
    pub header: PageHeader,
    /// Bytes of the Thrift-encoded header (of an encrypted header: of its module).
    pub header_len: usize,
    /// File bytes of the body (`compressed_page_size` of them), inside the file.
    pub body: Range<u64>,
    /// The page's ordinal in the chunk (the dictionary page is page 0).
    pub ordinal: usize,
    /// For a data page found through the offset index: the rows of the row group it holds.
    pub rows: Option<Range<u64>>,
}

/// A data page as the offset index places it, checked against its chunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Located {
    offset: u64,
    len: u64,
    rows: (u64, u64),
    ordinal: usize,
}

/// A step of the walk: [`PageWalk::step_located`], held by [`PageWalk`] as a pointer.
type StepFn = fn(&mut PageWalk, &[u8], u64) -> Result<Step>;

/// [`PageWalk::check_lead_page`]'s type: the checks of a page the in-order walk reads before
/// an offset index's first location or a part's first page.
type LeadFn = fn(&PageWalk, &PageHeader, u64, u64, u64) -> Result<()>;

/// The pages of one column chunk: see the [module documentation](self).
#[derive(Debug, Clone)]
pub struct PageWalk {
    range: ChunkRange,
    file_len: u64,
    limits: Limits,
    /// File offset of the next page header of the in-order walk.
    pos: u64,
    /// Level positions the data page headers walked so far declare.
    values_seen: u64,
    /// Ordinal of the next page.
    ordinal: usize,
    /// With an offset index: the selected pages (in order) and the next one; the in-order walk
    /// runs up to `dict_end` (the first location) first.
    located: Option<(Vec<Located>, usize)>,
    /// [`PageWalk::step_located`] once an offset index is in use: called through this
    /// pointer, which only [`PageWalk::with_offset_index`] sets, so that a program that never
    /// walks by the index links none of its code.
    by_index: Option<StepFn>,
    /// [`PageWalk::check_lead_page`] once an offset index is in use or the walk reads a part
    /// after its chunk's dictionary page: through this pointer, which only
    /// [`PageWalk::with_offset_index`] and [`PageWalk::part`] set, so that a program doing
    /// neither links none of those checks or their messages.
    check_lead: Option<LeadFn>,
    dict_end: u64,
    /// Pages of the chunk the offset index lists, when it is used.
    index_pages: usize,
    /// For an encrypted chunk: decrypts its page headers, and its pages for the readers.
    #[cfg(feature = "encryption")]
    crypt: Option<super::decrypt::ChunkDecryptor>,
    /// Whether the chunk's first page was its dictionary page: data page ordinals (which the
    /// AADs of encrypted data pages carry) are then page ordinals less one.
    #[cfg(feature = "encryption")]
    dictionary: bool,
    /// For a part of a chunk ([`PageWalk::part`]): after the dictionary page, the walk goes on
    /// at this offset, with this page ordinal.
    jump: Option<(u64, usize)>,
}

impl PageWalk {
    /// The in-order walk over the chunk `meta` of a file of `file_len` bytes whose row group
    /// has `num_rows` rows. Errors when the chunk's offsets and sizes are out of range.
    pub fn new(
        meta: &ColumnMetaData,
        file_len: u64,
        num_rows: i64,
        limits: Limits,
    ) -> Result<Self> {
        Ok(Self::from_range(
            ChunkRange::new(meta, file_len, num_rows)?,
            file_len,
            limits,
        ))
    }

    pub(crate) fn from_range(range: ChunkRange, file_len: u64, limits: Limits) -> Self {
        PageWalk {
            pos: range.start,
            range,
            file_len,
            limits,
            values_seen: 0,
            ordinal: 0,
            located: None,
            by_index: None,
            check_lead: None,
            dict_end: range.end,
            index_pages: 0,
            #[cfg(feature = "encryption")]
            crypt: None,
            #[cfg(feature = "encryption")]
            dictionary: false,
            jump: None,
        }
    }

    /// The in-order walk over a part of a chunk: the pages from `pages.start` (whose ordinal
    /// in the chunk is `ordinal`) up to `pages.end` or until they hold `range.num_values`,
    /// after the dictionary page at `range.start` when `dictionary` (a part of dictionary
    /// encoded pages needs it). `range` is the chunk's, its `num_values` the part's.
    pub(crate) fn part(
        range: ChunkRange,
        file_len: u64,
        limits: Limits,
        pages: Range<u64>,
        ordinal: usize,
        dictionary: bool,
    ) -> Self {
        let start = if dictionary { range.start } else { pages.start };
        let mut walk = Self::from_range(
            ChunkRange {
                start,
                end: pages.end,
                ..range
            },
            file_len,
            limits,
        );
        if dictionary {
            walk.jump = Some((pages.start, ordinal));
            walk.check_lead = Some(PageWalk::check_lead_page);
        } else {
            walk.ordinal = ordinal;
        }
        walk
    }

    /// Decrypts the chunk's page headers with `d` (an encrypted chunk: Encryption.md 5.1, each
    /// header a module of its 4-byte length, nonce, ciphertext and tag), and lends it to
    /// [`PageWalk::decrypt_page`] for the bodies.
    #[cfg(feature = "encryption")]
    pub(crate) fn with_decryptor(mut self, d: Option<super::decrypt::ChunkDecryptor>) -> Self {
        self.crypt = d;
        self
    }

    /// Whether the walk decrypts (its chunk is encrypted).
    #[cfg(feature = "encryption")]
    pub(crate) fn decrypts(&self) -> bool {
        self.crypt.is_some()
    }

    /// For an encrypted chunk, the body of `page` (found by this walk; `stored`: its
    /// `compressed_page_size` bytes as stored) decrypted, and its header as it applies to the
    /// plaintext: `compressed_page_size` the decrypted size, no `crc`. The CRC is over the page
    /// as stored (encrypted), and checked here when `verify_crc`. `None` for a plaintext chunk.
    #[cfg(feature = "encryption")]
    pub(crate) fn decrypt_page(
        &self,
        page: &WalkPage,
        stored: &[u8],
        verify_crc: bool,
    ) -> Result<Option<(PageHeader, Vec<u8>)>> {
        let Some(d) = &self.crypt else {
            return Ok(None);
        };
        let at = page.body.start;
        // Seen in the wild: parquet-java computes the CRC over the page as stored, that is
        // encrypted (encrypt_columns_and_footer_bloom_filter.parquet.encrypted).
        if let (Some(expected), true) = (page.header.crc, verify_crc) {
            let actual = crate::bytes::crc32::crc32(stored);
            if actual != expected as u32 {
                return Err(Error::new(ErrorKind::Checksum {
                    expected: expected as u32,
                    actual,
                })
                .at_offset(at));
            }
        }
        let ordinal = page.ordinal.saturating_sub(usize::from(self.dictionary));
        let plain = d
            .body(&page.header, ordinal, stored)
            .map_err(|e| e.at_offset(at))?;
        let mut header = page.header.clone();
        header.crc = None;
        header.compressed_page_size = i32::try_from(plain.len())
            .map_err(|_| Error::out_of_range("decrypted page size", plain.len() as i64))?;
        Ok(Some((header, plain)))
    }

    /// Walks only the data pages whose rows meet `rows`, as `index` (the chunk's offset index)
    /// places them, after the dictionary page if there is one. Returns the walk unchanged (in
    /// order over every page) when the index contradicts the chunk, and says which with
    /// [`PageWalk::uses_index`].
    pub fn with_offset_index(mut self, index: &OffsetIndex, rows: &RowRanges) -> Self {
        if let Some((all, dict_end)) = self.check_index(index) {
            self.index_pages = all.len();
            let chosen = all
                .into_iter()
                .filter(|p| rows.overlaps(p.rows.0..p.rows.1))
                .collect();
            self.located = Some((chosen, 0));
            self.by_index = Some(PageWalk::step_located);
            self.check_lead = Some(PageWalk::check_lead_page);
            self.dict_end = dict_end;
        }
        self
    }

    /// Whether the offset index drives the walk (it was given and agrees with the chunk).
    pub fn uses_index(&self) -> bool {
        self.located.is_some()
    }

    /// Data pages the offset index lists (0 when it is not used).
    pub fn index_pages(&self) -> usize {
        self.index_pages
    }

    /// The file bytes of the data pages the walk will visit through the offset index, in
    /// order (`None` for the in-order walk, which finds page ends as it goes).
    pub fn planned_ranges(&self) -> Option<Vec<Range<u64>>> {
        let (pages, next) = self.located.as_ref()?;
        Some(
            pages
                .get(*next..)
                .unwrap_or(&[])
                .iter()
                .map(|p| p.offset..p.offset + p.len)
                .collect(),
        )
    }

    /// The bytes before the first data page the index places: the dictionary page, if any
    /// (`None` for the in-order walk).
    pub fn dictionary_range(&self) -> Option<Range<u64>> {
        self.located.as_ref()?;
        Some(self.range.start..self.dict_end.max(self.range.start))
    }

    /// The chunk's bytes as `ColumnMetaData` places them (clipped to the file).
    pub fn chunk_range(&self) -> Range<u64> {
        self.range.start..self.range.end
    }

    /// Level positions that the data page headers walked so far declare.
    pub fn values_seen(&self) -> u64 {
        self.values_seen
    }

    /// `ColumnMetaData.num_values`.
    pub fn num_values(&self) -> u64 {
        self.range.num_values
    }

    /// The locations of `index`, checked: inside the chunk, in order, not overlapping, first
    /// rows increasing from 0 below the row group's rows. Also the first location's offset.
    fn check_index(&self, index: &OffsetIndex) -> Option<(Vec<Located>, u64)> {
        let locs = &index.page_locations;
        let first = locs.first()?;
        let n_rows = self.range.num_rows;
        if first.first_row_index != 0 || self.range.num_values == 0 {
            return None;
        }
        let mut out = Vec::with_capacity(locs.len());
        let mut prev_end = self.range.start;
        for (i, loc) in locs.iter().enumerate() {
            let offset = u64::try_from(loc.offset).ok()?;
            let len = u64::try_from(loc.compressed_page_size).ok()?;
            let row = u64::try_from(loc.first_row_index).ok()?;
            let next_row = match locs.get(i + 1) {
                Some(n) => u64::try_from(n.first_row_index).ok()?,
                None => n_rows,
            };
            let end = offset.checked_add(len)?;
            // Spec (PageIndex.md): the locations are the chunk's data pages in order. They must
            // tile the chunk back to back, so that no page can hide between two of them.
            if len == 0 || (i > 0 && offset != prev_end) || end > self.range.end || row >= next_row
            {
                return None;
            }
            if next_row > n_rows {
                return None;
            }
            prev_end = end;
            out.push(Located {
                offset,
                len,
                rows: (row, next_row),
                ordinal: i,
            });
        }
        if prev_end != self.range.end {
            return None;
        }
        let dict_end = u64::try_from(first.offset).ok()?;
        if dict_end < self.range.start {
            return None;
        }
        // The pages before the first location are the dictionary page: ordinals shift by one
        // when there is one.
        if dict_end > self.range.start {
            for p in &mut out {
                p.ordinal += 1;
            }
        }
        Some((out, dict_end))
    }

    /// The next step, given `window`: file bytes starting at offset `at` (any bytes the caller
    /// holds; an empty window is fine). Errors carry the file offset of the failing byte or
    /// page. After an error or [`Step::Done`] the walk should not be stepped again.
    pub fn step(&mut self, window: &[u8], at: u64) -> Result<Step> {
        // The in-order part: every page, or with an index the pages before its first location.
        let end = if self.located.is_some() {
            self.dict_end
        } else {
            self.range.end
        };
        if self.pos < end && (self.located.is_some() || self.values_seen < self.range.num_values) {
            return self.in_order(window, at, end);
        }
        match self.by_index {
            Some(step_located) => step_located(self, window, at),
            None => Ok(Step::Done),
        }
    }

    /// The next step of the walk through the offset index, after the in-order part.
    fn step_located(&mut self, window: &[u8], at: u64) -> Result<Step> {
        let Some((pages, next)) = self.located.as_mut() else {
            return Ok(Step::Done);
        };
        let Some(&p) = pages.get(*next) else {
            return Ok(Step::Done);
        };
        let Some(bytes) = slice(window, at, p.offset..p.offset + p.len) else {
            self.limits.check_page_bytes(p.len)?;
            return Ok(Step::Need(p.offset..p.offset + p.len));
        };
        let depth = self.limits.nesting_depth;
        #[cfg(feature = "encryption")]
        let decoded = match &self.crypt {
            // The offset index lists data pages only.
            Some(d) => d.header(
                bytes,
                false,
                p.ordinal.saturating_sub(usize::from(self.dictionary)),
                &self.limits,
            ),
            None => crate::thrift::decode_prefix::<PageHeader>(bytes, depth),
        };
        #[cfg(not(feature = "encryption"))]
        let decoded = crate::thrift::decode_prefix::<PageHeader>(bytes, depth);
        let (header, header_len) = decoded.map_err(|e| e.offset_by(p.offset))?;
        let size = body_size(&header)?;
        if (header_len as u64).saturating_add(size) != p.len
            || !matches!(header.type_, PageType::DataPage | PageType::DataPageV2)
        {
            return Err(Error::out_of_spec(
                "the offset index's page location disagrees with the page header there",
            )
            .at_offset(p.offset));
        }
        *next += 1;
        self.values_seen = self.values_seen.saturating_add(declared_values(&header));
        let body_at = p.offset + header_len as u64;
        Ok(Step::Page(WalkPage {
            offset: p.offset,
            header,
            header_len,
            body: body_at..body_at + size,
            ordinal: p.ordinal,
            rows: Some(p.rows.0..p.rows.1),
        }))
    }

    /// Checks a page at `pos` (its body ending at `body_end`) that the in-order walk reads
    /// before an offset index's first location (`end`), or before the first page of a part:
    /// only a dictionary page may come there, and it must end before them.
    fn check_lead_page(
        &self,
        header: &PageHeader,
        pos: u64,
        body_end: u64,
        end: u64,
    ) -> Result<()> {
        if self.located.is_some() {
            if body_end > end {
                return Err(Error::out_of_spec(
                    "a page before the offset index's first location runs past it",
                )
                .at_offset(pos));
            }
            if header.type_ != PageType::DictionaryPage {
                return Err(Error::out_of_spec(
                    "a data page that the offset index does not list precedes its first location",
                )
                .at_offset(pos));
            }
        }
        if let Some((to, _)) = self.jump {
            if header.type_ != PageType::DictionaryPage || body_end > to {
                return Err(Error::out_of_spec(
                    "the first page of a chunk read in parts is not a dictionary page before them",
                )
                .at_offset(pos));
            }
        }
        Ok(())
    }

    /// One step of the in-order walk, whose pages must start before `end`.
    fn in_order(&mut self, window: &[u8], at: u64, end: u64) -> Result<Step> {
        let pos = self.pos;
        let depth = self.limits.nesting_depth;
        // How far a header may reach: the file (and, before the first indexed page, that page).
        let mut cap = self
            .file_len
            .saturating_sub(pos)
            .min(self.limits.page_bytes.max(64));
        if self.located.is_some() {
            cap = cap.min(end - pos);
        }
        let held = slice_from(window, at, pos);
        #[cfg(feature = "encryption")]
        let decoded = match &self.crypt {
            Some(d) => {
                // The header is a module: its 4-byte length first, then all of it.
                let need = module_len(held);
                if (held.len() as u64) < need {
                    self.limits
                        .check_page_bytes(need)
                        .map_err(|e| e.at_offset(pos))?;
                    if need > cap {
                        return Err(Error::truncated("encrypted page header module", need, cap)
                            .at_offset(pos));
                    }
                    let first = HEADER_PREFIX.min(self.range.end.saturating_sub(pos).max(1));
                    return Ok(Step::Need(pos..pos + need.max(first).min(cap)));
                }
                let ordinal = self.ordinal.saturating_sub(usize::from(self.dictionary));
                d.header(held, pos == self.range.start, ordinal, &self.limits)
            }
            None => crate::thrift::decode_prefix::<PageHeader>(held, depth),
        };
        #[cfg(not(feature = "encryption"))]
        let decoded = crate::thrift::decode_prefix::<PageHeader>(held, depth);
        let (header, header_len) = match decoded {
            Ok(v) => v,
            Err(e)
                if matches!(e.kind(), ErrorKind::Truncated { .. }) && (held.len() as u64) < cap =>
            {
                // The first prefix stays inside the chunk (a caller who fetched exactly the
                // chunk has it); a header that runs past its end grows it beyond.
                let first = HEADER_PREFIX.min(self.range.end.saturating_sub(pos).max(1));
                let want = (held.len() as u64).saturating_mul(4).max(first).min(cap);
                return Ok(Step::Need(pos..pos + want));
            }
            Err(e) => return Err(e.offset_by(pos)),
        };
        let size = body_size(&header)?;
        self.limits
            .check_page_bytes(size)
            .map_err(|e| e.at_offset(pos))?;
        let body_at = pos + header_len as u64;
        let body_end = body_at.saturating_add(size);
        // Seen in the wild: the last page may end past total_compressed_size
        // (nation.dict-malformed.parquet); it must still end inside the file.
        if body_end > self.file_len {
            return Err(Error::truncated(
                "page body (compressed_page_size)",
                size,
                self.file_len.saturating_sub(body_at),
            )
            .at_offset(body_at));
        }
        if let Some(check) = self.check_lead {
            check(self, &header, pos, body_end, end)?;
        }
        if slice(window, at, pos..body_end).is_none() {
            return Ok(Step::Need(pos..body_end));
        }
        self.pos = body_end;
        self.values_seen = self.values_seen.saturating_add(declared_values(&header));
        let ordinal = self.ordinal;
        self.ordinal += 1;
        if let Some((to, next)) = self.jump.take() {
            self.pos = to;
            self.ordinal = next;
        }
        #[cfg(feature = "encryption")]
        if ordinal == 0 && header.type_ == PageType::DictionaryPage {
            self.dictionary = true;
        }
        Ok(Step::Page(WalkPage {
            offset: pos,
            header,
            header_len,
            body: body_at..body_end,
            ordinal,
            rows: None,
        }))
    }
}

/// `compressed_page_size`, checked non-negative.
fn body_size(header: &PageHeader) -> Result<u64> {
    u64::try_from(header.compressed_page_size).map_err(|_| {
        Error::out_of_range("compressed_page_size", header.compressed_page_size.into())
    })
}

/// The level positions a data page header declares (0 for other pages and negative counts).
pub(crate) fn declared_values(header: &PageHeader) -> u64 {
    let n = match header.type_ {
        PageType::DataPage => header.data_page_header.as_ref().map(|h| h.num_values),
        PageType::DataPageV2 => header.data_page_header_v2.as_ref().map(|h| h.num_values),
        _ => None,
    };
    n.and_then(|v| u64::try_from(v).ok()).unwrap_or(0)
}

/// The bytes an encrypted module at the front of `held` takes with its 4-byte length (4 while
/// the length is not held).
#[cfg(feature = "encryption")]
fn module_len(held: &[u8]) -> u64 {
    held.get(..4)
        .and_then(|l| <[u8; 4]>::try_from(l).ok())
        .map_or(4, |l| 4 + u64::from(u32::from_le_bytes(l)))
}

/// The bytes `range` of the file when `window` (file bytes from `at`) holds all of them.
pub(crate) fn slice(window: &[u8], at: u64, range: Range<u64>) -> Option<&[u8]> {
    let s = usize::try_from(range.start.checked_sub(at)?).ok()?;
    let e = usize::try_from(range.end.checked_sub(at)?).ok()?;
    window.get(s..e)
}

/// The bytes of `window` (file bytes from `at`) from file offset `pos` on (empty when it does
/// not hold `pos`).
fn slice_from(window: &[u8], at: u64, pos: u64) -> &[u8] {
    pos.checked_sub(at)
        .and_then(|s| usize::try_from(s).ok())
        .and_then(|s| window.get(s..))
        .unwrap_or(&[])
}

#[cfg(test)]
#[allow(clippy::single_range_in_vec_init)]
mod tests {
    use super::*;
    use crate::format::{DataPageHeader, Encoding, PageLocation};

    /// A chunk of `n` PLAIN INT32 pages of one value each, REQUIRED: the file bytes (4 bytes of
    /// magic first), and the metadata.
    fn chunk(n: usize) -> (Vec<u8>, ChunkRange, Vec<PageLocation>) {
        let mut file = b"PAR1".to_vec();
        let mut locs = Vec::new();
        for i in 0..n {
            let header = PageHeader {
                type_: PageType::DataPage,
                uncompressed_page_size: 4,
                compressed_page_size: 4,
                crc: None,
                data_page_header: Some(DataPageHeader {
                    num_values: 1,
                    encoding: Encoding::Plain,
                    definition_level_encoding: Encoding::Rle,
                    repetition_level_encoding: Encoding::Rle,
                    statistics: None,
                }),
                index_page_header: None,
                dictionary_page_header: None,
                data_page_header_v2: None,
            };
            let at = file.len();
            crate::thrift::encode(&header, &mut file);
            file.extend_from_slice(&(i as i32).to_le_bytes());
            locs.push(PageLocation {
                offset: at as i64,
                compressed_page_size: (file.len() - at) as i32,
                first_row_index: i as i64,
            });
        }
        let range = ChunkRange {
            start: 4,
            end: file.len() as u64,
            num_values: n as u64,
            num_rows: n as u64,
        };
        file.extend_from_slice(b"PAR1");
        (file, range, locs)
    }

    /// Drives `walk` over `file` as a caller owning the IO would: fetch exactly what is asked.
    fn drive(mut walk: PageWalk, file: &[u8]) -> (Vec<WalkPage>, Vec<Range<u64>>) {
        let (mut window, mut at, mut pages, mut asked) = (Vec::new(), 0u64, Vec::new(), Vec::new());
        loop {
            match walk.step(&window, at).unwrap() {
                Step::Need(r) => {
                    window = file[r.start as usize..r.end as usize].to_vec();
                    at = r.start;
                    asked.push(r);
                }
                Step::Page(p) => pages.push(p),
                Step::Done => return (pages, asked),
            }
        }
    }

    #[test]
    fn in_order_walk_asks_for_prefixes_and_pages() {
        let (file, meta, locs) = chunk(3);
        let len = file.len() as u64;
        let walk = PageWalk::from_range(meta, len, Limits::default());
        let (pages, asked) = drive(walk, &file);
        assert_eq!(pages.len(), 3);
        assert_eq!(pages[1].offset, locs[1].offset as u64);
        // The first prefix is capped by the chunk; it holds every page, so nothing more is asked.
        assert_eq!(asked, [4..len - 4]);
        // Over the whole file at once: no request at all.
        let mut walk = PageWalk::from_range(meta, len, Limits::default());
        assert!(
            matches!(walk.step(&file, 0).unwrap(), Step::Page(p) if p.body.end - p.body.start == 4)
        );
    }

    #[test]
    fn offset_index_walk_asks_for_exactly_the_selected_pages() {
        let (file, meta, locs) = chunk(4);
        let index = OffsetIndex {
            page_locations: locs.clone(),
            unencoded_byte_array_data_bytes: None,
        };
        let walk = PageWalk::from_range(meta, file.len() as u64, Limits::default())
            .with_offset_index(&index, &RowRanges::from_ranges([2..3]));
        assert!(walk.uses_index());
        let (pages, asked) = drive(walk, &file);
        let l = &locs[2];
        assert_eq!(
            asked,
            [l.offset as u64..(l.offset + l.compressed_page_size as i64) as u64]
        );
        assert_eq!((pages.len(), pages[0].rows.clone()), (1, Some(2..3)));
        assert_eq!(
            &file[pages[0].body.start as usize..pages[0].body.end as usize],
            2i32.to_le_bytes()
        );
    }

    #[test]
    fn a_lying_offset_index_is_not_used() {
        let (file, meta, locs) = chunk(3);
        let len = file.len() as u64;
        let lies: [fn(&mut Vec<PageLocation>); 6] = [
            |l| l.swap(0, 1),             // out of order
            |l| l[1].offset = 1 << 40,    // outside the chunk
            |l| l[2].first_row_index = 1, // rows not increasing
            |l| l[0].first_row_index = 1, // not starting at row 0
            |l| l[2].first_row_index = 7, // past the row group
            |l| {
                l.remove(1); // a page left out
            },
        ];
        for lie in lies {
            let mut page_locations = locs.clone();
            lie(&mut page_locations);
            let index = OffsetIndex {
                page_locations,
                unencoded_byte_array_data_bytes: None,
            };
            let walk = PageWalk::from_range(meta, len, Limits::default())
                .with_offset_index(&index, &RowRanges::from_ranges([0..1]));
            assert!(!walk.uses_index());
            assert_eq!(drive(walk, &file).0.len(), 3);
        }
        // A size that disagrees with the header is an error at that page.
        let mut page_locations = locs.clone();
        page_locations[1].compressed_page_size -= 1; // still back to back, but not the pages
        page_locations[2].offset -= 1;
        page_locations[2].compressed_page_size += 1;
        let index = OffsetIndex {
            page_locations,
            unencoded_byte_array_data_bytes: None,
        };
        let mut walk = PageWalk::from_range(meta, len, Limits::default())
            .with_offset_index(&index, &RowRanges::from_ranges([1..2]));
        let e = walk.step(&file, 0).unwrap_err();
        assert_eq!(e.location().offset, Some(locs[1].offset as u64));
    }
}
