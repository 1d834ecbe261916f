//! The mutator of the mutation tests: a seeded PRNG, where the parts of a valid file are
//! (footer, page headers, page bodies), and [`mutate`], which makes mutant `seed` of a file
//! (seeded bit flips, bytes set to extremes, truncations, and structure-aware corruptions of the
//! footer and of page headers: lengths, counts, offsets and types re-encoded with hostile
//! values). Shared by `tests/mutation.rs` (the library, in process, under a counting
//! allocator) and `tests/cli_memory_limit.rs` (the `parket` binary under a 2 GiB address
//! space).

// Each test binary uses some of these.
#![allow(dead_code)]

use parket::format::{Encoding, FileMetaData, PageHeader};

// ---------------------------------------------------------------------------------------
// A seeded PRNG (SplitMix64).

pub struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
    fn chance(&mut self, one_in: u64) -> bool {
        self.next() % one_in == 0
    }
    /// A hostile replacement for an integer field of value `orig`.
    fn int(&mut self, orig: i64) -> i64 {
        match self.below(12) {
            0 => 0,
            1 => -1,
            2 => i32::MAX as i64,
            3 => i32::MIN as i64,
            4 => i64::MAX,
            5 => i64::MIN,
            6 => orig.wrapping_add(1),
            7 => orig.wrapping_sub(1),
            8 => orig.wrapping_mul(2),
            9 => orig / 2,
            10 => orig.wrapping_add(self.below(4096) as i64 - 2048),
            _ => self.next() as i64 >> self.below(64),
        }
    }
    fn int32(&mut self, orig: i32) -> i32 {
        let v = self.int(orig as i64);
        if self.chance(2) {
            v as i32
        } else {
            v.clamp(i32::MIN as i64, i32::MAX as i64) as i32
        }
    }
}

// ---------------------------------------------------------------------------------------
// The valid files and where their parts are.

pub struct Layout_ {
    pub footer: std::ops::Range<usize>,
    /// (header range, body range) of every page found by walking the chunks.
    pub pages: Vec<(std::ops::Range<usize>, std::ops::Range<usize>)>,
    /// The (row group, column) of each page.
    pub chunk_of: Vec<(usize, usize)>,
    pub metadata: FileMetaData,
}

pub fn layout(file: &[u8]) -> Option<Layout_> {
    let n = file.len();
    let len = u32::from_le_bytes(file.get(n.checked_sub(8)?..n - 4)?.try_into().ok()?) as usize;
    let start = n.checked_sub(8 + len)?;
    let metadata = FileMetaData::decode(file.get(start..n - 8)?).ok()?;
    let mut pages = Vec::new();
    let mut chunk_of = Vec::new();
    for (i, rg) in metadata.row_groups.iter().enumerate() {
        for (j, c) in rg.columns.iter().enumerate() {
            let Some(m) = &c.meta_data else { continue };
            let mut pos = match m.dictionary_page_offset {
                Some(d) if d >= 4 && d < m.data_page_offset => d as usize,
                _ => m.data_page_offset.max(0) as usize,
            };
            let end = pos.saturating_add(m.total_compressed_size.max(0) as usize);
            while pos < end.min(start) {
                let Some(Ok((h, used))) = file.get(pos..).map(PageHeader::decode) else {
                    break;
                };
                let body = pos + used..pos + used + h.compressed_page_size.max(0) as usize;
                if body.end > start {
                    break;
                }
                pages.push((pos..pos + used, body.clone()));
                chunk_of.push((i, j));
                pos = body.end;
            }
        }
    }
    Some(Layout_ {
        footer: start..n - 8,
        pages,
        chunk_of,
        metadata,
    })
}

/// Rebuilds a file with `footer` in place of its footer.
pub fn with_footer(file: &[u8], l: &Layout_, footer: &[u8]) -> Vec<u8> {
    let mut out = file[..l.footer.start].to_vec();
    out.extend_from_slice(footer);
    out.extend_from_slice(&(footer.len() as u32).to_le_bytes());
    out.extend_from_slice(b"PAR1");
    out
}

// ---------------------------------------------------------------------------------------
// Mutations.

