//! `parket layout (--svg OUT.svg | --html OUT.html) [--where EXPR] FILE`: a picture of the
//! file, drawn to scale by byte size, and of its pages by row.
//!
//! The file is a strip of bytes wrapped into rows (offset 0 at the top left): magic, pages
//! (page header darker than its body; colored by page type), column index, offset index,
//! bloom filters, footer (FileMetaData, one box per field and per row group's metadata) and
//! tail (footer length + magic); bytes no structure claims are grey. Under each row, two
//! labelled bands say which column chunk (by column) and which row group the bytes belong to.
//! Every box has a hover title with its offset and size; boxes wide enough carry a label.
//!
//! Below, the view by row: per row group, one lane per column and one box per data page over
//! the rows it holds (PageIndex.md: from the offset index's `first_row_index`), so pages of
//! different columns line up by row (spec-notes/20). With `--where`, the rows the predicate may
//! select (after statistics, dictionaries, Bloom filters and the page index) are drawn in red,
//! and the pages a scan reads solid, those it skips pale. The HTML page adds the table of
//! every region.
//!
//! Plain string building, no dependency: the output is checked as XML by tests/cli_pages.rs.

use std::fmt::Write as _;
use std::io::{Read, Seek, SeekFrom};
use std::ops::Range;

use parket::format::{BloomFilterHeader, ColumnChunk, ColumnMetaData, FileMetaData, PageType};
use parket::read::scan::RowGroupPlan;
use parket::read::FileReader;

use crate::args::Args;

/// What a run of bytes is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Magic,
    PageHeader,
    DictionaryPage,
    DataPage,
    DataPageV2,
    IndexPage,
    Unreadable,
    ColumnIndex,
    OffsetIndex,
    BloomFilter,
    ChunkMetaData,
    Footer,
    Tail,
    Unclaimed,
}

impl Kind {
    fn color(self) -> &'static str {
        match self {
            Kind::Magic => "#444444",
            Kind::PageHeader => "#1f3b73",
            Kind::DictionaryPage => "#e6a23c",
            Kind::DataPage => "#4e8fd6",
            Kind::DataPageV2 => "#47b39c",
            Kind::IndexPage => "#999966",
            Kind::Unreadable => "#d9534f",
            Kind::ColumnIndex => "#9b59b6",
            Kind::OffsetIndex => "#c39bd3",
            Kind::BloomFilter => "#e67e22",
            Kind::ChunkMetaData => "#7f8c8d",
            Kind::Footer => "#2c3e50",
            Kind::Tail => "#111111",
            Kind::Unclaimed => "#dddddd",
        }
    }
    fn name(self) -> &'static str {
        match self {
            Kind::Magic => "magic PAR1",
            Kind::PageHeader => "page header",
            Kind::DictionaryPage => "dictionary page",
            Kind::DataPage => "data page (V1)",
            Kind::DataPageV2 => "data page V2",
            Kind::IndexPage => "index page",
            Kind::Unreadable => "unreadable / encrypted chunk",
            Kind::ColumnIndex => "column index",
            Kind::OffsetIndex => "offset index",
            Kind::BloomFilter => "bloom filter",
            Kind::ChunkMetaData => "chunk metadata copy (file_offset)",
            Kind::Footer => "footer (FileMetaData)",
            Kind::Tail => "footer length + PAR1",
            Kind::Unclaimed => "bytes nothing points to",
        }
    }
    fn short(self) -> &'static str {
        match self {
            Kind::Magic => "PAR1",
            Kind::PageHeader => "hdr",
            Kind::DictionaryPage => "dict",
            Kind::DataPage => "data",
            Kind::DataPageV2 => "v2",
            Kind::IndexPage => "idx",
            Kind::Unreadable => "?",
            Kind::ColumnIndex => "CI",
            Kind::OffsetIndex => "OI",
            Kind::BloomFilter => "bloom",
            Kind::ChunkMetaData => "meta",
            Kind::Footer => "footer",
            Kind::Tail => "tail",
            Kind::Unclaimed => "",
        }
    }
}

