//! Differential test of row selection against pyarrow.
//!
//! `tests/interop/where_gen.py` writes, per seed, a random flat file with pyarrow (nulls, NaN,
//! -0.0, integers signed and unsigned of every width, floats, strings, binary, DECIMAL on
//! INT32 / INT64 / FIXED_LEN_BYTE_ARRAY, DATE, TIME and TIMESTAMP of every unit, BOOLEAN; with
//! and without statistics, page index and dictionary; small pages and row groups) and random
//! predicates with the rows `pyarrow.parquet.read_table(filters=...)` selects (where pyarrow's
//! own statistics pruning drops rows, seen with NaN literals, the same filter applied to the
//! table in memory is the expectation; the test prints how often). parket reads
//! the predicate's columns with the reader, applies `Predicate::evaluate`, and must select
//! the same rows. Every pruning stage is checked too: a row group that statistics or
//! dictionaries or Bloom filters (pyarrow's, written for some columns of half the seeds) prune
//! holds no expected row, and every expected row is inside the page index's row ranges.
//!
//! Seeds: `PARKET_WHERE_SEEDS=A..B` (default `0..30`, a few seconds); a longer run is e.g.
//! `PARKET_WHERE_SEEDS=0..2000 cargo test --all-features --test predicate_interop`.

use std::path::Path;
use std::process::Command;

use parket::bloom::{hash_bytes, Sbbf};
use parket::format::{
    BloomFilterHeader, ColumnIndex, ColumnMetaData, Encoding, OffsetIndex, PageType,
};
use parket::predicate::{ColumnBatch, Predicate};
use parket::read::FileReader;
use parket::values::ValuesRef;

fn seeds() -> String {
    std::env::var("PARKET_WHERE_SEEDS").unwrap_or_else(|_| "0..30".into())
}

fn index<'a, T>(
    bytes: &'a [u8],
    off: Option<i64>,
    len: Option<i32>,
    decode: fn(&'a [u8]) -> parket::Result<(T, usize)>,
) -> Option<T> {
    let (o, l) = (usize::try_from(off?).ok()?, usize::try_from(len?).ok()?);
    decode(bytes.get(o..o.checked_add(l)?)?)
        .ok()
        .map(|(t, _)| t)
}

/// The Bloom filter of a column chunk, when it has one.
fn bloom(bytes: &[u8], meta: &ColumnMetaData) -> Option<Sbbf> {
    let start = usize::try_from(meta.bloom_filter_offset?).ok()?;
    let (header, hlen) = BloomFilterHeader::decode(bytes.get(start..)?).ok()?;
    let from = start + hlen;
    let bits = bytes.get(from..from + usize::try_from(header.num_bytes).ok()?)?;
    Sbbf::from_bytes(bits).ok()
}