/// Makes mutant `seed` of `file`; returns it and what was done.
pub fn mutate(file: &[u8], l: &Layout_, seed: u64) -> (Vec<u8>, String) {
    let mut rng = Rng(seed.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ 0x5eed);
    let mut out = file.to_vec();
    let kind = rng.below(12);
    let what = match kind {
        // Bit flips anywhere.
        0 => {
            let k = 1 + rng.below(4);
            let mut at = Vec::new();
            for _ in 0..k {
                let p = rng.below(out.len());
                out[p] ^= 1 << rng.below(8);
                at.push(p);
            }
            format!("bit flips at {at:?}")
        }
        // Truncation (keeping or dropping the tail).
        1 => {
            let cut = rng.below(out.len());
            if rng.chance(2) {
                out.truncate(cut);
                format!("truncated to {cut} bytes")
            } else {
                let len = 1 + rng.below(out.len() - cut).min(4096);
                let end = (cut + len).min(out.len().saturating_sub(8));
                if cut < end {
                    out.drain(cut..end);
                }
                format!("bytes {cut}..{end} removed")
            }
        }
        // Footer bytes: flips, extremes, a varint made huge, a field type changed.
        2 | 3 => {
            let f = l.footer.clone();
            let p = f.start + rng.below(f.len());
            match rng.below(4) {
                0 => {
                    out[p] ^= 1 << rng.below(8);
                    format!("footer bit flip at {p}")
                }
                1 => {
                    let v = [0x00, 0xff, 0x7f, 0x80][rng.below(4)];
                    out[p] = v;
                    format!("footer byte {p} set to {v:#x}")
                }
                2 => {
                    // A run of continuation bytes: a varint of 10 bytes, or an overlong one.
                    let n = (1 + rng.below(10)).min(f.end - p);
                    for b in &mut out[p..p + n] {
                        *b |= 0x80;
                    }
                    format!(
                        "footer bytes {p}..{} given the varint continuation bit",
                        p + n
                    )
                }
                _ => {
                    let t = rng.below(16) as u8;
                    out[p] = (out[p] & 0xf0) | t;
                    format!("footer byte {p} given type nibble {t}")
                }
            }
        }
        // The footer length.
        4 => {
            let n = out.len();
            let v = match rng.below(4) {
                0 => u32::MAX,
                1 => (l.footer.len() as u32).wrapping_add(rng.below(16) as u32),
                2 => (l.footer.len() as u32).wrapping_sub(1 + rng.below(16) as u32),
                _ => rng.next() as u32,
            };
            out[n - 8..n - 4].copy_from_slice(&v.to_le_bytes());
            format!("footer length set to {v}")
        }
        // The footer, structure-aware.
        5 | 6 => {
            let mut md = l.metadata.clone();
            let what = mutate_metadata(&mut md, &mut rng);
            let mut footer = Vec::new();
            md.encode(&mut footer);
            out = with_footer(file, l, &footer);
            what
        }
        // A page header, structure-aware or bytewise.
        7 | 8 if !l.pages.is_empty() => {
            let (h, _) = l.pages[rng.below(l.pages.len())].clone();
            if kind == 7 {
                let (mut header, used) = PageHeader::decode(&file[h.clone()]).expect("header");
                assert_eq!(used, h.len());
                let what = mutate_header(&mut header, &mut rng);
                let mut bytes = Vec::new();
                header.encode(&mut bytes);
                out.splice(h.clone(), bytes.iter().copied());
                // The footer's offsets no longer fit when the header changed length: keep the
                // footer as it was (that mismatch is a corruption worth reading too).
                format!("page header at {}: {what}", h.start)
            } else {
                let p = h.start + rng.below(h.len());
                let v = match rng.below(3) {
                    0 => out[p] ^ (1 << rng.below(8)),
                    1 => [0x00, 0xff, 0x7f, 0x80][rng.below(4)],
                    _ => rng.next() as u8,
                };
                out[p] = v;
                format!("page header byte {p} set to {v:#x}")
            }
        }
        // Compound: a page's num_values and its chunk's num_values and rows made huge
        // together (each alone is caught by the other), so the page's level runs are
        // decoded to the page's count.
        10 if !l.pages.is_empty() => {
            let k = rng.below(l.pages.len());
            let (h, _) = l.pages[k].clone();
            let (i, j) = l.chunk_of[k];
            let (mut header, _) = PageHeader::decode(&file[h.clone()]).expect("header");
            let big = [i32::MAX, 1 << 30, 1 << 27, 100_000_000][rng.below(4)];
            if let Some(d) = header.data_page_header.as_mut() {
                d.num_values = big;
            } else if let Some(d) = header.data_page_header_v2.as_mut() {
                d.num_values = big;
                d.num_rows = big;
            } else {
                return (out, "nothing (not a data page)".into());
            }
            let mut bytes = Vec::new();
            header.encode(&mut bytes);
            out.splice(h.clone(), bytes.iter().copied());
            let delta = out.len() as i64 - file.len() as i64;
            let mut md = l.metadata.clone();
            md.row_groups[i].num_rows = big as i64;
            if let Some(m) = md.row_groups[i].columns[j].meta_data.as_mut() {
                m.num_values = big as i64;
                m.total_compressed_size += delta;
            }
            let mut footer = Vec::new();
            md.encode(&mut footer);
            out.truncate((l.footer.start as i64 + delta) as usize);
            out.extend_from_slice(&footer);
            out.extend_from_slice(&(footer.len() as u32).to_le_bytes());
            out.extend_from_slice(b"PAR1");
            format!(
                "page at {} and its chunk ({i}, {j}): num_values = {big}",
                h.start
            )
        }
        // A page body.
        _ if !l.pages.is_empty() => {
            let (_, b) = l.pages[rng.below(l.pages.len())].clone();
            if b.is_empty() {
                return (out, "nothing (empty page body)".into());
            }
            let k = 1 + rng.below(3);
            let mut at = Vec::new();
            for _ in 0..k {
                let p = b.start + rng.below(b.len());
                if rng.chance(2) {
                    out[p] ^= 1 << rng.below(8);
                } else {
                    out[p] = rng.next() as u8;
                }
                at.push(p);
            }
            format!("page body bytes {at:?} changed")
        }
        _ => {
            let p = rng.below(out.len());
            out[p] = rng.next() as u8;
            format!("byte {p} randomized")
        }
    };
    (out, what)
}