/// One run of bytes of the file.
#[derive(Debug, Clone)]
pub struct Region {
    pub start: u64,
    pub len: u64,
    pub kind: Kind,
    /// A label for the box (when it fits).
    pub label: String,
    /// The hover text.
    pub title: String,
    /// Row group and column of a page (for the bands under the strip).
    pub chunk: Option<(usize, usize)>,
    /// Body encoding and codec of a page (for the title).
    pub detail: String,
}

fn region(
    start: u64,
    len: u64,
    kind: Kind,
    label: String,
    chunk: Option<(usize, usize)>,
) -> Region {
    Region {
        start,
        len,
        kind,
        title: String::new(),
        label,
        chunk,
        detail: String::new(),
    }
}

fn read_at(f: &mut std::fs::File, at: u64, n: usize) -> Option<Vec<u8>> {
    let mut buf = vec![0; n];
    f.seek(SeekFrom::Start(at)).ok()?;
    f.read_exact(&mut buf).ok()?;
    Some(buf)
}

/// Every region of the file, sorted by offset, gaps filled with [`Kind::Unclaimed`].
pub fn regions(path: &str, file: &FileReader<'_>) -> Result<Vec<Region>, String> {
    let len = file.file_len();
    let mut f = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let mut out = vec![region(0, 4.min(len), Kind::Magic, String::new(), None)];
    let md = file.metadata();
    let schema = file.schema();
    for (rg, group) in md.row_groups.iter().enumerate() {
        for (j, cc) in group.columns.iter().enumerate() {
            let path_s = schema
                .column(j)
                .map(|c| c.path_string())
                .unwrap_or_else(|| format!("#{j}"));
            let chunk = Some((rg, j));
            let fallback = |out: &mut Vec<Region>, why: &str| {
                if let Some(m) = &cc.meta_data {
                    let start = match m.dictionary_page_offset {
                        Some(d) if d >= 4 && d < m.data_page_offset => d,
                        _ => m.data_page_offset,
                    };
                    if let (Ok(s), Ok(n)) =
                        (u64::try_from(start), u64::try_from(m.total_compressed_size))
                    {
                        let mut r = region(s, n, Kind::Unreadable, path_s.clone(), chunk);
                        r.detail = why.to_string();
                        out.push(r);
                    }
                }
            };
            if cc.crypto_metadata.is_some() || cc.meta_data.is_none() {
                fallback(&mut out, "encrypted column chunk");
                continue;
            }
            let codec = cc.meta_data.as_ref().map(|m| m.codec.name()).unwrap_or("?");
            match file.pages(rg, j) {
                Err(e) => fallback(&mut out, &e.to_string()),
                Ok(pages) => {
                    for (k, p) in pages.enumerate() {
                        let p = match p {
                            Ok(p) => p,
                            Err(e) => {
                                fallback(&mut out, &e.to_string());
                                break;
                            }
                        };
                        let h = &p.header;
                        let (kind, enc) = match h.type_ {
                            PageType::DictionaryPage => (
                                Kind::DictionaryPage,
                                h.dictionary_page_header.as_ref().map(|d| d.encoding.name()),
                            ),
                            PageType::DataPage => (
                                Kind::DataPage,
                                h.data_page_header.as_ref().map(|d| d.encoding.name()),
                            ),
                            PageType::DataPageV2 => (
                                Kind::DataPageV2,
                                h.data_page_header_v2.as_ref().map(|d| d.encoding.name()),
                            ),
                            _ => (Kind::IndexPage, None),
                        };
                        let mut hr = region(
                            p.offset,
                            p.header_len as u64,
                            Kind::PageHeader,
                            String::new(),
                            chunk,
                        );
                        hr.detail = format!("header of page {k} of {path_s}");
                        out.push(hr);
                        let mut br = region(
                            p.offset + p.header_len as u64,
                            p.body.len() as u64,
                            kind,
                            format!("{path_s} p{k}"),
                            chunk,
                        );
                        br.detail = format!(
                            "page {k} of {path_s}: {}, {}, {codec}",
                            h.type_.name(),
                            enc.unwrap_or("-")
                        );
                        out.push(br);
                    }
                }
            }
            // Seen in the wild: old parquet-mr writes a copy of the ColumnMetaData after each
            // chunk, where the deprecated ColumnChunk.file_offset points.
            let first_page = out.iter().rev().find(|r| r.chunk == chunk).map(|r| r.start);
            if let Ok(o) = u64::try_from(cc.file_offset) {
                let in_pages = out
                    .iter()
                    .any(|r| r.chunk == chunk && r.start <= o && o < r.start + r.len);
                if o >= 4 && o < len && !in_pages && Some(o) != first_page {
                    let cap = len.saturating_sub(o).min(1 << 20) as usize;
                    let used = read_at(&mut f, o, cap).and_then(|b| {
                        // A whole ColumnChunk in the files seen (file_offset first), else ColumnMetaData.
                        parket::thrift::decode_prefix::<ColumnChunk>(&b, 64)
                            .map(|(_, n)| n)
                            .or_else(|_| {
                                parket::thrift::decode_prefix::<ColumnMetaData>(&b, 64)
                                    .map(|(_, n)| n)
                            })
                            .ok()
                    });
                    if let Some(n) = used {
                        let mut r = region(o, n as u64, Kind::ChunkMetaData, path_s.clone(), chunk);
                        r.detail = format!("copy of the chunk metadata of {path_s}, where ColumnChunk.file_offset points");
                        out.push(r);
                    }
                }
            }
            let spans = [
                (
                    cc.column_index_offset,
                    cc.column_index_length,
                    Kind::ColumnIndex,
                ),
                (
                    cc.offset_index_offset,
                    cc.offset_index_length,
                    Kind::OffsetIndex,
                ),
            ];
            for (o, l, kind) in spans {
                if let (Some(o), Some(l)) = (o, l) {
                    if let (Ok(o), Ok(l)) = (u64::try_from(o), u64::try_from(l)) {
                        let mut r = region(o, l, kind, path_s.clone(), chunk);
                        r.detail = format!("{} of {path_s}", kind.name());
                        out.push(r);
                    }
                }
            }
            if let Some(m) = &cc.meta_data {
                if let Some(o) = m.bloom_filter_offset.and_then(|o| u64::try_from(o).ok()) {
                    let l = match m.bloom_filter_length.and_then(|l| u64::try_from(l).ok()) {
                        Some(l) => Some(l),
                        None => read_at(&mut f, o, 64.min(len.saturating_sub(o) as usize))
                            .and_then(|b| {
                                parket::thrift::decode_prefix::<BloomFilterHeader>(&b, 16).ok()
                            })
                            .and_then(|(h, used)| {
                                u64::try_from(h.num_bytes).ok().map(|n| n + used as u64)
                            }),
                    };
                    if let Some(l) = l {
                        let mut r = region(o, l, Kind::BloomFilter, path_s.clone(), chunk);
                        r.detail = format!("bloom filter of {path_s}");
                        out.push(r);
                    }
                }
            }
        }
    }
    if len >= 12 {
        if let Some(tail) = read_at(&mut f, len - 8, 8) {
            let footer_len = u64::from(u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]));
            let start = (len - 8).saturating_sub(footer_len);
            let n = len - 8 - start;
            let parts = (n <= FOOTER_PARTS_MAX)
                .then(|| read_at(&mut f, start, n as usize))
                .flatten()
                .and_then(|b| footer_parts(&b));
            match parts {
                Some(parts) => {
                    for (r, name) in parts {
                        let mut reg = region(
                            start + r.start as u64,
                            r.len() as u64,
                            Kind::Footer,
                            name.clone(),
                            None,
                        );
                        reg.detail = format!("footer: {name}");
                        out.push(reg);
                    }
                }
                None => out.push(region(start, n, Kind::Footer, String::new(), None)),
            }
            out.push(region(len - 8, 8, Kind::Tail, String::new(), None));
        }
    }
    // Keep what lies inside the file; sort; fill the gaps.
    out.retain(|r| r.len > 0 && r.start < len);
    for r in &mut out {
        r.len = r.len.min(len - r.start);
    }
    out.sort_by_key(|r| (r.start, r.kind == Kind::PageHeader));
    let mut filled = Vec::with_capacity(out.len() * 2);
    let mut pos = 0u64;
    for r in out {
        if r.start > pos {
            filled.push(region(
                pos,
                r.start - pos,
                Kind::Unclaimed,
                String::new(),
                None,
            ));
        }
        pos = pos.max(r.start + r.len);
        filled.push(r);
    }
    if pos < len {
        filled.push(region(pos, len - pos, Kind::Unclaimed, String::new(), None));
    }
    for r in &mut filled {
        let what = if r.detail.is_empty() {
            r.kind.name().to_string()
        } else {
            r.detail.clone()
        };
        r.title = format!(
            "{what}\noffset {} .. {} ({} bytes)",
            r.start,
            r.start + r.len,
            r.len
        );
    }
    Ok(filled)
}