/// Checks one case; returns a message on a mismatch.
fn check(
    file: &FileReader<'_>,
    bytes: &[u8],
    text: &str,
    expected: &[u64],
    pruned: &mut [u64; 5],
) -> Result<(), String> {
    let md = file.metadata();
    let p = Predicate::parse(text, file.schema()).map_err(|e| format!("parse: {e}"))?;
    let orders = md.column_orders.as_deref();
    let mut got = Vec::new();
    let mut base = 0u64;
    let mut keep = Vec::new();
    for (g, rg) in md.row_groups.iter().enumerate() {
        let n = rg.num_rows as u64;
        let here: Vec<u64> = expected
            .iter()
            .filter(|&&r| r >= base && r < base + n)
            .map(|r| r - base)
            .collect();
        let datas = file
            .read_row_group(g, p.columns())
            .map_err(|e| format!("read: {e}"))?;
        let batches: Vec<ColumnBatch<'_>> = datas
            .iter()
            .map(|d| ColumnBatch {
                values: d.values.as_ref(),
                def_levels: &d.def_levels,
            })
            .collect();
        p.evaluate(&batches, &mut keep)
            .map_err(|e| format!("evaluate: {e}"))?;
        got.extend(
            keep.iter()
                .enumerate()
                .filter(|(_, k)| **k)
                .map(|(i, _)| base + i as u64),
        );
        // Stage 1: statistics.
        pruned[0] += 1;
        let by_stats = !p.row_group_may_match(rg, orders);
        pruned[1] += u64::from(by_stats);
        if by_stats && !here.is_empty() {
            return Err(format!(
                "row group {g} pruned by statistics holds rows {here:?}"
            ));
        }
        // Stage 2: dictionaries of chunks whose data pages are all dictionary-encoded.
        let mut dicts = Vec::new();
        for &c in p.columns() {
            let meta = rg.columns[c].meta_data.as_ref().unwrap();
            let all_dict = meta.encoding_stats.as_ref().is_some_and(|s| {
                s.iter()
                    .filter(|e| matches!(e.page_type, PageType::DataPage | PageType::DataPageV2))
                    .all(|e| {
                        matches!(
                            e.encoding,
                            Encoding::PlainDictionary | Encoding::RleDictionary
                        )
                    })
            }) && meta.dictionary_page_offset.is_some();
            let mut chunk = file.column_chunk(g, c).map_err(|e| e.to_string())?;
            let _ = chunk.next_batch(1).map_err(|e| e.to_string())?;
            dicts.push(if all_dict {
                chunk.dictionary().map(|d| d.into_owned())
            } else {
                None
            });
        }
        let refs: Vec<Option<ValuesRef<'_>>> = dicts
            .iter()
            .map(|d| d.as_ref().map(|v| v.as_ref()))
            .collect();
        let by_dict = !p.dictionaries_may_match(&refs);
        pruned[2] += u64::from(by_dict);
        if by_dict && !here.is_empty() {
            return Err(format!(
                "row group {g} pruned by dictionaries holds rows {here:?}"
            ));
        }
        // Stage 3: Bloom filters.
        let filters: Vec<(usize, Sbbf)> = p
            .columns()
            .iter()
            .filter_map(|&c| Some((c, bloom(bytes, rg.columns[c].meta_data.as_ref()?)?)))
            .collect();
        let probe = |c: usize, b: &[u8]| {
            filters
                .iter()
                .find(|(fc, _)| *fc == c)
                .is_none_or(|(_, f)| f.check_hash(hash_bytes(b)))
        };
        let by_bloom = !p.bloom_may_match(probe);
        pruned[3] += u64::from(by_bloom);
        if by_bloom && !here.is_empty() {
            return Err(format!(
                "row group {g} pruned by Bloom filters holds rows {here:?}"
            ));
        }
        // Stage 4: the page index.
        let idx: Vec<Option<(ColumnIndex, OffsetIndex)>> = p
            .columns()
            .iter()
            .map(|&c| {
                let cc = &rg.columns[c];
                let ci = index(
                    bytes,
                    cc.column_index_offset,
                    cc.column_index_length,
                    ColumnIndex::decode,
                )?;
                let oi = index(
                    bytes,
                    cc.offset_index_offset,
                    cc.offset_index_length,
                    OffsetIndex::decode,
                )?;
                Some((ci, oi))
            })
            .collect();
        let idx_refs: Vec<_> = idx
            .iter()
            .map(|x| x.as_ref().map(|(a, b)| (a, b)))
            .collect();
        let ranges = p.page_row_ranges(rg, orders, &idx_refs);
        pruned[4] += n - ranges.row_count();
        if let Some(r) = here.iter().find(|&&r| !ranges.contains(r)) {
            return Err(format!(
                "row group {g}: row {r} (of the group) is outside the page index's ranges {:?}",
                ranges.ranges()
            ));
        }
        base += n;
    }
    if got != expected {
        return Err(format!(
            "parket selects {got:?}\npyarrow selects {expected:?}"
        ));
    }
    Ok(())
}

#[test]
fn row_selection_matches_pyarrow() {
    let spec = seeds();
    let dir = std::env::temp_dir().join(format!("parket-where-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/interop/where_gen.py");
    let out = Command::new("python3")
        .arg(&script)
        .args(["--seeds", &spec, "--out", dir.to_str().unwrap()])
        .output()
        .expect("run python3 (install the pinned pyarrow: see tests/interop/requirements.txt)");
    assert!(
        out.status.success(),
        "where_gen.py failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let cases: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("cases.json")).unwrap()).unwrap();
    let mut failures = Vec::new();
    let mut n = 0;
    let mut pyarrow_pruning_bugs = 0;
    // Row groups seen, pruned by statistics, dictionaries, Bloom filters; rows the page
    // index excluded.
    let mut pruned = [0u64; 5];
    for seed in cases.as_array().unwrap() {
        let s = seed["seed"].as_u64().unwrap();
        let bytes = std::fs::read(seed["file"].as_str().unwrap()).unwrap();
        let file = FileReader::from_bytes(&bytes).unwrap();
        for case in seed["cases"].as_array().unwrap() {
            n += 1;
            pyarrow_pruning_bugs += usize::from(case.get("read_table_rows").is_some());
            let text = case["where"].as_str().unwrap();
            let rows: Vec<u64> = case["rows"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r.as_u64().unwrap())
                .collect();
            if let Err(m) = check(&file, &bytes, text, &rows, &mut pruned) {
                failures.push(format!(
                    "seed {s} (options {}): {text}\n  {m}\n  repro: PARKET_WHERE_SEEDS={s}..{} cargo test --all-features --test predicate_interop",
                    seed["options"],
                    s + 1
                ));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!(
        "{n} cases over {} row groups: statistics pruned {}, dictionaries {}, Bloom filters {}; \
         the page index excluded {} rows",
        pruned[0], pruned[1], pruned[2], pruned[3], pruned[4]
    );
    if pyarrow_pruning_bugs > 0 {
        eprintln!(
            "note: in {pyarrow_pruning_bugs} cases pyarrow's read_table(filters=...) dropped rows \
             that the same filter on the table keeps (its statistics pruning with NaN literals)"
        );
    }
    assert!(
        failures.is_empty(),
        "{} of {n} cases differ:\n{}",
        failures.len(),
        failures[..failures.len().min(8)].join("\n")
    );
    assert!(n > 0);
}