fn mutate_metadata(md: &mut FileMetaData, rng: &mut Rng) -> String {
    let nrg = md.row_groups.len();
    let choice = rng.below(14);
    if choice < 9 && nrg > 0 {
        let i = rng.below(nrg);
        let rg = &mut md.row_groups[i];
        if choice == 0 {
            rg.num_rows = rng.int(rg.num_rows);
            return format!("row group {i} num_rows = {}", rg.num_rows);
        }
        let nc = rg.columns.len();
        if nc == 0 {
            return "nothing (no columns)".into();
        }
        let j = rng.below(nc);
        if choice == 8 {
            rg.columns.remove(j);
            return format!("row group {i} column {j} removed");
        }
        let Some(m) = rg.columns[j].meta_data.as_mut() else {
            return "nothing (encrypted column)".into();
        };
        let at = format!("row group {i} column {j}");
        return match choice {
            1 => {
                m.num_values = rng.int(m.num_values);
                format!("{at} num_values = {}", m.num_values)
            }
            2 => {
                m.data_page_offset = rng.int(m.data_page_offset);
                format!("{at} data_page_offset = {}", m.data_page_offset)
            }
            3 => {
                let v = rng.int(m.dictionary_page_offset.unwrap_or(m.data_page_offset));
                m.dictionary_page_offset = Some(v);
                format!("{at} dictionary_page_offset = {v}")
            }
            4 => {
                m.total_compressed_size = rng.int(m.total_compressed_size);
                format!("{at} total_compressed_size = {}", m.total_compressed_size)
            }
            5 => {
                let codecs = [0, 1, 2, 3, 4, 5, 6, 7, 99];
                let c = codecs[rng.below(codecs.len())];
                match parket::format::CompressionCodec::try_from(c) {
                    Ok(codec) => {
                        m.codec = codec;
                        format!("{at} codec = {codec}")
                    }
                    Err(_) => "nothing (unknown codec)".into(),
                }
            }
            6 => {
                m.dictionary_page_offset = None;
                format!("{at} dictionary_page_offset removed")
            }
            _ => {
                let t = rng.below(8) as i32;
                match parket::format::PhysicalType::try_from(t) {
                    Ok(pt) => {
                        m.type_ = pt;
                        format!("{at} type = {pt}")
                    }
                    Err(_) => "nothing".into(),
                }
            }
        };
    }
    let ns = md.schema.len();
    if ns == 0 {
        return "nothing (no schema)".into();
    }
    let k = rng.below(ns);
    let e = &mut md.schema[k];
    match choice {
        9 => {
            e.type_length = Some(rng.int32(e.type_length.unwrap_or(4)));
            format!("schema element {k} type_length = {:?}", e.type_length)
        }
        10 => {
            e.num_children = Some(rng.int32(e.num_children.unwrap_or(1)));
            format!("schema element {k} num_children = {:?}", e.num_children)
        }
        11 => {
            let r = rng.below(3) as i32;
            e.repetition_type = parket::format::FieldRepetitionType::try_from(r).ok();
            format!("schema element {k} repetition = {:?}", e.repetition_type)
        }
        12 => {
            let t = rng.below(8) as i32;
            e.type_ = parket::format::PhysicalType::try_from(t).ok();
            format!("schema element {k} type = {:?}", e.type_)
        }
        _ => {
            md.num_rows = rng.int(md.num_rows);
            format!("num_rows = {}", md.num_rows)
        }
    }
}