/// Footers up to this size are broken into their fields.
const FOOTER_PARTS_MAX: u64 = 64 << 20;

/// The parts of a plaintext footer: each top-level field of the FileMetaData (from its field
/// header to the next one's), the row groups one by one, and whatever follows the struct (the
/// signature of a plaintext footer in encryption). `None` when the bytes do not annotate (an
/// encrypted footer).
pub fn footer_parts(bytes: &[u8]) -> Option<Vec<(std::ops::Range<usize>, String)>> {
    let (items, used) = parket::thrift::annotate(
        bytes,
        <FileMetaData as parket::thrift::StructDef>::FIELDS,
        &crate::dump::lookup,
        64,
    )
    .ok()?;
    // Cut points: every top-level field, and every element of `row_groups`.
    let mut cuts: Vec<(usize, String)> = Vec::new();
    let mut in_row_groups = false;
    let mut k = 0;
    for a in &items {
        match (a.depth, a.field_id, a.field) {
            (0, Some(id), f) => {
                let name = f.map_or_else(
                    || format!("field {id}"),
                    |f| f.name.trim_end_matches('_').to_string(),
                );
                in_row_groups = name == "row_groups";
                cuts.push((a.range.start, name));
            }
            (1, None, _) if in_row_groups => {
                cuts.push((a.range.start, format!("row_groups[{k}]")));
                k += 1;
            }
            _ => {}
        }
    }
    let mut parts = Vec::with_capacity(cuts.len() + 1);
    for (i, (at, name)) in cuts.iter().enumerate() {
        let end = cuts.get(i + 1).map_or(used, |c| c.0);
        parts.push((*at..end, name.clone()));
    }
    if used < bytes.len() {
        parts.push((used..bytes.len(), "signature (nonce + tag)".to_string()));
    }
    Some(parts)
}

