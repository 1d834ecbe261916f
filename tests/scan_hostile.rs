//! Hostile page indexes: a file whose column and offset indexes lie (offsets outside the
//! chunk or in another chunk, locations out of order or left out, first rows not starting at
//! 0, not increasing or past the row group, sizes that disagree with the page headers, huge
//! sizes and lengths, null pages with bounds, a column index longer or shorter than the pages,
//! min above max) is scanned with predicates and row selections. Every scan gives the rows the
//! honest file gives, or a clear error (what the offset index says wrong, where); never a wrong
//! answer, a panic or a runaway allocation (the counting allocator refuses anything past
//! [`CAP`] while the scans run).
//!
//! One lie cannot be caught without reading the pages a scan skips: `first_row_index` values
//! shifted for pages in the middle of a chunk (page 0 says rows 0..25, page 1 25..45, ... where
//! each holds 20). The pages whose row count is then wrong (the first and the last) are caught
//! when read (`one first row moved` below); a scan that reads only pages in between, whose
//! counts are right, gets the rows the index names. arrow-rs and parquet-java trust the index
//! the same way. It is left out of the list.

#[path = "common/counting.rs"]
mod counting;

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

use std::sync::atomic::Ordering::Relaxed;

use parket::format::{ColumnIndex, FileMetaData, OffsetIndex};
use parket::predicate::Predicate;
use parket::read::{FileReader, RowRanges};
use parket::record::Value;
use parket::schema::Schema;
use parket::write::{FileWriter, WriteOptions};

/// The most heap a scan of the small test file may hold.
const CAP: usize = 64 << 20;

/// 600 rows in two row groups, pages of 20 rows: `id` sorted, `s` with a run of nulls (whole
/// null pages), `x` doubles.
fn honest() -> (Schema, Vec<u8>) {
    let schema = Schema::parse(
        "message m { required int64 id; optional binary s (STRING); optional double x; }",
    )
    .unwrap();
    let records: Vec<Value> = (0..600i64)
        .map(|i| {
            Value::Group(vec![
                Value::Int64(i),
                if (100..160).contains(&i) || i % 11 == 0 {
                    Value::Null
                } else {
                    Value::Bytes(format!("v{}", i % 17).into_bytes())
                },
                if i % 9 == 0 {
                    Value::Null
                } else {
                    Value::Double((i % 23) as f64 / 4.0)
                },
            ])
        })
        .collect();
    let options = WriteOptions::default()
        .max_rows_per_page(20)
        .row_group_rows(300)
        .dictionary(false);
    let mut w = FileWriter::new(Vec::new(), schema.clone(), options).unwrap();
    w.write_records(&records).unwrap();
    w.finish().unwrap();
    (schema, w.into_inner())
}

/// `bytes` with every chunk's indexes replaced by `lie`'s edit of them (appended after the
/// old ones; the footer re-encoded to point at them). `lie` may also edit the pointers.
fn lying(
    bytes: &[u8],
    lie: &dyn Fn(usize, usize, &mut ColumnIndex, &mut OffsetIndex, &mut FileMetaData),
) -> Vec<u8> {
    let file = FileReader::from_bytes(bytes).unwrap();
    let mut md = file.metadata().clone();
    let footer_len =
        u32::from_le_bytes(bytes[bytes.len() - 8..bytes.len() - 4].try_into().unwrap());
    let mut out = bytes[..bytes.len() - 8 - footer_len as usize].to_vec();
    for rg in 0..md.row_groups.len() {
        for c in 0..md.row_groups[rg].columns.len() {
            let mut ci = file.column_index(rg, c).unwrap().unwrap();
            let mut oi = file.offset_index(rg, c).unwrap().unwrap();
            let at = out.len() as i64;
            let mut enc = Vec::new();
            lie(rg, c, &mut ci, &mut oi, &mut md);
            ci.encode(&mut enc);
            let ci_len = enc.len() as i32;
            oi.encode(&mut enc);
            let oi_len = enc.len() as i32 - ci_len;
            out.extend_from_slice(&enc);
            let chunk = &mut md.row_groups[rg].columns[c];
            // The pointers, unless the lie set them.
            if chunk.column_index_length
                == file.metadata().row_groups[rg].columns[c].column_index_length
            {
                chunk.column_index_offset = Some(at);
                chunk.column_index_length = Some(ci_len);
            }
            if chunk.offset_index_length
                == file.metadata().row_groups[rg].columns[c].offset_index_length
            {
                chunk.offset_index_offset = Some(at + ci_len as i64);
                chunk.offset_index_length = Some(oi_len);
            }
        }
    }
    let mut footer = Vec::new();
    md.encode(&mut footer);
    out.extend_from_slice(&footer);
    out.extend_from_slice(&(footer.len() as u32).to_le_bytes());
    out.extend_from_slice(b"PAR1");
    out
}