fn mutate_header(h: &mut PageHeader, rng: &mut Rng) -> String {
    let enc = |rng: &mut Rng| Encoding::try_from(rng.below(10) as i32).unwrap_or(Encoding::Plain);
    match rng.below(10) {
        0 => {
            h.uncompressed_page_size = rng.int32(h.uncompressed_page_size);
            format!("uncompressed_page_size = {}", h.uncompressed_page_size)
        }
        1 => {
            h.compressed_page_size = rng.int32(h.compressed_page_size);
            format!("compressed_page_size = {}", h.compressed_page_size)
        }
        2 => {
            let t = rng.below(4) as i32;
            h.type_ = parket::format::PageType::try_from(t).unwrap_or(h.type_);
            format!("type = {}", h.type_)
        }
        3 => {
            h.crc = Some(rng.next() as i32);
            "crc changed".into()
        }
        _ => {
            if let Some(d) = h.data_page_header.as_mut() {
                match rng.below(3) {
                    0 => {
                        d.num_values = rng.int32(d.num_values);
                        format!("num_values = {}", d.num_values)
                    }
                    1 => {
                        d.encoding = enc(rng);
                        format!("encoding = {}", d.encoding)
                    }
                    _ => {
                        d.definition_level_encoding = enc(rng);
                        format!(
                            "definition_level_encoding = {}",
                            d.definition_level_encoding
                        )
                    }
                }
            } else if let Some(d) = h.data_page_header_v2.as_mut() {
                match rng.below(7) {
                    0 => {
                        d.num_values = rng.int32(d.num_values);
                        format!("num_values = {}", d.num_values)
                    }
                    1 => {
                        d.num_nulls = rng.int32(d.num_nulls);
                        format!("num_nulls = {}", d.num_nulls)
                    }
                    2 => {
                        d.num_rows = rng.int32(d.num_rows);
                        format!("num_rows = {}", d.num_rows)
                    }
                    3 => {
                        d.definition_levels_byte_length =
                            rng.int32(d.definition_levels_byte_length);
                        format!("def length = {}", d.definition_levels_byte_length)
                    }
                    4 => {
                        d.repetition_levels_byte_length =
                            rng.int32(d.repetition_levels_byte_length);
                        format!("rep length = {}", d.repetition_levels_byte_length)
                    }
                    5 => {
                        d.is_compressed = Some(!d.is_compressed.unwrap_or(true));
                        format!("is_compressed = {:?}", d.is_compressed)
                    }
                    _ => {
                        d.encoding = enc(rng);
                        format!("encoding = {}", d.encoding)
                    }
                }
            } else if let Some(d) = h.dictionary_page_header.as_mut() {
                if rng.chance(2) {
                    d.num_values = rng.int32(d.num_values);
                    format!("dictionary num_values = {}", d.num_values)
                } else {
                    d.encoding = enc(rng);
                    format!("dictionary encoding = {}", d.encoding)
                }
            } else {
                "nothing (index page)".into()
            }
        }
    }
}