/// Escapes text for XML content and attributes.
pub fn xml_escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&apos;"),
            '\n' => o.push_str("&#10;"),
            c if (c as u32) < 0x20 && c != '\t' => o.push(' '),
            c => o.push(c),
        }
    }
    o
}

const LEFT: f64 = 90.0;
const WIDTH: f64 = 1200.0;
const ROW_H: f64 = 30.0;
const BAND_H: f64 = 10.0;
const ROW_GAP: f64 = 14.0;
const TOP: f64 = 56.0;
const CHAR_W: f64 = 6.6;
/// Width of a character of the bands' 8-point labels.
const BAND_CHAR_W: f64 = 4.8;

fn column_color(j: usize) -> String {
    // Golden-angle hues: neighbours differ.
    let hue = (j as f64 * 137.508) % 360.0;
    format!("hsl({hue:.0},55%,55%)")
}

fn human(n: u64) -> String {
    match n {
        n if n >= 1 << 30 => format!("{:.1} GiB", n as f64 / (1u64 << 30) as f64),
        n if n >= 1 << 20 => format!("{:.1} MiB", n as f64 / (1u64 << 20) as f64),
        n if n >= 1 << 10 => format!("{:.1} KiB", n as f64 / 1024.0),
        n => format!("{n} B"),
    }
}