/// What the scans select: a predicate text and a row selection.
const QUERIES: [(&str, Option<[std::ops::Range<u64>; 2]>); 8] = [
    ("id = 150", None),
    ("id >= 250 AND id < 270", None),
    ("s IS NULL", None),
    ("s = 'v3'", None),
    ("x > 5.0 OR id = 10", None),
    ("NOT id < 590", None),
    ("s IS NOT NULL AND id > 100 AND id < 170", None),
    ("id != 3", Some([123..130, 400..401])),
];

/// The rows (whole records) each query selects, or its error.
fn scan_all(bytes: &[u8], schema: &Schema) -> Vec<Result<Vec<Value>, String>> {
    let file = match FileReader::from_bytes(bytes) {
        Ok(f) => f,
        Err(e) => return vec![Err(format!("open: {e}"))],
    };
    QUERIES
        .iter()
        .map(|(text, rows)| {
            let p = Predicate::parse(text, schema).map_err(|e| e.to_string())?;
            let mut b = file.scan().predicate(p).batch_size(7);
            if let Some(r) = rows {
                b = b.rows(RowRanges::from_ranges(r.clone()));
            }
            // explain() and byte_ranges() plan through the same indexes.
            b.explain().map_err(|e| format!("explain: {e}"))?;
            b.byte_ranges(0).map_err(|e| format!("byte_ranges: {e}"))?;
            b.build()
                .map_err(|e| e.to_string())?
                .records()
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| e.to_string())
        })
        .collect()
}

type Lie = fn(usize, usize, &mut ColumnIndex, &mut OffsetIndex, &mut FileMetaData);