/// The SVG picture of `regions` (of a file of `len` bytes).
pub fn svg(
    name: &str,
    file: &FileReader<'_>,
    regions: &[Region],
    selection: Option<&[RowGroupPlan]>,
) -> String {
    let len = file.file_len().max(1);
    let rows = len.div_ceil(2048).clamp(1, 24);
    let per_row = len.div_ceil(rows).max(1);
    let scale = WIDTH / per_row as f64;
    let row_y = |r: u64| TOP + r as f64 * (ROW_H + 2.0 * BAND_H + ROW_GAP);
    let strip_bottom = row_y(rows);
    let kinds: Vec<Kind> = {
        let mut k: Vec<Kind> = Vec::new();
        for r in regions {
            if !k.contains(&r.kind) {
                k.push(r.kind);
            }
        }
        k
    };
    let legend_rows = kinds.len().div_ceil(4) as f64;
    let rows_top = strip_bottom + 30.0 + legend_rows * 20.0;
    let (rows_view, rows_height) = rows_view(file, selection, rows_top);
    let height = rows_top + rows_height;
    let total_w = LEFT + WIDTH + 20.0;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{total_w:.0}" height="{height:.0}" viewBox="0 0 {total_w:.0} {height:.0}" font-family="sans-serif" font-size="11">"#
    );
    let _ = writeln!(
        s,
        r##"<rect x="0" y="0" width="{total_w:.0}" height="{height:.0}" fill="#ffffff"/>"##
    );
    let md = file.metadata();
    let _ = writeln!(
        s,
        r#"<text x="10" y="20" font-size="15" font-weight="bold">{}</text>"#,
        xml_escape(name)
    );
    let _ = writeln!(
        s,
        r##"<text x="10" y="40" fill="#444444">{} bytes ({}), {} rows, {} row group(s), {} column(s); drawn to scale: {} bytes per row, 1 px = {:.1} bytes. Under each row: column chunk (by column), row group.</text>"##,
        len,
        human(len),
        md.num_rows,
        md.row_groups.len(),
        file.schema().columns().len(),
        per_row,
        1.0 / scale
    );
    for r in 0..rows {
        let y = row_y(r);
        let _ = writeln!(
            s,
            r##"<text x="{:.0}" y="{:.1}" text-anchor="end" fill="#666666">{}</text>"##,
            LEFT - 6.0,
            y + ROW_H / 2.0 + 4.0,
            r * per_row
        );
        let _ = writeln!(
            s,
            r##"<rect x="{LEFT}" y="{y:.1}" width="{:.1}" height="{ROW_H}" fill="none" stroke="#cccccc"/>"##,
            ((len - (r * per_row).min(len)).min(per_row)) as f64 * scale
        );
    }
    // Pieces of column chunks, for the labelled bands under the strip.
    let mut bands: Vec<BandPiece> = Vec::new();
    for reg in regions {
        // Split the region at row boundaries.
        let mut at = reg.start;
        let end = reg.start + reg.len;
        while at < end {
            let row = at / per_row;
            let row_end = ((row + 1) * per_row).min(end);
            let x = LEFT + (at - row * per_row) as f64 * scale;
            let w = ((row_end - at) as f64 * scale).max(0.8);
            let y = row_y(row);
            let _ = write!(
                s,
                r##"<g><title>{}</title><rect x="{x:.2}" y="{y:.1}" width="{w:.2}" height="{ROW_H}" fill="{}"{}/>"##,
                xml_escape(&reg.title),
                reg.kind.color(),
                if w > 3.0 && reg.kind != Kind::PageHeader {
                    r##" stroke="#ffffff" stroke-width="0.5""##
                } else {
                    ""
                }
            );
            if let Some(chunk) = reg.chunk {
                bands.push((row, x, w, chunk));
            }
            // A label when it fits: the long one, else the short one.
            let long = if reg.label.is_empty() {
                String::new()
            } else {
                format!("{} {}", reg.kind.short(), reg.label)
            };
            let text = [long.as_str(), reg.kind.short()]
                .into_iter()
                .find(|t| !t.is_empty() && (t.chars().count() as f64) * CHAR_W + 6.0 <= w);
            if let Some(t) = text {
                let fill = if reg.kind == Kind::Unclaimed {
                    "#333333"
                } else {
                    "#ffffff"
                };
                let _ = write!(
                    s,
                    r#"<text x="{:.2}" y="{:.1}" fill="{fill}" pointer-events="none">{}</text>"#,
                    x + 3.0,
                    y + ROW_H / 2.0 + 4.0,
                    xml_escape(t)
                );
            }
            s.push_str("</g>\n");
            at = row_end;
        }
    }
    draw_bands(&mut s, file, &bands, &row_y);
    // Legend.
    let ly = strip_bottom + 20.0;
    let _ = writeln!(
        s,
        r#"<text x="10" y="{:.1}" font-weight="bold">legend</text>"#,
        ly
    );
    for (i, k) in kinds.iter().enumerate() {
        let x = LEFT + (i % 4) as f64 * 280.0;
        let y = ly + (i / 4) as f64 * 20.0 - 10.0;
        let _ = writeln!(
            s,
            r##"<rect x="{x:.0}" y="{y:.1}" width="14" height="12" fill="{}" stroke="#888888" stroke-width="0.5"/><text x="{:.0}" y="{:.1}">{}</text>"##,
            k.color(),
            x + 20.0,
            y + 10.0,
            xml_escape(k.name())
        );
    }
    s.push_str(&rows_view);
    s.push_str("</svg>\n");
    s
}