fn lies() -> Vec<(&'static str, Lie)> {
    vec![
        // Offset index.
        ("offset outside the file", |_, _, _, o, _| {
            o.page_locations[1].offset += 1 << 40
        }),
        ("offset in another chunk", |_, c, _, o, md| {
            let other = md.row_groups[0].columns[(c + 1) % 3]
                .meta_data
                .as_ref()
                .unwrap();
            o.page_locations[2].offset = other.data_page_offset;
        }),
        ("offset before the chunk", |_, _, _, o, _| {
            o.page_locations[0].offset = 4
        }),
        ("negative offset", |_, _, _, o, _| {
            o.page_locations[1].offset = -7
        }),
        ("locations out of order", |_, _, _, o, _| {
            o.page_locations.swap(1, 2)
        }),
        ("locations reversed", |_, _, _, o, _| {
            o.page_locations.reverse()
        }),
        ("a location left out", |_, _, _, o, _| {
            o.page_locations.remove(3);
        }),
        ("a location twice", |_, _, _, o, _| {
            let l = o.page_locations[4].clone();
            o.page_locations.insert(4, l);
        }),
        ("no locations", |_, _, _, o, _| o.page_locations.clear()),
        ("first row not 0", |_, _, _, o, _| {
            o.page_locations[0].first_row_index = 3
        }),
        ("first rows not increasing", |_, _, _, o, _| {
            o.page_locations[5].first_row_index = o.page_locations[4].first_row_index
        }),
        ("first rows decreasing", |_, _, _, o, _| {
            o.page_locations[5].first_row_index = 1
        }),
        ("first row past the row group", |_, _, _, o, _| {
            o.page_locations.last_mut().unwrap().first_row_index = 1000
        }),
        ("negative first row", |_, _, _, o, _| {
            o.page_locations[2].first_row_index = -40
        }),
        ("one first row moved", |_, _, _, o, _| {
            o.page_locations[7].first_row_index += 3
        }),
        ("size one short, next page one early", |_, _, _, o, _| {
            o.page_locations[1].compressed_page_size -= 1;
            o.page_locations[2].offset -= 1;
            o.page_locations[2].compressed_page_size += 1;
        }),
        ("two pages merged into one location", |_, _, _, o, _| {
            let next = o.page_locations.remove(3);
            o.page_locations[2].compressed_page_size += next.compressed_page_size;
        }),
        ("huge size", |_, _, _, o, _| {
            o.page_locations.last_mut().unwrap().compressed_page_size = i32::MAX
        }),
        ("zero size", |_, _, _, o, _| {
            o.page_locations[2].compressed_page_size = 0
        }),
        ("negative size", |_, _, _, o, _| {
            o.page_locations[2].compressed_page_size = -20
        }),
        // Column index.
        ("a null page with bounds", |_, _, ci, _, _| {
            ci.null_pages[2] = true;
        }),
        ("every page null, with bounds", |_, _, ci, _, _| {
            ci.null_pages.iter_mut().for_each(|p| *p = true);
        }),
        ("a null page with a null count of 0", |_, _, ci, _, _| {
            ci.null_pages[2] = true;
            ci.min_values[2].clear();
            ci.max_values[2].clear();
            if let Some(n) = &mut ci.null_counts {
                n[2] = 0;
            }
        }),
        ("column index longer than the pages", |_, _, ci, _, _| {
            let (lo, hi) = (ci.min_values[0].clone(), ci.max_values[0].clone());
            for _ in 0..5 {
                ci.null_pages.push(false);
                ci.min_values.push(lo.clone());
                ci.max_values.push(hi.clone());
                if let Some(n) = &mut ci.null_counts {
                    n.push(0);
                }
            }
        }),
        ("column index shorter than the pages", |_, _, ci, _, _| {
            ci.null_pages.pop();
            ci.min_values.pop();
            ci.max_values.pop();
            if let Some(n) = &mut ci.null_counts {
                n.pop();
            }
        }),
        ("min values shorter than null pages", |_, _, ci, _, _| {
            ci.min_values.pop();
        }),
        ("null counts longer", |_, _, ci, _, _| {
            if let Some(n) = &mut ci.null_counts {
                n.push(0);
            }
        }),
        ("bounds of the wrong width", |_, _, ci, _, _| {
            for v in ci.min_values.iter_mut().chain(&mut ci.max_values) {
                v.truncate(3);
            }
        }),
        ("min above max", |_, _, ci, _, _| {
            std::mem::swap(&mut ci.min_values, &mut ci.max_values);
        }),
        // Pointers.
        ("column index length huge", |_, _, _, _, md| {
            for rg in &mut md.row_groups {
                for c in &mut rg.columns {
                    c.column_index_length = Some(i32::MAX);
                }
            }
        }),
        ("offset index length huge", |_, _, _, _, md| {
            for rg in &mut md.row_groups {
                for c in &mut rg.columns {
                    c.offset_index_length = Some(i32::MAX);
                }
            }
        }),
        ("offset index length negative", |_, _, _, _, md| {
            for rg in &mut md.row_groups {
                for c in &mut rg.columns {
                    c.offset_index_length = Some(-5);
                }
            }
        }),
        ("indexes swapped between columns", |_, _, _, _, md| {
            for rg in &mut md.row_groups {
                let a = (
                    rg.columns[0].offset_index_offset,
                    rg.columns[0].offset_index_length,
                );
                let b = (
                    rg.columns[2].offset_index_offset,
                    rg.columns[2].offset_index_length,
                );
                (
                    rg.columns[0].offset_index_offset,
                    rg.columns[0].offset_index_length,
                ) = b;
                (
                    rg.columns[2].offset_index_offset,
                    rg.columns[2].offset_index_length,
                ) = a;
            }
        }),
    ]
}

#[test]
fn lying_indexes_give_the_honest_rows_or_an_error() {
    let (schema, bytes) = honest();
    let truth: Vec<Vec<Value>> = scan_all(&bytes, &schema)
        .into_iter()
        .map(|r| r.unwrap())
        .collect();
    assert!(truth.iter().all(|r| !r.is_empty()));
    let mut errors = Vec::new();
    let mut wrong = Vec::new();
    for (name, lie) in lies() {
        // Lie in every chunk, and in one chunk only (row group 1, column `s`).
        for only in [None, Some((1usize, 1usize))] {
            let hostile = lying(&bytes, &|rg, c, ci, oi, md| {
                if only.is_none_or(|o| o == (rg, c)) {
                    lie(rg, c, ci, oi, md)
                }
            });
            counting::CAP.store(counting::CURRENT.load(Relaxed) + CAP, Relaxed);
            let got = scan_all(&hostile, &schema);
            counting::CAP.store(usize::MAX, Relaxed);
            // The file fuzz harness (slice and one-byte reader agree; predicate scans through
            // the lying indexes) must not panic either.
            #[cfg(feature = "fuzzing")]
            parket::read::fuzz::fuzz_file(&hostile);
            for ((q, g), t) in QUERIES.iter().zip(&got).zip(&truth) {
                match g {
                    Ok(rows) if rows == t => {}
                    Ok(rows) => wrong.push(format!(
                        "{name} ({only:?}): {} gives {} rows, the honest file {}",
                        q.0,
                        rows.len(),
                        t.len()
                    )),
                    Err(e) => errors.push(format!("{name} ({only:?}): {}: {e}", q.0)),
                }
            }
        }
    }
    for e in &errors {
        eprintln!("error (allowed): {e}");
    }
    assert!(wrong.is_empty(), "wrong answers:\n{}", wrong.join("\n"));
    // An error names what is wrong: the offset index (never an unrelated decoding failure).
    for e in &errors {
        assert!(e.contains("offset index"), "unclear error: {e}");
    }
}

/// Indexes and statistics that say every row of a page (or of a row group) matches when some
/// do not: bounds narrowed inside the predicate's range, null counts of 0 beside nulls. The
/// scan takes "every row matches" as a hint only (it checks the batch's own values before
/// skipping the evaluation), so it gives the honest rows; pruning by the same metadata stays
/// as trusting as arrow-rs's and parquet-java's (the lies here keep every page that holds a
/// match).
#[test]
fn metadata_that_says_every_row_matches_is_checked() {
    let (schema, bytes) = honest();
    let queries = [
        "id >= 255 AND id < 300",
        "NOT id < 575",
        "x >= 0.0",
        "x >= 0.0 AND id >= 255",
        "s >= 'v'",
        "s IS NOT NULL AND x IS NOT NULL",
    ];
    let rows = |bytes: &[u8], page_index: bool| -> Vec<Vec<Value>> {
        let file = FileReader::from_bytes(bytes).unwrap();
        queries
            .iter()
            .map(|q| {
                let p = Predicate::parse(q, &schema).unwrap();
                file.scan()
                    .predicate(p)
                    .use_page_index(page_index)
                    .batch_size(7)
                    .build()
                    .unwrap()
                    .records()
                    .collect::<Result<Vec<_>, _>>()
                    .unwrap()
            })
            .collect()
    };
    let truth = rows(&bytes, true);
    // The honest rows, by hand for two of them.
    assert_eq!(truth[0].len(), 45);
    assert_eq!(truth[1].len(), 25);
    assert!(truth.iter().all(|r| !r.is_empty()));
    let narrowed: Lie = |_, c, ci, _, md| {
        // Each page of `id` says its last five values are all it holds; `x`'s and `s`'s pages
        // and chunks say they hold no null.
        if c == 0 {
            for (lo, hi) in ci.min_values.iter_mut().zip(&ci.max_values) {
                let max = i64::from_le_bytes(hi[..].try_into().unwrap());
                *lo = (max - 4).to_le_bytes().to_vec();
            }
        } else if let Some(n) = &mut ci.null_counts {
            n.iter_mut().for_each(|n| *n = 0);
        }
        for rg in &mut md.row_groups {
            if let Some(st) = rg.columns[c]
                .meta_data
                .as_mut()
                .unwrap()
                .statistics
                .as_mut()
            {
                st.null_count = Some(0);
            }
        }
    };
    let hostile = lying(&bytes, &narrowed);
    // The lie is one the scan would take: the page index alone says every row of a page
    // matches where some do not.
    let file = FileReader::from_bytes(&hostile).unwrap();
    let ci = file.column_index(0, 0).unwrap().unwrap();
    assert_eq!(ci.min_values[12], 255i64.to_le_bytes()); // page 12 holds 240..=259
    for page_index in [true, false] {
        let got = rows(&hostile, page_index);
        for ((q, g), t) in queries.iter().zip(&got).zip(&truth) {
            assert_eq!(g, t, "{q} (page index {page_index})");
        }
    }
}