/// Most row groups drawn in the view by row.
const ROWS_VIEW_GROUPS: usize = 8;
/// Height of one column's lane in the view by row.
const LANE_H: f64 = 12.0;

/// The data pages of a column chunk as row ranges: from the offset index; without one, from
/// the page headers where they say (V2 pages' `num_rows`; V1 pages of a column that is not
/// repeated, one row per level). `None` when the rows are unknown without decoding levels.
fn page_rows(file: &FileReader<'_>, rg: usize, j: usize, num_rows: u64) -> Option<Vec<Range<u64>>> {
    if let Ok(Some(oi)) = file.offset_index(rg, j) {
        let firsts: Vec<u64> = oi
            .page_locations
            .iter()
            .map(|p| u64::try_from(p.first_row_index).ok())
            .collect::<Option<_>>()?;
        return Some(
            firsts
                .iter()
                .enumerate()
                .map(|(k, &a)| a..firsts.get(k + 1).copied().unwrap_or(num_rows).max(a))
                .collect(),
        );
    }
    let flat = file.schema().column(j)?.max_rep_level == 0;
    let mut at = 0u64;
    let mut out = Vec::new();
    for p in file.pages(rg, j).ok()? {
        let h = p.ok()?.header;
        let rows = match (h.type_, &h.data_page_header, &h.data_page_header_v2) {
            (PageType::DataPageV2, _, Some(v2)) => u64::try_from(v2.num_rows).ok()?,
            (PageType::DataPage, Some(v1), _) if flat => u64::try_from(v1.num_values).ok()?,
            (PageType::DataPage, _, _) => return None,
            _ => continue,
        };
        out.push(at..at + rows);
        at += rows;
    }
    Some(out)
}

/// The view by row: for each row group, one lane per column and one box per data page,
/// spanning the page's rows, so that pages of different columns line up by row. With a
/// selection (`--where`), the selected rows are drawn above the lanes and the pages a scan
/// reads are solid, the pages it skips pale. Returns the SVG and its height.
fn rows_view(file: &FileReader<'_>, selection: Option<&[RowGroupPlan]>, top: f64) -> (String, f64) {
    let md = file.metadata();
    let schema = file.schema();
    let mut s = String::new();
    let mut y = top;
    let groups = md.row_groups.len();
    let _ = writeln!(
        s,
        r#"<text x="10" y="{y:.1}" font-weight="bold">pages by row{}</text>"#,
        if groups > ROWS_VIEW_GROUPS {
            format!(" (the first {ROWS_VIEW_GROUPS} of {groups} row groups)")
        } else {
            String::new()
        }
    );
    y += 16.0;
    let _ = writeln!(
        s,
        r##"<text x="10" y="{y:.1}" fill="#444444">Each lane is a column, each box a data page over the rows it holds (from the offset index, else the page headers).{}</text>"##,
        if selection.is_some() {
            " Red: the rows --where may select; solid: pages a scan reads; pale: pages it skips."
        } else {
            ""
        }
    );
    y += 14.0;
    for (rg, group) in md.row_groups.iter().enumerate().take(ROWS_VIEW_GROUPS) {
        let num_rows = u64::try_from(group.num_rows).unwrap_or(0);
        let scale = WIDTH / num_rows.max(1) as f64;
        y += 12.0;
        let _ = writeln!(
            s,
            r#"<text x="10" y="{y:.1}" font-weight="bold">row group {rg}: {num_rows} rows</text>"#
        );
        y += 6.0;
        let selected: Option<Vec<Range<u64>>> = selection.map(|plans| {
            plans
                .iter()
                .find(|p| p.row_group == rg)
                .map(|p| p.rows.ranges().to_vec())
                .unwrap_or_default()
        });
        if let Some(sel) = &selected {
            let _ = write!(
                s,
                r##"<g class="selected"><title>rows selected: {}</title>"##,
                sel.iter()
                    .map(|r| format!("{}..{}", r.start, r.end))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            for r in sel {
                let _ = write!(
                    s,
                    r##"<rect x="{:.2}" y="{y:.1}" width="{:.2}" height="4" fill="#d62728"/>"##,
                    LEFT + r.start as f64 * scale,
                    ((r.end - r.start) as f64 * scale).max(0.8)
                );
            }
            s.push_str("</g>\n");
            y += 6.0;
        }
        for j in 0..group.columns.len() {
            let path = schema
                .column(j)
                .map(|c| c.path_string())
                .unwrap_or_else(|| format!("#{j}"));
            let short: String = if path.chars().count() > 14 {
                let tail: String = path
                    .chars()
                    .rev()
                    .take(13)
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect();
                format!("…{tail}")
            } else {
                path.clone()
            };
            let _ = writeln!(
                s,
                r##"<text x="{:.0}" y="{:.1}" text-anchor="end" font-size="9" fill="#444444"><title>{}</title>{}</text>"##,
                LEFT - 6.0,
                y + LANE_H - 3.0,
                xml_escape(&path),
                xml_escape(&short)
            );
            match page_rows(file, rg, j, num_rows) {
                None => {
                    let _ = writeln!(
                        s,
                        r##"<text x="{LEFT}" y="{:.1}" font-size="9" fill="#999999">no offset index: the rows of V1 pages of a repeated column are known only by decoding their levels</text>"##,
                        y + LANE_H - 3.0
                    );
                }
                Some(pages) => {
                    for (k, r) in pages.iter().enumerate() {
                        let read = selected.as_ref().is_none_or(|sel| {
                            sel.iter().any(|x| x.start < r.end && r.start < x.end)
                        });
                        let _ = writeln!(
                            s,
                            r##"<rect class="rowpage" data-rg="{rg}" data-col="{}" data-page="{k}" data-rows="{}..{}" data-read="{}" x="{:.2}" y="{y:.1}" width="{:.2}" height="{LANE_H}" fill="{}" fill-opacity="{}" stroke="#ffffff" stroke-width="0.5"><title>{} page {k}: rows {}..{}{}</title></rect>"##,
                            xml_escape(&path),
                            r.start,
                            r.end,
                            u8::from(read),
                            LEFT + r.start as f64 * scale,
                            ((r.end - r.start) as f64 * scale).max(0.8),
                            column_color(j),
                            if read { "1" } else { "0.25" },
                            xml_escape(&path),
                            r.start,
                            r.end,
                            match (&selected, read) {
                                (None, _) => "",
                                (Some(_), true) => " (read)",
                                (Some(_), false) => " (skipped)",
                            }
                        );
                    }
                }
            }
            y += LANE_H + 2.0;
        }
    }
    (s, y - top + 20.0)
}

/// A piece of a column chunk in a row of the strip: row, x, width, (row group, column).
type BandPiece = (u64, f64, f64, (usize, usize));

/// Adjacent pieces of one column chunk (or row group) in a row of the strip.
struct BandRun {
    row: u64,
    x: f64,
    end: f64,
    key: (usize, usize),
    label: String,
}

/// The two bands under each row of the strip: which column chunk (by column, labelled with
/// its path) and which row group (labelled `row group N`) the bytes above belong to. Adjacent
/// pieces of the same chunk or row group are drawn as one run, labelled once if it fits.
fn draw_bands(
    s: &mut String,
    file: &FileReader<'_>,
    pieces: &[BandPiece],
    row_y: &dyn Fn(u64) -> f64,
) {
    // Runs merged while adjacent with the same key.
    let runs = |key: &dyn Fn((usize, usize)) -> (usize, usize),
                label: &dyn Fn((usize, usize)) -> String| {
        let mut runs: Vec<BandRun> = Vec::new();
        for &(row, x, w, chunk) in pieces {
            let k = key(chunk);
            match runs.last_mut() {
                Some(r) if r.row == row && r.key == k && (x - r.end).abs() < 1.0 => {
                    r.end = r.end.max(x + w)
                }
                _ => runs.push(BandRun {
                    row,
                    x,
                    end: x + w,
                    key: k,
                    label: label(chunk),
                }),
            }
        }
        runs
    };
    let schema = file.schema();
    let column = runs(&|c| c, &|(_, j)| {
        schema
            .column(j)
            .map(|c| c.path_string())
            .unwrap_or_else(|| format!("#{j}"))
    });
    let group = runs(&|(rg, _)| (rg, 0), &|(rg, _)| format!("row group {rg}"));
    for (band, runs) in [(0.0, column), (1.0, group)] {
        for BandRun {
            row,
            x,
            end,
            key: (a, b),
            label,
        } in runs
        {
            let y = row_y(row) + ROW_H + 1.0 + band * BAND_H;
            let w = (end - x).max(0.8);
            let fill = if band == 0.0 {
                column_color(b)
            } else if a % 2 == 0 {
                "#555555".to_string()
            } else {
                "#999999".to_string()
            };
            let _ = write!(
                s,
                r##"<g class="band"><title>{}</title><rect x="{x:.2}" y="{y:.1}" width="{w:.2}" height="{BAND_H}" fill="{fill}" stroke="#ffffff" stroke-width="0.3"/>"##,
                xml_escape(&label)
            );
            if (label.chars().count() as f64) * BAND_CHAR_W + 4.0 <= w {
                let _ = write!(
                    s,
                    r##"<text x="{:.2}" y="{:.1}" font-size="8" fill="#ffffff" pointer-events="none">{}</text>"##,
                    x + 2.0,
                    y + BAND_H - 2.0,
                    xml_escape(&label)
                );
            }
            s.push_str("</g>\n");
        }
    }
}

/// The HTML page: the picture, then a table of the regions.
pub fn html(
    name: &str,
    file: &FileReader<'_>,
    regions: &[Region],
    selection: Option<&[RowGroupPlan]>,
) -> String {
    let mut s = String::from("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"/>");
    let _ = writeln!(
        s,
        "<title>{}</title><style>body{{font-family:sans-serif}} td,th{{padding:1px 8px;text-align:left}} td.n{{text-align:right}}</style></head><body>",
        xml_escape(name)
    );
    s.push_str(&svg(name, file, regions, selection));
    s.push_str("<table><tr><th>offset</th><th>bytes</th><th>what</th></tr>\n");
    for r in regions {
        let what = if r.detail.is_empty() {
            r.kind.name().to_string()
        } else {
            r.detail.clone()
        };
        let _ = writeln!(
            s,
            "<tr><td class=\"n\">{}</td><td class=\"n\">{}</td><td><span style=\"color:{}\">&#9632;</span> {}</td></tr>",
            r.start,
            r.len,
            r.kind.color(),
            xml_escape(&what)
        );
    }
    s.push_str("</table></body></html>\n");
    s
}

/// `parket layout`.
pub fn layout(mut args: Args) -> Result<(), String> {
    let svg_out = args.value("--svg")?;
    let html_out = args.value("--html")?;
    let filter = args.value("--where")?;
    let [path] = <[String; 1]>::try_from(args.positional(&["FILE"])?).unwrap_or_default();
    if svg_out.is_none() && html_out.is_none() {
        return Err("give --svg OUT.svg and/or --html OUT.html".into());
    }
    let file = crate::pages::open(&path)?;
    let regs = regions(&path, &file)?;
    let selection = match &filter {
        None => None,
        Some(text) => {
            let p = parket::predicate::Predicate::parse(text, file.schema())
                .map_err(|e| format!("--where: {e}"))?;
            Some(
                file.scan()
                    .predicate(p)
                    .plan()
                    .map_err(|e| crate::file_error(&path, e))?,
            )
        }
    };
    let selection = selection.as_deref();
    let name = std::path::Path::new(&path)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.clone());
    if let Some(o) = svg_out {
        std::fs::write(&o, svg(&name, &file, &regs, selection)).map_err(|e| format!("{o}: {e}"))?;
    }
    if let Some(o) = html_out {
        std::fs::write(&o, html(&name, &file, &regs, selection))
            .map_err(|e| format!("{o}: {e}"))?;
    }
    Ok(())
}
